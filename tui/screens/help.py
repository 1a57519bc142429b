"""The help screen: every key, from the same command definitions as the bindings."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from tui.commands import (
    BY_ID,
    COMMANDS,
    bindings,
    closing_words,
    grouped,
    help_text,
    key_label,
    key_named,
    keys_for,
    keys_shown,
)
from tui.screens.keys_first import DialogKeysFirst
from tui.text import printable


def intro(undo: str) -> str:
    """The words above the keys, ``undo`` the undo command's key as remapped."""
    return (
        "papers: triage a conference from the keyboard. Every decision is saved as you make "
        f'it; {undo} undoes, even after a restart. Remap keys in config.toml ([keys] star = "f").'
    )


#: From this many columns inside the dialog, the help is one table of four columns.
WIDE_TABLE = 100
#: Under this many columns inside the dialog (a 40-column screen), the keys' column is
#: narrower (the words had 20 columns, three lines for "Mark read, go to the next paper"),
#: and the border names only the keys that close the help (the rest was cut).
SLIM_TABLE = 50
#: The keys' column at its widest: in the narrow table, and in the slim one.
KEYS_WIDTH = 16
SLIM_KEYS_WIDTH = 9


class HelpScreen(DialogKeysFirst[None]):
    """Every command with its keys (after the user's remapping); Esc, q or ? closes."""

    #: Its keys (``tui.commands``), which the footer shows while it is open.
    KEYS: ClassVar[str] = "help"
    BINDINGS = bindings(KEYS)

    def __init__(self, keymap: Mapping[str, str], problems: Sequence[str] = ()) -> None:
        super().__init__()
        self.keymap = keymap
        #: What was wrong in config.toml at start (each also a notification, but more than
        #: a few do not fit on the screen at once): listed above the keys.
        self.problems = problems

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog dialog-wide") as box:
            box.border_title = "Keys"
            web = self.app.is_web
            box.border_subtitle = self.subtitle(slim=False)
            undo = key_label(keys_for(BY_ID["undo"], self.keymap)[0], web=web)
            yield Static(Text(intro(undo), style="italic"), classes="help-intro")
            if self.problems:
                said = Text("config.toml: ignored at start (the defaults stand):", style="bold")
                for problem in self.problems:
                    said.append(f"\n• {printable(problem)}", style="")
                yield Static(said, classes="help-intro help-problems")
            yield Static(id="help-main")
            yield Static(id="help-dialogs")

    def subtitle(self, *, slim: bool) -> str:
        """The border's words: how to close the help, and (unless ``slim``) the palette."""
        if slim:
            return self.closing_keys()
        palette = key_named("palette", self.keymap, web=self.app.is_web)
        return f"{self.closing_keys()} · {palette}: command palette"

    def closing_keys(self) -> str:
        """``Esc, q, ? close``: every key that closes the help as remapped, the key that opens
        it among them (``Command.opener``); it named only the first."""
        return closing_words(self.KEYS, self.keymap, web=self.app.is_web)

    def on_resize(self) -> None:
        """The tables for the width there is: columns side by side when wide, else the
        groups as headings and the ids after the words, so that no row wraps word by word."""
        box = self.query_one(VerticalScroll)
        width = box.content_region.width
        wide, slim = width >= WIDE_TABLE, width < SLIM_TABLE
        if (wide, slim) != (self._wide, self._slim):
            self._wide, self._slim = wide, slim
            keys = SLIM_KEYS_WIDTH if slim else KEYS_WIDTH
            self.query_one("#help-main", Static).update(self.table(wide=wide, keys_width=keys))
            self.query_one("#help-dialogs", Static).update(
                self.table(dialogs=True, wide=wide, keys_width=keys)
            )
            box.border_subtitle = self.subtitle(slim=slim)

    _wide: bool | None = None
    _slim: bool | None = None

    def table(
        self, *, dialogs: bool = False, wide: bool = True, keys_width: int = KEYS_WIDTH
    ) -> Table:
        """The keys of the main screen, or (``dialogs``) those of the dialogs over it (the
        keys' column at most ``keys_width`` wide, unless ``wide``)."""
        table = Table.grid(padding=(0, 2))
        if wide:
            table.add_column("Group", style="bold")
        table.add_column("Keys", style="bold", no_wrap=wide, max_width=None if wide else keys_width)
        table.add_column("Action")
        if wide:
            table.add_column("id (config.toml)", style="dim", no_wrap=True)
        shown = [c for c in COMMANDS if (c.scope not in ("main", "app")) == dialogs]
        for group, commands in grouped(shown).items():
            if not wide:
                table.add_row(Text(group, style="bold"), "")
            first = True
            for command in commands:
                shown_keys = keys_shown(command, self.keymap, web=self.app.is_web)
                if self.app.is_web and not shown_keys:
                    continue  # (the search box's ctrl+w: the browser keeps it)
                keys = " ".join(shown_keys)  # (in a browser ctrl+w is alt+backspace)
                words = help_text(command, self.keymap, web=self.app.is_web)
                if wide:  # Text, not markup: "the [sync] folder" is words
                    cells = (group if first else "", keys, words, command.id)
                    table.add_row(*map(Text, cells))
                else:
                    said = Text(words)
                    said.append(f"  (id: {command.id})", style="dim")  # not the sentence's
                    table.add_row(Text(keys), said)
                first = False
            table.add_row(*[""] * len(table.columns))
        return table

    def action_close(self) -> None:
        self.dismiss(None)

    def action_scroll(self, lines: int) -> None:
        """Scroll the help by ``lines``."""
        box = self.query_one(VerticalScroll)
        box.scroll_to(y=box.scroll_y + lines, animate=False)

    def action_scroll_page(self, pages: int) -> None:
        box = self.query_one(VerticalScroll)
        box.scroll_to(y=box.scroll_y + pages * max(1, box.size.height - 2), animate=False)

    def action_scroll_edge(self, end: int) -> None:
        box = self.query_one(VerticalScroll)
        box.scroll_to(y=box.max_scroll_y if end else 0, animate=False)
