"""What the main screen shows, as plain state: tab, search, suggested order, rows, counts, marks.

``TriageView`` is the one owner of what the screen shows: the rows the list lists
(``listed``), the counts the tab bar draws, and what the pane shows of a paper
(``paper_view``). The widgets read it and keep no copy. It holds the state that must change
together (a tab switch shows the marks of the tab shown, new papers drop the search results and
the suggestions made for the old ones, results for an old query are dropped, a decided paper
leaves the rows of a tab that no longer holds it) and answers what to draw. The decisions
themselves are the session's (``triage``: the live state, read, never written here). It
imports no Textual: tests drive it alone.

Besides the five built-in tabs, each saved search is a tab (``SavedTab``, in
``tui/saved_tabs.py``): its query is searched once per library and query, and the part of it
that asks about triage (``is:``, ``tag:``, ``has:note``) is applied to those papers as they
are triaged, so that its rows and its count stay right without a search per keystroke.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Final, Protocol, TypeAlias

from storage.files.triage_file import Change
from storage.models import Paper, Status
from storage.search.query import parse_query
from storage.text.words import count
from tui.paper_view import PaperView
from tui.saved_tabs import SAVED_PREFIX, SavedTab, TriageFacts, triage_passes

if TYPE_CHECKING:  # imported when the index is built, after the first paint
    from storage.files.saved_searches import SavedSearch
    from storage.search import Ranking
    from storage.search.postings import BoolArray, IntArray
    from storage.search.qualifiers import Qualifier
    from storage.search.saved_counts import SavedCounts
    from storage.similar import Suggestion

#: A tab's name: one of ``TABS``, or ``SAVED_PREFIX`` and a saved search's folded name.
TabName = str


class _Tabs(dict[TabName, tuple[str, frozenset[Status] | None]]):
    """The built-in tabs; a saved search's tab reads as every status (its query chooses)."""

    def __missing__(self, name: TabName) -> tuple[str, frozenset[Status] | None]:
        if name.startswith(SAVED_PREFIX):
            return ("Saved search", None)
        raise KeyError(name)


#: Tab name → its label and the statuses it shows (None: every paper).
TABS: Final = _Tabs(
    {
        "inbox": ("Inbox", frozenset({Status.INBOX})),
        "starred": ("Starred", frozenset({Status.STARRED})),
        "read": ("Read", frozenset({Status.READ})),
        "skipped": ("Skipped", frozenset({Status.SKIPPED})),
        "all": ("All", None),
    }
)
#: The best this many matches are listed (a one-letter query at 100,000 papers matches most).
SEARCH_LIMIT = 5000


@dataclass(frozen=True, slots=True)
class Found:
    """A search's papers as the screen uses them: rows for the list, words for the detail."""

    ranking: Ranking
    #: The paper positions ``rows`` refer to (replaced by an import).
    position: Mapping[str, int]
    #: Positions in the papers of the papers found, best first.
    rows: list[int]
    #: Paper id -> its row in ``ranking``.
    where: dict[str, int]

    @classmethod
    def of(cls, ranking: Ranking, position: Mapping[str, int]) -> Found:
        where = {pid: i for i, pid in enumerate(ranking.ids) if pid in position}
        return cls(ranking, position, [position[pid] for pid in where], where)

    def __len__(self) -> int:
        return len(self.ranking)

    def matched(self, paper_id: str) -> frozenset[str]:
        """The index words the paper matched (none when it was not found)."""
        row = self.where.get(paper_id)
        return frozenset() if row is None else self.ranking.hit(row).matched

    @property
    def partial(self) -> tuple[int, int] | None:
        """``(matched, of)`` when no paper has every word and these have ``matched`` of them."""
        return self.ranking.partial


class Triage(Protocol):
    """The live triage the view reads (``TriageState`` is one)."""

    @property
    def statuses(self) -> Mapping[str, Status]: ...
    @property
    def notes(self) -> Mapping[str, str]: ...
    @property
    def tags(self) -> Mapping[str, Sequence[str]]: ...


#: Positions of papers: a list, or an array (``SavedTab.row_array``).
Rows: TypeAlias = "Sequence[int] | IntArray"


def _same(kept: tuple[object, ...], stamp: tuple[object, ...]) -> bool:
    """The same version (equal) of the same objects (identical)."""
    return (
        len(kept) == len(stamp)
        and kept[0] == stamp[0]
        and all(a is b for a, b in zip(kept[1:], stamp[1:], strict=True))
    )


class TriageView:
    """The main screen's state: which papers show, in which order, and what they are called.

    ``triage`` returns the live triage (the session's state: statuses of decided papers only,
    notes, tags); the view never writes it.
    """

    def __init__(
        self,
        papers: list[Paper],
        triage: Callable[[], Triage],
        version: Callable[[], int] | None = None,
    ) -> None:
        #: The live triage (read again each time: a reload replaces it).
        self.triage = triage
        #: A number that changes whenever the statuses do (the session's): the built-in tabs'
        #: rows are then kept until it changes (a tab key costs no walk over the papers).
        self._version = version
        self._kept_rows: tuple[tuple[object, ...], dict[str, list[int]]] = ((), {})
        self._kept_counts: tuple[tuple[object, ...], dict[str, int]] = ((), {})
        #: The saved tabs' counts with triage qualifiers (``is:``, ``has:note``, ``tag:``),
        #: counted once per tab's search and then moved by each decision: a key costs the same
        #: with 1,000 such tabs as with none. Valid for the triage version of ``_saved_stamp``;
        #: ``_saved_found``: the search each tab's count was made from.
        self._saved_counts: SavedCounts | None = None
        self._saved_stamp: tuple[object, ...] = ()
        self._saved_found: dict[str, Found] = {}
        self.tab: TabName = "inbox"
        #: The search text, stripped ("" for no search).
        self.query = ""
        #: The current search's papers (None while there is no search or no result yet).
        self.found: Found | None = None
        #: Suggested order of the Inbox: paper id → the starred paper it is like (or None).
        self.suggested: dict[str, str | None] | None = None
        self.suggested_rows: list[int] | None = None
        #: Papers marked for a bulk decision (one set for the view's life: widgets share it).
        self.marked: set[str] = set()
        #: Only the marked papers of the list show (to review them before deciding).
        self.only_marked = False
        #: The marks of the tabs left, each given back when its tab is shown again.
        self.marks_left: dict[str, set[str]] = {}
        #: Tab → the paper the cursor was on when the tab was left.
        self.places: dict[str, str] = {}
        #: The saved searches' tabs, in the order saved (after the built-in tabs).
        self.saved: list[SavedTab] = []
        #: The reading queue, head first (the Starred tab shows it in this order; None:
        #: list order).
        self.queue: Callable[[], Sequence[str]] | None = None
        self.papers: list[Paper] = []
        self.ids: list[str] = []
        self.position: dict[str, int] = {}
        #: The rows the list shows (positions in ``papers``), as ``relist`` made them and
        #: ``decided`` kept them since: the list widget reads these, and keeps no copy.
        self.listed: list[int] = []
        self.replace_papers(papers)

    # -- papers ---------------------------------------------------------------------------
    def replace_papers(self, papers: list[Paper]) -> None:
        """New papers (an import): results and suggestions made for the old ones go; the rows
        listed stay, mapped to the new papers (those still there), until listed again."""
        old_ids = self.ids
        self.papers = papers
        self.ids = [p.id for p in papers]
        self.position = position = {pid: i for i, pid in enumerate(self.ids)}
        listed = (old_ids[i] for i in self.listed)
        self.listed = [position[pid] for pid in listed if pid in position]
        self.found = None
        self.suggested = None
        self.suggested_rows = None
        for tab in self.saved:  # the papers still there keep their tab until it is searched again
            if tab.found is not None:
                tab.take(Found.of(tab.found.ranking, self.position), tab.live)

    def paper(self, paper_id: str) -> Paper | None:
        i = self.position.get(paper_id)
        return None if i is None else self.papers[i]

    def status(self, paper_id: str) -> Status:
        """A paper's live status."""
        return self.triage().statuses.get(paper_id, Status.INBOX)

    def noted(self, paper_id: str) -> bool:
        """Whether a paper has a note."""
        return paper_id in self.triage().notes

    def paper_view(self, paper: Paper) -> PaperView:
        """What the pane shows of ``paper``: the paper with its triage state and search."""
        triage = self.triage()
        return PaperView(
            paper,
            triage.statuses.get(paper.id, Status.INBOX),
            note=triage.notes.get(paper.id, ""),
            tags=triage.tags.get(paper.id, ()),
            words=self.matched(paper.id),
            why=self.why(paper),
        )

    def title(self, paper_id: str) -> str:
        """A paper's title for a message (its id when it is gone)."""
        paper = self.paper(paper_id)
        return paper.display_title if paper is not None else paper_id

    # -- tabs -----------------------------------------------------------------------------
    def show_tab(self, name: str, leaving: str | None = None) -> bool:
        """Switch to tab ``name``, remembering ``leaving`` (the paper the cursor was on) as
        the place to come back to; False when it is not a tab or already shown."""
        if name == self.tab or name not in TABS and self.saved_tab(name) is None:
            return False
        if leaving is not None:
            self.places[self.tab] = leaving
        self.enter(name)
        return True

    def enter(self, name: TabName) -> None:
        """Show tab ``name`` with its own marks, those of the tab left kept for it (255 papers
        of a topic marked, a look at the Starred tab, and they were gone): every change of tab
        comes here (one made around it left a tab's marks on another, or brought old ones back)."""
        if name != self.tab:
            if self.marked:
                self.marks_left[self.tab] = set(self.marked)
            self.tab = name
            self.marked.clear()
            self.marked.update(self.marks_left.pop(name, ()))
            self.only_marked = False

    def place(self) -> str | None:
        """The paper the cursor was on when the current tab was last left (None: its top)."""
        return self.places.get(self.tab)

    def keeps(self, status: Status, paper_id: str | None = None) -> bool:
        """Whether a paper given ``status`` (``paper_id``, already decided) stays in the
        current tab."""
        tab = self.saved_tab()
        if tab is not None:
            if paper_id is None or not tab.live:
                return True
            row = self.position.get(paper_id)
            return row is None or bool(self._passes(tab, [row])[0])
        allowed = TABS[self.tab][1]
        return allowed is None or status in allowed

    def label(self, name: TabName | None = None) -> str:
        """A tab's label (the current tab's by default): a saved search's name, shown safe."""
        tab = self.saved_tab(name)
        return self.saved_label(tab) if tab is not None else TABS[name or self.tab][0]

    @staticmethod
    def saved_label(tab: SavedTab) -> str:
        """A saved search's tab's label: its name, shown safe."""
        return tab.label

    # -- saved searches' tabs ---------------------------------------------------------------
    def saved_tab(self, name: TabName | None = None) -> SavedTab | None:
        """The saved search's tab called ``name`` (by default the current tab), if it is one."""
        name = self.tab if name is None else name
        if not name.startswith(SAVED_PREFIX):
            return None
        return next((tab for tab in self.saved if tab.name == name), None)

    def set_saved(self, searches: Sequence[SavedSearch]) -> list[SavedTab]:
        """The saved searches as they are now: a tab each, in their order. A tab whose query
        is unchanged keeps its papers; the others are returned, to be searched. A closed tab's
        place is forgotten; when it was shown, the Inbox shows."""
        before = {tab.name: tab for tab in self.saved}
        self.saved, todo = [], []
        for search in searches:
            tab = before.get(SAVED_PREFIX + search.key)
            if tab is None or tab.search.query != search.query:
                tab = SavedTab(search)
                todo.append(tab)
            tab.search = search  # the name as last written (its case may have changed)
            self.saved.append(tab)
        names = {tab.name for tab in self.saved}
        for kept in (self.places, self.marks_left):  # a closed tab's, or one of its name later
            for name in [n for n in kept if n.startswith(SAVED_PREFIX) and n not in names]:
                del kept[name]
        if self.tab.startswith(SAVED_PREFIX) and self.tab not in names:
            self.marked.clear()  # they go with their tab
            self.enter("inbox")
        return todo

    def take_saved(
        self,
        search: SavedSearch,
        found: Found,
        live: tuple[Qualifier, ...],
        capped_at: int | None = None,
    ) -> bool:
        """Take a saved search's papers (``capped_at``: see ``SavedTab``); False when its tab
        is gone or its query changed."""
        tab = self.saved_tab(SAVED_PREFIX + search.key)
        if tab is None or tab.search.query != search.query:
            return False
        if found.position is not self.position:  # mapped for papers replaced since
            found = Found.of(found.ranking, self.position)
        tab.take(found, live)
        tab.capped_at = capped_at
        return True

    # -- search ---------------------------------------------------------------------------
    @property
    def hit_rows(self) -> list[int] | None:
        """The rows of the current search's papers, best first (None: no search results)."""
        return self.found.rows if self.found is not None else None

    def set_query(self, text: str) -> str:
        """The search text changed; returns it stripped. An empty query ends the search."""
        self.query = text.strip()
        if not self.query:
            self.found = None
        return self.query

    def accept(self, query: str, found: Found) -> bool:
        """Take a search's results; False (and nothing changes) when the query is stale."""
        if query != self.query:
            return False
        if found.position is not self.position:  # mapped for papers replaced since
            found = Found.of(found.ranking, self.position)
        self.found = found
        return True

    def found_by(self, ranking: Ranking) -> Found:
        """A search's ranking mapped to rows of the current papers (off the UI thread)."""
        return Found.of(ranking, self.position)

    def matched(self, paper_id: str) -> frozenset[str]:
        """The search words a paper matched, to highlight them."""
        return self.found.matched(paper_id) if self.found is not None else frozenset()

    def clear_search(self) -> None:
        """Forget the search (the paper list shows the whole tab again)."""
        self.query = ""
        self.found = None

    # -- suggested order ------------------------------------------------------------------
    def suggest(self, suggestions: Sequence[Suggestion]) -> None:
        """Order the Inbox by the suggestions (most like the stars first) and show it."""
        self.suggested = {s.paper_id: s.because for s in suggestions}
        self.suggested_rows = [
            self.position[s.paper_id] for s in suggestions if s.paper_id in self.position
        ]
        self.enter("inbox")

    def unsuggest(self) -> None:
        """Back to list order."""
        self.suggested = None
        self.suggested_rows = None

    def why(self, paper: Paper) -> str:
        """Why a paper is where it is in the suggested order ("" when it is not)."""
        if self.suggested is None or self.found is not None or self.tab != "inbox":
            return ""
        because = self.suggested.get(paper.id)
        if not because or because not in self.position:
            return ""
        like = self.papers[self.position[because]].display_title
        return f"Suggested: like your starred paper “{like}”"

    # -- what the list shows --------------------------------------------------------------
    def relist(self) -> list[int]:
        """Make ``listed`` again from the tab, search, order and marks; returns it."""
        self.listed = self.rows()
        return self.listed

    def rows(self) -> list[int]:
        """Indices of the papers the current tab, search, order and marks show (a new list;
        ``relist`` makes it what the list shows)."""
        rows = self._tab_rows()
        if self.only_marked:
            ids, marked = self.ids, self.marked
            return [i for i in rows if ids[i] in marked]
        return rows

    def _tab_rows(self) -> list[int]:
        tab = self.saved_tab()
        if tab is not None:
            if tab.found is None:
                return []
            rows = tab.found.rows
            if self.found is not None:  # a search typed in the tab: its papers the tab holds
                inside = tab.row_set
                rows = [i for i in self.found.rows if i in inside]
            return self._live_rows(tab, rows)
        return self.tab_rows(self.tab)

    def tab_rows(self, name: TabName) -> list[int]:
        """The rows of built-in tab ``name`` under the current search (a new list)."""
        if self.found is not None or self._version is None:
            return self._tab_rows_now(name)
        stamp = self._stamp()
        kept_stamp, kept = self._kept_rows
        if not _same(kept_stamp, stamp):
            kept = {}
            self._kept_rows = (stamp, kept)
        rows = kept.get(name)
        if rows is None:
            rows = kept[name] = self._tab_rows_now(name)
        return list(rows)

    def _tab_rows_now(self, name: TabName) -> list[int]:
        allowed = TABS[name][1]
        found = self.found
        if name == "starred" and self.queue is not None and (found is None or found.ranking.listed):
            position = self.position  # the reading queue, in the user's order
            queue = [position[pid] for pid in self.queue() if pid in position]
            if found is None:
                return queue
            kept = set(found.rows)  # a filter (tag:x) has no best first: the queue's order
            return [i for i in queue if i in kept]
        base: Sequence[int]
        if self.found is not None:
            base = self.found.rows
        elif name == "inbox" and self.suggested_rows is not None:
            # papers back in the Inbox since the suggestion was made follow, in list order
            seen = set(self.suggested_rows)
            rest = (i for i in range(len(self.papers)) if i not in seen)
            base = [*self.suggested_rows, *rest]
        else:
            base = range(len(self.papers))
        if allowed is None:
            return list(base)
        statuses = self.triage().statuses  # decided papers only
        if isinstance(base, range):  # the whole list: walk the side that is smaller
            if allowed == {Status.INBOX}:
                return [i for i, pid in enumerate(self.ids) if pid not in statuses]
            position = self.position
            return sorted(
                position[pid] for pid, s in statuses.items() if s in allowed and pid in position
            )
        ids, status_of, inbox = self.ids, statuses.get, Status.INBOX
        return [i for i in base if status_of(ids[i], inbox) in allowed]

    def _stamp(self) -> tuple[object, ...]:
        """What the built-in tabs' rows and counts depend on (compared by identity)."""
        version = self._version() if self._version is not None else object()
        return (version, self.papers, self.suggested_rows)

    def swap_listed(self, row: int, other: int) -> bool:
        """Swap two rows of ``listed`` (a paper moved one place in the reading queue); False
        when either is not listed. The list is copied first: a tab's kept rows stay as made."""
        rows = self.listed
        if not (0 <= row < len(rows) and 0 <= other < len(rows)):
            return False
        self.listed = rows = list(rows)
        rows[row], rows[other] = rows[other], rows[row]
        return True

    def decided(self, changes: Sequence[Change], before: int | None = None) -> list[int]:
        """Papers were decided (``changes``, made at the triage's version ``before``): the
        papers the current tab no longer holds leave ``listed``, and the counts kept at
        ``before`` move by the changes, rather than count every paper again at the next
        ``counts``. Returns where, in ``listed`` as it was, the rows that left were."""
        self._count_decided(changes, before)
        position, listed = self.position, self.listed
        gone = {
            position[pid]
            for pid, _old, new in changes
            if pid in position and not self.keeps(new, pid)
        }
        if not gone:
            return []
        if len(gone) == 1:  # a key's decision: one row, found in C
            try:
                at = listed.index(next(iter(gone)))
            except ValueError:
                return []
            del listed[at]
            return [at]
        left = [at for at, i in enumerate(listed) if i in gone]
        self.listed = [i for i in listed if i not in gone]
        return left

    def _count_decided(self, changes: Iterable[Change], before: int | None) -> None:
        if before is None or self._version is None:
            return
        changes = list(changes)
        stamp, kept = self._kept_counts
        if _same(stamp, (before, *self._stamp()[1:])):
            position = self.position
            for pid, old, new in changes:
                if pid in position:
                    kept[old.value] -= 1
                    kept[new.value] += 1
            self._kept_counts = (self._stamp(), kept)
        if self._saved_counts is not None and _same(self._saved_stamp, (before, self.papers)):
            from storage.search.saved_counts import PaperTriage

            triage, move = self.triage(), self._saved_counts.changed
            for pid, old, new in changes:
                note, tags = triage.notes.get(pid, ""), tuple(triage.tags.get(pid, ()))
                move(pid, PaperTriage(old, note, tags), PaperTriage(new, note, tags))
            self._saved_stamp = self._stamp()[:2]

    def counted_changes(self, changes: Sequence[Change], before: int) -> None:
        """The statuses changed by ``changes`` since the triage's version ``before`` (an undo
        or a redo): the counts kept then move by them, rather than count again."""
        self._count_decided(changes, before)

    def counts_unchanged(self, before: int) -> None:
        """The triage changed since its version ``before`` in nothing a count sees (a paper
        moved in the reading queue): the counts kept then still hold."""
        stamp, kept = self._kept_counts
        if self._version is not None and _same(stamp, (before, *self._stamp()[1:])):
            self._kept_counts = (self._stamp(), kept)
        if self._version is not None and _same(self._saved_stamp, (before, self.papers)):
            self._saved_stamp = self._stamp()[:2]

    def counts(self) -> dict[str, int]:
        """Papers per tab. Counted in C (20,000 decisions at 100,000 papers: ~1 ms, not 25),
        the built-in tabs' once per change of the statuses, the saved tabs' once per search
        and then moved by each decision (``_count_saved``)."""
        stamp = self._stamp()
        if _same(self._kept_counts[0], stamp):
            counts = dict(self._kept_counts[1])
        else:
            statuses = self.triage().statuses
            found = Counter(statuses.values())
            for pid in statuses.keys() - self.position.keys():  # decided, then gone
                found[statuses[pid]] -= 1
            counts = {s.value: found[s] for s in (Status.STARRED, Status.READ, Status.SKIPPED)}
            counts["inbox"] = len(self.papers) - sum(counts.values())
            counts["all"] = len(self.papers)
            self._kept_counts = (stamp, dict(counts))
        if self.saved:
            self._count_saved(counts)
        return counts

    def _count_saved(self, counts: dict[str, int]) -> None:
        """The saved tabs' counts into ``counts``: those with triage qualifiers counted when
        their search is new or the triage changed in a way not told (a note, a reload), else
        as kept (``SavedCounts``: moved by each decision); a tab not searched yet has none."""
        stamp = self._stamp()[:2]
        if not _same(self._saved_stamp, stamp):
            self._saved_found.clear()  # every tab counted again, against the triage now
            self._saved_stamp = stamp
        kept = self._saved_found
        for tab in self.saved:
            found = tab.found
            if found is None:
                continue
            name = tab.name
            if not tab.live:
                counts[name] = len(found.rows)
                continue
            if kept.get(name) is not found:
                self._track_saved(tab, found)
            assert self._saved_counts is not None
            counts[name] = self._saved_counts.count(name) or 0
        if self._saved_counts is not None and len(kept) > len(self.saved):
            for name in kept.keys() - {tab.name for tab in self.saved}:
                self._saved_counts.forget(name)  # a saved search deleted
                del kept[name]

    def _track_saved(self, tab: SavedTab, found: Found) -> None:
        """Count a saved tab's papers that pass its triage qualifiers, from now on moved by
        each decision."""
        from storage.search.saved_counts import SavedCounts, paper_triage

        if self._saved_counts is None:
            self._saved_counts = SavedCounts()
        triage, ids = self.triage(), self.ids
        statuses, notes, tags = triage.statuses, triage.notes, triage.tags
        self._saved_counts.track(
            tab.name,
            [ids[i] for i in found.rows],
            tab.live,
            lambda pid: paper_triage(statuses, notes, tags, pid),
        )
        self._saved_found[tab.name] = found

    def _live_rows(self, tab: SavedTab, rows: Sequence[int]) -> list[int]:
        """The rows whose papers pass the saved tab's triage qualifiers, in order."""
        if not tab.live or not rows:
            return list(rows)
        passes = self._passes(tab, rows)
        return [i for i, kept in zip(rows, passes.tolist(), strict=True) if kept]

    def _passes(self, tab: SavedTab, rows: Rows) -> BoolArray:
        facts = TriageFacts(rows, self.ids, self.position, self.triage())
        return triage_passes(tab.live, facts)

    def list_title(self, cursor: int, rows: Sequence[int]) -> str:
        """The list's title: tab, search or order, marks, and where the cursor is."""
        # A title is markup to Textual: a bracket of a saved search's name shows as typed.
        label = self.label().replace("[", "\\[")
        n = len(rows)
        where = f"{cursor + 1:,} / {n:,}" if n else "empty"
        tab = self.saved_tab()
        if tab is not None and tab.found is None:
            where = "searching…"
        extra = ""
        if self.found is not None:
            whole = self.tab in ("starred", "read", "skipped") and tab is None
            if tab is not None:  # a saved tab of decided papers, every one it found listed
                whole = tab.lists_decided()
            extra = _found_extra(self.found, "search", whole)
        elif tab is not None and tab.found is not None:
            extra = _found_extra(tab.found, "", decided=True)  # its live papers joined
        elif self.tab == "inbox" and self.suggested_rows is not None:
            extra = " · suggested order"
        elif self.tab == "starred" and self.queue is not None and not self.only_marked:
            extra = " · reading queue"
        if self.only_marked:
            extra += " · marked only"
        elif self.marked:
            ids = self.ids
            marked = sum(1 for i in rows if ids[i] in self.marked)
            if marked:
                extra += f" · {marked:,} marked"
        return f"{label}{extra} · {where}"

    def list_note(self) -> str:
        """One line under the list (else ""): that its search was cut to the caps, which
        ``key:value`` of it are read as words (``is:skiped``), what the list is when no
        paper has every word, why no paper of the library matches (``rating:>6`` with no
        ratings), and how many papers the search finds in All when none are in this tab
        (``is:starred`` typed in the Inbox)."""
        notes: list[str] = []
        tab = self.saved_tab()
        if self.query:  # a value still being typed (``rating:>``) is not one yet
            notes += _unread_notes(self.query, typed=True)
        elif tab is not None:
            notes += _unread_notes(tab.search.query, typed=False)
        for found in (self.found, tab.found if tab is not None else None):
            if found is None:
                continue
            said = found.ranking.partial_note() or found.ranking.why_none
            if said:  # the closest papers, or why none matches (``none_found.py``)
                notes.append(said)
                break
        elsewhere = self._found_elsewhere()
        if elsewhere:
            notes.append(f"none here; {count(elsewhere, 'paper')} in All")
        return " · ".join(notes)

    def _found_elsewhere(self) -> int:
        """How many papers the search found when this tab shows none of them (else 0)."""
        found = self.found
        if found is None or not found.rows or self.tab == "all" or self.only_marked:
            return 0
        return 0 if self.listed or self.rows() else len(found.rows)

    def marked_in(self, rows: Sequence[int]) -> list[str]:
        """The marked papers among ``rows``, in their order."""
        return [self.ids[i] for i in rows if self.ids[i] in self.marked]


@lru_cache(maxsize=16)
def _unread_notes(query: str, *, typed: bool) -> tuple[str, ...]:
    """What of a query is not read as typed: its cut to the caps (``Query.cut``), then
    ``Query.unread_notes``; parsed once: the list's title is made again at every move of the
    cursor, the query's text the same."""
    parsed = parse_query(query)
    cut = (f"{parsed.cut}: the rest is not searched",) if parsed.cut else ()
    return cut + parsed.unread_notes(typed=typed)


def _found_extra(found: Found, what: str, decided: bool = False) -> str:
    """The title's words for a search's papers: a search, its best ones, or its closest
    (``decided``: in a tab of decided papers, or a saved search's of triage qualifiers, which
    get all theirs past the best when they are few: ``Ranking.joined_more``)."""
    if found.partial is not None:
        matched, of = found.partial
        return f" · {what + ': ' if what else ''}{matched:,} of {of:,} words"
    if found.ranking.listed:  # filters only: every paper they take, in list order
        return f" · {what}" if what else ""
    if len(found) >= SEARCH_LIMIT and not (decided and found.ranking.joined_more):
        return f" · best {SEARCH_LIMIT:,}"
    return f" · {what}" if what else ""
