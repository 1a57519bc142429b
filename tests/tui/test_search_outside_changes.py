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
