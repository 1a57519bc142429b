"""This device's identity: a random id kept in HOME, and a name people recognise.

The id, not the name, tells devices apart: two laptops both called ``laptop`` are two devices.
A HOME copied to another machine (or restored from a backup elsewhere) would otherwise sync as
the device it was copied from, and two devices writing one log is the one thing the folder's
layout rules out; so the id also remembers which machine and folder it was made for, and a
HOME found elsewhere takes a new id (its decisions stay: they are this library's, and are sent
again under the new id).
"""

from __future__ import annotations

import hashlib
import os
import secrets
import socket
from dataclasses import dataclass
from pathlib import Path

import orjson

from storage.files.atomic import atomic_write, read_regular
from storage.sync.records import is_id

SYNC_DIR = "sync"
DEVICE_FILE = "device.json"
MAX_NAME = 60


@dataclass(frozen=True, slots=True)
class Device:
    """Who this device is in the sync folder."""

    id: str
    name: str

    @property
    def short(self) -> str:
        return self.id[:8]


def new_device_id() -> str:
    """A fresh random id: 16 hex digits (two devices sharing one is not a worry)."""
    return secrets.token_hex(8)


def default_name() -> str:
    """The machine's host name, as people call it (``laptop.local`` → ``laptop``)."""
    return clean_name(socket.gethostname().split(".")[0]) or "device"


def clean_name(name: str) -> str:
    """A device name as kept: printable, one line (a tab or line break is a space), at most
    ``MAX_NAME`` characters."""
    shown = "".join(c if c.isprintable() else " " if c.isspace() else "" for c in name)
    return " ".join(shown.split())[:MAX_NAME]


def _machine() -> str:
    """What tells this machine and HOME folder from another: the OS's machine id where there
    is one (a host name can change with the network), else the host name."""
    for path in ("/etc/machine-id", "/var/lib/dbus/machine-id"):
        try:
            found = Path(path).read_text().strip()
        except OSError:
            continue
        if found:
            return found
    return socket.gethostname()


def _place(home: Path) -> str:
    text = f"{_machine()}\0{os.path.realpath(home)}"
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


def device_path(home: Path) -> Path:
    return home / SYNC_DIR / DEVICE_FILE


@dataclass(frozen=True, slots=True)
class _Stored:
    """The device file as read."""

    id: str
    name: str
    named: bool  # the name was chosen (else it follows the host name)
    place: str


def _read_stored(path: Path) -> _Stored | None:
    try:
        data = orjson.loads(read_regular(path))
    except (OSError, orjson.JSONDecodeError):
        return None
    if not isinstance(data, dict) or not is_id(data.get("id")):
        return None
    name = clean_name(str(data.get("name") or ""))
    return _Stored(data["id"], name, bool(data.get("named")), str(data.get("place", "")))


def load_device(home: Path, name: str | None = None, *, save: bool = True) -> tuple[Device, str]:
    """This HOME's device (made on first use), renamed to ``name`` when given; and why it got
    a new id, "" when it did not: the HOME was copied from elsewhere, or its device file does
    not read (damaged: the device it was is not known). ``save``: keep what changed."""
    place = _place(home)
    path = device_path(home)
    stored = _read_stored(path)
    wanted = clean_name(name or "")
    moved = stored is not None and stored.place != place
    damaged = stored is None and (path.exists() or path.is_symlink())
    if stored is not None and not moved and wanted in ("", stored.name):
        return Device(stored.id, stored.name or default_name()), ""
    named = bool(wanted) or (stored is not None and stored.named)
    kept = stored.name if stored is not None and (stored.named or not moved) else ""
    device = Device(
        stored.id if stored is not None and not moved else new_device_id(),
        wanted or kept or default_name(),
    )
    if save:
        save_device(home, device, named=named, place=place)
    if moved:
        why = "this library was copied from another machine"
    elif damaged:
        why = f"{path} does not read (damaged)"
    else:
        return device, ""  # a first use, or a new name
    return device, (
        f"{why}: it syncs as a new device, {device.name} ({device.short}); the log it wrote "
        "as the device it was stays in the folder, no longer written"
    )


def renew_device(home: Path, device: Device) -> Device:
    """The same device under a new id (another machine was found writing as this one)."""
    stored = _read_stored(device_path(home))
    fresh = Device(new_device_id(), device.name)
    save_device(home, fresh, named=stored is not None and stored.named, place=_place(home))
    return fresh


def save_device(home: Path, device: Device, *, named: bool, place: str) -> None:
    path = device_path(home)
    path.parent.mkdir(parents=True, exist_ok=True)
    doc = {"id": device.id, "name": device.name, "named": named, "place": place}
    atomic_write(path, orjson.dumps(doc), backup=False)
