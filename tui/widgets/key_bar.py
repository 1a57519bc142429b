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

#: The footer's entries kept however narrow the terminal: the decisions, undo, help, quit.
ESSENTIAL = frozenset({"read", "skip", "star", "undo", "help", "quit"})


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

    #: The width the line was drawn for.
    _drawn_for: int | None = None

    def on_mount(self) -> None:
        self._draw()

    def on_resize(self) -> None:
        self._draw()

    def _draw(self) -> None:
        width = self.size.width or 80
        if width == self._drawn_for:
            return
        self._drawn_for = width
        self.update(self.line(width), layout=False)

    def entries(self) -> list[tuple[str, str, str, str]]:
        """(id, action, key, title) of each footer command, then the palette's."""
        found = [
            (c.id, f"screen.{c.action}", key_label(keys_for(c, self.keymap)[0]), c.title)
            for c in COMMANDS
            if c.footer
        ]
        return [*found, ("palette", "app.command_palette", "^p", "palette")]

    def line(self, width: int) -> str:
        """The footer's markup for ``width`` columns: every entry whole, never cut. When they
        do not all fit, the palette's goes first, then the gaps narrow, then the entries
        from the right, down to the decisions, undo, help and quit."""
        entries = self.entries()

        def fits(chosen: list[tuple[str, str, str, str]], gap: int) -> bool:
            used = sum(len(key) + 1 + len(title) for _, _, key, title in chosen)
            return used + gap * (len(chosen) - 1) <= width

        chosen, gap = entries, 2
        if not fits(chosen, gap):
            chosen = entries[:-1]
        if not fits(chosen, gap):
            gap = 1
        while not fits(chosen, gap):
            optional = [i for i, entry in enumerate(chosen) if entry[0] not in ESSENTIAL]
            if not optional:
                break
            del chosen[optional[-1]]
        parts = [
            f"[@click={action}][b $text-accent]{escape(key)}[/] {title}[/]"
            for _, action, key, title in chosen
        ]
        return (" " * gap).join(parts)
