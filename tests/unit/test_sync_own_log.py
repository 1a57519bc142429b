"""A device's own log changed in the folder by another hand (storage.sync.own): what it no
longer holds readably is written again at its end, once, and a log as the device left it is
not read again."""

from __future__ import annotations

import functools
import shutil
from collections.abc import Callable
from pathlib import Path

import orjson
import pytest

from storage import Library
from storage.sync import SyncReport, sync_library
from storage.sync.folder import ROOT_NAME, SyncFolder
from storage.sync.state import state_path
from tests.unit.test_sync_support import all_records, damage, seeded, shown, told_two_ways

LOGS = ("triage.jsonl", "papers.jsonl")


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


def test_a_paper_changed_here_since_its_lost_record_is_sent_anew_not_under_the_old_stamp(
    tmp_path: Path, folder: Path
) -> None:
    """The paper's line damaged after the paper was put in a second list here, not synced yet:
    its record was written again with the library's document under the old stamp (two values
    of one record; the change dated before it was made, so that another device's change made
    in between beat it). The change is sent as any is, stamped now."""
    lists = []
    for n in range(2):
        lists.append(path := tmp_path / f"list{n}.jsonl")
        row = {"title": "Paper 0", "abstract": "We study problem 0 of the pool, at length."}
        path.write_bytes(orjson.dumps(row))
    a = Library(tmp_path / "a")
    a.import_file(lists[0])
    sync_library(a, folder)
    [before] = [r.stamp for r in all_records(folder)]
    a.import_file(lists[1])  # the paper in both lists now
    damage_line(own_log(folder, a, "papers.jsonl"), b"Paper 0")
    report = sync_library(a, folder)
    assert told_two_ways(folder) == [] and report.sent == 1
    [after] = [r.stamp for r in all_records(folder)]
    assert after > before
    b = Library(tmp_path / "b")
    sync_library(b, folder)
    assert shown(b) == shown(a) and [p.lists for p in b.papers()] == [("list0", "list1")]


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


class Killed(BaseException):
    """The process ends here (kill -9): nothing of it runs after this point."""


def _synced_right_after(monkeypatch: pytest.MonkeyPatch) -> Callable[..., SyncReport]:
    """Syncs at 0.6 s past a second, within that second of the decisions: a status's time,
    kept to the nearest second, is then later than the sync's clock, which stamps its record
    at its now (taken as a record of an earlier decision, the status was sent again, and
    stamped anew, by the sync after one cut short)."""
    import storage.files.triage_file

    at = 1_796_000_000.6
    monkeypatch.setattr(storage.files.triage_file, "now", lambda: at)
    return functools.partial(sync_library, wall=lambda: at)


def _killed_after_append(
    a: Library,
    folder: Path,
    monkeypatch: pytest.MonkeyPatch,
    *,
    half: bool = False,
    sync: Callable[..., SyncReport] = sync_library,
) -> None:
    """Sync ``a``, killed once it appended its records to its logs (``half``: halfway
    through its first append), before it wrote triage.json and saved its state."""
    import os

    import storage.sync.folder
    import storage.sync.run

    def kill(*args: object, **kwargs: object) -> None:
        raise Killed

    write = os.write

    def half_write(fd: int, data: bytes) -> int:
        if not os.readlink(f"/proc/self/fd/{fd}").endswith(".jsonl"):
            return write(fd, data)
        write(fd, bytes(data[: len(data) // 2]))
        raise Killed

    with monkeypatch.context() as patch:
        patch.setattr(storage.sync.run, "apply_plan", kill)
        if half:
            patch.setattr(storage.sync.folder.os, "write", half_write)
        with pytest.raises(Killed):
            sync(a, folder)


def test_records_a_sync_killed_after_its_append_wrote_are_not_sent_again(
    tmp_path: Path, folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The sync after one killed right after it appended its records appended them again,
    and said "sent 1 tag change" for a change already sent; a change made since is sent."""
    sync = _synced_right_after(monkeypatch)
    a, b = seeded(tmp_path / "a"), Library(tmp_path / "b")
    ids = [p.id for p in a.papers()]
    sync(a, folder), sync(b, folder)
    a.set_tags(ids[0], ["rl"])
    a.set_status(ids[1], "read")
    a.remove([ids[2]])
    _killed_after_append(Library(a.home), folder, monkeypatch, sync=sync)
    logs = {name: own_log(folder, a, name).read_bytes() for name in LOGS}

    report = sync(Library(a.home), folder)

    assert "sent nothing" in report.summary() and not report.problems, report.summary()
    assert {name: own_log(folder, a, name).read_bytes() for name in LOGS} == logs
    sync(b, folder)
    assert shown(b) == shown(a) and b.triage().tags[ids[0]] == ("rl",)
    a.set_status(ids[3], "skipped")
    assert sync(a, folder).sent_kinds == {"statuses": 1}
    assert sync(a, folder).sent == 0 and sync(b, folder).received == 1
    assert shown(b) == shown(a)


def test_records_a_sync_killed_halfway_through_its_append_are_sent_by_the_next(
    tmp_path: Path, folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What the killed append did not write whole is appended again: nothing is lost."""
    sync = _synced_right_after(monkeypatch)
    a, b = seeded(tmp_path / "a"), Library(tmp_path / "b")
    ids = [p.id for p in a.papers()]
    sync(a, folder), sync(b, folder)
    a.set_tags(ids[0], ["rl"])
    a.set_status(ids[1], "read")
    _killed_after_append(Library(a.home), folder, monkeypatch, half=True, sync=sync)

    report = sync(Library(a.home), folder)

    assert report.sent_kinds == {"statuses": 1, "tags": 1}, report.summary()
    sync(b, folder)
    assert shown(b) == shown(a) and b.status(ids[1]).value == "read"


@pytest.mark.parametrize("when", ["before the next sync", "after the next sync", "altered"])
def test_records_a_killed_append_wrote_and_a_sync_tool_took_back_are_sent_again(
    tmp_path: Path, folder: Path, monkeypatch: pytest.MonkeyPatch, when: str
) -> None:
    """A sync killed right after its append; the sync tool then puts back an older copy of
    the log (before the next sync: the records are not there to be taken out of the
    outbox; after it: they were, and are gone since), or changes a byte of what was
    appended (the same size): each record is in the log again, readably, and reaches the
    other device (checked, found right: a guard)."""
    a, b = seeded(tmp_path / "a"), Library(tmp_path / "b")
    ids = [p.id for p in a.papers()]
    a.set_status(ids[5], "skipped")
    sync_library(a, folder), sync_library(b, folder)
    log = own_log(folder, a)
    older = log.read_bytes()
    a.set_tags(ids[0], ["rl"])
    a.set_status(ids[1], "read")
    a.set_note(ids[2], "see §3")
    _killed_after_append(Library(a.home), folder, monkeypatch)
    assert len(log.read_bytes()) > len(older)
    if when == "before the next sync":
        log.write_bytes(older)
    elif when == "altered":
        body = bytearray(log.read_bytes())
        body[len(older) + 2] ^= 0x01  # the first appended record's kind, another letter
        log.write_bytes(bytes(body))

    sync_library(Library(a.home), folder)
    if when == "after the next sync":
        log.write_bytes(older)
        sync_library(Library(a.home), folder)

    sync_library(b, folder)
    assert b.triage().tags.get(ids[0]) == ("rl",)
    assert b.status(ids[1]).value == "read" and b.triage().notes.get(ids[2]) == "see §3"
    assert shown(b) == shown(Library(a.home))


def test_records_passed_on_by_a_sync_killed_before_its_merge_are_not_undone_by_the_next(
    tmp_path: Path, folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another device's log read again from its start (git's autocrlf rewrote it) has its
    records passed on; the sync is killed after its append, before its merge wrote them
    into triage.json. The next one took the passed-on records, in its outbox, for what the
    library held: the tag missing from triage.json looked taken out here, and a record of
    no tags, stamped now, took it out on every device (the random test found it)."""
    a, c = seeded(tmp_path / "a"), seeded(tmp_path / "c")
    ids = [p.id for p in a.papers()]
    a.set_status(ids[5], "read")
    c.set_status(ids[6], "read")
    sync_library(a, folder), sync_library(c, folder), sync_library(a, folder)
    c.set_tags(ids[0], ["survey"])
    c.set_note(ids[1], "from c")
    c.set_status(ids[2], "starred")
    sync_library(c, folder)
    log = own_log(folder, c)
    log.write_bytes(log.read_bytes().replace(b"\n", b"\r\n"))
    _killed_after_append(Library(a.home), folder, monkeypatch)

    report = sync_library(Library(a.home), folder)

    assert report.sent_kinds == {}, report.summary()
    sync_library(c, folder)
    for library in (Library(a.home), Library(c.home)):
        assert library.triage().tags.get(ids[0]) == ("survey",)
        assert library.triage().notes.get(ids[1]) == "from c"
        assert library.status(ids[2]).value == "starred"
