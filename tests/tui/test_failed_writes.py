"""Writes the disk refuses (full, read-only) in the app: said once, as what they are."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from storage import Library, Status
from tests.tui.helpers import make_app, messages, plist, ready, settled, wait_for

SIZE = (120, 36)


async def test_a_decision_the_full_disk_refused_is_not_news_from_elsewhere(
    seeded_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """'Not saved', then the next poll of the disk said "Updated with decisions made
    elsewhere." though nothing had changed there (found by a hostile review, HOME on a full
    tmpfs)."""
    earlier = Library(seeded_home)
    earlier.set_status(earlier.papers()[-1].id, "read")  # decided before the app opened
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        shown = plist(app).current
        assert shown is not None
        first = shown.id

        def full(fd: int) -> None:
            raise OSError(errno.ENOSPC, "No space left on device")

        with monkeypatch.context() as patched:
            patched.setattr(os, "fsync", full)
            await pilot.press("s")
            await wait_for(pilot, lambda: any("Not saved" in m for m in messages(app)))
            await settled(pilot)
        screen.poll_disk()  # what the app does every second
        await settled(pilot)
        said = messages(app)
        assert not any("elsewhere" in m for m in said), said
        assert app.session.status(first) is Status.INBOX
        await pilot.press("g", "s")  # space again: the decision is made and kept
        await settled(pilot)
    assert Library(seeded_home).statuses() == {
        earlier.papers()[-1].id: Status.READ,
        first: Status.STARRED,
    }


async def test_a_note_the_full_disk_refused_opens_again_with_its_text(
    seeded_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ctrl+s closed the editor and said 'Note saved.'; the write then failed and the note
    went back to what the disk held: what was typed was gone (found by a hostile review,
    HOME on a full tmpfs). The editor opens again with it; ctrl+s, once there is room, saves."""
    from textual.widgets import TextArea

    from tui.screens.dialogs import NoteEditor

    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        shown = plist(app).current
        assert shown is not None

        def full(fd: int) -> None:
            raise OSError(errno.ENOSPC, "No space left on device", "triage.json")

        with monkeypatch.context() as patched:
            patched.setattr(os, "fsync", full)
            await pilot.press("n", *"an hour of thought", "ctrl+s")
            await wait_for(pilot, lambda: isinstance(app.screen, NoteEditor))
            await settled(pilot)
        editor = app.screen
        assert isinstance(editor, NoteEditor)
        assert editor.paper.id == shown.id
        assert editor.query_one(TextArea).text == "an hour of thought"
        said = [m for m in messages(app) if m.startswith("Not saved")]
        assert said == [
            "Not saved: triage.json: No space left on device. Showing what is on disk. "
            "The note is open again: ctrl+s tries again."
        ]
        assert app.session.state.notes == {}
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: app.screen is app.main_screen)
        await settled(pilot)
    assert Library(seeded_home).triage().notes == {shown.id: "an hour of thought"}
