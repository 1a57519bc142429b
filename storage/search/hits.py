"""What a search returns: a ``Ranking`` of paper ids, best first, and a ``SearchHit`` per paper
read, whose matched words are worked out only when asked for.

An app showing thousands of matches needs their ids for its list and the matched words only for
the paper on screen, so the words are explained lazily, a block of hits at a time.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import partial
from itertools import repeat
from typing import Final

import numpy as np

from storage.models import Paper
from storage.search.postings import AUTHORS, FIELDS, FIELDS_OF_MASK, IntArray, Segment
from storage.search.text import tokenize
from storage.text.words import count

#: Matched words of a hit, and per field name the words matched there.
Words = tuple[frozenset[str], Mapping[str, frozenset[str]]]


class Explanation:
    """Where a search's hits get their matched words from."""

    def words(self, row: int) -> Words:
        """The matched words of the ``row``-th hit of a search, and the fields they are in."""
        raise NotImplementedError


class _NoWords(Explanation):
    """No words matched (a query of filters only)."""

    _EMPTY: Final[Words] = (frozenset(), {})

    def words(self, row: int) -> Words:
        return self._EMPTY


#: The explanation of a search without words.
NO_WORDS: Final[Explanation] = _NoWords()


class _KnownWords(Explanation):
    """Matched words given outright (a hit made by hand)."""

    def __init__(self, matched: frozenset[str], fields: Mapping[str, frozenset[str]]) -> None:
        self._found = (matched, fields)

    def words(self, row: int) -> Words:
        return self._found


class MatchedWords(Explanation):
    """Which words each hit of one search matched, and where: worked out block by block.

    It keeps the index's arrays as they were at search time, so an ``add`` meanwhile does not
    change what a hit says.
    """

    _BLOCK: Final = 128

    def __init__(
        self,
        papers: Sequence[Paper],
        segments: tuple[Segment, ...],
        terms: list[str],
        slots: IntArray,
        tids: tuple[tuple[int, int], ...],
        author_terms: frozenset[str],
    ) -> None:
        """``tids`` pairs each matched term id with the fields (bits) where it counts: every
        field for a query word, the title only for ``title:``."""
        self._papers = papers
        self._segments = segments
        self._terms = terms
        self._slots = slots
        self._tids = tids
        self._author_terms = author_terms
        self._done: dict[int, Words] = {}

    def words(self, row: int) -> Words:
        """The matched words of the ``row``-th hit, and the fields they are in."""
        found = self._done.get(row)
        if found is None:
            # Blocks grow with use: reading every hit costs a few passes over the postings.
            size = max(self._BLOCK, len(self._done))
            self._explain(row, min(row + size, len(self._slots)))
            found = self._done[row]
        return found

    def _explain(self, start: int, stop: int) -> None:
        slots = self._slots[start:stop]
        found: list[list[set[str]]] = [[set(), set(), set(), set()] for _ in range(len(slots))]
        order = np.argsort(slots, kind="stable")
        sorted_slots = slots[order]
        for tid, wanted in self._tids:
            term = self._terms[tid]
            for segment in self._segments:
                span, present = segment.postings(tid)
                if not present:
                    continue
                docs = segment.docs[span]
                at = docs.searchsorted(sorted_slots)
                np.minimum(at, len(docs) - 1, out=at)
                present_at = docs[at] == sorted_slots
                if not present_at.any():
                    continue
                rows = present_at.nonzero()[0]
                masks = segment.masks[span][at[rows]] & wanted
                for row, bits in zip(order[rows].tolist(), masks.tolist(), strict=True):
                    sets = found[row]
                    for f in FIELDS_OF_MASK[bits]:
                        sets[f].add(term)
        for offset, slot in enumerate(slots.tolist()):
            per_field = found[offset]
            if self._author_terms:
                authors = tokenize("; ".join(self._papers[slot].authors))
                per_field[AUTHORS].update(t for t in authors if t in self._author_terms)
            fields = {FIELDS[f]: frozenset(per_field[f]) for f in range(4) if per_field[f]}
            matched = frozenset().union(*fields.values()) if fields else frozenset()
            self._done[start + offset] = (matched, fields)


class SearchHit(tuple[str, float, Explanation, int]):
    """One paper found: its id, its score (higher is better) and the index words it matched.

    ``matched`` and ``fields`` are worked out when first read, for a block of hits at a time,
    so that a search returning every paper stays cheap: read them for the papers you show.
    Immutable; a tuple underneath, because a search may return 100,000 of them and a tuple is
    the cheapest object Python makes (use the named properties, not the items).
    """

    __slots__ = ()

    def __new__(
        cls,
        paper_id: str,
        score: float,
        matched: frozenset[str] = frozenset(),
        fields: Mapping[str, frozenset[str]] | None = None,
    ) -> SearchHit:
        return tuple.__new__(cls, (paper_id, score, _KnownWords(matched, dict(fields or {})), 0))

    @property
    def paper_id(self) -> str:
        """The id of the paper found."""
        return self[0]

    @property
    def score(self) -> float:
        """How well it matched: higher is better (0 for a query of filters only)."""
        return self[1]

    @property
    def matched(self) -> frozenset[str]:
        """Index words that matched (normalised), for highlighting."""
        return self[2].words(self[3])[0]

    @property
    def fields(self) -> Mapping[str, frozenset[str]]:
        """Field name ("title", "name", "authors", "abstract") -> the matched words there."""
        return self[2].words(self[3])[1]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SearchHit):
            return NotImplemented
        return (self.paper_id, self.score, self.matched, dict(self.fields)) == (
            other.paper_id,
            other.score,
            other.matched,
            dict(other.fields),
        )

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __hash__(self) -> int:
        return hash((self.paper_id, self.score))

    def __repr__(self) -> str:
        return f"SearchHit({self.paper_id!r}, {self.score!r}, matched={set(self.matched)!r})"


class _Joined(Explanation):
    """The words of a ranking's papers, then of another's it lacked (``Ranking.joined``)."""

    def __init__(
        self, first: Explanation, size: int, second: Explanation, rows: Sequence[int]
    ) -> None:
        self._first, self._size, self._second, self._rows = first, size, second, rows

    def words(self, row: int) -> Words:
        if row < self._size:
            return self._first.words(row)
        return self._second.words(self._rows[row - self._size])


class Ranking:
    """The papers one search found, best first: their ids at once, a ``SearchHit`` for the
    ones read.

    An app showing thousands of matches needs their ids for its list and a hit (matched
    words) only for the paper on screen: making 5,000 hits per keystroke costs more than the
    search, and leaves the collector 5,000 objects to walk.
    """

    __slots__ = (
        "_explanation",
        "_scores",
        "ids",
        "joined_more",
        "listed",
        "partial",
        "searched",
        "why_none",
    )

    def __init__(
        self,
        ids: list[str],
        scores: Sequence[float],
        explanation: Explanation = NO_WORDS,
        partial: tuple[int, int] | None = None,
    ) -> None:
        #: Paper ids, best first.
        self.ids = ids
        self._scores = scores
        self._explanation = explanation
        #: ``(matched, of)`` when no paper matched every word of the query and these papers
        #: are the closest: they match ``matched`` of its ``of`` words (``matching.py``).
        self.partial = partial
        #: When no paper matched: how many papers were searched, and why none matched, if
        #: the index could tell ("" otherwise: ``none_found.py``).
        self.searched = 0
        self.why_none = ""
        #: The papers are in list order, not best first (a query of filters only: no word
        #: ranks them), so that a list with an order of its own (the reading queue) keeps it.
        self.listed = False
        #: Another search's papers follow the best ones (``joined``): all it found is here.
        self.joined_more = False

    def joined(self, more: Ranking) -> Ranking:
        """This ranking's papers, then those of ``more`` it lacks, in ``more``'s order, each
        explained by its own search: the best of a whole library, then every paper of a
        narrower search of the same query (the few papers of a tab) past them."""
        have = set(self.ids)
        rows = [row for row, pid in enumerate(more.ids) if pid not in have]
        ids = self.ids + [more.ids[row] for row in rows]
        scores = [*self._scores, *(more._scores[row] for row in rows)]
        explanation = _Joined(self._explanation, len(self.ids), more._explanation, rows)
        joined = Ranking(ids, scores, explanation, self.partial)
        joined.listed = self.listed and more.listed
        joined.joined_more = True
        return joined

    def partial_note(self) -> str:
        """What the papers are when no paper has every word, in one line ("no paper has all 4
        words; showing those with 3 of 4"); empty when they have every word."""
        if self.partial is None:
            return ""
        matched, of = self.partial
        every = "both words" if of == 2 else f"all {of:,} words"
        return f"no paper has {every}; showing those with {matched:,} of {of:,}"

    def none_note(self, query: str) -> str:
        """The line of a search that found nothing: "no paper matches 'rating:>6' (3,703
        papers searched): " and why, when it is known; "" when it found papers."""
        if self.ids:
            return ""
        shown = query if len(query) <= 60 else f"{query[:59]}…"
        if not self.searched:
            return f"no paper matches {shown!r}: the library has no papers"
        why = f": {self.why_none}" if self.why_none else ""
        return f"no paper matches {shown!r} ({count(self.searched, 'paper')} searched){why}"

    def __len__(self) -> int:
        return len(self.ids)

    def hit(self, row: int) -> SearchHit:
        """The ``row``-th paper found (0 is the best), as a hit."""
        return tuple.__new__(SearchHit, (self.ids[row], self._scores[row], self._explanation, row))

    def hits(self) -> list[SearchHit]:
        """Every paper found, as hits."""
        # Tuples made by ``tuple.__new__`` from ``map``: no Python code runs per hit.
        make = partial(tuple.__new__, SearchHit)
        rows = zip(self.ids, self._scores, repeat(self._explanation), range(len(self.ids)))
        return list(map(make, rows))
