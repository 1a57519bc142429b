"""A device's first sync: its library joined to the folder's as an import joins a list.

A paper's document is one register, the later record's whole (``storage.sync.records``). A
device that imported papers before it first synced sends them stamped when sent, after every
record it read; where the folder holds the same paper with more (another list, its code
links from a second file), the later whole took that out on every device: a library that
imported ICLR 2025 and then its code links, joined by a device that imported ICLR 2025 alone,
lost 339 papers' links and 603 papers' second list.

On a device's first sync with a folder (``first_sync``) nothing here was written over what the
folder holds: nothing the folder has that this library lacks was taken out here. So each
paper both hold is sent as the folder's document with this library's merged in, as an import
merges a record into a stored paper (``storage.importing.resolve.merge_paper``: lists and
links joined, empty fields wiping nothing, this library's values otherwise); the join is
written here too. A paper the folder holds as removed is sent as this library has it, as
before: nothing was removed here. A list this library took out itself (an undo away) stays
out of its joins: a library whose memory of the folder went (``HOME/sync`` deleted, a HOME
copied where the folder has another path) is taken for one that never synced, and a list it
took out since its last sync came back everywhere.

Later syncs change nothing of this: a change made here after the join is made over it, and
sent whole as ever. Two devices that both send before either has read the other (their first
syncs at once) still keep the later record's whole.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from storage.files.papers_file import paper_from_doc, paper_to_doc
from storage.sync.merge import Folded, clean_paper, held_document
from storage.sync.records import PAPER, paper_digest
from storage.sync.refill import records_of_rows
from storage.sync.state import SyncState

if TYPE_CHECKING:
    from storage.library import Library
    from storage.models import Paper


def first_sync(state: SyncState, device: str, *, kept: bool, lost: bool) -> bool:
    """Whether this sync is the device's first with the folder: its state is new (``fresh``)
    and neither lost (unreadable, damaged: the device synced before, and a change made here
    since, such as a list taken out, would be taken back by the join) nor gone with the
    folder holding this device's records (its file deleted) — ``kept``: the state file is
    there, noted by a first sync cut short, which the next one finishes."""
    return state.fresh and not lost and (kept or device not in state.devices)


def joined(
    candidates: Sequence[tuple[str, dict[str, Any] | None]],
    state: SyncState,
    folded: Folded,
    library: Library,
) -> list[tuple[str, dict[str, Any] | None]]:
    """``candidates`` (papers changed here: id, document or None), each paper the folder holds
    too (its register's holder, read this sync: ``folded``, or sent by this device's sync cut
    short before it wrote the join: in ``state``'s outbox) as that document with this
    library's merged in; a join that is not this library's document is put in ``folded`` to
    be written here. Those the folder holds as they are here are left out, digested once (a
    first sync of 20,000 such took 0.2 s more, each digested twice).

    A paper the folder holds as this device sent it (a first sync cut short once it noted its
    state, which keeps ``SyncState.papers_writes`` as the ``library``'s papers.json was when
    it joined) is not joined again when papers.json was written since, by that sync's merge
    or by a change made here over its joins (a list taken out here since came back
    everywhere): the change is sent whole, as any later one.
    """
    from storage.importing.resolve import merge_paper

    registers, device = state.registers[PAPER], state.device
    written = library.papers_file.writes() != state.papers_writes
    taken_out = library.papers_file.lists_taken_out()
    sent = {r.paper: r.value for r in records_of_rows(state.outbox) if r.value}
    found: list[tuple[str, dict[str, Any] | None]] = []
    for pid, doc in candidates:
        held = registers.get(pid)
        if doc is None or held is None or held[2] is None or (written and held[1] == device):
            found.append((pid, doc))
            continue
        digest = paper_digest(doc)
        if digest in held[2:]:  # as the folder holds it (most, at a first sync): not sent
            continue
        theirs = held_document(held, (folded.docs.get(pid), sent.get(pid)))
        clean = clean_paper(pid, theirs)[0] if theirs is not None else None
        if clean is None:
            found.append((pid, doc))
            continue
        join = paper_to_doc(merge_paper(_listed(clean), _listed(doc)))
        if taken_out.intersection(join.get("lists") or ()):
            join = _without(join, taken_out, doc)
        if paper_digest(join) != digest:
            folded.docs[pid] = join
            folded.changed[PAPER].add(pid)
        found.append((pid, join))
    return found


def _listed(doc: dict[str, Any]) -> Paper:
    """The paper ``doc``, its lists naming its list when it holds none (``lists`` empty or
    left out: every reader takes that for ``[list]``; joined as it was, its list went, the
    paper first in a list it was not in: that list lost its papers on every device)."""
    paper = paper_from_doc(doc)
    return paper if paper.lists else replace(paper, lists=(paper.list,))


def _without(join: dict[str, Any], taken_out: set[str], doc: dict[str, Any]) -> dict[str, Any]:
    """``join`` without the lists this library took out itself (``taken_out``, an undo away)
    that its own document ``doc`` does not hold: a library whose memory of the folder went
    (``HOME/sync`` deleted, a copied HOME) is joined as one that never synced, and a list it
    took out since its last sync came back everywhere. (A list of that name the other device
    holds the paper in is left out as well, as the library's whole left it out before joins.)"""
    mine = set(doc.get("lists") or (doc["list"],))
    lists = [name for name in join.get("lists") or () if name in mine or name not in taken_out]
    if join["list"] in lists:
        return {**join, "lists": lists}
    return {**join, "lists": lists, "list": doc["list"], "position": doc.get("position", 0)}
