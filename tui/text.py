"""Paper text on screen: always data, never markup or terminal codes; search words highlighted."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection

from rich.style import Style
from rich.text import Text

# C0 and C1 control characters (and DEL) as their visible Unicode pictures: an ESC in a title
# shows as "␛[31m" instead of turning the terminal red. Tabs and newlines are spaces here.
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


_WORD = re.compile(r"\w+", re.UNICODE)


def _fold(word: str) -> str:
    return unicodedata.normalize("NFKC", word).casefold()


def highlighted(text: str, words: Collection[str], style: Style | str, base: str = "") -> Text:
    """``text`` as a Rich ``Text`` (no markup parsing), with every word in ``words`` styled."""
    out = Text(printable_block(text), style=base)
    if not words:
        return out
    wanted = {_fold(w) for w in words}
    for match in _WORD.finditer(out.plain):
        word = _fold(match.group())
        if word in wanted or any(
            len(w) >= 3 and word.startswith(w) and len(word) - len(w) <= 3 for w in wanted
        ):
            out.stylize(style, match.start(), match.end())
    return out
