"""This device's own logs in the folder, checked against what it wrote there.

Only this device writes its logs, so only it can tell what they should say, and a record the
other devices cannot read in them they never get: a line damaged anywhere in a log (a byte
flipped by a disk or a sync tool, an editor's save, a log cut short) once hid its decision or
paper from every device that read the log after, for ever, while every sync said all was sent.

A log as this device left it (the same inode, size and modification time as after its last
append: ``folder.log_mark``) is not read again. One changed since is read again whole, once,
and compared with the registers, which hold what this device wrote:

- every register the log is to hold (this device's, and those of devices whose records it
  passed on, their own log gone) that no record in it holds readably is written again at its
  end: the same record, where the other devices, reading on past what they read before, find
  it (a device that read the log before the damage has it already, and takes nothing twice);
- a record of this device's that would change a register is one it never wrote (a value or a
  stamp changed, still a record): it is not taken, since the library's own files say what was
  decided here. Another device may have taken it already, so the value it would replace is
  written again, stamped just after it: the altered copy loses to it everywhere.

Another writer in the log (a copy of this HOME on another machine) is told apart first, by
``SyncFolder.grown``: the log then is no longer this device's.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

from storage.sync.folder import (
    PAPERS_LOG,
    TRIAGE_LOG,
    Cursor,
    LogFile,
    SyncFolder,
    log_mark,
    record_digest,
)
from storage.sync.local import DEFAULTS
from storage.sync.merge import Folded, fold, held_document
from storage.sync.records import (
    BASES,
    BASIS,
    PAPER,
    TAGS,
    TRIAGE_KINDS,
    Clock,
    Record,
    row_line,
)
from storage.sync.state import SyncState, beats, register_of


@dataclass(slots=True)
class OwnCheck:
    """What one of this device's own logs, read again, no longer holds as it was written."""

    #: Lines that do not read (damaged, or the last one cut short).
    damaged: int = 0
    #: Records of this device's that say what it never wrote: not taken.
    altered: int = 0
    #: The records it no longer holds readably, to write again at its end.
    lost: list[Record] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.damaged or self.altered or self.lost)


def check_own_log(
    place: SyncFolder,
    log: LogFile,
    state: SyncState,
    clock: Clock,
    folded: Folded,
    papers: Callable[[], Mapping[str, dict[str, Any]]],
    others: Collection[str] = (),
) -> OwnCheck | None:
    """Read this device's own ``log`` again when it changed since this device wrote it (None
    when it did not, or cannot be read: said when it is read for new records).

    Its records are folded into the registers (``folded``: what they changed), but for those
    of this device's that it never wrote; its cursor and mark in ``state`` are left at its
    end. ``papers`` gives the library's papers, read when one is to be written again; the
    devices of ``others`` have a log of this name of their own (their records are not this
    log's to keep)."""
    name, me = log.path.name, state.device
    mark = log_mark(log.path)
    if mark is None or state.fresh or state.own_marks.get(name) == mark:
        return None
    kept = state.cursors.get(log.key)
    devices = set(kept[2]) if kept else set()
    registers = state.registers
    check = OwnCheck()
    found: set[tuple[str, str]] = set()
    #: Registers a record of this device's that it never wrote would have taken: its stamp.
    beaten: dict[tuple[str, str], int] = {}
    #: What this device's note and tags records were written over (``BASIS``), by (kind,
    #: paper, stamp).
    bases: dict[tuple[str, str, int], Record] = {}

    def sort(records: list[Record]) -> None:
        taken: list[Record] = []
        for record in records:
            if record.kind == BASIS:  # no register: part of the record after it
                if record.device == me:
                    bases[(record.value[0], record.paper, record.stamp)] = record
                taken.append(record)
                continue
            new, key = register_of(record), (record.kind, record.paper)
            held = registers[record.kind].get(record.paper)
            if record.device != me or not (beats(record.kind, new, held) or _twin(new, held)):
                taken.append(record)
                continue
            check.altered += 1  # (one that loses to what it replaced is written again as is)
            if beats(record.kind, new, held):
                beaten[key] = max(beaten.get(key, 0), record.stamp)
        fold(state, taken, clock, folded)
        for record in taken:
            devices.add(record.device)
            held = registers.get(record.kind, {}).get(record.paper)
            if held is not None and held[:3] == register_of(record):
                found.add((record.kind, record.paper))

    cursor: Cursor | None = None
    try:
        while True:
            read = place.read(log, cursor, sort, own=True, now=clock.now_ms())
            check.damaged += read.skipped
            if not read.more or read.cursor == cursor:
                break
            cursor = read.cursor
    except OSError:
        return None
    state.cursors[log.key] = [*read.cursor.to_json(), sorted(devices)]
    state.holes.pop(log.key, None)
    state.own_marks[name] = mark
    keeps = {me} | (devices - set(others))
    lost = _lost(state, name, keeps, found, beaten, clock, folded.docs, papers)
    check.lost = _with_bases(lost, bases, state)
    return check


def drop_written(place: SyncFolder, state: SyncState) -> None:
    """Take out of the outbox the records a sync cut short appended to this device's logs
    before it could save its state (killed after the append): written, not to be sent, and
    said as sent, again. Only when a log is, past the size noted before that append, those
    records and nothing else, whole (an append cut short halfway, or anything else there:
    all of them are appended again, as before; the other devices take a record once)."""
    for name, papers in ((TRIAGE_LOG, False), (PAPERS_LOG, True)):
        rows = [row for row in state.outbox if (row[0] == PAPER) == papers]
        if not rows:
            continue
        since = state.own_sizes.get(name, 0)
        mark = log_mark(place.device_folder(state.device) / name)
        if mark is None or mark[1] <= since:  # (not grown: nothing was appended)
            continue
        lines = [row_line(row) for row in rows]
        found = place.appended(state.device, name, since, sum(map(len, lines)))
        if found is None or sorted(found.splitlines(keepends=True)) != sorted(lines):
            continue
        state.outbox = [row for row in state.outbox if (row[0] == PAPER) != papers]
        state.own_sizes[name] = since + len(found)
        state.own_last[name] = record_digest(found.splitlines()[-1])


def _with_bases(
    records: list[Record], bases: dict[tuple[str, str, int], Record], state: SyncState
) -> list[Record]:
    """``records`` with each note and tags record of this device's after its ``BASIS``: the
    one the log held for it (None read: sent without, as a version before bases did), or for
    one stamped anew, the record it is written over (the register's holder here; for tags,
    the new stamp follows that one in the chain of ours: ``SyncState.tag_bases``)."""
    found: list[Record] = []
    for record in records:
        kind, pid = record.kind, record.paper
        if kind in BASES and record.device == state.device:
            basis = bases.get((kind, pid, record.stamp))
            held = state.registers[kind].get(pid)
            if basis is None and held is not None and held[0] != record.stamp:
                basis = Record(BASIS, record.stamp, record.device, pid, [kind, *held[:2]])
                kept = state.tag_bases.get(pid) if kind == TAGS else None
                if kept is not None and kept[-1][0] == held[0] and held[1] == state.device:
                    kept.append([record.stamp, list(held[2])])  # over the one it sends again
            if basis is not None:
                found.append(basis)
        found.append(record)
    return found


def _twin(new: list[Any], held: list[Any] | None) -> bool:
    """True for a holder of the same stamp and device as ``held`` but another value: one
    device never writes two values of one register at one stamp."""
    return held is not None and new[:2] == held[:2] and new[2] != held[2]


def _lost(
    state: SyncState,
    name: str,
    keeps: set[str],
    found: set[tuple[str, str]],
    beaten: dict[tuple[str, str], int],
    clock: Clock,
    read: Mapping[str, dict[str, Any]],
    papers: Callable[[], Mapping[str, dict[str, Any]]],
) -> list[Record]:
    """The records of the registers held by ``keeps``' records that the log no longer holds
    (``found``: those it does), but for those waiting in the outbox to be written; and the
    values of those a record it never wrote would have taken (``beaten``: its stamp), by this
    device, stamped after that record (a register none held: its value by default). A paper's
    document is the one its register holds, as this sync ``read`` it or as the library has
    it (``papers``), or it is not written (one changed here since is sent anew, stamped
    later: ``merge.held_document``)."""
    waiting = {(row[0], row[3], row[1]) for row in state.outbox}
    lost: list[Record] = []
    for kind in (PAPER,) if name == PAPERS_LOG else TRIAGE_KINDS:
        registers = state.registers[kind]
        wanted = {pid for pid, held in registers.items() if held[1] in keeps} - {
            pid for known, pid in found if known == kind
        }
        wanted.update(pid for known, pid in beaten if known == kind)
        for pid in sorted(wanted):
            held = registers.get(pid) or [0, state.device, DEFAULTS.get(kind)]
            stamp, device, value = held[:3]
            if (kind, pid) in beaten:
                stamp = min(max(stamp, beaten[kind, pid]) + 1, clock.limit())
                device = state.device
            elif (kind, pid, stamp) in waiting:
                continue
            if kind == PAPER and value is not None:
                value = held_document(held, (read.get(pid), papers().get(pid)))
                if value is None:
                    continue
            lost.append(Record(kind, stamp, device, pid, value))
    return lost
