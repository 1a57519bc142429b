"""A note written elsewhere while the note editor is open is not lost when the editor saves:
``papers note ID --append "p. 12 done"`` from a script (or another window's editor) while the
app's editor was open on the same paper, then ctrl+s, and the appended line was gone for good,
in silence (the toast offered ``u`` for the note the editor had opened with, not for the one
it replaced). The save is a three-way merge of lines (``storage.files.three_way.merge_note``):
the note on disk, without the lines the user deleted in the editor, with those the user wrote
where they were written; what came from elsewhere (added, removed) is said."""

from __future__ import annotations

import subprocess
from pathlib import Path

from textual import events
from textual.widgets import TextArea

from storage import Library
from tests.cli.test_cli import PAPERS, make_env
from tests.tui.helpers import make_app, messages, opened, ready, settled, wait_for
from tui.screens.dialogs import NoteEditor

SIZE = (100, 30)


def append_elsewhere(home: Path, tmp_path: Path, paper_id: str, line: str) -> None:
    """``papers note ID --append LINE``: another process, as a script logs its reading."""
    note_elsewhere(home, tmp_path, paper_id, "--append", line)


def note_elsewhere(home: Path, tmp_path: Path, paper_id: str, *args: str) -> None:
    """``papers note ID ARGS…``: another process writes the note."""
    appended = subprocess.run(
        [*PAPERS, "--home", str(home), "note", paper_id, *args],
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
        said = "Note saved, merged with what changed elsewhere while you edited it: "
        assert said + "added “p. 12: the proof”" in messages(app), messages(app)
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
    typed = " and more than the cap allows" * 4
    lib.set_note(first, long)
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        await opened(pilot, "n", NoteEditor)
        append_elsewhere(seeded_home, tmp_path, first, "p. 12: the proof")
        # pasted, not typed: a key in a line of 99,880 characters took 0.25 s (116 of them
        # took this test 30 s)
        await pilot.press("ctrl+e")
        area = app.screen.query_one(TextArea)
        app.post_message(events.Paste(typed))  # (as the terminal's driver posts it)
        await wait_for(pilot, lambda: area.text == long + typed)
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: app.screen is screen)
        await settled(pilot)
        await wait_for(pilot, lambda: any("not kept: “p. 12" in m for m in messages(app)))
    assert Library(seeded_home).triage().notes.get(first) == long + typed


async def test_a_line_deleted_elsewhere_while_editing_stays_deleted(
    seeded_home: Path, tmp_path: Path
) -> None:
    """``papers note ID …`` rewrote the note without its second line while the editor was
    open; the user added a line at the end. The deleted line came back with the save, in
    silence: it stays deleted now, and the message says so."""
    lib = Library(seeded_home)
    first = lib.papers()[0].id
    lib.set_note(first, "first\nsecond\nthird")
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        await opened(pilot, "n", NoteEditor)
        note_elsewhere(seeded_home, tmp_path, first, "first\nthird")
        await pilot.press("enter", *"fourth", "ctrl+s")
        await wait_for(pilot, lambda: app.screen is screen)
        want = "first\nthird\nfourth"
        await wait_for(pilot, lambda: app.session.state.notes.get(first) == want)
        await settled(pilot)
        said = "Note saved, merged with what changed elsewhere while you edited it: "
        assert said + "removed “second”" in messages(app), messages(app)
    assert Library(seeded_home).triage().notes.get(first) == want


async def test_a_line_edited_on_both_sides_keeps_both(seeded_home: Path) -> None:
    """Another window (the Library API here) edited the second line while the editor was
    open, and the user edited it too: both versions are kept, the disk's first, neither lost
    (the disk's came after the rest, away from where it was)."""
    lib = Library(seeded_home)
    first = lib.papers()[0].id
    lib.set_note(first, "a\nb\nc")
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        await opened(pilot, "n", NoteEditor)
        Library(seeded_home).set_note(first, "a\nb, theirs\nc")
        await pilot.press("up", "end", *", mine", "ctrl+s")
        await wait_for(pilot, lambda: app.screen is screen)
        want = "a\nb, theirs\nb, mine\nc"
        await wait_for(pilot, lambda: app.session.state.notes.get(first) == want)
        await settled(pilot)
        said = "Note saved, merged with what changed elsewhere while you edited it: "
        assert said + "added “b, theirs”" in messages(app), messages(app)
    assert Library(seeded_home).triage().notes.get(first) == want


async def test_a_note_cleared_elsewhere_and_saved_unedited_stays_cleared(
    seeded_home: Path,
) -> None:
    """ctrl+s on the note as it opened, after another window cleared it: nothing of the
    user's to write, the note stays cleared (it came back whole)."""
    lib = Library(seeded_home)
    first = lib.papers()[0].id
    lib.set_note(first, "one\ntwo")
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        await opened(pilot, "n", NoteEditor)
        Library(seeded_home).set_note(first, "")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: app.screen is screen)
        await settled(pilot)
        await wait_for(pilot, lambda: app.session.state.notes.get(first, "") == "")
        said = "Note saved, merged with what changed elsewhere while you edited it: "
        assert said + "removed “one”; “two”" in messages(app), messages(app)
    assert Library(seeded_home).triage().notes.get(first, "") == ""


async def test_u_after_the_editor_saved_undoes_only_what_was_typed(
    seeded_home: Path, tmp_path: Path
) -> None:
    """``u`` right after the editor saved puts back the note it replaced, as a three-way
    merge too: a line appended elsewhere since (``papers note --append``) stays. It wrote the
    note the editor replaced whole: the appended line was gone, in silence."""
    from tui.stray_keys import GAP_S

    lib = Library(seeded_home)
    first = lib.papers()[0].id
    lib.set_note(first, "read")
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        await opened(pilot, "n", NoteEditor)
        await pilot.press("enter", *"typed here", "ctrl+s")
        await wait_for(pilot, lambda: app.screen is screen)
        await settled(pilot)
        assert Library(seeded_home).triage().notes.get(first) == "read\ntyped here"
        append_elsewhere(seeded_home, tmp_path, first, "p. 12: the proof")
        await pilot.pause(GAP_S)
        await pilot.press("u")
        want = "read\np. 12: the proof"
        await wait_for(pilot, lambda: app.session.state.notes.get(first) == want)
        await settled(pilot)
    assert Library(seeded_home).triage().notes.get(first) == want


async def test_the_lines_neither_side_changed_keep_their_trailing_spaces(
    seeded_home: Path, tmp_path: Path
) -> None:
    """A Markdown line break (two spaces ending a line) in a line neither the editor nor the
    other writer touched was taken out by the merge: lines were compared without their
    trailing spaces, and written so too. Now only compared so."""
    lib = Library(seeded_home)
    first = lib.papers()[0].id
    lib.set_note(first, "Key idea:  \nrank loss")
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        await opened(pilot, "n", NoteEditor)
        append_elsewhere(seeded_home, tmp_path, first, "p. 12  done")
        await pilot.press(*" beats MSE", "ctrl+s")
        await wait_for(pilot, lambda: app.screen is screen)
        want = "Key idea:  \nrank loss beats MSE\np. 12  done"
        await wait_for(pilot, lambda: app.session.state.notes.get(first) == want)
        await settled(pilot)
    assert Library(seeded_home).triage().notes.get(first) == want
