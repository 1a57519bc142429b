"""Writing a merge into the library: through its own locked, atomic transactions.

Papers first (documents into ``papers.json``; removals through ``Library.remove``, so that
a removal that arrives keeps the papers' decisions in an undo step as a removal made here
does), then the triage in one ``triage.json`` transaction that also marks the merge written
(``SyncState.pending`` is kept until then). A running app sees the change as it sees another
process's: its session reloads ``triage.json`` when it changed on disk.

A status that arrives from another device takes its paper out of this device's undo steps:
undo here undoes what was decided here, and never puts back a decision made elsewhere since.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Mapping
from typing import Any

from storage.errors import UnknownPaperError
from storage.files.triage_file import count_day, doc_id, now
from storage.importing import list_sizes
from storage.library import Library
from storage.models import Status
from storage.sync.merge import Plan
from storage.sync.records import NOTE, STATUS, TAGS

#: The table of ``triage.json`` that marks the last merge written from each folder.
SYNC_TABLE = "sync"
#: What an undo step may hold besides its changes and still be dropped once they are gone.
_PLAIN_STEP = frozenset({"at", "changes", "undone", "kind"})


def apply_plan(library: Library, plan: Plan, marker: tuple[str, int]) -> Counter[str]:
    """Write ``plan`` into the library; ``marker``: (folder key, merge generation). Returns
    what changed: statuses, notes, tags, papers (added or updated), removals."""
    done: Counter[str] = Counter()
    written = {pid: doc for pid, doc in plan.papers.items() if doc is not None}
    if written:
        _write_papers(library, written)
        done["papers"] += len(written)
    gone = [pid for pid, doc in plan.papers.items() if doc is None]
    if gone:
        done["removals"] += _remove(library, gone)
    store = library.sync_store("triage")
    with store.transaction():
        decisions = (store.read() or {}).get("decisions", {})
        docs = {pid: dict(decisions.get(str(doc_id(pid))) or {}) for pid in plan.triage}
        decided: list[tuple[str, Status, Status, int]] = []
        for pid, values in plan.triage.items():
            doc = docs[pid]
            if STATUS in values:
                old = Status(doc.get("status", Status.INBOX.value))
                decided.append((pid, old, Status(values[STATUS]), plan.stamps[pid]))
                doc["status"] = values[STATUS]
                doc["at"] = round(plan.stamps[pid] / 1000)
                done["statuses"] += 1
            if NOTE in values:
                doc["note"] = values[NOTE]
                done["notes"] += 1
            if TAGS in values:
                doc["tags"] = list(values[TAGS])
                done["tags"] += 1
        library.save_synced_decisions(docs)
        if decided:
            _leave_undo_steps(store.writable_table("history"), {d[0] for d in decided})
            _count_days(store.writable_table("days"), decided)
        key, generation = marker
        store.writable_table(SYNC_TABLE)[key] = {"generation": generation}
    return done


def written_generation(tables: Mapping[str, Any], key: str) -> int | None:
    """The generation of the last merge from a folder that ``triage.json`` holds."""
    mark = tables.get(SYNC_TABLE, {}).get(key)
    found = mark.get("generation") if isinstance(mark, dict) else None
    return found if isinstance(found, int) else None


def _write_papers(library: Library, docs: Mapping[str, dict[str, Any]]) -> None:
    """Papers into ``papers.json``, their lists created as needed (after the lists there)."""
    store = library.sync_store("papers")
    with store.transaction():
        papers = store.writable_table("papers")
        lists = store.writable_table("lists")
        names = {doc.get("name") for doc in lists.values()}
        for pid, doc in docs.items():
            papers[str(doc_id(pid))] = doc
            for name in (doc["list"], *doc.get("lists", ())):
                if name not in names:
                    key = str(max((int(k) for k in lists), default=0) + 1)
                    lists[key] = {"name": name, "sources": {}, "at": round(now())}
                    names.add(name)
        list_sizes(papers, lists)


def _remove(library: Library, pids: Collection[str]) -> int:
    """Take papers out as ``Library.remove`` does (one undo step); returns how many went."""
    present = library.loaded_papers()
    here = [pid for pid in pids if present.row_of(pid) is not None]
    if not here:
        return 0
    try:
        return len(library.remove(here).ids)
    except UnknownPaperError:  # gone meanwhile: nothing left to take out
        return 0


def _leave_undo_steps(history: dict[str, Any], pids: Collection[str]) -> None:
    """Take ``pids`` out of this device's undo steps (a decision from elsewhere replaced
    theirs); a step left with nothing to undo goes."""
    for key, doc in list(history.items()):
        changes = doc.get("changes") or []
        kept = [c for c in changes if not (isinstance(c, list) and c and c[0] in pids)]
        if len(kept) == len(changes):
            continue
        if kept or not set(doc) <= _PLAIN_STEP:
            history[key] = {**doc, "changes": kept}
        else:
            del history[key]


def _count_days(days: dict[str, Any], decided: list[tuple[str, Status, Status, int]]) -> None:
    """Decisions that arrive count in the day they were made, as this device's own do."""
    raw = {int(k): v for k, v in days.items()}
    for pid, old, new, stamp in decided:
        count_day(raw, [(pid, old, new)], stamp / 1000, 1)
    for key, doc in raw.items():
        days[str(key)] = doc
