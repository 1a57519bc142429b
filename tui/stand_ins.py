"""Keys the terminal's decoder hands Textual as stand-ins when Textual reads no kitty key
reports (``TEXTUAL_DISABLE_KITTY_KEY``), and the keys the app takes them for.

``tui.terminal.TerminalInput`` gives the keys a terminal sends as ESC and a byte (Alt+f, ESC
and a digit, Alt+Backspace) as the kitty keyboard protocol reports them, which Textual's
parser reads as the keys they are. With the protocol off, Textual's parser reads no report,
and reads ESC and those bytes its own way: ESC 2 as ``™`` (the sign macOS's Option types
with 2), ESC DEL as ctrl+w (which in the search box deletes back to a space, not the word),
ESC f as ctrl+right. The decoder then gives each as a stand-in: one of Unicode's
noncharacters (U+FDD0 to U+FDEF, which the standard keeps for a program's own use and no
keyboard types), which the parser reads as a key of that one character, and the app as the
key it stands for (``stood_for``), as the protocol's report is read: alt+2, alt+backspace.
The decoder reads a noncharacter the terminal sends as U+FFFD, so that none is taken for one.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from textual import events

#: The first of the noncharacters the stand-ins are.
_FIRST = 0xFDD0
#: What each stand-in stands for: (key, character) as Textual reads the kitty protocol's report
#: of that key: Alt and a digit, Alt+f, Alt+Backspace; and a digit alone, typed after an Esc
#: the parser may still hold (Esc then 2 typed quickly: ``TerminalInput.decode``).
_KEYS: tuple[tuple[str, str | None], ...] = (
    *((f"alt+{digit}", None) for digit in "0123456789"),
    ("alt+f", None),
    ("alt+backspace", None),
    *((digit, digit) for digit in "0123456789"),
)
STOOD_FOR: Mapping[str, tuple[str, str | None]] = {
    chr(_FIRST + i): key for i, key in enumerate(_KEYS)
}
#: The stand-in of each key (its name as in ``_KEYS``).
STAND_IN: Mapping[str, str] = {key: stand_in for stand_in, (key, _) in STOOD_FOR.items()}
#: The noncharacters of the stand-ins' block, which a terminal's text never carries as such.
NONCHARACTERS = re.compile("[\ufdd0-\ufdef]")


def stood_for(event: events.Key) -> events.Key:
    """The key a stand-in ``event`` stands for (Textual reads one after an ESC it held as
    Alt and the stand-in: the same key), else ``event``."""
    found = STOOD_FOR.get(event.character or "")
    return event if found is None else events.Key(*found)
