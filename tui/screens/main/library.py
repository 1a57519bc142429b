"""The main screen's actions on the paper and the library: links, notes, tags, export, import."""

from __future__ import annotations

from textual import on

from storage.errors import LibraryError
from storage.export import heading_for
from storage.text.words import count
from tui import links
from tui.screens.main.base import MainBase
from tui.view import TABS
from tui.widgets.paper_list import PaperList


class LibraryPart(MainBase):
    """Keys that act on the paper under the cursor, the list shown, or the whole library."""

    def action_copy_links(self) -> None:
        links.copy_paper_links(self.app, self.paper_list.current)

    def action_copy_all_links(self) -> None:
        links.copy_list_links(self.app, self.paper_list.row_papers())

    def action_open_link(self) -> None:
        links.open_paper(self.app, self.paper_list.current)

    def action_open_code(self) -> None:
        links.open_paper(self.app, self.paper_list.current, code=True)

    @on(PaperList.Clicked)
    def open_clicked(self, event: PaperList.Clicked) -> None:
        links.open_paper(self.app, event.paper)

    def action_edit_note(self) -> None:
        from tui.screens.dialogs import NoteEditor

        paper = self.paper_list.current
        if paper is None:
            return

        def save(note: str | None) -> None:
            if note is not None:
                self.session.set_note(paper.id, note)
                self.show_current()
                saved = "Note saved." if note.strip() else "Note cleared."
                self.notify(saved, timeout=2, markup=False)

        self.app.push_screen(NoteEditor(paper, self.session.state.notes.get(paper.id, "")), save)

    def action_edit_tags(self) -> None:
        from tui.screens.dialogs import TextPrompt

        paper = self.paper_list.current
        if paper is None:
            return

        def save(text: str | None) -> None:
            if text is not None:
                tags = self.session.set_tags(paper.id, text.replace(",", " ").split())
                self.show_current()
                shown = " ".join(f"#{t}" for t in tags) or "none"
                self.notify(f"Tags: {shown}", timeout=3, markup=False)

        question = f"Tags for “{paper.display_title}” (spaces between tags; empty clears):"
        current = " ".join(self.session.state.tags.get(paper.id, ()))
        self.app.push_screen(TextPrompt("Tags", question, current), save)

    def action_export(self) -> None:
        from tui.screens.export import Choice, ExportScreen

        papers = self.paper_list.row_papers()
        if not papers:
            self.notify("Nothing to export: this list is empty.", severity="warning", markup=False)
            return
        heading = heading_for(papers, TABS[self.view.tab][0])
        if self.view.query:
            heading += f" (search: {self.view.query})"
        choices = [Choice(f"This list: {count(len(papers), 'paper')}", heading, papers)]
        marked = [p for p in papers if p.id in self.view.marked]
        if marked:
            label = f"The marked papers: {count(len(marked), 'paper')}"
            choices.insert(0, Choice(label, heading_for(marked, "Marked papers"), marked))
        name = f"papers-{self.view.tab}"
        screen = ExportScreen(choices, self.session.state, name, self.library.home)
        self.app.push_screen(screen)

    def action_import_list(self) -> None:
        from tui.screens.importer import ImportScreen

        def done(note: str | None) -> None:
            if note:
                self.reload_papers(note)

        self.app.push_screen(ImportScreen(self.library), done)

    def action_stats(self) -> None:
        from tui.screens.stats import StatsScreen

        try:
            stats = self.library.stats()
        except LibraryError as exc:
            self.notify(str(exc), title="Stats", severity="error", timeout=15, markup=False)
            return
        self.app.push_screen(StatsScreen(stats))

    def action_sync(self) -> None:
        from tui.syncing import sync_now  # the work is tui/syncing.py's, off this thread

        sync_now(self.app)

    def action_help(self) -> None:
        from tui.screens.help import HelpScreen

        self.app.push_screen(HelpScreen(self.keymap))
