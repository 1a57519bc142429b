"""Scrolling that costs no extra frame: a thumb drawn with the lines, a virtual size set
without a layout.

Textual's scrollbars are widgets of their own, refreshed after the frame that moved the
content, and a new ``virtual_size`` asks for a layout pass, painted in a frame of its own:
every keystroke that scrolled the list or changed the paper showed as two frames or more.
The list and the paper pane draw this thumb in their last column instead (the mouse wheel
scrolls them as before) and change their virtual size with ``set_virtual_size``.
"""

from __future__ import annotations

from rich.segment import Segment
from rich.style import Style
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.widget import Widget

THUMB = "▐"
TRACK = " "


def thumb_rows(top: int, height: int, total: int) -> range:
    """The rows (0 = the first visible line) the thumb covers; empty when all lines show."""
    if height <= 0 or total <= height:
        return range(0)
    size = max(1, round(height * height / total))
    start = round((height - size) * top / max(1, total - height))
    return range(start, start + size)


def thumb_segment(y: int, rows: range, style: Style) -> Segment:
    """The last column of visible line ``y``: part of the thumb, or the track."""
    return Segment(THUMB if y in rows else TRACK, style)


def set_virtual_size(view: ScrollView, size: Size) -> None:
    """Give ``view`` a new virtual size without a layout pass (its own size is unchanged, so
    nothing around it moves); the scroll position is kept within the new bounds."""
    if view.virtual_size == size:
        return
    view.set_reactive(Widget.virtual_size, size)
    if view.scroll_y > view.max_scroll_y:
        view.scroll_to(y=view.max_scroll_y, animate=False, immediate=True, force=True)
    view.refresh()
