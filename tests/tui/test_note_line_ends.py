"""A note edited in the app keeps its line ends and tabs.

A note imported from a spreadsheet or another tool's export (CSV rows written on Windows,
``papers note`` given CRLF text) holds ``\\r\\n`` and tabs. The editor showed it through the
screen's one-line sanitiser, which makes a CR the visible ``␍`` and a tab a space: saving the
note with one word added wrote those stand-ins back, every line of the note ending in ``␍``.
"""

from __future__ import annotations

from pathlib import Path

from storage import Library
from tests.tui.helpers import make_app, opened, ready, wait_for
from tui.screens.dialogs import NoteEditor

SIZE = (80, 24)


async def test_a_crlf_note_with_tabs_edited_keeps_its_lines_and_tabs(seeded_home: Path) -> None:
    lib = Library(seeded_home)
    first = lib.papers()[0].id
    lib.set_note(first, "first line\r\nsecond\tline\r\nthird \x1b[31m")
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        editor = await opened(pilot, "n", NoteEditor)
        assert isinstance(editor, NoteEditor)
        assert "\x1b" not in editor.shown_note  # what would steer the terminal still shows
        await pilot.press("!", "ctrl+s")
        await wait_for(pilot, lambda: app.screen is screen)
        await wait_for(pilot, lambda: app.session.state.notes.get(first, "").endswith("!"))
    note = Library(seeded_home).triage().notes[first]
    assert note.splitlines() == ["first line", "second\tline", "third ␛[31m!"]
    assert "␍" not in note
