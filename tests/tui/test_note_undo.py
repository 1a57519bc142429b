"""``u`` right after the note editor replaced or cleared a note brings that note back.

Notes are no steps of the history: ``u`` after clearing a note in the editor undid the
decision before it (in a reader's session, a move of the queue made from the shell) and the
note was gone for good. Now ``u`` puts the note back (and ``u`` again the newer one, so that
nothing typed is lost), as it brings back a saved search just deleted; once something else is
done, ``u`` undoes decisions again.
"""

from __future__ import annotations

from pathlib import Path

from storage import Library, Status
from tests.tui.helpers import make_app, messages, opened, ready, settled, wait_for
from tui.screens.dialogs import NoteEditor
from tui.stray_keys import GAP_S

SIZE = (80, 24)
NOTE = "ten minutes of thought"


async def test_u_after_a_note_cleared_brings_it_back(seeded_home: Path) -> None:
    lib = Library(seeded_home)
    first, second = (p.id for p in lib.papers()[:2])
    lib.set_status(second, Status.STARRED)  # a step of the history, before the note
    lib.set_note(first, NOTE)
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        assert screen.paper_list.current is not None and screen.paper_list.current.id == first
        await opened(pilot, "n", NoteEditor)
        await pilot.press("ctrl+a", "ctrl+k", "ctrl+s")  # everything deleted, then saved
        await wait_for(pilot, lambda: app.screen is screen)
        await wait_for(pilot, lambda: first not in app.session.state.notes)
        assert "Note cleared: u brings back the note it replaced." in messages(app)
        await pilot.pause(GAP_S)
        await pilot.press("u")
        await wait_for(pilot, lambda: app.session.state.notes.get(first) == NOTE)
        await settled(pilot)
        assert app.session.state.statuses.get(second) is Status.STARRED  # no decision undone
        assert "Note put back." in messages(app)
        await pilot.press("u")  # nothing typed to lose: u is the history's again
        await wait_for(pilot, lambda: second not in app.session.state.statuses)
        await settled(pilot)
    triage = Library(seeded_home).triage()
    assert triage.notes.get(first) == NOTE


async def test_u_after_a_note_replaced_toggles_between_the_two(seeded_home: Path) -> None:
    lib = Library(seeded_home)
    first = lib.papers()[0].id
    lib.set_note(first, "the old note")
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        await opened(pilot, "n", NoteEditor)
        await pilot.press("ctrl+a", "ctrl+k", *"a new note", "ctrl+s")
        await wait_for(pilot, lambda: app.screen is screen)
        await wait_for(pilot, lambda: app.session.state.notes.get(first) == "a new note")
        assert "Note saved: u brings back the note it replaced." in messages(app)
        await pilot.pause(GAP_S)
        await pilot.press("u")
        await wait_for(pilot, lambda: app.session.state.notes.get(first) == "the old note")
        await pilot.press("u")  # the newer one, typed a moment ago, is not lost either
        await wait_for(pilot, lambda: app.session.state.notes.get(first) == "a new note")
        await pilot.press("s")  # something else done: u is the history's again
        await settled(pilot)
        await pilot.press("u")
        await wait_for(pilot, lambda: first not in app.session.state.statuses)
        await settled(pilot)
        assert app.session.state.notes.get(first) == "a new note"
    assert Library(seeded_home).triage().notes.get(first) == "a new note"


async def test_u_after_a_first_note_undoes_the_decision_before_it(seeded_home: Path) -> None:
    """A note written where there was none replaces nothing: u is the history's, as before."""
    lib = Library(seeded_home)
    first, second = (p.id for p in lib.papers()[:2])
    lib.set_status(second, Status.STARRED)
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        await opened(pilot, "n", NoteEditor)
        await pilot.press(*"a first note", "ctrl+s")
        await wait_for(pilot, lambda: app.screen is screen)
        await pilot.pause(GAP_S)
        await pilot.press("u")
        await wait_for(pilot, lambda: second not in app.session.state.statuses)
        await settled(pilot)
        assert app.session.state.notes.get(first) == "a first note"
