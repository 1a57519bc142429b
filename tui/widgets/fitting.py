"""Dialogs that fit the screen: the parts that scroll give up their rows, the rest keep theirs.

Textual sizes a dialog of ``height: auto`` to its content and cuts what goes past its
``max-height``: on a short terminal the last lines (a field, the result of Enter, the bottom
border's hint) were simply not drawn. ``fit_dialog`` gives each scrolling part of the dialog
(a description in a ``VerticalScroll``, an ``OptionList``) a ``max-height`` from the rows the
screen leaves it, the most needed part first: the fields, buttons and result lines keep their
rows, and what no longer fits scrolls instead of vanishing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from math import floor
from typing import Any

from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widget import Widget


class Shrinking(VerticalScroll, can_focus=False):
    """The words of a dialog that scroll when the screen is short (``fit_dialog``); never
    focused, so that Tab and the focus on opening go to the dialog's fields."""

    DEFAULT_CSS = """
    Shrinking {
        height: auto;
        scrollbar-size-vertical: 1;
    }
    """


def fit_after_refresh(screen: Screen[Any], fit: Callable[[], None]) -> None:
    """``fit`` (a dialog's call of ``fit_dialog``) once ``screen`` is laid out again, unless
    it was closed meanwhile: a dialog closed by the keys typed right after the one that
    opened it (``e j Enter``) had lost its children by then, and the app ended on NoMatches."""

    def fit_if_open() -> None:
        if screen in screen.app.screen_stack:
            fit()

    screen.call_after_refresh(fit_if_open)


def natural_height(part: Widget) -> int:
    """The rows ``part`` takes when nothing limits it: its content and its gutter."""
    return part.virtual_size.height + part.styles.gutter.height


def fit_dialog(dialog: Widget, parts: Sequence[tuple[Widget, int]]) -> None:
    """Limit the height of each of ``parts`` (a scrolling child of ``dialog``, the fewest
    rows it keeps) so that the dialog's other children show whole within its
    ``max-height``. The parts come first needed first: the first gets the rows it wants, as
    far as the room goes, then the next. Called after a layout (a resize, a new status)."""
    parent = dialog.parent
    if not dialog.is_mounted or not isinstance(parent, Widget) or not dialog.region.height:
        return
    limit = dialog.styles.max_height
    if limit is None:
        return
    room = floor(limit.resolve(parent.size, dialog.app.size)) - dialog.styles.gutter.height
    shown = [child for child in dialog.children if child.display]
    if not shown:
        return
    top = dialog.content_region.y
    bottom = max(child.region.bottom + child.styles.margin.bottom for child in shown)
    # the rows of the other children and of every margin, as laid out now
    room -= bottom - top - sum(part.region.height for part, _ in parts if part.display)
    for part, fewest in parts:
        if not part.display:
            continue
        wanted = natural_height(part)
        rows = max(fewest, min(wanted, room))
        limited = None if rows >= wanted else rows
        current = part.styles.max_height
        if (current.cells if current is not None else None) != limited:
            part.styles.max_height = limited
        room -= rows
