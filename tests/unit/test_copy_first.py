"""``storage.files.copy_first``: the copy of what a change replaces is made outside the lock,
and the change is written only when the value is still the one copied. The other writer is a
second ``Library`` on the same HOME (its own lock, as another process has)."""

from __future__ import annotations

from pathlib import Path

import pytest

from storage import Library
from storage.files.copy_first import TRIES, ChangedWhileCopied


@pytest.fixture
def two(home: Path, sample_files: list[Path]) -> tuple[Library, Library, str]:
    mine = Library(home)
    mine.import_file(sample_files[0])
    pid = mine.papers()[0].id
    mine.set_note(pid, "first")
    return mine, Library(home), pid


def test_a_note_changed_while_copied_is_copied_too_then_replaced(
    two: tuple[Library, Library, str],
) -> None:
    mine, theirs, pid = two
    copies: list[str] = []

    def copy(before: str) -> None:
        copies.append(before)
        if len(copies) == 1:  # the copy printed, before the lock: another writer changes it
            theirs.set_note(pid, "second")

    assert mine.set_note(pid, "mine", before_saving=copy) == "second"
    assert copies == ["first", "second"]
    assert Library(mine.home).triage().notes[pid] == "mine"


def test_a_note_changed_at_every_copy_is_left_as_the_other_writer_made_it(
    two: tuple[Library, Library, str],
) -> None:
    mine, theirs, pid = two
    copies: list[tuple[str, ...]] = []

    def copy(before: tuple[str, ...]) -> None:
        copies.append(before)
        theirs.set_tags(pid, [f"t{len(copies)}"])

    with pytest.raises(ChangedWhileCopied, match=f"the tags of {pid}: changed by another"):
        mine.set_tags(pid, ["mine"], before_saving=copy)
    assert copies == [(), *((f"t{n}",) for n in range(1, TRIES))]
    assert Library(mine.home).triage().tags[pid] == (f"t{TRIES}",)
