"""The paper pane wraps the papers around the cursor while the app is idle, never stale."""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot

from storage.models import Paper
from tests.tui.helpers import make_app, ready, settled, wait_for
from tui.widgets.paper_pane import PaperPane

SIZE = (120, 36)


async def pane_and_next_paper(pilot: Pilot[None]) -> tuple[PaperPane, Paper]:
    """The pane, and the paper below the cursor, once the app is ready and still."""
    screen = await ready(pilot)
    await settled(pilot)
    following = screen.paper_list.paper_at(1)
    assert following is not None
    return screen.query_one(PaperPane), following


async def test_the_next_paper_is_wrapped_before_its_key(seeded_home: Path) -> None:
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        pane, following = await pane_and_next_paper(pilot)
        prepared = [lines for paper, _text, lines in pane._wrapped.values() if paper is following]
        assert prepared, "the next paper was not wrapped in advance"
        await pilot.press("j")
        await settled(pilot)
        assert pane.shown is not None and pane.shown.paper is following
        assert pane._lines is prepared[0]  # shown from what was prepared, not wrapped again


async def test_a_prepared_paper_shows_what_changed_since(seeded_home: Path) -> None:
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        pane, following = await pane_and_next_paper(pilot)
        app.session.queue_note(following.id, "a note written meanwhile")
        await pilot.press("j")
        await wait_for(pilot, lambda: "a note written meanwhile" in pane.text.plain)
