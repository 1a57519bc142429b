"""A one-line path field whose Tab completes the path, as a shell does."""

from __future__ import annotations

from textual.message import Message
from textual.widgets import Input

from tui.commands import bindings
from tui.paths import complete


class PathInput(Input):
    """An ``Input`` for a file or folder: Tab completes as far as the matches agree and posts
    the matches (``Completions``) so the dialog can list them."""

    BINDINGS = bindings("path")

    class Completions(Message):
        """What matched the last Tab (empty: nothing did)."""

        def __init__(self, names: list[str]) -> None:
            self.names = names
            super().__init__()

    def action_complete(self) -> None:
        completed, names = complete(self.value)
        if completed != self.value:
            self.value = completed
            self.cursor_position = len(completed)
        self.post_message(self.Completions(names))
