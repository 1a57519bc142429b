"""A dialog of a list, a scroll or buttons takes the keys it names before its widgets do:
each key its footer says closes it, whichever widget of it has the focus (its closing
command's keys as set, and the key that opens it: ``Command.opener``, ``?`` the help, ``m``
the similar papers, ``S`` the stats, as remapped), and each key set in ``config.toml`` for
one of its other commands (``similar_go = "home"``, ``bulk_skip = "enter"``)."""

from __future__ import annotations

from typing import ClassVar, TypeVar

from textual import events
from textual.screen import ModalScreen

from tui.commands import Command, keys_first

_Result = TypeVar("_Result")


class DialogKeysFirst(ModalScreen[_Result]):
    """A dialog that takes its closing keys and the keys set for its commands
    (``keys_first``) before its widgets do. They are bindings of its commands (the footer
    names them), but a binding waits for the focused widget's own: the similar papers' list
    took Home (its first paper) and the help's scroll End, remapped openers both; a list took
    ↓ set among its closing keys (``similar_close = "escape,down"``), and the dialog stayed;
    with ``similar_go = "home"`` Home went to the first paper, not to the paper; and with
    ``bulk_skip = "enter"`` Enter pressed the focused button (Read). The screen sees a key
    before any binding is looked up. Not for a dialog with a text field: a key set there is
    typed."""

    #: Its keys (``tui.commands``): the scope of its commands.
    KEYS: ClassVar[str]

    _keys_first: dict[str, Command] | None = None

    async def on_key(self, event: events.Key) -> None:
        if self._keys_first is None:  # (once a dialog: the keymap is the app's from its start)
            self._keys_first = keys_first(self.KEYS, getattr(self.app, "keymap", {}))
        command = self._keys_first.get(event.key)
        if command is not None:
            event.stop()
            event.prevent_default()
            await self.run_action(command.action)
