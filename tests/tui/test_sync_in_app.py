"""The app syncs with the [sync] folder of its config and says how it stands on the stats screen."""

from __future__ import annotations

import shutil
from pathlib import Path

from textual.widgets import Static

from storage import Library
from storage.sync import sync_library
from tests.tui.helpers import make_app, messages, ready, wait_for
from tui.syncing import NO_FOLDER

SIZE = (120, 36)


async def test_the_stats_screen_says_how_the_sync_stands(seeded_home: Path) -> None:
    (seeded_home / "synced").mkdir()
    (seeded_home / "config.toml").write_text('[sync]\nfolder = "synced"\nname = "laptop"\n')
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await wait_for(pilot, lambda: app.syncing.synced_at is not None)
        await pilot.press("S")
        await wait_for(pilot, lambda: type(app.screen).__name__ == "StatsScreen")
        text = "\n".join(str(s.render()) for s in app.screen.query(Static))
        assert "Sync: synced " in text and "laptop" in text and "0 other devices" in text
    other = Library(seeded_home.parent / "desktop")
    sync_library(other, seeded_home / "synced")  # the papers the app sent on start arrived
    assert len(other) == 38


async def test_y_without_a_sync_folder_says_how_to_set_one(seeded_home: Path) -> None:
    """``Y`` asks on the app's own thread: the message was lost (``call_from_thread`` refuses
    that thread, and the error was swallowed)."""
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("Y")
        await wait_for(pilot, lambda: NO_FOLDER in messages(app))


async def test_the_last_sync_at_quit_says_what_it_found_without_holding_the_quit(
    seeded_home: Path,
) -> None:
    """Quitting syncs a last time and waits for it (``close``, on the app's thread); that sync
    said what it found (here: the folder gone) by waiting for the app's thread, which was
    waiting for the sync: the quit took its whole bound and the sync was said not ended."""
    (seeded_home / "synced").mkdir()
    (seeded_home / "config.toml").write_text('[sync]\nfolder = "synced"\n')
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await wait_for(pilot, lambda: app.syncing.synced_at is not None)
        shutil.rmtree(seeded_home / "synced")
        (seeded_home / "synced").write_text("not a folder\n")  # the last sync fails
        assert app.syncing.close(timeout=5.0)  # (it waited all 5 s, then said not ended)
        await wait_for(pilot, lambda: any(m.startswith("Sync failed") for m in messages(app)))
