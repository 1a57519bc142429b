"""The limits a sync keeps whatever other devices write: stamps, names, cards, files."""

from __future__ import annotations

import os
import time
from pathlib import Path

import orjson
import pytest

from storage import Library
from storage.sync import sync_library
from storage.sync.device import MAX_NAME, clean_name
from storage.sync.folder import HOLE_SETTLE_MS, HOLE_WAIT_MS, MAX_CARD, Hole, SyncFolder
from storage.sync.records import (
    CLOCK_CEILING,
    MAX_AHEAD_MS,
    MAX_STAMP,
    Clock,
    Record,
    parse_record,
)
from tests.unit.test_sync_support import Machine, copy_folder, seeded, shown

DEVICE = "eeee000000000001"
PAPER = "0123456789ab"


def record(stamp: int) -> bytes:
    return orjson.dumps(["s", stamp, DEVICE, PAPER, "read"])


def two_devices(tmp_path: Path, read: int) -> tuple[Path, Library, Library, list[str], str]:
    """A synced folder, a seeded library ``a`` that read its first ``read`` papers and synced,
    and an empty one ``b``: the folder, both, ``a``'s papers' ids and its device's id."""
    folder = tmp_path / "synced"
    folder.mkdir()
    a, b = seeded(tmp_path / "a"), Library(tmp_path / "b")
    ids = [p.id for p in a.papers()]
    a.set_statuses(ids[:read], "read")
    return folder, a, b, ids, sync_library(a, folder).device.id


def test_a_stamp_no_calendar_holds_is_no_record_and_the_clock_keeps_headroom() -> None:
    assert parse_record(record(MAX_STAMP - 1)) is not None
    assert parse_record(record(MAX_STAMP)) is None
    clock = Clock(wall=lambda: 1_700_000_000.0)
    assert not clock.believable(MAX_STAMP - 1)  # a record stamped at the very end: held
    clock.see(MAX_STAMP - 1)  # seen all the same: the clock goes no further than its bound
    assert clock.last == 1_700_000_000_000 + MAX_AHEAD_MS
    far = Clock(wall=lambda: (MAX_STAMP - 1000) / 1000)  # a clock in the year 9998 itself
    far.see(MAX_STAMP - 1)
    stamps = [far.tick() for _ in range(1000)]
    assert all(parse_record(record(s)) is not None for s in stamps)  # still read everywhere
    assert stamps == sorted(set(stamps))  # and each after the one before
    now = 1_700_000_000_000
    assert Clock(2**53, wall=lambda: now / 1000).last == now + MAX_AHEAD_MS  # an old state
    assert Clock(wall=lambda: 1e15).tick() == CLOCK_CEILING  # a wall clock in year 31,000


def test_a_device_name_is_one_printable_line() -> None:
    assert clean_name("lab\tdesk\n\x1b[31m") == "lab desk [31m"
    assert clean_name("\u202eevil") == "evil"
    assert len(clean_name("研" * 500)) == MAX_NAME


def test_cards_are_small_regular_files(tmp_path: Path) -> None:
    place = SyncFolder(tmp_path)
    for n, write in enumerate(
        (
            lambda p: p.write_bytes(orjson.dumps({"id": p.parent.name, "name": "fine"})),
            lambda p: p.write_bytes(orjson.dumps({"id": p.parent.name, "pad": "x" * MAX_CARD})),
            lambda p: p.symlink_to("/dev/zero"),
            lambda p: os.mkfifo(p) if hasattr(os, "mkfifo") else None,
        )
    ):
        folder = tmp_path / "papers-tui" / f"eeee00000000000{n}"
        folder.mkdir(parents=True)
        write(folder / "device.json")
    assert list(place.cards()) == ["eeee000000000000"]


@pytest.mark.parametrize("block", [0, 1, 3])
def test_a_block_of_zeros_is_read_again_once_it_arrives(tmp_path: Path, block: int) -> None:
    """What a sync tool filling a file block by block, in any order, shows before a block
    arrives: 4 KiB of zeros, across lines. A few zeros in a line are damage, as before."""
    place = SyncFolder(tmp_path)
    whole = b"".join(record(1_700_000_000_000 + n) + b"\n" for n in range(300))
    log_path = tmp_path / "papers-tui" / DEVICE / "triage.jsonl"
    log_path.parent.mkdir(parents=True)
    start, end = block * 4096, (block + 1) * 4096
    log_path.write_bytes(whole[:start] + b"\0" * 4096 + whole[end:] + b"\0\0 damaged\n")
    (log,) = place.log_files()
    first = place.read(log, None)
    assert first.waiting and first.skipped == 0  # nothing after the zeros is read yet
    assert first.cursor.offset == whole.rfind(b"\n", 0, start) + 1
    assert len(first.records) < 300
    log_path.write_bytes(whole + b"\0\0 damaged\n")
    second = place.read(log, first.cursor)
    assert not second.restarted and not second.waiting and second.skipped == 1
    stamps = {r.stamp for r in first.records} | {r.stamp for r in second.records}
    assert stamps == {1_700_000_000_000 + n for n in range(300)}  # every record, once arrived
    assert second.cursor.offset == log_path.stat().st_size


@pytest.mark.parametrize("chunk", [50, 1 << 20])
def test_a_basis_last_in_a_log_waits_for_its_record_and_nothing_is_taken_twice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, chunk: int
) -> None:
    """A log another device wrote arrives cut after a BASIS line: the cursor stops before it,
    and it is read once, with its record, after the rest arrives (chunks as small as a line:
    a basis at a chunk's end is held for the next). A basis followed by another record (its
    own never written: a writer killed in between) is read past, as any line."""
    import storage.sync.folder

    monkeypatch.setattr(storage.sync.folder, "_CHUNK", chunk)
    place = SyncFolder(tmp_path)
    basis = orjson.dumps(["b", 1_700_000_000_005, DEVICE, PAPER, ["g", 0, ""]]) + b"\n"
    tags = orjson.dumps(["g", 1_700_000_000_005, DEVICE, PAPER, ["x"]]) + b"\n"
    head = b"".join(record(1_700_000_000_000 + n) + b"\n" for n in range(5))
    log_path = tmp_path / "papers-tui" / DEVICE / "triage.jsonl"
    log_path.parent.mkdir(parents=True)
    log_path.write_bytes(head + basis + b"\r\n")
    (log,) = place.log_files()
    taken: list[str] = []

    def sink(records: list[Record]) -> None:
        taken.extend(r.kind for r in records)

    first = place.read(log, None, sink)
    assert taken == 5 * ["s"] and first.cursor.offset == len(head)
    assert first.waiting == len(basis) + 2 and not first.skipped
    assert place.read(log, first.cursor, sink).cursor == first.cursor  # the same, read again
    log_path.write_bytes(head + basis + tags + basis)
    second = place.read(log, first.cursor, sink)
    assert taken == [*5 * ["s"], "b", "g"] and second.waiting == len(basis)
    log_path.write_bytes(head + basis + tags + basis + record(1_700_000_000_009) + b"\n")
    third = place.read(log, second.cursor, sink)
    assert taken[7:] == ["b", "s"] and not third.waiting
    assert third.cursor.offset == log_path.stat().st_size
    own = place.read(log, None, own=True)  # its own log: no byte of it on its way
    assert own.cursor.offset == log_path.stat().st_size


@pytest.mark.parametrize("chunk", [50, 1 << 20])
def test_a_basis_before_a_block_of_zeros_waits_there_with_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, chunk: int
) -> None:
    """A sync tool filling a log block by block shows zeros where the record after a BASIS
    goes: the cursor waits before the basis, not after it (read alone, it was gone when its
    record arrived, which then held no basis and dropped this device's tags or note). Zeros
    that stay are damage after their wait, as any: the basis is read past then."""
    import storage.sync.folder

    monkeypatch.setattr(storage.sync.folder, "_CHUNK", chunk)
    place = SyncFolder(tmp_path)
    basis = orjson.dumps(["b", 1_700_000_000_005, DEVICE, PAPER, ["g", 0, ""]]) + b"\n"
    tags = orjson.dumps(["g", 1_700_000_000_005, DEVICE, PAPER, ["x"]]) + b"\n"
    head = b"".join(record(1_700_000_000_000 + n) + b"\n" for n in range(5))
    after = record(1_700_000_000_009) + b"\n"
    log_path = tmp_path / "papers-tui" / DEVICE / "triage.jsonl"
    log_path.parent.mkdir(parents=True)
    log_path.write_bytes(head + basis + b"\0" * 4096 + b"\n" + after)
    (log,) = place.log_files()
    taken: list[str] = []

    def sink(records: list[Record]) -> None:
        taken.extend(r.kind for r in records)

    now = 1_800_000_000_000
    first = place.read(log, None, sink, now=now)
    assert taken == 5 * ["s"] and first.cursor.offset == len(head) and first.waiting
    assert first.hole == Hole(len(head), log_path.stat().st_size, now)
    again = place.read(log, first.cursor, sink, hole=first.hole, now=now + 60_000)
    assert again.cursor == first.cursor and again.hole == first.hole and taken == 5 * ["s"]
    log_path.write_bytes(head + basis + tags + after)
    second = place.read(log, first.cursor, sink, hole=first.hole, now=now + 60_000)
    assert taken[5:] == ["b", "g", "s"] and not second.waiting and second.hole is None
    taken.clear()
    log_path.write_bytes(head + basis + b"\0" * 4096 + b"\n" + after)  # zeros that stay
    day = place.read(log, first.cursor, sink, hole=first.hole, now=now + HOLE_WAIT_MS)
    assert taken == ["b", "s"] and day.skipped == 1 and not day.waiting
    assert day.cursor.offset == log_path.stat().st_size


@pytest.mark.parametrize("seed", range(40))
def test_a_log_arriving_block_by_block_gives_each_record_once_and_each_basis_with_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seed: int
) -> None:
    """A log a sync tool delivers in parts, its 512-byte blocks in any order (zeros until
    each arrives), read with chunks as small as a line and a budget of a few lines: bases
    first in a read, two in a row (a writer killed between a basis and its record), a
    basis before zeros or partly zeros itself. Every record is taken once, and each basis
    in the same read as the record after it."""
    import random

    import storage.sync.folder

    draw = random.Random(seed)
    monkeypatch.setattr(storage.sync.folder, "_CHUNK", draw.choice([50, 513, 1 << 20]))
    monkeypatch.setattr(storage.sync.folder, "READ_BUDGET", draw.choice([4000, 1 << 20]))
    lines: list[bytes] = []
    for stamp in range(1_700_000_000_000, 1_700_000_000_000 + draw.randrange(2, 30)):
        pad = "x" * draw.choice([1, 90])
        if draw.random() < 0.4:
            lines.append(record(stamp))
        else:  # a basis, and mostly its record
            lines.append(orjson.dumps(["b", stamp, DEVICE, PAPER, ["g", 0, ""]]))
            if draw.random() < 0.8:
                lines.append(orjson.dumps(["g", stamp, DEVICE, PAPER, [pad] * 8]))
    whole = b"".join(line + b"\n" for line in [*lines, record(1_700_000_000_999)])
    missing = {block for block in range(len(whole) // 512 + 1) if draw.random() < 0.4}
    size = draw.randrange(len(whole) + 1)
    place = SyncFolder(tmp_path)
    log_path = tmp_path / "papers-tui" / DEVICE / "triage.jsonl"
    log_path.parent.mkdir(parents=True)
    reads: list[list[Record]] = []
    read = None
    while read is None or read.waiting or read.more or size < len(whole) or missing:
        body = bytearray(whole[:size])
        for block in missing:
            at = slice(block * 512, block * 512 + 512)
            body[at] = bytes(len(body[at]))
        log_path.write_bytes(bytes(body))
        reads.append([])
        cursor, hole = (read.cursor, read.hole) if read else (None, None)
        (log,) = place.log_files()
        read = place.read(log, cursor, reads[-1].extend, hole=hole, now=1_800_000_000_000)
        assert not read.restarted and len(reads) < 200
        size = min(len(whole), size + draw.randrange(3000))
        missing -= {block for block in missing if draw.random() < 0.4}
    taken = [(r.kind, r.stamp) for part in reads for r in part]
    assert taken == [tuple(orjson.loads(line)[:2]) for line in whole.splitlines()]
    read_in = {(r.kind, r.stamp): n for n, part in enumerate(reads) for r in part}
    for (kind, stamp), n in read_in.items():
        assert kind != "b" or read_in.get(("g", stamp), n) == n  # with its record, if any


def test_zeros_that_stay_are_damage_once_the_log_grew_past_them_or_a_day_went_by(
    tmp_path: Path,
) -> None:
    """A USB stick pulled early leaves zeros for good: once the file was written past them,
    or a day went by, their line is skipped and everything after it read (it waited for
    ever, and nothing more than 1 MB past it ever arrived). In this device's own log, at
    once: it alone writes it."""
    place = SyncFolder(tmp_path)
    lines = [record(1_700_000_000_000 + n) + b"\n" for n in range(102)]
    log_path = tmp_path / "papers-tui" / DEVICE / "triage.jsonl"
    log_path.parent.mkdir(parents=True)
    log_path.write_bytes(b"".join(lines[:50]) + lines[50][:20] + b"\0" * 4096 + b"\n")
    log_path.write_bytes(log_path.read_bytes() + b"".join(lines[51:100]))
    (log,) = place.log_files()
    now = 1_800_000_000_000
    first = place.read(log, None, now=now)
    size = log_path.stat().st_size
    assert first.waiting and len(first.records) == 50
    assert first.hole == Hole(first.cursor.offset, size, now)
    hour = place.read(log, first.cursor, hole=first.hole, now=now + HOLE_SETTLE_MS)
    assert hour.waiting and hour.hole == first.hole and not hour.records  # still arriving?
    day = place.read(log, first.cursor, hole=first.hole, now=now + HOLE_WAIT_MS)
    assert not day.waiting and day.hole is None and day.skipped == 1 and len(day.records) == 49
    with log_path.open("ab") as out:  # its writer appended after the zeros
        out.write(b"".join(lines[100:]))
    soon = place.read(log, first.cursor, hole=first.hole, now=now + 60_000)
    assert soon.waiting and soon.hole == first.hole  # (a sync tool may still be filling it)
    grown = place.read(log, first.cursor, hole=first.hole, now=now + HOLE_SETTLE_MS)
    assert not grown.waiting and grown.skipped == 1
    assert {r.stamp for r in [*first.records, *grown.records]} == {
        1_700_000_000_000 + n for n in range(102) if n != 50
    }
    own = place.read(log, None, own=True)
    assert not own.waiting and own.skipped == 1 and len(own.records) == 101


def test_a_log_waiting_at_zeros_counts_nothing_twice_and_is_read_past_them_in_the_end(
    tmp_path: Path,
) -> None:
    folder, a, b, ids, device = two_devices(tmp_path, read=30)
    log_path = folder / "papers-tui" / device / "triage.jsonl"
    with log_path.open("r+b") as out:  # a crash left its last kilobyte zeros
        out.seek(log_path.stat().st_size - 1024)
        out.write(b"\0" * 1024)
    a.set_statuses(ids[30:33], "starred")
    owner = sync_library(a, folder)  # its own log's damage is said where it was made too
    assert any(
        "own log was changed since it wrote it (1 damaged line)" in p for p in owner.problems
    )
    now = time.time()
    first = sync_library(b, folder, wall=lambda: now)
    assert any("not fully arrived" in p for p in first.problems)
    again = sync_library(b, folder, wall=lambda: now + 3600)
    assert again.received == 0  # the records before the zeros were received once
    assert all(b.status(pid).value != "starred" for pid in ids[30:33])
    later = sync_library(b, folder, wall=lambda: now + HOLE_WAIT_MS / 1000)
    assert any("1 damaged line(s) skipped" in p for p in later.problems)
    assert all(b.status(pid).value == "starred" for pid in ids[30:33])
    assert not sync_library(b, folder, wall=lambda: now + HOLE_WAIT_MS / 1000).problems
    assert not sync_library(a, folder).problems  # said once: written again, the log mended
    assert shown(a) == shown(b)


def test_a_dangling_link_as_this_devices_log_keeps_the_change_waiting(tmp_path: Path) -> None:
    folder = tmp_path / "synced"
    folder.mkdir()
    library = seeded(tmp_path / "home")
    report = sync_library(library, folder)
    log = folder / "papers-tui" / report.device.id / "triage.jsonl"
    log.unlink(missing_ok=True)
    log.symlink_to(tmp_path / "nowhere" / "x")
    library.set_status(library.papers()[0].id, "read")
    report = sync_library(library, folder)
    assert report.waiting == 1 and any("symbolic link" in p for p in report.problems)
    assert not (tmp_path / "nowhere").exists()
    log.unlink()
    assert sync_library(library, folder).waiting == 0
    other = Library(tmp_path / "other")
    sync_library(other, folder)
    assert other.status(library.papers()[0].id).value == "read"


#: Sync states that parse but hold a value of the wrong type, each of which once stopped every
#: sync with an internal error (``load_state`` promises one that does not read starts afresh).
WRONG_STATES = {
    "an outbox row that is a number": {"outbox": [5]},
    "an outbox row cut short": {"outbox": [["s"]]},
    "a pending merge that is a number": {"pending": 5},
    "a register that is a number": {"registers": {"s": {PAPER: 5}}},
    "a register holding no status": {"registers": {"s": {PAPER: [1, DEVICE, 5]}}},
    "a cursor that is a number": {"cursors": {f"{DEVICE}/triage.jsonl": 5}},
    "a log's size that is text": {"own_sizes": {"triage.jsonl": "big"}},
    "a device that is a list": {"devices": {DEVICE: ["a", "list"]}},
    "a clock that is text": {"clock": "soon"},
}


@pytest.mark.parametrize("wrong", WRONG_STATES.values(), ids=list(WRONG_STATES))
def test_a_state_of_wrong_types_is_started_afresh(tmp_path: Path, wrong: dict[str, object]) -> None:
    from storage.sync.state import state_path

    folder = tmp_path / "synced"
    folder.mkdir()
    laptop, desktop = seeded(tmp_path / "laptop"), Library(tmp_path / "desktop")
    sync_library(laptop, folder), sync_library(desktop, folder)
    path = state_path(laptop.home, folder)
    path.write_bytes(orjson.dumps({**orjson.loads(path.read_bytes()), **wrong}))
    pid = laptop.papers()[0].id
    laptop.set_status(pid, "starred")

    report = sync_library(laptop, folder)

    assert any("starting the sync afresh" in p for p in report.problems), report.problems
    assert sum(sync_library(laptop, folder).applied.values()) == 0  # read well again
    sync_library(desktop, folder)
    assert desktop.status(pid).value == "starred"


def test_a_state_a_sync_saved_reads_back_whatever_the_cards_said(tmp_path: Path) -> None:
    """What the sync keeps of other devices' cards (a time that is ``true``, or a number past
    any calendar) is what its state may hold: else each sync would start it afresh."""
    from storage.sync.state import load_state, state_path

    folder = tmp_path / "synced"
    for n, synced in enumerate([True, 10**18, "yesterday", 1.5]):
        device = f"eeee00000000010{n}"
        card = folder / "papers-tui" / device / "device.json"
        card.parent.mkdir(parents=True)
        card.write_bytes(orjson.dumps({"id": device, "name": ["x"], "synced": synced}))
    laptop = seeded(tmp_path / "laptop")
    sync_library(laptop, folder)
    assert load_state(state_path(laptop.home, folder), folder, "")[1] == ""
    assert not any("afresh" in p for p in sync_library(laptop, folder).problems)


@pytest.mark.parametrize("end", ["cut", "whole", "basis"])
def test_a_last_record_that_never_arrives_is_damage_once_a_day_went_by(
    tmp_path: Path, end: str
) -> None:
    """Another device's log ending in a line without its line end (its writer killed in an
    append, never to sync again), or in a basis without its record: "its last record has not
    fully arrived" at every sync, for ever. Once it stayed as long as zeros that stay, a record
    whole but for its line end is damage, said once, and taken; a line cut short or a basis
    may still be on its way (a laptop asleep): waited for unsaid, nothing after it waits."""
    folder, a, b, ids, device = two_devices(tmp_path, read=3)
    log_path = folder / "papers-tui" / device / "triage.jsonl"
    last = orjson.dumps(["s", 1_700_000_000_000, device, ids[5], "skipped"])
    basis = orjson.dumps(["b", 1_700_000_000_001, device, ids[6], ["n", 0, ""]])
    tails = {"cut": last[:-9], "whole": last, "basis": basis + b"\n"}
    with log_path.open("ab") as out:
        out.write(tails[end])
    now = time.time()
    first = sync_library(b, folder, wall=lambda: now)
    assert first.received_kinds["statuses"] == 3 and len(first.problems) == 1
    assert "its last record has not fully arrived" in first.problems[0]
    hour = sync_library(b, folder, wall=lambda: now + HOLE_SETTLE_MS / 1000)
    assert hour.received == 0 and hour.problems == first.problems  # still on its way?
    day = sync_library(b, folder, wall=lambda: now + HOLE_WAIT_MS / 1000)
    said = "its last line never got its line end, and nothing more arrived: damage, read as it is"
    assert [p.split(": ", 2)[2] for p in day.problems] == ([said] if end == "whole" else [])
    assert day.received == (end == "whole")
    assert b.status(ids[5]).value == ("skipped" if end == "whole" else "inbox")
    assert not sync_library(b, folder, wall=lambda: now + HOLE_WAIT_MS / 1000 + 60).problems
    a.set_status(ids[7], "starred")  # its writer back: its next append is read whole
    sync_library(a, folder)
    back = sync_library(b, folder, wall=lambda: now + HOLE_WAIT_MS / 1000 + 120)
    assert b.status(ids[7]).value == "starred", back.problems
    cut = [p.split(": ", 2)[2] for p in back.problems] == ["1 damaged line(s) skipped"]
    assert cut if end == "cut" else not back.problems, back.problems


@pytest.mark.parametrize("wait", ["asleep a day", "a slow tool"])
def test_a_last_record_still_arriving_after_the_wait_is_read_once_it_arrives(
    tmp_path: Path, wait: str
) -> None:
    """A last line not ended yet, seen again after the wait zeros get (a laptop asleep for a
    day with the log half arrived, or a slow sync tool that brought more of it since, ten
    minutes on), is still on its way: its rest arrives, and its record is read. Taken as a
    damaged line then, the cursor went past its start, and the record was lost for good."""
    folder, a, b, ids, device = two_devices(tmp_path, read=3)
    log_path = folder / "papers-tui" / device / "triage.jsonl"
    last = orjson.dumps(["s", 1_700_000_000_000, device, ids[5], "skipped"]) + b"\n"
    with log_path.open("ab") as out:
        out.write(last[:10])
    now = time.time()
    assert sync_library(b, folder, wall=lambda: now).received_kinds["statuses"] == 3
    later = now + (HOLE_WAIT_MS if wait == "asleep a day" else HOLE_SETTLE_MS) / 1000
    if wait == "a slow tool":
        with log_path.open("ab") as out:
            out.write(last[10:20])
    sync_library(b, folder, wall=lambda: later)
    with log_path.open("ab") as out:
        out.write(last[20 if wait == "a slow tool" else 10 :])
    arrived = sync_library(b, folder, wall=lambda: later + 60)
    assert b.status(ids[5]).value == "skipped", arrived.problems
    assert not arrived.problems, arrived.problems


def test_a_basis_last_whose_record_arrives_after_the_wait_is_read_with_it(
    tmp_path: Path,
) -> None:
    """A note's or tags' basis last in another's log, its record arriving only after the wait
    (a laptop asleep for a day): read with its record, so that what both devices added is
    kept. Taken as damage, the record came without its basis and the later list won: the tag
    added here was lost."""
    a, b = Machine(tmp_path / "a", tmp_path / "fa"), Machine(tmp_path / "b", tmp_path / "fb")
    a.seed()
    pid = next(p.id for p in a.library.papers())
    a.library.set_status(pid, "read")
    a.sync()
    copy_folder(a.folder, b.folder)
    b.sync()
    copy_folder(b.folder, a.folder)
    a.sync()
    b.library.set_tags(pid, ["theory"])
    b.sync()
    a.library.set_tags(pid, ["rl"])
    a.sync()
    log_a = a.folder / "papers-tui" / a.device_id / "triage.jsonl"
    log_b = b.folder / "papers-tui" / a.device_id / "triage.jsonl"
    body, known = log_a.read_bytes(), log_b.read_bytes()
    lines = body[len(known) :].splitlines(keepends=True)
    assert [line[:5] for line in lines] == [b'["b",', b'["g",'], lines
    log_b.write_bytes(known + lines[0])  # the basis arrived, its record not yet
    now = time.time()
    b.base = lambda: now
    b.sync()
    b.base = lambda: now + HOLE_WAIT_MS / 1000
    b.sync()
    log_b.write_bytes(body)
    b.base = lambda: now + HOLE_WAIT_MS / 1000 + 60
    b.sync()
    assert sorted(b.library.triage().tags[pid]) == ["rl", "theory"]
