"""A note written elsewhere while the note editor is open is not lost when the editor saves:
``papers note ID --append "p. 12 done"`` from a script (or another window's editor) while the
app's editor was open on the same paper, then ctrl+s, and the appended line was gone for good,
in silence (the toast offered ``u`` for the note the editor had opened with, not for the one
it replaced). The lines the note gained meanwhile are kept, after what was typed, and said."""

from __future__ import annotations

import subprocess
from pathlib import Path

from storage import Library
from tests.cli.test_cli import PAPERS, make_env
from tests.tui.helpers import make_app, messages, opened, ready, settled, wait_for
from tui.screens.dialogs import NoteEditor

SIZE = (100, 30)


def append_elsewhere(home: Path, tmp_path: Path, paper_id: str, line: str) -> None:
    """``papers note ID --append LINE``: another process, as a script logs its reading."""
    appended = subprocess.run(
        [*PAPERS, "--home", str(home), "note", paper_id, "--append", line],
        env=make_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert appended.returncode == 0, appended.stderr


async def test_a_line_appended_elsewhere_while_editing_is_kept(
    seeded_home: Path, tmp_path: Path
) -> None:
    lib = Library(seeded_home)
    first = lib.papers()[0].id
    lib.set_note(first, "sections 1-3 read")
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        assert screen.paper_list.current is not None and screen.paper_list.current.id == first
        await opened(pilot, "n", NoteEditor)
        append_elsewhere(seeded_home, tmp_path, first, "p. 12: the proof")
        await pilot.press("ctrl+e", *" and section 4", "ctrl+s")
        await wait_for(pilot, lambda: app.screen is screen)
        want = "sections 1-3 read and section 4\np. 12: the proof"
        await wait_for(pilot, lambda: app.session.state.notes.get(first) == want)
        await settled(pilot)
        said = "Note saved, with what was written elsewhere while you edited it: p. 12: the proof"
        assert any(m.startswith(said) for m in messages(app)), messages(app)
    assert Library(seeded_home).triage().notes.get(first) == want


async def test_a_note_unchanged_elsewhere_is_saved_as_typed(seeded_home: Path) -> None:
    """The editor's own earlier line, deleted there, is not brought back: only what another
    writer added since the editor opened is kept."""
    lib = Library(seeded_home)
    first = lib.papers()[0].id
    lib.set_note(first, "a line to delete\nkept")
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        await opened(pilot, "n", NoteEditor)
        await pilot.press("up", "home", "shift+down", "delete", "ctrl+s")  # the first line
        await wait_for(pilot, lambda: app.screen is screen)
        await wait_for(pilot, lambda: app.session.state.notes.get(first) == "kept")
        await settled(pilot)
        assert not any("elsewhere" in m for m in messages(app))
    assert Library(seeded_home).triage().notes.get(first) == "kept"


async def test_lines_written_elsewhere_past_the_cap_are_said_not_kept(
    seeded_home: Path, tmp_path: Path
) -> None:
    """What another writer added, when the note with it would pass the note's cap, cannot be
    kept: the note is saved as typed, and that is said with the lines (it was in silence)."""
    from storage.caps import MAX_NOTE_CHARS

    lib = Library(seeded_home)
    first = lib.papers()[0].id
    long = "x" * (MAX_NOTE_CHARS - 120)  # typed: 116 more; with the line added: past it
    lib.set_note(first, long)
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        await opened(pilot, "n", NoteEditor)
        append_elsewhere(seeded_home, tmp_path, first, "p. 12: the proof")
        await pilot.press("ctrl+e", *" and more than the cap allows" * 4, "ctrl+s")
        await wait_for(pilot, lambda: app.screen is screen)
        await settled(pilot)
        await wait_for(pilot, lambda: any("not kept: p. 12" in m for m in messages(app)))
    assert (
        Library(seeded_home).triage().notes.get(first) == long + " and more than the cap allows" * 4
    )
