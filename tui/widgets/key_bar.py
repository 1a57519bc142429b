"""The footer: the core keys, from the same command definitions as the bindings.

Textual's ``Footer`` rebuilds itself whenever the focus moves (the active bindings change),
which costs a frame's worth of work each time the search box is left; these keys do not
change with the focus, so one line of text is drawn once and again only on resize, or when a
dialog opens over the screen: then it shows that dialog's keys (``show_keys_of``), the keys
that work, until the dialog closes.
"""

from __future__ import annotations

from collections.abc import Mapping

from textual.markup import escape
from textual.widgets import Static

from tui.commands import BY_ID, COMMANDS, key_label, keys_for

#: The footer's entries kept however narrow the terminal: the decisions, undo, help, quit;
#: a dialog's, those on these keys (its Enter, its Esc, its ctrl+ commands).
ESSENTIAL = frozenset({"read", "skip", "star", "undo", "help", "quit"})
_ESSENTIAL_KEYS = ("enter", "escape", "ctrl+")


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
        #: Whose keys it shows: "main" (the screen's), or the scope of a dialog open over it
        #: (``tui.commands.SCOPES``; "" for a screen without keys of its own).
        self.scope = "main"

    #: The width the line was drawn for.
    _drawn_for: int | None = None

    def show_keys_of(self, scope: str) -> None:
        """Show the keys of ``scope`` (a dialog's, or "main" again)."""
        if scope != self.scope:
            self.scope, self._drawn_for = scope, None
            self._draw()

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
        """(id, action, key, title) of each footer command, then the palette's; a dialog's
        commands, with no action (a click there reaches the dialog, not the footer)."""
        if self.scope != "main":
            return [
                (c.id, "", key_label(keys[0]), c.title)
                for c in COMMANDS
                if c.scope == self.scope and (keys := keys_for(c, self.keymap))
            ]
        found = [
            (c.id, f"screen.{c.action}", key_label(keys_for(c, self.keymap)[0]), c.title)
            for c in COMMANDS
            if c.footer
        ]
        return [*found, ("palette", "app.command_palette", "^p", "palette")]

    def _essential(self, entry: tuple[str, str, str, str]) -> bool:
        if self.scope == "main":
            return entry[0] in ESSENTIAL
        keys = keys_for(BY_ID[entry[0]], self.keymap)
        return any(key.startswith(_ESSENTIAL_KEYS) for key in keys)

    def line(self, width: int) -> str:
        """The footer's markup for ``width`` columns: every entry whole, never cut. When they
        do not all fit, the palette's goes first, then the gaps narrow, then the entries
        from the right, down to the decisions, undo, help and quit. A dialog's entries go
        from the right before its gaps narrow, down to its Enter, Esc and ctrl+ keys."""
        entries = self.entries()

        def fits(chosen: list[tuple[str, str, str, str]], gap: int) -> bool:
            used = sum(len(key) + 1 + len(title) for _, _, key, title in chosen)
            return used + gap * (len(chosen) - 1) <= width

        chosen, gap = entries, 2
        if self.scope == "main" and not fits(chosen, gap):
            chosen = entries[:-1]
        if self.scope == "main" and not fits(chosen, gap):
            gap = 1  # the main keys all stay, a little closer; a dialog's stay apart
        while not fits(chosen, gap):
            optional = [i for i, entry in enumerate(chosen) if not self._essential(entry)]
            if not optional:
                gap = 1
                break
            del chosen[optional[-1]]
        parts = [
            f"[@click={action}][b $text-accent]{escape(key)}[/] {title}[/]"
            if action
            else f"[b $text-accent]{escape(key)}[/] {escape(title)}"
            for _, action, key, title in chosen
        ]
        return (" " * gap).join(parts)
