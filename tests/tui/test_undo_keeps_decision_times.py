"""``u`` gives a paper back its status as of when it was given, in the app as on disk: ``r``
on the queue's head by mistake, undone, made it "starred now", and the queue's sort by when
starred (``Q``) sent it to the end; a paper read from the queue days ago, skipped by mistake
and undone, was "read from the queue" today in the pane."""

from __future__ import annotations

import time
from datetime import date
from pathlib import Path

from storage import Library
from tests.tui.helpers import make_app, messages, plist, ready, settled, wait_for
from tests.tui.test_queue_keys import WIDE, pane_text, queued
from tui.screens.queue_sort import QueueSortDialog


async def test_r_undone_on_the_head_keeps_it_first_by_when_starred(seeded_home: Path) -> None:
    ids = queued(seeded_home, 4)  # starred a minute apart, an hour ago
    app = make_app(seeded_home)
    async with app.run_test(size=WIDE) as pilot:
        await ready(pilot)
        await pilot.press("2")
        await wait_for(pilot, lambda: [p.id for p in plist(app).row_papers()] == ids)
        await pilot.press("r")  # the head read by mistake…
        await wait_for(pilot, lambda: len(plist(app).row_papers()) == 3)
        await settled(pilot)
        await pilot.press("u")  # …and put back
        await wait_for(pilot, lambda: [p.id for p in plist(app).row_papers()] == ids)
        await settled(pilot)
        await pilot.press("Q")
        await wait_for(pilot, lambda: isinstance(app.screen, QueueSortDialog))
        await pilot.press("down", "down", "down", "down", "enter")  # by when starred
        nothing = "Nothing moved: the queue is already sorted by when you starred them"
        await wait_for(pilot, lambda: any(m.startswith(nothing) for m in messages(app)))
        assert [p.id for p in plist(app).row_papers()] == ids
        await settled(pilot)
    assert Library(seeded_home).queue() == ids


async def test_a_skip_undone_keeps_the_day_a_paper_was_read_from_the_queue(
    seeded_home: Path,
) -> None:
    import storage.files.triage_file as triage_file

    ids = queued(seeded_home, 2)
    three_days_ago = time.time() - 3 * 86400
    real = triage_file.now
    try:
        triage_file.now = lambda: three_days_ago  # type: ignore[assignment]
        Library(seeded_home).set_status(ids[0], "read")
    finally:
        triage_file.now = real
    day = date.fromtimestamp(three_days_ago).isoformat()
    app = make_app(seeded_home)
    async with app.run_test(size=WIDE) as pilot:
        await ready(pilot)
        await pilot.press("3")  # the Read tab
        await wait_for(pilot, lambda: [p.id for p in plist(app).row_papers()] == [ids[0]])
        await wait_for(pilot, lambda: f"read from the queue on {day}" in pane_text(app))
        await pilot.press("x")  # skipped by mistake…
        await wait_for(pilot, lambda: not plist(app).row_papers())
        await settled(pilot)
        await pilot.press("u")  # …and put back
        await wait_for(pilot, lambda: [p.id for p in plist(app).row_papers()] == [ids[0]])
        await settled(pilot)
        await wait_for(pilot, lambda: "read from the queue on" in pane_text(app))
        assert f"read from the queue on {day}" in pane_text(app)
    assert Library(seeded_home).triage().decided_at[ids[0]] == round(three_days_ago, 3)
