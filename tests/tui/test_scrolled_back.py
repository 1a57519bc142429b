"""A list or a paper scrolled down, then replaced by a shorter one that fits, shows from its
top: Textual scrolls only a view that overflows, so the scroll back to the top was refused
and the list of a shorter tab (the Starred tab after the end of the Inbox) showed no rows at
all while the cursor moved over papers no one could see."""

from __future__ import annotations

import json
from pathlib import Path

from storage import Library
from tests.tui.helpers import make_app, ready, settled, wait_for


async def test_a_shorter_tab_after_a_scrolled_list_shows_its_rows(seeded_home: Path) -> None:
    app = make_app(seeded_home)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await ready(pilot)
        listed = screen.paper_list
        for _ in range(3):
            await pilot.press("s")
            await settled(pilot)
        await pilot.press("G")
        assert listed.scroll_offset.y > 0
        await pilot.press("2")
        await wait_for(pilot, lambda: "Starred" in str(listed.border_title))
        await pilot.pause()
        assert listed.scroll_offset.y == 0
        first = listed.paper_at(0)
        assert first is not None
        assert first.title[:20] in listed.render_line(0).text


async def test_a_short_paper_after_a_scrolled_one_shows_from_its_top(tmp_path: Path) -> None:
    home = tmp_path / "home"
    source = tmp_path / "two.jsonl"
    long_one = " ".join(f"We measure effect number {i} of the long method." for i in range(80))
    source.write_text(
        json.dumps({"title": "A Long Paper", "abstract": long_one})
        + "\n"
        + json.dumps({"title": "A Short Paper", "abstract": "We show one short thing."})
        + "\n",
        encoding="utf-8",
    )
    Library(home).import_file(source)
    app = make_app(home)
    async with app.run_test(size=(100, 24)) as pilot:
        screen = await ready(pilot)
        if screen.paper_list.current.title != "A Long Paper":  # type: ignore[union-attr]
            await pilot.press("j")
        pane = screen.detail
        await pilot.press("J", "J", "J")
        assert pane.scroll_offset.y > 0
        await pilot.press("j" if screen.paper_list.cursor == 0 else "k")
        await wait_for(pilot, lambda: screen.paper_list.current.title == "A Short Paper")  # type: ignore[union-attr]
        await pilot.pause()
        assert pane.scroll_offset.y == 0
