"""The command palette (ctrl+p): Textual's, choosing from the commands for what was typed.

Textual's palette lists its commands in a worker after each letter, and Enter chooses from
the list shown. Typed in one burst (``stats`` Enter), Enter came while the list still held an
earlier one (the commands listed on opening, "Triage: Read" first): it ran that, and marked
the paper. Enter now waits for the listing of what was typed, a moment at most
(``LISTING_WAIT_S``), then chooses.

Esc after Enter (``stats`` Enter Esc) reached the palette first: Enter's choice travels
through messages (the field says it was submitted, the list says what it chose), while Esc's
binding runs at once. Esc stopped the listing that Enter waited for, and its dismissal, then
Enter's, popped the screen under the palette (the app ended on "Can't pop screen"). Esc now
travels the way Enter's submission does, from the field, so it comes after, and the keys
after Esc wait until the palette is closed; a palette no longer on top is not dismissed
again; the command chosen with Enter still runs.

The keys typed after Enter (``last`` Enter ``k``) wait for the command it chose to run
(``PaperCommands`` lets them go), or for a screen that command expects in turn: they went
into the palette's field when the choice took longer than a key waits for the one before it.
An Enter that chooses nothing (nothing listed for what was typed, or only "no matches") lets
them go on to the field at once: Backspace or Esc after a typo waited the whole deadline.

The footer, which shows through under it, names its keys (``KeyBar``'s ``PALETTE_KEYS``, then
Esc, ``palette_close``, ours to remap).
"""

from __future__ import annotations

import asyncio
from typing import Any, ClassVar

from textual import events, on
from textual.await_complete import AwaitComplete
from textual.binding import BindingType
from textual.command import CommandInput, CommandList, CommandPalette
from textual.message import Message
from textual.widgets import Input

from tui.commands import PALETTE, bindings
from tui.key_gate import MAX_WAIT_S, expect_screen, screen_arrived

#: The longest Enter waits for the commands of what was typed to be listed.
LISTING_WAIT_S = 1.0


class Palette(CommandPalette):
    """Textual's command palette, choosing for what was typed (see the module)."""

    #: The footer's keys while it is open (``KeyBar.show_keys_of``).
    KEYS: ClassVar[str] = "palette"

    #: Its Esc (``palette_close``), in place of Textual's.
    BINDINGS: ClassVar[list[BindingType]] = bindings("palette")

    class Closing(Message):
        """Esc, on its way from the field behind anything the field had already sent."""

    def action_close(self) -> None:
        """Esc: close once what the field sent before it (Enter's submission) has arrived;
        the keys after Esc wait for that (``tui/key_gate.py``)."""
        expect_screen(self.app, wait=LISTING_WAIT_S + MAX_WAIT_S)
        self.query_one(CommandInput).post_message(self.Closing())

    @on(Closing)
    async def _close(self, event: Closing) -> None:
        event.stop()
        if self.app.screen is self:  # (Enter's choice may have closed it)
            await self.run_action("escape")  # Textual's own Esc: stop listing, dismiss
        screen_arrived(self.app)

    def before_key(self, event: events.Key) -> None:
        """A key about to be given to the palette's field (``PapersApp``): the keys typed after
        Enter wait for the command it chooses to run (``PaperCommands`` lets them go)."""
        if event.key == "enter":
            expect_screen(self.app, wait=LISTING_WAIT_S + MAX_WAIT_S, by=PALETTE)

    @on(Input.Submitted)
    async def _listed_first(self, event: Input.Submitted) -> None:
        """Before Textual's palette chooses on Enter, the listing of what was typed ends."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + LISTING_WAIT_S
        while loop.time() < deadline and any(
            worker.node is self and not worker.is_finished for worker in self.workers
        ):
            await asyncio.sleep(0.01)
        if not self._enter_chooses():
            screen_arrived(self.app, by=PALETTE)  # no command runs: nothing to wait for

    def _enter_chooses(self) -> bool:
        """Whether Enter chooses a command now, as Textual's palette does: the one listed and
        highlighted, else the only one listed, unless it is the "no matches" line. (Read from
        the list alone, its public side: should it ever say otherwise than Textual chooses,
        the keys wait for the deadline, or go on to the field a command then leaves.)"""
        commands = self.query_one(CommandList)
        at = commands.highlighted
        if at is None:
            if commands.option_count != 1:
                return False  # (it highlights the first, and runs nothing)
            at = 0
        return not commands.get_option_at_index(at).disabled

    def dismiss(self, result: Any = None) -> AwaitComplete:
        if not self.is_attached or self.app.screen is not self:
            return AwaitComplete.nothing()
        return super().dismiss(result)
