"""Paper text on screen: always data, never markup or terminal codes; search words highlighted."""

from __future__ import annotations

import math
from collections.abc import Collection
from decimal import ROUND_HALF_UP, Decimal, localcontext

from rich.style import Style
from rich.text import Text

from storage.text.highlight import highlight_spans
from storage.text.sanitize import editable_block, printable, printable_block

__all__ = [
    "cut_at_word",
    "cut_cells",
    "editable_block",
    "highlighted",
    "printable",
    "printable_block",
    "rounded",
]


def rounded(value: float, spec: str) -> str:
    """``value`` formatted by ``spec`` (``".1f"``, ``".0e"``) as people round: a half away
    from zero, on the number as written (7.25 is 7.3, 7.35 is 7.4), where Python's format
    rounds the binary value half to even (7.2, 7.3). A rating shows so wherever it is rounded."""
    value = float(value)
    if not math.isfinite(value):
        return format(value, spec)
    with localcontext() as context:
        context.rounding = ROUND_HALF_UP
        return format(Decimal(repr(value)), spec)


def cut_at_word(text: str, width: int) -> str:
    """``text`` in ``width`` columns: whole, or cut after its last whole word that fits with
    an ellipsis after it, a quoted phrase one word (plain one-column text: a hint, a label)."""
    if len(text) <= width:
        return text
    head = text[: max(0, width - 1)]
    space = head.rfind(" ")
    head = head[:space] if space > 0 else head
    if head.count('"') % 2:  # not inside "a phrase"
        head = head[: head.rfind('"')]
    return head.rstrip(" ,;:") + "…" if width > 0 else ""


#: A list's or a venue's name in a table's column is cut to this many cells: a name thousands
#: of characters long (a list named by a script) pushed every count off the screen.
NAME_CELLS = 40


def cut_cells(text: str, width: int) -> str:
    """``text`` in at most ``width`` terminal cells: whole, or cut with an ellipsis (a name in a
    table's column: a CJK character takes two cells, as the columns measure)."""
    from rich.cells import cell_len, set_cell_size

    if cell_len(text) <= width:
        return text
    return set_cell_size(text, max(0, width - 1)).rstrip() + "…" if width > 0 else ""


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
