"""A search shown while another process changes what its qualifiers read."""

from __future__ import annotations

from pathlib import Path

from storage import Library
from tests.tui.helpers import make_app, plist, ready, settled, wait_for

SIZE = (120, 36)


async def test_a_tag_search_shows_the_papers_another_process_tagged(seeded_home: Path) -> None:
    """``tag:toread`` on the Starred tab, then ``papers tag ID toread`` in another shell:
    the tab counts followed, the search's list stayed empty (and said no paper had a tag)
    until the search was typed again (found by a QA run). The cursor stays on its paper."""
    other = Library(seeded_home)
    ids = [p.id for p in other.papers()][:3]
    other.set_statuses(ids, "starred")
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        await pilot.press("2", "slash", *"tag:toread", "enter")
        await wait_for(pilot, lambda: screen.search_box.answered == "tag:toread")
        assert plist(app).row_papers() == []
        other.set_tags(ids[1], ["toread"])
        other.set_tags(ids[2], ["toread"])
        screen.poll_disk()  # what the app does every second
        await wait_for(pilot, lambda: {p.id for p in plist(app).row_papers()} == set(ids[1:]))
        await pilot.press("j")
        await settled(pilot)
        kept = plist(app).current
        assert kept is not None
        other.set_tags(ids[0], ["toread"])
        screen.poll_disk()
        await wait_for(pilot, lambda: len(plist(app).row_papers()) == 3)
        await settled(pilot)
        assert plist(app).current == kept  # not sent back to the first


async def test_a_move_made_while_the_search_runs_again_is_kept(seeded_home: Path) -> None:
    """Another process tags a paper, and the search shown runs again (off the UI thread):
    ``j`` typed before its results came moved the cursor, then the results put it back on
    the paper it was on when the search started, and the move was lost."""
    other = Library(seeded_home)
    ids = [p.id for p in other.papers()][:4]
    other.set_statuses(ids, "starred")
    for pid in ids:
        other.set_tags(pid, ["toread"])
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        await pilot.press("2", "slash", *"tag:toread", "enter")
        await wait_for(pilot, lambda: len(plist(app).row_papers()) == 4)
        await settled(pilot)
        first = plist(app).current
        # what ``persisted`` does when a reload brings another process's change, then ``j``
        # as the key that came before the results (the search runs in a thread)
        screen.search_after_outside_changes()
        screen.action_cursor_down()
        moved_to = plist(app).current
        assert moved_to is not None and moved_to != first
        await wait_for(pilot, lambda: screen._searched_again is None)  # its results came
        await settled(pilot)
        assert plist(app).current == moved_to
