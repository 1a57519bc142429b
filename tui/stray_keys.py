"""Keys typed on after leaving a text field are held back, not run, until the typing stops.

On the main screen a letter is a command: `s` stars, `a` opens the import dialog, `r` marks
read. A word typed on after the search box was left (Esc, Enter, Tab, a click; a dialog's
field closed by Enter) ran as commands: "sparse" starred a paper, opened the import dialog,
marked another read. Undo could repair the decisions, but not the dialogs, the moves, or the
rest of the word typed into a dialog; so such keys are not taken at all. A key is held back
when it comes within ``GAP_S`` of the last key typed into a text field, of the moment one
was left, or of the previous key held back: a burst of typing, which a person reading the
list does not produce. Keys that only move (j k g G, J K, the tabs' digits, `/`) still act:
what they do shows, and holding a key down must go on moving. When the burst ends, one
warning says what was held back and that pressing a key again runs it.

Why hold back rather than run the key and offer its undo: a typed word is several keys, and
the dialogs, the moves and the letters that then land in a dialog's field have no undo; a
held-back key costs one more press, said on the screen.
"""

from __future__ import annotations

import math
from collections.abc import Collection

#: Keys closer than this to typing in a text field (or to the last key held back) are taken
#: for the rest of a word. Typing runs at 100-250 ms a key; a deliberate key after looking
#: at the list comes later.
GAP_S = 0.4

#: The main screen's commands that only move or go to the search box: never held back.
MOVING = frozenset(
    {
        "down",
        "up",
        "first",
        "last",
        "pane_down",
        "pane_up",
        "search",
        "tab_inbox",
        "tab_starred",
        "tab_read",
        "tab_skipped",
        "tab_all",
        "tab_saved_first",
        "tab_saved_second",
        "tab_saved_third",
        "tab_saved_fourth",
    }
)


class StrayKeys:
    """When the last typing in a text field was, and the characters held back since."""

    def __init__(self, moving_keys: Collection[str], gap: float = GAP_S) -> None:
        self._moving = frozenset(moving_keys)
        #: Keys closer than this (seconds) to the last typing are held back.
        self.gap = gap
        self._last = -math.inf
        self.held = ""

    def typed(self, at: float) -> None:
        """A key went into a text field, or a text field was left, at ``at``."""
        self._last = at

    def hold(self, key: str, character: str | None, at: float) -> bool:
        """Whether the main screen's ``key`` pressed at ``at`` is held back (and noted)."""
        if character is None or not character.isprintable() or key in self._moving:
            return False
        if at - self._last >= self.gap:
            return False
        self._last = at
        self.held += character
        return True

    def take_held(self) -> str:
        """The characters held back since the last call (and forget them)."""
        held, self.held = self.held, ""
        return held
