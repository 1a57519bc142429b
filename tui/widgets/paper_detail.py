"""The selected paper: title, authors, list, links, the cleaned abstract and the note."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from storage.models import Paper, Status
from tui.text import highlighted, printable

STATUS_LABELS = {
    Status.INBOX: ("Inbox", "dim"),
    Status.READ: ("✓ Read", "green"),
    Status.SKIPPED: ("✗ Skipped", "red"),
    Status.STARRED: ("★ Starred", "yellow"),
}


class PaperDetail(VerticalScroll, can_focus=False):
    """A scrollable view of one paper; every text is data, never markup."""

    DEFAULT_CSS = """
    PaperDetail {
        padding: 0 1;
        & > #detail-title { text-style: bold; color: $text; margin-bottom: 1; }
        & > #detail-meta { color: $text-muted; }
        & > #detail-links { margin-bottom: 1; }
        & > #detail-abstract { margin-bottom: 1; }
        & > #detail-note { border-left: thick $accent; padding-left: 1; color: $text; }
    }
    """

    def compose(self) -> ComposeResult:
        yield Static(id="detail-title", markup=False)
        yield Static(id="detail-meta", markup=False)
        yield Static(id="detail-links", markup=False)
        yield Static(id="detail-abstract", markup=False)
        yield Static(id="detail-note", markup=False)

    def show(
        self,
        paper: Paper | None,
        status: Status = Status.INBOX,
        *,
        note: str = "",
        tags: Sequence[str] = (),
        words: Collection[str] = (),
        position: str = "",
        why: str = "",
    ) -> None:
        """Show ``paper`` with the search ``words`` highlighted (None: an empty list)."""
        title = self.query_one("#detail-title", Static)
        meta = self.query_one("#detail-meta", Static)
        links = self.query_one("#detail-links", Static)
        abstract = self.query_one("#detail-abstract", Static)
        note_view = self.query_one("#detail-note", Static)
        if paper is None:
            title.update(Text("No papers here", style="bold"))
            meta.update(
                Text("Switch tabs with 1–5, clear the search with ctrl+l, or import a list (a).")
            )
            for widget in (links, abstract, note_view):
                widget.update("")
            note_view.display = False
            return
        mark = "bold reverse"
        head = highlighted(paper.display_title, words, mark)
        if paper.title_derived:
            head.append("  (title derived from the abstract)", style="dim italic")
        title.update(head)

        info = Text()
        label, colour = STATUS_LABELS[status]
        info.append(label, style=f"bold {colour}")
        if paper.venue_status:
            info.append(f"  ·  {printable(paper.venue_status)}", style="bold")
        info.append(f"  ·  {printable(paper.list)}")
        if len(paper.lists) > 1:
            info.append(
                f" (+{len(paper.lists) - 1} more list{'s' if len(paper.lists) > 2 else ''})"
            )
        info.append(f"  ·  {paper.id}")
        if position:
            info.append(f"  ·  {position}")
        if paper.authors:
            info.append("\n")
            info.append_text(highlighted(", ".join(paper.authors), words, mark))
        if tags:
            info.append("\n")
            info.append(" ".join(f"#{printable(t)}" for t in tags), style="bold magenta")
        if why:
            info.append("\n")
            info.append(printable(why), style="italic")
        meta.update(info)

        link_text = Text()
        if paper.url:
            link_text.append("Paper  ", style="bold")
            link_text.append(printable(paper.url), style="underline")
        for url in paper.github:
            if link_text:
                link_text.append("\n")
            link_text.append("Code   ", style="bold green")
            link_text.append(printable(url), style="underline")
        if not paper.github:
            if link_text:
                link_text.append("\n")
            link_text.append("Code   none linked in the abstract", style="dim")
        links.update(link_text)
        links.display = True

        abstract.update(highlighted(paper.display_abstract, words, mark))
        note_view.display = bool(note)
        note_view.update(Text(printable(note)) if note else "")
        self.scroll_home(animate=False)
