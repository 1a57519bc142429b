"""A tag taken out on two devices at once, then put back on one (storage.sync.both): putting
it back is the later decision, and holds on both; taken out again later, it stays out."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.test_sync_both import clock, machines, tags

__all__ = ["clock"]


def test_a_tag_taken_out_on_both_devices_and_put_back_on_one_is_back_on_both(
    tmp_path: Path, clock: list[float]
) -> None:
    """#t out on the laptop (which adds #x) and, unseen, on the desktop, which then puts it
    back (its two lists sent one sync apart). The merge took both as written over [a, t]:
    the desktop's [a, t] looked unchanged, the laptop's took #t out, and #t was gone from
    both, though putting it back came after both took it out."""
    (laptop, desktop), pid = machines(tmp_path, clock, "laptop", "desktop")
    laptop.library.set_tags(pid, ["a", "t"])
    laptop.sync(), desktop.sync()
    clock[0] += 60
    laptop.library.set_tags(pid, ["a", "x"])
    clock[0] += 60
    desktop.library.set_tags(pid, ["a"])
    desktop.sync()
    clock[0] += 60
    desktop.library.set_tags(pid, ["a", "t"])  # put back: the last decision of all
    desktop.sync()
    clock[0] += 60

    assert laptop.sync().tags_merged == 1  # its own lost to the desktop's
    desktop.sync()

    assert tags(laptop, pid) == tags(desktop, pid) == {"a", "t", "x"}


def test_a_tag_put_back_then_taken_out_later_on_the_other_device_stays_out(
    tmp_path: Path, clock: list[float]
) -> None:
    """The other way round: #t put back on the desktop, then taken out on the laptop later
    (with #x added), without seeing it: the laptop's is the later decision on #t."""
    (laptop, desktop), pid = machines(tmp_path, clock, "laptop", "desktop")
    laptop.library.set_tags(pid, ["a", "t"])
    laptop.sync(), desktop.sync()
    clock[0] += 60
    desktop.library.set_tags(pid, ["a"])
    desktop.sync()
    clock[0] += 60
    desktop.library.set_tags(pid, ["a", "t", "y"])
    desktop.sync()
    clock[0] += 60
    laptop.library.set_tags(pid, ["a", "x"])  # later, not having seen the desktop's
    clock[0] += 60

    for machine in (laptop, desktop, laptop, desktop):
        machine.sync()
        clock[0] += 1

    assert tags(laptop, pid) == tags(desktop, pid) == {"a", "x", "y"}


def test_a_tag_put_back_after_the_other_read_it_taken_out_is_back(
    tmp_path: Path, clock: list[float]
) -> None:
    """#t out on the desktop (sent), out on the laptop unseen, then back on the desktop: the
    last decision. The laptop reads the desktop's #t out in one sync (its own list, later,
    holds), the put back in the next. The merge went back only through the records read now
    (the put back), over the [t] both were written over, and #t was gone from both: the
    desktop's records read while the laptop's held the paper are kept now (``tags_read``)."""
    (laptop, desktop), pid = machines(tmp_path, clock, "laptop", "desktop")
    laptop.library.set_tags(pid, ["a", "t"])
    laptop.sync(), desktop.sync()
    clock[0] += 60
    desktop.library.set_tags(pid, ["t"])
    desktop.sync()
    clock[0] += 60
    laptop.sync()  # [t]
    clock[0] += 60
    desktop.library.set_tags(pid, ["c"])  # #t out
    desktop.sync()
    clock[0] += 60
    laptop.library.set_tags(pid, [])  # #t out, not having seen the desktop's
    clock[0] += 60
    desktop.library.set_tags(pid, ["a", "t"])  # #t back: the last decision of all
    for machine in (laptop, desktop, laptop, desktop):
        clock[0] += 1
        machine.sync()

    assert tags(laptop, pid) == tags(desktop, pid) == {"a", "t"}


def test_merged_tags_take_each_tag_both_changed_as_the_later_change_left_it() -> None:
    from storage.sync.both import merged_tags

    ours, theirs = {"t": (1, "laptop"), "x": (1, "laptop")}, {"t": (3, "desktop")}
    assert merged_tags(["a", "t"], ["a", "x"], ["a", "t"], ours, theirs) == ["a", "t", "x"]
    theirs = {"t": (0, "desktop")}  # put back before the laptop took it out
    assert merged_tags(["a", "t"], ["a", "x"], ["a", "t"], ours, theirs) == ["a", "x"]


def test_a_tag_taken_out_after_reading_the_put_back_stays_out(
    tmp_path: Path, clock: list[float]
) -> None:
    """The case above, then the other order: the laptop, having read the desktop's #t back
    (and merged it), takes #t out: the later decision, a plain edit, holds on both."""
    (laptop, desktop), pid = machines(tmp_path, clock, "laptop", "desktop")
    laptop.library.set_tags(pid, ["a", "t"])
    laptop.sync(), desktop.sync()
    clock[0] += 60
    desktop.library.set_tags(pid, ["t"])
    desktop.sync()
    clock[0] += 60
    laptop.sync()
    clock[0] += 60
    desktop.library.set_tags(pid, ["c"])  # #t out
    desktop.sync()
    clock[0] += 60
    laptop.library.set_tags(pid, [])  # #t out, not having seen the desktop's
    clock[0] += 60
    desktop.library.set_tags(pid, ["a", "t"])  # #t back
    for machine in (laptop, desktop, laptop):
        clock[0] += 1
        machine.sync()
    assert tags(laptop, pid) == {"a", "t"}
    clock[0] += 60
    laptop.library.set_tags(pid, ["a"])  # #t out again, after reading the put back

    for machine in (laptop, desktop, laptop, desktop):
        clock[0] += 1
        machine.sync()

    assert tags(laptop, pid) == tags(desktop, pid) == {"a"}


def test_a_tag_put_back_then_taken_out_later_by_one_read_over_two_syncs_stays_out(
    tmp_path: Path, clock: list[float]
) -> None:
    """#t out on the desktop, then back; the laptop, reading the desktop's out in one sync,
    adds #x, then takes #t out later than the put back, not having seen it. The desktop reads
    the laptop's #x in one sync (its put back holds), the #t out in the next: going back
    through both, #t out is the later decision on #t, and holds on both."""
    (laptop, desktop), pid = machines(tmp_path, clock, "laptop", "desktop")
    laptop.library.set_tags(pid, ["a", "t"])
    laptop.sync(), desktop.sync()
    clock[0] += 60
    desktop.library.set_tags(pid, ["t"])
    desktop.sync()
    clock[0] += 60
    laptop.sync()  # [t]
    clock[0] += 60
    desktop.library.set_tags(pid, ["c"])  # #t out
    desktop.sync()
    clock[0] += 60
    laptop.library.set_tags(pid, ["t", "x"])  # not having seen the desktop's #t out
    laptop.sync()  # reads it: its own, later, holds
    clock[0] += 60
    desktop.library.set_tags(pid, ["a", "t"])  # #t back
    desktop.sync()  # reads the laptop's [t, x]: its own, later, holds
    clock[0] += 60
    laptop.library.set_tags(pid, ["x"])  # #t out, the last decision, not having seen it back

    for machine in (laptop, desktop, laptop, desktop):
        clock[0] += 1
        machine.sync()

    assert tags(laptop, pid) == tags(desktop, pid) == {"a", "x"}


def test_a_record_read_earlier_leading_back_to_ours_before_the_chain_adds_no_tag(
    tmp_path: Path, clock: list[float]
) -> None:
    """Three devices, one folder (found by review). B takes #t out (Y), A reads it; C, not
    having synced since A's [a, t] (X), adds #c (R); A adds #p (C0). A reads R, which loses to
    C0 and is kept with its basis, X. C, still not having seen C0, takes #a and #c out (R2).
    Going back from R2 through the kept R reached X, one of A's own before its chain: the
    merge then took the tags as not known and kept both lists whole, #a back on every device.
    Without the kept records it stopped at R: so it does again. (a: out last, by C; t: out,
    by B; c: out; p: in.)"""
    (a, b, c), pid = machines(tmp_path, clock, "a", "b", "c")
    a.library.set_tags(pid, ["a", "t"])  # X
    a.sync(), b.sync(), c.sync()
    clock[0] += 60
    b.library.set_tags(pid, ["a"])  # Y
    b.sync()
    clock[0] += 60
    a.sync()
    assert tags(a, pid) == {"a"}
    clock[0] += 60
    c.library.set_tags(pid, ["a", "t", "c"])  # R
    clock[0] += 60
    a.library.set_tags(pid, ["a", "p"])  # C0
    c.sync()
    clock[0] += 60
    a.sync()
    clock[0] += 60
    c.library.set_tags(pid, ["t"])  # R2
    c.sync()
    clock[0] += 60
    a.sync()
    for _round in range(3):
        for machine in (a, b, c):
            clock[0] += 1
            machine.sync()

    assert tags(a, pid) == tags(b, pid) == tags(c, pid) == {"p"}


def test_a_state_without_the_records_read_earlier_still_syncs(
    tmp_path: Path, clock: list[float]
) -> None:
    """A state written by the version before (no ``tags_read``) reads and syncs: the merge
    then goes back only through the records read now, as that version did; and the state
    written after it keeps them again."""
    import orjson

    (laptop, desktop), pid = machines(tmp_path, clock, "laptop", "desktop")
    laptop.library.set_tags(pid, ["a", "t"])
    laptop.sync(), desktop.sync()
    clock[0] += 60
    desktop.library.set_tags(pid, ["t"])
    desktop.sync()
    clock[0] += 60
    laptop.sync()
    clock[0] += 60
    desktop.library.set_tags(pid, ["c"])
    desktop.sync()
    clock[0] += 60
    laptop.library.set_tags(pid, [])
    laptop.sync()  # reads the desktop's #t out: kept in its state
    clock[0] += 60
    desktop.library.set_tags(pid, ["a", "t"])
    desktop.sync()
    (path,) = (laptop.home / "sync").glob("folder-*.json")
    data = orjson.loads(path.read_bytes())
    assert data["tags_read"][pid]
    del data["tags_read"]  # as the version before wrote it
    path.write_bytes(orjson.dumps(data))
    clock[0] += 60

    report = laptop.sync()
    desktop.sync(), laptop.sync()

    assert report.problems == []
    assert tags(laptop, pid) == tags(desktop, pid)
    assert "a" in tags(laptop, pid)
    assert "tags_read" in orjson.loads(path.read_bytes())


def test_the_records_read_earlier_are_read_from_a_state_only_when_well_formed() -> None:
    """``tags_read`` absent: none; a field a later version adds: ignored; a row of the wrong
    shape: the state does not read (started afresh, as any damaged state)."""
    from storage.sync.state import SyncState

    assert SyncState.from_json({}).tags_read == {}
    row = [7, "dev", ["a"], [5, "me"]]
    state = SyncState.from_json({"tags_read": {"p1": [row, [8, "dev", [], None]]}, "later": 1})
    assert state.tags_read == {"p1": [row, [8, "dev", [], None]]}
    assert SyncState.from_json(state.to_json()).tags_read == state.tags_read
    for bad in ([[7, "dev", ["a"]]], [[7, "dev", "a", None]], [[7, "dev", [], [5]]], {}):
        with pytest.raises(ValueError):
            SyncState.from_json({"tags_read": {"p1": bad}})
