"""The tabs the tab bar has no room for ("+3 more", clicked, or the key ``more_tabs``): the
one chosen is shown."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from tui.commands import bindings
from tui.screens.keys_first import DialogKeysFirst
from tui.widgets.fitting import fit_after_refresh, fit_dialog


class TabPicker(DialogKeysFirst[str | None]):
    """A list of tabs, each with its count (``tabs``: name and line): Enter or a click shows
    the one highlighted, Esc none."""

    #: Its keys (``tui.commands``), which the footer shows while it is open.
    KEYS: ClassVar[str] = "tabs"
    BINDINGS = bindings(KEYS)

    def __init__(self, tabs: Sequence[tuple[str, Text]], title: str = "More tabs") -> None:
        super().__init__()
        self.tabs = list(tabs)
        self.title_words = title

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog") as box:
            box.border_title = self.title_words
            yield OptionList(*(Option(line, id=name) for name, line in self.tabs), id="tab-choice")

    def on_mount(self) -> None:
        fit_after_refresh(self, self._fit)

    def on_resize(self) -> None:
        fit_after_refresh(self, self._fit)

    def _fit(self) -> None:
        """Every tab listed while the screen has the rows, else the list scrolls."""
        fit_dialog(self.query_one(".dialog"), [(self.query_one("#tab-choice"), 3)])

    @on(OptionList.OptionSelected)
    def chosen(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self.tabs[event.option_index][0])

    def action_move(self, step: int) -> None:
        """j k ↓ ↑, as in the paper list (the list has the arrows too, while it has the
        focus)."""
        choices = self.query_one("#tab-choice", OptionList)
        if step > 0:
            choices.action_cursor_down()
        else:
            choices.action_cursor_up()

    def action_choose(self) -> None:
        """Enter: the highlighted tab, as the key is taken (bound with priority, as the queue's
        sorts are: ``tui.screens.queue_sort``)."""
        highlighted = self.query_one("#tab-choice", OptionList).highlighted
        if highlighted is not None:
            self.dismiss(self.tabs[highlighted][0])

    def action_cancel(self) -> None:
        self.dismiss(None)
