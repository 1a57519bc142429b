"""A note or tags past the caps written by hand into triage.json, or into a log in the synced
folder: the sync neither sends nor takes them (no device would) and says so, one line each,
naming the paper; nothing lost."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import orjson

from storage import Library
from storage.sync import sync_library
from storage.sync.folder import ROOT_NAME, TRIAGE_LOG
from tests.unit.test_sync_support import seeded


def synced(library: Library, folder: Path) -> subprocess.CompletedProcess[str]:
    """``papers sync FOLDER`` run on ``library``'s HOME."""
    return subprocess.run(
        [sys.executable, "-m", "tui", "--home", str(library.home), "sync", str(folder)],
        capture_output=True,
        text=True,
        check=False,
    )


def test_a_note_and_tags_past_the_caps_are_said_not_sent(tmp_path: Path) -> None:
    """They were skipped without a word, at every sync, and the user never knew why the
    other devices did not get them."""
    library, folder = seeded(tmp_path / "home"), tmp_path / "synced"
    folder.mkdir()
    first, second = (p.id for p in library.papers()[:2])
    sync_library(library, folder)
    with library.triage_file.change() as change:
        change.update(first, note="N" * 100_001)
        change.update(second, tags=[f"t{n}" for n in range(201)], note="kept")

    done = synced(library, folder)

    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert sorted(done.stderr.splitlines()) == [
        f"papers: note: the note of {first} in triage.json is not sent: the note is 100,001 "
        "characters long (at most 100,000)",
        f"papers: note: the tags of {second} in triage.json are not sent: 201 tags are too "
        "many (at most 200 a paper)",
    ]
    assert "sent 1 note;" in done.stdout  # the note within its cap
    triage = Library(library.home).triage()
    assert len(triage.notes[first]) == 100_001 and len(triage.tags[second]) == 201


def test_records_past_the_caps_in_another_devices_log_are_named_not_called_damage(
    tmp_path: Path,
) -> None:
    """A note and tags past the caps written by hand into another device's log: skipped, as
    no device takes them, and said as "2 damaged line(s) skipped", naming neither the paper
    nor what was wrong with them."""
    library, folder = seeded(tmp_path / "home"), tmp_path / "synced"
    folder.mkdir()
    pid = library.papers()[0].id
    sync_library(library, folder)
    other = "0123456789abcdef"
    log = folder / ROOT_NAME / other / TRIAGE_LOG
    log.parent.mkdir()
    stamp = int(time.time() * 1000)
    rows = [
        ["g", stamp, other, pid, [f"t{n}" for n in range(201)]],
        ["n", stamp, other, pid, "N" * 100_001],
        ["s", stamp, other, pid, "read"],
    ]
    log.write_bytes(b"".join(orjson.dumps(row) + b"\n" for row in rows) + b"[damaged\n")

    done = synced(library, folder)

    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    where = f"papers: note: {other}: {TRIAGE_LOG}"
    assert done.stderr.splitlines() == [
        f"{where}: the tags of {pid} past the caps: 201 tags are too many (at most 200 a "
        "paper), skipped",
        f"{where}: the note of {pid} past the caps: the note is 100,001 characters long (at "
        "most 100,000), skipped",
        f"{where}: 1 damaged line(s) skipped",
    ]
    assert "received 1 decision" in done.stdout
    again = synced(library, folder)
    assert again.returncode == 0 and again.stderr == ""  # said once, as damage is
