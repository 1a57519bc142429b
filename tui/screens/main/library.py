"""The main screen's actions on the paper and the library: links, notes, tags, export, import,
removal."""

from __future__ import annotations

import re
from collections.abc import Callable, Collection
from functools import partial
from typing import TYPE_CHECKING, cast

from textual import on

from storage.caps import TooBigError
from storage.errors import LibraryError
from storage.export import heading_for
from storage.models import Paper
from storage.text.sanitize import printable
from storage.text.words import count
from tui import links
from tui.ending import is_ending
from tui.key_gate import screen_arrived
from tui.screens.main.base import MainBase
from tui.widgets.paper_list import PaperList

if TYPE_CHECKING:
    from tui.screens.main.queue import QueuePart


class LibraryPart(MainBase):
    """Keys that act on the paper under the cursor, the list shown, or the whole library."""

    #: The import dialog is open: a change of papers.json is its import, not another's.
    importing = False
    #: The note or tags last replaced or cleared: what puts them back, and the session's steps
    #: just after, for ``u`` (``restore_replaced``).
    _replaced: tuple[Callable[[], None], int] | None = None

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
        paper = self.paper_list.current
        if paper is not None:
            self.open_note_editor(paper)

    def open_note_editor(self, paper: Paper, draft: str | None = None) -> None:
        """The note editor on ``paper``'s note, or on ``draft``: a note the disk refused,
        open again with its text so that it is not lost (ctrl+s tries again)."""
        from tui.screens.dialogs import NoteEditor

        note = self.session.state.notes.get(paper.id, "")

        def save(text: str | None) -> None:
            if text is not None:  # written over ``note``: merged with what changed elsewhere
                self._write_note(paper.id, text, before=note, base=note)  # meanwhile

        def keep(text: str) -> None:
            self.session.queue_note(paper.id, text, base=note)

        self.app.push_screen(NoteEditor(paper, note, keep=keep, draft=draft), save)

    def _write_note(
        self, paper_id: str, text: str, *, before: str, said: str = "", base: str | None = None
    ) -> None:
        """Save a note from the editor (or put one back); a note that replaced or cleared
        another can be taken back by ``u`` while nothing else was done since, merged as the
        editor's save is with what changed elsewhere meanwhile (it is the base)."""
        self.session.queue_note(paper_id, text, base=base)
        if self.view.saved:  # a has:note tab's count changes with it
            self.update_tabs()
        self.show_current()
        said = said or ("Note saved" if text.strip() else "Note cleared")
        if before.strip() and before.strip() != text.strip():
            put_back = partial(self._put_note_back, paper_id, before, text)
            self._replaced = (put_back, self.session.steps)
            undo = self.key_shown("undo")
            self.notify(
                f"{said}: {undo} brings back the note it replaced.", timeout=5, markup=False
            )
        else:
            self.notify(f"{said}.", timeout=2, markup=False)

    def restore_replaced(self) -> bool:
        """``u`` right after a note or a paper's tags replaced or cleared others: the earlier
        ones back (and ``u`` again, the later ones: nothing typed is lost), as ``u`` brings
        back a saved search just deleted, notes and tags being no steps of the history. False
        (``u`` then undoes a decision) when something was done since."""
        kept, self._replaced = self._replaced, None
        if kept is None or kept[1] != self.session.steps:
            return False
        kept[0]()
        return True

    def _put_note_back(self, paper_id: str, before: str, saved: str) -> None:
        """``before`` back over ``saved``, the note written since (a line written elsewhere
        since stays: put back whole, it was lost)."""
        now = self.session.state.notes.get(paper_id, "")
        self._write_note(paper_id, before, before=now, said="Note put back", base=saved)

    def note_not_saved(self, paper_id: str, text: str) -> None:
        """A note the writer could not save (a full disk, a read-only folder): the editor
        opens again with it, unless the app is ending or the paper has gone."""
        paper = self.view.paper(paper_id)
        if paper is None or is_ending(self.app):
            return
        if text == self.session.state.notes.get(paper_id, ""):
            return  # the disk holds it after all (another window saved the same)
        self.open_note_editor(paper, draft=text)

    def action_edit_tags(self) -> None:
        from storage.files.triage_model import typed_tags
        from tui.screens.dialogs import TextPrompt

        paper = self.paper_list.current
        if paper is None:
            return

        held = self.session.state.tags.get(paper.id, ())
        # a tag the paper holds, left as the field shows it, is that tag: one with a control
        # character in it (an import's) shows ``␛``, which typed would be another tag
        as_shown = {printable(tag): tag for tag in held}

        def save(text: str | None) -> None:
            if text is not None:
                try:  # "#c" is c, as the pane writes it; "#" alone is refused, so is "␛"
                    typed = (
                        (as_shown[word],) if word in as_shown else typed_tags([word])
                        for word in printable(text).split()  # ("a,b" is two, "," none)
                    )
                    tags = tuple(dict.fromkeys(tag for word in typed for tag in word))
                except ValueError as exc:  # refused as typed: nothing changed
                    self.notify(str(exc), severity="error", markup=False)
                    return
                # written over ``held``: merged with what changed elsewhere meanwhile
                self._write_tags(paper.id, tags, base=held)

        question = f"Tags for “{paper.display_title}” (spaces between tags; empty clears):"
        current = " ".join(held)
        self.app.push_screen(TextPrompt("Tags", question, current), save)

    def _write_tags(
        self,
        paper_id: str,
        tags: tuple[str, ...],
        said: str = "",
        base: tuple[str, ...] | None = None,
    ) -> None:
        """Set a paper's tags from the prompt (or put them back); tags that replaced or
        cleared others can be taken back by ``u`` while nothing else was done since
        (``restore_replaced``), as a note can: the message names those it replaced. ``base``:
        the tags the prompt opened with (merged with those changed elsewhere since)."""
        before = self.session.state.tags.get(paper_id, ())
        try:
            tags = self.session.queue_tags(paper_id, tags, base=base)
        except TooBigError as exc:  # refused as typed: nothing changed
            self.notify(str(exc), severity="error", markup=False)
            return
        if self.view.saved:  # a tag: tab's count changes with it
            self.update_tabs()
        self.show_current()
        shown, old = (" ".join(f"#{printable(t)}" for t in ts) for ts in (tags, before))
        if tags == before:
            said = f"Tags unchanged: {shown}." if tags else "No tags to clear."
            self.notify(said, timeout=3, markup=False)
            return
        said = f"{said or 'Tags'}: {shown}" if tags else "Tags cleared"
        if before:
            # over ``tags``: a tag given or taken out elsewhere since stays so
            put_back = partial(self._write_tags, paper_id, before, "Tags put back", tags)
            self._replaced = (put_back, self.session.steps)
            said += f"; {self.key_shown('undo')} brings back the tags it replaced ({old})"
        self.notify(f"{said}.", timeout=5 if before else 3, markup=False)

    def action_export(self) -> None:
        from tui.screens.export import Choice, ExportScreen

        papers = self.paper_list.row_papers()
        if not papers:
            self.notify("Nothing to export: this list is empty.", severity="warning", markup=False)
            return
        saved = self.view.saved_tab()
        label = self.view.label()
        # "Starred papers: …" as the CLI says; a saved search by its name
        heading = heading_for(papers, f"Search “{label}”" if saved else f"{label} papers")
        if self.view.query:
            heading += f" (search: {self.view.query})"
        choices = [Choice(f"This list: {count(len(papers), 'paper')}", heading, papers)]
        marked = [p for p in papers if p.id in self.view.marked]
        if marked:
            label = f"The marked papers: {count(len(marked), 'paper')}"
            choices.insert(0, Choice(label, heading_for(marked, "Marked papers"), marked))
        # a file name from the tab: a saved search's name may hold anything, even "/"
        stem = re.sub(r"[^\w.-]+", "-", label.casefold()).strip("-.") if saved else self.view.tab
        name = f"papers-{stem or 'search'}"
        screen = ExportScreen(
            choices, self.session.state, name, self.library.home, keymap=self.keymap
        )
        self.app.push_screen(screen)

    def action_import_list(self) -> None:
        from tui.screens.importer import ImportScreen

        def done(note: str | None) -> None:
            self.importing = False
            if is_ending(self.app):
                # the quit went through once the import was written, before its result came
                # (or the app ended otherwise): the import is on disk, and the app is taking
                # its widgets down
                return
            if note:
                self.detail.set_welcome("", "")  # it spoke of the sample: the user's list is in
                # the copies made of the imported papers' attachments (read off this thread)
                cast("QueuePart", self).scan_pdfs()
                self.reload_papers(note)
            # the keys typed while it imported act now, on the papers it brought
            screen_arrived(self.app)

        self.importing = True  # papers.json changes meanwhile, by our hand (see poll_disk)
        self.app.push_screen(ImportScreen(self.library, self.pdfs.folder.path), done)

    def action_remove(self) -> None:
        """Remove the marked papers of the list shown, else the paper under the cursor, once
        the user confirms (one undo step)."""
        from tui.screens.remove import ConfirmRemoval

        plist = self.paper_list
        ids = self.view.marked_in(self.view.listed) or ([plist.current.id] if plist.current else [])
        if not ids:
            self.app.bell()
            return

        def confirmed(yes: bool | None) -> None:
            if yes:
                self.remove_papers(ids)

        titles = [self.view.title(pid) for pid in ids]
        self.app.push_screen(ConfirmRemoval.for_papers(titles), confirmed)

    def action_remove_list(self) -> None:
        """Choose one of the imported lists, then remove it once the user confirms."""
        from tui.screens.remove import ConfirmRemoval, ListChooser

        try:
            lists = {info.name: info for info in self.library.lists()}
        except LibraryError as exc:
            self.notify(str(exc), title="Lists", severity="error", timeout=15, markup=False)
            return
        if not lists:
            self.notify("No list to remove: the library is empty.", markup=False)
            return

        def chosen(name: str | None) -> None:
            if name is None:
                return

            def confirmed(yes: bool | None) -> None:
                if yes:
                    self.remove_papers(list_name=name)

            self.app.push_screen(ConfirmRemoval.for_list(lists[name]), confirmed)

        self.app.push_screen(ListChooser(list(lists.values())), chosen)

    def remove_papers(self, ids: Collection[str] = (), list_name: str | None = None) -> None:
        """Take papers, or the list ``list_name``, out: they leave the screen now and the disk
        in order with the decisions made before; the papers are read again when the writer
        reports (``Report.reload``), the same as after an undo or redo of a removal."""
        self.session.queue_removal(ids, list_name)
        self.detail.set_welcome("", "")  # it spoke of the sample as imported: no longer so
        if list_name is not None:  # a paper in another list too stays
            ids = [p.id for p in self.view.papers if set(p.lists or (p.list,)) == {list_name}]
        gone = set(ids)
        self.view.marked.difference_update(gone)
        if not self.view.marked:
            self.view.only_marked = False
        cursor = self.paper_list.cursor
        self.replace_papers([p for p in self.view.papers if p.id not in gone])
        self.rebuild(cursor=cursor)

    def action_stats(self) -> None:
        from tui.screens.stats import StatsScreen

        try:
            stats = self.library.stats()
        except LibraryError as exc:
            self.notify(str(exc), title="Stats", severity="error", timeout=15, markup=False)
            return
        from tui.syncing import sync_detail

        self.app.push_screen(StatsScreen(stats, sync=sync_detail(self.app)))

    def action_sync(self) -> None:
        from tui.syncing import sync_now  # the work is tui/syncing.py's, off this thread

        sync_now(self.app)

    def action_help(self) -> None:
        from tui.screens.help import HelpScreen

        self.app.push_screen(HelpScreen(self.keymap, getattr(self.app, "config_problems", ())))
