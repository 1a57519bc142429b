"""Saved searches' counts, kept as papers are triaged: a decision costs the same with one saved
search as with 1,000.

A saved search's papers are found once by the index (its words and its qualifiers about the
papers); its qualifiers about triage (``is:``, ``has:note``, ``tag:``: ``live_qualifiers``)
change as papers are decided, so its count does too. Counting every saved search's papers again
at every key made each key take 8-15 s with 1,000 saved searches. ``SavedCounts`` counts each
search once (``track``), then moves the counts by each change of one paper's triage
(``changed``): only the searches holding that paper are looked at, each by one test of the
paper's triage before and after (``passes``, remembered per set of qualifiers).

Nothing here needs the index: a screen keeps one ``SavedCounts`` beside its saved tabs.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from storage.models import Status
from storage.search.qualifiers import Qualifier, kind_of

if TYPE_CHECKING:
    from storage.models import Paper
    from storage.search.postings import BoolArray
    from storage.search.qualifiers import NumberTest

#: Answers of ``passes`` remembered (few distinct sets of qualifiers, four statuses).
_ANSWERS_KEPT: Final = 4096


@dataclass(frozen=True, slots=True)
class PaperTriage:
    """One paper's triage, as the triage qualifiers read it."""

    status: Status = Status.INBOX
    note: str = ""
    tags: tuple[str, ...] = ()


def paper_triage(
    statuses: Mapping[str, Status],
    notes: Mapping[str, str],
    tags: Mapping[str, Sequence[str]],
    paper_id: str,
) -> PaperTriage:
    """A paper's triage from the maps a ``TriageState`` (or the app's session) holds."""
    return PaperTriage(
        statuses.get(paper_id, Status.INBOX),
        notes.get(paper_id, ""),
        tuple(tags.get(paper_id, ())),
    )


class NotTriage(Exception):
    """A qualifier asked about the papers themselves, not their triage."""


class _OnePaper:
    """The ``PaperFacts`` of one paper's triage: each answer a mask of one."""

    def __init__(self, triage: PaperTriage) -> None:
        self._triage = triage

    @staticmethod
    def _mask(value: bool) -> BoolArray:
        import numpy as np

        return np.array([value], dtype=np.bool_)

    def with_status(self, wanted: frozenset[Status]) -> BoolArray:
        return self._mask(self._triage.status in wanted)

    def with_note(self) -> BoolArray:
        return self._mask(bool(self._triage.note.strip()))

    def tagged(self, accepts: Callable[[Sequence[str]], bool]) -> BoolArray:
        return self._mask(bool(self._triage.tags) and accepts(self._triage.tags))

    def with_code(self) -> BoolArray:
        raise NotTriage

    def with_venue(self, accepts: Callable[[str], bool]) -> BoolArray:
        raise NotTriage

    def in_lists(self, accepts: Callable[[tuple[str, ...]], bool]) -> BoolArray:
        raise NotTriage

    def by_author(self, name: str, *, highlight: bool) -> BoolArray:
        raise NotTriage

    def in_field(self, field: str, text: str, *, highlight: bool) -> BoolArray:
        raise NotTriage

    def with_number(self, field: str, test: NumberTest) -> BoolArray:
        raise NotTriage

    def with_area(self, accepts: Callable[[str], bool]) -> BoolArray:
        raise NotTriage

    def in_pdf(self, text: str) -> BoolArray:
        raise NotTriage

    def where(self, accepts: Callable[[Paper], bool]) -> BoolArray:
        raise NotTriage


def is_live(qualifier: Qualifier) -> bool:
    """True for a qualifier about triage (its answer changes as papers are triaged)."""
    try:
        kind_of(qualifier).select(_OnePaper(PaperTriage()), qualifier)
    except NotTriage:
        return False
    return True


def live_qualifiers(qualifiers: Iterable[Qualifier]) -> tuple[Qualifier, ...]:
    """The qualifiers about triage, in order."""
    return tuple(q for q in qualifiers if is_live(q))


_answers: OrderedDict[tuple[tuple[Qualifier, ...], PaperTriage], bool] = OrderedDict()


def passes(live: tuple[Qualifier, ...], triage: PaperTriage) -> bool:
    """Whether a paper of this triage passes every one of the triage qualifiers ``live``."""
    key = (live, triage)
    found = _answers.get(key)
    if found is not None:
        return found
    facts: Any = _OnePaper(triage)
    found = all(bool(kind_of(q).select(facts, q)[0]) != q.negated for q in live)
    _answers[key] = found
    if len(_answers) > _ANSWERS_KEPT:
        _answers.popitem(last=False)
    return found


class SavedCounts:
    """Each tracked saved search's count, moved by each change of a paper's triage."""

    def __init__(self) -> None:
        self._counts: dict[str, int] = {}
        self._live: dict[str, tuple[Qualifier, ...]] = {}
        #: Paper id → the searches with triage qualifiers that hold it.
        self._holding: dict[str, list[str]] = {}
        self._papers: dict[str, tuple[str, ...]] = {}

    def track(
        self,
        key: str,
        paper_ids: Sequence[str],
        live: Sequence[Qualifier],
        triage_of: Callable[[str], PaperTriage],
    ) -> int:
        """Count the search ``key`` (its papers, as the index found them, and its triage
        qualifiers); returns the count. Work: its papers, once."""
        self.forget(key)
        live = tuple(live)
        ids = tuple(dict.fromkeys(paper_ids))
        self._papers[key] = ids
        if not live:
            self._counts[key] = len(ids)
            return len(ids)
        self._live[key] = live
        for pid in ids:
            self._holding.setdefault(pid, []).append(key)
        count = sum(1 for pid in ids if passes(live, triage_of(pid)))
        self._counts[key] = count
        return count

    def forget(self, key: str) -> None:
        """Stop counting the search ``key`` (deleted, or about to be searched again)."""
        self._counts.pop(key, None)
        live = self._live.pop(key, None)
        ids = self._papers.pop(key, ())
        if live is None:
            return
        for pid in ids:
            keys = self._holding.get(pid)
            if keys is not None:
                keys.remove(key)
                if not keys:
                    del self._holding[pid]

    def count(self, key: str) -> int | None:
        """The search's count (None when it is not tracked: not searched yet)."""
        return self._counts.get(key)

    def changed(self, paper_id: str, before: PaperTriage, after: PaperTriage) -> list[str]:
        """One paper's triage changed from ``before`` to ``after``: move the counts of the
        searches holding it; returns the keys whose count moved. Work: those searches only."""
        moved: list[str] = []
        if before == after:
            return moved
        for key in self._holding.get(paper_id, ()):
            live = self._live[key]
            delta = passes(live, after) - passes(live, before)
            if delta:
                self._counts[key] += delta
                moved.append(key)
        return moved

    def recount(self, triage_of: Callable[[str], PaperTriage]) -> None:
        """Count every tracked search again (the triage was replaced as a whole: read again
        from the disk after another process changed it)."""
        for key, live in self._live.items():
            self._counts[key] = sum(1 for pid in self._papers[key] if passes(live, triage_of(pid)))
