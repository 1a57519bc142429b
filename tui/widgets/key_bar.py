"""The footer: the core keys, from the same command definitions as the bindings.

Textual's ``Footer`` rebuilds itself whenever the focus moves (the active bindings change),
which costs a frame's worth of work each time the search box is left; these keys do not
change with the focus, so one line of text is drawn once and again only on resize.
"""

from __future__ import annotations

from collections.abc import Mapping

from textual.markup import escape
from textual.widgets import Static

from tui.commands import COMMANDS, key_label, keys_for


class KeyBar(Static):
    """One line: the core keys and what they do; a click runs the command."""

    DEFAULT_CSS = """
    KeyBar {
        height: 1;
        background: $panel;
        color: $text-muted;
        text-wrap: nowrap;
        text-overflow: ellipsis;
        link-style: none;
        link-style-hover: bold;
        link-color-hover: $text;
        link-background-hover: $boost;
    }
    """

    def __init__(self, keymap: Mapping[str, str], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.keymap = keymap

    def on_mount(self) -> None:
        parts = []
        for command in COMMANDS:
            if command.footer:
                key = escape(key_label(keys_for(command, self.keymap)[0]))
                parts.append(
                    f"[@click=screen.{command.action}][b $text-accent]{key}[/] {command.title}[/]"
                )
        parts.append("[@click=app.command_palette][b $text-accent]^p[/] palette[/]")
        self.update("  ".join(parts), layout=False)
