"""Files of one entry per paragraph (blank lines between): the seeds' plain lists, and the
plain-text citations of IEEE Xplore and ScienceDirect, told apart by what their paragraphs
hold."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

from storage.errors import SourceError
from storage.sources.records import SNIFF_CHARS, ReadResult

_BLANK_LINE: Final = re.compile(r"\n[ \t\r\f\v]*\n")
#: The paragraphs a sniff looks at, at the most.
_SNIFFED: Final = 20


def paragraphs(text: str) -> list[str]:
    """The text's paragraphs that hold anything, stripped (CRLF line ends as LF)."""
    return [p.strip() for p in _BLANK_LINE.split(text.replace("\r\n", "\n")) if p.strip()]


def mostly_entries(text: str, is_entry: Callable[[str], bool]) -> bool:
    """Whether most of the file's first paragraphs (a heading line aside) are entries."""
    first = paragraphs(text[:SNIFF_CHARS])[:_SNIFFED]
    entries = sum(map(is_entry, first))
    return entries > 0 and entries * 2 >= len(first) - 1


def read_entries(
    text: str,
    path: Path,
    is_entry: Callable[[str], bool],
    entry: Callable[[str], dict[str, Any]],
    kind: str,
) -> ReadResult:
    """Every paragraph that ``is_entry`` takes, as the fields ``entry`` reads from it (a
    heading line above the entries is left out); any other paragraph is refused with its
    place, as no ``kind`` citation. ``SourceError`` when there is nothing at all."""
    result = ReadResult(source=str(path), list_name=path.stem)
    found = paragraphs(text)
    if found and not is_entry(found[0]) and "\n" not in found[0]:
        found = found[1:]  # a heading line someone put above the entries
    article = "an" if kind[:1] in "AEIOU" else "a"
    for number, paragraph in enumerate(found, start=1):
        if not is_entry(paragraph):
            shown = " ".join(paragraph[:60].split())
            result.refuse(number, f"not {article} {kind} citation: {shown}")
            continue
        result.add(number, entry(paragraph))
    if not result.records and not result.errors:
        raise SourceError(f"{path}: holds no {kind} citations")
    return result
