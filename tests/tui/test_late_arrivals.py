"""What reaches the app once its end is taking its screens down: a thread's result, a signal.

Textual's end removes the screens' widgets while threads may still hand results over
(``call_from_thread``) and signals may still come; what then runs on the main screen finds
its widgets gone (CI: ``NoMatches: '#detail'``, a traceback on quit; b4455a2). Each test holds
that arrival until the end has taken the paper pane, then lets it through: the app ends
without an error.
"""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Awaitable, Callable
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input

from storage import Library
from tests.tui.helpers import make_app, one_paper_list, opened, ready, wait_for
from tui.app import PapersApp
from tui.screens.importer import ImportScreen
from tui.signals import SignalEnding

SIZE = (120, 36)


def once_the_pane_is_gone(app: PapersApp, then: Callable[[], Awaitable[object]]) -> None:
    """Run ``then`` on the event loop once the app's end has taken the paper pane down (the
    pane's last step), the rest of the main screen still going."""
    pane = app.main_screen.detail
    last_step = pane._message_loop_exit

    async def gone() -> None:
        await last_step()
        await then()

    pane._message_loop_exit = gone  # type: ignore[method-assign]


async def test_a_signal_while_the_end_takes_the_screens_down_ends_cleanly(
    seeded_home: Path,
) -> None:
    """A second signal (a closed terminal sends SIGHUP, then more; ``kill`` twice) comes as
    the end takes the widgets down: its ``exit`` kept the place again, on a list gone
    (``NoMatches: '#papers'``, a traceback from the event loop). The first end kept it."""
    app = make_app(seeded_home)
    failures: list[dict[str, Any]] = []
    loop = asyncio.get_running_loop()
    loop.set_exception_handler(lambda _loop, context: failures.append(context))
    ending = SignalEnding()
    ending.watch(app)

    async def signalled() -> None:
        ending.on_signal(signal.SIGTERM, None)  # (asks for the exit on the event loop)
        await asyncio.sleep(0)  # (one turn of the loop: the exit asked for has run)

    try:
        async with app.run_test(size=SIZE) as pilot:
            await ready(pilot)
            await pilot.press("j")
            kept = app.main_screen.paper_list.current
            once_the_pane_is_gone(app, signalled)
            app.exit()
    finally:
        loop.set_exception_handler(None)
    assert [context.get("exception") for context in failures] == []
    assert ending.code == 128 + signal.SIGTERM
    assert kept is not None and app.main_screen.ui.paper == kept.id


@pytest.mark.parametrize("ended_by", ["the quit key", "leaving run_test"])
async def test_an_import_result_that_comes_as_the_app_ends_is_let_go(
    seeded_home: Path, tmp_path: Path, ended_by: str
) -> None:
    """The import is written and its dialog hands the result over as Textual's end takes the
    widgets down: the result is let go, not shown on a pane gone. By the quit key (which
    waits for an import being written, then goes through: CI's ``NoMatches: '#detail'``,
    b4455a2), or otherwise (a test leaving ``run_test``, an error)."""
    one_paper_list(tmp_path / "wanted.jsonl", "Wanted Paper", "We introduce WANTED, the one.")
    app = make_app(seeded_home)
    held: list[Callable[[], Any]] = []
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        dialog = await opened(pilot, "a", ImportScreen)
        to_the_app = app.call_from_thread

        def handed(callback: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
            if callback == dialog.dismiss:  # held until the end has taken the pane
                held.append(partial(callback, *args, **kwargs))
                return None
            return to_the_app(callback, *args, **kwargs)

        app.call_from_thread = handed  # type: ignore[method-assign]

        async def arrives() -> None:
            for result in held:
                await result()

        once_the_pane_is_gone(app, arrives)
        dialog.query_one("#import-path", Input).value = str(tmp_path / "wanted.jsonl")
        await pilot.press("enter")
        await wait_for(pilot, lambda: bool(held))
        if ended_by == "the quit key":
            await pilot.press("ctrl+q")
            await wait_for(pilot, lambda: not app.is_running)
            assert app.return_code == 0
    assert len(held) == 1  # (an error in it would have been raised by run_test)
    assert "Wanted Paper" in {p.title for p in Library(seeded_home).papers()}
