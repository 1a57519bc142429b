"""The ``removed`` table of ``papers.json``: papers taken out, kept for an undo (pure).

A removal is one undo step (``triage.json`` keeps the step and the papers' decisions). Its
papers leave the ``papers`` table for the ``removed`` table, under the step's token: the papers
as they were, the papers whose lists changed as they were, the lists taken out. Undo puts
everything back as it was (but what the papers a list removal kept gained since: the lists
are put back on them as they are now), redo takes it out again. A paper is removed whole,
or, when a list is removed, loses that list and stays in the others it is in (it then goes
last in its next list). ``storage.files.papers_file`` runs these on the tables of its
transactions.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from storage.caps import MAX_LISTS
from storage.errors import LibraryError
from storage.files.triage_model import doc_id, now
from storage.models import Removal

#: ``papers.json``'s table of removed papers, by the token of their removal.
REMOVED_TABLE = "removed"


def list_sizes(papers: Mapping[str, Mapping[str, Any]], lists: dict[str, Any]) -> None:
    """Set each list's ``size``: the papers in it (a paper counts in every list it is in)."""
    sizes: dict[str, int] = {}
    for doc in papers.values():
        for name in doc.get("lists") or (doc["list"],):
            sizes[name] = sizes.get(name, 0) + 1
    for key, doc in list(lists.items()):
        lists[key] = {**doc, "size": sizes.get(doc["name"], 0)}


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
    """Undo the removal ``token``: its papers and lists as they were, the lists put back on the
    papers it changed (``_in_lists_again``)."""
    payload = removed.get(token)
    if not isinstance(payload, dict):
        removed.pop(token, None)
        return Removal()
    problem = _damage(payload)
    if problem:  # (written by hand: the change raises, and neither file is written)
        raise LibraryError(
            f"papers.json: the removal to undo is damaged ({problem}); nothing was undone"
        )
    del removed[token]
    for key, doc in payload.get("lists", {}).items():
        taken = key in lists and lists[key]["name"] != doc["name"]
        lists[str(max((int(k) for k in lists), default=0) + 1) if taken else key] = doc
    names = {doc.get("name") for doc in payload.get("lists", {}).values()}
    for key, doc in payload.get("changed", {}).items():
        papers[key] = _in_lists_again(doc, papers.get(key), names)
    back = payload.get("papers", {})
    for key, doc in back.items():
        papers.setdefault(key, doc)  # a paper imported again since then is kept as it is now
    return Removal(
        ids=tuple(d["id"] for d in back.values()),
        titles=tuple(d["title"] for d in back.values()),
        lists=tuple(d["name"] for d in payload.get("lists", {}).values()),
    )


def _damage(payload: Mapping[str, Any]) -> str:
    """What keeps a removal's payload from being put back ("" for nothing): the shapes
    ``take_out`` writes, papers with an id, a title and a list, lists with a name."""
    for part, label, noun, needs in _PARTS:
        table = payload.get(part, {})
        if not isinstance(table, dict):
            return f"its {label} are not a table"
        for key, doc in table.items():
            if not isinstance(doc, dict) or not all(isinstance(doc.get(n), str) for n in needs):
                return f"its {label} hold {key!r}, which is no {noun}"
            if part == "lists" and not key.isdigit():
                return f"its lists taken out hold one under {key!r}"
    return ""


#: A payload's tables, what they and their documents are called, and what each document
#: must hold (a paper's other fields are read leniently, as any paper's are).
_PARTS = (
    ("papers", "papers taken out", "paper", ("id", "title", "list")),
    ("changed", "papers changed", "paper", ("id", "title", "list")),
    ("lists", "lists taken out", "list", ("name",)),
)


def _in_lists_again(
    before: dict[str, Any], now: dict[str, Any] | None, names: Collection[str]
) -> dict[str, Any]:
    """A paper a list removal kept (in its other lists), put back in the lists ``names``: as
    it is now, what it gained since kept (a list imported into, one another device gave it:
    put back as it was, it lost them here and, sent by the next sync, everywhere), in its
    lists' order of before; first in the list taken out where it was first there."""
    if now is None or not isinstance(before, dict) or not isinstance(before.get("list"), str):
        return before  # taken out since (or no paper this version wrote): as it was
    was = list(before.get("lists") or (before["list"],))
    has = list(now.get("lists") or (now["list"],))
    lists = list(dict.fromkeys([n for n in was if n in names or n in has] + has))[:MAX_LISTS]
    if before["list"] not in names:
        return {**now, "lists": lists}
    return {**now, "lists": lists, "list": before["list"], "position": before.get("position", 0)}


def forget_unreferenced(removed: dict[str, Any], tokens: Collection[str]) -> None:
    """Drop the removed papers of removals no undo step refers to any more."""
    for token in [t for t in removed if t not in tokens]:
        del removed[token]
