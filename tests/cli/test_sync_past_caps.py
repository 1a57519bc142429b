"""A note or tags past the caps written into triage.json by hand: the sync sends neither (no
other device would take it) and says so, one line each, naming the paper; nothing lost."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from storage import Library
from storage.sync import sync_library


def test_a_note_and_tags_past_the_caps_are_said_not_sent(tmp_path: Path) -> None:
    """They were skipped without a word, at every sync, and the user never knew why the
    other devices did not get them."""
    library, folder = Library(tmp_path / "home"), tmp_path / "synced"
    folder.mkdir()
    library.import_file(sorted(Path("/work/shared/seeds").glob("*.txt"))[0])
    first, second = (p.id for p in library.papers()[:2])
    sync_library(library, folder)
    with library.triage_file.change() as change:
        change.update(first, note="N" * 100_001)
        change.update(second, tags=[f"t{n}" for n in range(201)], note="kept")

    done = subprocess.run(
        [sys.executable, "-m", "tui", "--home", str(library.home), "sync", str(folder)],
        capture_output=True,
        text=True,
        check=False,
    )

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
