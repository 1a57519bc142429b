"""A list dialog's command set in config.toml to a key its list or scroll binds itself runs
the command, as its footer says: ``similar_go = "home"`` went to the first of the similar
papers (the focused list's Home) instead of to the highlighted paper; so ``topics_mark``,
``topics_decide``, ``lists_choose``, the sorts' and the tab list's moves, and the help's
scrolls set to Home, End or PageDown. The dialog takes the keys set for its commands before
its widgets, as it takes its closing keys (``tui.screens.keys_first``)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from textual.containers import VerticalScroll
from textual.widgets import OptionList

from storage import Library
from tests.tui.helpers import make_app, plist, ready, wait_for
from tests.tui.test_dialog_sizes import footer
from tui.app import PapersApp


def highlighted(app: PapersApp) -> int | None:
    return app.screen.query_one(OptionList).highlighted


def scrolled(app: PapersApp) -> float:
    return app.screen.query_one(VerticalScroll).scroll_y


def kind(app: PapersApp) -> str:
    return type(app.screen).__name__


#: The key that opens a list dialog, its kind, the settings, the keys pressed there, what
#: the footer says of the key set, and what holds once the command ran (not the list's key).
CASES: list[tuple[str, str, str, tuple[str, ...], str, Callable[[PapersApp], bool]]] = [
    ("m", "SimilarScreen", 'similar_go = "home"', ("down", "home"), "home Go to it",
     lambda app: kind(app) == "MainScreen"),
    ("T", "TopicsScreen", 'topics_mark = "end"', ("end",), "end Mark topic",
     lambda app: kind(app) == "MainScreen" and bool(app.main_screen.view.marked)),
    ("T", "TopicsScreen", 'topics_decide = "home"', ("home",), "home Decide topic",
     lambda app: kind(app) == "BulkDecision"),
    ("shift+delete", "ListChooser", 'lists_choose = "end"', ("end",), "end Remove",
     lambda app: kind(app) == "ConfirmRemoval"),
    ("Q", "QueueSortDialog", 'queue_sort_down = "end"', ("end",), "end Next",
     lambda app: highlighted(app) == 1),
    ("0", "TabPicker", 'tabs_down = "pagedown"', ("pagedown",), "PgDn Next",
     lambda app: highlighted(app) == 1),
    ("question_mark", "HelpScreen", 'help_end = "home"\nhelp_top = "end"', ("home",),
     "home End", lambda app: scrolled(app) > 0),
]  # fmt: skip


@pytest.mark.parametrize(("opener", "dialog", "setting", "keys", "shown", "done"), CASES)
async def test_a_dialog_command_set_to_its_lists_own_key_runs(
    seeded_home: Path,
    opener: str,
    dialog: str,
    setting: str,
    keys: tuple[str, ...],
    shown: str,
    done: Callable[[PapersApp], bool],
) -> None:
    library = Library(seeded_home)
    for paper in library.papers()[:3]:
        library.set_status(paper.id, "starred")
    (seeded_home / "config.toml").write_text(f"[keys]\n{setting}\n", "utf-8")
    app = make_app(seeded_home)
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await ready(pilot)
        assert app.config_problems == []
        if opener == "Q":  # the reading queue's, on the Starred tab
            await pilot.press("2")
            await wait_for(pilot, lambda: screen.view.tab == "starred")
        await pilot.press(opener)
        await wait_for(pilot, lambda: kind(app) == dialog)
        await wait_for(pilot, lambda: shown in footer(app))
        await pilot.pause(0.1)
        await pilot.press(*keys)
        await wait_for(pilot, lambda: done(app))


async def test_the_similar_paper_chosen_with_a_set_key_is_the_highlighted_one(
    seeded_home: Path,
) -> None:
    """``similar_go = "home"``: ↓ then Home goes to the second similar paper, not the first."""
    (seeded_home / "config.toml").write_text('[keys]\nsimilar_go = "home"\n', "utf-8")
    app = make_app(seeded_home)
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await ready(pilot)
        await pilot.press("m")
        await wait_for(pilot, lambda: kind(app) == "SimilarScreen")
        listed = app.screen.query_one(OptionList)
        await pilot.press("down")
        await wait_for(pilot, lambda: listed.highlighted == 1)
        second = listed.get_option_at_index(1).id
        await pilot.press("home")
        await wait_for(pilot, lambda: app.screen is screen)
        current = plist(app).current
        assert current is not None and current.id == second


#: A confirmation's command set to the key its focused button takes (Enter presses it): the
#: setting, and the outcome (the bulk decision's status; the removal: removed).
BUTTON_KEYS = [
    ('bulk_skip = "enter"', "skipped"),
    ('bulk_star = "enter"', "starred"),
    ('remove_yes = "enter"', "removed"),
]


@pytest.mark.parametrize(("setting", "outcome"), BUTTON_KEYS)
async def test_a_confirmations_command_set_to_its_buttons_key_runs(
    seeded_home: Path, setting: str, outcome: str
) -> None:
    """``bulk_skip = "enter"``: Enter pressed the focused button, Read, and the marked papers
    were marked read, not skipped, though the Skip button said ``Skip (Enter)``; with
    ``remove_yes = "enter"`` Enter pressed Cancel (the focus starts there), though the Remove
    button said ``Remove (Enter)``."""
    from storage import Status

    (seeded_home / "config.toml").write_text(f"[keys]\n{setting}\n", "utf-8")
    app = make_app(seeded_home)
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await ready(pilot)
        assert app.config_problems == []
        if outcome == "removed":
            await pilot.press("delete")
            await wait_for(pilot, lambda: kind(app) == "ConfirmRemoval")
            await pilot.press("enter")
            await wait_for(pilot, lambda: app.screen is screen)
            await wait_for(pilot, lambda: len(plist(app).rows) == 37)
            return
        await pilot.press("space", "space")
        await pilot.press("D")
        await wait_for(pilot, lambda: kind(app) == "BulkDecision")
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.screen is screen)
        await wait_for(pilot, lambda: len(app.session.state.statuses) == 2)
        assert set(app.session.state.statuses.values()) == {Status(outcome)}
