"""The main screen: tabs with live counts, search, the paper list and the selected paper.

What shows (tab, search results, suggested order, marks) is ``TriageView``'s; the search box
runs the queries; similar papers are worked out in ``SimilarWork``; links and export have
their own modules. The screen is assembled from parts by concern (``base``: state and
drawing; ``search``; ``reading``: the paper pane; ``library``: the paper and the library;
``similar``); this module holds the layout, moving, triage and marks, and noticing other
processes' changes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from itertools import chain
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Container
from textual.events import Resize

from storage.errors import LibraryError
from storage.files.ui_state import UiState
from storage.models import Status
from storage.search.qualifiers import search_hint
from storage.text.words import count
from tui.commands import bindings
from tui.ending import is_ending
from tui.home_look import HomeFiles, HomeLook, HomeSeen
from tui.key_gate import expect_screen, screen_arrived
from tui.messages import Persisted
from tui.outcomes import report
from tui.pdfs import DiskLook
from tui.screens.main.library import LibraryPart
from tui.screens.main.queue import QueuePart
from tui.screens.main.reading import ReadingPart
from tui.screens.main.search import SearchPart
from tui.screens.main.similar import SimilarPart
from tui.text import cut_at_word, printable
from tui.view import TABS
from tui.widgets.key_bar import KeyBar
from tui.widgets.paper_list import PaperList, any_rating
from tui.widgets.paper_pane import PaperPane
from tui.widgets.search_box import SearchBox
from tui.widgets.tab_bar import SAVED_TABS, TabBar

NARROW_WIDTH = 100
POLL_SECONDS = 1.0


class MainScreen(SearchPart, ReadingPart, LibraryPart, SimilarPart, QueuePart):
    """Triage: one key per decision, the list and the paper side by side."""

    BINDINGS: ClassVar[list[BindingType]] = bindings()
    AUTO_FOCUS = "#papers"

    def compose(self) -> ComposeResult:
        yield TabBar(self.view, self.keymap, id="tabs")
        yield SearchBox(
            self.search_results,
            on_entered=self.query_submitted,
            placeholder=self.search_placeholder(),
            id="search",
        )
        with Container(id="body"):
            yield PaperList(self.view, has_pdf=self.pdfs.has_copy, id="papers")
            yield PaperPane(id="detail")
        yield KeyBar(self.keymap, id="keys")

    def on_mount(self) -> None:
        # laid out for the width it opens at: the first frame is not the wide layout, redrawn
        # narrow once the first Resize comes (a flash at every start below 100 columns)
        self.set_class(self.app.size.width < NARROW_WIDTH, "-narrow")
        self.apply_split()
        self.paper_list.show_ratings(any_rating(self.view.papers))  # known before the index
        self.read_saved_searches()
        # where it was left: a saved search's tab too, whose papers come once it is searched
        if self.ui.tab != self.view.tab and self.view.show_tab(self.ui.tab) and self.ui.paper:
            self.view.places[self.ui.tab] = self.ui.paper
        self.rebuild(keep=self.ui.paper or None)
        self.await_saved_papers()  # keys typed as it opens move among them, as after `6`
        self.set_interval(POLL_SECONDS, self.poll_disk)
        self.scan_pdfs()  # which papers have a local PDF: off this thread, shown when known
        self.read_pdf_failures()  # why some failed, for the pane: so too
        self.set_timer(2.0, self.read_pdf_texts)  # the PDFs' text, once the screen is still
        # after the first frame: the build would otherwise compete with it for the GIL
        self.call_after_refresh(self.build_index, self.view.papers)

    def remember_place(self) -> None:
        """Keep the tab and the paper under the cursor for the next start (any end's: ``q``,
        a signal, the terminal closed; see ``PapersApp.exit``), written now."""
        place = self._place_now()
        if place is None and self.is_mounted and self.ui_writes.writing:
            place = self.ui  # (kept by a worker's write, which may not end before the app)
        if place is not None:
            self.ui = place
            self.ui_writes.save(place)

    def _place_now(self) -> UiState | None:
        """The place to keep, when it is not the one kept (None: it is, or the screen is
        not up: ended before the place it was opened at was shown)."""
        if not self.is_mounted:
            return None
        current = self.paper_list.current
        place = replace(self.ui, tab=self.view.tab, paper=current.id if current else "")
        return place if place != self.ui else None

    def keep_resting_place(self) -> None:
        """A poll's look at the place: once the cursor has rested on a paper for a poll, it is
        kept, so that an end no handler sees (``kill -9``, a crash, the power) opens the app
        where the user was reading, not where the last quit left it. Never while keys move
        the cursor (one small write per rest, none per key). Written in a thread worker (on
        a share that hangs, a write made here held every key), one write at a time: a place
        rested on meanwhile is written by a poll after it."""
        current = self.paper_list.current
        place = (self.view.tab, current.id) if current is not None else None
        rested = place is not None and place == self._place_seen
        self._place_seen = place
        writes = self.ui_writes
        if not rested or place == (self.ui.tab, self.ui.paper) or writes.writing:
            return
        kept = self._place_now()
        if kept is None:
            return
        self.ui, writes.writing, order = kept, True, writes.ask()

        def work() -> None:
            try:
                writes.write(order, kept)
            finally:
                self.app.call_from_thread(setattr, writes, "writing", False)

        self.run_worker(
            work, thread=True, group="place-write", exit_on_error=False,
            description="keep the place",
        )  # fmt: skip

    def on_resize(self, event: Resize) -> None:
        self.set_class(event.size.width < NARROW_WIDTH, "-narrow")
        self.apply_split()
        self.place_list_note()
        self.call_after_refresh(self.place_list_note)  # (the list's new width, once laid out)
        self.update_tabs()
        self.query_one(SearchBox).placeholder = self.search_placeholder(event.size.width)

    def search_placeholder(self, width: int | None = None) -> str:
        """The search box's hint, cut after a whole entry to the box's width (the cursor's
        column kept), with an ellipsis when cut."""
        width = self.app.size.width if width is None else width
        return cut_at_word(f"{self.key_shown('search')} {search_hint()}", width - 1)

    def on_screen_suspend(self) -> None:
        # a dialog opened over the screen: the footer, which shows through, names its keys
        top = self.app.screen_stack[-1]
        self.query_one(KeyBar).show_keys_of(getattr(top, "KEYS", "") if top is not self else "main")

    def on_screen_resume(self) -> None:
        self.query_one(KeyBar).show_keys_of(self.footer_scope())

    # -- moving -----------------------------------------------------------------------------
    # Each move shows its paper at once: the list and the pane change in the same frame.
    def _move_to(self, row: int) -> None:
        self.paper_list.move_to(row)
        self.show_current()

    def action_cursor_down(self) -> None:
        self._move_to(self.paper_list.cursor + 1)

    def action_cursor_up(self) -> None:
        self._move_to(self.paper_list.cursor - 1)

    def action_cursor_first(self) -> None:
        self._move_to(0)

    def action_cursor_last(self) -> None:
        self._move_to(len(self.paper_list.rows) - 1)

    def action_half_page_down(self) -> None:
        self._move_to(self.paper_list.cursor + self.paper_list.half_page())

    def action_half_page_up(self) -> None:
        self._move_to(self.paper_list.cursor - self.paper_list.half_page())

    def action_show_tab(self, name: str) -> None:
        """Show another tab, where the cursor was when it was last left (else its top)."""
        current = self.paper_list.current
        if self.view.show_tab(name, leaving=current.id if current else None):
            self.rebuild(keep=self.view.place(), cursor=0)
            self.set_focus(self.paper_list)
            self.await_saved_papers()
            self.saved_again()

    @on(TabBar.Clicked)
    def tab_clicked(self, event: TabBar.Clicked) -> None:
        self.action_show_tab(event.tab)

    @on(TabBar.MoreClicked)
    def more_tabs_clicked(self, event: TabBar.MoreClicked) -> None:
        """ "+3 more" clicked: the tabs left out of the bar, to choose one (it did nothing)."""
        self._pick_tab(event.tabs)

    def action_more_tabs(self) -> None:
        """The "+3 more" of the tab bar from the keyboard and the palette (a click was the only
        way to it): the tabs left out of the bar, else, when the bar has room for every tab,
        all of them."""
        bar = self.query_one("#tabs", TabBar)
        left_out = bar.left_out()
        self._pick_tab(left_out or bar.every(), title="More tabs" if left_out else "Tabs")

    def _pick_tab(self, tabs: Sequence[str], title: str = "More tabs") -> None:
        """A list of ``tabs`` with their counts and keys: the one chosen is shown."""
        from tui.screens.tab_picker import TabPicker

        counts = self.view.counts()
        lines: list[tuple[str, Text]] = []
        for name in tabs:
            saved = self.view.saved_tab(name)
            if name in TABS:
                label, key, query = TABS[name][0], self.key_shown(f"tab_{name}"), ""
            elif saved is not None:
                at = next(i for i, tab in enumerate(self.view.saved) if tab is saved)
                key = self.key_shown(SAVED_TABS[at]) if at < len(SAVED_TABS) else ""
                label, query = self.view.saved_label(saved), printable(saved.search.query)
            else:
                continue  # (closed since it was drawn)
            found = counts.get(name)
            line = Text(f"{label} · {'…' if found is None else count(found, 'paper')}")
            if key:
                line.append(f" ({key})", style="dim")
            if query and query != label:
                line.append(f"  “{query}”", style="dim")
            lines.append((name, line))
        if lines:
            self.app.push_screen(TabPicker(lines, title), self._tab_picked)

    def _tab_picked(self, name: str | None) -> None:
        if name is not None:
            self.action_show_tab(name)

    @on(PaperList.Highlighted)
    def paper_highlighted(self, event: PaperList.Highlighted) -> None:
        """The cursor moved: show its paper, unless that was done already or it moved on."""
        if event.paper is self.paper_list.current and event.paper is not self.shown_paper:
            self.show_paper(event.paper)

    # -- triage -----------------------------------------------------------------------------
    def action_decide(self, value: str) -> None:
        """Decide the paper under the cursor, then go to the next one."""
        plist = self.paper_list
        paper = plist.current
        if paper is None:
            self.app.bell()
            return
        changes, left = self.decide([paper.id], Status(value))
        self.view.marked.discard(paper.id)
        self._tell_marks_wait()
        if left:  # it left this tab: the next paper moves up under the cursor
            plist.rows_left()
        else:
            plist.refresh_paper({paper.id})
            plist.move_by(1)
        if changes:
            self.update_tabs()
        self.show_current()

    def _tell_marks_wait(self) -> None:
        """r, x or s decide the paper under the cursor, not the marked ones: said once for a
        set of marks (a user who marked papers and pressed r expected them decided)."""
        marked = self.view.marked
        if marked == self._marks_told:  # (none, or as said: no copy of thousands of marks)
            return
        self._marks_told = frozenset(marked)
        # those the list shows, as D decides them (a mark kept for a paper gone from the tab
        # is not one: "2 marked papers wait" while the title said 1 marked)
        n = len(self.view.marked_in(self.view.listed)) if marked else 0
        if n:
            self.notify(
                f"Decided the paper under the cursor; {n:,} marked "
                f"{'paper waits' if n == 1 else 'papers wait'}: "
                f"{self.key_shown('decide_marked')} decides them at once.",
                timeout=5,
                markup=False,
            )

    def action_undo(self) -> None:
        """Undo the latest step: a saved search deleted, a note or tags replaced just now, else
        a decision (or a removal, a move in the queue) of the library's history."""
        if not self.restore_deleted() and not self.restore_replaced():
            self.session.queue_undo()
            expect_screen(self.app)  # see ``persisted``

    def action_redo(self) -> None:
        self.session.queue_redo()
        expect_screen(self.app)

    @on(Persisted)
    def persisted(self, event: Persisted) -> None:
        """The writer thread reports: show undo/redo, reload after errors and outside changes."""
        before = self.session.version
        changes = self.session.absorb(event.outcome)
        if changes and event.outcome.triage is None and self.session.version == before + 1:
            self.view.counted_changes(changes, before)  # an undo or a redo, nothing replayed
        said = report(event.outcome, changes, self.view.title, self.key_shown)
        if said.message:
            self.notify(
                said.message,
                title=said.title,
                severity=said.severity,
                timeout=said.timeout,
                markup=False,
            )
        if said.reload:  # papers left or came back: a removal, or its undo or redo
            self.reload_papers(keep=said.keep)
        elif said.redraw:
            self.rebuild(keep=said.keep)
        op = event.outcome.op
        outside = op.kind == "reload" or event.outcome.triage is not None
        if event.outcome.error is None and outside:
            self.search_after_outside_changes()  # what its tag: or is: reads may be other
        if op.kind in ("undo", "redo"):
            # shown only now, the writer having written it: the keys typed after u or
            # ctrl+r waited for it (``u j`` moved, then lost the move to the cursor put
            # back on the paper undone)
            screen_arrived(self.app)
        if event.outcome.error is not None and op.kind == "note":
            self.note_not_saved(op.paper_ids[0], op.text)

    def poll_disk(self) -> None:
        """Notice another process's changes (a second window, a `papers mark` script); not
        once the app is ending (its widgets may be going). What is on disk is looked at in a
        thread worker (``_look_at_disk``): a share that hangs holds a stat, and made here no
        key was read until it answered."""
        if is_ending(self.app):
            return
        self._look_at_disk()
        self.keep_resting_place()

    def _look_at_disk(self) -> None:
        """One look at the disk, in a thread worker, what it saw taken here (``_looked``),
        one look at a time (a share that hangs holds one thread, not one more each second;
        HOME's and the PDFs' in the same worker: one a second, as the poll was before).

        HOME's files (``tui.home_look``): a search saved or deleted elsewhere (`papers
        search --save`, another window), papers imported elsewhere, decisions made
        elsewhere. The PDFs (``AppPdfs.look``): PDFs downloaded or deleted elsewhere
        (`papers pdf`, a file manager): the rows' marks and the pane follow (one stat of the
        folder while it does not change; when it does, it is read in a worker of its own:
        ``scan_pdfs``), as do the failures it keeps (``pdf-failures.json``) and the texts
        `papers pdf` read of them (their pages, ``pdf:``); not while our own download runs,
        nor before the first scan."""
        files, pdfs = self.home_files, self.pdfs
        if files.looking:
            return
        files.looking = True
        session = self.session
        # a removal of ours (its outcome reloads) or an import from the dialog (its end
        # reloads): papers.json changes by our hand, not another process's
        ours = session.changing_papers or self.importing
        seen = HomeSeen(
            self._saved_version, self.papers_version, session.version, not ours, not session.busy
        )
        at_pdfs = not pdfs.busy and pdfs.scanned

        def work() -> None:
            home = folder = None
            try:
                home = files.look(seen)
                folder = pdfs.look() if at_pdfs else None
            finally:  # (failed, too: the next poll looks again)
                self.app.call_from_thread(self._looked, files, home, folder)

        self.run_worker(
            work, thread=True, group="disk-look", exit_on_error=False,
            description="look at the disk",
        )  # fmt: skip

    def _looked(self, files: HomeFiles, home: HomeLook | None, pdfs: DiskLook | None) -> None:
        """What a look at the disk saw (None: that part failed, or was not made)."""
        files.looking = False
        self._home_looked(home)
        self._pdfs_looked(pdfs)

    def _home_looked(self, look: HomeLook | None) -> None:
        """What the poll's look at HOME saw (None: it failed), taken on this thread: each
        part let go when what it was looked against moved on meanwhile (a newer read of the
        saved searches, other papers shown, a decision made or taken in: the next poll looks
        again), and all of it once the app is ending."""
        if look is None or is_ending(self.app) or not self.is_mounted:
            return
        seen = look.seen
        if seen.saved == self._saved_version:
            self.take_saved_searches(look.saved_version, look.saved, look.saved_error)
        session = self.session
        error = look.error
        if error is None and look.papers:
            if seen.papers == self.papers_version and not (
                session.changing_papers or self.importing
            ):
                try:  # (the read of papers.json fails here, not in the look: damaged)
                    self.reload_papers("Papers imported elsewhere were added.")
                except (LibraryError, OSError) as exc:
                    error = exc
                else:
                    self.detail.set_welcome("", "")  # of the sample: `papers import` did so
        elif error is None and look.triage and seen.triage == session.version and not session.busy:
            session.queue_reload()
        if error is not None:  # reported once: a damaged version is not "changed" again
            self.notify(  # until someone changes it
                f"{error} The app goes on with what it loaded.",
                title="Library file",
                severity="error",
                timeout=20,
                markup=False,
            )

    def _pdfs_looked(self, look: DiskLook | None) -> None:
        """What the poll's look at the PDFs saw (None: it failed, or was not made), taken on
        this thread."""
        pdfs = self.pdfs
        if look is None or pdfs.busy or is_ending(self.app) or not self.is_mounted:
            return
        if look.folder:
            self.scan_pdfs()
        if look.failures:  # `papers pdf` elsewhere
            self.read_pdf_failures()  # what the pane says of a PDF, once read
        if look.texts:  # their texts, read by `papers pdf`
            self.reload_pdf_texts()

    # -- marks ------------------------------------------------------------------------------
    def action_toggle_mark(self) -> None:
        plist = self.paper_list
        paper = plist.current
        if paper is None:
            return
        self.view.marked.symmetric_difference_update({paper.id})
        plist.refresh_paper({paper.id})
        plist.move_by(1)
        self.update_list_title()

    def action_mark_all(self) -> None:
        plist = self.paper_list
        shown = {self.view.ids[i] for i in self.view.listed}
        if shown and shown <= self.view.marked:
            self.view.marked.difference_update(shown)
        else:
            self.view.marked.update(shown)
        plist.refresh()
        self.update_list_title()

    def action_toggle_marked_view(self) -> None:
        """Only the marked papers, or the whole list again."""
        if not self.view.only_marked and not self.view.marked_in(self.view.listed):
            mark, every = self.key_shown("mark"), self.key_shown("mark_all")
            message = f"Nothing marked here: {mark} marks a paper, {every} every paper."
            self.notify(message, severity="warning", markup=False)
            return
        # opened on the marked paper nearest the cursor (after it, else before it): not on
        # the row the cursor was on, cut to the marked papers' count (their last, far off)
        keep = None if self.view.only_marked else self._nearest_marked()
        self.view.only_marked = not self.view.only_marked
        self.rebuild(keep=keep)

    def _nearest_marked(self) -> str | None:
        """The marked paper under the cursor, or the nearest after it (else before it)."""
        plist, marked = self.paper_list, self.view.marked
        rows, papers, cursor = plist.rows, plist.papers, plist.cursor
        for row in chain(range(cursor, len(rows)), range(cursor - 1, -1, -1)):
            if papers[rows[row]].id in marked:
                return papers[rows[row]].id
        return None

    def action_decide_marked(self) -> None:
        from tui.screens.dialogs import BulkDecision

        plist = self.paper_list
        ids = self.view.marked_in(self.view.listed) or ([plist.current.id] if plist.current else [])
        if not ids:
            self.app.bell()
            return

        def decided(status: Status | None) -> None:
            if status is not None:
                self.decide_many(ids, status)

        self.app.push_screen(BulkDecision(len(ids)), decided)

    async def action_quit(self) -> None:
        await self.app.run_action("app.quit")
