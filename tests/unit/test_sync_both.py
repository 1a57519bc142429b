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


# -- tags: merged as sets -------------------------------------------------------------------


def tags(machine: Machine, pid: str) -> set[str]:
    return set(machine.library.triage().tags.get(pid, ()))


def test_a_tag_added_on_each_device_at_once_is_on_both(tmp_path: Path, clock: list[float]) -> None:
    """The reviewer's case: #rl added on the laptop, #theory on the desktop, before either
    synced. The later list held, and the laptop's #rl was gone from both without a word."""
    (laptop, desktop), pid = machines(tmp_path, clock, "laptop", "desktop")
    laptop.library.set_tags(pid, ["survey"])
    laptop.sync(), desktop.sync()
    clock[0] += 60
    laptop.library.set_tags(pid, ["survey", "rl"])
    clock[0] += 60
    desktop.library.set_tags(pid, ["survey", "theory"])
    laptop.sync(), desktop.sync()  # the desktop's, written later, holds
    clock[0] += 60

    report = laptop.sync()

    assert report.summary().endswith("; tags of 1 paper edited on both devices: merged")
    assert laptop.library.triage().tags[pid] == ("survey", "theory", "rl")
    desktop.sync()
    assert tags(desktop, pid) == tags(laptop, pid) == {"survey", "rl", "theory"}
    for machine in (laptop, desktop, laptop):  # nothing more to do: no merge of the merge
        report = machine.sync()
        assert (report.sent, report.received, report.tags_merged) == (0, 0, 0)
    records = [r for r in all_records(laptop.folder) if r.paper == pid and r.kind == "g"]
    assert len(records) == 4  # the first list, the two at once, the merge


def test_the_tags_written_first_and_synced_first_are_merged_by_their_device_later(
    tmp_path: Path, clock: list[float]
) -> None:
    """The laptop's tags sent first lose, at the desktop's sync, to the desktop's written
    later without seeing them: the laptop merges at its next sync, over what its tags were
    written over (kept in its sync state since it sent them)."""
    (laptop, desktop), pid = machines(tmp_path, clock, "laptop", "desktop")
    laptop.library.set_tags(pid, ["a", "b"])
    laptop.sync(), desktop.sync()
    clock[0] += 60
    laptop.library.set_tags(pid, ["a", "b", "from-laptop"])
    laptop.sync()
    clock[0] += 60
    desktop.library.set_tags(pid, ["b", "from-desktop"])  # "a" taken out, unseen by the other
    desktop.sync()
    assert desktop.library.triage().tags[pid] == ("b", "from-desktop")  # its own holds
    clock[0] += 60

    assert laptop.sync().tags_merged == 1
    desktop.sync()

    for machine in (laptop, desktop):
        assert machine.library.triage().tags[pid] == ("b", "from-desktop", "from-laptop")


def test_a_tag_taken_out_after_seeing_the_other_devices_stays_out(
    tmp_path: Path, clock: list[float]
) -> None:
    """Tags written after reading the other's are a plain edit, a tag taken out included:
    nothing is merged back, however the syncs fall."""
    (laptop, desktop), pid = machines(tmp_path, clock, "laptop", "desktop")
    laptop.library.set_tags(pid, ["keep", "drop"])
    laptop.sync(), desktop.sync()
    clock[0] += 60
    desktop.library.set_tags(pid, ["keep"])
    desktop.sync()
    clock[0] += 60
    report = laptop.sync()
    assert report.tags_merged == 0 and tags(laptop, pid) == {"keep"}
    clock[0] += 60
    laptop.library.set_tags(pid, [])  # cleared, after seeing it: cleared everywhere
    laptop.sync(), desktop.sync()
    assert tags(desktop, pid) == tags(laptop, pid) == set()
    for machine in (laptop, desktop):
        assert machine.sync().tags_merged == 0


def test_a_tag_taken_out_on_one_device_and_another_added_on_the_other_both_hold(
    tmp_path: Path, clock: list[float]
) -> None:
    """At once: #draft taken out on the laptop, #rl added on the desktop (whose list still
    has #draft, as it had not seen the laptop's): #draft stays out, #rl is in, on both; a
    tag one device took out and the other added back stays."""
    (laptop, desktop), pid = machines(tmp_path, clock, "laptop", "desktop")
    laptop.library.set_tags(pid, ["draft", "survey", "old"])
    laptop.sync(), desktop.sync()
    clock[0] += 60
    laptop.library.set_tags(pid, ["survey"])  # "draft" and "old" out
    clock[0] += 60
    desktop.library.set_tags(pid, ["draft", "survey", "rl"])  # "old" out, "rl" in
    desktop.sync()
    clock[0] += 60

    report = laptop.sync()  # its own, written now, loses to the desktop's

    assert report.tags_merged == 1
    desktop.sync()
    for machine in (laptop, desktop):
        assert machine.library.triage().tags[pid] == ("survey", "rl")


def test_three_devices_adding_tags_at_once_converge_on_all_of_them(
    tmp_path: Path, clock: list[float]
) -> None:
    """Three tags added at once: the two devices whose lists lost merge, one after the
    other, and every device ends with the three tags; the merges stop."""
    devices, pid = machines(tmp_path, clock, "a", "b", "c")
    for n, machine in enumerate(devices):
        clock[0] += 60
        machine.library.set_tags(pid, ["shared", f"from-{'abc'[n]}"])
    for machine in devices:
        machine.sync()
    for _ in range(3):
        for machine in devices:
            clock[0] += 1
            machine.sync()
    assert [tags(machine, pid) for machine in devices] == 3 * [
        {"shared", "from-a", "from-b", "from-c"}
    ]
    for machine in devices:
        report = machine.sync()
        assert (report.sent, report.received, report.tags_merged) == (0, 0, 0)


def test_three_devices_syncing_through_their_own_copies_converge(
    tmp_path: Path, clock: list[float]
) -> None:
    """Each device with its own copy of the folder, which a sync tool fills with the others'
    files: two merge the same lists at once, neither seeing the other's merge, and their
    merges are merged in turn."""
    from tests.unit.test_sync_support import copy_folder

    found = [Machine(tmp_path / n, tmp_path / f"folder-{n}", base=lambda: clock[0]) for n in "abc"]
    found[0].seed()

    def exchange() -> None:  # each device's own files, from its copy to the others'
        for source in found:
            own = source.folder / ROOT_NAME / source.device_id
            for target in found:
                if target is not source:
                    copy_folder(own, target.folder / ROOT_NAME / source.device_id)

    for machine in found:
        machine.sync()
        exchange()
    pid = found[0].library.papers()[0].id
    for n, machine in enumerate(found):
        clock[0] += 60
        machine.library.set_tags(pid, [f"from-{'abc'[n]}"])
        machine.sync()
    exchange()
    for machine in found[:2]:  # a and b merge, neither seeing the other's merge
        clock[0] += 1
        assert machine.sync().tags_merged == 1
    for _ in range(3):
        exchange()
        for machine in found:
            clock[0] += 1
            machine.sync()
    assert [tags(machine, pid) for machine in found] == 3 * [{"from-a", "from-b", "from-c"}]
    for machine in found:
        assert machine.sync().tags_merged == 0


def test_tags_from_a_version_without_bases_are_taken_as_before(
    tmp_path: Path, clock: list[float]
) -> None:
    """A device on an older version writes no basis: its later tags hold over tags sent
    before, as they always did; this version's tags go after a basis of their own."""
    (laptop,), pid = machines(tmp_path, clock, "laptop")
    laptop.library.set_tags(pid, ["laptop"])
    laptop.sync()
    records = [r for r in all_records(laptop.folder) if r.paper == pid and r.kind != PAPER]
    assert [r.kind for r in records] == [BASIS, "g"]
    assert records[0].value == ["g", 0, ""] and records[0].stamp == records[1].stamp
    old = "0123456789abcdef"
    log = laptop.folder / ROOT_NAME / old / TRIAGE_LOG
    log.parent.mkdir()
    row = ["g", int(clock[0] * 1000) + 60_000, old, pid, ["old-device"]]
    log.write_bytes(orjson.dumps(row) + b"\n")
    clock[0] += 120

    report = laptop.sync()

    assert report.tags_merged == 0 and tags(laptop, pid) == {"old-device"}


def test_tags_too_many_together_keep_the_other_devices_and_say_which_were_left_out(
    tmp_path: Path, clock: list[float]
) -> None:
    """150 tags added on each device at once: 300 are more than a paper holds (200). The
    other device's are kept, as a note too long is, and the line names this one's."""
    (laptop, desktop), pid = machines(tmp_path, clock, "laptop", "desktop")
    clock[0] += 60
    laptop.library.set_tags(pid, [f"laptop-{n}" for n in range(150)])
    clock[0] += 60
    desktop.library.set_tags(pid, [f"desktop-{n}" for n in range(150)])
    laptop.sync(), desktop.sync()
    clock[0] += 60

    report = laptop.sync()

    [said] = [p for p in report.problems if p.startswith(f"the tags of {pid} were edited")]
    assert "together 300 tags are too many (at most 200 a paper)" in said
    assert said.endswith(
        "without this one's #laptop-0, #laptop-1, #laptop-2, #laptop-3, #laptop-4 and 145 more"
    )
    assert report.tags_merged == 0 and "merged" not in report.summary()
    desktop.sync()
    expected = {f"desktop-{n}" for n in range(150)}
    assert tags(laptop, pid) == tags(desktop, pid) == expected


def test_merged_tags_keep_what_either_added_and_leave_out_what_either_took_out() -> None:
    from storage.sync.both import merged_tags

    assert merged_tags(["a", "t"], ["a", "o"], ["a"]) == ["a", "t", "o"]
    assert merged_tags(["b"], ["a", "b"], ["a", "b"]) == ["b"]  # theirs took "a" out
    assert merged_tags(["a", "b"], ["b"], ["a", "b"]) == ["b"]  # ours took "a" out
    assert merged_tags(["x"], ["x"], ["a"]) == ["x"]  # both took "a" out, both added "x"
    assert merged_tags(["a"], ["b"], []) == ["a", "b"]  # nothing known before: both kept


# -- tags: a chain of this device's records the other never saw ------------------------------


def test_tags_sent_twice_and_never_seen_by_the_other_device_keep_both_added(
    tmp_path: Path, clock: list[float]
) -> None:
    """The reviewer's case: #c sent, then #d sent, while the desktop, offline all along,
    added #e. The merge was over what the laptop's last list was written over ([s, c], its
    own list the desktop never saw): #c looked taken out by the desktop, and was lost."""
    (laptop, desktop), pid = machines(tmp_path, clock, "laptop", "desktop")
    laptop.library.set_tags(pid, ["s"])
    laptop.sync(), desktop.sync()
    clock[0] += 60
    laptop.library.set_tags(pid, ["s", "c"])
    laptop.sync()
    clock[0] += 60
    laptop.library.set_tags(pid, ["s", "c", "d"])
    laptop.sync()
    clock[0] += 60
    desktop.library.set_tags(pid, ["s", "e"])  # later: it holds
    desktop.sync()
    clock[0] += 60

    assert laptop.sync().tags_merged == 1
    desktop.sync()

    assert tags(laptop, pid) == tags(desktop, pid) == {"s", "c", "d", "e"}


def test_tags_sent_then_edited_unsent_keep_both_added_when_the_other_wins(
    tmp_path: Path, clock: list[float]
) -> None:
    """#rl sent, then #x added and not yet sent, while the desktop added #theory without
    seeing #rl: the merge of the unsent list was over [s, rl], and #rl was lost."""
    (laptop, desktop), pid = machines(tmp_path, clock, "laptop", "desktop")
    laptop.library.set_tags(pid, ["s"])
    laptop.sync(), desktop.sync()
    clock[0] += 60
    laptop.library.set_tags(pid, ["s", "rl"])
    laptop.sync()
    clock[0] += 60
    laptop.library.set_tags(pid, ["s", "rl", "x"])
    clock[0] += 60
    desktop.library.set_tags(pid, ["s", "theory"])
    desktop.sync()
    clock[0] += 60

    assert laptop.sync().tags_merged == 1
    desktop.sync()

    assert tags(laptop, pid) == tags(desktop, pid) == {"s", "rl", "theory", "x"}


def test_a_tag_taken_out_after_seeing_the_first_of_two_records_stays_out(
    tmp_path: Path, clock: list[float]
) -> None:
    """The desktop saw the laptop's [s, c] and took #c out; the laptop meanwhile sent
    [s, c, d]. The merge is over what the desktop saw, [s, c]: #c stays out, #d is in."""
    (laptop, desktop), pid = machines(tmp_path, clock, "laptop", "desktop")
    laptop.library.set_tags(pid, ["s"])
    laptop.sync(), desktop.sync()
    clock[0] += 60
    laptop.library.set_tags(pid, ["s", "c"])
    laptop.sync(), desktop.sync()
    clock[0] += 60
    laptop.library.set_tags(pid, ["s", "c", "d"])
    laptop.sync()
    clock[0] += 60
    desktop.library.set_tags(pid, ["s"])  # #c out, after seeing it; [s, c, d] unseen
    desktop.sync()
    clock[0] += 60

    laptop.sync(), desktop.sync()

    assert tags(laptop, pid) == tags(desktop, pid) == {"s", "d"}


def test_a_state_keeping_one_tags_basis_reads_as_a_chain_of_one() -> None:
    """A sync state of the version before kept [stamp, tags] for a paper: it reads."""
    from storage.sync.state import SyncState

    state = SyncState.from_json({"tag_bases": {"p1": [5, ["a"]], "p2": [[5, []], [9, ["b"]]]}})

    assert state.tag_bases == {"p1": [[5, ["a"]]], "p2": [[5, []], [9, ["b"]]]}
    with pytest.raises(ValueError):
        SyncState.from_json({"tag_bases": {"p1": []}})


@pytest.mark.parametrize("seed", range(20))
@pytest.mark.parametrize("shared", [True, False])
def test_a_tag_some_edit_added_and_no_edit_removed_is_on_every_device_at_the_end(
    tmp_path: Path, clock: list[float], seed: int, shared: bool
) -> None:
    """Three devices edit one paper's tags, sync, and pass their files on (one folder, or a
    copy each) in an order drawn from ``seed``; once quiet, every device holds the same tags,
    each of them added by some edit, and among them each tag added and never taken out."""
    import random

    from tests.unit.test_sync_support import copy_folder

    draw = random.Random(seed)
    found = [
        Machine(tmp_path / f"h{n}", tmp_path / ("f" if shared else f"f{n}"), base=lambda: clock[0])
        for n in range(3)
    ]
    found[0].seed()

    def give(source: Machine, target: Machine) -> None:
        if not shared and source is not target:
            own = source.folder / ROOT_NAME / source.device_id
            copy_folder(own, target.folder / ROOT_NAME / source.device_id)

    def everywhere() -> None:
        for source in found:
            for target in found:
                give(source, target)

    for _ in range(2):
        for machine in found:
            machine.sync()
            everywhere()
    pid = found[0].library.papers()[0].id
    added: set[str] = set()
    removed: set[str] = set()
    for _step in range(draw.randrange(4, 14)):
        clock[0] += draw.choice([0.5, 2, 30, 90])
        machine, what = draw.choice(found), draw.random()
        if what < 0.45:
            now = tags(machine, pid)
            new = {tag for tag in "abcde" if (tag in now) != (draw.random() < 0.3)}
            added |= new - now
            removed |= now - new
            machine.library.set_tags(pid, sorted(new))
        elif what < 0.8:
            machine.sync()
        else:
            give(machine, draw.choice(found))
    for _round in range(8):
        moved = 0
        for machine in found:
            clock[0] += 1
            report = machine.sync()
            moved += report.sent + report.received
            everywhere()
        if not moved:
            break
    assert not moved
    ends = [tags(machine, pid) for machine in found]
    assert ends[0] == ends[1] == ends[2]
    assert added - removed <= ends[0] <= added


@pytest.mark.parametrize("arrival", ["cut", "zeros"])
@pytest.mark.parametrize("kind", ["tags", "note"])
def test_a_basis_arriving_without_its_record_is_read_again_with_it(
    tmp_path: Path, clock: list[float], kind: str, arrival: str
) -> None:
    """Each device with its own copy of the folder: the desktop's log reaches the laptop's
    cut right after the BASIS line of its tags (or note), or with a block of zeros where the
    record goes, the record itself after the next sync. The basis was read alone and
    forgotten, the record then taken as a version's without bases (the later holds): the
    laptop's tags (note), never seen, were lost."""
    from tests.unit.test_sync_support import copy_folder

    laptop = Machine(tmp_path / "laptop", tmp_path / "folder-laptop", base=lambda: clock[0])
    desktop = Machine(tmp_path / "desktop", tmp_path / "folder-desktop", base=lambda: clock[0])
    laptop.seed()

    def give(source: Machine, target: Machine) -> None:
        own = source.folder / ROOT_NAME / source.device_id
        copy_folder(own, target.folder / ROOT_NAME / source.device_id)

    def edit(machine: Machine, pid: str, value: str) -> None:
        if kind == "tags":
            machine.library.set_tags(pid, ["s", value])
        else:
            machine.library.set_note(pid, value)

    laptop.sync("laptop"), give(laptop, desktop), desktop.sync("desktop"), give(desktop, laptop)
    laptop.sync()
    pid = laptop.library.papers()[0].id
    if kind == "tags":
        laptop.library.set_tags(pid, ["s"])
    laptop.sync(), give(laptop, desktop), desktop.sync(), give(desktop, laptop), laptop.sync()
    clock[0] += 60
    edit(laptop, pid, "rl")
    laptop.sync()  # sent: the desktop does not have it yet
    clock[0] += 60
    edit(desktop, pid, "theory")
    desktop.sync()
    whole = (desktop.folder / ROOT_NAME / desktop.device_id / TRIAGE_LOG).read_bytes()
    lines = whole.splitlines(keepends=True)
    assert orjson.loads(lines[-2])[0] == BASIS and orjson.loads(lines[-1])[0] != BASIS
    arriving = laptop.folder / ROOT_NAME / desktop.device_id / TRIAGE_LOG
    holes = b"\0" * 4096 if arrival == "zeros" else b""
    arriving.write_bytes(b"".join(lines[:-1]) + holes)  # the basis has arrived, its record not
    clock[0] += 60
    assert any("not fully arrived" in problem for problem in laptop.sync().problems)
    arriving.write_bytes(whole)
    clock[0] += 60
    report = laptop.sync()
    assert report.kept_both + report.tags_merged == 1  # merged here, where ours lost
    for _ in range(2):
        give(laptop, desktop), desktop.sync(), give(desktop, laptop), laptop.sync()
    if kind == "tags":
        assert tags(laptop, pid) == tags(desktop, pid) == {"s", "rl", "theory"}
    else:
        assert note(laptop, pid) == note(desktop, pid)
        assert note(laptop, pid).startswith("theory\n\n--- also written on laptop, ")
        assert note(laptop, pid).endswith(": kept by sync ---\nrl")


# -- a merge cut short before it wrote triage.json -------------------------------------------


def _cut_short_merge(machine: Machine, monkeypatch: pytest.MonkeyPatch) -> None:
    """Sync ``machine`` until its merge record is in the folder, then stop it before the merge
    is written into ``triage.json`` (a kill, a full disk)."""
    import storage.sync.run

    def full_disk(*_args: object, **_kwargs: object) -> None:
        raise OSError(28, "No space left on device")

    with monkeypatch.context() as patch:
        patch.setattr(storage.sync.run, "apply_plan", full_disk)
        with pytest.raises(OSError):
            machine.sync()


def _tags_merge_cut_short(
    tmp_path: Path, clock: list[float], monkeypatch: pytest.MonkeyPatch
) -> tuple[Machine, Machine, str]:
    """The laptop's [survey, rl] merged with the desktop's [survey, theory] by a sync that
    sent the merge and was cut short before it wrote triage.json (which shows [survey, rl])."""
    (laptop, desktop), pid = machines(tmp_path, clock, "laptop", "desktop")
    laptop.library.set_tags(pid, ["survey"])
    laptop.sync(), desktop.sync()
    clock[0] += 60
    laptop.library.set_tags(pid, ["survey", "rl"])
    clock[0] += 60
    desktop.library.set_tags(pid, ["survey", "theory"])
    laptop.sync(), desktop.sync()
    clock[0] += 60
    _cut_short_merge(laptop, monkeypatch)
    clock[0] += 60
    return laptop, desktop, pid


def _notes_merge_cut_short(
    tmp_path: Path, clock: list[float], monkeypatch: pytest.MonkeyPatch
) -> tuple[Machine, Machine, str]:
    """The laptop's note merged with the desktop's by a sync that sent the merge and was cut
    short before it wrote triage.json (which shows "laptop text")."""
    (laptop, desktop), pid = machines(tmp_path, clock, "laptop", "desktop")
    clock[0] += 60
    laptop.library.set_note(pid, "laptop text")
    clock[0] += 60
    desktop.library.set_note(pid, "desktop text")
    laptop.sync(), desktop.sync()
    clock[0] += 60
    _cut_short_merge(laptop, monkeypatch)
    clock[0] += 60
    return laptop, desktop, pid


def test_tags_merged_by_a_sync_cut_short_are_kept_by_the_next(
    tmp_path: Path, clock: list[float], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The reviewer's case: the laptop's merge of #rl with the desktop's #theory was in the
    folder, triage.json not written yet. The next sync took the library's [survey, rl] as a
    list written here over the merge, sent it stamped after it, and #theory was gone from
    both."""
    laptop, desktop, pid = _tags_merge_cut_short(tmp_path, clock, monkeypatch)

    def sent_tags() -> set[int]:
        return {
            r.stamp
            for r in all_records(laptop.folder)
            if r.device == laptop.device_id and r.kind == "g" and r.paper == pid
        }

    merged = sent_tags()
    laptop.sync()
    assert sent_tags() == merged  # nothing tagged here since: no tags record after the merge
    assert tags(laptop, pid) == {"survey", "rl", "theory"}
    desktop.sync(), laptop.sync(), desktop.sync()
    assert tags(laptop, pid) == tags(desktop, pid) == {"survey", "rl", "theory"}


def test_a_merge_cut_short_forgets_the_records_read_while_the_chain_it_ends_held(
    tmp_path: Path, clock: list[float], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The desktop's first tags, [x, t] (X), lost to the laptop's [t, o], which then took #t
    out; the desktop's [x, t, w] (W, over X) then won, and the laptop's merge of the two
    (#t out: the later decision), which starts a new chain of the laptop's, was cut short.
    Its note kept the new chain with the records read while the old one held the paper (X),
    so when the desktop's [x, t, w, r], written over W without seeing the merge, won in
    turn, the merge went back through W to X and its basis, no tags at all: #t looked put
    in by the desktop and taken out by nobody, and was back on both."""
    (laptop, desktop), pid = machines(tmp_path, clock, "laptop", "desktop")
    desktop.library.set_tags(pid, ["x", "t"])  # X
    desktop.sync()
    clock[0] += 60
    laptop.library.set_tags(pid, ["t", "o"])  # not having seen X
    laptop.sync()  # reads X: it loses, and is kept
    clock[0] += 60
    laptop.library.set_tags(pid, ["o"])  # #t out
    laptop.sync()
    clock[0] += 60
    desktop.library.set_tags(pid, ["x", "t", "w"])  # W, over X
    desktop.sync()
    clock[0] += 60
    _cut_short_merge(laptop, monkeypatch)
    (path,) = (laptop.home / "sync").glob("folder-*.json")
    assert pid not in orjson.loads(path.read_bytes())["tags_read"]  # (the old chain's)
    clock[0] += 60
    laptop.sync()
    assert tags(laptop, pid) == {"x", "w", "o"}
    clock[0] += 60
    desktop.library.set_tags(pid, ["x", "t", "w", "r"])  # over W, not having seen the merge
    desktop.sync()
    clock[0] += 60

    assert laptop.sync().tags_merged == 1
    desktop.sync(), laptop.sync(), desktop.sync()

    assert tags(laptop, pid) == tags(desktop, pid) == {"x", "w", "o", "r"}


@pytest.mark.parametrize("edited", [["survey", "rl", "new"], ["new"], []])
def test_tags_written_after_a_merge_cut_short_are_sent(
    tmp_path: Path, clock: list[float], monkeypatch: pytest.MonkeyPatch, edited: list[str]
) -> None:
    """Tags written here between the sync cut short and the next are a change made here: sent,
    and held on both. They were written over the list the library showed, not over the merge
    it did not show yet: the other device's #theory, never seen here, stays (it was lost)."""
    laptop, desktop, pid = _tags_merge_cut_short(tmp_path, clock, monkeypatch)
    laptop.library.set_tags(pid, edited)
    clock[0] += 60
    laptop.sync()
    desktop.sync(), laptop.sync(), desktop.sync()
    assert tags(laptop, pid) == tags(desktop, pid) == {*edited, "theory"}  # theirs kept


def test_notes_kept_both_by_a_sync_cut_short_are_kept_by_the_next(
    tmp_path: Path, clock: list[float], monkeypatch: pytest.MonkeyPatch
) -> None:
    """As for tags: the note that kept both texts was in the folder, triage.json not written;
    the next sync sent the laptop's own text over it, and the desktop's was gone from both."""
    laptop, desktop, pid = _notes_merge_cut_short(tmp_path, clock, monkeypatch)
    laptop.sync(), desktop.sync(), laptop.sync(), desktop.sync()
    assert note(laptop, pid) == note(desktop, pid)
    assert "desktop text" in note(laptop, pid)
    assert "laptop text" in note(laptop, pid)


@pytest.mark.parametrize("edited", ["written after", "laptop text\nand more", ""])
def test_a_note_written_after_a_merge_cut_short_is_sent(
    tmp_path: Path, clock: list[float], monkeypatch: pytest.MonkeyPatch, edited: str
) -> None:
    """A note written here between the sync cut short and the next is sent, and held on both,
    in place of the text the merge kept of this device's, beside the other's."""
    laptop, desktop, pid = _notes_merge_cut_short(tmp_path, clock, monkeypatch)
    laptop.library.set_note(pid, edited)
    clock[0] += 60
    laptop.sync(), desktop.sync(), laptop.sync(), desktop.sync()
    assert note(laptop, pid) == note(desktop, pid)
    assert note(laptop, pid).startswith("desktop text")  # theirs kept: it was lost
    assert note(laptop, pid).count("laptop text") == edited.count("laptop text")  # (twice)
    assert note(laptop, pid).endswith(edited or "desktop text")
    assert ("kept by sync ---" in note(laptop, pid)) == bool(edited)


def test_tags_written_after_a_merge_cut_short_merge_as_sent_when_a_later_list_wins(
    tmp_path: Path, clock: list[float], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The desktop read the laptop's merge and added #d2 after the laptop added #new over
    [survey, rl]: the desktop's list wins, and the laptop merges its own into it. It merged
    the list as edited ([survey, rl, new]), not as sent (with the merge's #theory), over
    the merge: #theory looked taken out on the laptop, and was lost on both."""
    laptop, desktop, pid = _tags_merge_cut_short(tmp_path, clock, monkeypatch)
    desktop.sync()
    assert tags(desktop, pid) == {"survey", "rl", "theory"}
    laptop.library.set_tags(pid, ["survey", "rl", "new"])
    clock[0] += 60
    desktop.library.set_tags(pid, ["survey", "rl", "theory", "d2"])
    desktop.sync()
    clock[0] += 60

    assert laptop.sync().tags_merged == 1
    desktop.sync(), laptop.sync(), desktop.sync()

    assert tags(laptop, pid) == tags(desktop, pid) == {"survey", "rl", "theory", "new", "d2"}


@pytest.mark.parametrize("kind", ["tags", "note"])
def test_an_edit_after_a_merge_cut_short_is_merged_again_after_a_second_one(
    tmp_path: Path, clock: list[float], monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    """The sync that sent the edit merged with the merge was cut short too, before it wrote
    triage.json: the third took the library's edit (without #theory, or the desktop's text)
    for one made over what the second sent, and sent it as it was: theirs was lost again."""
    if kind == "tags":
        laptop, desktop, pid = _tags_merge_cut_short(tmp_path, clock, monkeypatch)
        laptop.library.set_tags(pid, ["survey", "rl", "new"])
    else:
        laptop, desktop, pid = _notes_merge_cut_short(tmp_path, clock, monkeypatch)
        laptop.library.set_note(pid, "written after")
    clock[0] += 60
    _cut_short_merge(laptop, monkeypatch)
    clock[0] += 60

    laptop.sync()
    if kind == "tags":  # the merge, as sent, written into triage.json at last
        assert tags(laptop, pid) == {"survey", "rl", "new", "theory"}
    desktop.sync(), laptop.sync(), desktop.sync()

    if kind == "tags":
        assert tags(laptop, pid) == tags(desktop, pid) == {"survey", "rl", "new", "theory"}
    else:
        assert note(laptop, pid) == note(desktop, pid)
        assert note(laptop, pid).startswith("desktop text\n\n--- also written on laptop, ")
        assert note(laptop, pid).endswith(": kept by sync ---\nwritten after")


def test_tags_written_after_a_merge_cut_short_of_two_papers_are_sent_over_the_merge(
    tmp_path: Path, clock: list[float], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two papers' tags merged by the sync cut short, one of them edited here since: the
    list sent is over the merge, and a later merge is over the merge too. The desktop, which
    read the merge, took #theory out after #new was added here: #theory stays out, #new in."""
    (laptop, desktop), pid = machines(tmp_path, clock, "laptop", "desktop")
    other = laptop.library.papers()[1].id
    for paper in (pid, other):
        laptop.library.set_tags(paper, ["survey"])
    laptop.sync(), desktop.sync()
    clock[0] += 60
    for paper in (pid, other):
        laptop.library.set_tags(paper, ["survey", "rl"])
    clock[0] += 60
    for paper in (pid, other):
        desktop.library.set_tags(paper, ["survey", "theory"])
    laptop.sync(), desktop.sync()
    clock[0] += 60
    _cut_short_merge(laptop, monkeypatch)
    clock[0] += 60
    desktop.sync()
    laptop.library.set_tags(pid, ["survey", "rl", "new"])
    clock[0] += 60
    desktop.library.set_tags(pid, ["survey", "rl"])  # after seeing the merge
    desktop.sync()
    clock[0] += 60

    laptop.sync(), desktop.sync(), laptop.sync()

    assert tags(laptop, pid) == tags(desktop, pid) == {"survey", "rl", "new"}
    assert tags(laptop, other) == tags(desktop, other) == {"survey", "rl", "theory"}


def test_tags_written_after_a_merge_cut_short_too_many_with_it_are_sent_as_written(
    tmp_path: Path, clock: list[float], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The merge held 200 tags, 100 of each device's; one tag added here over the laptop's
    100 made 201 with the merge: a record no device takes, which the sync state refused,
    so every sync stopped there with a traceback. The edit is sent as written, as a list
    too many with the other's is, and the line names the other device's tags left out."""
    (laptop, desktop), pid = machines(tmp_path, clock, "laptop", "desktop")
    laptop.library.set_tags(pid, ["survey"])
    laptop.sync(), desktop.sync()
    clock[0] += 60
    mine = ["survey", *(f"laptop-{n}" for n in range(99))]
    laptop.library.set_tags(pid, mine)
    clock[0] += 60
    desktop.library.set_tags(pid, ["survey", *(f"desktop-{n}" for n in range(100))])
    laptop.sync(), desktop.sync()
    clock[0] += 60
    _cut_short_merge(laptop, monkeypatch)
    clock[0] += 60
    laptop.library.set_tags(pid, [*mine, "new"])
    clock[0] += 60

    report = laptop.sync()

    [said] = [p for p in report.problems if p.startswith(f"the tags of {pid} were edited")]
    assert "201 tags are too many (at most 200 a paper)" in said
    assert said.endswith("#desktop-0, #desktop-1, #desktop-2, #desktop-3, #desktop-4 and 95 more")
    desktop.sync(), laptop.sync(), desktop.sync()
    assert tags(laptop, pid) == tags(desktop, pid) == {*mine, "new"}


def test_a_note_written_after_a_merge_cut_short_too_long_with_it_is_sent_as_written(
    tmp_path: Path, clock: list[float], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The desktop's long note merged with the laptop's short one was near the cap; the
    laptop's note made longer since, in place of its block, was past it: every sync
    stopped with a traceback. The edit is sent as written, and the merge, which holds the
    desktop's text, is set aside in a file, as a note too long with the other's is."""
    from storage.caps import MAX_NOTE_CHARS

    (laptop, desktop), pid = machines(tmp_path, clock, "laptop", "desktop")
    clock[0] += 60
    laptop.library.set_note(pid, "laptop text")
    clock[0] += 60
    long = "desktop " * ((MAX_NOTE_CHARS - 200) // 8)
    desktop.library.set_note(pid, long)
    laptop.sync(), desktop.sync()
    clock[0] += 60
    _cut_short_merge(laptop, monkeypatch)
    clock[0] += 60
    edited = " ".join(["laptop"] * 100)
    laptop.library.set_note(pid, edited)
    clock[0] += 60

    report = laptop.sync()

    [said] = [p for p in report.problems if p.startswith(f"the note of {pid} was edited")]
    [aside] = list((laptop.home / "sync" / "notes-kept").iterdir())
    assert str(aside) in said and aside.read_text().startswith(long.strip())
    desktop.sync(), laptop.sync(), desktop.sync()
    assert note(laptop, pid) == note(desktop, pid) == edited


@pytest.mark.parametrize("edit", ["cleared", "a line taken out", "a line added"])
def test_an_edit_over_a_merge_cut_short_of_a_note_with_blocks_keeps_what_it_took_out(
    tmp_path: Path, clock: list[float], monkeypatch: pytest.MonkeyPatch, edit: str
) -> None:
    """The note held a block an earlier merge kept; the laptop and the desktop each added a
    line to it at once, and the laptop's merge of the two (the desktop's note, then the
    laptop's block) was cut short; the laptop's note then cleared, or a line of it taken out:
    the merge sent over it kept every line, the edit was lost. What the edit took out of
    what the laptop showed is out of the merge, what it added is in it once, and the
    desktop's line, unseen here, stays."""
    (laptop, desktop), pid = machines(tmp_path, clock, "laptop", "desktop")
    clock[0] += 60
    laptop.library.set_note(pid, "laptop one")
    clock[0] += 60
    desktop.library.set_note(pid, "desktop one")
    laptop.sync(), desktop.sync(), laptop.sync(), desktop.sync()
    shown = note(laptop, pid)
    assert shown == note(desktop, pid) and shown.endswith("kept by sync ---\nlaptop one")
    clock[0] += 60
    laptop.library.set_note(pid, f"{shown}\nlaptop two")
    clock[0] += 60
    desktop.library.set_note(pid, f"{shown}\ndesktop two")
    laptop.sync(), desktop.sync()
    clock[0] += 60
    _cut_short_merge(laptop, monkeypatch)
    clock[0] += 60
    before = note(laptop, pid)
    edited = {
        "cleared": "",
        "a line taken out": before.replace("\nlaptop one", ""),
        "a line added": f"{before}\nlaptop three",
    }[edit]
    laptop.library.set_note(pid, edited)
    clock[0] += 60

    laptop.sync(), desktop.sync(), laptop.sync(), desktop.sync()

    kept = note(laptop, pid)
    assert kept == note(desktop, pid)
    lines = [line for line in kept.splitlines() if line and "kept by sync" not in line]
    if edit == "cleared":
        assert kept == "desktop two"
    elif edit == "a line taken out":
        assert lines == ["desktop one", "desktop two", "laptop two"]
    else:
        ours = ["laptop one", "laptop two", "laptop three"]  # after what the desktop saw
        assert lines == ["desktop one", "laptop one", "desktop two", *ours]


def test_tags_written_over_ours_from_before_a_merge_keep_what_they_added(
    tmp_path: Path, clock: list[float]
) -> None:
    """The laptop's tags (rl, theory) lost to the phone's (survey), written without seeing
    them, and were merged (survey, rl, theory); the laptop then kept only rl. The desktop,
    which saw the laptop's first tags only, wrote survey over them, last. The laptop's merge
    took what the phone's survey was written over (no tags) for what the desktop's were:
    the desktop's survey looked taken out, and every device ended with rl alone. What ours
    from before the merge held is not known: both lists are kept whole."""
    (laptop, desktop, phone), pid = machines(tmp_path, clock, "laptop", "desktop", "phone")

    def later() -> None:
        clock[0] += 10

    laptop.library.set_tags(pid, ["rl", "theory"])
    later()
    laptop.sync(), desktop.sync()
    later()
    phone.library.set_tags(pid, ["survey"])
    later()
    phone.sync(), laptop.sync()
    assert tags(laptop, pid) == {"survey", "rl", "theory"}
    later()
    laptop.library.set_tags(pid, ["rl"])
    later()
    desktop.library.set_tags(pid, ["survey"])
    later()
    for _ in range(2):
        laptop.sync(), desktop.sync(), phone.sync()

    assert tags(laptop, pid) == tags(desktop, pid) == tags(phone, pid)
    assert "survey" in tags(laptop, pid)
