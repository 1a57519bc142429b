"""Taking papers out of the library, and putting them back when the removal is undone.

A removal is one undo step. Its papers leave ``papers.json``'s ``papers`` table for its
``removed`` table (under the step's token: the papers as they were, the papers whose lists
changed as they were, the lists taken out), and their decisions leave ``triage.json``'s
``decisions`` for the step itself: undo puts everything back as it was, redo takes it out
again. A paper is removed whole, or, when a list is removed, loses that list and stays in the
others it is in (it then goes last in its next list).

These functions change the tables of open transactions (``AtomicJSONStorage.writable_table``);
``Library.remove`` and ``Library.remove_list`` run them.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

from storage.files.atomic import AtomicJSONStorage
from storage.files.triage_file import Change, doc_id, now
from storage.importing import list_sizes
from storage.models import Status

#: ``papers.json``'s table of removed papers, by the token of their removal.
REMOVED_TABLE = "removed"


@dataclass(frozen=True, slots=True)
class Removal:
    """What a removal took out (or its undo put back)."""

    #: The papers taken out, in list order.
    ids: tuple[str, ...] = ()
    #: Their titles, in the same order (for messages).
    titles: tuple[str, ...] = ()
    #: The lists taken out.
    lists: tuple[str, ...] = ()
    #: Papers of a removed list that stay, being in another list too.
    kept: tuple[str, ...] = field(default=())

    def __bool__(self) -> bool:
        return bool(self.ids or self.lists)


@dataclass(frozen=True, slots=True)
class StepDone:
    """What an undo or redo did: the status changes, and the papers put back or taken out."""

    changes: list[Change] = field(default_factory=list)
    #: Papers an undone removal put back.
    restored: Removal | None = None
    #: Papers a redone removal took out again.
    removed: Removal | None = None


def _order(doc: Mapping[str, Any], orders: Mapping[str, int]) -> tuple[int, int]:
    return orders.get(doc["list"], len(orders)), doc.get("position", 0)


def take_out(
    papers: dict[str, Any],
    lists: dict[str, Any],
    removed: dict[str, Any],
    token: str,
    ids: Collection[str] = (),
    list_name: str | None = None,
) -> Removal:
    """Remove the papers ``ids`` (and, with ``list_name``, that list from every paper, taking
    out those left in no list), keeping what is needed to undo it under ``token``."""
    orders = {doc["name"]: int(key) for key, doc in lists.items()}
    gone: dict[str, Any] = {}
    changed: dict[str, Any] = {}
    for pid in ids:
        key = str(doc_id(pid))
        if key in papers:
            gone[key] = papers.pop(key)
    kept: list[str] = []
    list_docs: dict[str, Any] = {}
    if list_name is not None:
        list_docs = {k: d for k, d in lists.items() if d["name"] == list_name}
        ends: dict[str, int] = {}
        for doc in papers.values():
            ends[doc["list"]] = max(ends.get(doc["list"], -1), doc.get("position", 0))
        for key, doc in sorted(papers.items(), key=lambda kv: _order(kv[1], orders)):
            names = list(doc.get("lists") or [doc["list"]])
            if list_name not in names:
                continue
            others = [n for n in names if n != list_name]
            if not others:
                gone[key] = papers.pop(key)
                continue
            changed[key] = doc
            new = {**doc, "lists": others}
            if doc["list"] == list_name:  # it goes last in its next list
                ends[others[0]] = ends.get(others[0], -1) + 1
                new.update(list=others[0], position=ends[others[0]])
            papers[key] = new
            kept.append(doc["id"])
        for key in list_docs:
            del lists[key]
    if not gone and not list_docs:
        return Removal()
    removed[token] = {"at": round(now()), "papers": gone, "changed": changed, "lists": list_docs}
    list_sizes(papers, lists)
    ordered = sorted(gone.values(), key=lambda d: _order(d, orders))
    return Removal(
        ids=tuple(d["id"] for d in ordered),
        titles=tuple(d["title"] for d in ordered),
        lists=tuple(d["name"] for d in list_docs.values()),
        kept=tuple(kept),
    )


def put_back(
    papers: dict[str, Any], lists: dict[str, Any], removed: dict[str, Any], token: str
) -> Removal:
    """Undo the removal ``token``: its papers, lists and changed papers as they were."""
    payload = removed.pop(token, None)
    if not isinstance(payload, dict):
        return Removal()
    for key, doc in payload.get("lists", {}).items():
        taken = key in lists and lists[key]["name"] != doc["name"]
        lists[str(max((int(k) for k in lists), default=0) + 1) if taken else key] = doc
    papers.update(payload.get("changed", {}))
    back = payload.get("papers", {})
    for key, doc in back.items():
        papers.setdefault(key, doc)  # a paper imported again since then is kept as it is now
    list_sizes(papers, lists)
    return Removal(
        ids=tuple(d["id"] for d in back.values()),
        titles=tuple(d["title"] for d in back.values()),
        lists=tuple(d["name"] for d in payload.get("lists", {}).values()),
    )


def forget_unreferenced(removed: dict[str, Any], tokens: Collection[str]) -> None:
    """Drop the removed papers of removals no undo step refers to any more."""
    for token in [t for t in removed if t not in tokens]:
        del removed[token]


# -- within the transactions of both files (``Library`` opens them) ---------------------------


def take_out_of(
    papers: AtomicJSONStorage,
    history: Mapping[str, Any],
    token: str,
    ids: Collection[str],
    list_name: str | None,
) -> Removal:
    """``take_out`` on ``papers.json``'s tables, forgetting first the removed papers of steps
    no longer in ``history`` (``triage.json``'s undo log)."""
    removed = papers.writable_table(REMOVED_TABLE)
    forget_unreferenced(removed, {str(d.get("removal", {}).get("token")) for d in history.values()})
    return take_out(
        papers.writable_table("papers"),
        papers.writable_table("lists"),
        removed,
        token,
        ids,
        list_name,
    )


def pop_decisions(triage: AtomicJSONStorage, ids: Collection[str]) -> dict[str, Any]:
    """The decision documents of ``ids``, taken out of ``triage.json``'s ``decisions``."""
    table = triage.writable_table("decisions")
    found = {pid: table.pop(str(doc_id(pid)), None) for pid in ids}
    return {pid: doc for pid, doc in found.items() if doc}


def undo_removal(
    papers: AtomicJSONStorage, triage: AtomicJSONStorage, step: Mapping[str, Any]
) -> StepDone:
    """Put back what the removal step ``step`` took out, papers and decisions."""
    removal = step.get("removal", {})
    back = put_back(
        papers.writable_table("papers"),
        papers.writable_table("lists"),
        papers.writable_table(REMOVED_TABLE),
        str(removal.get("token")),
    )
    table = triage.writable_table("decisions")
    changes: list[Change] = []
    for pid in back.ids:
        decision = removal.get("decisions", {}).get(pid)
        if decision and str(doc_id(pid)) not in table:
            table[str(doc_id(pid))] = decision
        changes.append((pid, Status.INBOX, Status((decision or {}).get("status", "inbox"))))
    return StepDone(changes, restored=back)


def redo_removal(
    papers: AtomicJSONStorage,
    triage: AtomicJSONStorage,
    history: dict[str, Any],
    step: Mapping[str, Any],
) -> StepDone:
    """Take out again what the undone removal step ``step`` took out (``history`` is the
    writable undo log: the step keeps the decisions again)."""
    removal = step.get("removal", {})
    token = str(removal.get("token"))
    again = take_out_of(papers, history, token, removal.get("ids", ()), removal.get("list"))
    decisions = pop_decisions(triage, again.ids)
    for key, doc in list(history.items()):
        if doc.get("removal", {}).get("token") == token:
            history[key] = {**doc, "removal": {**removal, "decisions": decisions}}
    return StepDone(removed=again)
