"""Text safe to write to a terminal: control characters shown as visible symbols, never obeyed.

Everything that came from a file is data at the screen's border: an ESC in a title shows as
``␛[31m`` instead of turning the terminal red.
"""

from __future__ import annotations

# C0 and C1 control characters (and DEL) as their visible Unicode pictures. Tabs and newlines
# are spaces here; ``printable_block`` keeps the newlines.
_CONTROL = {c: chr(0x2400 + c) for c in range(0x20)} | {0x7F: "␡"}
_CONTROL |= {c: "�" for c in range(0x80, 0xA0)}
_CONTROL[0x09] = " "
_CONTROL[0x0A] = " "


def printable(text: str) -> str:
    """``text`` with control characters made visible, safe to hand to the terminal."""
    return text.translate(_CONTROL)


def printable_block(text: str) -> str:
    """Like ``printable`` but keeps newlines (for abstracts and notes)."""
    return "\n".join(printable(line) for line in text.split("\n"))
