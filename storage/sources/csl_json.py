"""CSL-JSON: the citation format of Zotero ("CSL JSON" export), pandoc and citeproc.

An array of items with ``type``, ``title``, ``author`` (``{"family", "given"}`` or
``{"literal"}``), ``abstract``, ``URL``, ``DOI``, ``issued`` (``{"date-parts": [[2025]]}``),
``container-title`` and ``keyword``. Such files are named ``.json``: they are told from other
JSON by their content (the sniff looks for CSL's own field names at the start), and read
before the generic JSON reader would.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

import orjson

from storage.errors import SourceError
from storage.models import RecordError
from storage.sources.authors import ended_with_et_al
from storage.sources.citation import FROM_CSL
from storage.sources.fields import year_in
from storage.sources.json_lists import loads
from storage.sources.records import Fit, Reader, ReadResult, note_and_code, opening
from storage.text.latex import literal

CSL_SUFFIXES: Final = (".csl-json",)
#: How our export names its files (``storage.export.csl_json``): a name, not a suffix.
CSL_ENDINGS: Final = (".csl.json", *CSL_SUFFIXES)
#: CSL's own names: its container, dates, key, names, and ``custom`` (which ours fills).
_CSL_KEYS: Final = re.compile(r'"(?:container-title|date-parts|citation-key|family|custom)"\s*:')
_TYPE_KEY: Final = re.compile(r'"type"\s*:')


def sniff_csl_json(text: str, path: Path) -> Fit:
    """JSON named as CSL-JSON (``.csl.json``, ``.csl-json``), or whose start holds CSL's
    ``type`` and one of its own names (``container-title``…)."""
    named = path.name.lower().endswith(CSL_ENDINGS)
    if opening(text) in ("[", "{"):  # JSON: CSL's by its name or its names (else JSON's)
        head = text[:8192]
        if named or (_TYPE_KEY.search(head) and _CSL_KEYS.search(head)):
            return Fit.OPENS
    return Fit.NAMED if named else Fit.NO


def _names(value: Any) -> list[str]:
    """CSL's names as the library keeps them: ``given``, the particles, ``family`` and
    ``suffix`` in reading order (``Ludwig van Beethoven``), or a ``literal``; a last
    ``{"literal": "others"}`` (pandoc's "et al.") is ``ET_AL``."""
    names: list[str] = []
    for person in value if isinstance(value, list) else []:
        if not isinstance(person, Mapping):
            continue
        parts = [person.get(k) for k in _NAME_PARTS]
        name = " ".join(p for p in parts if isinstance(p, str) and p.strip())
        literal = person.get("literal")
        name = name or (literal if isinstance(literal, str) else "")
        if name.strip():
            names.append(" ".join(name.split()))
    return ended_with_et_al(names)


#: The parts of a CSL name in the order they are read.
_NAME_PARTS: Final = ("given", "dropping-particle", "non-dropping-particle", "family", "suffix")


def _date(value: Any) -> tuple[str, str, str]:
    """(year, month, ISO date when the day is known) of a CSL date."""
    if isinstance(value, list) and value:  # some writers give the date-parts list itself
        value = {"date-parts": value}
    if not isinstance(value, Mapping):
        return "", "", ""
    parts = value.get("date-parts")
    if isinstance(parts, list) and parts and isinstance(parts[0], list) and parts[0]:
        numbers = [str(p) for p in parts[0][:3] if isinstance(p, int | str) and str(p).isdigit()]
        if not numbers:
            return "", "", ""
        year, month = numbers[0][:4], numbers[1] if len(numbers) > 1 else ""
        day = f"{int(year):04d}-{int(month):02d}-{int(numbers[2]):02d}" if len(numbers) > 2 else ""
        return year, month, day
    raw = value.get("raw") or value.get("literal")
    if isinstance(raw, bool) or not isinstance(raw, str | int):
        return "", "", ""
    text = " ".join(str(raw).split())[:100]
    iso = re.fullmatch(r"(\d{4})-(\d{1,2})(?:-(\d{1,2}))?(?:[T ].*)?", text)
    if iso is None:  # "May 2023", "Spring 2022"
        found = year_in(text)
        return ("" if found is None else str(found)), "", ""
    year, month, day = iso.groups()
    return year, month, f"{year}-{int(month):02d}-{int(day):02d}" if day else ""


def csl_fields(item: Mapping[str, Any]) -> dict[str, Any]:
    """A CSL item's fields under the names ``record_from_fields`` reads."""
    fields: dict[str, Any] = {str(k).lower(): v for k, v in item.items()}
    kind = FROM_CSL.get(str(item.get("type", "")).strip(), "misc")
    fields["entry_type"] = kind
    fields["authors"] = _names(item.get("author"))
    container = item.get("container-title") or item.get("event-title") or ""
    if isinstance(container, list):  # CSL-JSON of some writers: a list of titles
        container = next((c for c in container if isinstance(c, str)), "")
    fields["venue"] = container
    fields["journal"] = container if kind == "article" else ""
    fields["booktitle"] = container if kind in ("inproceedings", "incollection") else ""
    fields["year"], fields["month"], fields["date"] = _date(item.get("issued"))
    publisher = item.get("publisher")
    if kind == "phdthesis":
        fields["school"], fields["publisher"] = publisher, None
    elif kind == "techreport":
        fields["institution"], fields["publisher"] = publisher, None
    archive, location = item.get("archive"), item.get("archive_location")
    if isinstance(archive, str) and isinstance(location, str):
        fields["archiveprefix"], fields["eprint"] = archive, location
    url = item.get("URL")
    fields["url"] = url if isinstance(url, str) else ""
    fields["keywords"] = item.get("keyword", "")
    note, code = note_and_code(item.get("note"))
    fields["bib_note"], fields["code"] = note, code
    fields.pop("author", None)
    fields.pop("note", None)  # CSL's note is no triage note (its code links are kept)
    fields.pop("status", None)  # CSL's publication status is neither ours nor the venue's
    fields.pop("number", None)  # a report's number, not an issue
    fields.pop("type", None)
    custom = item.get("custom")
    if isinstance(custom, Mapping) and "lists" in custom:  # ours: display text, kept as such
        fields["lists"] = custom.get("lists")
        fields["links_given"] = True
        for name in ("title", "abstract"):
            if isinstance(fields.get(name), str):
                fields[name] = literal(fields[name])
    return fields


def read_csl_json(text: str, path: Path) -> ReadResult:
    """A CSL-JSON array of items (or an object holding one under ``items``)."""
    try:
        data = loads(text)
    except orjson.JSONDecodeError as exc:
        raise SourceError(f"{path}: not valid JSON (line {exc.lineno}: {exc.msg})") from None
    items = data.get("items") if isinstance(data, dict) else data
    if isinstance(data, dict) and items is None:
        items = [data]
    if not isinstance(items, list):
        raise SourceError(f"{path}: not CSL-JSON (expected an array of items)")
    result = ReadResult(source=str(path), list_name=path.stem)
    for number, item in enumerate(items, start=1):
        if isinstance(item, Mapping):
            result.add(number, csl_fields(item))
        else:
            result.errors.append(RecordError(result.source, number, "not an object"))
    return result


CSL_JSON = Reader(
    name="CSL-JSON",
    label="CSL-JSON",
    suffixes=CSL_SUFFIXES,
    sniff=sniff_csl_json,
    read=read_csl_json,
)
