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
