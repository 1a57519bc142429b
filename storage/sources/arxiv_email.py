"""arXiv listing emails: the daily "new submissions" mail of an arXiv subject list.

Entries are separated by lines of dashes; each has a header (``arXiv:ID``, ``Date:``, then
``Title:``, ``Authors:``, ``Categories:``, ``Comments:``, ``Journal-ref:`` … with wrapped
lines indented) between ``\\\\`` lines, then the abstract, closed by a ``\\\\ ( https://arxiv…``
line. Replacement notices (a header without an abstract) are papers seen in an earlier
listing: each is a record error saying so, not a paper.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Final

from storage.errors import SourceError
from storage.models import RecordError
from storage.sources.records import Fit, Reader, ReadResult
from storage.sources.venues import find_venue
from storage.text.latex import to_unicode

ARXIV_SUFFIXES: Final = (".eml",)
_SEPARATOR: Final = re.compile(r"^-{20,}\s*$|^%{3,}.*$", re.MULTILINE)
_HEADER_LINE: Final = re.compile(r"([A-Za-z][A-Za-z-]{1,20}):\s?(.*)")
_ARXIV_ID: Final = re.compile(r"arXiv:(\d{4}\.\d{4,5}|[a-z.-]+/\d{7})", re.IGNORECASE)
_SLASHES: Final = re.compile(r"^\\\\", re.MULTILINE)


def sniff_arxiv(text: str, path: Path) -> Fit:
    """``Title:`` and ``Authors:`` lines between ``\\\\`` lines near the start."""
    head = text[:65536]
    if (
        _SLASHES.search(head)
        and re.search(r"^Title: ", head, re.MULTILINE)
        and re.search(r"^Authors?: ", head, re.MULTILINE)
    ):
        return Fit.HINTED
    return Fit.NAMED if path.suffix.lower() in ARXIV_SUFFIXES else Fit.NO


def _header(block: str) -> dict[str, str]:
    fields: dict[str, str] = {}
    last = ""
    for line in block.splitlines():
        match = _HEADER_LINE.fullmatch(line.rstrip())
        if match and not line[:1].isspace():
            last = match.group(1).casefold()
            fields.setdefault(last, match.group(2).strip())
        elif last and line.strip():  # a wrapped value goes on
            fields[last] = f"{fields[last]} {line.strip()}"
    return fields


def _entry(block: str) -> tuple[dict[str, Any] | None, str]:
    """The fields of one entry, or why it is no paper."""
    parts = _SLASHES.split(block)
    found = _ARXIV_ID.search(block)
    head = _header(parts[1] if len(parts) > 2 else block)
    if "title" not in head:
        return None, ""
    abstract = parts[2].strip() if len(parts) > 3 else ""
    if not abstract:
        return None, "a replacement notice (no abstract): the paper was in an earlier listing"
    fields: dict[str, Any] = {
        "title": head["title"],
        # as their authors typed them, TeX and all (``J\"org M\"uller``): in Unicode
        "authors": to_unicode(head.get("authors") or head.get("author", ""), markdown=False),
        "abstract": abstract,
        "keywords": head.get("categories", "").replace(" ", ", "),
        "venue": head.get("journal-ref") or find_venue(head.get("comments", "")).text,
        "code": head.get("comments", ""),
    }
    if found:
        fields["url"] = f"https://arxiv.org/abs/{found.group(1)}"
    return fields, ""


def read_arxiv(text: str, path: Path) -> ReadResult:
    """Every entry of an arXiv listing email (see the module)."""
    result = ReadResult(source=str(path), list_name=path.stem)
    number = 0
    for block in _SEPARATOR.split(text.replace("\r\n", "\n")):
        fields, why = _entry(block)
        if fields is None and not why:
            continue  # the mail's own header or footer
        number += 1
        if fields is None:
            result.errors.append(RecordError(result.source, number, why))
        else:
            result.add(number, fields)
    if number == 0:
        raise SourceError(f"{path}: not an arXiv listing (no Title:/Authors: entries)")
    return result


ARXIV_EMAIL = Reader(
    name="arXiv listing email",
    label="arXiv listing emails",
    suffixes=ARXIV_SUFFIXES,
    sniff=sniff_arxiv,
    read=read_arxiv,
)
