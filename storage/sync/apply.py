"""Writing a merge into the library: through the owners of its files, in their transactions.

Papers first (documents into ``papers.json``: ``Library.put_received``, the files derived
from it brought along once the sync ends, as an import brings them; removals through
``Library.remove``, so that a removal that arrives keeps the papers' decisions in an undo step
as a removal made here does),
then the triage in one change of ``triage.json`` that also marks the merge written
(``SyncState.pending`` is kept until then). A running app sees the change as it sees another
process's: its session reloads ``triage.json`` when it changed on disk.

A status that arrives from another device takes its paper out of this device's undo steps:
undo here undoes what was decided here, and never puts back a decision made elsewhere since.
So does a paper that arrives, from the removals here: another device undid its removal.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection

from storage.errors import UnknownPaperError
from storage.files.triage_file import Received
from storage.library import Library
from storage.models import Status
from storage.queue.order import place_of
from storage.sync.merge import Plan
from storage.sync.records import NOTE, QUEUE, STATUS, TAGS


def apply_plan(library: Library, plan: Plan, marker: tuple[str, int]) -> Counter[str]:
    """Write ``plan`` into the library; ``marker``: (folder key, merge generation). Returns
    what changed: statuses, notes, tags, positions in the queue, papers (added or updated),
    removals."""
    done: Counter[str] = Counter()
    written = {pid: doc for pid, doc in plan.papers.items() if doc is not None}
    if written:
        library.put_received(written)
        done["papers"] += len(written)
    gone = [pid for pid, doc in plan.papers.items() if doc is None]
    if gone:
        done["removals"] += _remove(library, gone)
    received = {
        pid: Received(
            status=Status(values[STATUS]) if STATUS in values else None,
            at_ms=plan.stamps[pid] if STATUS in values else 0,
            note=values.get(NOTE),
            tags=tuple(values[TAGS]) if TAGS in values else None,
            has_position=QUEUE in values,
            position=place_of(values.get(QUEUE)),
            made_ms=plan.times.get(pid, {}),
        )
        for pid, values in plan.triage.items()
    }
    key, generation = marker
    with library.triage_file.change() as triage:
        triage.leave_removals(written.keys())  # back by another device's undo: not removed here
        done.update(triage.receive(received))
        triage.mark_synced(key, generation)
    return done


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
