"""Why a search found no paper, when the index can tell at little cost.

``rating:>6`` in a library without ratings, or ``status:oral has:code author:bengio`` where no
oral paper is Bengio's, found nothing and said nothing (``papers search`` printed nothing, the
app showed an empty list). A search that finds nothing now says why, in the words the CLI's
line and the app's list border share (``Ranking.why_none``):

1. a qualifier over a field no paper of the library has (``QualifierKind.lacking``): "no paper
   in this library has a rating (ratings come with …)";
2. else, a part of a query of several that matches no paper alone: "author:zzz matches no
   paper";
3. else, the first two parts that have no paper in common: "none matches both status:oral
   (213 papers) and author:bengio (16 papers)";
4. else, when the parts together have none: "none matches all of …, though each two of them
   have papers in common"; else nothing (a phrase not in a row, say: the papers have its
   words).

The verdict comes first: the app's list border shows some 55 characters at 120 columns.

Each part is a mask the filters made anyway (``Filters.allowed``) and the words' the ranking
keeps: a search that found papers pays nothing, one that found none a few array operations
(and, once per index, a look at the papers for ``year:`` or ``venue:``, which the qualifier
itself takes at each search).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

import numpy as np

from storage.search.postings import BoolArray
from storage.search.qualifiers import HeldFields, Qualifier, kind_of
from storage.search.query import Query
from storage.text.words import count


@dataclass(frozen=True, slots=True)
class Part:
    """One part of a query as a filter: how it is written, and the papers it may keep (exact
    for a qualifier; the papers with a phrase's words, in a row or not; with any of the
    query's words). A part keeps no paper outside its mask, so none in common is none."""

    label: str
    mask: BoolArray
    qualifier: Qualifier | None = None
    #: Whether the mask holds only the papers the part keeps (a phrase of several words:
    #: those with its words, in a row or not), so that it counts them.
    exact: bool = True

    def counted(self, n: int) -> str:
        """The part with the papers it keeps alone: ``status:oral (213 papers)``."""
        return f"{self.label} ({count(n, 'paper')})" if self.exact else self.label


def qualifier_label(qualifier: Qualifier) -> str:
    """A qualifier as it is written (``-author:"yoshua bengio"``), its value folded."""
    value = f'"{qualifier.value}"' if " " in qualifier.value else qualifier.value
    return f"{'-' if qualifier.negated else ''}{qualifier.key}:{value}"


def words_label(query: Query) -> str:
    """A query's words (and the phrases of its ``OR`` groups) as one part: ``'graph neural'``."""
    _, grouped = query.grouped()
    phrases = [f'"{phrase}"' for i, phrase in enumerate(query.phrases) if i in grouped]
    return repr(" ".join([*query.words, *phrases]))


def why_none(parts: Sequence[Part], live: BoolArray, facts: HeldFields) -> str:
    """Why no paper matches a query of these parts ("" when it cannot tell)."""
    masks = [part.mask & live for part in parts]
    alone = [int(np.count_nonzero(mask)) for mask in masks]
    lacking = [
        kind_of(part.qualifier).lacking(facts, part.qualifier)
        for part, n in zip(parts, alone, strict=True)
        if n == 0 and part.qualifier is not None and not part.qualifier.negated
    ]
    said = "; ".join(dict.fromkeys(note for note in lacking if note))
    if said or len(parts) < 2:  # one part: "no paper matches it" is all there is to say
        return said
    for part, n in zip(parts, alone, strict=True):
        if n == 0:
            return f"{part.label} matches no paper"
    for i, j in combinations(range(len(parts)), 2):
        if not np.any(masks[i] & masks[j]):
            a, b = parts[i].counted(alone[i]), parts[j].counted(alone[j])
            return f"none matches both {a} and {b}"
    if len(parts) > 2 and not np.any(np.logical_and.reduce(masks)):
        labels = [part.label for part in parts]
        joined = f"{', '.join(labels[:-1])} and {labels[-1]}"
        return f"none matches all of {joined}, though each two of them have papers in common"
    return ""
