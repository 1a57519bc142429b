"""A word typed on after leaving the search box decides nothing and opens nothing.

"sparse" typed on the list stars (s), opens the import dialog (a), marks read (r), stars
again (s) and opens the export dialog (e). For every way of clearing or leaving the box the
test types a word at once, and checks that nothing was decided, no dialog opened, the undo
log is empty, and the screen said what it held back; after ctrl+l the word is a new search.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from textual import events
from textual.pilot import Pilot

from storage import Library
from tests.tui.helpers import make_app, plist, ready, wait_for
from tui.app import PapersApp
from tui.screens.main import MainScreen
from tui.stray_keys import GAP_S, StrayKeys

SIZE = (120, 36)
WORD = "sparse"
#: The gap of the test that types a word at once after leaving the box.
WIDE_GAP_S = 3.0


async def esc(pilot: Pilot[None]) -> None:
    await pilot.press("escape")


async def esc_esc(pilot: Pilot[None]) -> None:
    await pilot.press("escape", "escape")


async def ctrl_l(pilot: Pilot[None]) -> None:
    await pilot.press("ctrl+l")


async def enter(pilot: Pilot[None]) -> None:
    await pilot.press("enter")


async def click(pilot: Pilot[None]) -> None:
    await pilot.click("#papers", offset=(5, 3))


async def tab(pilot: Pilot[None]) -> None:
    await pilot.press("tab")


async def down(pilot: Pilot[None]) -> None:
    await pilot.press("down")


WAYS: dict[str, Callable[[Pilot[None]], Awaitable[None]]] = {
    "esc": esc,
    "esc esc": esc_esc,
    "ctrl+l": ctrl_l,
    "enter": enter,
    "click": click,
    "tab": tab,
    "down": down,
}


def decided_nothing(app: PapersApp, home: Path) -> None:
    assert app.session.state.statuses == {}, app.session.state.statuses
    assert isinstance(app.screen, MainScreen), app.screen  # no dialog opened
    app.session.flush(5)
    assert Library(home).statuses() == {}
    assert Library(home).undo() == []  # nothing to undo either


@pytest.mark.parametrize("way", list(WAYS))
async def test_a_word_typed_after_leaving_the_search_box_is_no_command(
    seeded_home: Path, way: str
) -> None:
    app = make_app(seeded_home)
    # The test's keys come as fast as the app takes them, which on a loaded machine can be
    # slower than typing (the second Esc redraws the whole list): a wider gap keeps them a
    # burst.
    app.stray_keys.gap = WIDE_GAP_S
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        await pilot.press("slash", *"diffusion")
        await wait_for(pilot, lambda: screen.view.query == "diffusion")
        await WAYS[way](pilot)
        await pilot.press(*WORD)
        await pilot.pause(WIDE_GAP_S + 0.1)
        decided_nothing(app, seeded_home)
        if way == "ctrl+l":  # the box has the cursor: the word is the next search
            assert app.focused is screen.search_box
            assert screen.search_box.value == WORD
            assert not [n for n in app._notifications if n.title == "Not a command"]
        else:
            assert app.focused is not screen.search_box
            [note] = [n for n in app._notifications if n.title == "Not a command"]
            assert f"“{WORD}”" in note.message and note.severity == "warning"


async def test_ctrl_l_from_the_list_puts_the_cursor_in_the_box(seeded_home: Path) -> None:
    """After a search and Esc (the filter kept, the list focused), ctrl+l clears the filter
    and the next word typed, however late, is a search."""
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        await pilot.press("slash", *"graph", "escape")
        await pilot.pause(GAP_S + 0.1)
        assert app.focused is plist(app) and screen.view.query == "graph"
        await pilot.press("ctrl+l")
        assert screen.view.query == "" and len(plist(app).rows) == 38
        assert app.focused is screen.search_box
        await pilot.pause(GAP_S + 0.1)
        await pilot.press(*WORD)
        await wait_for(pilot, lambda: screen.view.query == WORD)
        decided_nothing(app, seeded_home)


async def test_keys_after_a_pause_are_commands_again(seeded_home: Path) -> None:
    """The hold lasts while the typing goes on; a key after a pause decides, and moving keys
    are never held (holding j down right after Enter moves)."""
    app = make_app(seeded_home)
    # Enter, two moves (each redraws the list) and s come within the gap when typed; on a
    # loaded machine the pilot's came 0.4 s apart one run in three, and once over 1.5 s on a
    # machine three times slower: the wider gap keeps them a burst (the app's own gap is the
    # other tests' here)
    app.stray_keys.gap = WIDE_GAP_S
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        await pilot.press("slash", *"graph", "enter", "j", "j")
        assert plist(app).cursor == 2  # moves are not held back
        await pilot.press("s")
        assert app.session.state.statuses == {}  # typed on: held
        await pilot.pause(WIDE_GAP_S + 0.1)
        await pilot.press("s")
        await wait_for(pilot, lambda: len(app.session.state.statuses) == 1)
        assert screen.view.query == "graph"


async def test_a_dialog_field_left_by_enter_holds_the_rest_of_the_word(
    seeded_home: Path,
) -> None:
    """Tags typed in the tag prompt and Enter: letters typed on are not commands either."""
    app = make_app(seeded_home)
    # Enter (which closes the prompt and redraws the main screen) and the letters come within
    # the gap when typed; on a loaded machine the pilot's came over 0.4 s apart (a CI run of
    # this stop, beside two other test processes): the wider gap keeps them a burst
    app.stray_keys.gap = WIDE_GAP_S
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("t")
        await wait_for(pilot, lambda: not isinstance(app.screen, MainScreen))
        await pilot.press(*"toread", "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, MainScreen))
        await pilot.press(*"sax")
        await pilot.pause(WIDE_GAP_S + 0.1)
        assert app.session.state.statuses == {}
        assert isinstance(app.screen, MainScreen)


def test_the_burst_rule() -> None:
    keys = StrayKeys({"j"}, gap=0.4)
    assert not keys.hold("s", "s", 10.0)  # no typing before: a command
    keys.typed(10.0)
    assert keys.hold("s", "s", 10.3)
    assert keys.hold("p", "p", 10.6)  # 0.3 s after the last held key: the burst goes on
    assert not keys.hold("j", "j", 10.7)  # moving: never held
    assert not keys.hold("r", "r", 11.1)  # 0.5 s after the last held key: a command
    assert not keys.hold("ctrl+s", None, 10.1)  # not a character
    assert keys.take_held() == "sp" and keys.take_held() == ""


async def test_a_key_typed_well_after_esc_decides_though_the_app_was_busy(
    seeded_home: Path,
) -> None:
    """The gap is the user's, between their keys: Esc, then ``s`` a deliberate second later,
    both waiting while the app was busy (a loaded machine, a long frame). The gap was
    measured from when the app got round to leaving the box, after the ``s`` had come: the
    star was held back as the rest of a word ("Press that key again")."""
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        await pilot.press("slash", *"graph")
        await wait_for(pilot, lambda: screen.view.query == "graph")
        leave = events.Key("escape", "\x1b")
        time.sleep(GAP_S + 0.6)  # the app busy (its loop held) while the user reads, then stars
        star = events.Key("s", "s")
        app.post_message(leave)
        app.post_message(star)
        await wait_for(pilot, lambda: len(app.session.state.statuses) == 1)
        assert app.focused is plist(app)
        assert not [n for n in app._notifications if n.title == "Not a command"]
