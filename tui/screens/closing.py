"""A dialog of a list or a scroll closes at each key its footer says closes it, whichever
widget of it has the focus: its closing command's keys as set, and the key that opens it
(``Command.opener``: ``?`` the help, ``m`` the similar papers, ``S`` the stats, as
remapped)."""

from __future__ import annotations

from typing import ClassVar, TypeVar

from textual import events
from textual.screen import ModalScreen

from tui.commands import Command, closing_commands

_Result = TypeVar("_Result")


class ClosingKeysFirst(ModalScreen[_Result]):
    """A dialog that takes its closing keys (``closing_commands``) before its widgets do. They
    are bindings of its closing command (the footer names them), but a binding waits for the
    focused widget's own: the similar papers' list took Home (its first paper) and the help's
    scroll End, remapped openers both, and a list took ↓ set among its closing keys
    (``similar_close = "escape,down"``), and the dialog stayed. The screen sees a key before
    any binding is looked up. Not for a dialog with a text field: a key set there is typed."""

    #: Its keys (``tui.commands``): the scope of its commands.
    KEYS: ClassVar[str]

    _closing_keys: dict[str, Command] | None = None

    async def on_key(self, event: events.Key) -> None:
        if self._closing_keys is None:  # (once a dialog: the keymap is the app's from its start)
            self._closing_keys = closing_commands(self.KEYS, getattr(self.app, "keymap", {}))
        command = self._closing_keys.get(event.key)
        if command is not None:
            event.stop()
            event.prevent_default()
            await self.run_action(command.action)
