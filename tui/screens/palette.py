"""The command palette (ctrl+p): Textual's, dismissed once.

Textual's palette closes through a chain of messages (Enter highlights the command, the list
posts its choice, the palette then dismisses itself and runs the command), and Esc dismisses
it too. Typed in one burst (``stats`` Enter Esc), both reached it: its second dismissal popped
the screen under it, and the app ended on "Can't pop screen". A palette no longer on top is
not dismissed again; the command chosen with Enter still runs.

The footer, which shows through under it, names its keys (``KeyBar``'s ``PALETTE_KEYS``).
"""

from __future__ import annotations

from typing import Any, ClassVar

from textual.await_complete import AwaitComplete
from textual.command import CommandPalette


class Palette(CommandPalette):
    """Textual's command palette, dismissed once (see the module)."""

    #: The footer's keys while it is open (``KeyBar.show_keys_of``).
    KEYS: ClassVar[str] = "palette"

    def dismiss(self, result: Any = None) -> AwaitComplete:
        if not self.is_attached or self.app.screen is not self:
            return AwaitComplete.nothing()
        return super().dismiss(result)
