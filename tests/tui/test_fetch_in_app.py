"""The import dialog takes what ``papers fetch`` takes: a fetch in the dialog's worker, with
its progress, a server's wait on the status line, and Esc to stop it (nothing imported)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, ProgressBar, Static

import storage.fetch.registry
from tests.fetch import shapes
from tests.fetch.services import Fault, Services, environment, serving
from tests.tui.helpers import make_app, messages, opened, plist, ready, wait_for
from tui.screens.importer import ImportScreen, fetching
from tui.stray_keys import GAP_S

SIZE = (120, 36)
ICLR25 = "ICLR.cc/2025/Conference"


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch) -> Iterator[Services]:
    found = Services()
    made = shapes.made_up(250, fate="") + shapes.made_up(5, seed=2)
    found.v2[ICLR25] = shapes.v2_venue(made, ICLR25)
    with serving(found) as base:
        for key, value in environment(base).items():
            monkeypatch.setenv(key, value)
        yield found


def test_what_the_field_names() -> None:
    assert fetching("iclr2025 --all --reviews", {}).words == ["iclr2025"]  # type: ignore[union-attr]
    query = fetching("arxiv:ti:diffusion AND cat:cs.CV --max 50", {})
    assert query is not None and query.words == ["arxiv:ti:diffusion AND cat:cs.CV"]
    assert query.max_papers == 50
    assert fetching("iclr2025 neurips2024", {}).words == ["iclr2025", "neurips2024"]  # type: ignore[union-attr]
    assert fetching(str(Path.cwd()), {}) is None  # a path that exists is a path
    assert fetching("no such file.txt", {}) is None
    with pytest.raises(ValueError):
        fetching("iclr2025 --max lots", {})


def test_the_field_names_a_venue_as_users_type_it() -> None:
    """Found on main: neither was a source, the field took them for a file's path."""
    assert fetching("ICLR 2025 Conference --all", {}).words == ["ICLR 2025 Conference"]  # type: ignore[union-attr]
    assert fetching("2025 ICLR", {}).words == ["2025 ICLR"]  # type: ignore[union-attr]


async def test_a_venue_fetched_from_the_import_dialog(seeded_home: Path, served: Services) -> None:
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("a")
        field = app.screen.query_one("#import-path", Input)
        field.value = field.value + "iclr2025 --all --reviews"  # typed after the folder shown
        await pilot.press("enter")
        await wait_for(pilot, lambda: len(app.papers) == 38 + 255, timeout=60)
        await wait_for(pilot, lambda: len(plist(app).rows) == 38 + 255)
        await wait_for(pilot, lambda: any("255 added" in n.message for n in app._notifications))
        statuses = {p.venue_status for p in app.papers}
        assert {"Poster", "Rejected"} <= statuses
        assert any(p.fact("rating") is not None for p in app.papers)


async def test_a_fetch_answered_from_the_cache_says_when_its_pages_were_kept(
    seeded_home: Path, served: Services
) -> None:
    """The dialog's report said the papers were "unchanged" when the pages were the cache's,
    kept hours before (the CLI says so on stderr): a decision out since was not there."""
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        for typed, cached in (
            ("iclr2025", False),
            ("iclr2025", True),
            ("iclr2025 --refresh", False),
        ):
            await opened(pilot, "a", ImportScreen)
            field = app.screen.query_one("#import-path", Input)
            field.value = field.value + typed
            app.clear_notifications()
            await pilot.press("enter")
            await wait_for(pilot, lambda: any("Imported" in m for m in messages(app)), timeout=60)
            [said] = [m for m in messages(app) if "Imported" in m]
            await wait_for(pilot, lambda: len(plist(app).rows) > 38)  # the list shows them
            await pilot.pause(GAP_S)  # (a key just after a field is left is held back)
            assert ("pages from the cache of" in said) is cached, said
            assert ("--refresh asks again" in said) is cached, said


async def fetch_typed(pilot: Pilot[None], what: str) -> tuple[ImportScreen, Static]:
    """``what`` typed in the import dialog and Enter pressed: the dialog, and its status line."""
    await pilot.press("a")
    pilot.app.screen.query_one("#import-path", Input).value = what
    await pilot.press("enter")
    screen = pilot.app.screen
    assert isinstance(screen, ImportScreen)
    return screen, screen.query_one("#import-status", Static)


async def test_esc_stops_a_fetch_that_waits(seeded_home: Path, served: Services) -> None:
    served.faults.append(Fault("/or2/notes", "status", status=429, headers={"Retry-After": "30"}))
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        screen, status = await fetch_typed(pilot, "iclr2025")
        await wait_for(pilot, lambda: "waiting 30 s" in str(status.render()), timeout=30)
        assert screen.query_one("#import-progress", ProgressBar).display
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, ImportScreen), timeout=10)
        await wait_for(
            pilot, lambda: any("nothing was imported" in n.message for n in app._notifications)
        )
        assert len(app.papers) == 38


async def test_the_dialog_says_what_it_asks_before_the_first_page(
    seeded_home: Path, served: Services
) -> None:
    """The status line said only "Fetching…" until the first page of papers was counted (a
    venue's group asked first, a slow server: seconds of it): it names the service and the
    venue from the start."""
    held = Fault("/or2/groups", "hold")
    served.faults.append(held)
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        _, status = await fetch_typed(pilot, "iclr2025")
        try:
            await wait_for(pilot, lambda: len(served.requests_to("/or2/groups")) == 1)
            await wait_for(
                pilot, lambda: "Asking OpenReview for ICLR 2025" in str(status.render()), timeout=10
            )
        finally:
            held.release.set()
        await wait_for(pilot, lambda: len(app.papers) == 38 + 250, timeout=60)


async def test_esc_as_the_fetch_gets_its_last_page_imports_nothing(
    seeded_home: Path, served: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Esc came once the fetch had its last page, before the import began: the dialog said
    "Stopping the fetch…", then imported the venue all the same. The import that a stop came
    before is not begun: nothing imported, as for a stop during the fetch."""
    real = storage.fetch.registry.fetch_all
    fetched = threading.Event()

    def then_esc(*args: Any, **kwargs: Any) -> Any:
        result = real(*args, **kwargs)
        fetched.set()  # the last page is in: Esc now (held until the dialog has taken it)
        cancelled = args[3].cancelled
        deadline = time.monotonic() + 10
        while not cancelled() and time.monotonic() < deadline:
            time.sleep(0.01)
        return result

    monkeypatch.setattr(storage.fetch.registry, "fetch_all", then_esc)
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await fetch_typed(pilot, "iclr2025")
        await wait_for(pilot, fetched.is_set, timeout=30)
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, ImportScreen), timeout=10)
        await wait_for(pilot, lambda: any("nothing was imported" in m for m in messages(app)))
        assert not any(m.startswith("Imported") for m in messages(app))
        assert len(app.papers) == 38
