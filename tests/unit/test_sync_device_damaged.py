"""A damaged ``sync/device.json`` (a hand's edit, a disk's damage) is replaced by a new device
id, which the sync says once. What that does, checked: this device's log restarts under the
new id, and the old log stays in the folder as a device no longer syncing; nothing of what
was decided is lost or sent again (the sync's state in HOME still holds what the files held
after the last sync, so only changes made since are sent), and every device, one joining
later too, ends with the same library."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from storage import Library
from storage.sync import sync_library
from storage.sync.device import device_path
from storage.sync.folder import ROOT_NAME
from tests.unit.test_sync_support import all_records, seeded, shown


def folder_bytes(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


@pytest.mark.parametrize(
    "damage",
    [b'{"id": "fa447b3b', b"", b'{"id": "not an id", "name": "vm"}', b"\x00" * 64],
    ids=["cut short", "empty", "no id", "zeros"],
)
def test_a_damaged_device_file_loses_and_resends_nothing(tmp_path: Path, damage: bytes) -> None:
    folder = tmp_path / "synced"
    folder.mkdir()
    a, b = seeded(tmp_path / "a"), Library(tmp_path / "b")
    ids = [p.id for p in a.papers()]
    a.set_status(ids[0], "starred")
    a.set_status(ids[1], "read")
    a.set_note(ids[1], "the appendix")
    first = sync_library(a, folder).device
    sync_library(b, folder)
    old_log = {
        name: data
        for name, data in folder_bytes(folder).items()
        if name.startswith(f"{ROOT_NAME}/{first.id}/") and name.endswith(".jsonl")
    }
    before = Counter((r.kind, r.paper, r.device) for r in all_records(folder))

    device_path(a.home).write_bytes(damage)
    a.set_status(ids[2], "skipped")
    report = sync_library(a, folder)
    assert report.device.id != first.id  # a new device: its log starts afresh
    [said] = [p for p in report.problems if "device.json does not read (damaged)" in p]
    assert "it syncs as a new device" in said and report.device.short in said
    assert report.sent == 1 and report.received == 0  # the new decision alone
    after = Counter((r.kind, r.paper, r.device) for r in all_records(folder))
    made = after - before
    assert sum(made.values()) == 1 and next(iter(made))[1] == ids[2]
    assert all(folder_bytes(folder)[name] == data for name, data in old_log.items())

    b.set_status(ids[3], "starred")
    assert sync_library(b, folder).problems == []
    sync_library(a, folder)
    assert shown(a) == shown(b)
    assert {pid: a.status(pid).value for pid in ids[:4]} == {
        ids[0]: "starred",
        ids[1]: "read",
        ids[2]: "skipped",
        ids[3]: "starred",
    }
    assert a.triage().notes == {ids[1]: "the appendix"}
    c = Library(tmp_path / "c")  # a device joining later gets all of it, the old log's too
    sync_library(c, folder)
    assert shown(c) == shown(a)
    again = sync_library(a, folder)
    assert again.sent == 0 and again.problems == []  # said once: the new id is kept
    assert sync_library(b, folder).received == 0
