"""Sync after the library's files went back in time: ``triage.json`` moved aside after damage or
put back from ``triage.json.bak``, ``papers.json`` put back from ``papers.json.bak`` or lost.

The recovery our own error messages suggest must not turn into a data loss on every device:
what such a file lacks, or holds from before, is not a change made here. It is filled in from
the folder; only what was done after the restore is sent.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import orjson
import pytest

import storage.files.triage_file
from storage import Library
from storage.sync import sync_library
from storage.sync.folder import ROOT_NAME, SyncFolder
from storage.sync.state import SyncState
from tests.unit.test_sync_support import seeded, shown

#: A fixed time for decisions (seconds), moved on by the tests that need a later one.
NOW = [1_800_000_000.0]


@pytest.fixture(autouse=True)
def decision_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """Decisions and the sync's marks on a clock the tests move (``tick``)."""
    NOW[0] = 1_800_000_000.0
    monkeypatch.setattr(storage.files.triage_file, "now", lambda: NOW[0])


def tick(seconds: float = 10.0) -> None:
    NOW[0] += seconds


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    path = tmp_path / "synced"
    path.mkdir()
    return path


def two_libraries(tmp_path: Path, folder: Path) -> tuple[Library, Library, list[str]]:
    """A laptop with the sample and a desktop that joined it, both synced."""
    laptop, desktop = seeded(tmp_path / "laptop"), Library(tmp_path / "desktop")
    sync_library(laptop, folder), sync_library(desktop, folder)
    return laptop, desktop, [p.id for p in laptop.papers()]


def later_elsewhere(laptop: Library, desktop: Library, folder: Path, ids: list[str]) -> None:
    """The laptop decides; then the desktop changes those, and the laptop merges that."""
    laptop.set_status(ids[0], "starred")
    laptop.set_note(ids[1], "first thoughts")
    tick()
    sync_library(laptop, folder), sync_library(desktop, folder)
    tick()
    desktop.set_status(ids[0], "read")
    desktop.set_note(ids[1], "second thoughts")
    desktop.set_tags(ids[2], ["theory"])
    tick()
    sync_library(desktop, folder), sync_library(laptop, folder)
    tick()


def assert_desktops_decisions_kept(laptop: Library, desktop: Library, ids: list[str]) -> None:
    assert desktop.status(ids[0]).value == "read"
    assert desktop.triage().notes[ids[1]] == "second thoughts"
    assert desktop.triage().tags[ids[2]] == ("theory",)
    assert shown(laptop) == shown(desktop)


def test_a_triage_json_moved_aside_is_filled_in_and_sends_nothing(
    tmp_path: Path, folder: Path
) -> None:
    """A damaged triage.json moved aside, as the error says: the new, empty one once sent
    every paper back to the Inbox with no note, stamped after everything, on every device."""
    laptop, desktop, ids = two_libraries(tmp_path, folder)
    later_elsewhere(laptop, desktop, folder, ids)
    (laptop.home / "triage.json").rename(laptop.home / "triage.json.damaged")
    laptop = Library(laptop.home)

    report = sync_library(laptop, folder)
    sync_library(desktop, folder)

    assert report.sent == 0
    assert report.applied["statuses"] == 1 and report.applied["notes"] == 1
    assert_desktops_decisions_kept(laptop, desktop, ids)


def test_a_triage_json_put_back_from_its_backup_sends_nothing_older(
    tmp_path: Path, folder: Path
) -> None:
    """``triage.json.bak`` copied over the file: it is the file before the last merge, and
    once sent its older status and note back over the newer ones everywhere."""
    laptop, desktop, ids = two_libraries(tmp_path, folder)
    later_elsewhere(laptop, desktop, folder, ids)
    shutil.copyfile(laptop.home / "triage.json.bak", laptop.home / "triage.json")

    report = sync_library(laptop, folder)
    sync_library(desktop, folder)

    assert report.sent == 0
    assert_desktops_decisions_kept(laptop, desktop, ids)


def test_a_copy_from_before_a_decision_sent_does_not_take_it_back(
    tmp_path: Path, folder: Path
) -> None:
    """A sync that only sends writes nothing else: a copy of triage.json made before the
    decision it sent looked like the current file, and sent the paper back to the Inbox."""
    laptop, desktop, ids = two_libraries(tmp_path, folder)
    laptop.set_status(ids[0], "read")
    tick()
    backup = (laptop.home / "triage.json").read_bytes()
    laptop.set_status(ids[1], "skipped")
    tick()
    sync_library(laptop, folder)
    tick()
    (laptop.home / "triage.json").write_bytes(backup)

    sync_library(laptop, folder), sync_library(desktop, folder)

    assert desktop.status(ids[1]).value == laptop.status(ids[1]).value == "skipped"
    assert shown(laptop) == shown(desktop)


def test_what_is_done_after_the_restore_is_sent_and_wins(tmp_path: Path, folder: Path) -> None:
    laptop, desktop, ids = two_libraries(tmp_path, folder)
    later_elsewhere(laptop, desktop, folder, ids)
    (laptop.home / "triage.json").unlink()
    laptop = Library(laptop.home)
    tick()
    laptop.set_status(ids[0], "skipped")  # after the desktop's "read", and after the restore
    laptop.set_status(ids[3], "starred")
    laptop.set_note(ids[1], "third thoughts")
    laptop.set_note(ids[5], "a first note")  # no device noted this paper before
    laptop.set_tags(ids[5], ["rl"])

    report = sync_library(laptop, folder)
    sync_library(desktop, folder)

    assert report.sent == 6  # two statuses, the star's place in the queue, notes, tags
    assert desktop.status(ids[0]).value == "skipped"
    assert desktop.status(ids[3]).value == "starred"
    assert desktop.triage().notes[ids[1]] == "third thoughts"
    assert desktop.triage().notes[ids[5]] == "a first note"
    assert desktop.triage().tags[ids[5]] == ("rl",)
    assert desktop.triage().tags[ids[2]] == ("theory",)
    assert shown(laptop) == shown(desktop)


def test_the_next_sync_after_a_restore_is_an_ordinary_one(tmp_path: Path, folder: Path) -> None:
    """Once filled in, the file carries the sync's mark again: a note written next is sent."""
    laptop, desktop, ids = two_libraries(tmp_path, folder)
    later_elsewhere(laptop, desktop, folder, ids)
    shutil.copyfile(laptop.home / "triage.json.bak", laptop.home / "triage.json")
    sync_library(laptop, folder)
    laptop.set_note(ids[4], "written after the restore")
    assert sync_library(laptop, folder).sent == 1
    sync_library(desktop, folder)
    assert desktop.triage().notes[ids[4]] == "written after the restore"


def test_a_note_cleared_after_a_restore_is_cleared_everywhere(tmp_path: Path, folder: Path) -> None:
    """A note taken off a paper in the Inbox left nothing of the paper in triage.json, not even
    when the note was cleared: after a restore, the sync took the note for one the file had
    from before, and put it back on every device."""
    laptop, desktop, ids = two_libraries(tmp_path, folder)
    later_elsewhere(laptop, desktop, folder, ids)
    shutil.copyfile(laptop.home / "triage.json.bak", laptop.home / "triage.json")
    laptop = Library(laptop.home)
    tick()
    laptop.set_note(ids[1], "")  # the desktop's "second thoughts", on a paper in the Inbox

    report = sync_library(laptop, folder)
    sync_library(desktop, folder)

    assert report.sent == 1
    assert ids[1] not in laptop.triage().notes and ids[1] not in desktop.triage().notes
    assert shown(laptop) == shown(desktop)


def quokkas(path: Path) -> Path:
    abstracts = [f"We count quokkas on island {n} by drone, twice a year, with care." for n in "ab"]
    path.write_text("Quokka census\n\n" + "\n\n".join(abstracts) + "\n")
    return path


def test_a_papers_json_put_back_from_its_backup_removes_nothing(
    tmp_path: Path, folder: Path
) -> None:
    """``papers.json.bak`` is papers.json before the papers the last sync brought: it once
    sent their removals, and every device lost them."""
    laptop, desktop, _ids = two_libraries(tmp_path, folder)
    desktop.import_file(quokkas(tmp_path / "quokkas.txt"))
    new = {p.id for p in desktop.papers()} - {p.id for p in laptop.papers()}
    desktop.set_status(sorted(new)[0], "starred")
    sync_library(desktop, folder), sync_library(laptop, folder)
    shutil.copyfile(laptop.home / "papers.json.bak", laptop.home / "papers.json")
    laptop = Library(laptop.home)
    assert not new & {p.id for p in laptop.papers()}

    report = sync_library(laptop, folder)
    sync_library(desktop, folder)

    assert report.sent == 0 and report.applied["papers"] == 2
    assert new <= {p.id for p in desktop.papers()}
    assert shown(laptop) == shown(desktop)


def test_a_lost_papers_json_is_filled_in_from_the_folder(tmp_path: Path, folder: Path) -> None:
    """Once it said "changed here: nothing" at every sync, the papers never back."""
    laptop, desktop, ids = two_libraries(tmp_path, folder)
    desktop.set_status(ids[0], "read")
    sync_library(desktop, folder)
    (desktop.home / "papers.json").unlink()
    desktop = Library(desktop.home)
    assert desktop.papers() == []

    report = sync_library(desktop, folder)

    assert report.applied["papers"] == len(ids) and report.sent == 0
    assert {p.id for p in desktop.papers()} == set(ids)
    assert desktop.status(ids[0]).value == "read"
    assert sum(sync_library(desktop, folder).applied.values()) == 0


def test_a_removal_made_here_still_travels(tmp_path: Path, folder: Path) -> None:
    """The undo log shows the removal: that is the user taking papers out."""
    laptop, desktop, ids = two_libraries(tmp_path, folder)
    laptop.remove(ids[:2])
    sync_library(laptop, folder), sync_library(desktop, folder)
    assert not {p.id for p in desktop.papers()} & set(ids[:2])


def test_a_removal_whose_step_left_the_undo_log_still_travels(
    tmp_path: Path, folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The undo log keeps its last steps only: a removal, then a long triage before the next
    sync, and the log no longer shows the removal. The paper must not come back: the log
    cannot tell, so a paper missing here is taken as removed here (as before the log was
    asked), papers.json being no copy put back."""
    monkeypatch.setattr(storage.files.triage_file, "HISTORY_LIMIT", 5)
    laptop, desktop, ids = two_libraries(tmp_path, folder)
    laptop.remove(ids[:1])
    for n in range(12):  # more steps than the log keeps
        laptop.set_status(ids[1 + n % 3], ("read", "skipped")[n % 2])
    assert not any(step.removed for step in laptop.triage_file.steps())
    sync_library(laptop, folder), sync_library(desktop, folder)
    assert ids[0] not in {p.id for p in laptop.papers()}
    assert ids[0] not in {p.id for p in desktop.papers()}


def test_a_paper_no_log_gives_is_not_looked_for_at_every_sync(
    tmp_path: Path, folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A paper the registers hold but whose document this version refuses stays missing here:
    the logs are not read again for it at every sync that follows a change of papers.json
    (a full read of every log), only once its register holds another document."""
    import storage.sync.run as run

    laptop, desktop, _ids = two_libraries(tmp_path, folder)
    log = next((folder / ROOT_NAME).glob("*/papers.jsonl"))
    row = orjson.loads(log.read_bytes().splitlines()[0])
    pid = "ffff00000001"
    doc = {**row[4], "id": pid, "authors": [["a", "list", "in", "a", "list"]]}
    other = folder / ROOT_NAME / "eeee000000000001"
    other.mkdir()
    (other / "papers.jsonl").write_bytes(
        orjson.dumps(["P", row[1] + 1, "eeee000000000001", pid, doc]) + b"\n"
    )
    reads: list[set[str]] = []
    documents = run.documents_from_logs

    def counted(
        place: SyncFolder, state: SyncState, wanted: set[str]
    ) -> dict[str, dict[str, object]]:
        reads.append(wanted)
        return documents(place, state, wanted)

    monkeypatch.setattr(run, "documents_from_logs", counted)
    report = sync_library(desktop, folder)
    assert any("no paper this version takes" in p for p in report.problems), report.problems
    for _ in range(2):
        desktop.import_file(quokkas(tmp_path / "quokkas.txt"))
        sync_library(desktop, folder)
        desktop.remove([p.id for p in desktop.papers() if "quokka" in p.abstract])
        sync_library(desktop, folder)
    assert pid not in {p.id for p in desktop.papers()}
    assert reads == []


def test_a_lost_papers_json_is_filled_in_through_logs_read_in_parts(
    tmp_path: Path, folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The documents are read again past what one read takes of a log, and a log whose bytes
    stop at a block not arrived yet ends the reading instead of reading it again forever."""
    import storage.sync.folder

    laptop, desktop, ids = two_libraries(tmp_path, folder)
    monkeypatch.setattr(storage.sync.folder, "READ_BUDGET", 4096)
    other = folder / ROOT_NAME / "0000000000000001"  # read first
    other.mkdir()
    (other / "papers.jsonl").write_bytes(b"\0" * 4096 + b"x" * 8192 + b"\n")
    (desktop.home / "papers.json").unlink()
    desktop = Library(desktop.home)

    sync_library(desktop, folder)

    assert {p.id for p in desktop.papers()} == set(ids)


def test_a_papers_json_put_back_from_its_backup_sends_no_older_paper(
    tmp_path: Path, folder: Path
) -> None:
    """``papers.json.bak`` holds a paper as it was before the sync that brought its newer
    version (a fetch after the camera-ready, elsewhere): the older document was sent as a
    change of now, and took the paper back on every device."""
    laptop, desktop, _ids = two_libraries(tmp_path, folder)
    source = quokkas(tmp_path / "quokkas.txt")
    laptop.import_file(source)
    sync_library(laptop, folder), sync_library(desktop, folder)
    tick()
    [paper] = [p for p in desktop.papers() if "island a" in p.abstract]
    accepted = tmp_path / "accepted.jsonl"
    record = {"title": paper.title, "abstract": paper.abstract, "venue_status": "Oral"}
    accepted.write_bytes(orjson.dumps(record) + b"\n")
    desktop.import_file(accepted)
    sync_library(desktop, folder), sync_library(laptop, folder)
    assert laptop.paper(paper.id).venue_status == "Oral"
    shutil.copyfile(laptop.home / "papers.json.bak", laptop.home / "papers.json")
    laptop = Library(laptop.home)
    assert laptop.paper(paper.id).venue_status == ""  # the older copy, put back
    tick()

    report = sync_library(laptop, folder)
    sync_library(desktop, folder)

    assert report.sent == 0
    assert desktop.paper(paper.id).venue_status == laptop.paper(paper.id).venue_status == "Oral"
    assert shown(laptop) == shown(desktop)
