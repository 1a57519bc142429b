"""The sorts a reading queue can be given once: each a key over the queue's papers.

A sort is stable: papers it cannot tell apart (no rating, the same venue status) keep the
order they had. It gives an order; the caller writes it as positions (one undo step).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from storage.models import Paper

#: Venue statuses in the order a reader wants them first.
VENUE_ORDER: Final = {"oral": 0, "spotlight": 1, "poster": 2}


@dataclass(frozen=True, slots=True)
class SortFacts:
    """What the sorts read of the queue's papers beyond the papers themselves."""

    papers: Mapping[str, Paper]
    #: When each paper was starred (seconds since the epoch).
    decided_at: Mapping[str, float] = field(default_factory=dict)
    #: Likeness to the other starred papers (higher: more alike), when worked out.
    likeness: Mapping[str, float] = field(default_factory=dict)
    #: Pages of the downloaded PDF, when its text was read.
    pages: Mapping[str, int] = field(default_factory=dict)


def _rating_of(pid: str, facts: SortFacts) -> float | None:
    paper = facts.papers.get(pid)
    value = paper.fact("rating") if paper is not None else None
    return float(value) if isinstance(value, int | float) else None


def _rating(pid: str, facts: SortFacts) -> Any:
    value = _rating_of(pid, facts)
    return (0, -value) if value is not None else (1, 0.0)


def _rated(pid: str, facts: SortFacts) -> bool:
    return _rating_of(pid, facts) is not None


def _likeness(pid: str, facts: SortFacts) -> Any:
    score = facts.likeness.get(pid)
    return (0, -score) if score is not None else (1, 0.0)


def venue_rank(venue_status: str) -> int:
    """Where a venue status stands among others: orals, spotlights, posters (``Oral``,
    ``Spotlight Poster``), then any other status, then none."""
    status = venue_status.strip().casefold()
    first = status.split()[0] if status else ""
    return VENUE_ORDER.get(first, 3 if status else 4)


def _venue(pid: str, facts: SortFacts) -> Any:
    paper = facts.papers.get(pid)
    return venue_rank(paper.venue_status if paper is not None else "")


def _length(pid: str, facts: SortFacts) -> Any:
    pages = facts.pages.get(pid)
    if pages:
        return (0, pages)
    paper = facts.papers.get(pid)
    words = len(paper.abstract.split()) if paper is not None else 0
    # a paper of neither (a title alone) has no known length: last, as one without a rating
    # is in the sort by rating (it counted as 0 words, the shortest of all: the head)
    return (1, words) if words else (2, 0)


def _starred(pid: str, facts: SortFacts) -> Any:
    return facts.decided_at.get(pid, 0.0)


@dataclass(frozen=True, slots=True)
class QueueSort:
    """One way to sort the queue: its name (``papers queue sort NAME``), label and key."""

    name: str
    label: str
    key: Callable[[str, SortFacts], Any]
    #: Whether it needs the similarity index (``SortFacts.likeness``).
    needs_likeness: bool = False
    #: Whether a paper has what the sort reads (None: every paper has it), and what that is
    #: ("rating"): when no paper has it, the sort leaves the order as it was.
    known: Callable[[str, SortFacts], bool] | None = None
    what_known: str = ""

    @property
    def named(self) -> str:
        """The sort as a phrase: "by venue status" (its label up to its first comma or colon)."""
        return re.split("[,:]", self.label)[0].lower()

    def none_known(self, ids: Sequence[str], facts: SortFacts) -> bool:
        """No paper of ``ids`` has what this sort reads (a rating): it can order none."""
        return self.known is not None and not any(self.known(pid, facts) for pid in ids)

    def unsorted(self, ids: Sequence[str], facts: SortFacts) -> str | None:
        """What is said when no paper of ``ids`` has what this sort reads (``none_known``),
        the app and ``papers queue sort`` alike; None when the sort can order them."""
        if not self.none_known(ids, facts):
            return None
        what = self.what_known
        said = (
            f"The starred paper has no {what}"
            if len(ids) == 1
            else f"None of the {len(ids):,} starred papers has a {what}"
        )
        return f"{said}: the queue keeps its order."

    def order(self, ids: Sequence[str], facts: SortFacts) -> list[str]:
        """``ids`` sorted by this key (stably: ties keep their order)."""
        return sorted(ids, key=lambda pid: self.key(pid, facts))


SORTS: Final[tuple[QueueSort, ...]] = (
    QueueSort(
        "rating",
        "By rating, highest first (papers without one last)",
        _rating,
        known=_rated,
        what_known="rating",
    ),
    QueueSort(
        "likeness",
        "By likeness to your other starred papers, most alike first",
        _likeness,
        needs_likeness=True,
    ),
    QueueSort("venue", "By venue status: orals, spotlights, posters, then the rest", _venue),
    QueueSort(
        "length",
        # (papers without a PDF read come last, as those without a rating do: two measures)
        "By length, shortest first: PDFs read by their pages, then the rest by abstract words",
        _length,
    ),
    QueueSort("starred", "By when you starred them, oldest first", _starred),
)


def sort_named(name: str) -> QueueSort:
    """The sort called ``name`` (``ValueError`` naming the sorts for another)."""
    for sort in SORTS:
        if sort.name == name.strip().casefold():
            return sort
    names = ", ".join(s.name for s in SORTS)
    raise ValueError(f"no sort is called {name!r} (choose from {names})")


def sort_said(name: str) -> str:
    """The sort an undo step names (``StepDone.sort``) as a phrase: "by venue status" (a
    name this version does not know, written by a later one: "by NAME")."""
    try:
        return sort_named(name).named
    except ValueError:
        return f"by {name}"
