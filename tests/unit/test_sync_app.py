"""The app's background sync (tui/syncing.py), without the app: start, changes, request, close."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest

from storage import Library
from storage.sync import sync_library
from tests.unit.test_sync_support import seeded
from tui import syncing
from tui.syncing import NO_FOLDER, AppSync


def wait_until(condition: Callable[[], bool], timeout: float = 15.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return False


def test_without_a_folder_it_does_nothing_and_says_how_to_set_one(tmp_path: Path) -> None:
    said: list[tuple[str, str]] = []
    sync = AppSync(tmp_path / "home", None, notify=lambda m, s: said.append((m, s)))
    sync.start()
    sync.request()
    assert sync.close() and sync.text == "" and said == [(NO_FOLDER, "warning")]


def test_it_syncs_on_start_after_changes_on_request_and_on_close(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(syncing, "POLL_SECONDS", 0.05)
    monkeypatch.setattr(syncing, "SETTLE_SECONDS", 0.2)
    folder = tmp_path / "synced"
    folder.mkdir()
    library = seeded(tmp_path / "app")
    ids = [p.id for p in library.papers()]
    said: list[tuple[str, str]] = []
    sync = AppSync(library.home, folder, "laptop", lambda m, s: said.append((m, s)))
    assert sync.detail == f"Sync: sync waiting · {folder}"
    sync.start()
    assert wait_until(lambda: sync.synced_at is not None)  # on start: the papers went
    assert sync.text.startswith("synced ") and sync.report is not None
    assert sync.detail.startswith("Sync: synced ") and "laptop" in sync.detail
    assert sync.detail.endswith("0 other devices")
    library.set_status(ids[0], "starred")  # the app's writer, as far as the sync can tell
    # two records: its status and its place in the reading queue
    assert wait_until(lambda: sync.report is not None and sync.report.sent == 2)
    other = Library(tmp_path / "desktop")
    sync_library(other, folder)
    other.set_status(ids[1], "read")
    sync_library(other, folder)  # another device's files arrive: synced at once
    assert wait_until(lambda: library.status(ids[1]).value == "read")
    assert wait_until(lambda: ("1 change arrived from other devices.", "information") in said)
    sync.request()
    assert wait_until(lambda: any(m.startswith("synced with") for m, _s in said))
    library.set_note(ids[2], "last words")
    assert sync.close()  # the last sync, on quit
    sync_library(other, folder)
    assert other.triage().notes[ids[2]] == "last words"


def test_a_folder_that_goes_away_is_said_once(tmp_path: Path) -> None:
    folder = tmp_path / "usb"
    folder.mkdir()
    said: list[tuple[str, str]] = []
    sync = AppSync(tmp_path / "home", folder, notify=lambda m, s: said.append((m, s)))
    folder.rmdir()
    sync.start()
    assert wait_until(lambda: sync.error != "")
    sync.request()
    assert wait_until(lambda: len(said) == 2)
    assert sync.close() and sync.text == "sync failed"
    assert all("does not exist" in m and s == "error" for m, s in said)


def test_what_it_notifies_shows_no_escape_codes_from_the_folder(tmp_path: Path) -> None:
    """File names in the folder are chosen by whoever writes there: a conflicted copy named
    with escape codes is named in a notification with the codes made visible."""
    folder = tmp_path / "synced"
    folder.mkdir()
    other = seeded(tmp_path / "desktop")
    sync_library(other, folder)
    device = next((folder / "papers-tui").iterdir())
    (device / "triage (conflicted copy \x1b[2J\x1b]0;pwn\x07).jsonl").write_bytes(b"")
    said: list[tuple[str, str]] = []
    sync = AppSync(tmp_path / "home", folder, notify=lambda m, s: said.append((m, s)))
    sync.request()
    assert wait_until(lambda: any("conflicted" in m for m, _s in said))
    assert sync.close()
    assert not any(c in m for m, _s in said for c in "\x1b\x07")
