"""The main screen's search: the box's keys, its results, the index it searches, and the saved
searches, each a tab."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING

from textual import on, work
from textual.css.query import NoMatches
from textual.events import DescendantBlur, DescendantFocus, Key
from textual.message import Message
from textual.widgets import Input

from storage.errors import LibraryError
from storage.files.atomic import FileSignature, signature
from storage.files.saved_searches import SavedSearch, SavedSearches
from storage.models import Paper
from tui.key_gate import expect_screen, screen_arrived
from tui.messages import IndexReady
from tui.saved_tabs import SavedTab, split_query
from tui.screens.main.base import MainBase
from tui.text import printable
from tui.view import SEARCH_LIMIT, Found
from tui.widgets.key_bar import KeyBar
from tui.widgets.tab_bar import SAVED_TABS

#: How long the user is still after a decision before the saved tabs whose papers their triage
#: qualifiers took past their best (``model is:starred``) are searched again, for their counts
#: (``recount_saved_later``): a search of ~50 ms at 12,000 papers, in a thread, once a pause.
SAVED_RECOUNT_AFTER_S = 0.3

if TYPE_CHECKING:
    from textual.timer import Timer
    from textual.widget import Widget

    from storage.files.triage_model import TriageState
    from storage.search import SearchIndex
    from storage.search.hits import Ranking
    from storage.search.qualifiers import PdfTextSearch, Qualifier
    from storage.search.query import Query


def _ranked_now(
    index: SearchIndex, state: TriageState, pdfs: PdfTextSearch
) -> Callable[..., Ranking]:
    """``index.rank`` with what its triage and ``pdf:`` qualifiers read, as it is now."""
    return partial(
        index.rank,
        statuses=dict(state.statuses),
        tags=dict(state.tags),
        notes=dict(state.notes),
        pdf_text=pdfs,
    )


def _with_decided(rank: Callable[[Query], Ranking], query: str, ranking: Ranking) -> Ranking:
    """``ranking``, the best papers of the library for ``query``, then the papers of the
    Starred, Read and Skipped tabs it lacks (``-is:inbox``: few, even in a large library)."""
    from dataclasses import replace

    from storage.search.qualifiers import Qualifier
    from storage.search.query import parse_query

    parsed = parse_query(query)
    decided = replace(parsed, qualifiers=(*parsed.qualifiers, Qualifier("is", "inbox", True)))
    more = rank(decided)
    if more.partial != ranking.partial:  # they match fewer of the words: not the same search
        return ranking
    return ranking.joined(more)


def _with_live(
    rank: Callable[..., Ranking], query: Query, live: tuple[Qualifier, ...], ranking: Ranking
) -> Ranking:
    """``ranking``, the best papers of the library for a saved search's ``query``, then the
    papers its triage qualifiers ``live`` take now that it lacks, when they are fewer than a
    search lists (``is:starred``, ``tag:x``: a starred paper past the library's best 5,000
    was missing from the tab); else ``ranking`` (``is:inbox``: its best, as the box lists)."""
    from dataclasses import replace

    more = rank(replace(query, qualifiers=(*query.qualifiers, *live)), limit=SEARCH_LIMIT)
    if len(more) >= SEARCH_LIMIT or more.partial != ranking.partial:
        return ranking
    return ranking.joined(more)


class SearchPart(MainBase):
    """Search as you type: ``/`` focuses the box, Esc leaves it (keeping the filter), Esc
    again or ctrl+l clears it; results replace the list, best first.

    ctrl+s saves the search typed under a name: each saved search is a tab after the built-in
    ones (keys 6…9 for the first four), searched once per library and query
    (``TriageView``'s ``SavedTab``), closed by ctrl+w. ``searches.json`` is read again when it
    changes, so a search saved by ``papers search --save`` shows up, and the other way round.
    """

    class SavedFound(Message):
        """Saved searches' papers, searched in a thread for these papers."""

        def __init__(
            self,
            papers: Sequence[Paper],
            results: list[tuple[SavedSearch, Found, tuple[Qualifier, ...], int | None]],
        ) -> None:
            self.papers = papers
            self.results = results
            super().__init__()

    #: The version of searches.json the tabs were made from (None: no file).
    _saved_version: FileSignature | None = None
    #: searches.json was not read (its version), so that the problem is said once.
    _saved_problem: FileSignature | None = None
    #: The saved searches deleted, the latest last: each with its place among them and
    #: ``TriageSession.steps`` then (``u`` brings them back in turn, the latest first).
    _deleted: tuple[tuple[SavedSearch, int, int], ...] = ()
    #: The saved search's tab shown before its papers were found (``await_saved_papers``).
    _awaited_tab: str | None = None
    #: The timer of the next search of the saved tabs out of date (``recount_saved_later``).
    _recount: Timer | None = None
    #: The search run again after outside changes (its results keep the cursor's paper).
    _searched_again: str | None = None

    def action_focus_search(self) -> None:
        box = self.search_box
        # ``focused``, not ``has_focus``: that waits for the box's Focus event, behind the keys
        if self.focused is box:  # "/" typed in a query: after the keys typed before it (a
            # priority binding runs as the key arrives, before the box has taken those)
            box.call_later(box.insert_text_at_cursor, "/")
        else:
            self.set_focus(box)

    def action_leave_search(self) -> None:
        """Esc: leave the search box (keeping the filter) or the paper; from the list, unzoom,
        then clear the filter."""
        box = self.search_box
        if box.has_focus or self.detail.has_focus and not self.has_class("-zoom"):
            self.set_focus(self.paper_list)
        elif self.has_class("-zoom"):  # back to the list and the paper side by side
            self.remove_class("-zoom")
            self.set_focus(self.paper_list)
        elif self.view.query or box.value:
            box.clear_text()

    def action_clear_search(self) -> None:
        """ctrl+l: clear the search and put the cursor in the box, for the next query (as a
        browser's ctrl+l: what is typed next is a search, never a command)."""
        self.search_box.clear_text()
        self.end_search()  # now: the list comes back in the frame that empties the box
        self.set_focus(self.search_box)

    def end_search(self) -> None:
        """Show every paper of the tab again, the cursor still on the paper it was on (once:
        the box's own change message finds the search ended)."""
        if self.view.query or self.view.found is not None:
            self.view.set_query("")
            self.rebuild(counts=False)

    def footer_scope(self) -> str:
        """Whose keys the footer shows over this screen: the search box's while it has the
        focus (Enter, Esc, ctrl+w…: the list's letters are typed there), else the list's: the
        reading queue's on the Starred tab (its moves, the PDF)."""
        if self.focused is self.search_box:
            return "search"
        return "queue" if self.view.tab == "starred" else "main"

    def set_focus(
        self, widget: Widget | None, scroll_visible: bool = True, from_app_focus: bool = False
    ) -> None:
        """Focus ``widget``, the footer following at once: in the frame that shows the focus
        moved, not in one more after it (``focus_moved`` waits for the focus events)."""
        super().set_focus(widget, scroll_visible, from_app_focus)
        self.focus_moved()

    @on(DescendantFocus)
    @on(DescendantBlur)
    def focus_moved(self) -> None:
        """The footer follows the focus into and out of the search box: once per move of
        the focus, never per letter typed."""
        if self.app.screen is self:  # (a dialog's footer stays while it is open)
            with contextlib.suppress(NoMatches):  # (not composed yet)
                self.query_one(KeyBar).show_keys_of(self.footer_scope())

    def on_key(self, event: Key) -> None:
        if event.key == "down" and self.search_box.has_focus:
            self.set_focus(self.paper_list)
            event.stop()

    def query_submitted(self) -> None:
        """Enter in the search box: to its results."""
        self.set_focus(self.paper_list)
        if self.search_box.waiting:  # keys typed on move in its results, not before them
            expect_screen(self.app)

    @on(Input.Changed, "#search")
    def query_changed(self, event: Input.Changed) -> None:
        if not event.value.strip():
            self.end_search()
        else:
            self.view.set_query(event.value)

    def search_results(self, query: str, found: Found) -> None:
        """A search's papers arrived for the text in the box: list them, best first (none
        when the app is closing and its list is gone: a search that ended as the app did
        raised there, on the way out)."""
        try:
            self.paper_list  # noqa: B018 (asked once the app is closing: gone)
        except NoMatches:
            return
        self.view.set_query(query)
        again, self._searched_again = self._searched_again, None
        current = self.paper_list.current  # where the cursor is now (moved since it began)
        if self.view.accept(query, found):
            if again == query:  # the same search: the cursor stays on its paper
                self.rebuild(keep=current.id if current is not None else None, counts=False)
            else:
                self.rebuild(cursor=0, counts=False)
        screen_arrived(self.app)  # (keys held since Enter: they move in these results)

    def search_after_outside_changes(self) -> None:
        """Another process changed decisions, tags or notes (``papers tag``, a second
        window, a sync): the search shown is run again, as what its qualifiers read
        (``tag:toread``, ``is:starred``, ``note:x``) may have changed; its list stayed as it
        was, and its note said no paper had a tag. The cursor stays on its paper."""
        box = self.search_box
        query = box.search_text
        if not query or self.index is None or query != self.view.query or box.waiting:
            return
        self._searched_again = query
        box.run_search(query)

    def update_list_title(self) -> None:
        """The list's title; and, on its bottom border, what the list is when no paper has
        every word of the search ("no paper has all 4 words; showing those with 3 of 4")."""
        super().update_list_title()
        note = self.view.list_note()
        if note != self._list_notes.get("search", ""):
            self.set_list_note("search", note)

    def searcher(self, index: SearchIndex) -> Callable[[str], Found]:
        """The search the box runs (in a thread): the app's ranking, mapped to rows."""
        session, view, pdfs = self.session, self.view, self.pdfs

        def search(query: str) -> Found:
            rank = partial(_ranked_now(index, session.state, pdfs), limit=SEARCH_LIMIT)
            ranking = rank(query)  # (the state read each time: a reload replaces it)
            if ranking.listed and len(ranking) >= SEARCH_LIMIT:  # filters only: no best, all
                ranking = rank(query, limit=None)  # (list order: 100,000 papers in 20 ms)
            elif len(ranking) >= SEARCH_LIMIT:  # the best of the library: the decided papers'
                # tabs (the reading queue) get every paper of theirs, past the best as well
                # (a word every paper has found none of the queue's when they were not best)
                ranking = _with_decided(rank, query, ranking)
            return view.found_by(ranking)  # mapped here: 5,000 papers cost milliseconds

        return search

    @on(IndexReady)
    def index_ready(self, event: IndexReady) -> None:
        if event.papers is self.view.papers:
            self.index = event.index
            self.search_box.use(self.searcher(event.index))
            self.search_saved(event.index, event.papers, [tab.search for tab in self.view.saved])
            self.prepare_tabs_later()

    # -- saved searches ---------------------------------------------------------------------
    @property
    def saved_searches(self) -> SavedSearches:
        """The saved searches of the library's HOME (under its lock)."""
        return SavedSearches(self.library.home, self.library.lock)

    def read_saved_searches(self) -> None:
        """A tab per saved search, read again when searches.json changed: at start, and
        after the app saved, deleted or restored one (the poll of the disk, for the CLI's
        or another window's, reads it off this thread: ``MainScreen._look_at_disk``)."""
        searches = self.saved_searches
        version = signature(searches.path)
        if version == self._saved_version:
            return
        try:
            saved = searches.all()
        except (LibraryError, OSError) as exc:
            self.take_saved_searches(version, None, exc)
            return
        self.take_saved_searches(version, saved)

    def take_saved_searches(
        self,
        version: FileSignature | None,
        saved: list[SavedSearch] | None,
        error: LibraryError | OSError | None = None,
    ) -> None:
        """The tabs of the saved searches read (``read_saved_searches``, or the poll's look
        off this thread: ``tui.home_look``) from ``searches.json``'s ``version``; ``error``:
        it could not be read, and the tabs stay."""
        if version == self._saved_version:
            return
        if error is not None or saved is None:
            if error is not None and version != self._saved_problem:
                self._saved_problem = version
                self.notify(
                    f"{error} The saved searches' tabs stay as they were.",
                    title="Saved searches",
                    severity="error",
                    timeout=15,
                    markup=False,
                )
            return
        self._saved_version = version
        shown = self.view.tab
        todo = self.view.set_saved(saved)
        if todo and self.index is not None:
            self.search_saved(self.index, self.view.papers, [tab.search for tab in todo])
        if self.view.tab != shown or any(tab.name == shown for tab in todo):
            self.rebuild(keep=self.view.place(), cursor=0)  # the tab shown closed or changed
        else:
            self.update_tabs()

    @work(thread=True, group="saved", exit_on_error=False, description="saved searches")
    def search_saved(
        self, index: SearchIndex, papers: Sequence[Paper], searches: list[SavedSearch]
    ) -> None:
        """Search the saved searches' words once, off the UI thread: their triage qualifiers
        are applied as papers are triaged (``TriageView``)."""
        if not searches:
            return
        version = self.session.version
        rank = _ranked_now(index, self.session.state, self.pdfs)
        results = []
        for search in searches:
            query, live = split_query(search.query)
            # a query of filters only lists papers in list order: every one, for the triage
            # qualifiers to choose from (a query of words: its best, as the box lists them)
            limit = SEARCH_LIMIT if query.words or query.phrases else None
            ranking = rank(query, limit=limit)
            capped = bool(live) and len(ranking) >= SEARCH_LIMIT
            if capped:  # (a paper its qualifiers take later: searched again, ``saved_again``)
                ranking = _with_live(rank, query, live, ranking)
            found = self.view.found_by(ranking)
            results.append((search, found, live, version if capped else None))
        self.post_message(self.SavedFound(papers, results))

    @on(SavedFound)
    def saved_found(self, event: SavedFound) -> None:
        if event.papers is not self.view.papers:
            return  # papers changed meanwhile: their index searches again when ready
        took = [
            search
            for search, found, live, capped_at in event.results
            if self.view.take_saved(search, found, live, capped_at)
        ]
        tab = self.view.saved_tab()
        if tab is None or tab.search not in took:
            self.update_tabs()
        elif self.paper_list.current is not None:  # searched again: the cursor stays put
            self.rebuild()
        else:  # its first papers: where the cursor was when the tab was last left
            self.rebuild(keep=self.view.place(), cursor=0)
        if tab is not None and tab.name == self._awaited_tab and tab.search in took:
            self._awaited_tab = None
            screen_arrived(self.app)  # (the keys held since its tab key move among them)

    def saved_again(self) -> None:
        """The saved search's tab shown took its papers past its best by its triage qualifiers
        (``model is:starred``): searched again once papers were triaged since, for a paper
        starred meanwhile past them (its papers found then show until the search is done)."""
        tab = self.view.saved_tab()
        if tab is not None and tab.capped_at not in (None, self.session.version):
            self._search_again([tab])

    def update_tabs(self) -> None:
        super().update_tabs()
        self.recount_saved_later()

    def recount_saved_later(self) -> None:
        """Once the user is still (``SAVED_RECOUNT_AFTER_S``), search again the saved tabs that
        took papers past their best by their triage qualifiers, made when the triage was
        other: a paper starred on the Inbox past a tab's best (``model is:starred``) is then
        in its count, shown or not. Each key costs a look at the tabs, the search a thread."""
        version = self.session.version
        if self.index is None or all(t.capped_at in (None, version) for t in self.view.saved):
            return
        if self._recount is not None:
            self._recount.stop()
        self._recount = self.set_timer(SAVED_RECOUNT_AFTER_S, self._search_stale_saved)

    def _search_stale_saved(self) -> None:
        self._recount = None
        version = self.session.version
        self._search_again([tab for tab in self.view.saved if tab.capped_at not in (None, version)])

    def _search_again(self, tabs: list[SavedTab]) -> None:
        """Search the saved tabs whose triage qualifiers took papers past their best again,
        each once until its papers come."""
        if not tabs or self.index is None:
            return
        for tab in tabs:
            tab.capped_at = None
        self.search_saved(self.index, self.view.papers, [tab.search for tab in tabs])

    def await_saved_papers(self) -> None:
        """A saved search's tab just shown before its search was done: the keys typed after
        its key wait for its papers (``6 j`` as the app started, or right after ctrl+s saved
        it: the papers came after the ``j`` and put the cursor back on the first)."""
        tab = self.view.saved_tab()
        if tab is not None and tab.found is None:
            self._awaited_tab = tab.name
            expect_screen(self.app)

    def action_show_tab(self, name: str) -> None:  # the screen's (screen.py)
        raise NotImplementedError

    def action_show_saved(self, number: int) -> None:
        """Show the tab of the ``number``-th saved search (keys 6…9)."""
        if number > len(self.view.saved):
            save = self.key_shown("save_search")
            self.notify(
                f"No saved search {number}: {save} saves the search typed as a tab.",
                severity="warning",
                timeout=4,
                markup=False,
            )
            return
        self.action_show_tab(self.view.saved[number - 1].name)

    def action_save_search(self) -> None:
        """Ask for a name, then save the search typed under it: a tab, and a search the CLI
        runs (``papers search --saved NAME``). A known name gets the new query."""
        from storage.files.saved_searches import MAX_NAME
        from tui.screens.dialogs import TextPrompt

        query = self.search_box.search_text
        if not query:
            search, save_key = self.key_shown("search"), self.key_shown("save_search")
            self.notify(
                f"Type a search first ({search}), then {save_key} saves it as a tab.",
                severity="warning",
                timeout=4,
                markup=False,
            )
            return

        def save(name: str | None) -> None:
            if not name:
                return
            try:
                saved = self.saved_searches.save(name, query)
            except (LibraryError, OSError) as exc:
                self.notify(str(exc), title="Not saved", severity="error", markup=False)
                return
            self.read_saved_searches()
            self.notify(f"Saved “{saved.name}”: {self._where(saved)}.", timeout=5, markup=False)

        question = f"Save “{query}” as a tab named:"
        prompt = TextPrompt("Save search", question, query[:MAX_NAME], replace=True)
        self.app.push_screen(prompt, save)

    def _where(self, search: SavedSearch) -> str:
        """Where a saved search's tab is, in words ("tab 6", "the 5th saved search's tab")."""
        at = next((i for i, tab in enumerate(self.view.saved) if tab.search == search), None)
        if at is None:
            return "its tab"
        if at < len(SAVED_TABS):
            return f"its tab is {self.key_shown(SAVED_TABS[at])}"
        return f"its tab follows the others ({self.key_shown('palette')}: Search)"

    def action_delete_search(self) -> None:
        """Delete the saved search whose tab is shown (its tab closes)."""
        tab = self.view.saved_tab()
        if tab is None:
            key, palette = self.key_shown("delete_search"), self.key_shown("palette")
            self.notify(
                f"This is no saved search's tab: {key} closes one ({self.saved_keys()}, or "
                f"{palette}: Search).",
                severity="warning",
                timeout=4,
                markup=False,
            )
            return
        self.delete_saved(tab.search)

    def saved_keys(self) -> str:
        """The keys of the first saved searches' tabs in words: ``6…9``, a run of digits as
        they are by default, else each (``F6, F7, 8, 9``)."""
        keys = [self.key_shown(command) for command in SAVED_TABS]
        run = "".join(keys)
        return f"{keys[0]}…{keys[-1]}" if run in "0123456789" else ", ".join(keys)

    def delete_saved(self, search: SavedSearch) -> None:
        """Forget a saved search: its tab closes, here and in every other window; ``u``
        brings it back while nothing else was done since (``restore_deleted``)."""
        place = next((i for i, tab in enumerate(self.view.saved) if tab.search == search), 0)
        try:
            gone = self.saved_searches.delete(search.name)
        except (LibraryError, OSError) as exc:
            self.notify(str(exc), title="Not deleted", severity="error", markup=False)
            return
        self.read_saved_searches()
        if gone:
            self._deleted = (*self._deleted, (search, place, self.session.steps))
            undo = self.key_shown("undo")
            self.notify(
                f"Deleted the saved search “{search.name}” ({search.query}): "
                f"{undo} brings it back.",
                timeout=6,
                markup=False,
            )

    def restore_deleted(self) -> bool:
        """``u`` right after a saved search was deleted: put it back, its tab where it was
        and shown again; ``u`` again, the one deleted before it, and so on. False (``u``
        then undoes a decision) when none was deleted, or something was decided, moved or
        undone since: the undo goes to the latest step."""
        if not self._deleted or self._deleted[-1][2] != self.session.steps:
            self._deleted = ()  # a decision is newer: those deleted before it stay deleted
            return False
        search, place, _ = self._deleted[-1]
        self._deleted = self._deleted[:-1]
        try:
            restored = self.saved_searches.restore(search, place)
        except (LibraryError, OSError) as exc:
            self.notify(str(exc), title="Not restored", severity="error", markup=False)
            return True
        if not restored:
            self.notify(
                f"Not restored: a search named “{search.name}” was saved since.",
                severity="warning",
                timeout=6,
                markup=False,
            )
            return True
        self.read_saved_searches()
        tab = next((tab for tab in self.view.saved if tab.search == search), None)
        if tab is not None:
            self.action_show_tab(tab.name)
        self.notify(
            f"Restored the saved search “{search.name}” ({search.query}).",
            timeout=5,
            markup=False,
        )
        return True

    def palette_searches(self) -> list[tuple[str, str, Callable[[], object]]]:
        """The command palette's entries for the saved searches: show each, then delete each."""
        shown: list[tuple[str, str, Callable[[], object]]] = []
        deleted: list[tuple[str, str, Callable[[], object]]] = []
        for i, tab in enumerate(self.view.saved):
            key = f" · {self.key_shown(SAVED_TABS[i])}" if i < len(SAVED_TABS) else ""
            name, query = printable(tab.search.name), printable(tab.search.query)
            show = partial(self.action_show_tab, tab.name)
            shown.append((f"Search: {name}", f"Show its tab: “{query}”{key}", show))
            forget = partial(self.delete_saved, tab.search)
            deleted.append((f"Delete search: {name}", f"Forget “{query}”, closing its tab", forget))
        return shown + deleted
