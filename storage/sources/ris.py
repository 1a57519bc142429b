"""RIS (``.ris``): what Zotero, Mendeley, EndNote and Google Scholar export, one tag a line.

A small reader of our own rather than ``rispy``: RIS is a line format of two-letter tags, and
what a paper list needs of it fits here, read leniently the way files in the wild are written
(``TY  - `` or ``TY - ``, a last record without ``ER``, wrapped lines continuing a value),
in one pass over the lines: linear and total on any text. rispy reads ``TY - JOUR`` (one
space) as nothing, drops a last record without ``ER``, and would be one more dependency.

Tags read: ``TY`` (starts a record), ``ER`` (ends it), ``TI``/``T1``/``CT`` (title), ``AU``/
``A1`` (authors, ``Last, First``), ``AB``/``N2`` (abstract), ``UR``/``L2`` (links), ``DO``
(DOI), ``PY``/``Y1``/``DA`` (year), ``T2``/``BT``/``JO``/``JF``/``J2``/``T3`` (venue),
``KW`` (keywords), ``N1`` (a note: code links in it are kept).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Final

from storage.errors import SourceError
from storage.sources.records import Fit, Reader, ReadResult

RIS_SUFFIXES: Final = (".ris",)
_TAG: Final = re.compile(r"([A-Z][A-Z0-9]) {0,2}-(?: (.*)|$)")
_FIELDS: Final = {
    "TI": "title", "T1": "title", "CT": "title",
    "AU": "authors", "A1": "authors",
    "AB": "abstract", "N2": "abstract",
    "UR": "url", "L2": "url", "DO": "doi",
    "PY": "year", "Y1": "year", "DA": "year",
    "T2": "venue", "BT": "venue", "JO": "venue", "JF": "venue", "J2": "venue", "T3": "venue",
    "KW": "keywords", "N1": "code",
}  # fmt: skip
_LISTS: Final = frozenset({"authors", "url", "keywords", "code"})


def sniff_ris(text: str, path: Path) -> Fit:
    """The name says RIS, or the first line is a ``TY  -`` tag."""
    if path.suffix.lower() in RIS_SUFFIXES:
        return Fit.NAMED
    start = text.lstrip()[:64]
    return Fit.OPENS if re.match(r"TY {0,2}- ", start) else Fit.NO


def _name(value: str) -> str:
    """``Lee, Ann`` → ``Ann Lee``."""
    last, comma, first = value.partition(",")
    return " ".join(f"{first} {last}".split()) if comma and first.strip() else value.strip()


def _record(tags: list[tuple[str, str]]) -> dict[str, Any]:
    fields: dict[str, Any] = {}
    for tag, value in tags:
        name = _FIELDS.get(tag)
        if name is None or not value.strip():
            continue
        if name in _LISTS:
            fields.setdefault(name, []).append(_name(value) if name == "authors" else value)
        elif name == "year":
            fields.setdefault(name, value.strip()[:4])
        else:
            fields.setdefault(name, value.strip())
    if "doi" in fields:
        doi = str(fields["doi"]).removeprefix("https://doi.org/")
        fields.setdefault("url", []).append(f"https://doi.org/{doi}")
    if "code" in fields:
        fields["code"] = " ".join(fields["code"])
    return fields


def read_ris(text: str, path: Path) -> ReadResult:
    """Every ``TY`` … ``ER`` record of a RIS file (see the module)."""
    result = ReadResult(source=str(path), list_name=path.stem)
    tags: list[tuple[str, str]] | None = None
    number = 0
    for line in text.splitlines():
        match = _TAG.fullmatch(line.rstrip())
        if match is None:
            if tags and line.strip():  # a wrapped value goes on
                tag, value = tags[-1]
                tags[-1] = (tag, f"{value} {line.strip()}")
            continue
        tag, value = match.group(1), match.group(2) or ""
        if tag == "TY":
            if tags is not None:  # the previous record had no ER
                number += 1
                result.add(number, _record(tags))
            tags = []
        elif tag == "ER":
            if tags is not None:
                number += 1
                result.add(number, _record(tags))
            tags = None
        elif tags is not None:
            tags.append((tag, value))
    if tags is not None:
        number += 1
        result.add(number, _record(tags))
    if number == 0:
        raise SourceError(f"{path}: not a RIS file (no record starts with a TY line)")
    return result


RIS = Reader(name="RIS", label="RIS", suffixes=RIS_SUFFIXES, sniff=sniff_ris, read=read_ris)
