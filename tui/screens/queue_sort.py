"""The dialog that sorts the reading queue once: which sort (Enter), or none (Esc)."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from storage.queue import SORTS
from tui.commands import BY_ID, bindings, key_label, keys_for
from tui.screens.keys_first import DialogKeysFirst
from tui.widgets.fitting import Hint, Shrinking, fit_after_refresh, fit_dialog


class QueueSortDialog(DialogKeysFirst[str | None]):
    """The sorts of ``storage.queue.SORTS``; the one chosen sorts the queue (one undo step)."""

    #: Its keys (``tui.commands``), which the footer shows while it is open.
    KEYS: ClassVar[str] = "queue_sort"
    BINDINGS = bindings(KEYS)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog") as box:
            box.border_title = "Sort the reading queue"
            with Shrinking(id="sort-about"):
                keymap = getattr(self.app, "keymap", {})
                undo = key_label(keys_for(BY_ID["undo"], keymap)[0], web=self.app.is_web)
                yield Hint(
                    f"Once: later moves and new stars keep their places · {undo} undoes",
                    f"Once: new stars keep their places · {undo} undoes",
                    f"Sorts once · {undo} undoes",
                )
            yield OptionList(*(Option(Text(sort.label)) for sort in SORTS), id="sort-choice")

    def on_mount(self) -> None:
        fit_after_refresh(self, self._fit)

    def on_resize(self) -> None:
        fit_after_refresh(self, self._fit)

    def _fit(self) -> None:
        """The choices first (one at least, the list scrolls), then the words above them."""
        choices = self.query_one("#sort-choice")
        fit_dialog(self.query_one(".dialog"), [(choices, 3), (self.query_one("#sort-about"), 0)])

    @on(OptionList.OptionSelected)
    def chosen(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(SORTS[event.option_index].name)

    def action_move(self, step: int) -> None:
        """j k ↓ ↑, as in the paper list (the list of sorts has the arrows too, while it has
        the focus)."""
        choices = self.query_one("#sort-choice", OptionList)
        if step > 0:
            choices.action_cursor_down()
        else:
            choices.action_cursor_up()

    def action_choose(self) -> None:
        """Enter: the highlighted sort, as the key is taken (bound with priority: through the
        list's ``OptionSelected`` message the dialog closed after the keys typed behind
        Enter had gone to the list, and a ``j`` meant for the sorted queue was lost)."""
        highlighted = self.query_one("#sort-choice", OptionList).highlighted
        if highlighted is not None:
            self.dismiss(SORTS[highlighted].name)

    def action_cancel(self) -> None:
        self.dismiss(None)
