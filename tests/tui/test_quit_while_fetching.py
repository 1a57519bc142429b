"""The quit key and Esc while the import dialog fetches from a server that holds its answer.

Found by a review of the app: ctrl+q ("Quit from any screen") was held behind the fetch with
the keys typed for the list, then dropped when the fetch timed out, 30 s later ("1 key typed
meanwhile, for the list, not used"); Esc said "Stopping the fetch…", then, at the timeout,
that the fetch had timed out: a read blocked on the server was not stopped. Each test holds
the first request on a real server on 127.0.0.1 (released as the test ends).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input, Static

from storage import Library
from tests.fetch.services import Services
from tests.tui.helpers import make_app, messages, one_paper_list, opened, ready, wait_for
from tests.tui.test_keys_while_importing import held_venue
from tui.screens.importer import ImportScreen

SIZE = (120, 36)
ICLR25 = "ICLR.cc/2025/Conference"
#: Well under the fetch's 30 s timeout: a stop waits for no timeout (with room for a loaded
#: machine, CI's, to take the app down, which 5 s did not leave much of).
PROMPT_S = 12.0


@pytest.fixture
def held(monkeypatch: pytest.MonkeyPatch) -> Iterator[Services]:
    """OpenReview on 127.0.0.1 with ICLR 2025's five accepted papers; every request held
    (no answer) until the test ends."""
    yield from held_venue(monkeypatch, times=100)


def papers_file(home: Path) -> bytes:
    return (home / "papers.json").read_bytes()


async def fetching(pilot, served: Services) -> ImportScreen:  # type: ignore[no-untyped-def]
    """The import dialog, fetching ``iclr2025 --all --refresh`` from the held server."""
    dialog = await opened(pilot, "a", ImportScreen)
    assert isinstance(dialog, ImportScreen)
    dialog.query_one("#import-path", Input).value = "iclr2025 --all --refresh"
    await pilot.press("enter")
    await wait_for(pilot, lambda: bool(served.requests_to("/or2/")))
    status = dialog.query_one("#import-status", Static)
    await wait_for(pilot, lambda: "Asking OpenReview for ICLR 2025" in str(status.render()))
    return dialog


@pytest.mark.parametrize("keys", ["", 'force_quit = "ctrl+x"'])
async def test_the_quit_key_quits_at_once_while_a_fetch_waits(
    seeded_home: Path, held: Services, keys: str
) -> None:
    """ctrl+q (or the key it is remapped to) goes through the keys held for the list: the
    fetch stops and the app quits, the library as it was."""
    if keys:
        (seeded_home / "config.toml").write_text(f"[keys]\n{keys}\n", encoding="utf-8")
    quit_key = "ctrl+x" if keys else "ctrl+q"
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        before = papers_file(seeded_home)
        dialog = await fetching(pilot, held)
        start = time.monotonic()
        await pilot.press("j", quit_key)  # (the j, for the list, is held and dropped)
        await wait_for(pilot, lambda: not app.is_running, timeout=PROMPT_S)
        assert time.monotonic() - start < PROMPT_S
    assert dialog.stop.is_set()  # the fetch is stopped, as Esc stops it
    assert papers_file(seeded_home) == before
    assert len(Library(seeded_home).papers()) == 38


async def test_esc_stops_a_fetch_whose_answer_does_not_come(
    seeded_home: Path, held: Services
) -> None:
    """Esc while the server holds its answer: the dialog closes within a second or so, the
    fetch said stopped (not timed out 30 s later), nothing imported."""
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        before = papers_file(seeded_home)
        await fetching(pilot, held)
        start = time.monotonic()
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, ImportScreen), PROMPT_S)
        assert time.monotonic() - start < PROMPT_S
        said = [n.message for n in app._notifications]
        assert any("The fetch was stopped; nothing was imported" in m for m in said), said
        assert not any("timed out" in m for m in said)
        assert app.is_running
    assert papers_file(seeded_home) == before


async def test_the_quit_key_while_an_import_is_written_quits_once_it_is_whole(
    seeded_home: Path, tmp_path: Path
) -> None:
    """ctrl+q while the import itself runs (past its fetch: not stopped halfway) quit at once,
    and the process was ended 0.4 s later whatever the import was doing: after papers.json,
    before triage.json, a library's 5,000 stars were lost. The quit now waits for the import
    to be written, says so, then quits."""
    one_paper_list(tmp_path / "wanted.jsonl", "Wanted Paper", "We introduce WANTED, the one.")
    app = make_app(seeded_home)
    begun, release, ended = threading.Event(), threading.Event(), threading.Event()
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        library = app.main_screen.library
        real = library.import_files

        def held(*args: Any, **kwargs: Any) -> Any:
            begun.set()
            try:
                assert release.wait(30)
                return real(*args, **kwargs)
            finally:
                ended.set()

        library.import_files = held  # type: ignore[method-assign]
        dialog = await opened(pilot, "a", ImportScreen)
        dialog.query_one("#import-path", Input).value = str(tmp_path / "wanted.jsonl")
        await pilot.press("enter")
        await wait_for(pilot, begun.is_set)
        await pilot.press("ctrl+q")
        await wait_for(pilot, lambda: any("Quitting once the import" in m for m in messages(app)))
        await pilot.pause(0.6)  # past the ending's deadline: it has not begun
        assert app.is_running and not ended.is_set()
        release.set()
        await wait_for(pilot, lambda: not app.is_running, timeout=PROMPT_S)
    assert ended.is_set()
    assert "Wanted Paper" in {p.title for p in Library(seeded_home).papers()}


async def test_the_quit_key_before_a_file_import_begins_writes_nothing(
    seeded_home: Path, tmp_path: Path
) -> None:
    """A quit that comes before the worker begins to write: the import never begins."""
    one_paper_list(tmp_path / "wanted.jsonl", "Wanted Paper", "We introduce WANTED, the one.")
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        before = papers_file(seeded_home)
        dialog = await opened(pilot, "a", ImportScreen)
        assert dialog.quit_now()  # (as the app's quit asks it, the import not yet begun)
        dialog.query_one("#import-path", Input).value = str(tmp_path / "wanted.jsonl")
        await pilot.press("enter")
        await pilot.pause(0.5)
    assert papers_file(seeded_home) == before
