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
MARK = "bold reverse"


class PaperDetail(VerticalScroll, can_focus=False):
    """A scrollable view of one paper; every text is data, never markup.

    The paper is one ``Text`` in one ``Static``: moving the cursor re-lays out one widget,
    not one per section.
    """

    DEFAULT_CSS = """
    PaperDetail {
        padding: 0 1;
        & > #detail-text { width: 1fr; }
    }
    """

    def compose(self) -> ComposeResult:
        yield Static(id="detail-text", markup=False)

    @property
    def text(self) -> Text:
        """What the pane shows now."""
        content = self.query_one("#detail-text", Static).content
        return content if isinstance(content, Text) else Text(str(content))

    def show(self, text: Text) -> None:
        """Show a paper's text (``paper_text``), from its top.

        The same text again (the same paper at the top of a search typed on, a status shown
        again) is not laid out and drawn again: that is most of a keystroke's frame.
        """
        static = self.query_one("#detail-text", Static)
        if text != static.content:
            static.update(text)
        self.scroll_home(animate=False)


def paper_text(
    paper: Paper | None,
    status: Status = Status.INBOX,
    *,
    note: str = "",
    tags: Sequence[str] = (),
    words: Collection[str] = (),
    why: str = "",
) -> Text:
    """The detail of a paper as one Rich ``Text`` (no markup is ever parsed)."""
    if paper is None:
        text = Text("No papers here\n\n", style="bold")
        text.append(
            "Switch tabs with 1–5, clear the search with ctrl+l, or import a list (a).",
            style="dim",
        )
        return text
    text = Text()
    text.append_text(highlighted(paper.display_title, words, MARK, base="bold"))
    if paper.title_derived:
        text.append("\n(title derived from the abstract)", style="dim italic")
    text.append("\n\n")
    label, colour = STATUS_LABELS[status]
    text.append(label, style=f"bold {colour}")
    if paper.venue_status:
        text.append(f"  ·  {printable(paper.venue_status)}", style="bold")
    text.append(f"  ·  {printable(paper.list)}", style="dim")
    if len(paper.lists) > 1:
        more = len(paper.lists) - 1
        text.append(f" (+{more} more list{'s' if more > 1 else ''})", style="dim")
    text.append(f"  ·  {paper.id}", style="dim")
    if paper.authors:
        text.append("\n")
        text.append_text(highlighted(", ".join(paper.authors), words, MARK))
    if tags:
        text.append("\n")
        text.append(" ".join(f"#{printable(t)}" for t in tags), style="bold magenta")
    if why:
        text.append("\n")
        text.append(printable(why), style="italic")
    text.append("\n")
    if paper.url:
        text.append("\nPaper  ", style="bold")
        text.append(printable(paper.url), style="underline")
    for url in paper.github:
        text.append("\nCode   ", style="bold green")
        text.append(printable(url), style="underline")
    if not paper.github:
        text.append("\nCode   none linked in the abstract", style="dim")
    text.append("\n\n")
    text.append_text(highlighted(paper.display_abstract, words, MARK))
    if note:
        text.append("\n\nNote  ", style="bold reverse")
        text.append(" ")
        text.append(printable(note))
    return text
