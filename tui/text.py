"""Paper text on screen: always data, never markup or terminal codes; search words highlighted."""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from decimal import ROUND_HALF_UP, Decimal, localcontext

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text

from storage.text.highlight import highlight_spans
from storage.text.sanitize import editable_block, printable, printable_block

__all__ = [
    "cut_at_word",
    "cut_cells",
    "editable_block",
    "fullest",
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


def fullest(width: int, wordings: Sequence[str]) -> str:
    """The first of ``wordings`` (the fullest first) whose every line fits in ``width``
    cells, else the last: a dialog's key hint or a border's words, as much of them as the
    width holds."""
    for wording in wordings:
        if max(map(cell_len, wording.split("\n"))) <= width:
            return wording
    return wordings[-1]


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


#: Where a link too long for a line is best broken: after one of these, when one is near.
_LINK_BREAKS = "/?&=-_.#"


def hanging_lines(value: Text, room: int, keep: str = "") -> list[Text]:
    """``value`` as lines of at most ``room`` cells, to sit under a label column: broken at
    spaces, a number kept with the word after it (``12 pages``); a word longer than a line (a
    link) broken in place, after a ``/`` or ``?``… near the line's end where there is one;
    ``keep`` (a hint at the end, ``(p opens it)``) whole."""
    plain = value.plain
    if room < 1 or cell_len(plain) <= room:
        return [value]
    tail = len(plain) - len(keep) if keep and plain.endswith(keep) else len(plain)
    words: list[tuple[int, int]] = []
    start = 0
    for word in plain[:tail].split(" "):
        if word and words and plain[words[-1][0] : words[-1][1]].replace(",", "").isdigit():
            words[-1] = (words[-1][0], start + len(word))  # a number stays with its word
        elif word:
            words.append((start, start + len(word)))
        start += len(word) + 1
    if tail < len(plain):
        words.append((tail, len(plain)))
    lines: list[tuple[int, int]] = []
    begun = -1  # where the line being filled starts (-1: none is)
    for first, end in words:
        used = cell_len(plain[begun:first]) if begun >= 0 else 0  # its words and a space
        size = cell_len(plain[first:end])
        if used + size <= room:
            begun = first if begun < 0 else begun
            continue
        if begun >= 0 and (size <= room or room - used < min(12, room // 2)):
            lines.append((begun, first - 1))  # the word starts the next line
            begun, used = -1, 0
        while cell_len(plain[first:end]) > room - used:  # a link longer than a line
            cut = _link_cut(plain, first, room - used)
            lines.append((first if begun < 0 else begun, cut))
            begun, used, first = -1, 0, cut
        begun = first if begun < 0 else begun
    if begun >= 0:
        lines.append((begun, len(plain)))
    return [value[first:end] for first, end in lines]


def _link_cut(plain: str, first: int, room: int) -> int:
    """Where the piece of a long word from ``first`` ends to fit ``room`` cells: after the
    last ``_LINK_BREAKS`` character in its second half, else where the room ends."""
    end = first
    while end < len(plain) and cell_len(plain[first : end + 1]) <= room:
        end += 1
    if end == len(plain):
        return end
    for at in range(end, first + max(1, (end - first) // 2), -1):
        if plain[at - 1] in _LINK_BREAKS:
            return at
    return end
