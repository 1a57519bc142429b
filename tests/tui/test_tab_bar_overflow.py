"""More saved searches' tabs than the bar holds: the tab shown is always on the bar, the tabs
left out are counted ("+2 more"), and the count of papers triaged stays whole or goes whole."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.text import Text
from textual.widgets import OptionList

from storage.files.saved_searches import SavedSearches
from tests.tui.helpers import OneTabBar, ShownTabs, big_library, make_app, ready, tab_text, wait_for
from tui.screens.tab_picker import TabPicker
from tui.widgets.tab_bar import TabBar

COUNTS = {"inbox": 3_694, "starred": 0, "read": 0, "skipped": 0, "all": 3_694}
NAMES = ["alpha", "beta", "gamma", "delta", "epsilon-with-a-very-long-name-indeed", "zeta"]
SAVED = [(f"saved:{name}", name) for name in NAMES]


@pytest.mark.parametrize("current", [name for name, _ in SAVED])
@pytest.mark.parametrize("width", [80, 60])
async def test_the_tab_shown_is_always_on_the_bar(current: str, width: int) -> None:
    shown = ShownTabs({**COUNTS, **{name: 3_095 for name, _ in SAVED}}, current, SAVED)
    app = OneTabBar(shown)
    async with app.run_test(size=(width, 20)) as pilot:
        bar = app.query_one(TabBar)
        bar.show()
        await pilot.pause()
        text = str(bar.render())
        assert Text(text).cell_len <= width, text
        [(start, end)] = [(s, e) for s, e, name in bar._spans if name == current]
        assert end <= width, text
        label = text[start:end]
        assert "3,095" in label and label.strip()[-5:] == "3,095", label
        hidden = len(SAVED) - sum(name.startswith("saved:") for _, _, name in bar._spans)
        assert hidden > 0 and f" +{hidden} more" in text, text
        if width == 80:
            assert text.endswith("  0/3,694"), text  # whole, at the end


async def test_the_app_shows_a_saved_tab_past_the_end_of_the_bar(tmp_path: Path) -> None:
    home = tmp_path / "home"
    big_library(home, tmp_path, 3_694)  # as many papers as ICLR 2025's list, 3 starred
    searches = SavedSearches(home)
    for name in NAMES:
        searches.save(name, "model")
    app = make_app(home)
    async with app.run_test(size=(80, 20)) as pilot:
        screen = await ready(pilot)
        epsilon = "saved:epsilon-with-a-very-long-name-indeed"
        screen.action_show_tab(epsilon)
        await wait_for(pilot, lambda: screen.view.tab == epsilon)
        await pilot.pause(0.1)
        text = tab_text(app)
        bar = screen.query_one(TabBar)
        assert any(name == epsilon and end <= 80 for _, end, name in bar._spans), text
        assert " more" in text and text.endswith("  3/3,694"), text


#: ICLR 2025's list at 40 columns (a phone, a split pane), a few papers decided, five saved
#: searches: the built-in tabs alone took 36 of the 40 columns.
ICLR = {"inbox": 3_694, "starred": 3, "read": 4, "skipped": 2, "all": 3_703}
SEARCHES = [
    ("saved:diffusion", "diffusion"),
    ("saved:toread", "tag:toread"),
    ("saved:llm", "llm"),
    ("saved:reinforcement learning", "reinforcement learning"),
    ("saved:graphs", "graphs"),
]
SAVED_COUNTS = {
    "saved:diffusion": 489,
    "saved:toread": 0,
    "saved:llm": 1_424,
    "saved:reinforcement learning": 306,
    "saved:graphs": 98,
}
#: Each tab as the narrowest bar writes it: its short label, then its count, whole.
WRITTEN = {
    "inbox": "In 3,694",
    "starred": "★ 3",
    "read": "✓ 4",
    "skipped": "✗ 2",
    "all": "All 3,703",
    "saved:diffusion": "diffusion 489",
    "saved:toread": "tag:toread 0",
    "saved:llm": "llm 1,424",
    "saved:reinforcement learning": "reinforceme… 306",
    "saved:graphs": "graphs 98",
}


@pytest.mark.parametrize("current", list(WRITTEN))
async def test_at_40_columns_each_tab_shown_is_whole_and_the_rest_are_counted(
    current: str,
) -> None:
    """At 40 columns the bar ran past the edge: "+5 more" showed as "+5", and a saved
    search's tab, when shown, was not on the bar at all. Now every tab on the bar is whole
    (its label and count), the current one always among them, and the others are counted."""
    shown = ShownTabs({**ICLR, **SAVED_COUNTS}, current, SEARCHES)
    app = OneTabBar(shown)
    async with app.run_test(size=(40, 20)) as pilot:
        bar = app.query_one(TabBar)
        bar.show()
        await pilot.pause()
        text = str(bar.render())
        assert Text(text).cell_len <= 40, text
        on_bar = [name for _, _, name in bar._spans if name != "+more"]
        assert current in on_bar, text
        for start, end, name in bar._spans:
            if name != "+more":
                assert text[start:end] == f" {WRITTEN[name]} ", (name, text)
        left_out = [name for name in WRITTEN if name not in on_bar]
        assert left_out and text.endswith(f" +{len(left_out)} more"), text
        assert bar.left_out() == tuple(left_out)
        assert on_bar[0] == "inbox", text  # the first tabs stay
        assert on_bar == sorted(on_bar, key=list(WRITTEN).index)  # in order


async def test_at_40_columns_without_saved_searches_every_tab_shows() -> None:
    app = OneTabBar(ShownTabs(ICLR))
    async with app.run_test(size=(40, 20)) as pilot:
        bar = app.query_one(TabBar)
        bar.show()
        await pilot.pause()
        assert str(bar.render()) == " In 3,694  ★ 3  ✓ 4  ✗ 2  All 3,703 "
        assert bar.left_out() == ()


def with_searches(home: Path, names: list[str]) -> None:
    searches = SavedSearches(home)
    for name in names:
        searches.save(name, name)


async def test_a_click_on_more_lists_the_tabs_left_out_and_shows_the_one_clicked(
    seeded_home: Path,
) -> None:
    """A click on "+6 more" did nothing: the tabs it counts could be reached only by their
    keys (6…9, and for later ones the palette). It lists them now, each with its count and
    key; a click on one shows it."""
    with_searches(seeded_home, ["model", "learning", "graph", "language", "agents"])
    app = make_app(seeded_home)
    async with app.run_test(size=(40, 20)) as pilot:
        screen = await ready(pilot)
        bar = screen.query_one(TabBar)
        await wait_for(pilot, lambda: any(name == "+more" for _, _, name in bar._spans))
        left_out = bar.left_out()
        assert len(left_out) >= 2 and f"+{len(left_out)} more" in tab_text(app)
        [(start, end)] = [(s, e) for s, e, name in bar._spans if name == "+more"]
        await pilot.click(TabBar, offset=(end - 2, 0))
        await wait_for(pilot, lambda: isinstance(app.screen, TabPicker))
        choices = app.screen.query_one(OptionList)
        listed = [choices.get_option_at_index(i) for i in range(choices.option_count)]
        assert tuple(option.id for option in listed) == left_out
        said = [str(option.prompt) for option in listed]
        assert any(line.startswith("agents · ") and "papers" in line for line in said), said
        await pilot.pause(0.1)
        assert left_out[-1] == "saved:agents" and choices.max_scroll_y == 0
        last_row = choices.region.height - choices.styles.gutter.bottom - 1  # its last line
        await pilot.click(choices, offset=(4, last_row))
        await wait_for(pilot, lambda: app.screen is screen and screen.view.tab == "saved:agents")
        await pilot.pause(0.1)
        # shown, the tab is on the bar, whole
        assert any(name == "saved:agents" for _, _, name in bar._spans), tab_text(app)
        assert " agents " in tab_text(app)


async def test_the_more_tabs_list_takes_keys_and_esc_changes_nothing(seeded_home: Path) -> None:
    with_searches(seeded_home, ["model", "learning", "graph", "language", "agents"])
    app = make_app(seeded_home)
    async with app.run_test(size=(40, 20)) as pilot:
        screen = await ready(pilot)
        bar = screen.query_one(TabBar)
        await wait_for(pilot, lambda: any(name == "+more" for _, _, name in bar._spans))
        [(start, _)] = [(s, e) for s, e, name in bar._spans if name == "+more"]
        await pilot.click(TabBar, offset=(start + 1, 0))
        await wait_for(pilot, lambda: isinstance(app.screen, TabPicker))
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is screen)
        assert screen.view.tab == "inbox"
        first = bar.left_out()[0]
        await pilot.click(TabBar, offset=(start + 1, 0))
        await wait_for(pilot, lambda: isinstance(app.screen, TabPicker))
        await pilot.press("j", "k", "enter")
        await wait_for(pilot, lambda: app.screen is screen and screen.view.tab == first)
