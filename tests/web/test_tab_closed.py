"""A browser tab closed or reloaded, or ``papers serve`` stopped, ends the tab's app by the
quit message of textual-serve: Textual's ``WebDriver`` posts ``ExitApp`` to the app, which
never passes through ``App.exit``. That end keeps what ``q`` and a signal keep: a note typed
in the editor still open, and the tab and paper the cursor was on."""

from __future__ import annotations

from pathlib import Path

from textual import events, messages

from storage import Library
from storage.files.ui_state import UiState, load_ui_state
from tests.tui.helpers import make_app, ready, wait_for
from tui.app import PapersApp
from tui.screens.dialogs import NoteEditor

SIZE = (120, 36)


def ended(app: PapersApp) -> None:
    """What ``papers`` does once its app has ended, whatever ended it: the decisions queued
    are written (``tui/cli/main.py``). The writer may still hold the note when the app's
    loop is done (its writes wait out the frame of the keys before: ``hold_writes``); read
    at once, the disk had no note yet under load (the note test failed so, its keys taken)."""
    assert app.session.close(timeout=30.0)


async def test_the_quit_of_a_closed_tab_keeps_the_note_typed_and_the_place(
    seeded_home: Path,
) -> None:
    """A note typed in the browser, then the tab closed (or reloaded, or the server's
    ctrl+c): the note was lost in silence, and the next tab opened on the Inbox's top."""
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        await pilot.press("5", "j", "j")
        current = screen.paper_list.current
        assert current is not None
        third = current.id
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, NoteEditor))
        await pilot.press(*"read the appendix")
        app.post_message(messages.ExitApp())  # what WebDriver does on the server's quit
        await wait_for(pilot, lambda: not app.is_running)
    ended(app)
    assert Library(seeded_home).triage().notes == {third: "read the appendix"}
    assert load_ui_state(seeded_home) == UiState(tab="all", paper=third)


async def test_a_note_typed_just_before_the_tab_closed_is_kept_whole(seeded_home: Path) -> None:
    """The page's keys and textual-serve's quit come to the app in turn (as ``WebDriver``
    posts them), the quit before the note editor's field had taken the keys: the note was
    saved without them, here not at all (the test above failed so under load)."""
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        current = screen.paper_list.current
        assert current is not None
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, NoteEditor))
        await pilot.pause()
        for character in "read the appendix":
            app.post_message(events.Key(character, character))
        app.post_message(messages.ExitApp())
        await wait_for(pilot, lambda: not app.is_running)
    ended(app)
    assert Library(seeded_home).triage().notes == {current.id: "read the appendix"}
