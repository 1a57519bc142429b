"""What every part of the main screen shares: its state and keeping the list and pane in step."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from rich.text import Text
from textual import work
from textual.timer import Timer

from storage.files.atomic import FileSignature
from storage.files.triage_file import Change
from storage.files.ui_state import load_ui_state
from storage.library import Library
from storage.models import Paper, Status
from storage.pdfs.folder import PDF_DIR
from storage.text.sanitize import printable
from storage.text.words import count
from tui.commands import BY_ID, key_label, keys_for
from tui.frames import AfterFrameScreen
from tui.home_look import HomeFiles, UiWrites
from tui.memory import kept_for_good, release_memory
from tui.messages import IndexReady
from tui.paper_view import PaperView
from tui.pdfs import AppPdfs, queue_line
from tui.session import TriageSession
from tui.similar_work import SimilarWork
from tui.text import fullest
from tui.view import TABS, TabName, TriageView
from tui.widgets.paper_list import PaperList, any_rating
from tui.widgets.paper_pane import PaperPane
from tui.widgets.search_box import SearchBox
from tui.widgets.tab_bar import TabBar

if TYPE_CHECKING:
    from storage.search import SearchIndex

#: Stillness (seconds) after a frame before the other tabs are drawn ahead, and the pause
#: between two of them (each ~3-5 ms of the UI thread at 12,000 papers).
TABS_AHEAD_AFTER_S = 0.05
TAB_AHEAD_GAP_S = 0.01


class MainBase(AfterFrameScreen[None]):
    """The main screen's state and drawing; its actions live in the parts built on it."""

    def __init__(
        self,
        library: Library,
        session: TriageSession,
        papers: list[Paper],
        version: FileSignature | None,
        keymap: dict[str, str],
        pdf_folder: Path | None = None,
        *,
        pdf_timeout: float | None = None,
    ) -> None:
        super().__init__()
        self.library = library
        self.session = session
        #: The local PDFs and their text (``tui.pdfs``).
        #: (the folder scanned off the screen's thread once it is up: ``scan_pdfs``)
        self.pdfs = AppPdfs(library.home, pdf_folder or library.home / PDF_DIR)
        #: What a key asked of the PDFs while the folder was read (the first scan, or one
        #: after: ``QueuePart.after_pdfs_scanned``), by name (a key pressed twice is done
        #: once), with the number of the scan it waits for, done once that one is taken, the
        #: screen kept up meanwhile.
        self.after_pdf_scan: dict[str, tuple[int, Callable[[], None]]] = {}
        #: ``[pdf] timeout``: how long ``P``'s downloads wait for a silent server (None: the
        #: default, ``papers pdf``'s too).
        self.pdf_timeout = pdf_timeout
        self._queue_kept: tuple[int, list[str]] = (-1, [])
        #: The version of papers.json the papers are (to notice another process's import).
        self.papers_version = version
        #: HOME's files as the poll looks at them, off the screen's thread (``_look_at_disk``).
        self.home_files = HomeFiles(library)
        self.keymap = keymap
        #: What the screen shows: the list, the tab bar and the pane read it.
        self.view = TriageView(papers, lambda: session.state, lambda: session.version)
        self.view.queue = self.queue_ids
        self.index: SearchIndex | None = None
        self.similar_work = SimilarWork(self._notify_from_thread, library)
        #: The paper the detail pane shows.
        self.shown_paper: Paper | None = None
        #: The timer of the next tab to draw ahead (``prepare_tabs_later``).
        self._tabs_ahead: Timer | None = None
        #: How the user left the app's look (theme, split), remembered in HOME.
        self.ui = load_ui_state(library.home)
        #: Its writes, in the order asked for (the resting place's in a worker).
        self.ui_writes = UiWrites(library.home)
        #: The marks a note last said wait for D (``_tell_marks_wait``).
        self._marks_told: frozenset[str] = frozenset()
        #: The tab and paper the last poll saw (``keep_resting_place``).
        self._place_seen: tuple[str, str] | None = None
        #: What is said under the list, by what says it (``set_list_note``).
        self._list_notes: dict[str, str] = {}

    def _notify_from_thread(self, message: str) -> None:
        self.app.call_from_thread(self.notify, message, timeout=3, markup=False)

    @property
    def paper_list(self) -> PaperList:
        return self.query_one("#papers", PaperList)

    @property
    def detail(self) -> PaperPane:
        return self.query_one("#detail", PaperPane)

    @property
    def search_box(self) -> SearchBox:
        return self.query_one("#search", SearchBox)

    def rebuild(
        self, keep: str | None = None, cursor: int | None = None, *, counts: bool = True
    ) -> None:
        """List the rows again and redraw the list, the detail and (``counts``) the tabs."""
        plist = self.paper_list
        if keep is None and cursor is None and plist.current is not None:
            keep = plist.current.id
        self.view.relist()
        plist.show(keep=keep, cursor=cursor)
        if counts:
            self.update_tabs()
        self.show_current()

    def update_tabs(self) -> None:
        self.query_one("#tabs", TabBar).show()
        self.focus_moved()  # the tab may be another: the Starred tab's footer is the queue's

    def focus_moved(self) -> None:
        """Have the footer show the keys of where the user is (``SearchPart``'s)."""

    def update_list_title(self) -> None:
        """The list's title says where the cursor is, in which list, with how many marked."""
        plist = self.paper_list
        plist.border_title = self.view.list_title(plist.cursor, self.view.listed)

    def set_list_note(self, kind: str, text: str | None) -> None:
        """Say ``text`` under the list for ``kind`` (``"pdfs"``: a download's progress,
        ``"search"``: the search's note), or nothing more for it when ``text`` is empty."""
        if text:
            self._list_notes[kind] = text
        else:
            self._list_notes.pop(kind, None)
        self.place_list_note()

    def place_list_note(self) -> None:
        """Show what is said under the list on its bottom border; stacked (a narrow terminal,
        where the list has no bottom border) on the line between the list and the paper."""
        notes = [self._list_notes[k] for k in ("pdfs", "search") if k in self._list_notes]
        narrow = self.has_class("-narrow")
        # the border's room: stacked, the line between the list and the paper (a line each
        # side); else the list's bottom border (a corner, a line and a space each side). At
        # 40 columns "no paper has both words; showing those with 1 of 2" was cut: the part
        # before "; " (the list's title says "1 of 2 words") fits.
        room = self.size.width - 2 if narrow else self.paper_list.size.width - 6
        wordings = (" · ".join(notes), " · ".join(n.split("; ")[0] for n in notes))
        said = fullest(room, wordings) if room > 0 else wordings[0]
        note = Text(printable(said)) if said else None  # (a Text: a bracket shows as typed)
        self.paper_list.border_subtitle = None if narrow else note
        self.detail.border_title = note if narrow else None

    def show_current(self) -> None:
        """Show the paper under the cursor now, in the same frame as the list's change."""
        self.show_paper(self.paper_list.current)

    def show_paper(self, paper: Paper | None) -> None:
        """Fill the detail pane (and the list's title, which says where the cursor is)."""
        self.shown_paper = paper
        self.update_list_title()
        if paper is None:
            self.detail.show(None, empty=self.empty_words())
            return
        self.detail.show(self.paper_view(paper))
        self.call_after_frame(partial(self.prepare_neighbours, paper))
        self.call_after_frame(self.prepare_tabs_later)

    def empty_words(self) -> tuple[str, str]:
        """What the pane says when the list shows no paper: why, then the keys that lead on
        (after the user's remapping). After the last paper of the Inbox was decided it said
        "No papers here" and to clear a search there was none of. A search no paper of the
        library matches says why, as the list's border does (``Ranking.why_none``), and
        does not send to All."""
        view = self.view
        key = self.key_shown
        if not view.papers:
            return "No papers yet", f"{key('import')} imports a list: a file, or a venue by name."
        if view.only_marked:
            return "No marked paper here", f"{key('marked_view')} shows the whole list again."
        label = view.label()
        if view.query:
            hint = f"{key('clear_search')} clears the search"
            found = view.found
            if found is not None and not len(found):  # none in All either: why, if known
                why = found.ranking.why_none
                why = f"{why[:1].upper()}{why[1:]}. " if why else ""
                return "No paper in the library matches the search", f"{why}{hint}."
            if view.tab != "all":
                hint += f"; {key('tab_all')} searches every paper"
            return f"No paper in {label} matches the search", f"{hint}."
        if view.tab == "inbox":
            starred, more = key("tab_starred"), key("import")
            return (
                "The Inbox is empty: every paper is triaged",
                f"{starred} shows the starred papers, your reading queue; {more} imports more.",
            )
        return f"No paper in {label} yet", f"{key('tab_inbox')} goes back to the Inbox."

    def key_shown(self, command: str) -> str:
        """The first key of ``command`` as a hint names it, after the user's remapping."""
        return key_label(keys_for(BY_ID[command], self.keymap)[0], web=self.app.is_web)

    def queue_ids(self) -> list[str]:
        """The reading queue, head first (kept until the live triage changes)."""
        version = self.session.version
        if self._queue_kept[0] != version:
            self._queue_kept = (version, self.session.reading_queue())
        return self._queue_kept[1]

    def paper_view(self, paper: Paper) -> PaperView:
        """What the pane shows of ``paper``: the view's (its triage state and search), with
        its place in the reading queue and its PDF."""
        shown = self.view.paper_view(paper)
        match = self.pdfs.matched(paper.id, self.view.query) if self.view.query else None
        return replace(
            shown,
            queue=self._queue_line(paper, shown.status),
            pdf=self.pdfs.state(paper, self.key_shown("open_pdf")),
            pdf_line=f"p. {match.page}: {match.line}" if match is not None else "",
        )

    def _queue_line(self, paper: Paper, status: Status) -> str:
        """The paper's place in the queue for the pane: not in the queue's own tab, whose
        title says it (``3 / 500``), so that a move there leaves the pane as it is (the
        marked papers alone there are not the queue: their title counts them)."""
        view = self.view
        own_tab = view.tab == "starred" and not view.query and not view.only_marked
        if own_tab and status is Status.STARRED:
            return ""
        state = self.session.state
        had_place = paper.id in state.positions
        return queue_line(paper.id, status, self.queue_ids(), state.decided_at, had_place)

    def prepare_neighbours(self, paper: Paper) -> None:
        """Once the frame is out: draw ahead what a next key most likely shows (the papers
        after and before the cursor, the list after a decision takes this paper out), so
        that key spends no time wrapping an abstract or styling rows.

        What it buys (benchmarks.glass at 12,000 papers, settled p50 / p95, the app with and
        without drawing ahead side by side, key by key): j/k 3.0 / 15.3 ms and r/x/s
        2.6 / 11.1 ms; it costs 11-15 ms of CPU a key, spent while the user reads."""
        plist = self.paper_list
        if plist.current is not paper:  # the cursor moved on meanwhile: that key prepares
            return
        if self.search_box.has_focus:  # typing: the next letter changes all of it (and its
            return  # results would wait for this work)
        rows, cursor = plist.rows, plist.cursor
        for row in (cursor + 1, cursor - 1):
            neighbour = plist.paper_at(row)
            if neighbour is not None:
                self.detail.prepare(self.paper_view(neighbour))
                plist.prepare(rows, None, row)  # the list after j or k
        if not self.view.keeps(Status.READ, paper.id):  # the list after r, x or s
            plist.prepare([*rows[:cursor], *rows[cursor + 1 :]], None, cursor)

    def prepare_tabs_later(self) -> None:
        """Draw the other tabs ahead (``prepare_tab``) once the user has been still for
        ``TABS_AHEAD_AFTER_S``, one tab per turn of the event loop, so that a key pressed
        meanwhile waits for one tab's work at most.

        What it buys (benchmarks.glass at 12,000 papers, with and without it side by side):
        tab keys settle 3.6 / 7.6 ms sooner (p50 / p95; the keys that met no other work on the
        machine: 3.2 / 4.4 ms); it costs ~8 ms of CPU a key, spent while the user reads."""
        if self._tabs_ahead is not None:
            self._tabs_ahead.stop()
        if self.index is None or self.view.query:  # starting (the index loads and the first
            return  # search wants it), or searching (letters come fast: each one redraws)
        waiting = [name for name in TABS if name != self.view.tab]

        def next_tab() -> None:
            if waiting:
                self.prepare_tab(waiting.pop(0))
                self._tabs_ahead = self.set_timer(TAB_AHEAD_GAP_S, next_tab, name="tabs-ahead")

        self._tabs_ahead = self.set_timer(TABS_AHEAD_AFTER_S, next_tab, name="tabs-ahead")

    def prepare_tab(self, name: TabName) -> None:
        """Draw ahead what the key of built-in tab ``name`` would show: its rows (kept by the
        view), its list's screenful and the paper under its cursor (as ``action_show_tab``
        would show them), so that switching costs its frame little."""
        view = self.view
        if view.only_marked or name == view.tab:
            return
        paper = self.paper_list.prepare(view.tab_rows(name), view.places.get(name), 0)
        if paper is not None:
            self.detail.prepare(self.paper_view(paper))

    def decide(self, ids: Sequence[str], status: Status) -> tuple[list[Change], list[int]]:
        """Decide papers, shown in this key's frame (the promise of this screen: the session
        queues them, the library makes them durable; see tui/session.py). Returns the changes
        and where the rows that left the list were; the caller redraws what they changed.
        The write waits until the frame that shows it is out (the writer's Python work would
        take the GIL from that frame: see ``hold_writes``)."""
        self.session.hold_writes()
        self.call_after_frame(self.session.release_writes)
        before = self.session.version
        changes = self.session.queue_status(ids, status)
        return changes, self.view.decided(changes, before)

    def decide_many(self, ids: Sequence[str], status: Status) -> None:
        """Decide many papers at once: one write, one undo step. The cursor stays on its
        paper, or, when that one was decided, on the next paper (else the one before) that
        was not: not on the row it was on, which other papers leaving the tab shift."""
        keep = self._next_not_in(set(ids))
        changes, _left = self.decide(ids, status)
        self.view.marked.difference_update(ids)
        if not self.view.marked:
            self.view.only_marked = False
        n = len(changes)
        self.notify(
            f"{count(n, 'paper')} → {status.value} (one step: {self.key_shown('undo')} undoes it)",
            timeout=4,
            markup=False,
        )
        self.rebuild(keep=keep, cursor=self.paper_list.cursor)

    def _next_not_in(self, decided: set[str], looked_at: int = 1000) -> str | None:
        """The paper under the cursor, or the nearest after it (else before it) not among
        ``decided``; looked for among ``looked_at`` rows each way (None past them)."""
        plist = self.paper_list
        rows, papers, cursor = plist.rows, plist.papers, plist.cursor
        after = range(cursor, min(len(rows), cursor + looked_at))
        before = range(cursor - 1, max(-1, cursor - 1 - looked_at), -1)
        for row in (*after, *before):
            paper_id = papers[rows[row]].id
            if paper_id not in decided:
                return paper_id
        return None

    def reload_papers(self, note: str = "", keep: str | None = None) -> None:
        """Read the papers again (after an import or a removal) and rebuild the index
        off-thread; the cursor stays on its paper, or goes to ``keep``.

        Everything that maps rows to papers changes here at once: a key handled in between
        would otherwise read the new papers through the old positions.
        """
        with kept_for_good():  # as at start
            papers, self.papers_version = self.library.versioned_papers()
        current = self.paper_list.current
        if keep is None and current is not None:
            keep = current.id
        self.replace_papers(papers)
        self.index = None
        self.search_box.use(None)
        self.rebuild(keep=keep)
        self.build_index(papers)
        if note:
            self.notify(note, title="Library", timeout=6, markup=False)

    def replace_papers(self, papers: list[Paper]) -> None:
        """Show other papers; a search's results stay, mapped to them, until the search
        runs again (else the whole list would show for as long as the index takes)."""
        found = self.view.found
        self.view.replace_papers(papers)
        if found is not None:
            self.view.accept(self.view.query, found)
        self.paper_list.show_ratings(any_rating(papers))

    # Every worker gets a description: without one Textual repr()s the arguments, and the
    # repr of 12,000 papers costs 0.14 s of the UI thread at start.
    @work(thread=True, exclusive=True, group="index", exit_on_error=False, description="index")
    def build_index(self, papers: Sequence[Paper]) -> None:
        """Load the search index saved beside papers.json (0.3 s at 100,000 papers), else build
        it (1.5 s at 12,000, 20 s at 100,000) and save it for the next start; off the UI thread."""
        from textual.worker import get_current_worker

        from storage.cache.search_index import INDEX_FILE, build_elsewhere, load_index, save_index
        from storage.search import SearchIndex  # numpy and rapidfuzz: not before first paint

        # The version of papers.json these papers are, believed only when the library's papers
        # of that version are these very objects (an import meanwhile makes them others).
        loaded = self.library.loaded_papers()
        version = loaded.content if loaded.holds(papers) else None
        path = self.library.home / INDEX_FILE
        index = load_index(path, version, papers) if version is not None else None
        if index is None and version is not None and len(papers) >= 20_000:
            # A large build runs in a child process: its ~0.5 GB of temporary memory is
            # given back when it ends (the app's peak stays under 600 MB at 100,000 papers)
            # and the app's keys do not wait on it for the interpreter.
            worker = get_current_worker()
            if build_elsewhere(self.library.home, version, lambda: worker.is_cancelled):
                index = load_index(path, version, papers)
        built = index is None
        if index is None:
            index = SearchIndex(papers)
        release_memory()
        self.post_message(IndexReady(papers, index))
        if built and version is not None:
            save_index(path, version, index)  # after: the search is ready first
