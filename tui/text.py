"""Paper text on screen: always data, never markup or terminal codes; search words highlighted."""

from __future__ import annotations

from collections.abc import Collection

from rich.style import Style
from rich.text import Text

from storage.text.highlight import highlight_spans
from storage.text.sanitize import printable, printable_block

__all__ = ["highlighted", "printable", "printable_block"]

#: A shown word that starts with a matched word and is at most this much longer is marked too.
_PREFIX_SLACK = 3


def highlighted(
    text: str, words: Collection[str], style: Style | str, base: Style | str = ""
) -> Text:
    """``text`` as a Rich ``Text`` (no markup parsing), with every word in ``words`` styled."""
    out = Text(printable_block(text), style=base)
    if not words:
        return out
    for start, end in highlight_spans(out.plain, words, prefix_slack=_PREFIX_SLACK):
        out.stylize(style, start, end)
    return out
