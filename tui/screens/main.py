"""The main screen: tabs with live counts, search, the paper list and the selected paper."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from textual import on, work
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Container
from textual.events import Key, Resize
from textual.timer import Timer
from textual.widgets import Input, Static

from storage.errors import LibraryError
from storage.export import SUFFIXES, export, heading_for
from storage.files import atomic_write
from storage.models import Paper, Status
from tui.commands import PaperCommands, bindings
from tui.frames import PacedScreen
from tui.memory import kept_for_good, release_memory
from tui.messages import Found, IndexReady, Persisted, SearchDone
from tui.widgets.key_bar import KeyBar
from tui.widgets.paper_detail import PaperDetail, paper_text
from tui.widgets.paper_list import PaperList

if TYPE_CHECKING:
    from storage.search import SearchIndex
    from storage.similar import Neighbour, SimilarityIndex, Suggestion, Topic
    from tui.app import PapersApp

TabName = Literal["inbox", "starred", "read", "skipped", "all"]
TABS: dict[str, tuple[str, frozenset[Status] | None]] = {
    "inbox": ("Inbox", frozenset({Status.INBOX})),
    "starred": ("Starred", frozenset({Status.STARRED})),
    "read": ("Read", frozenset({Status.READ})),
    "skipped": ("Skipped", frozenset({Status.SKIPPED})),
    "all": ("All", None),
}
SHORT_LABELS = {"inbox": "In", "starred": "★", "read": "✓", "skipped": "✗", "all": "All"}
NARROW_WIDTH = 100
#: The best this many matches are listed (a one-letter query at 100,000 papers matches most).
SEARCH_LIMIT = 5000
POLL_SECONDS = 1.0
#: A typed letter waits at most this long to be painted with its results (see ``hold_paint``).
HOLD_PAINT_SECONDS = 0.02
SEARCH_HINT = (
    '/ search: words (typos ok), "a phrase", is:starred has:code status:oral author:NAME '
    "tag:X -word"
)


class TabBar(Static):
    """Tabs with live counts and overall progress; click a tab to show it."""


class MainScreen(PacedScreen[None]):
    """Triage: one key per decision, the list and the paper side by side."""

    BINDINGS: ClassVar[list[BindingType]] = bindings()
    COMMANDS: ClassVar = {PaperCommands}
    AUTO_FOCUS = "#papers"

    def __init__(self) -> None:
        super().__init__()
        self.tab: TabName = "inbox"
        self.query_text = ""
        self.hit_rows: list[int] | None = None
        #: The current search's papers; their matched words are read only for the paper
        #: shown (working them out for 5,000 papers would cost a keystroke).
        self.found: Found | None = None
        self.index: SearchIndex | None = None
        self.similar_index: SimilarityIndex | None = None
        self.suggested: dict[str, str | None] | None = None
        self.suggested_rows: list[int] | None = None
        self.position: dict[str, int] = {}
        #: The paper the detail pane shows.
        self.shown_paper: Paper | None = None
        self._held_paint: ExitStack | None = None
        self._hold_timer: Timer | None = None
        #: Paper ids by position (what ``position`` maps back from).
        self.ids: list[str] = []

    @property
    def papers_app(self) -> PapersApp:
        from tui.app import PapersApp

        app = self.app
        assert isinstance(app, PapersApp)
        return app

    @property
    def papers(self) -> list[Paper]:
        return self.papers_app.papers

    # -- layout -----------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        app = self.papers_app
        self.index_papers(app.papers)
        yield TabBar(id="tabs")
        yield Input(placeholder=SEARCH_HINT, id="search", compact=True)
        with Container(id="body"):
            yield PaperList(app.papers, app.session.status, id="papers")
            yield PaperDetail(id="detail")
        yield KeyBar(app.keymap, id="keys")

    def on_mount(self) -> None:
        self.rebuild()
        self.set_interval(POLL_SECONDS, self.poll_disk)
        # after the first frame: the build would otherwise compete with it for the GIL
        self.call_after_refresh(self.build_index, self.papers)

    def on_resize(self, event: Resize) -> None:
        self.set_class(event.size.width < NARROW_WIDTH, "-narrow")
        self.update_tabs()

    @property
    def paper_list(self) -> PaperList:
        return self.query_one("#papers", PaperList)

    @property
    def detail(self) -> PaperDetail:
        return self.query_one("#detail", PaperDetail)

    @property
    def search_input(self) -> Input:
        return self.query_one("#search", Input)

    # -- what the list shows ----------------------------------------------------------------
    def index_papers(self, papers: Sequence[Paper]) -> None:
        self.ids = [p.id for p in papers]
        self.position = {pid: i for i, pid in enumerate(self.ids)}

    def rows_for_tab(self) -> list[int]:
        """Indices of the papers the current tab, search and order show."""
        _, allowed = TABS[self.tab]
        papers = self.papers
        if self.hit_rows is not None:
            base: Sequence[int] = self.hit_rows
        elif self.tab == "inbox" and self.suggested_rows is not None:
            # papers back in the Inbox since the suggestion was made follow, in list order
            seen = set(self.suggested_rows)
            base = [*self.suggested_rows, *(i for i in range(len(papers)) if i not in seen)]
        else:
            base = range(len(papers))
        if allowed is None:
            return list(base)
        statuses = self.papers_app.session.state.statuses  # decided papers only
        if isinstance(base, range):  # the whole list: walk the side that is smaller
            if allowed == {Status.INBOX}:
                return [i for i, pid in enumerate(self.ids) if pid not in statuses]
            position = self.position
            return sorted(
                position[pid] for pid, s in statuses.items() if s in allowed and pid in position
            )
        ids, status_of, inbox = self.ids, statuses.get, Status.INBOX
        return [i for i in base if status_of(ids[i], inbox) in allowed]

    def rebuild(
        self, keep: str | None = None, cursor: int | None = None, *, counts: bool = True
    ) -> None:
        """Recompute the rows and redraw the list, the detail and (``counts``) the tabs."""
        plist = self.paper_list
        if keep is None and cursor is None and plist.current is not None:
            keep = plist.current.id
        plist.show(self.papers, self.rows_for_tab(), keep=keep, cursor=cursor)
        if counts:
            self.update_tabs()
        self.show_current()

    def list_title(self) -> str:
        plist = self.paper_list
        label = TABS[self.tab][0]
        n = len(plist.rows)
        where = f"{plist.cursor + 1:,} / {n:,}" if n else "empty"
        extra = ""
        if self.hit_rows is not None:
            found = len(self.found) if self.found is not None else 0
            extra = " · search" if found < SEARCH_LIMIT else f" · best {SEARCH_LIMIT:,}"
        elif self.tab == "inbox" and self.suggested_rows is not None:
            extra = " · suggested order"
        marked = sum(1 for p in plist.row_papers() if p.id in plist.marked) if plist.marked else 0
        if marked:
            extra += f" · {marked} marked"
        return f"{label}{extra} · {where}"

    def counts(self) -> dict[str, int]:
        """Papers per tab. Counted in C (20,000 decisions at 100,000 papers: ~1 ms, not 25)."""
        statuses = self.papers_app.session.state.statuses
        found = Counter(statuses.values())
        for pid in statuses.keys() - self.position.keys():  # decided, then gone from the lists
            found[statuses[pid]] -= 1
        total = len(self.papers)
        counts = {s.value: found[s] for s in (Status.STARRED, Status.READ, Status.SKIPPED)}
        counts["inbox"] = total - sum(counts.values())
        counts["all"] = total
        return counts

    def update_tabs(self) -> None:
        counts = self.counts()
        narrow = self.size.width < 70
        parts = []
        for name, (label, _) in TABS.items():
            text = f"{SHORT_LABELS[name] if narrow else label} {counts[name]:,}"
            key = list(TABS).index(name) + 1
            style = "reverse bold" if name == self.tab else "dim" if counts[name] == 0 else ""
            parts.append(f"[{style} @click=screen.show_tab('{name}')] {key} {text} [/]")
        total = counts["all"]
        done = total - counts["inbox"]
        bar = ""
        if not narrow and total:
            filled = round(10 * done / total)
            bar = f" [$success]{'█' * filled}[/][dim]{'░' * (10 - filled)}[/]"
        progress = f"  {done:,} / {total:,} triaged{bar}"
        self.query_one("#tabs", TabBar).update("".join(parts) + progress, layout=False)

    # -- moving -----------------------------------------------------------------------------
    def action_cursor_down(self) -> None:
        self.paper_list.move_by(1)

    def action_cursor_up(self) -> None:
        self.paper_list.move_by(-1)

    def action_cursor_first(self) -> None:
        self.paper_list.move_to(0)

    def action_cursor_last(self) -> None:
        self.paper_list.move_to(len(self.paper_list.rows) - 1)

    def action_half_page_down(self) -> None:
        self.paper_list.move_by(self.paper_list.half_page())

    def action_half_page_up(self) -> None:
        self.paper_list.move_by(-self.paper_list.half_page())

    def action_show_tab(self, name: str) -> None:
        if name not in TABS or name == self.tab:
            return
        self.tab = name  # type: ignore[assignment]
        self.paper_list.marked.clear()  # marks belong to the list they were made in
        self.rebuild(cursor=0)
        self.set_focus(self.paper_list)

    @on(PaperList.Highlighted)
    def paper_highlighted(self, event: PaperList.Highlighted) -> None:
        """The cursor moved: show its paper, unless that was done already or it moved on."""
        if event.paper is self.paper_list.current and event.paper is not self.shown_paper:
            self.show_paper(event.paper)

    def show_current(self) -> None:
        """Show the paper under the cursor now, in the same frame as the list's change."""
        self.show_paper(self.paper_list.current)

    def show_paper(self, paper: Paper | None) -> None:
        """Fill the detail pane (and the list's title, which says where the cursor is)."""
        self.shown_paper = paper
        plist = self.paper_list
        plist.border_title = self.list_title()
        state = self.papers_app.session.state
        if paper is None:
            self.detail.show(paper_text(None))
            return
        why = ""
        if self.suggested is not None and self.hit_rows is None and self.tab == "inbox":
            because = self.suggested.get(paper.id)
            if because and because in self.position:
                like = self.papers[self.position[because]].display_title
                why = f"Suggested: like your starred paper “{like}”"
        self.detail.show(
            paper_text(
                paper,
                state.status(paper.id),
                note=state.notes.get(paper.id, ""),
                tags=state.tags.get(paper.id, ()),
                words=self.found.matched(paper.id) if self.found is not None else (),
                why=why,
            )
        )

    @on(PaperList.Clicked)
    def open_clicked(self, event: PaperList.Clicked) -> None:
        self.action_open_link()

    # -- triage -----------------------------------------------------------------------------
    def action_decide(self, value: str) -> None:
        """Decide the paper under the cursor, then go to the next one."""
        plist = self.paper_list
        paper = plist.current
        if paper is None:
            self.app.bell()
            return
        status = Status(value)
        changes = self.papers_app.session.set_status([paper.id], status)
        plist.marked.discard(paper.id)
        _, allowed = TABS[self.tab]
        if allowed is not None and status not in allowed:
            plist.remove_row(plist.cursor)  # it leaves this tab: the next paper moves up
        else:
            plist.refresh_paper({paper.id})
            plist.move_by(1)
        if changes:
            self.update_tabs()
        self.show_current()

    def action_undo(self) -> None:
        self.papers_app.session.undo()

    def action_redo(self) -> None:
        self.papers_app.session.redo()

    @on(Persisted)
    def persisted(self, event: Persisted) -> None:
        """The writer thread reports: show undo/redo, reload after errors and outside changes."""
        outcome = event.outcome
        session = self.papers_app.session
        changes = session.absorb(outcome)
        kind = outcome.op.kind
        if outcome.error is not None:
            if kind == "reload":
                title, message = "Not read", f"{outcome.error} The app goes on with what it loaded."
            else:
                shown = " Showing what is on disk." if outcome.snapshot is not None else ""
                title, message = "Not saved", f"Not saved: {outcome.error}.{shown}"
            self.notify(message, title=title, severity="error", timeout=20, markup=False)
            self.rebuild()
            return
        if kind in ("undo", "redo"):
            if not changes:
                self.notify(f"Nothing to {kind}.", timeout=2, markup=False)
                return
            first = changes[0][0]
            verb = "Undid" if kind == "undo" else "Redid"
            what = f"{len(changes)} papers" if len(changes) > 1 else self._title(first)
            self.notify(f"{verb}: {what} → {changes[0][2].value}", timeout=3, markup=False)
            self.rebuild(keep=first)
        elif kind == "reload":
            self.rebuild()
            self.notify("Updated with decisions made elsewhere.", timeout=3, markup=False)

    def _title(self, paper_id: str) -> str:
        i = self.position.get(paper_id)
        return self.papers[i].display_title if i is not None else paper_id

    def poll_disk(self) -> None:
        """Notice another process's changes (a second window, a `papers mark` script)."""
        app = self.papers_app
        try:
            if app.library.papers_changed_since(app.papers_version):
                self.reload_papers("Papers imported elsewhere were added.")
            elif not app.session.busy and app.library.triage_changed_on_disk():
                app.session.reload()
        except (LibraryError, OSError) as exc:  # reported once: a damaged version is not
            self.notify(  # "changed" again until someone changes it
                f"{exc} The app goes on with what it loaded.",
                title="Library file",
                severity="error",
                timeout=20,
                markup=False,
            )

    # -- bulk -------------------------------------------------------------------------------
    def action_toggle_mark(self) -> None:
        plist = self.paper_list
        paper = plist.current
        if paper is None:
            return
        if paper.id in plist.marked:
            plist.marked.discard(paper.id)
        else:
            plist.marked.add(paper.id)
        plist.refresh_paper({paper.id})
        plist.move_by(1)
        plist.border_title = self.list_title()

    def action_mark_all(self) -> None:
        plist = self.paper_list
        shown = {p.id for p in plist.row_papers()}
        if shown and shown <= plist.marked:
            plist.marked -= shown
        else:
            plist.marked |= shown
        plist.refresh()
        plist.border_title = self.list_title()

    def action_decide_marked(self) -> None:
        from tui.screens.dialogs import BulkDecision

        plist = self.paper_list
        ids = [p.id for p in plist.row_papers() if p.id in plist.marked] or (
            [plist.current.id] if plist.current else []
        )
        if not ids:
            self.app.bell()
            return

        def decided(status: Status | None) -> None:
            if status is not None:
                self.decide_many(ids, status)

        self.app.push_screen(BulkDecision(len(ids)), decided)

    def decide_many(self, ids: Sequence[str], status: Status) -> None:
        """Decide many papers at once: one write, one undo step."""
        changes = self.papers_app.session.set_status(ids, status)
        plist = self.paper_list
        plist.marked -= set(ids)
        self.notify(
            f"{len(changes)} paper{'s' if len(changes) != 1 else ''} → {status.value} "
            "(one step: u undoes it)",
            timeout=4,
            markup=False,
        )
        self.rebuild(cursor=plist.cursor)

    # -- search -----------------------------------------------------------------------------
    def action_focus_search(self) -> None:
        search = self.search_input
        if search.has_focus:  # "/" typed in a query
            search.insert_text_at_cursor("/")
        else:
            self.set_focus(search)

    def action_leave_search(self) -> None:
        """Esc: leave the search box keeping the filter; from the list, clear the filter."""
        search = self.search_input
        if search.has_focus:
            self.set_focus(self.paper_list)
        elif self.query_text or search.value:
            search.value = ""

    def action_clear_search(self) -> None:
        self.search_input.value = ""
        self.set_focus(self.paper_list)

    def on_key(self, event: Key) -> None:
        if event.key == "down" and self.search_input.has_focus:
            self.set_focus(self.paper_list)
            event.stop()

    @on(Input.Submitted, "#search")
    def query_submitted(self) -> None:
        self.set_focus(self.paper_list)

    @on(Input.Changed, "#search")
    def query_changed(self, event: Input.Changed) -> None:
        self.query_text = event.value.strip()
        if not self.query_text:
            self.hit_rows = None
            self.found = None
            self.rebuild(cursor=0, counts=False)
            return
        if self.index is not None:
            self.hold_paint()
            self.run_search(self.query_text)

    def hold_paint(self) -> None:
        """Paint the letter just typed together with its results, if they come in time.

        A search takes a few milliseconds off the UI thread. Painted at once, the letter
        would set Textual's frame clock going and the results would wait for the next tick,
        up to 17 ms later; held (for ``HOLD_PAINT_SECONDS`` at most), both show in one frame.
        The keystroke itself is never held: only the painting of it.
        """
        if self._held_paint is None:
            self._held_paint = ExitStack()
            self._held_paint.enter_context(self.app.batch_update())
            self._hold_timer = self.set_timer(HOLD_PAINT_SECONDS, self.release_paint)

    def release_paint(self) -> None:
        """Paint again (results arrived, or the hold ran out)."""
        held, self._held_paint = self._held_paint, None
        if self._hold_timer is not None:
            self._hold_timer.stop()
            self._hold_timer = None
        if held is not None:
            held.close()

    def on_unmount(self) -> None:
        self.release_paint()

    @work(thread=True, exclusive=True, group="search", exit_on_error=False, description="search")
    def run_search(self, query: str) -> None:
        """Search off the keystroke path; results for an old query are dropped."""
        index = self.index
        if index is None:
            return
        state = self.papers_app.session.state
        ranking = index.rank(
            query, limit=SEARCH_LIMIT, statuses=dict(state.statuses), tags=dict(state.tags)
        )
        # mapped here, not on the UI thread: 5,000 papers cost milliseconds
        self.post_message(SearchDone(query, Found.of(ranking, self.position)))

    @on(SearchDone)
    def search_done(self, event: SearchDone) -> None:
        if event.query != self.query_text:
            return  # stale: the user typed on
        found = event.found
        if found.position is not self.position:  # mapped for papers replaced since (an import)
            found = Found.of(found.ranking, self.position)
        self.found = found
        self.hit_rows = found.rows
        self.rebuild(cursor=0, counts=False)
        self.release_paint()

    # Every worker gets a description: without one Textual repr()s the arguments, and the
    # repr of 12,000 papers costs 0.14 s of the UI thread at start.
    @work(thread=True, exclusive=True, group="index", exit_on_error=False, description="index")
    def build_index(self, papers: Sequence[Paper]) -> None:
        """Build the search index off the UI thread (about a second at 12,000 papers)."""
        from storage.search import SearchIndex  # numpy and rapidfuzz: not before first paint

        index = SearchIndex(papers)
        release_memory()
        self.post_message(IndexReady(papers, index))

    @on(IndexReady)
    def index_ready(self, event: IndexReady) -> None:
        if event.papers is not self.papers:
            return
        self.index = event.index
        if self.query_text:
            self.run_search(self.query_text)

    # -- the paper --------------------------------------------------------------------------
    def _links_text(self, papers: Sequence[Paper]) -> str:
        return "\n".join(url for p in papers for url in p.github)

    def action_copy_links(self) -> None:
        paper = self.paper_list.current
        if paper is None:
            return
        if not paper.github:
            self.notify("This paper links no GitHub repository.", severity="warning", markup=False)
            return
        self.copy_text(
            self._links_text([paper]),
            f"{len(paper.github)} link" + ("s" if len(paper.github) > 1 else ""),
        )

    def action_copy_all_links(self) -> None:
        papers = [p for p in self.paper_list.row_papers() if p.github]
        if not papers:
            self.notify(
                "No paper in this list links a GitHub repository.", severity="warning", markup=False
            )
            return
        text = self._links_text(papers)
        n = text.count("\n") + 1
        self.copy_text(text, f"{n} links from {len(papers)} papers")

    def copy_text(self, text: str, what: str) -> None:
        """Copy by OSC 52 (works over SSH and in tmux) and to the system clipboard."""
        self.app.copy_to_clipboard(text)
        self._copy_to_system(text, what)

    @work(thread=True, exit_on_error=False, group="clipboard", description="copy")
    def _copy_to_system(self, text: str, what: str) -> None:
        from tui.clipboard import copy_to_system  # pyperclip: only when something is copied

        problem = copy_to_system(text)
        shown = text if len(text) <= 400 else text[:400] + "…"
        if problem is None:
            message = f"Copied {what} to the system clipboard (and the terminal's):\n{shown}"
            severity = "information"
        else:
            message = (
                f"Sent {what} to the terminal's clipboard (OSC 52); {problem}. "
                f"If nothing was copied, select it here:\n{shown}"
            )
            severity = "warning"
        self.app.call_from_thread(
            self.app.notify, message, title="Copied", severity=severity, timeout=8, markup=False
        )

    def _open(self, url: str) -> None:
        if not url.startswith(("https://", "http://")):
            self.notify(f"Not opened: {url!r} is not a web link.", severity="warning", markup=False)
            return
        self.app.open_url(url)
        self.notify(f"Opening {url}", timeout=3, markup=False)

    def action_open_link(self) -> None:
        paper = self.paper_list.current
        if paper is None:
            return
        url = paper.url or (paper.github[0] if paper.github else "")
        if not url:
            self.notify("This paper has no link.", severity="warning", markup=False)
            return
        self._open(url)

    def action_open_code(self) -> None:
        paper = self.paper_list.current
        if paper is None:
            return
        if not paper.github:
            self.notify("This paper links no GitHub repository.", severity="warning", markup=False)
            return
        self._open(paper.github[0])

    def action_edit_note(self) -> None:
        from tui.screens.dialogs import NoteEditor

        paper = self.paper_list.current
        if paper is None:
            return
        session = self.papers_app.session

        def save(note: str | None) -> None:
            if note is None:
                return
            session.set_note(paper.id, note)
            self.show_current()
            self.notify("Note saved." if note.strip() else "Note cleared.", timeout=2, markup=False)

        self.app.push_screen(NoteEditor(paper, session.state.notes.get(paper.id, "")), save)

    def action_edit_tags(self) -> None:
        from tui.screens.dialogs import TextPrompt

        paper = self.paper_list.current
        if paper is None:
            return
        session = self.papers_app.session
        current = " ".join(session.state.tags.get(paper.id, ()))

        def save(text: str | None) -> None:
            if text is None:
                return
            tags = session.set_tags(paper.id, text.replace(",", " ").split())
            self.show_current()
            shown = " ".join(f"#{t}" for t in tags) or "none"
            self.notify(f"Tags: {shown}", timeout=3, markup=False)

        self.app.push_screen(
            TextPrompt(
                "Tags",
                f"Tags for “{paper.display_title}” (spaces between tags; empty clears):",
                current,
            ),
            save,
        )

    # -- the library ------------------------------------------------------------------------
    def action_export(self) -> None:
        from tui.screens.dialogs import TextPrompt, typed_path

        papers = self.paper_list.row_papers()
        if not papers:
            self.notify("Nothing to export: this list is empty.", severity="warning", markup=False)
            return
        default = Path.cwd() / f"papers-{self.tab}{SUFFIXES['markdown']}"

        def write(path_text: str | None) -> None:
            if not path_text:
                return
            target = typed_path(path_text)
            if target.is_dir():
                target = target / default.name
            state = self.papers_app.session.state
            heading = heading_for(papers, TABS[self.tab][0])
            if self.query_text:
                heading += f" (search: {self.query_text})"
            text = export(papers, state, "markdown", heading=heading)
            try:
                atomic_write(target, text.encode("utf-8"), backup=False)
            except OSError as exc:
                self.notify(
                    f"Not written: {target}: {exc.strerror or exc}", severity="error", markup=False
                )
                return
            self.notify(
                f"Wrote {len(papers)} papers to {target}", title="Exported", timeout=6, markup=False
            )

        self.app.push_screen(
            TextPrompt(
                "Export to Markdown",
                f"Write the {len(papers)} papers of this list to:",
                str(default),
            ),
            write,
        )

    def action_import_list(self) -> None:
        from tui.screens.importer import ImportScreen

        def done(note: str | None) -> None:
            if note:
                self.reload_papers(note)

        self.app.push_screen(ImportScreen(self.papers_app.library), done)

    def reload_papers(self, note: str = "") -> None:
        """Read the papers again (after an import) and rebuild the index off-thread.

        Everything that maps rows to papers changes here at once: a key handled in between
        would otherwise read the new papers through the old positions.
        """
        app = self.papers_app
        with kept_for_good():  # as at start
            app.papers, app.papers_version = app.library.versioned_papers()
        self.index_papers(app.papers)
        self.index = None
        self.similar_index = None
        self.suggested = None
        self.suggested_rows = None
        self.hit_rows = None if not self.query_text else []
        self.found = None
        self.rebuild()
        self.build_index(app.papers)
        if note:
            self.notify(note, title="Library", timeout=6, markup=False)

    def action_stats(self) -> None:
        from tui.screens.stats import StatsScreen

        try:
            stats = self.papers_app.library.stats()
        except LibraryError as exc:
            self.notify(str(exc), title="Stats", severity="error", timeout=15, markup=False)
            return
        self.app.push_screen(StatsScreen(stats))

    def action_help(self) -> None:
        from tui.screens.help import HelpScreen

        self.app.push_screen(HelpScreen(self.papers_app.keymap))

    async def action_quit(self) -> None:
        await self.papers_app.action_quit()

    # -- similar papers, suggestions, topics --------------------------------------------------
    # The tf-idf index is built on first use (it costs memory most sessions never need), and
    # every computation runs off the keystroke path; results come back to ``similarity_done``.
    @work(
        thread=True,
        exclusive=True,
        group="similarity",
        exit_on_error=False,
        description="similarity",
    )
    def similarity_task(self, task: str, arg: object = None) -> None:
        """Build the similarity index if need be, then find neighbours, an order or topics."""
        papers = self.papers
        index = self.similar_index
        if index is None:
            from storage.similar import SimilarityIndex

            self.app.call_from_thread(
                self.notify, "Preparing similar papers (once per session)…", timeout=3
            )
            index = SimilarityIndex(papers)
            release_memory()
        result: object
        if task == "similar":
            result = index.similar(str(arg), limit=20)
        elif task == "suggest":
            assert isinstance(arg, dict)
            result = index.suggest(arg)
        else:
            assert isinstance(arg, list)
            result = index.topics(arg)
        self.app.call_from_thread(self.similarity_done, papers, index, task, arg, result)

    def similarity_done(
        self, papers: Sequence[Paper], index: SimilarityIndex, task: str, arg: object, result: Any
    ) -> None:
        if papers is not self.papers:
            return  # the library changed meanwhile
        self.similar_index = index
        if task == "similar":
            self.show_similar(str(arg), result)
        elif task == "suggest":
            self.show_suggested(result)
        else:
            self.show_topics(result)

    def action_similar(self) -> None:
        paper = self.paper_list.current
        if paper is not None:
            self.similarity_task("similar", paper.id)

    def show_similar(self, paper_id: str, neighbours: Sequence[Neighbour]) -> None:
        from tui.screens.similar import SimilarScreen

        paper = self.papers[self.position[paper_id]]

        def chosen(paper_id: str | None) -> None:
            if paper_id is None:
                return
            if self.paper_list.index_of(paper_id) is None:  # not shown: show everything
                self.tab = "all"
                with self.search_input.prevent(Input.Changed):
                    self.search_input.value = ""
                self.query_text, self.hit_rows, self.found = "", None, None
            self.rebuild(keep=paper_id)

        self.app.push_screen(
            SimilarScreen(
                paper, neighbours, self.papers, self.position, self.papers_app.session.status
            ),
            chosen,
        )

    def action_toggle_order(self) -> None:
        if self.suggested_rows is not None:
            self.suggested_rows = None
            self.suggested = None
            self.notify("Inbox in list order.", timeout=2, markup=False)
            self.rebuild(cursor=0)
            return
        statuses = dict(self.papers_app.session.state.statuses)
        if Status.STARRED not in statuses.values():
            self.notify(
                "Star a few papers first: suggestions follow your stars.",
                severity="warning",
                markup=False,
            )
            return
        self.similarity_task("suggest", statuses)

    def show_suggested(self, suggestions: Sequence[Suggestion]) -> None:
        self.suggested = {s.paper_id: s.because for s in suggestions}
        self.suggested_rows = [
            self.position[s.paper_id] for s in suggestions if s.paper_id in self.position
        ]
        self.notify(
            "Inbox in suggested order: most like your starred papers first.",
            timeout=3,
            markup=False,
        )
        self.tab = "inbox"
        self.rebuild(cursor=0)

    def action_topics(self) -> None:
        inbox = [p.id for p in self.papers if self.papers_app.session.status(p.id) is Status.INBOX]
        if len(inbox) < 4:
            self.notify("Too few papers in the Inbox to group.", severity="warning", markup=False)
            return
        self.similarity_task("topics", inbox)

    def show_topics(self, topics: Sequence[Topic]) -> None:
        from tui.screens.similar import TopicsScreen

        def chosen(result: tuple[Sequence[str], Status | None] | None) -> None:
            if result is None:
                return
            ids, status = result
            if status is None:
                plist = self.paper_list
                plist.marked = set(ids)
                self.tab = "inbox"
                self.rebuild()
                self.notify(
                    f"Marked {len(ids)} papers: D decides them together.", timeout=4, markup=False
                )
            else:
                self.decide_many(ids, status)

        self.app.push_screen(TopicsScreen(topics, self.papers, self.position), chosen)
