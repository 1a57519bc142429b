"""Enter in the command palette runs the command for what was typed, however fast.

The palette lists its commands in a worker, after each letter. ``stats`` Enter typed in one
burst reached Enter while the list still held an earlier one (the commands listed when it
opened, "Triage: Read" first, or those for ``sta``, "Triage: Star" first): Enter ran that, and
marked the paper. An Esc typed after Enter stopped the listing before it ended, so the same
happened with ``stats`` Enter Esc. It is what CI met under load: the burst test (here now)
waited for a list, any list, and Enter ran another command instead of opening the stats.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from textual import events
from textual.app import ComposeResult
from textual.command import CommandInput, CommandPalette, Hit
from textual.pilot import Pilot

from tests.tui.helpers import make_app, ready, wait_for
from tests.tui.test_burst_effects import burst
from tui.commands import PALETTE, PaperCommands
from tui.key_gate import expect_screen, screen_arrived
from tui.screens import palette
from tui.screens.main import MainScreen
from tui.screens.stats import StatsScreen


@pytest.fixture(params=[0.0, 0.2, 0.5], ids=["quick", "slow", "slower-than-keys-wait"])
def listing(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> float:
    """The palette's listing as it is, or taking longer each time, as on a loaded machine
    (0.5 s: longer than a key waits for the one before it, ``tui.key_gate.MAX_WAIT_S``)."""
    pause = float(request.param)
    if pause:
        search = PaperCommands.search

        async def slow(self: PaperCommands, query: str) -> AsyncIterator[Hit]:
            await asyncio.sleep(pause)
            async for hit in search(self, query):
                yield hit

        monkeypatch.setattr(PaperCommands, "search", slow)
    return pause


@pytest.fixture
def stats_shown(monkeypatch: pytest.MonkeyPatch) -> list[StatsScreen]:
    """Every stats screen composed (shown), however briefly: it runs as it is."""
    shown: list[StatsScreen] = []
    compose = StatsScreen.compose

    def composing(self: StatsScreen) -> ComposeResult:
        shown.append(self)
        return compose(self)

    monkeypatch.setattr(StatsScreen, "compose", composing)
    return shown


async def opened_palette(pilot: Pilot[None]) -> None:
    """``ctrl+p``, and the palette on screen."""
    await pilot.press("ctrl+p")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, CommandPalette))


@pytest.mark.parametrize("after", [(), ("escape", "j")], ids=["enter", "enter-esc-j"])
async def test_enter_typed_with_the_command_runs_that_command(
    seeded_home: Path, listing: float, stats_shown: list[StatsScreen], after: tuple[str, ...]
) -> None:
    """``stats`` Enter, alone or followed by Esc ``j``, in one burst: the stats are shown and
    nothing is marked. (Esc then closes the stats, or, when Enter's choice took longer than
    the keys wait for it, the palette before they open: either is the keys' order.) The app
    runs on, the main screen under everything: a second dismissal popped it."""
    app = make_app(seeded_home)
    async with app.run_test(size=(120, 36)) as pilot:
        await ready(pilot)
        await opened_palette(pilot)
        burst(app, "stats", "enter", *after)
        await wait_for(pilot, lambda: len(stats_shown) == 1)
        await pilot.pause(0.4)
        assert app.is_running and isinstance(app.screen_stack[0], MainScreen)
        assert not isinstance(app.screen, CommandPalette)
        if not after:
            assert isinstance(app.screen, StatsScreen)
        assert len(stats_shown) == 1
        assert app.session.state.statuses == {}


async def test_esc_alone_closes_the_palette_and_runs_nothing(
    seeded_home: Path, listing: float, stats_shown: list[StatsScreen]
) -> None:
    app = make_app(seeded_home)
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await ready(pilot)
        await opened_palette(pilot)
        burst(app, "stats", "escape", "j")
        await wait_for(pilot, lambda: app.screen is screen and screen.paper_list.cursor == 1)
        await pilot.pause(0.4)
        assert app.screen is screen and len(app.screen_stack) == 1
        assert stats_shown == [] and app.session.state.statuses == {}


async def test_keys_typed_after_enter_act_after_its_command(
    seeded_home: Path, listing: float, stats_shown: list[StatsScreen]
) -> None:
    """``last`` Enter ``k`` in one burst: the cursor goes to the last paper, then up one. The
    ``k`` was typed into the palette's field when Enter's command took longer than a key
    waits for the key before it (the palette's field took it, "lastk", and the palette
    closed with it)."""
    app = make_app(seeded_home)
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await ready(pilot)
        last = len(screen.paper_list.rows) - 1
        await opened_palette(pilot)
        burst(app, "last", "enter", "k")
        await wait_for(pilot, lambda: app.screen is screen and screen.paper_list.cursor == last - 1)
        await pilot.pause(0.4)
        assert app.screen is screen and screen.paper_list.cursor == last - 1
        assert stats_shown == [] and app.session.state.statuses == {}


async def test_keys_after_an_enter_that_runs_nothing_go_to_the_palette(
    seeded_home: Path, listing: float
) -> None:
    """Enter with no command listed for what was typed runs nothing: the palette stays, and
    the letters typed after Enter go on into its field (a moment later at most)."""
    app = make_app(seeded_home)
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await ready(pilot)
        await opened_palette(pilot)
        burst(app, "qqqzzz", "enter", "xy")
        field = app.screen.query_one(CommandInput)
        await wait_for(pilot, lambda: field.value == "qqqzzzxy")
        assert isinstance(app.screen, CommandPalette) and screen.paper_list.cursor == 0
        assert app.session.state.statuses == {}


@pytest.mark.parametrize("key", ["escape", "backspace"])
async def test_keys_after_an_enter_that_runs_nothing_go_on_at_once(
    seeded_home: Path, monkeypatch: pytest.MonkeyPatch, key: str
) -> None:
    """A typo, Enter (no matches: nothing runs), then Esc or Backspace: they act at once. They
    waited the whole deadline of a command's run (1.3 s; made long here, so that the wait is
    not a matter of timing), for a command that was never to run."""
    monkeypatch.setattr(palette, "LISTING_WAIT_S", 60.0)
    app = make_app(seeded_home)
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await ready(pilot)
        await opened_palette(pilot)
        field = app.screen.query_one(CommandInput)
        burst(app, "qqqzzz")
        await wait_for(pilot, lambda: field.value == "qqqzzz")
        await wait_for(pilot, lambda: not any(not w.is_finished for w in app.screen.workers))
        burst(app, "enter")
        app.post_message(events.Key(key, None))
        if key == "escape":
            await wait_for(pilot, lambda: app.screen is screen)
        else:
            await wait_for(pilot, lambda: field.value == "qqqzz")
        assert app.session.state.statuses == {} and screen.paper_list.cursor == 0


async def test_the_keys_held_for_a_palette_command_wait_for_it_not_for_other_work(
    seeded_home: Path,
) -> None:
    """Between the palette's Enter and its command, other work saying its screen arrived (a
    search's results shown) let the held keys go early, into the palette's field; only the
    palette's word (or the deadline) lets them go."""
    app = make_app(seeded_home)
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await ready(pilot)
        expect_screen(app, wait=None, by=PALETTE)
        burst(app, "j")
        await pilot.pause(0.1)
        screen_arrived(app)  # another's screen
        await pilot.pause(0.4)
        assert screen.paper_list.cursor == 0
        screen_arrived(app, by=PALETTE)
        await wait_for(pilot, lambda: screen.paper_list.cursor == 1)
