"""A phone's 40 columns (``papers serve`` on a phone, or a narrow terminal): the list stacked
over the paper from the first frame, and a tab bar that still shows every count."""

from __future__ import annotations

from pathlib import Path

from storage import Library
from tests.tui.helpers import OneTabBar, ShownTabs
from tui.app import PapersApp
from tui.widgets.tab_bar import TabBar

COUNTS = {"inbox": 3_703, "starred": 12, "read": 40, "skipped": 151, "all": 3_906}


async def test_the_tab_bar_keeps_every_count_at_40_columns() -> None:
    app = OneTabBar(ShownTabs(COUNTS))
    async with app.run_test(size=(40, 3)) as pilot:
        bar = app.query_one(TabBar)
        bar.show()
        await pilot.pause()
        text = str(bar.render())
        assert text.strip() == "In 3,703  ★ 12  ✓ 40  ✗ 151  All 3,906"
        assert len(text) <= 40
        await pilot.resize_terminal(60, 3)
        while bar.size.width != 60:
            await pilot.pause(0.01)
        bar.show()
        assert str(bar.render()).startswith(" 1 In 3,703  2 ★ 12 ")  # room for the keys again


async def test_the_main_screen_opens_stacked_below_100_columns(seeded_home: Path) -> None:
    app = PapersApp(Library(seeded_home))
    async with app.run_test(size=(40, 30)) as pilot:
        await pilot.pause()
        screen = app.main_screen
        assert screen.has_class("-narrow")
        papers, detail = screen.query_one("#papers").region, screen.query_one("#detail").region
        assert papers.width == detail.width == 40
        assert detail.y >= papers.bottom
