"""The dialogs of a removal: which list to remove, and the confirmation saying what goes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, OptionList, Static
from textual.widgets.option_list import Option

from storage.files.papers_file import ListInfo
from storage.text.words import count
from tui.commands import bindings, button_label, closing_words, key_named
from tui.screens.keys_first import DialogKeysFirst
from tui.text import cut_cells, printable
from tui.widgets.fitting import Hint

#: A paper's title or a list's name in the question is cut to this many cells: a title of a
#: thousand characters pushed the buttons and the word on undo off a screen of 24 rows.
_NAME_CELLS = 160


class ConfirmRemoval(DialogKeysFirst[bool]):
    """Ask before papers leave the library: says what goes and that ``u`` brings it back;
    y removes, n, Esc or q keeps everything (the focus starts on Cancel: Enter keeps too)."""

    #: Its keys (``tui.commands``), which the footer shows while it is open.
    KEYS: ClassVar[str] = "remove"
    BINDINGS = bindings(KEYS)
    AUTO_FOCUS = "#cancel"

    def __init__(self, question: str, *, one: bool = False) -> None:
        super().__init__()
        self.question = question
        #: One paper: said of it, not of "them".
        self.one = one

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog") as box:
            box.border_title = "Remove"
            yield Static(Text(printable(self.question)), classes="note")
            keymap = getattr(self.app, "keymap", {})
            web = self.app.is_web
            undo = key_named("undo", keymap, web=web)
            yield Static(
                Text(
                    f"Its decision, note and tags go with it; {undo} (undo) brings it all back."
                    if self.one
                    else f"Their decisions, notes and tags go with them; {undo} (undo) brings "
                    "it all back, as one step.",
                    style="dim",
                ),
                classes="note",
            )
            with Horizontal(classes="buttons"):
                yield Button(
                    button_label("remove_yes", keymap, web=web), id="remove", variant="error"
                )
                yield Button(button_label("remove_no", keymap, web=web), id="cancel")

    @classmethod
    def for_papers(cls, titles: Sequence[str]) -> ConfirmRemoval:
        """The question for papers: by title when there is one, else how many."""
        if len(titles) == 1:
            return cls(
                f"Remove “{cut_cells(printable(titles[0]), _NAME_CELLS)}” from the library?",
                one=True,
            )
        return cls(f"Remove {count(len(titles), 'paper')} from the library?")

    @classmethod
    def for_list(cls, info: ListInfo) -> ConfirmRemoval:
        """The question for a list: its name and size; papers in another list too stay."""
        name, size = cut_cells(printable(info.name), _NAME_CELLS), count(info.size, "paper")
        return cls(
            f"Remove the list “{name}” ({size}) from the library? "
            "Its papers that are in another list too stay there."
        )

    @on(Button.Pressed)
    def pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "remove")

    def action_confirm(self) -> None:
        self.dismiss(True)

    def action_cancel(self) -> None:
        self.dismiss(False)


class ListChooser(DialogKeysFirst[str | None]):
    """Pick one of the imported lists (Enter), or none (Esc)."""

    #: Its keys (``tui.commands``), which the footer shows while it is open.
    KEYS: ClassVar[str] = "lists"
    BINDINGS = bindings(KEYS)

    def __init__(self, lists: Sequence[ListInfo], title: str = "Remove a list") -> None:
        super().__init__()
        self.lists = list(lists)
        self.chooser_title = title

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog dialog-tall") as box:
            box.border_title = self.chooser_title
            keymap, web = getattr(self.app, "keymap", {}), self.app.is_web
            choose = key_named("lists_choose", keymap, web=web)
            close = closing_words(self.KEYS, keymap, web=web)
            yield Hint(
                f"Which list? {choose} chooses it · {close}",
                f"Which list? {choose} chooses · {close}",
                f"Which list? {choose} chooses it",
            )
            yield OptionList(
                *(
                    Option(Text(f"{printable(info.name)}  ·  {count(info.size, 'paper')}"))
                    for info in self.lists
                ),
                id="list-choice",
            )

    @on(OptionList.OptionSelected)
    def chosen(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self.lists[event.option_index].name)

    def action_choose(self) -> None:
        """Enter (the list's own key too; this one is the footer's, and a remapped one)."""
        self.query_one(OptionList).action_select()

    def action_cancel(self) -> None:
        self.dismiss(None)
