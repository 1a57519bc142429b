"""What this device remembers of one sync folder: ``HOME/sync/folder-<folder key>.json``.

- ``registers``: every register's holder as last merged (stamp, device, value; for a paper its
  digest), which is also what the library's files held after that merge: a value in the files
  that differs from its register is a change made here since, to send.
- ``cursors``: how far each log was read (and which devices' records it held, so that when a
  log disappears their records can be passed on: see ``storage.sync.merge``).
- ``clock``: the hybrid logical clock's last stamp. ``outbox``: records made here that are not
  in the folder yet (it was read-only or missing). ``steps``: the undo log's steps as last
  seen, so that a paper decided and put back between two syncs still counts as changed.
- ``pending``: what a merge is writing into the library, kept until it is written: a sync cut
  short between the two (a crash, a full disk) is finished by the next one from it.

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
from storage.sync.records import KINDS, PAPER, Record, tie_value

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
    #: Undo-log step number → [time, undone], as last seen.
    steps: dict[str, list[Any]] = field(default_factory=dict)
    #: When each decided paper got its status, as last seen (``local.redecided``).
    decided_at: dict[str, float] = field(default_factory=dict)
    #: The signature of papers.json after the last sync (its papers are compared only when
    #: it changed).
    papers_version: list[int] | None = None
    outbox: list[list[Any]] = field(default_factory=list)
    #: Size of this device's own logs after its last append (a log that grew otherwise has a
    #: second writer: a copy of this HOME elsewhere).
    own_sizes: dict[str, int] = field(default_factory=dict)
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

    def to_json(self) -> dict[str, Any]:
        return {
            "version": STATE_VERSION,
            "folder": self.folder,
            "device": self.device,
            "clock": self.clock,
            "generation": self.generation,
            "registers": self.registers,
            "cursors": self.cursors,
            "steps": self.steps,
            "decided_at": self.decided_at,
            "papers_version": self.papers_version,
            "outbox": self.outbox,
            "own_sizes": self.own_sizes,
            "pending": self.pending,
            "devices": self.devices,
            "synced_at": self.synced_at,
            "fresh": self.fresh,
            "waiting": self.waiting,
            "held": self.held,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SyncState:
        registers = data.get("registers") or {}
        return cls(
            folder=str(data.get("folder", "")),
            device=str(data.get("device", "")),
            clock=int(data.get("clock", 0)),
            generation=int(data.get("generation", 0)),
            registers={kind: _shared(registers.get(kind) or {}) for kind in KINDS},
            cursors=dict(data.get("cursors") or {}),
            steps=dict(data.get("steps") or {}),
            decided_at=dict(data.get("decided_at") or {}),
            papers_version=data.get("papers_version"),
            outbox=list(data.get("outbox") or []),
            own_sizes=dict(data.get("own_sizes") or {}),
            pending=data.get("pending"),
            devices=dict(data.get("devices") or {}),
            synced_at=int(data.get("synced_at", 0)),
            fresh=bool(data.get("fresh", False)),
            waiting=[p for p in data.get("waiting") or () if isinstance(p, str)],
            held=[r for r in data.get("held") or () if isinstance(r, list)],
        )


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
