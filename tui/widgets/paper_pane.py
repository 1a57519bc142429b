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

import re
from collections.abc import Callable, Hashable, Sequence

from rich.cells import cell_len
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
from storage.sources.authors import plain_name
from storage.sources.citation import editors_only
from storage.text.line_breaks import shown_whole
from storage.text.words import count
from tui.commands import bindings
from tui.paper_view import PaperView
from tui.text import NAME_CELLS, cut_cells, hanging_lines, highlighted, printable, rounded
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
        #: The width ``_text`` was made for (its state line fits it: ``paper_text``).
        self._text_for = -1
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

    def _text_of(self, view: PaperView | None, width: int) -> Text:
        text = paper_text(view, self._style, self._empty, width)
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
            text = self._text_of(view, width)
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
            self._width = self._text_for = width
            set_virtual_size(self, Size(width, len(self._lines)))
        else:
            self._text, self._text_for = self._text_of(self._shown, width), width
            self._lines = None
            self._wrap()
        self.refresh()

    def _wrap(self) -> list[Strip]:
        """The text's lines at the current width (wrapped once per text and width); the last
        column is the scroll thumb's."""
        width = self._text_width
        if self._lines is None or width != self._width:
            if width != self._text_for and self._drawn:  # its state line fits the width
                self._text, self._text_for = self._text_of(self._shown, width), width
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


def paper_text(
    view: PaperView | None, style: StyleOf, empty: tuple[str, str] = NO_PAPERS, width: int = 0
) -> Text:
    """A paper as one ``Text``: title, state, authors, tags, note, links, then the abstract;
    for no paper, ``empty`` (a title, then what leads on). Its state line fits ``width``
    columns (``state_line``).

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
    text.append_text(state_line(view, style, width))
    if paper.authors:
        text.append("\n")
        # (a family name's tie a plain space, as a copy of it should hold)
        people = ", ".join(map(plain_name, paper.authors))
        text.append_text(highlighted(people, words, match))
        if editors_only(paper):  # a volume that names only its editors, as its exports say
            edited = " (eds.)" if len(paper.authors) > 1 else " (ed.)"
            text.append(edited, style=style("muted"))
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
    # the link rows: wrapped here, their lines indented under the label column
    room = width - LABEL_CELLS if width >= LABEL_CELLS + 16 else 0

    def row(label: str, label_style: Style, value: Text, keep: str = "") -> None:
        text.append(f"\n{label:<{LABEL_CELLS}}", style=label_style)
        for i, line in enumerate(hanging_lines(value, room, keep)):
            text.append(f"\n{'':<{LABEL_CELLS}}" if i else "")
            text.append_text(line)

    if paper.url:
        row("Paper", style("label"), Text(printable(paper.url), style=style("link")))
    for url in paper.github:
        row("Code", style("code"), Text(printable(url), style=style("link")))
    if not paper.github:
        text.append("\nCode   none linked in the abstract", style=style("muted"))
    if view.pdf:
        shown = printable(view.pdf)
        hint = _OPENS_IT.search(shown)
        pdf = Text(shown, style=style("link"))
        row("PDF", style("label"), pdf, hint.group(0) if hint else "")
    if view.pdf_line:
        row("", style("label"), highlighted(view.pdf_line, words, match, base=style("note")))
    if isinstance(tldr := paper.fact("tldr"), str) and tldr.strip():
        text.append("\n\nTL;DR  ", style=style("label"))
        text.append(printable(" ".join(tldr.split())), style=style("note"))
    text.append("\n\n")
    # a word a line's end broke at its hyphen shown whole (on screen only: not in exports)
    text.append_text(highlighted(shown_whole(paper.abstract), words, match))
    return text


#: The width of the label column of the link rows (``Paper  ``, ``Code   ``, ``PDF    ``).
LABEL_CELLS = 7
#: The hint at the end of the PDF row ("(p opens it)", "(papers pdf --retry ID)"), kept on
#: one line.
_OPENS_IT = re.compile(r"\((?:\S+ opens it|papers pdf (?:--retry )?[0-9a-f]+)\)$")

#: Between the parts of the state line.
_DOT = "  ·  "
#: A list's name in the state line keeps at least this many cells, however narrow the pane.
LEAST_NAME_CELLS = 12


def state_line(view: PaperView, style: StyleOf, width: int = 0) -> Text:
    """The paper's state, venue, lists, id and place in the queue, on one line of ``width``
    columns: a list's name that does not fit is cut with an ellipsis (a list named by a
    script, 300 characters long, filled four lines above the authors), and lists that would
    leave the others fewer than ``LEAST_NAME_CELLS`` each are counted instead (``+2 lists``,
    or ``3 lists`` where not even one fits);
    every name is whole where the lists are listed (the Remove list picker, ``papers stats
    --json``). The venue, as a file gave it, is cut to ``NAME_CELLS``. Without a ``width``,
    each name is cut to ``NAME_CELLS``."""
    paper = view.paper
    line = Text()  # (a Text's own style would carry over to all that is appended)
    line.append(STATUS_LABELS[view.status], style=style(view.status.value))
    venue = cut_cells(printable(paper.venue_status), NAME_CELLS) if paper.venue_status else ""
    queue = printable(view.queue) if view.queue else ""
    names = [printable(name) for name in paper.lists or (paper.list,)]
    taken = line.cell_len + sum(
        len(_DOT) + cell_len(part) for part in (venue, paper.id, queue) if part
    )
    shown, more = len(names), ""
    room = width - taken - len(_DOT) * shown if width > 0 else NAME_CELLS * shown
    while len(names) > 1 and shown and room < LEAST_NAME_CELLS * shown:
        shown -= 1  # the first lists, then how many more; none, then how many there are
        more = f"+{count(len(names) - shown, 'list')}" if shown else count(len(names), "list")
        room = width - taken - len(_DOT) * (shown + 1) - len(more)
    cells = name_cells([cell_len(name) for name in names[:shown]], room)
    if venue:
        loud = paper.venue_status in LOUD_VENUES
        line.append(f"{_DOT}{venue}", style=style("venue" if loud else "muted"))
    for name, most in zip(names, cells, strict=False):
        line.append(f"{_DOT}{cut_cells(name, most)}", style=style("muted"))
    if more:
        line.append(f"{_DOT}{more}", style=style("muted"))
    line.append(f"{_DOT}{paper.id}", style=style("muted"))
    if queue:
        line.append(f"{_DOT}{queue}", style=style("starred"))
    return line


def name_cells(lengths: Sequence[int], room: int) -> list[int]:
    """The cells each of names this long gets in ``room`` cells: every one whole when they
    fit; else the room shared out evenly, a name shorter than its share whole and what it
    leaves to the others, each at least ``LEAST_NAME_CELLS`` (more than fits, then)."""
    if sum(lengths) <= room:
        return list(lengths)
    cells = [0] * len(lengths)
    left = room
    order = sorted(range(len(lengths)), key=lengths.__getitem__)
    for done, i in enumerate(order):
        share = left // (len(lengths) - done)
        cells[i] = min(lengths[i], max(LEAST_NAME_CELLS, share))
        left -= cells[i]
    return cells


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
    return rounded(value, ".2f").rstrip("0").rstrip(".")
