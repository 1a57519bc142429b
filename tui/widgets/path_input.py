"""A one-line path field whose Tab completes the path, as a shell does."""

from __future__ import annotations

from textual.message import Message
from textual.widgets import Input

from tui.commands import bindings
from tui.paths import complete, shown


class PathInput(Input):
    """An ``Input`` for a file or folder: Tab completes as far as the matches agree and posts
    the matches (``Completions``) so the dialog can list them.

    The field holds a path as ``tui.paths.shown`` writes it, whatever was typed, pasted or
    completed: a control character in a file's name shows as a symbol, never reaches the
    terminal, and ``tui.paths.typed_path`` finds the real file from what the field holds.
    """

    BINDINGS = bindings("path")

    class Completions(Message):
        """What matched the last Tab (empty: nothing did)."""

        def __init__(self, names: list[str]) -> None:
            self.names = names
            super().__init__()

    def validate_value(self, value: str) -> str:
        """Every value the field takes, in its shown form (one character for one)."""
        return shown(value)

    def action_complete(self) -> None:
        completed, names = complete(self.value)
        if completed != self.value:
            self.value = completed
            self.cursor_position = len(completed)
        self.post_message(self.Completions(names))
