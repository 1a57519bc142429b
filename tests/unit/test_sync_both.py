"""A note edited on two devices at once (storage.sync.both): both texts kept, on every device
the same, once; a plain edit made after seeing the other's is never merged back."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from storage.sync.folder import ROOT_NAME, TRIAGE_LOG
from storage.sync.records import BASIS, NOTE, PAPER
from tests.unit.test_sync_support import Machine, all_records


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """One clock for the devices and the times ``triage.json`` keeps (moved by hand)."""
    import storage.files.triage_file

    now = [1_800_000_000.0]
    monkeypatch.setattr(storage.files.triage_file, "now", lambda: now[0])
    return now


def machines(tmp_path: Path, clock: list[float], *names: str) -> tuple[list[Machine], str]:
    """Devices synced once, named, the first with the sample papers; and a paper of them."""
    folder = tmp_path / "synced"
    found = [Machine(tmp_path / name, folder, base=lambda: clock[0]) for name in names]
    found[0].seed()
    for machine, name in zip(found, names, strict=True):
        machine.sync(name)
    return found, found[0].library.papers()[0].id


def note(machine: Machine, pid: str) -> str:
    return machine.library.triage().notes.get(pid, "")


def test_notes_written_on_two_devices_at_once_are_both_kept(
    tmp_path: Path, clock: list[float]
) -> None:
    """The reviewer's case: the laptop's long note, then the desktop's short one written
    without seeing it. The laptop's text was dropped, said only as "changed here: 1 note"."""
    (laptop, desktop), pid = machines(tmp_path, clock, "laptop", "desktop")
    clock[0] += 60
    laptop.library.set_note(pid, "Laptop: detailed notes on proof of Thm 2")
    clock[0] += 60
    desktop.library.set_note(pid, "desktop: skim later")
    laptop.sync(), desktop.sync()
    clock[0] += 60

    report = laptop.sync()

    assert report.summary().endswith("1 note edited on both devices: both texts kept")
    kept = note(laptop, pid)
    assert kept.startswith("desktop: skim later\n\n--- also written on laptop, ")
    assert kept.endswith(": kept by sync ---\nLaptop: detailed notes on proof of Thm 2")
    desktop.sync()
    assert note(desktop, pid) == kept
    for machine in (laptop, desktop, laptop):  # nothing more to do: no merge of the merge
        report = machine.sync()
        assert (report.sent, report.received, report.kept_both) == (0, 0, 0)
    assert note(laptop, pid) == note(desktop, pid) == kept


def test_the_note_written_first_and_synced_last_keeps_its_text_too(
    tmp_path: Path, clock: list[float]
) -> None:
    """The desktop wrote first but syncs last: its own note loses in the sync that sends it,
    and that sync keeps both."""
    (laptop, desktop), pid = machines(tmp_path, clock, "laptop", "desktop")
    clock[0] += 60
    desktop.library.set_note(pid, "written first, on the desktop")
    clock[0] += 60
    laptop.library.set_note(pid, "written last, on the laptop")
    laptop.sync()

    report = desktop.sync()

    assert report.kept_both == 1
    laptop.sync()
    both = "written last, on the laptop\n\n--- also written on desktop, "
    assert note(desktop, pid) == note(laptop, pid)
    assert note(laptop, pid).startswith(both)
    assert note(laptop, pid).endswith("---\nwritten first, on the desktop")


def test_a_note_edited_after_seeing_the_other_is_a_plain_edit(
    tmp_path: Path, clock: list[float]
) -> None:
    """Text taken out on the desktop, after it read the laptop's note, stays out: nothing is
    merged back, however the syncs fall."""
    (laptop, desktop), pid = machines(tmp_path, clock, "laptop", "desktop")
    laptop.library.set_note(pid, "keep this\nand drop this")
    laptop.sync(), desktop.sync()
    clock[0] += 60
    desktop.library.set_note(pid, "keep this")
    desktop.sync()
    clock[0] += 60
    report = laptop.sync()
    assert report.kept_both == 0 and note(laptop, pid) == "keep this"
    clock[0] += 60
    laptop.library.set_note(pid, "")  # cleared, after seeing it: cleared everywhere
    laptop.sync(), desktop.sync()
    assert note(desktop, pid) == note(laptop, pid) == ""


def test_three_devices_at_once_converge_each_text_once(tmp_path: Path, clock: list[float]) -> None:
    """Three notes written at once: the two devices whose notes lost both keep theirs in the
    same sync, their two merges meet, and one more keeps both: every device ends with each
    text once, and the merges stop."""
    devices, pid = machines(tmp_path, clock, "a", "b", "c")
    for n, machine in enumerate(devices):
        clock[0] += 60
        machine.library.set_note(pid, f"note {n} of device {'abc'[n]}")
    for machine in devices:
        machine.sync()
    for _ in range(3):
        for machine in devices:
            clock[0] += 1
            machine.sync()
    texts = {note(machine, pid) for machine in devices}
    assert len(texts) == 1
    [text] = texts
    assert text.startswith("note 2 of device c")
    for n in range(3):
        assert text.count(f"note {n} of device") == 1
    for machine in devices:
        report = machine.sync()
        assert (report.sent, report.received, report.kept_both) == (0, 0, 0)


def test_a_note_from_a_version_without_bases_is_taken_as_before(
    tmp_path: Path, clock: list[float]
) -> None:
    """A device on an older version writes no basis: its later note holds, as it always did
    (a plain edit of the note it saw is not told from one made without seeing it), and the
    basis records this version writes are of no register: a version before reads the note."""
    (laptop,), pid = machines(tmp_path, clock, "laptop")
    laptop.library.set_note(pid, "the laptop's note")
    laptop.sync()
    records = all_records(laptop.folder)
    assert [r.kind for r in records if r.paper == pid and r.kind != PAPER] == [BASIS, NOTE]
    old = "0123456789abcdef"
    log = laptop.folder / ROOT_NAME / old / TRIAGE_LOG
    log.parent.mkdir()
    row = [NOTE, int(clock[0] * 1000) + 60_000, old, pid, "the old device's note"]
    log.write_bytes(orjson.dumps(row) + b"\n")
    clock[0] += 120

    report = laptop.sync()

    assert report.kept_both == 0 and note(laptop, pid) == "the old device's note"
    assert "received 1 note from 1 other device" in report.summary()


def test_a_note_kept_both_before_keeps_its_top_edited_here_since() -> None:
    """Once kept both, a note's top is the other device's text; edited here (a line added)
    while the other device added elsewhere, the edit was thrown away: only the marked blocks
    of the losing note were taken."""
    from storage.sync.both import MARK, both_texts

    mark = MARK.format(name="laptop", day="2026-12-01 10:00")
    merged = f"desktop first\n\n{mark}\nlaptop first"
    laptop = f"desktop first\nLAPTOP ADDED THIS LINE\n\n{mark}\nlaptop first"
    kept = both_texts(f"{merged}\n\ndesktop added this", laptop, "laptop", 1_764_583_200_000)
    assert kept is not None and "LAPTOP ADDED THIS LINE" in kept and "desktop added this" in kept
    assert kept.count("laptop first") == 1
    # the winner holding every line of the lost note: nothing to add
    assert both_texts(f"{merged}\n\nmore", merged, "laptop", 1_764_583_200_000) is None


def test_a_short_note_is_not_held_by_a_longer_one_containing_its_words() -> None:
    from storage.sync.both import both_texts

    kept = both_texts("not important", "important", "laptop", 1_764_583_200_000)
    assert kept is not None and kept.endswith("\nimportant")


def test_two_notes_too_long_together_keep_this_ones_in_a_file(
    tmp_path: Path, clock: list[float]
) -> None:
    """The sync said the losing note was in triage.json.bak, which the next decision
    replaced: the text was then nowhere."""
    (laptop, desktop), pid = machines(tmp_path, clock, "laptop", "desktop")
    clock[0] += 60
    laptop.library.set_note(pid, "L" * 60_000)
    clock[0] += 60
    desktop.library.set_note(pid, "D" * 60_000)
    laptop.sync(), desktop.sync()
    clock[0] += 60

    report = laptop.sync()

    [said] = [p for p in report.problems if "too long for one note" in p]
    kept = Path(said.rsplit("this one's is in ", 1)[1].rstrip(")"))
    assert kept.parent == tmp_path / "laptop" / "sync" / "notes-kept"
    assert kept.read_text(encoding="utf-8") == "L" * 60_000
    assert note(laptop, pid) == "D" * 60_000
