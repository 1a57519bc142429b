"""What the note under the list says of a search typed: what of it is not read, and why."""

from __future__ import annotations

from pathlib import Path

from textual import events

from storage.search.query import MAX_QUERY_CHARS
from tests.tui.helpers import make_app, plist, ready, wait_for

SIZE = (120, 36)


async def test_a_query_past_the_cap_says_it_was_cut(seeded_home: Path) -> None:
    """A pasted query of 2,600 characters was searched on its first 2,000 in silence."""
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        await pilot.press("slash")
        pasted = "diffusion " * 260
        assert len(pasted.strip()) > MAX_QUERY_CHARS
        screen.search_box.post_message(events.Paste(pasted))
        await wait_for(pilot, lambda: screen.view.found is not None)
        await wait_for(pilot, lambda: "not searched" in str(plist(app).border_subtitle))
        note = str(plist(app).border_subtitle)
        assert "the query is 2,599 characters long (at most 2,000)" in note
        await pilot.press("ctrl+l", *"diffusion")
        await wait_for(pilot, lambda: screen.view.query == "diffusion")
        await pilot.pause(0.1)
        assert "not searched" not in str(plist(app).border_subtitle)
