"""Saved searches as tabs: each query split into what the index searches once and what is
applied live, and the live part answered from the triage as papers are triaged.

A saved search's tab (``SavedTab``) lists the papers its query found, searched once per
library and query; the part of the query that asks about triage (``is:``, ``tag:``,
``has:note``) is applied to those papers as they are triaged (``triage_passes`` over
``TriageFacts``), so that its rows and its count stay right without a search per keystroke.
Plain Python like ``tui/view.py``, whose ``TriageView`` keeps the tabs.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import repeat
from typing import TYPE_CHECKING, Final, TypeVar

from storage.models import Paper, Status
from storage.text.sanitize import printable

if TYPE_CHECKING:
    from storage.files.saved_searches import SavedSearch
    from storage.search.postings import BoolArray
    from storage.search.qualifiers import NumberTest, Qualifier
    from storage.search.query import Query
    from tui.view import Found, Rows, TabName, Triage

#: The start of the name of a saved search's tab.
SAVED_PREFIX: Final = "saved:"

_Value = TypeVar("_Value")


@dataclass(frozen=True, slots=True)
class _Decisions:
    """Triage of statuses alone."""

    statuses: Mapping[str, Status]
    notes: Mapping[str, str] = field(default_factory=dict)
    tags: Mapping[str, Sequence[str]] = field(default_factory=dict)


class _NotTriage(Exception):
    """A qualifier asked about the papers themselves, not about their triage."""


class TriageFacts:
    """The ``PaperFacts`` of some papers' triage only: state, note, tags (what changes as
    papers are triaged). Any other question raises ``_NotTriage``: that qualifier is the
    index's to answer, once.

    The papers are ``rows`` (positions in ``ids``). Each answer walks the smaller side: the
    rows, or the triage table asked about (20,000 decisions against 100,000 rows: the
    decisions, in ~3 ms rather than ~15).
    """

    def __init__(
        self,
        rows: Rows,
        ids: Sequence[str],
        position: Mapping[str, int],
        triage: Triage,
    ) -> None:
        self._rows = rows
        self._ids = ids
        self._position = position
        self._triage = triage

    def __len__(self) -> int:
        return len(self._rows)

    def _lookup(
        self, table: Mapping[str, _Value], test: Callable[[_Value], bool], missing: _Value
    ) -> BoolArray:
        """For each row, ``test`` of its paper's entry in ``table`` (of ``missing`` without
        one). The maps run in C: only ``test`` is Python, and only where it is a lambda."""
        import numpy as np

        rows, ids = self._rows, self._ids
        if len(rows) <= len(table):
            entries = map(table.get, map(ids.__getitem__, rows), repeat(missing))
            return np.fromiter(map(test, entries), np.bool_, len(rows))
        whole = np.full(len(ids), test(missing), dtype=np.bool_)
        at = np.fromiter(map(self._position.get, table.keys(), repeat(-1)), np.int64, len(table))
        answers = np.fromiter(map(test, table.values()), np.bool_, len(table))
        known = at >= 0  # decided, then gone from the lists
        whole[at[known]] = answers[known]
        return whole[np.asarray(rows, dtype=np.int64)]

    def with_status(self, wanted: frozenset[Status]) -> BoolArray:
        return self._lookup(self._triage.statuses, wanted.__contains__, Status.INBOX)

    def with_note(self) -> BoolArray:
        return self._lookup(self._triage.notes, lambda note: bool(note.strip()), "")

    def tagged(self, accepts: Callable[[Sequence[str]], bool]) -> BoolArray:
        no_tags: Sequence[str] = ()
        return self._lookup(self._triage.tags, lambda tags: bool(tags) and accepts(tags), no_tags)

    def with_code(self) -> BoolArray:
        raise _NotTriage

    def with_venue(self, accepts: Callable[[str], bool]) -> BoolArray:
        raise _NotTriage

    def in_lists(self, accepts: Callable[[tuple[str, ...]], bool]) -> BoolArray:
        raise _NotTriage

    def by_author(self, name: str, *, highlight: bool) -> BoolArray:
        raise _NotTriage

    def in_field(self, field: str, text: str, *, highlight: bool) -> BoolArray:
        raise _NotTriage

    def with_number(self, field: str, test: NumberTest) -> BoolArray:
        raise _NotTriage

    def with_area(self, accepts: Callable[[str], bool]) -> BoolArray:
        raise _NotTriage

    def where(self, accepts: Callable[[Paper], bool]) -> BoolArray:
        raise _NotTriage

    def in_pdf(self, text: str) -> BoolArray:
        raise _NotTriage


def triage_passes(qualifiers: Sequence[Qualifier], facts: TriageFacts) -> BoolArray:
    """Which of the facts' papers pass every one of the triage qualifiers."""
    import numpy as np

    from storage.search.qualifiers import kind_of

    passes = np.ones(len(facts), dtype=np.bool_)
    for qualifier in qualifiers:
        selected = kind_of(qualifier).select(facts, qualifier)
        passes &= ~selected if qualifier.negated else selected
    return passes


def decided_only(live: Sequence[Qualifier]) -> bool:
    """Whether triage qualifiers take decided papers alone (``is:starred``, ``-is:inbox``):
    a search joined with the decided papers past its best (``Ranking.joined_more``) then
    holds every paper they take."""
    from storage.search.qualifiers import statuses_for

    return any(q.key == "is" and (Status.INBOX in statuses_for(q.value)) == q.negated for q in live)


def split_query(text: str) -> tuple[Query, tuple[Qualifier, ...]]:
    """A saved query as its tab runs it: the part the index searches once (words, phrases and
    the qualifiers about the papers), and the qualifiers about triage, applied live."""
    from dataclasses import replace

    from storage.search.qualifiers import kind_of
    from storage.search.query import parse_query

    query = parse_query(text)
    probe = TriageFacts((), (), {}, _Decisions({}))
    live: list[Qualifier] = []
    for qualifier in query.qualifiers:
        try:
            kind_of(qualifier).select(probe, qualifier)
        except _NotTriage:
            continue
        live.append(qualifier)
    searched = tuple(q for q in query.qualifiers if q not in live)
    return replace(query, qualifiers=searched), tuple(live)


@dataclass(slots=True)
class SavedTab:
    """A saved search as a tab: its papers found once, its triage qualifiers applied live."""

    search: SavedSearch
    #: The papers the query's words and paper qualifiers found (None: not searched yet).
    found: Found | None = None
    #: The query's qualifiers about triage (``is:``, ``tag:``, ``has:note``).
    live: tuple[Qualifier, ...] = ()
    #: The rows of ``found``, as a set (to narrow a search typed in the tab).
    row_set: frozenset[int] = field(default_factory=frozenset)
    #: The rows of ``found``, as an array (its count is taken over it at every decision).
    row_array: Rows = ()
    #: The triage version (``TriageSession.version``) its search was made against when the
    #: search took more papers than it lists (its best, then the papers its triage qualifiers
    #: took then): a paper past them that they take later is found by searching again.
    capped_at: int | None = None
    #: The tab's name, and the search it was made for (a search's key folds its name: with
    #: 1,000 saved searches, a decision asked for it thousands of times).
    _named: tuple[SavedSearch | None, TabName, str] = (None, "", "")

    @property
    def name(self) -> TabName:
        return self._names()[1]

    @property
    def label(self) -> str:
        """Its label: the search's name, shown safe."""
        return self._names()[2]

    def _names(self) -> tuple[SavedSearch | None, TabName, str]:
        if self._named[0] is not self.search:
            search = self.search
            self._named = (search, SAVED_PREFIX + search.key, printable(search.name))
        return self._named

    def lists_decided(self) -> bool:
        """Whether it takes decided papers alone (``decided_only``) and lists every one its
        query found, not the best of more: a search typed in it, which gets the decided papers
        past its best (``Ranking.joined_more``), then lists every paper it matches here."""
        from tui.view import SEARCH_LIMIT

        found = self.found
        if found is None or not decided_only(self.live):
            return False
        ranking = found.ranking
        return ranking.listed or ranking.joined_more or len(found) < SEARCH_LIMIT

    def take(self, found: Found | None, live: tuple[Qualifier, ...] = ()) -> None:
        """The tab's papers (remapped, or searched again)."""
        self.found = found
        self.live = live
        self.row_set = frozenset(found.rows) if found is not None else frozenset()
        if found is not None and live:
            import numpy as np

            self.row_array = np.asarray(found.rows, dtype=np.int64)
