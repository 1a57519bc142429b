"""``papers sync --status``: the devices a folder has seen, and what waits to go either way."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from storage.library import Library
from storage.sync.device import Device, clean_name
from storage.sync.folder import SyncFolder
from storage.sync.run import preview_sync
from storage.sync.state import load_state, state_path
from storage.text.words import count


@dataclass(frozen=True, slots=True)
class DeviceSeen:
    """A device whose records or card the folder holds."""

    id: str
    name: str
    #: When it last synced (milliseconds since the epoch; 0 when unknown).
    last_seen: int
    this: bool = False


@dataclass(slots=True)
class SyncStatus:
    """Where this library stands with a sync folder."""

    folder: Path
    device: Device
    #: When this device last synced with the folder (ms since the epoch; 0: never).
    synced_at: int
    devices: list[DeviceSeen] = field(default_factory=list)
    #: Changes made here that the next sync sends.
    to_send: int = 0
    #: Records of other devices in the folder not read yet.
    to_receive: int = 0
    #: Changes made here that a sync could not write into the folder yet.
    waiting: int = 0
    #: Papers whose decisions arrived, the paper itself not (no device has sent it yet).
    awaiting: int = 0
    problems: list[str] = field(default_factory=list)

    def lines(self, align: Callable[[Sequence[Sequence[str]]], list[str]]) -> list[str]:
        """The status for people, one fact a line; ``align`` makes the table of devices's rows
        of cells into lines (by their width on the terminal: a name may be Chinese)."""
        lines = [
            f"folder: {self.folder}",
            f"this device: {self.device.name} ({self.device.short}), "
            f"last synced {when(self.synced_at)}",
            f"devices seen: {len(self.devices)}",
        ]
        rows = [
            [
                seen.name,
                seen.id[:8],
                f"last seen {when(seen.last_seen)}" + ("  (this one)" if seen.this else ""),
            ]
            for seen in self.devices
        ]
        lines.extend(f"  {line}" for line in align(rows))
        pending = (
            f"pending: {count(self.to_send, 'change')} to send, {self.to_receive:,} to receive"
        )
        if self.waiting:
            wait = "waits" if self.waiting == 1 else "wait"
            pending += f" ({self.waiting:,} more made here {wait} for a writable folder)"
        lines.append(pending)
        if self.awaiting:
            lines.append(
                f"waiting for their paper: the decisions of {count(self.awaiting, 'paper')} no "
                "device has sent yet"
            )
        return lines


def when(ms: int) -> str:
    """A moment for people: ``2026-11-30 14:02``, ``never``, or ``unknown`` for one no
    calendar holds (another device's card says what it likes)."""
    if ms <= 0:
        return "never"
    try:
        return datetime.fromtimestamp(ms / 1000).strftime("%Y-%m-%d %H:%M")
    except (OverflowError, OSError, ValueError):
        return "unknown"


def _moment(value: object) -> int:
    """A time in milliseconds read from a card or the state (0 when it is none)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return 0
    return int(value) if 0 < value < 2**63 else 0


def sync_status(library: Library, folder: str | os.PathLike[str]) -> SyncStatus:
    """What the folder holds and what waits, without changing anything."""
    # it reads (``preview_sync`` takes the locks as a reader's): a read-only HOME without
    # lock files is read without them, and says so
    preview = preview_sync(library, folder)
    missed = library.papers_lock.missed or library.triage_lock.missed
    if missed:
        preview.problems.append(
            f"the library's lock could not be taken ({missed}): its files were read as they "
            "were, without waiting for another papers process writing them"
        )
    place = SyncFolder(folder)
    state, _problem = load_state(state_path(library.home, place.path), place.path, "")
    cards = place.cards()
    me = preview.device.id
    ids = (set(state.devices) | set(cards) | {me}) - {""}
    devices = []
    for device in ids:
        known = state.devices.get(device, {})
        card = cards.get(device, {})
        names = (card.get("name"), known.get("name"))
        name = next((clean_name(n) for n in names if isinstance(n, str) and clean_name(n)), "?")
        times = (card.get("synced"), known.get("seen"), known.get("last"))
        seen = next((t for t in map(_moment, times) if t), 0)
        if device == me:
            name, seen = preview.device.name, state.synced_at
        devices.append(DeviceSeen(device, name, seen, this=device == me))
    devices.sort(key=lambda d: (not d.this, -d.last_seen, d.name))
    return SyncStatus(
        folder=place.path,
        device=preview.device,
        synced_at=state.synced_at,
        devices=devices,
        to_send=preview.sent,
        to_receive=preview.received,
        waiting=preview.waiting,
        awaiting=preview.awaiting,
        problems=preview.problems,
    )
