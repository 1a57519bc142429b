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

from rich.text import Text
from textual.containers import Vertical, VerticalScroll
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Label

from tui.text import fullest, printable


class Shrinking(VerticalScroll, can_focus=False):
    """The words of a dialog that scroll when the screen is short (``fit_dialog``); never
    focused, so that Tab and the focus on opening go to the dialog's fields."""

    DEFAULT_CSS = """
    Shrinking {
        height: auto;
        scrollbar-size-vertical: 1;
    }
    """


class Hint(Label):
    """A dialog's line about its keys, in the fullest of its wordings that fits on one line
    of its width (at 60 columns "Enter imports · Tab completes a path · Esc cancels" wrapped
    "cancels" onto a line of its own); the last wording wraps when even it is too wide."""

    DEFAULT_CSS = """
    Hint {
        width: 100%;
        height: auto;
    }
    """

    def __init__(
        self, *wordings: str, style: str = "dim", id: str | None = None, classes: str | None = None
    ) -> None:
        super().__init__(id=id, classes=classes)
        self._wordings = _shown(wordings)
        self._style = style
        self._shown: tuple[str, str] | None = None

    def say(self, *wordings: str, style: str = "dim") -> None:
        """Show other words (the fullest that fits, as the dialog is sized)."""
        self._wordings, self._style = _shown(wordings), style
        self._show()

    def on_mount(self) -> None:
        self._show()

    def on_resize(self) -> None:
        self._show()

    def _show(self) -> None:
        width = self.content_region.width
        said = (fullest(width, self._wordings) if width else self._wordings[0], self._style)
        if said != self._shown:
            self._shown = said
            self.update(Text(*said))


class DialogBox(Vertical):
    """A dialog's box whose bottom border names its keys in the fullest of their wordings
    that fits (at 40 columns Textual cut "Enter goes to the paper · Esc closes" to "… Esc
    clo…", at 60 the export's "Esc cancels" to "Esc …")."""

    _wordings: tuple[str, ...] = ()

    def say_keys(self, *wordings: str) -> None:
        """The border's words, fullest first (none: no words)."""
        self._wordings = wordings
        self._fit_words()

    def on_resize(self) -> None:
        self._fit_words()

    def _fit_words(self) -> None:
        width = self.size.width - 6  # the corners, a line and a space each side
        wordings = self._wordings
        if not wordings:
            self.border_subtitle = None
        else:
            self.border_subtitle = fullest(width, wordings) if width > 0 else wordings[0]


def _shown(wordings: tuple[str, ...]) -> tuple[str, ...]:
    """Wordings as shown: each of their lines printable (a remapped key is data)."""
    return tuple("\n".join(map(printable, w.split("\n"))) for w in wordings)


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
