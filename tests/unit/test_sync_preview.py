"""A preview of a sync (``papers sync DIR --status``, ``preview_sync``) writes nothing: the
HOME and the folder are left byte for byte as they were, whatever the merge would do."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from storage.caps import MAX_NOTE_CHARS
from storage.sync.run import SyncReport, preview_sync
from storage.sync.status import SyncStatus, sync_status
from tests.unit.test_sync_both import _cut_short_merge, machines


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """One clock for the devices and the times ``triage.json`` keeps (moved by hand), an hour
    behind the wall clock a preview reads (records stamped ahead of it are not believed)."""
    import time

    import storage.files.triage_file

    now = [round(time.time()) - 3600.0]
    monkeypatch.setattr(storage.files.triage_file, "now", lambda: now[0])
    return now


def files(*folders: Path) -> dict[Path, bytes]:
    """Every file under ``folders``, and its bytes."""
    return {p: p.read_bytes() for f in folders for p in sorted(f.rglob("*")) if p.is_file()}


def previewed(machine: Any) -> tuple[SyncReport, SyncStatus, subprocess.CompletedProcess[str]]:
    """The preview and the status of ``machine``'s sync, and ``papers sync DIR --status`` run:
    none of them changed a byte of its HOME or of the folder (but for the triage a command
    read, kept for the next one: ``Library.keep_triage_memo``)."""
    before = files(machine.home, machine.folder)
    preview = preview_sync(machine.library, machine.folder)
    status = sync_status(machine.library, machine.folder)
    assert files(machine.home, machine.folder) == before
    shown = subprocess.run(
        [sys.executable, "-m", "tui", "--home", str(machine.home), "sync", str(machine.folder)]
        + ["--status"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert shown.returncode == 0 and "Traceback" not in shown.stderr, shown.stderr
    memo = machine.home / "triage.cache"
    assert {p: b for p, b in files(machine.home, machine.folder).items() if p != memo} == before
    return preview, status, shown


@pytest.mark.parametrize(
    "case", ["notes too long together", "an edit too long with a merge", "201 tags", "by hand"]
)
def test_a_preview_writes_nothing_whatever_the_merge_would_do(
    tmp_path: Path, clock: list[float], monkeypatch: pytest.MonkeyPatch, case: str
) -> None:
    """A sync would set a note aside in ``HOME/sync/notes-kept`` (two notes too long for one,
    an edit too long with a merge cut short), name tags too many to merge, or skip a note of
    100,001 characters and 201 tags written into triage.json by hand: a preview does none."""
    (laptop, desktop), pid = machines(tmp_path, clock, "laptop", "desktop")
    clock[0] += 60
    if case == "notes too long together":
        laptop.library.set_note(pid, "L" * 60_000)
        clock[0] += 60
        desktop.library.set_note(pid, "D" * 60_000)
        laptop.sync(), desktop.sync()
    elif case == "an edit too long with a merge":
        laptop.library.set_note(pid, "laptop text")
        clock[0] += 60
        desktop.library.set_note(pid, "desktop " * ((MAX_NOTE_CHARS - 200) // 8))
        laptop.sync(), desktop.sync()
        clock[0] += 60
        _cut_short_merge(laptop, monkeypatch)
        clock[0] += 60
        laptop.library.set_note(pid, " ".join(["laptop"] * 100))
    elif case == "201 tags":
        laptop.library.set_tags(pid, [f"laptop-{n}" for n in range(100)])
        clock[0] += 60
        desktop.library.set_tags(pid, [f"desktop-{n}" for n in range(101)])
        laptop.sync(), desktop.sync()
    else:
        with laptop.library.triage_file.change() as change:
            change.update(pid, note="N" * 100_001, tags=[f"t{n}" for n in range(201)])
    clock[0] += 60
    preview, status, _ = previewed(laptop)
    assert preview.sent == status.to_send
    aside = case in ("notes too long together", "an edit too long with a merge")
    assert any(" would be kept in " in p for p in preview.problems) == aside, preview.problems
    assert preview.problems == status.problems
    laptop.sync()  # the sync itself sets the note aside
    assert (laptop.home / "sync" / "notes-kept").exists() == aside


@pytest.mark.parametrize("folder_has", ["nothing", "another device's files"])
def test_a_preview_from_a_home_never_synced_writes_nothing(
    tmp_path: Path, clock: list[float], folder_has: str
) -> None:
    """A HOME that has imported papers and never synced (nor decided anything): the preview
    made its two lock files (``.lock-triage`` and its queue), empty, in HOME."""
    from tests.unit.test_sync_support import Machine

    laptop = Machine(tmp_path / "laptop", tmp_path / "synced", base=lambda: clock[0])
    laptop.seed()
    laptop.folder.mkdir(exist_ok=True)
    if folder_has != "nothing":
        desktop = Machine(tmp_path / "desktop", laptop.folder, base=lambda: clock[0])
        desktop.seed()
        desktop.library.set_status(desktop.library.papers()[0].id, "read")
        desktop.sync("desktop")
    clock[0] += 60
    preview, status, shown = previewed(laptop)
    assert "note:" not in shown.stderr  # nothing to say: no lock was missed
    assert preview.sent == status.to_send and not status.problems
