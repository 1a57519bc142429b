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


@pytest.mark.xfail(
    strict=True,
    reason="review2: the other's records read in an earlier sync are not among the changes "
    "_tags_seen goes back through (Folded.values holds only those read now): the desktop's "
    "#t out was read before its put back, which then looks like no change of #t",
)
def test_a_tag_put_back_after_the_other_read_it_taken_out_is_back(
    tmp_path: Path, clock: list[float]
) -> None:
    """#t out on the desktop (sent), out on the laptop unseen, then back on the desktop: the
    last decision. The laptop reads the desktop's #t out in one sync (its own list, later,
    holds), the put back in the next: the merge then knows only the put back, over the [t]
    both were written over, and #t is gone from both (as before the fix of the case above)."""
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
