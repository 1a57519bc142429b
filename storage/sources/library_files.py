"""Another papers-tui library: its folder, or its ``papers.json``, restores its papers whole.

Every paper comes back with its lists, venue and extra fields, in the library's list order;
when ``triage.json`` sits beside ``papers.json`` (a library folder, a copy of one), each
paper also brings its decision: status, note, tags and when it was made (of any schema of the
file: ids of older libraries are matched through the papers' own documents). Imported into
another library, those decisions go to papers still in its Inbox (see
``storage.importing``). A folder import meets ``triage.json`` too: it adds no paper of its
own (its decisions came with ``papers.json``).

The files are recognised by name and content (``"kind": "papers"`` in their ``meta`` table),
never by suffix alone: ``.json`` is JSON's.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import orjson

from storage.errors import SourceError
from storage.models import Decision, RecordError, Status
from storage.sources.fields import decision_of
from storage.sources.records import Fit, Reader, ReadResult, opening

#: The file names of a library, and the kind each declares in its ``meta`` table.
KINDS = {"papers.json": "papers", "triage.json": "triage"}


def _declared_kind(text: str) -> str:
    """The ``kind`` a library file's ``meta`` table declares ("" for none), found cheaply."""
    for kind in KINDS.values():
        if f'"kind":"{kind}"' in text or f'"kind": "{kind}"' in text:
            return kind
    return ""


def sniff_library(text: str, path: Path) -> Fit:
    """A library's own file: its name, a JSON object, and the kind it declares."""
    if path.name.lower() in KINDS and opening(text) == "{" and _declared_kind(text):
        return Fit.OPENS
    return Fit.NO


def _tables(text: str, path: Path) -> dict[str, Any]:
    try:
        data = orjson.loads(text)
    except orjson.JSONDecodeError as exc:
        raise SourceError(f"{path}: not valid JSON (line {exc.lineno}: {exc.msg})") from None
    if not isinstance(data, dict):
        raise SourceError(f"{path}: not a papers-tui library file")
    return data


def _decisions(folder: Path) -> tuple[dict[str, Decision], str]:
    """The decisions of the ``triage.json`` beside a ``papers.json``, by paper id, and what
    was left out of them, one line ("" for nothing): a file that does not parse, or damaged
    decisions, leave the papers coming all the same."""
    from storage.files.atomic import read_regular, schema_of
    from storage.files.migrations import triage_from_v1

    path = folder / "triage.json"
    left_out = f"{path}: does not parse; its decisions were left out (the papers came)"
    try:
        tables = orjson.loads(read_regular(path))
    except FileNotFoundError:
        return {}, ""
    except (OSError, orjson.JSONDecodeError, RecursionError):
        return {}, left_out
    if not isinstance(tables, dict):
        return {}, left_out
    try:
        if schema_of(tables) < 2:
            tables = triage_from_v1(tables)
    except (KeyError, TypeError, ValueError, AttributeError, OverflowError, RecursionError):
        return {}, left_out
    if not isinstance(tables.get("decisions"), dict):
        return {}, left_out if "decisions" in tables else ""
    found: dict[str, Decision] = {}
    damaged = 0
    for key, doc in tables.get("decisions", {}).items():
        # a document id is a 12-hex-digit paper id as a number: a few digits, never thousands
        if not isinstance(doc, dict) or not str(key).isdigit() or len(str(key)) > 20:
            damaged += 1
            continue
        try:
            pid = str(doc.get("id") or f"{int(key):012x}")
            found_at = {"decided_at": doc.get("at"), "queue_position": doc.get("q")}
            decision = decision_of({**doc, **found_at})
        except (ValueError, TypeError, OverflowError, RecursionError):
            damaged += 1
            continue
        if decision is not None:
            found[pid] = decision
    note = f"{path}: {damaged:,} damaged decisions were left out" if damaged else ""
    return found, note


def _order(tables: Mapping[str, Any]) -> dict[str, int]:
    lists = tables.get("lists", {})
    if not isinstance(lists, dict):
        return {}
    return {
        doc["name"]: int(key)
        for key, doc in lists.items()
        if isinstance(doc, dict)
        and isinstance(doc.get("name"), str)
        and str(key).isdigit()
        and len(str(key)) <= 20
    }


def read_library(text: str, path: Path) -> ReadResult:
    """The papers of a library's ``papers.json`` (with the decisions of its ``triage.json``);
    a ``triage.json`` alone gives none."""
    tables = _tables(text, path)
    result = ReadResult(source=str(path), list_name=path.parent.name or path.stem)
    if _declared_kind(text) == "triage" and "papers" not in tables:
        return result  # its decisions come with papers.json
    papers = tables.get("papers", {})
    if not isinstance(papers, dict):
        raise SourceError(f"{path}: not a papers-tui library file (no papers table)")
    decisions, left_out = _decisions(path.parent)
    if left_out:
        result.warnings.append(left_out)
    order = _order(tables)

    def place(doc: Any) -> tuple[int, int]:
        if not isinstance(doc, dict):
            return (len(order) + 1, 0)
        name, position = doc.get("list"), doc.get("position", 0)
        return order.get(name if isinstance(name, str) else "", len(order)), (
            position if isinstance(position, int) else 0
        )

    for number, doc in enumerate(sorted(papers.values(), key=place), start=1):
        if not isinstance(doc, dict):
            result.errors.append(RecordError(result.source, number, "not an object"))
            continue
        fields = {str(k).lower(): v for k, v in doc.items() if k != "status"}
        extra = doc.get("extra")
        if isinstance(extra, list):  # stored as (name, value) pairs
            fields["extra"] = {p[0]: p[1] for p in extra if isinstance(p, list) and len(p) == 2}
        decision = decisions.get(str(doc.get("id", "")))
        if decision is not None:
            fields.update(
                status=(decision.status or Status.INBOX).value,  # its Inbox
                note=decision.note,
                tags=list(decision.tags),
                decided_at=decision.at,
                queue_position=decision.position,
            )
        elif fields.get("venue_status") in {s.value for s in Status}:
            fields["venue_status"] = ""
        result.add(number, fields)
    return result


LIBRARY = Reader(
    name="papers-tui library",
    label="papers-tui library",
    suffixes=(".papers-tui",),
    sniff=sniff_library,
    read=read_library,
)
