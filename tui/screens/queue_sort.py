"""The dialog that sorts the reading queue once: which sort (Enter), or none (Esc)."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, OptionList
from textual.widgets.option_list import Option

from storage.queue import SORTS
from tui.commands import bindings


class QueueSortDialog(ModalScreen[str | None]):
    """The sorts of ``storage.queue.SORTS``; the one chosen sorts the queue (one undo step)."""

    #: Its keys (``tui.commands``), which the footer shows while it is open.
    KEYS: ClassVar[str] = "queue_sort"
    BINDINGS = bindings(KEYS)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog") as box:
            box.border_title = "Sort the reading queue"
            yield Label(
                Text("Once: later moves and new stars keep their places · u undoes", style="dim")
            )
            yield OptionList(*(Option(Text(sort.label)) for sort in SORTS), id="sort-choice")

    @on(OptionList.OptionSelected)
    def chosen(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(SORTS[event.option_index].name)

    def action_cancel(self) -> None:
        self.dismiss(None)
