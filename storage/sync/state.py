"""What this device remembers of one sync folder: ``HOME/sync/folder-<folder key>.json``.

- ``registers``: every register's holder as last merged (stamp, device, value; for a paper its
  digest), which is also what the library's files held after that merge: a value in the files
  that differs from its register is a change made here since, to send.
- ``cursors``: how far each log was read (and which devices' records it held, so that when a
  log disappears their records can be passed on: see ``storage.sync.merge``); ``holes``: the
  block of zeros a cursor waits at, and since when (``storage.sync.folder.Hole``).
- ``own_sizes``, ``own_last``, ``own_marks``: this device's own logs as it left them (another
  writer in them, a copy of this HOME; damage, which it mends: ``storage.sync.own``).
- ``clock``: the hybrid logical clock's last stamp. ``outbox``: records made here that are not
  in the folder yet (it was read-only or missing). ``steps``: the undo log's steps as last
  seen, so that a paper decided and put back between two syncs still counts as changed.
- ``pending``: what a merge is writing into the library, kept until it is written: a sync cut
  short between the two (a crash, a full disk) is finished by the next one from it. Under
  ``shown``: the notes and tags the library held where that merge keeps both (``both``), so
  that the next sync does not send them as edits made here over the merge.
- ``tag_bases``: the tags each of this device's tags records that hold their registers was
  written over, and those of the records of this device it followed (a chain of them), so that
  one another device replaced without seeing it is merged with that device's as sets
  (``storage.sync.both``). ``tags_read``: the other devices' tags records of those papers read
  while such a chain held them (each with what it was written over, the newest few), so that
  a merge can go back through them after the sync that read them (``storage.sync.both``).
- ``generation`` and ``marked_at``: the mark the last sync left in ``triage.json``, and when. A
  ``triage.json`` whose mark is older (or that has none) is older than the last sync: put back
  from a backup, or started afresh.

A state file that parses but holds a value of the wrong type anywhere (a hand's edit, a disk's
damage) does not read: it is started afresh, as one that does not parse.

Derived from the folder and the library: deleting it costs a slower next sync, nothing else.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from storage.files.atomic import atomic_write, read_regular
from storage.sync.device import SYNC_DIR
from storage.sync.records import (
    BASIS,
    KINDS,
    NOTE,
    PAPER,
    TAGS,
    TRIAGE_KINDS,
    Record,
    tie_value,
    valid_value,
)

STATE_VERSION = 1
#: Records held for a clock far ahead (``SyncState.held``) kept at the most.
MAX_HELD = 10_000

#: A register's holder as kept: [stamp, device, value] (for a paper: its digest, or None).
Register = list[Any]


def state_path(home: Path, folder: Path) -> Path:
    """Where HOME keeps what it knows of ``folder`` (one file per folder synced with)."""
    key = hashlib.blake2b(os.path.realpath(folder).encode(), digest_size=8).hexdigest()
    return home / SYNC_DIR / f"folder-{key}.json"


def marker_key(folder: Path) -> str:
    """The key of this folder's mark in ``triage.json``'s ``sync`` table (a document id)."""
    return str(int(state_path(Path("."), folder).stem.split("-")[1][:8], 16))


def register_of(record: Record) -> Register:
    """The register holder a record makes."""
    value = record.value
    if record.kind == PAPER:
        value = tie_value(PAPER, value) or None
    return [record.stamp, record.device, value]


def beats(kind: str, new: Register, held: Register | None) -> bool:
    """True when the holder ``new`` beats ``held`` in a register of ``kind`` (equal ones do
    not): the greater stamp, then device, then value."""
    if held is None:
        return True
    if new[0] != held[0]:
        return bool(new[0] > held[0])
    if new[1] != held[1]:
        return bool(new[1] > held[1])
    if kind == PAPER:
        return bool((new[2] or "") > (held[2] or ""))
    return tie_value(kind, new[2]) > tie_value(kind, held[2])


@dataclass(slots=True)
class SyncState:
    """This device's memory of one sync folder."""

    folder: str
    device: str
    clock: int = 0
    #: Bumped by every merge that writes into the library (the library keeps the last one).
    generation: int = 0
    registers: dict[str, dict[str, Register]] = field(
        default_factory=lambda: {kind: {} for kind in KINDS}
    )
    #: Log key → [offset, tail digest, [devices whose records it held]].
    cursors: dict[str, list[Any]] = field(default_factory=dict)
    #: Log key → the block of zeros its cursor waits at: [offset, the file's size, ms], as
    #: first seen (zeros that stay are damage, skipped: ``Hole.lasting``).
    holes: dict[str, list[int]] = field(default_factory=dict)
    #: Undo-log step number → [time, undone], as last seen.
    steps: dict[str, list[Any]] = field(default_factory=dict)
    #: When each decided paper got its status, as last seen (``local.redecided``).
    decided_at: dict[str, float] = field(default_factory=dict)
    #: The signature of papers.json after the last sync (its papers are compared only when
    #: it changed).
    papers_version: list[int] | None = None
    #: How many times papers.json had been written after the last sync (its meta's
    #: ``writes``; 0 when not known): a file written fewer times is an older copy put back.
    papers_writes: int = 0
    outbox: list[list[Any]] = field(default_factory=list)
    #: Size of this device's own logs after its last append (a log that grew otherwise may have
    #: a second writer, a copy of this HOME elsewhere: ``own_last`` tells).
    own_sizes: dict[str, int] = field(default_factory=dict)
    #: The digest of the last record this device appended to each of its logs: one that grew
    #: but still ends in it was re-encoded or padded, not written by a copy (``record_digest``).
    own_last: dict[str, str] = field(default_factory=dict)
    #: Each of this device's own logs as it left it, by its inode, size and modification
    #: time (``folder.log_mark``): one that is not so any more was changed by another hand,
    #: and is read again whole, once (``storage.sync.own``).
    own_marks: dict[str, list[int]] = field(default_factory=dict)
    pending: dict[str, Any] | None = None
    #: Device id → {"name", "last" (its greatest stamp read), "seen" (its card's last sync)}.
    devices: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: Milliseconds since the epoch of the last sync that finished.
    synced_at: int = 0
    #: Papers whose triage registers hold values ``triage.json`` does not: no paper of theirs
    #: was here when they were merged (records for papers no device has stay out of the file
    #: every decision rewrites); written once the paper arrives.
    waiting: list[str] = field(default_factory=list)
    #: Records stamped beyond this device's clock's bound (``records.MAX_AHEAD_MS``), as
    #: rows: read again at each sync, folded once the clock is near them (at most
    #: ``MAX_HELD``, the nearest kept).
    held: list[list[Any]] = field(default_factory=list)
    #: True for a state made afresh (never synced, or its file was lost): local values are
    #: then stamped with when they were made, not as changes made after the last sync.
    fresh: bool = True
    #: When ``triage.json`` got the mark of ``generation`` (seconds, as its decisions' times;
    #: 0 when unknown): in a file older than that mark, only what was done after it is new.
    marked_at: float = 0.0
    #: Papers the registers hold that no log gave a document this version takes, by the
    #: digest looked for: not looked for again until their register holds another.
    unavailable: dict[str, str] = field(default_factory=dict)
    #: Paper → [[stamp, tags], …]: this device's tags records one after the other, oldest
    #: first, with the tags each was written over (what it showed then), kept while the last
    #: holds the paper's register: the basis of a three-way merge should another device's,
    #: written without seeing some of them, win. (A state of the version before kept one
    #: [stamp, tags]: read as a chain of one.)
    tag_bases: dict[str, list[list[Any]]] = field(default_factory=dict)
    #: Paper → [[stamp, device, tags, [basis stamp, basis device] or None], …]: the other
    #: devices' tags records read while a chain of ``tag_bases`` held the paper, oldest first
    #: (the newest few), kept as long as that chain. (Absent in a state of the versions
    #: before, which ignore it: read as none.)
    tags_read: dict[str, list[list[Any]]] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "version": STATE_VERSION,
            "folder": self.folder,
            "device": self.device,
            "clock": self.clock,
            "generation": self.generation,
            "registers": self.registers,
            "cursors": self.cursors,
            "holes": self.holes,
            "steps": self.steps,
            "decided_at": self.decided_at,
            "papers_version": self.papers_version,
            "papers_writes": self.papers_writes,
            "outbox": self.outbox,
            "own_sizes": self.own_sizes,
            "own_last": self.own_last,
            "own_marks": self.own_marks,
            "pending": self.pending,
            "devices": self.devices,
            "synced_at": self.synced_at,
            "fresh": self.fresh,
            "waiting": self.waiting,
            "held": self.held,
            "marked_at": self.marked_at,
            "unavailable": self.unavailable,
            "tag_bases": self.tag_bases,
            "tags_read": self.tags_read,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SyncState:
        """The state a file holds; ``ValueError`` when a value has the wrong type (the sync
        would stop on it at every run: ``outbox: [5]``, a register holding ``5``)."""
        registers = _table(data, "registers", lambda _k: True)
        return cls(
            folder=_typed(data, "folder", str, ""),
            device=_typed(data, "device", str, ""),
            clock=_typed(data, "clock", int, 0),
            generation=_typed(data, "generation", int, 0),
            registers={kind: _shared(_registers(registers, kind)) for kind in KINDS},
            cursors=_table(data, "cursors", _is_cursor),
            holes=_table(data, "holes", _three_counts),
            steps=_table(data, "steps", _is_step_mark),
            decided_at=_table(data, "decided_at", _is_number),
            papers_version=_papers_version(data.get("papers_version")),
            papers_writes=_typed(data, "papers_writes", int, 0),
            outbox=_rows(data, "outbox", _is_record_row),
            own_sizes=_table(data, "own_sizes", _is_count),
            own_last=_table(data, "own_last", lambda v: isinstance(v, str)),
            own_marks=_table(data, "own_marks", _three_counts),
            pending=_pending(data.get("pending")),
            devices=_table(data, "devices", _is_device),
            synced_at=_typed(data, "synced_at", int, 0),
            fresh=_typed(data, "fresh", bool, False),
            waiting=[p for p in _rows(data, "waiting", lambda _r: True) if isinstance(p, str)],
            held=[r for r in _rows(data, "held", lambda _r: True) if isinstance(r, list)],
            marked_at=float(_typed(data, "marked_at", (int, float), 0.0)),
            unavailable=_table(data, "unavailable", lambda v: isinstance(v, str)),
            tag_bases={
                pid: [chain] if _is_tag_basis(chain) else chain
                for pid, chain in _table(data, "tag_bases", _is_tag_chain).items()
            },
            tags_read=_table(data, "tags_read", _are_tags_read),
        )


def _wrong(name: str, value: Any) -> ValueError:
    return ValueError(f"its {name} holds {str(value)[:40]!r}, not what a sync state holds")


def _typed(data: dict[str, Any], name: str, kind: type | tuple[type, ...], default: Any) -> Any:
    """``data[name]`` when it is of ``kind`` (a bool is no number here), else ``ValueError``."""
    value = data.get(name, default)
    if isinstance(value, bool) and kind is not bool:
        raise _wrong(name, value)
    if not isinstance(value, kind):
        raise _wrong(name, value)
    return value


def _table(data: dict[str, Any], name: str, fits: Any) -> dict[str, Any]:
    """An object of ``data`` whose every value ``fits``."""
    table = data.get(name) or {}
    if not isinstance(table, dict):
        raise _wrong(name, table)
    for value in table.values():
        if not fits(value):
            raise _wrong(name, value)
    return dict(table)


def _rows(data: dict[str, Any], name: str, fits: Any) -> list[Any]:
    """A list of ``data`` whose every item ``fits``."""
    rows = data.get(name) or []
    if not isinstance(rows, list):
        raise _wrong(name, rows)
    for row in rows:
        if not fits(row):
            raise _wrong(name, row)
    return rows


def _registers(registers: dict[str, Any], kind: str) -> dict[str, Any]:
    """One kind's registers, each ``[stamp, device, value]`` (a paper's: its digest or None,
    and the digest of the document as written here when it differs)."""
    return _table(registers, kind, lambda held: _is_register(kind, held))


def _is_register(kind: str, held: Any) -> bool:
    if not isinstance(held, list) or len(held) not in ((3, 4) if kind == PAPER else (3,)):
        return False
    if not _is_count(held[0]) or not isinstance(held[1], str):
        return False
    if kind != PAPER:
        return valid_value(kind, held[2])
    return (held[2] is None or isinstance(held[2], str)) and all(
        isinstance(digest, str) for digest in held[3:]
    )


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _is_count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _three_counts(value: Any) -> bool:
    """A hole's [offset, size, ms]; a log's mark: [inode, size, modification time]."""
    return isinstance(value, list) and len(value) == 3 and all(_is_count(n) for n in value)


def _is_cursor(value: Any) -> bool:
    """[offset, tail digest, [devices]]."""
    return (
        isinstance(value, list)
        and len(value) == 3
        and _is_count(value[0])
        and isinstance(value[1], str)
        and isinstance(value[2], list)
        and all(isinstance(device, str) for device in value[2])
    )


def _is_step_mark(value: Any) -> bool:
    """[time, undone]."""
    return (
        isinstance(value, list)
        and len(value) == 2
        and _is_number(value[0])
        and isinstance(value[1], bool)
    )


def _is_record_row(row: Any) -> bool:
    """[kind, stamp, device, paper, value], as a record is written (its ids and stamp's range
    are checked when it is read: ``records.parse_record``)."""
    if not isinstance(row, list) or len(row) != 5 or row[0] not in (*KINDS, BASIS):
        return False
    kind, stamp, device, paper, value = row
    if not _is_count(stamp) or not isinstance(device, str) or not isinstance(paper, str):
        return False
    return valid_value(kind, value)


def _is_tag_basis(value: Any) -> bool:
    """[stamp, tags]."""
    return (
        isinstance(value, list)
        and len(value) == 2
        and _is_count(value[0])
        and valid_value(TAGS, value[1])
    )


def _is_tag_chain(value: Any) -> bool:
    """[[stamp, tags], …], not empty; or one [stamp, tags] (the version before this one)."""
    if _is_tag_basis(value):
        return True
    return isinstance(value, list) and bool(value) and all(map(_is_tag_basis, value))


def _are_tags_read(value: Any) -> bool:
    """[[stamp, device, tags, [stamp, device] or None], …]: a tags register's row, then the
    record it was written over."""
    return isinstance(value, list) and all(
        isinstance(row, list)
        and len(row) == 4
        and _is_register(TAGS, row[:3])
        and (row[3] is None or _is_seen(row[3]))
        for row in value
    )


def _is_seen(value: Any) -> bool:
    """[stamp, device]: the record another was written over."""
    return (
        isinstance(value, list)
        and len(value) == 2
        and _is_count(value[0])
        and isinstance(value[1], str)
    )


def _is_device(value: Any) -> bool:
    """{"name": text, "last", "seen", "card": times (numbers)}."""
    if not isinstance(value, dict):
        return False
    name = value.get("name", "")
    return isinstance(name, str) and all(
        isinstance(value.get(key, 0), int | float) for key in ("last", "seen", "card")
    )


def _papers_version(value: Any) -> list[int] | None:
    """papers.json's signature (none when the file was missing)."""
    if value is None:
        return None
    if not isinstance(value, list) or not all(map(_is_count, value)):
        raise _wrong("papers_version", value)
    return value


def _pending(value: Any) -> dict[str, Any] | None:
    """A merge noted as being written: its generation, each register's values by paper (a
    paper's digest or None), and its statuses' times."""
    if value is None:
        return None
    if not isinstance(value, dict) or not _is_count(value.get("generation", 0)):
        raise _wrong("pending", value)
    for kind in TRIAGE_KINDS:
        _table(value, kind, lambda held, kind=kind: valid_value(kind, held))
    _table(value, PAPER, lambda digest: digest is None or isinstance(digest, str))
    _table(value, "at", _is_number)  # ``merge.DECIDED_AT``
    shown = _table(value, "shown", lambda held: isinstance(held, dict))  # ``local.SHOWN``
    for kind in shown:
        if kind not in (NOTE, TAGS):
            raise _wrong("pending", value)
        _table(shown, kind, lambda held, kind=kind: valid_value(kind, held))
    return value


def _shared(held: dict[str, Any]) -> dict[str, Register]:
    """A kind's registers as read, their devices and short values one string each (a few
    devices and four statuses hold 300,000 registers: one copy of each, not 300,000)."""
    seen: dict[Any, Any] = {}
    for register in held.values():
        if isinstance(register, list) and len(register) >= 3:
            register[1] = seen.setdefault(register[1], register[1])
            value = register[2]
            if isinstance(value, str) and len(value) <= 16:
                register[2] = seen.setdefault(value, value)
    return dict(held)


def load_state(path: Path, folder: Path, device: str) -> tuple[SyncState, str]:
    """The state kept at ``path`` (a fresh one when there is none); and a problem to report
    ("" when none): a state that does not read is started afresh, never a crash."""
    fresh = SyncState(folder=str(folder), device=device)
    try:
        raw = read_regular(path)
    except FileNotFoundError:
        return fresh, ""
    except OSError as exc:
        return fresh, f"{path}: unreadable ({exc.strerror or exc}); starting the sync afresh"
    try:
        data = orjson.loads(raw)
        if not isinstance(data, dict) or data.get("version") != STATE_VERSION:
            raise ValueError("not a sync state of this version")
        state = SyncState.from_json(data)
    except (ValueError, TypeError, AttributeError) as exc:
        return fresh, f"{path}: {exc}; starting the sync afresh"
    state.device = device
    return state, ""


def save_state(path: Path, state: SyncState) -> None:
    """Write the state atomically (the HOME lock is held by the caller)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, orjson.dumps(state.to_json()), backup=False)
