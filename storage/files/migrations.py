"""The library's files of older schemas, brought up to date when read (pure: tables in, out).

``papers.json`` schema 1 gave every paper the hash of its abstract's letters and digits; schema
2 takes the id of ``storage.importing.identity`` (LaTeX and Unicode forms of one abstract match,
numbers and operators must agree, placeholders are no abstract). ``migrate_papers`` gives
every paper its new id (two papers that are now one are merged) and keeps the old → new ids in
the ``renamed`` table, so that ``triage.json`` can follow at any later time: ``migrate_triage``
moves decisions and the undo log to the new ids (schema 3), given the renamed ids that
``papers.json`` holds whatever its schema.

``triage.json`` schema 1 kept one history document per change with TinyDB's counter ids;
schema 2 groups changes into steps and keys decisions by paper id.

Only the owners of the two files call these (``papers_file``, ``triage_file``), and the reader
of another library's files (``storage.sources.library_files``) through them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from storage.files.atomic import Tables
from storage.files.triage_model import Step, count_day, doc_id

#: The table of ``papers.json`` that maps ids of schema 1 to their schema-2 ids.
RENAMED_TABLE = "renamed"


def _new_id(doc: Mapping[str, Any]) -> str:
    from storage.sources.papers import paper_id

    title = "" if doc.get("title_derived") else str(doc.get("title", ""))
    authors = doc.get("authors")
    named = [str(a) for a in authors] if isinstance(authors, list) else []
    return paper_id(str(doc.get("abstract", "")), title, named)


def _merge_docs(first: dict[str, Any], second: Mapping[str, Any]) -> dict[str, Any]:
    """Two stored papers found to be one: the first, its empty fields filled, links and lists
    of both."""
    merged = dict(first)
    for name, value in second.items():
        if name in ("github", "lists", "keywords", "authors") and isinstance(value, list):
            merged[name] = list(dict.fromkeys([*merged.get(name, []), *value]))
        elif not merged.get(name) and value:
            merged[name] = value
    return merged


def migrate_papers(tables: Tables, version: int) -> Tables:
    """``papers.json`` of schema 1 with schema-2 ids (see the module); later schemas as they
    are."""
    if version >= 2:
        return tables
    papers: dict[str, Any] = {}
    renamed: dict[str, Any] = dict(tables.get(RENAMED_TABLE, {}))
    for doc in tables.get("papers", {}).values():
        old, new = str(doc["id"]), _new_id(doc)
        key = str(doc_id(new))
        papers[key] = _merge_docs(papers[key], doc) if key in papers else {**doc, "id": new}
        papers[key]["id"] = new
        if old != new:
            renamed[str(doc_id(old))] = {"old": old, "new": new}
    return {**tables, "papers": papers, RENAMED_TABLE: renamed}


def renamed_ids(tables: Tables) -> dict[str, str]:
    """Old id → new id, from the tables of an up-to-date ``papers.json``."""
    return {
        doc["old"]: doc["new"]
        for doc in tables.get(RENAMED_TABLE, {}).values()
        if isinstance(doc, dict) and isinstance(doc.get("old"), str)
    }


def triage_from_v1(tables: Tables) -> Tables:
    """``triage.json`` of schema 1 as schema 2 (see the module)."""
    decisions: dict[str, Any] = {}
    for doc in tables.get("decisions", {}).values():
        pid = str(doc.get("id") or doc.get("paper_id", ""))
        if pid:
            decisions[str(doc_id(pid))] = {
                k: v for k, v in doc.items() if k not in ("id", "paper_id")
            }
    history: dict[str, Any] = {}
    for seq, doc in enumerate(tables.get("history", {}).values(), start=1):
        if "changes" in doc:
            history[str(seq)] = doc
        else:
            change = [doc["id"], doc.get("old", "inbox"), doc["new"]]
            history[str(seq)] = {"at": doc.get("at", 0.0), "changes": [change], "undone": False}
    days: dict[int, dict[str, Any]] = {}
    for doc in history.values():
        step = Step.from_doc(0, doc)
        count_day(days, step.changes, step.at, 1)
    return {
        **tables,
        "decisions": decisions,
        "history": history,
        "days": {str(k): v for k, v in days.items()},
    }


def _later(first: Mapping[str, Any], second: Mapping[str, Any]) -> dict[str, Any]:
    """Two decisions of papers found to be one: the later status, both notes, all tags."""
    newer, older = (second, first) if second.get("at", 0) >= first.get("at", 0) else (first, second)
    merged = dict(newer)
    notes = [n for n in (older.get("note"), newer.get("note")) if n]
    if notes:
        merged["note"] = "\n\n".join(dict.fromkeys(notes))
    tags = [*older.get("tags", ()), *newer.get("tags", ())]
    if tags:
        merged["tags"] = list(dict.fromkeys(tags))
    return merged


def _rekeyed(tables: Tables, renamed: Mapping[str, str]) -> Tables:
    """Decisions and undo steps moved from old ids to new ones."""
    if not renamed:
        return tables
    decisions: dict[str, Any] = {}
    for key, doc in tables.get("decisions", {}).items():
        old = str(doc.get("id") or f"{int(key):012x}")
        new_key = str(doc_id(renamed.get(old, old)))
        decisions[new_key] = _later(decisions[new_key], doc) if new_key in decisions else doc
    history: dict[str, Any] = {}
    for seq, doc in tables.get("history", {}).items():
        changes = [[renamed.get(c[0], c[0]), *c[1:]] for c in doc.get("changes", ())]
        history[seq] = {**doc, "changes": changes}
    return {**tables, "decisions": decisions, "history": history}


def migrate_triage(tables: Tables, version: int, renamed: Mapping[str, str]) -> Tables:
    """``triage.json`` of schema ``version`` brought to the current one; ``renamed``: the ids
    ``papers.json`` renamed (``renamed_ids``)."""
    if version < 2:
        tables = triage_from_v1(tables)
    if version < 3:
        tables = _rekeyed(tables, renamed)
    return tables
