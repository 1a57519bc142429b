"""The paper list: one line per paper, rendered only where visible (Textual's Line API)."""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Iterable, Sequence
from operator import attrgetter

from rich.cells import cell_len, set_cell_size
from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.cache import LRUCache
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from storage.models import Paper, Status
from tui.text import printable, rounded
from tui.view import TriageView
from tui.widgets.bordered import BorderedLines
from tui.widgets.scrolling import set_virtual_size, thumb_rows, thumb_segment
from tui.widgets.styles import component_style, readable_style

STATUS_MARKS = {
    Status.INBOX: "·",
    Status.READ: "✓",
    Status.SKIPPED: "✗",
    Status.STARRED: "★",
}
#: Venue badges worth a column's colour; posters (most papers) show none, other statuses are
#: shown quietly by their first letters.
VENUE_SHORT = {"Oral": "Oral", "Spotlight": "Spot", "Poster": ""}
#: From this many columns, a row shows the venue badge and its three marks (note, PDF, code)
#: each in its own column (and the rating, in a library with ratings): the list beside the
#: paper at 100 columns (47) keeps them. Narrower (a 40-column phone, a split pane), the title
#: takes their room and one mark stays, the user's own first (✎, else ⎙); the venue, the code
#: link and the rating show in the paper's pane. At 40 columns the title had 27 of 39 cells,
#: now 33.
FULL_ROW_WIDTH = 46
#: From this many columns, a narrow row keeps its one mark.
MARK_WIDTH = 20


class PaperList(BorderedLines, ScrollView, can_focus=True, inherit_bindings=False):
    """The rows ``TriageView`` lists, with a cursor; renders only visible rows.

    The rows are the view's (``listed``: indices into its papers), read as they are drawn: the
    widget keeps the cursor and what it drew, no copy of the rows. Switching tabs or filtering
    100,000 papers costs the view one list of integers, and drawing costs only the rows on
    screen.
    """

    COMPONENT_CLASSES = {
        "paper-list--cursor",
        "paper-list--marked",
        "paper-list--inbox",
        "paper-list--read",
        "paper-list--skipped",
        "paper-list--starred",
        "paper-list--oral",
        "paper-list--spotlight",
        "paper-list--note",
        "paper-list--code",
        "paper-list--dim",
        "paper-list--thumb",
    }

    DEFAULT_CSS = """
    PaperList {
        background: $surface;
        scrollbar-size-vertical: 0;  /* the thumb is drawn with the lines (scrolling.py) */
        overflow-x: hidden;
        & > .paper-list--cursor {
            background: $block-cursor-blurred-background;
            color: $text;
        }
        &:focus > .paper-list--cursor {
            background: $block-cursor-background;
            color: $block-cursor-foreground;
            text-style: bold;
        }
        & > .paper-list--marked { background: $secondary 30%; }
        & > .paper-list--inbox { color: $text-muted; }
        & > .paper-list--read { color: $text-success; }
        & > .paper-list--skipped { color: $text-error; }
        & > .paper-list--starred { color: $text-warning; }
        & > .paper-list--oral { color: $text-accent; text-style: bold; }
        & > .paper-list--spotlight { color: $text-accent; }
        & > .paper-list--note { color: $text-secondary; }
        & > .paper-list--code { color: $text-success; }
        & > .paper-list--dim { color: $text-muted; }
        & > .paper-list--thumb { color: $scrollbar; }
    }
    """

    #: No repaint of its own: ``watch_cursor`` repaints the two rows that change (a whole-list
    #: repaint per ``j`` was half the keystroke's drawing).
    cursor: reactive[int] = reactive(0, always_update=True, init=False, repaint=False)

    class Highlighted(Message):
        """The cursor moved to another paper (or the list became empty: ``paper`` is None)."""

        def __init__(self, paper: Paper | None) -> None:
            self.paper = paper
            super().__init__()

    class Clicked(Message):
        """A row was double-clicked (opens the paper's link)."""

        def __init__(self, paper: Paper) -> None:
            self.paper = paper
            super().__init__()

    def __init__(
        self,
        view: TriageView,
        *,
        has_pdf: Callable[[str], bool] = lambda paper_id: False,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self._view = view
        #: The papers the caches below were made for (the view's, until it has others).
        self._papers: Sequence[Paper] = view.papers
        #: Whether a paper has a local PDF (a mark in its row).
        self._has_pdf = has_pdf
        self._line_cache: LRUCache[tuple[object, ...], Strip] = LRUCache(1024)
        #: Titles as drawn (LaTeX made readable, control characters shown), by paper id.
        self._titles: dict[str, str] = {}
        #: Set by ``render_lines`` for the lines it draws: the same for every line.
        self._base_style = Style()
        self._styles: dict[tuple[str, bool, bool], Style] = {}
        #: The base style and focus the memoised styles (``_styles``) were made for.
        self._style_state: tuple[Style, bool] | None = None
        self._width = 0
        #: Rows of the screen the scroll thumb covers, and its style (set per frame).
        self._thumb = range(0)
        self._thumb_style = Style()
        self._last_announced: str | None = "\0"
        #: Set for the time of a frame: the first row shown and the cursor.
        self._frame: tuple[int, int] | None = None
        #: Whether the rows have a rating column (the library has ratings: ``show_ratings``).
        self._rated = False

    @property
    def allow_vertical_scroll(self) -> bool:
        """Scrollable whenever there is more than fits (there is no scrollbar widget to ask:
        the thumb is drawn with the lines)."""
        return self.max_scroll_y > 0

    # -- content ----------------------------------------------------------------------------
    @property
    def rows(self) -> list[int]:
        """Indices (into the papers) of the rows shown, in order: the view's."""
        return self._view.listed

    @property
    def papers(self) -> Sequence[Paper]:
        return self._view.papers

    def row_papers(self) -> list[Paper]:
        """The papers shown, in order."""
        papers = self._view.papers
        return [papers[i] for i in self._view.listed]

    @property
    def current(self) -> Paper | None:
        """The paper under the cursor."""
        return self.paper_at(self.cursor)

    def paper_at(self, row: int) -> Paper | None:
        """The paper on ``row`` (None outside the list)."""
        rows = self._view.listed
        if 0 <= row < len(rows):
            return self._view.papers[rows[row]]
        return None

    def show(self, *, keep: str | None = None, cursor: int | None = None) -> None:
        """Show the view's rows anew (it listed them again); the cursor on paper ``keep`` (if
        shown) or on row ``cursor``."""
        if self._view.papers is not self._papers:
            self._papers = self._view.papers
            self._line_cache.clear()
            self._titles.clear()
        rows = self._view.listed
        set_virtual_size(self, Size(self.size.width, len(rows)))
        self._move(self._landing(rows, keep, cursor), center=keep is not None)
        self.refresh()

    def show_ratings(self, rated: bool) -> None:
        """Give the rows a rating column (``rated``: some paper of the library has a review
        rating, ``any_rating``), or take it away."""
        if rated != self._rated:
            self._rated = rated
            self._line_cache.clear()
            self.refresh()

    def _landing(self, rows: Sequence[int], keep: str | None, cursor: int | None) -> int:
        """The row ``show(rows, keep=keep, cursor=cursor)`` puts the cursor on."""
        target = cursor if cursor is not None else self.cursor
        if keep is not None:
            found = self._row_of(rows, keep)
            if found is not None:
                target = found
        return max(0, min(target, len(rows) - 1))

    def prepare(self, rows: Sequence[int], keep: str | None, cursor: int | None) -> Paper | None:
        """Draw ahead what ``show(rows, keep=keep, cursor=cursor)`` would show (its rows,
        bordered and turned into escape codes), so that showing it costs its frame little:
        the screen calls this for the other tabs while the user reads. Returns the paper
        that would be under the cursor."""
        height = self.scrollable_content_region.height
        if not rows or height <= 0 or self._width <= 0 or self._style_state is None:
            return None
        target = self._landing(rows, keep, cursor)
        top = _top_for(target, int(self.scroll_offset.y), height, len(rows), keep is not None)
        thumb = thumb_rows(top, height, len(rows))
        strips = [self._row_strip(rows, top + y, y, target, thumb) for y in range(height)]
        self.warm_lines(strips.__getitem__, height)
        return self._view.papers[rows[target]]

    def index_of(self, paper_id: str) -> int | None:
        """The row of a paper, or None when it is not shown."""
        return self._row_of(self._view.listed, paper_id)

    def _row_of(self, rows: Sequence[int], paper_id: str) -> int | None:
        try:  # rows are searched in C
            return rows.index(self._view.position[paper_id])
        except (KeyError, ValueError):
            return None

    def rows_left(self) -> None:
        """Rows left the view's list (a decided paper leaving the Inbox): the cursor stays on
        the same line, showing the paper that moved up to it."""
        rows = self._view.listed
        set_virtual_size(self, Size(self.size.width, len(rows)))
        self._move(min(self.cursor, len(rows) - 1) if rows else 0)
        self.refresh()

    def rows_swapped(self, row: int, other: int) -> None:
        """Two rows of the view's list swapped places (a paper moved one place in the reading
        queue: ``TriageView.swap_listed``); the cursor follows the paper that was on ``row``.
        Only the two rows are repainted."""
        top = int(self.scroll_offset.y)
        for y in (row, other):
            self.refresh(Region(0, y - top, self.size.width, 1))
        self._move(other)

    def refresh_paper(self, paper_ids: Collection[str] | None = None) -> None:
        """Repaint the rows of some papers (all rows when None)."""
        if paper_ids is None:
            self.refresh()
            return
        top = int(self.scroll_offset.y)
        rows, papers = self._view.listed, self._view.papers
        for y in range(self.size.height):
            row = top + y
            if row < len(rows) and papers[rows[row]].id in paper_ids:
                self.refresh(Region(0, y, self.size.width, 1))

    # -- cursor -----------------------------------------------------------------------------
    def _move(self, row: int, *, center: bool = False) -> None:
        self.cursor = row
        self._scroll_to_cursor(center=center)

    def move_to(self, row: int) -> None:
        """Put the cursor on a row (clamped)."""
        if rows := self._view.listed:
            self._move(max(0, min(row, len(rows) - 1)))

    def move_by(self, delta: int) -> None:
        self.move_to(self.cursor + delta)

    def half_page(self) -> int:
        return max(1, self.size.height // 2)

    def watch_cursor(self, old: int, new: int) -> None:
        top = int(self.scroll_offset.y)
        for row in {old, new}:
            self.refresh(Region(0, row - top, self.size.width, 1))
        paper = self.current
        pid = paper.id if paper else None
        if pid != self._last_announced:
            self._last_announced = pid
            self.post_message(self.Highlighted(paper))

    def _scroll_to_cursor(self, *, center: bool = False) -> None:
        height = self.scrollable_content_region.height or self.size.height
        if height <= 0:
            return
        top = int(self.scroll_offset.y)
        new_top = _top_for(self.cursor, top, height, len(self._view.listed), center)
        if new_top != top:
            self.scroll_to(y=new_top, animate=False, immediate=True, force=True)

    def on_resize(self, event: events.Resize) -> None:
        self.virtual_size = Size(event.size.width, len(self._view.listed))
        self._line_cache.clear()
        self._scroll_to_cursor()

    def on_click(self, event: events.Click) -> None:
        row = int(self.scroll_offset.y) + event.y
        if 0 <= row < len(self._view.listed):
            self.move_to(row)
            if event.chain >= 2 and self.current is not None:
                self.post_message(self.Clicked(self.current))

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._line_cache.clear()
        self._style_state = None

    # -- drawing ----------------------------------------------------------------------------
    def render_lines(self, crop: Region) -> list[Strip]:
        # What every line shares, worked out once per frame, not once per line (the style
        # walks the widget's ancestors: a third of the cost of drawing a fresh screenful);
        # the component styles only when the base style or the focus changed.
        base = readable_style(self.rich_style)
        if (base, self.has_focus) != self._style_state:
            self._style_state = (base, self.has_focus)
            self._base_style = base
            self._styles = {}
            self._line_cache.clear()
            self._thumb_style = base + component_style(self, "paper-list--thumb")
        # the last column is the scroll thumb's
        self._width = max(0, (self.scrollable_content_region.width or self.size.width) - 1)
        top, height = int(self.scroll_offset.y), self.scrollable_content_region.height
        self._thumb = thumb_rows(top, height, len(self._view.listed))
        self._frame = (top, self.cursor)
        try:
            return super().render_lines(crop)
        finally:
            self._frame = None

    def render_line(self, y: int) -> Strip:
        top, cursor = self._frame or (int(self.scroll_offset.y), self.cursor)
        return self._row_strip(self._view.listed, top + y, y, cursor, self._thumb)

    def _row_strip(self, rows: Sequence[int], row: int, y: int, cursor: int, thumb: range) -> Strip:
        """Row ``row`` of ``rows`` drawn on screen line ``y``, with the thumb's column: the
        same ``Strip`` object for as long as the row shows the same (what
        tui/widgets/bordered.py builds on)."""
        width = self._width
        in_thumb = y in thumb
        paper = None
        if row < len(rows) and width > 0:
            view = self._view
            paper = view.papers[rows[row]]
            triage = view.triage()
            status = triage.statuses.get(paper.id, Status.INBOX)
            is_cursor = row == cursor
            marked = paper.id in view.marked
            noted = paper.id in triage.notes
            pdf = self._has_pdf(paper.id)
            key: tuple[object, ...] = (
                paper.id, status, width, is_cursor, self.has_focus, marked, noted, paper.title,
                in_thumb, pdf,
            )  # fmt: skip
        else:
            key = (None, width, in_thumb)
        strip = self._line_cache.get(key)
        if strip is None:
            if paper is None:
                line = Strip.blank(width, self._base_style)
            else:
                line = self._render_paper(paper, status, width, is_cursor, marked, noted, pdf)
            tail = thumb_segment(y, thumb, self._thumb_style)
            strip = self._line_cache[key] = Strip([*line, tail], width + 1)
        return strip

    def _style(self, component: str, marked: bool, is_cursor: bool) -> Style:
        """The base style of a row plus a component's, memoised until the base or the focus
        changes."""
        key = (component, marked, is_cursor)
        style = self._styles.get(key)
        if style is None:
            style = self._base_style
            if marked:
                style += component_style(self, "paper-list--marked")
            if is_cursor:  # the cursor's colours win: a muted colour on it is unreadable
                style += component_style(self, "paper-list--cursor")
            elif component:
                style += component_style(self, component)
            self._styles[key] = style
        return style

    def _render_paper(
        self,
        paper: Paper,
        status: Status,
        width: int,
        is_cursor: bool,
        marked: bool,
        noted: bool,
        pdf: bool = False,
    ) -> Strip:
        status_style = self._style(f"paper-list--{status.value}", marked, is_cursor)
        left = [
            Segment("▌" if marked else " ", status_style),
            Segment(STATUS_MARKS[status] + " ", status_style),
        ]
        right: list[Segment] = []
        if self._rated and width >= FULL_ROW_WIDTH:
            rating_style = self._style("paper-list--dim", marked, is_cursor)
            right.append(Segment(rating_cell(paper.fact("rating")), rating_style))
        note_style = self._style("paper-list--note", marked, is_cursor)
        if width >= FULL_ROW_WIDTH:
            venue = VENUE_SHORT.get(paper.venue_status)
            component = f"paper-list--{paper.venue_status.lower()}" if venue else ""
            if venue is None:  # a status of the list's own: its first letters, quietly
                venue, component = printable(paper.venue_status)[:4], "paper-list--dim"
            right.append(Segment(f" {venue:<4}", self._style(component, marked, is_cursor)))
            right.append(Segment(" ✎" if noted else "  ", note_style))
            right.append(Segment(" ⎙" if pdf else "  ", note_style))
            code_style = self._style("paper-list--code", marked, is_cursor)
            right.append(Segment(" </>" if paper.github else "    ", code_style))
        elif width >= MARK_WIDTH:
            right.append(Segment(" ✎" if noted else " ⎙" if pdf else "  ", note_style))
        right.append(Segment(" ", self._style("", marked, is_cursor)))
        used = sum(cell_len(s.text) for s in left + right)
        room = max(0, width - used)
        dim = status is Status.SKIPPED and not is_cursor
        title_style = self._style("paper-list--dim" if dim else "", marked, is_cursor)
        title = self._titles.get(paper.id)
        if title is None:
            title = self._titles[paper.id] = printable(paper.display_title)
        if cell_len(title) > room:
            title = set_cell_size(title, max(0, room - 1)) + "…" if room > 0 else ""
        title_segment = Segment(set_cell_size(title, room), title_style)
        return Strip([*left, title_segment, *right], width).crop(0, width)


def _top_for(cursor: int, top: int, height: int, total: int, center: bool) -> int:
    """The first line shown once the cursor is on row ``cursor``, from ``top`` on a view of
    ``height`` lines over ``total`` rows (``center``: a cursor out of view is centred)."""
    if center and not (top <= cursor < top + height):
        top = max(0, cursor - height // 2)
    elif cursor < top:
        top = cursor
    elif cursor >= top + height:
        top = cursor - height + 1
    return max(0, min(top, total - height))


def any_rating(papers: Iterable[Paper]) -> bool:
    """Whether some paper has a review rating (a finite number), asked of the papers, loaded
    before the index: the list has its rating column from the first frame. 0.3 ms at 12,000
    papers without extra fields, 10 ms at 100,000 with extra fields and no rating; the first
    rating ends it."""
    for extra in filter(None, map(attrgetter("extra"), papers)):
        for name, value in extra:
            if name == "rating" and _finite_number(value):
                return True
    return False


def _finite_number(value: object) -> bool:
    if isinstance(value, bool):
        return False
    return isinstance(value, int) or isinstance(value, float) and math.isfinite(value)


def rating_cell(rating: object) -> str:
    """A paper's review rating in the list's rating column, five cells: `` 6.5``, `` 10.0``,
    blank for none; one no venue gives, as near as four characters hold it (``123``, ``-10``,
    ``1e5`` for 123,456: the readers keep ratings up to a million either side)."""
    if not isinstance(rating, int | float) or isinstance(rating, bool) or rating != rating:
        return " " * 5
    shown = rounded(rating, ".1f")  # (half up: 7.25 is 7.3, as the pane's 7.25 reads)
    if len(shown) > 4:
        shown = rounded(rating, ".0f")
    if len(shown) > 4:  # one digit and its power of ten (999,999 rounds to 1e6)
        mantissa, exponent = rounded(rating, ".0e").split("e")
        shown = f"{mantissa}e{int(exponent)}"
    if len(shown) > 4:  # past ten billion (a papers.json edited by hand): as its infinity
        shown = "inf" if rating > 0 else "-inf"
    return f" {shown:>4}"
