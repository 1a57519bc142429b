"""A device's own log changed in the folder by another hand (storage.sync.own): what it no
longer holds readably is written again at its end, once, and a log as the device left it is
not read again."""

from __future__ import annotations

import shutil
from pathlib import Path

import orjson
import pytest

from storage import Library
from storage.sync import sync_library
from storage.sync.folder import ROOT_NAME, SyncFolder
from storage.sync.state import state_path
from tests.unit.test_sync_support import all_records, damage, seeded, shown


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    path = tmp_path / "synced"
    path.mkdir()
    return path


def own_log(folder: Path, library: Library, name: str = "triage.jsonl") -> Path:
    device = orjson.loads((library.home / "sync" / "device.json").read_bytes())["id"]
    return folder / ROOT_NAME / device / name


def damage_line(log: Path, needle: bytes) -> None:
    """A byte of the line holding ``needle`` made one no UTF-8 text holds."""
    damage(log, log.read_bytes().index(needle) + 1)


def reads_from_start(monkeypatch: pytest.MonkeyPatch, log: Path) -> list[int]:
    """Every read of ``log`` from its start, counted as it happens."""
    reads: list[int] = []
    read = SyncFolder.read

    def counted(place: SyncFolder, found, cursor=None, *args, **kwargs):  # type: ignore[no-untyped-def]
        if found.path == log and (cursor is None or cursor.offset == 0):
            reads.append(1)
        return read(place, found, cursor, *args, **kwargs)

    monkeypatch.setattr(SyncFolder, "read", counted)
    return reads


def test_a_log_as_the_device_left_it_is_not_read_again_and_one_re_encoded_loses_nothing(
    tmp_path: Path, folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Checking costs one stat while the log is as written; a log git's autocrlf rewrote is
    read once, found whole: nothing said, nothing sent again."""
    a = seeded(tmp_path / "a")
    ids = [p.id for p in a.papers()]
    a.set_statuses(ids[:5], "read")
    sync_library(a, folder)
    log = own_log(folder, a)
    reads = reads_from_start(monkeypatch, log)
    for pid in ids[5:8]:
        a.set_status(pid, "skipped")
        sync_library(a, folder)
    assert reads == []
    log.write_bytes(log.read_bytes().replace(b"\n", b"\r\n"))
    report = sync_library(a, folder)
    assert reads == [1] and report.sent == 0 and not report.problems, report.problems
    assert sync_library(a, folder).sent == 0 and reads == [1]


def test_what_waits_for_a_writable_folder_is_not_written_twice(
    tmp_path: Path, folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b = seeded(tmp_path / "a"), Library(tmp_path / "b")
    ids = [p.id for p in a.papers()]
    sync_library(a, folder), sync_library(b, folder)
    a.set_statuses(ids[:3], "read")
    sync_library(a, folder)
    damage_line(own_log(folder, a), f'"{ids[1]}","read"'.encode())

    def refuse(*args: object, **kwargs: object) -> None:
        raise PermissionError(13, "Permission denied")  # a read-only mount (root writes anyway)

    monkeypatch.setattr(SyncFolder, "append", refuse)
    a.set_status(ids[3], "skipped")
    assert sync_library(a, folder).waiting == 2  # the skip, and the "read" to write again
    assert sync_library(a, folder).waiting == 2
    monkeypatch.undo()
    report = sync_library(a, folder)
    assert (report.sent, report.waiting) == (2, 0)
    sync_library(b, folder)
    assert shown(a) == shown(b)
    again = [r for r in all_records(folder) if r.paper == ids[1] and r.kind == "s"]
    assert len(again) == 1  # the damaged line is none: the status was written again once


def test_records_passed_on_for_a_device_whose_log_is_gone_are_written_again_too(
    tmp_path: Path, folder: Path
) -> None:
    """B passed on A's decisions when A's log went; a damaged line of B's log then hid one
    of them from every device joining afterwards."""
    a, b = seeded(tmp_path / "a"), Library(tmp_path / "b")
    ids = [p.id for p in a.papers()]
    a.set_statuses(ids[:4], "skipped")
    sync_library(a, folder), sync_library(b, folder)
    shutil.rmtree(own_log(folder, a).parent)  # someone tidied up
    assert sync_library(b, folder).relayed > 4
    b.set_status(ids[10], "read")  # a line of B's own after those it passed on
    sync_library(b, folder)
    damage_line(own_log(folder, b), f'"{ids[2]}","skipped"'.encode())

    report = sync_library(b, folder)

    assert report.sent_kinds["statuses"] == 1, report.summary()
    c = Library(tmp_path / "c")
    sync_library(c, folder)
    assert c.status(ids[2]).value == "skipped" and shown(c) == shown(b)


def test_a_log_damaged_before_this_version_kept_its_mark_is_mended_at_the_first_sync(
    tmp_path: Path, folder: Path
) -> None:
    """A state from before marks were kept: the log is read once, and mended."""
    a, b = seeded(tmp_path / "a"), Library(tmp_path / "b")
    ids = [p.id for p in a.papers()]
    a.set_statuses(ids[:3], "starred")
    sync_library(a, folder)
    path = state_path(a.home, folder)
    kept = orjson.loads(path.read_bytes())
    kept.pop("own_marks", None)
    path.write_bytes(orjson.dumps(kept))
    damage_line(own_log(folder, a), f'"{ids[0]}","starred"'.encode())
    sync_library(b, folder)
    assert b.status(ids[0]).value == "inbox"

    mended = sync_library(a, folder)
    sync_library(b, folder)

    assert any("own log was changed since it wrote it" in p for p in mended.problems)
    assert shown(a) == shown(b) and b.status(ids[0]).value == "starred"


def test_a_note_written_again_goes_with_what_it_was_written_over(
    tmp_path: Path, folder: Path
) -> None:
    """A note record is read with its basis (``records.BASIS``, the note its writer had seen:
    what tells a note written over another's from one written beside it): one written again
    after its line was damaged goes with the basis the log still holds."""
    a, b = seeded(tmp_path / "a"), Library(tmp_path / "b")
    pid = a.papers()[0].id
    sync_library(a, folder), sync_library(b, folder)
    b.set_note(pid, "from b")
    sync_library(b, folder)
    sync_library(a, folder)
    a.set_note(pid, "from a, after b's")
    a.set_status(a.papers()[1].id, "read")
    sync_library(a, folder)
    log = own_log(folder, a)
    damage_line(log, b'"from a, after')

    assert sync_library(a, folder).sent_kinds["notes"] == 1
    rows = [orjson.loads(line) for line in log.read_bytes().splitlines()[-2:]]
    assert [row[0] for row in rows] == ["b", "n"] and rows[1][4] == "from a, after b's"
    assert rows[0][1:4] == rows[1][1:4]  # the basis of that very note record
    sync_library(b, folder)
    assert b.triage().notes[pid] == "from a, after b's"


def test_tags_written_again_go_with_what_they_were_written_over(
    tmp_path: Path, folder: Path
) -> None:
    """As a note: tags sent with a note of the same paper in one sync go with their own basis
    (``records.BASIS`` of kind "g"), not the note's, once written again after damage."""
    a, b = seeded(tmp_path / "a"), Library(tmp_path / "b")
    pid = a.papers()[0].id
    sync_library(a, folder), sync_library(b, folder)
    b.set_tags(pid, ["from-b"])
    sync_library(b, folder)
    sync_library(a, folder)
    a.set_tags(pid, ["from-b", "from-a"])
    a.set_note(pid, "a note too")
    sync_library(a, folder)
    log = own_log(folder, a)
    damage_line(log, b'"from-a"')

    assert sync_library(a, folder).sent_kinds["tags"] == 1
    rows = [orjson.loads(line) for line in log.read_bytes().splitlines()[-2:]]
    assert [row[0] for row in rows] == ["b", "g"] and rows[1][4] == ["from-b", "from-a"]
    assert rows[0][1:4] == rows[1][1:4] and rows[0][4][0] == "g"
    sync_library(b, folder)
    assert b.triage().tags[pid] == ("from-b", "from-a")
