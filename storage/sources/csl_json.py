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
from storage.sources.records import Fit, Reader, ReadResult, opening

CSL_SUFFIXES: Final = (".csl-json",)
_CSL_KEYS: Final = re.compile(r'"(?:container-title|date-parts|citation-key|family)"\s*:')
_TYPE_KEY: Final = re.compile(r'"type"\s*:')


def sniff_csl_json(text: str, path: Path) -> Fit:
    """JSON whose start holds CSL's ``type`` and one of its own names (``container-title``…)."""
    if path.suffix.lower() in CSL_SUFFIXES:
        return Fit.NAMED
    head = text[:8192]
    if opening(text) in ("[", "{") and _TYPE_KEY.search(head) and _CSL_KEYS.search(head):
        return Fit.OPENS
    return Fit.NO


def _names(value: Any) -> list[str]:
    names: list[str] = []
    for person in value if isinstance(value, list) else []:
        if not isinstance(person, Mapping):
            continue
        parts = [person.get(k) for k in ("given", "non-dropping-particle", "family", "suffix")]
        name = " ".join(p for p in parts if isinstance(p, str) and p.strip())
        literal = person.get("literal")
        name = name or (literal if isinstance(literal, str) else "")
        if name.strip():
            names.append(" ".join(name.split()))
    return names


def _year(value: Any) -> str:
    if isinstance(value, Mapping):
        parts = value.get("date-parts")
        if isinstance(parts, list) and parts and isinstance(parts[0], list) and parts[0]:
            return str(parts[0][0])[:4]
        raw = value.get("raw") or value.get("literal")
        return str(raw)[:4] if isinstance(raw, str | int) else ""
    return ""


def csl_fields(item: Mapping[str, Any]) -> dict[str, Any]:
    """A CSL item's fields under the names ``record_from_fields`` reads."""
    fields: dict[str, Any] = {str(k).lower(): v for k, v in item.items()}
    fields["authors"] = _names(item.get("author"))
    fields["venue"] = item.get("container-title") or item.get("event-title") or ""
    fields["year"] = _year(item.get("issued"))
    links = [item.get("URL")]
    if isinstance(item.get("DOI"), str):
        links.append("https://doi.org/" + item["DOI"].removeprefix("https://doi.org/"))
    fields["url"] = [u for u in links if isinstance(u, str)]
    fields["keywords"] = item.get("keyword", "")
    fields["code"] = item.get("note", "")
    fields.pop("author", None)
    fields.pop("note", None)  # CSL's note is no triage note (its code links are kept)
    fields.pop("status", None)  # CSL's publication status is neither ours nor the venue's
    return fields


def read_csl_json(text: str, path: Path) -> ReadResult:
    """A CSL-JSON array of items (or an object holding one under ``items``)."""
    try:
        data = orjson.loads(text)
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
