"""The paper pane: the selected paper, wrapped once and drawn a line at a time.

A ``Static`` in a scrolling container lays out and wraps the paper twice (to learn its
height, then to draw it), and the container then re-lays out and redraws its scrollbar in
the frames after: a keystroke showed as four frames. Here the paper is wrapped once per
(paper, width, theme) into strips, ``virtual_size`` says how many lines there are, and only
the lines on screen are drawn (Textual's Line API): the list and the pane change in one frame.
The scrollbar is always there, so no layout follows a change of paper.

Every text is data, never markup; colours come from the theme (component classes), so
every built-in theme, light or dark, is readable.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

from rich.style import Style
from rich.text import Text
from textual import events
from textual.cache import LRUCache
from textual.content import Content
from textual.geometry import Region, Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.visual import Visual

from storage.models import Paper, Status
from tui.commands import bindings
from tui.text import highlighted, printable
from tui.view import PaperView
from tui.widgets.bordered import BorderedLines
from tui.widgets.scrolling import set_virtual_size, thumb_rows, thumb_segment
from tui.widgets.styles import component_style, readable_style

STATUS_LABELS = {
    Status.INBOX: "Inbox",
    Status.READ: "✓ Read",
    Status.SKIPPED: "✗ Skipped",
    Status.STARRED: "★ Starred",
}
#: The style of a part of the pane's text, by name (``title``, ``muted``, ``read``…).
StyleOf = Callable[[str], Style]
#: Venue statuses worth a colour; every other one is quiet.
LOUD_VENUES = frozenset({"Oral", "Spotlight"})


class PaperPane(BorderedLines, ScrollView, can_focus=True):
    """One paper, scrollable by keys and the mouse; ``show`` a ``PaperView`` (None: nothing)."""

    COMPONENT_CLASSES = {
        "paper-pane--title",
        "paper-pane--muted",
        "paper-pane--match",
        "paper-pane--inbox",
        "paper-pane--read",
        "paper-pane--skipped",
        "paper-pane--starred",
        "paper-pane--venue",
        "paper-pane--label",
        "paper-pane--code",
        "paper-pane--link",
        "paper-pane--tags",
        "paper-pane--note",
        "paper-pane--thumb",
    }

    DEFAULT_CSS = """
    PaperPane {
        padding: 0 1;
        overflow-x: hidden;
        overflow-y: auto;
        scrollbar-size-vertical: 0;  /* the thumb is drawn with the lines (scrolling.py) */
        & > .paper-pane--title { text-style: bold; }
        & > .paper-pane--muted { color: $text-muted; }
        & > .paper-pane--match { color: $text-accent; text-style: bold; }
        & > .paper-pane--inbox { color: $text-muted; text-style: bold; }
        & > .paper-pane--read { color: $text-success; text-style: bold; }
        & > .paper-pane--skipped { color: $text-error; text-style: bold; }
        & > .paper-pane--starred { color: $text-warning; text-style: bold; }
        & > .paper-pane--venue { color: $text-accent; text-style: bold; }
        & > .paper-pane--label { text-style: bold; }
        & > .paper-pane--code { color: $text-success; text-style: bold; }
        & > .paper-pane--link { color: $text-primary; }
        & > .paper-pane--tags { color: $text-secondary; text-style: bold; }
        & > .paper-pane--note { color: $text; text-style: italic; }
        & > .paper-pane--thumb { color: $scrollbar; }
    }
    """

    BINDINGS = bindings("pane")

    class Leave(Message):
        """The reader asked to go back to the list (``h``)."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._shown: PaperView | None = None
        self._drawn = False
        self._text = Text()
        #: The text wrapped at ``_width`` (made on the first draw after a change).
        self._lines: list[Strip] | None = None
        self._width = 0
        self._styles: dict[str, Style] = {}
        #: Papers wrapped before (``prepare``d while the app was idle, or shown): their text
        #: and lines by what they show and the width, the newest last.
        self._wrapped: dict[Hashable, tuple[Paper | None, Text, list[Strip]]] = {}
        #: Set for the time of a frame: the wrapped lines and the first line shown.
        self._frame: tuple[list[Strip], int] | None = None
        #: Set per frame: the rows the scroll thumb covers, the base and the thumb's style.
        self._thumb = range(0)
        self._base = Style()
        self._thumb_style = Style()
        #: Rows as drawn (a wrapped line, its padding and the thumb's column), by the wrapped
        #: lines' identity, the row and whether the thumb covers it: the same paper gives the
        #: same ``Strip`` objects, which tui/widgets/bordered.py builds on.
        self._rows: LRUCache[Hashable, tuple[list[Strip], Strip]] = LRUCache(512)
        #: A note above every paper (the first run's welcome), or None.
        self._welcome: tuple[str, str] | None = None
        #: What the pane says when there is no paper to show: why, and what leads on.
        self._empty: tuple[str, str] = NO_PAPERS

    def set_welcome(self, title: str, words: str) -> None:
        """Show a note above the paper, inside the pane (the first run's welcome); empty
        ``title`` and ``words``: no note."""
        welcome = (title, words) if title or words else None
        if welcome != self._welcome:
            self._welcome = welcome
            self._wrapped = {}
            self._rows.clear()
            if self._drawn:
                self._render_text()

    def _text_of(self, view: PaperView | None) -> Text:
        text = paper_text(view, self._style, self._empty)
        if self._welcome is None:
            return text
        title, words = self._welcome
        note = Text()
        note.append(f"{title}\n", style=self._style("label"))
        note.append(f"{words}\n", style=self._style("note"))
        note.append("─" * 3 + "\n\n", style=self._style("muted"))
        note.append_text(text)
        return note

    @property
    def allow_vertical_scroll(self) -> bool:
        """Scrollable whenever there is more than fits (there is no scrollbar widget to ask:
        the thumb is drawn with the lines)."""
        return self.max_scroll_y > 0

    @property
    def shown(self) -> PaperView | None:
        """The paper shown (None: the "no papers here" text)."""
        return self._shown

    @property
    def text(self) -> Text:
        """What the pane shows now, as text with its styles."""
        return self._text

    def show(
        self, view: PaperView | None, *, top: bool = True, empty: tuple[str, str] | None = None
    ) -> None:
        """Show a paper (from its first line when ``top``); for no paper (``view`` None),
        ``empty``: what the pane says instead (a title, then what leads on).

        The same paper shown the same way again (the same paper at the top of a search typed
        on, a status shown again) is not wrapped and drawn again.
        """
        changed = view is None and empty is not None and empty != self._empty
        if changed:
            self._empty = empty or NO_PAPERS
        if view != self._shown or not self._drawn or changed:
            self._shown = view
            self._render_text()
        if top and self.scroll_y:
            self.scroll_to(y=0, animate=False, immediate=True, force=True)

    # -- scrolling ------------------------------------------------------------------------
    @property
    def page(self) -> int:
        """Lines in a page: the pane's height less one line kept for context."""
        return max(1, self.scrollable_content_region.height - 1)

    def action_scroll_lines(self, lines: int) -> None:
        """Scroll by ``lines`` (down when positive)."""
        self.scroll_to(y=self.scroll_y + lines, animate=False, immediate=True)

    def action_scroll_page(self, pages: int) -> None:
        """Scroll by whole pages (down when positive)."""
        self.action_scroll_lines(pages * self.page)

    def action_scroll_top(self) -> None:
        self.scroll_to(y=0, animate=False, immediate=True, force=True)

    def action_scroll_bottom(self) -> None:
        self.scroll_to(y=self.max_scroll_y, animate=False, immediate=True)

    def action_leave(self) -> None:
        self.post_message(self.Leave())

    # -- drawing --------------------------------------------------------------------------
    def _style(self, name: str) -> Style:
        style = self._styles.get(name)
        if style is None:
            style = self._styles[name] = component_style(self, f"paper-pane--{name}")
        return style

    def prepare(self, view: PaperView) -> None:
        """Wrap ``view`` now, so that showing it next costs no wrapping: the screen calls this
        for the papers around the cursor once a frame is on the glass (about 2 ms a paper at
        12,000 papers, which would otherwise be spent inside the keystroke)."""
        width = self._text_width
        key = _wrap_key(view, width, self._empty)
        if width <= 0:
            return
        if key not in self._wrapped:
            text = self._text_of(view)
            self._remember(key, view.paper, text, self._strips(text, width))
        lines = self._wrapped[key][2]
        if width != self._width:
            return  # rows are drawn at the width of the lines shown: a resize is on its way
        # and its first screenful drawn, bordered and turned into escape codes
        height = self.scrollable_content_region.height
        thumb = thumb_rows(0, height, len(lines))
        self.warm_lines(lambda y: self._row(lines, y, y, thumb), height)

    @property
    def _text_width(self) -> int:
        return max(0, self.scrollable_content_region.width - 1)  # the last column: the thumb

    def _strips(self, text: Text, width: int) -> list[Strip]:
        return Visual.to_strips(self, Content.from_rich_text(text), width, None, self.visual_style)

    def _remember(self, key: Hashable, paper: Paper | None, text: Text, lines: list[Strip]) -> None:
        self._wrapped.pop(key, None)
        self._wrapped[key] = (paper, text, lines)
        while len(self._wrapped) > WRAPPED_KEPT:
            del self._wrapped[next(iter(self._wrapped))]

    def _render_text(self) -> None:
        self._drawn = True
        width = self._text_width
        shown = self._shown
        wrapped = self._wrapped.get(_wrap_key(shown, width, self._empty)) if width > 0 else None
        if wrapped is not None and wrapped[0] is (shown.paper if shown else None):
            _paper, self._text, self._lines = wrapped
            self._width = width
            set_virtual_size(self, Size(width, len(self._lines)))
        else:
            self._text = self._text_of(self._shown)
            self._lines = None
            self._wrap()
        self.refresh()

    def _wrap(self) -> list[Strip]:
        """The text's lines at the current width (wrapped once per text and width); the last
        column is the scroll thumb's."""
        width = self._text_width
        if self._lines is None or width != self._width:
            self._width = width
            self._lines = self._strips(self._text, width) if width > 0 else []
            if width > 0:
                paper = self._shown.paper if self._shown else None
                self._remember(
                    _wrap_key(self._shown, width, self._empty), paper, self._text, self._lines
                )
            set_virtual_size(self, Size(width, len(self._lines)))
        return self._lines

    def on_resize(self, event: events.Resize) -> None:
        self._wrap()

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._styles = {}  # a new theme: colours again, the text again
        self._wrapped = {}
        self._rows.clear()
        if self.is_mounted:
            self._render_text()

    def render_lines(self, crop: Region) -> list[Strip]:
        # What every line of the frame shares, worked out once (the regions and the scroll
        # offset are computed properties: asked for each line, they cost half the frame).
        lines = self._wrap()
        top, height = int(self.scroll_offset.y), self.scrollable_content_region.height
        self._frame = (lines, top)
        self._thumb = thumb_rows(top, height, len(lines))
        self._base = readable_style(self.visual_style.rich_style)
        self._thumb_style = self._base + self._style("thumb")
        try:
            return super().render_lines(crop)
        finally:
            self._frame = None

    def render_line(self, y: int) -> Strip:
        if self._frame is None:
            lines, top = self._wrap(), int(self.scroll_offset.y)
        else:
            lines, top = self._frame
        return self._row(lines, top + y, y, self._thumb)

    def _row(self, lines: list[Strip], row: int, y: int, thumb: range) -> Strip:
        """Line ``row`` of ``lines`` drawn on screen row ``y``, with the thumb's column."""
        key = (id(lines), row, y in thumb, self._base)
        kept = self._rows.get(key)
        if kept is not None and kept[0] is lines:
            return kept[1]
        if 0 <= row < len(lines):
            line = lines[row].crop_extend(0, self._width, self._base)
        else:
            line = Strip.blank(self._width, self._base)
        strip = Strip([*line, thumb_segment(y, thumb, self._thumb_style)], self._width + 1)
        self._rows[key] = (lines, strip)
        return strip


#: How many wrapped papers the pane keeps (the one shown, its neighbours, a few visited).
WRAPPED_KEPT = 8


def _wrap_key(view: PaperView | None, width: int, empty: tuple[str, str]) -> Hashable:
    """What a paper's wrapped lines depend on (the paper object itself: a re-import makes a
    new one); for no paper, what the pane says instead."""
    if view is None:
        return (None, empty, width)
    return (
        id(view.paper),
        view.paper.id,
        view.status,
        view.note,
        tuple(view.tags),
        frozenset(view.words),
        view.why,
        view.queue,
        view.pdf,
        view.pdf_line,
        width,
    )


#: What the pane says with no paper to show, unless told why (``PaperPane.show``'s ``empty``,
#: which names the keys that lead on as the user has them: these words name none).
NO_PAPERS = ("No papers here", "Switch tabs, clear the search, or import a list.")


def paper_text(view: PaperView | None, style: StyleOf, empty: tuple[str, str] = NO_PAPERS) -> Text:
    """A paper as one ``Text``: title, state, authors, tags, note, links, then the abstract;
    for no paper, ``empty`` (a title, then what leads on).

    ``style(name)`` gives the style of a part (``title``, ``muted``, ``read``…). What the
    user wrote about the paper (note, tags) comes before the abstract: it is what they read
    the paper for.
    """
    if view is None:
        text = Text()
        text.append(f"{printable(empty[0])}\n\n", style=style("title"))
        text.append(printable(empty[1]), style=style("muted"))
        return text
    paper, words, match = view.paper, view.words, style("match")
    text = Text()  # (a Text's own style would carry over to all that is appended)
    text.append_text(highlighted(paper.display_title, words, match, base=style("title")))
    if paper.title_derived:
        aside = style("muted") + Style(italic=True)
        text.append("\n(title derived from the abstract)", style=aside)
    text.append("\n\n")
    text.append(STATUS_LABELS[view.status], style=style(view.status.value))
    if paper.venue_status:
        venue = style("venue" if paper.venue_status in LOUD_VENUES else "muted")
        text.append(f"  ·  {printable(paper.venue_status)}", style=venue)
    for name in paper.lists or (paper.list,):
        text.append(f"  ·  {printable(name)}", style=style("muted"))
    text.append(f"  ·  {paper.id}", style=style("muted"))
    if view.queue:
        text.append(f"  ·  {printable(view.queue)}", style=style("starred"))
    if paper.authors:
        text.append("\n")
        text.append_text(highlighted(", ".join(paper.authors), words, match))
    if facts := paper_facts(paper):
        text.append("\n")
        text.append(printable(facts), style=style("muted"))
    if view.tags:
        text.append("\n")
        text.append(" ".join(f"#{printable(t)}" for t in view.tags), style=style("tags"))
    if view.note:
        text.append("\n\n")
        text.append("Note  ", style=style("label"))
        text.append_text(highlighted(view.note, (), match, base=style("note")))
    if view.why:
        text.append("\n")
        text.append(printable(view.why), style=style("muted") + Style(italic=True))
    text.append("\n")
    if paper.url:
        text.append("\nPaper  ", style=style("label"))
        text.append(printable(paper.url), style=style("link"))
    for url in paper.github:
        text.append("\nCode   ", style=style("code"))
        text.append(printable(url), style=style("link"))
    if not paper.github:
        text.append("\nCode   none linked in the abstract", style=style("muted"))
    if view.pdf:
        text.append("\nPDF    ", style=style("label"))
        text.append(printable(view.pdf), style=style("link"))
    if view.pdf_line:
        text.append("\n       ", style=style("label"))
        text.append_text(highlighted(view.pdf_line, words, match, base=style("note")))
    if isinstance(tldr := paper.fact("tldr"), str) and tldr.strip():
        text.append("\n\nTL;DR  ", style=style("label"))
        text.append(printable(" ".join(tldr.split())), style=style("note"))
    text.append("\n\n")
    text.append_text(highlighted(paper.display_abstract, words, match))
    return text


def paper_facts(paper: Paper) -> str:
    """What a list told of a paper beyond its text, in one line: its reviews' rating (each
    review's in brackets) and confidence, its year, where it was published, its citations and
    its area: ``Rating 6.5 (6, 6, 8, 6) · confidence 3.5 · 2025 · 12 citations · Area: RL``.
    "" when the list told none of these."""
    facts: list[str] = []
    rating, each = paper.fact("rating"), paper.fact("ratings")
    if isinstance(rating, (int, float)):
        facts.append(f"Rating {_number(rating)}" + (f" ({each})" if each else ""))
    elif each:
        facts.append(f"Ratings {each}")
    if isinstance(confidence := paper.fact("confidence"), (int, float)):
        facts.append(f"confidence {_number(confidence)}")
    if (year := paper.fact("year")) is not None:
        facts.append(str(year))
    if where := paper.fact("journal") or paper.fact("booktitle"):
        facts.append(str(where))
    if isinstance(cited := paper.fact("citations"), (int, float)):
        facts.append(f"{int(cited):,} citation{'' if cited == 1 else 's'}")
    if area := paper.fact("area"):
        facts.append(f"Area: {area}")
    return " · ".join(" ".join(str(fact).split()) for fact in facts)


def _number(value: float) -> str:
    """A rating or confidence as people write it: ``6.5``, ``6``, ``5.67``."""
    return f"{float(value):.2f}".rstrip("0").rstrip(".")
