"""The key that opens a dialog closes it (``Command.opener``: ``?`` the help, ``m`` the
similar papers, ``S`` the stats, as remapped), whichever widget of it has the focus."""

from __future__ import annotations

from typing import ClassVar, TypeVar

from textual import events
from textual.screen import ModalScreen

from tui.commands import opener_keys

_Result = TypeVar("_Result")


class OpenerCloses(ModalScreen[_Result]):
    """A dialog whose opener's keys close it. They are bindings of its closing command too
    (the footer names them), but a binding waits for the focused widget's own: the similar
    papers' list took Home (its first paper) and the help's scroll End, remapped openers both,
    and the dialog stayed. The screen sees a key before any binding is looked up."""

    #: Its keys (``tui.commands``): the scope of its commands.
    KEYS: ClassVar[str]

    async def on_key(self, event: events.Key) -> None:
        command = opener_keys(self.KEYS, getattr(self.app, "keymap", {})).get(event.key)
        if command is not None:
            event.stop()
            event.prevent_default()
            await self.run_action(command.action)
