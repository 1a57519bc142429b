"""Keys typed while the import dialog imports or fetches (or right after its Enter, in one
burst) act on the list once the dialog has closed, in order, on the papers just imported;
the dialog's fields take none of them meanwhile, and Esc still acts at once.

Found by a review of keys typed in one burst: ``a wanted.jsonl Enter j`` typed the ``j``
into the dialog's path field while the import ran, so the list never moved, and the field
changed under the import.  Each test posts its keys to the app at once, as a terminal's
driver posts what it read, and holds the import (a real import, let through when the test
says) or the fetch (the local server holds the request) so that the keys surely come while
it runs.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from textual import events
from textual.widgets import Input, Static

from storage import Library, Status
from tests.fetch import shapes
from tests.fetch.services import Fault, Services, environment, serving
from tests.tui.helpers import make_app, messages, one_paper_list, opened, ready, wait_for
from tests.tui.test_burst_effects import burst, current, listed
from tui.app import PapersApp
from tui.key_gate import MAX_SCREEN_WAIT_S
from tui.screens.importer import ImportScreen
from tui.screens.main import MainScreen
from tui.stray_keys import GAP_S

SIZE = (120, 36)
ICLR25 = "ICLR.cc/2025/Conference"
FETCHED_LIST = "ICLR 2025 (OpenReview)"


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch) -> Iterator[Services]:
    """OpenReview on 127.0.0.1 with ICLR 2025's five accepted papers; its first request
    held until the test lets it go (``served.faults[0].release``)."""
    yield from held_venue(monkeypatch, times=1)


def held_venue(monkeypatch: pytest.MonkeyPatch, times: int) -> Iterator[Services]:
    """ICLR 2025's five accepted papers served on 127.0.0.1 (the environment names it), the
    first ``times`` requests held until ``faults[0].release`` (set at the end)."""
    found = Services()
    found.v2[ICLR25] = shapes.v2_venue(shapes.made_up(5, seed=2, fate=""), ICLR25)
    found.faults.append(Fault("/or2/", "hold", times=times))
    with serving(found) as base:
        for key, value in environment(base).items():
            monkeypatch.setenv(key, value)
        try:
            yield found
        finally:
            found.faults[0].release.set()


def held_import(app: PapersApp) -> tuple[threading.Event, threading.Event]:
    """The library's file import, held once begun until the second event returned is set
    (the first is set when it begins)."""
    begun, release = threading.Event(), threading.Event()
    library = app.main_screen.library
    real = library.import_files

    def held(*args: Any, **kwargs: Any) -> Any:
        begun.set()
        assert release.wait(30)
        return real(*args, **kwargs)

    library.import_files = held  # type: ignore[method-assign]
    return begun, release


@pytest.fixture
def lists(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The current folder (the dialog's field starts with it), holding ``wanted.jsonl``."""
    folder = tmp_path / "lists"
    folder.mkdir()
    one_paper_list(folder / "wanted.jsonl", "Wanted Paper", "We introduce WANTED, the one typed.")
    monkeypatch.chdir(folder)
    return folder


async def test_a_move_typed_with_the_path_and_enter_moves_in_the_list(
    seeded_home: Path, lists: Path
) -> None:
    """``a wanted.jsonl Enter j`` in one burst: the ``j`` went into the path field while the
    import ran; it now moves the list once the dialog has closed."""
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        begun, release = held_import(app)
        burst(app, "a", "wanted.jsonl", "enter", "j")
        await wait_for(pilot, begun.is_set)
        dialog = app.screen
        assert isinstance(dialog, ImportScreen)
        field = dialog.query_one("#import-path", Input)
        await wait_for(pilot, lambda: field.disabled)  # it shows it takes no typing
        release.set()
        await wait_for(pilot, lambda: isinstance(app.screen, MainScreen))
        await wait_for(pilot, lambda: any(m.startswith("Imported") for m in messages(app)))
        await wait_for(pilot, lambda: screen.paper_list.cursor == 1)
        assert field.value == f"{lists}/wanted.jsonl"  # as it was imported
        assert "Wanted Paper" in {screen.view.title(pid) for pid in listed(screen)}


async def test_keys_typed_while_an_import_runs_act_on_the_papers_it_brought(
    seeded_home: Path, lists: Path
) -> None:
    """``G`` typed while the import runs goes to the last paper of the list as it is once
    imported (the paper just imported), not of the list before it."""
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        begun, release = held_import(app)
        burst(app, "a", "wanted.jsonl", "enter")
        await wait_for(pilot, begun.is_set)
        burst(app, "G")
        release.set()
        await wait_for(pilot, lambda: isinstance(app.screen, MainScreen))
        await wait_for(pilot, lambda: screen.view.title(current(screen) or "") == "Wanted Paper")
        assert screen.paper_list.cursor == len(screen.paper_list.rows) - 1 == 38


async def test_esc_while_an_import_runs_says_it_goes_on_at_once(
    seeded_home: Path, lists: Path
) -> None:
    """An import is not stopped halfway (all or nothing): Esc says so at once, not once the
    keys typed before it have waited for the import, and the keys around it still move the
    list afterwards."""
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        begun, release = held_import(app)
        burst(app, "a", "wanted.jsonl", "enter", "j", "escape", "j")
        await wait_for(pilot, begun.is_set)
        dialog = app.screen
        assert isinstance(dialog, ImportScreen)
        status = dialog.query_one("#import-status", Static)
        await wait_for(
            pilot, lambda: "not stopped halfway" in str(status.render()), MAX_SCREEN_WAIT_S / 3
        )
        assert dialog.query_one("#import-path", Input).value == f"{lists}/wanted.jsonl"
        release.set()
        await wait_for(pilot, lambda: isinstance(app.screen, MainScreen))
        await wait_for(pilot, lambda: screen.paper_list.cursor == 2)
        assert "Wanted Paper" in {p.title for p in Library(seeded_home).papers()}


async def test_keys_typed_while_a_fetch_runs_act_in_order_on_the_fetched_list(
    seeded_home: Path, served: Services
) -> None:
    """``iclr2025`` Enter, then, while the server has not answered yet, moves and decisions:
    they wait for the fetched papers and act on them in order."""
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        sample = listed(screen)
        await opened(pilot, "a", ImportScreen)
        dialog = app.screen
        field = dialog.query_one("#import-path", Input)
        field.value = "iclr2025"
        await pilot.press("enter")
        await wait_for(pilot, lambda: bool(served.requests_to("/or2/")))
        assert field.disabled and dialog.query_one("#import-catalog", Input).disabled
        await pilot.pause(GAP_S)  # (a letter typed on at once after Enter is held back)
        # the last paper (a fetched one), the one before it read; then the sample's second
        # skipped
        burst(app, "G", "k", "r", "g", "j", "x")
        assert field.value == "iclr2025"
        served.faults[0].release.set()
        try:
            await wait_for(pilot, lambda: isinstance(app.screen, MainScreen), timeout=30)
        except AssertionError:
            print("STATUS", dialog.query_one("#import-status", Static).render())
            raise
        library = Library(seeded_home)
        await wait_for(pilot, lambda: library.status(sample[1]) is Status.SKIPPED)
        papers = library.papers()
        fetched = [p.id for p in papers if p.list == FETCHED_LIST]
        assert len(fetched) == 5
        decided = {p.id: library.status(p.id) for p in papers}
        decided = {pid: s for pid, s in decided.items() if s is not Status.INBOX}
        assert decided == {fetched[-2]: Status.READ, sample[1]: Status.SKIPPED}


@pytest.mark.parametrize("as_one", [False, True])
async def test_esc_typed_with_enter_stops_the_fetch_at_once(
    seeded_home: Path, served: Services, as_one: bool
) -> None:
    """``a iclr2025 Enter Esc j`` in one burst: Esc stops the fetch while the keys after it
    wait (not behind them, nor behind the key gate's deadline), then ``j`` moves the list;
    the same when the terminal sent Esc and ``j`` as one key (Alt+j)."""
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        burst(app, "a", "iclr2025", "enter")
        if as_one:
            app.post_message(events.Key("alt+j", "j"))
        else:
            burst(app, "escape", "j")

        def stopping() -> bool:  # (stopped before its first request, it closes at once)
            dialogs = [s for s in app.screen_stack if isinstance(s, ImportScreen)]
            return any(d.stop.is_set() for d in dialogs) or stopped()

        def stopped() -> bool:
            return any("nothing was imported" in m for m in messages(app))

        await wait_for(pilot, stopping, MAX_SCREEN_WAIT_S / 3)
        served.faults[0].release.set()
        await wait_for(pilot, stopped)
        await wait_for(pilot, lambda: isinstance(app.screen, MainScreen), timeout=30)
        await wait_for(pilot, lambda: screen.paper_list.cursor == 1)
        assert len(Library(seeded_home).papers()) == 38


async def test_keys_typed_while_an_import_that_fails_ran_are_not_typed_into_its_field(
    seeded_home: Path, lists: Path
) -> None:
    """The import fails: the dialog stays, its fields take keys again, and the keys typed
    while it ran (meant for the list) are dropped, as it says, not typed into the field."""
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        begun, release = held_import(app)
        (lists / "wanted.jsonl").write_text("{not json\n", encoding="utf-8")
        burst(app, "a", "wanted.jsonl", "enter", "j", "j")
        await wait_for(pilot, begun.is_set)
        dialog = app.screen
        assert isinstance(dialog, ImportScreen)
        release.set()
        status = dialog.query_one("#import-status", Static)
        field = dialog.query_one("#import-path", Input)
        await wait_for(pilot, lambda: "Not imported" in str(status.render()))
        assert "2 keys typed meanwhile" in str(status.render())
        await wait_for(pilot, lambda: app.focused is field and not field.disabled)
        assert field.value == f"{lists}/wanted.jsonl"
        await pilot.press("x")  # the field takes typing again
        assert field.value == f"{lists}/wanted.jsonlx"
        assert app.screen is dialog


async def test_a_tab_closed_while_an_import_that_fails_ran_still_ends_the_app(
    seeded_home: Path, lists: Path
) -> None:
    """A browser tab closed while the import ran: its quit waits behind the keys held, and
    the keys dropped when the import failed took the quit with them (the tab's app was left
    running, its tab gone)."""
    from textual.messages import ExitApp

    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        begun, release = held_import(app)
        (lists / "wanted.jsonl").write_text("{not json\n", encoding="utf-8")
        burst(app, "a", "wanted.jsonl", "enter", "j")
        await wait_for(pilot, begun.is_set)
        app.post_message(ExitApp())  # (what textual-serve sends as the tab closes)
        await pilot.pause(0.1)
        assert not app.ending  # (held behind the j, for the list the import brings)
        release.set()
        await wait_for(pilot, lambda: app.ending)


async def test_a_failure_outside_the_imports_own_checks_still_lets_the_keys_go(
    seeded_home: Path, lists: Path
) -> None:
    """A bug past the import's own error handling (here its report cannot say what it
    did) ended the worker and left the dialog "running": its fields disabled, Esc saying the
    import goes on, and every key typed after it held for a list that never came."""
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)

        class Unsayable:
            lists = ["Wanted"]

            def summary(self) -> str:
                raise RuntimeError("a bug in the report")

        app.main_screen.library.import_files = lambda *_a, **_k: Unsayable()  # type: ignore[method-assign]
        burst(app, "a", "wanted.jsonl", "enter", "j")
        await wait_for(pilot, lambda: isinstance(app.screen, ImportScreen))
        dialog = app.screen
        status = dialog.query_one("#import-status", Static)
        await wait_for(pilot, lambda: "internal error" in str(status.render()))
        assert "a bug in the report" in str(status.render())
        field = dialog.query_one("#import-path", Input)
        await wait_for(pilot, lambda: app.focused is field and not field.disabled)
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, MainScreen))
