"""80x24 and first runs: the footer's essentials whole, the triage count in the tab bar, the
help readable, the welcome inside the paper pane."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from rich.console import Console
from rich.text import Text
from textual.markup import to_content

from storage.models import Status
from tests.tui.helpers import OneTabBar, ShownTabs, make_app, opened, ready, wait_for
from tui.screens.help import HelpScreen
from tui.screens.stats import StatsScreen
from tui.text import cut_at_word
from tui.widgets.key_bar import ESSENTIAL, KeyBar
from tui.widgets.search_box import SearchBox
from tui.widgets.tab_bar import TabBar


def plain(markup: str) -> str:
    return re.sub(r"\[[^\]]*\]", "", markup)


@pytest.mark.parametrize("width", [120, 100, 80, 60])
def test_the_footer_keeps_its_essentials_whole(width: int) -> None:
    bar = KeyBar({})
    line = plain(bar.line(width))
    assert len(line) <= width, line
    assert "…" not in line
    for key, title in (
        ("r", "Read"),
        ("x", "Skip"),
        ("s", "Star"),
        ("u", "Undo"),
        ("?", "Help"),
        ("q", "Quit"),
    ):
        assert f"{key} {title}" in line, (width, line)
    if width >= 120:
        assert "^p palette" in line and "c Copy link" in line
    assert {"read", "skip", "star", "undo", "help", "quit"} == set(ESSENTIAL)


@pytest.mark.parametrize("width", [40, 34, 30, 20, 12])
def test_a_footer_too_narrow_for_its_essentials_drops_whole_entries(width: int) -> None:
    """At 40 columns the six essentials (41 columns) were cut mid-word by an ellipsis: now
    whole entries go, the least needed first (quit, undo, help), the decisions last."""
    for scope in ("main", "search", "export"):
        bar = KeyBar({})
        bar.scope = scope
        line = plain(bar.line(width))
        assert len(line) <= width and "…" not in line, (scope, width, line)
        shown = [entry for entry in bar.entries() if f"{entry[2]} {entry[3]}" in line]
        assert line == ("  " if "  " in line else " ").join(f"{e[2]} {e[3]}" for e in shown)
        assert shown, (scope, width)
    bar = KeyBar({})
    line = plain(bar.line(width))
    kept = {40: ["r", "x", "s", "u", "?"], 34: ["r", "x", "s", "u", "?"], 30: ["r", "x", "s", "?"]}
    if width in kept:
        assert [part.split(" ")[0] for part in line.split(" ")[::2]] == kept[width], line
    assert line.startswith("r Read")


async def test_the_starred_tabs_footer_names_the_queues_moves_and_the_pdf(
    tmp_path: Path,
) -> None:
    """The reading queue's keys ([ ] to move a paper, p for its PDF) were named only by the
    help: the Starred tab's footer showed Star and Copy link, which do little there."""
    (tmp_path / "config.toml").write_text('[keys]\nqueue_up = "U"\n')
    app = make_app(tmp_path)
    async with app.run_test(size=(100, 24)) as pilot:
        screen = await ready(pilot)
        bar = screen.query_one(KeyBar)
        await pilot.press("s", "s", "2")
        await wait_for(pilot, lambda: "Move up" in str(bar.render()))
        shown = str(bar.render())
        for entry in ("r Read", "U Move up", "] Move down", "p PDF", "? Help", "q Quit"):
            assert entry in shown, shown
        assert "s Star" not in shown and "Copy link" not in shown
        await pilot.press("slash")  # the box's keys while typing, the queue's after
        await wait_for(pilot, lambda: "Enter Results" in str(bar.render()))
        await pilot.press("escape")
        await wait_for(pilot, lambda: "p PDF" in str(bar.render()))
        await pilot.press("1")  # the Inbox: the triage's keys again
        await wait_for(pilot, lambda: "s Star" in str(bar.render()))
        assert "PDF" not in str(bar.render())
    for width in (80, 60, 40):
        bar = KeyBar({})
        bar.scope = "queue"
        line = to_content(bar.line(width)).plain  # as drawn: "[" showed as "[[/]"
        assert len(line) <= width and "…" not in line and line.startswith("r Read"), line
        if width >= 60:
            assert "p PDF" in line and "[ Move up" in line and "] Move down" in line, line


async def test_the_footer_at_40x12_shows_whole_words(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(40, 12)) as pilot:
        await ready(pilot)
        bar = app.main_screen.query_one(KeyBar)
        shown = str(bar.render())
        assert shown == "r Read x Skip s Star u Undo ? Help", shown
        await pilot.press("slash")
        await wait_for(pilot, lambda: "Results" in str(bar.render()))
        assert "…" not in str(bar.render()) and len(str(bar.render())) <= 40


async def test_the_footer_names_the_search_boxs_keys_while_typing(tmp_path: Path) -> None:
    """While typing a search the footer named r, x, s: letters typed there, not commands."""
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await ready(pilot)
        bar = screen.query_one(KeyBar)
        assert "r Read" in str(bar.render())
        await pilot.press("slash")
        await wait_for(pilot, lambda: "Enter Results" in str(bar.render()))
        shown = str(bar.render())
        for entry in ("esc Leave", "ctrl+l Clear", "ctrl+s Save", "ctrl+w Delete word"):
            assert entry in shown, shown
        assert "Read" not in shown and len(shown) <= 80
        drawn = bar.visual
        await pilot.press(*"graph neural", "ctrl+w")  # letters: the footer is not drawn again
        await wait_for(pilot, lambda: screen.search_box.value == "graph ")
        assert bar.visual is drawn
        await pilot.press("enter")  # to the results: the list's keys again
        await wait_for(pilot, lambda: "r Read" in str(bar.render()))
        await pilot.press("slash", "question_mark")  # "?" typed: a letter of the search
        assert screen.search_box.value.endswith("?")
        await pilot.press("escape")
        await wait_for(pilot, lambda: "r Read" in str(bar.render()))
        await pilot.press("slash", "ctrl+s")  # a dialog over the box: its keys, then the box's
        await wait_for(pilot, lambda: "Enter Accept" in str(bar.render()))
        await pilot.press("escape")
        await wait_for(pilot, lambda: "Enter Results" in str(bar.render()))


@pytest.mark.parametrize(
    ("keymap", "shown"),
    [
        ({"clear_search": "Z"}, None),  # typed in the box: no Clear there
        ({"clear_search": "ctrl+u"}, None),  # the box's own (delete to the start)
        ({"clear_search": "ctrl+u,ctrl+g"}, "ctrl+g Clear"),  # the one that acts
        ({"save_search": "space,f6"}, "f6 Save"),
        ({"leave_search": "f2"}, "f2 Leave"),
    ],
)
def test_the_search_footer_names_only_keys_that_act_in_the_box(
    keymap: dict[str, str], shown: str | None
) -> None:
    """clear_search = "Z" (free on the main screen) showed "Z Clear" while typing, where Z
    is a letter of the search."""
    bar = KeyBar(keymap)
    bar.scope = "search"
    line = plain(bar.line(120))
    assert "Enter Results" in line and "ctrl+w Delete word" in line, line
    if shown is None:
        assert "Clear" not in line, line
    else:
        assert shown in line, line
    assert "Z " not in line and "ctrl+u" not in line and "space" not in line, line


@pytest.mark.parametrize("width", [120, 80, 60])
def test_a_dialogs_footer_keeps_its_enter_esc_and_ctrl_keys(width: int) -> None:
    bar = KeyBar({"export_copy": "ctrl+k"})  # as remapped
    bar.scope = "export"
    line = plain(bar.line(width))
    assert len(line) <= width and "Read" not in line, line
    assert "Enter Write" in line and "ctrl+k Copy" in line and "esc Cancel" in line, line
    if width >= 120:
        assert "m Markdown  c CSV" in line  # the format keys first, while they fit
    bar.scope = "main"
    assert "r Read" in plain(bar.line(width))


async def test_the_footer_names_the_keys_of_the_dialog_open_over_the_screen(
    tmp_path: Path,
) -> None:
    """The footer shows through a dialog: it named the main keys, none of which work there."""
    app = make_app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(pilot)
        bar = app.main_screen.query_one(KeyBar)
        assert "r Read" in plain(str(bar.render()))
        for key, shown in (("e", "esc Cancel"), ("question_mark", "esc q ? Close")):
            await pilot.press(key)
            await wait_for(pilot, lambda shown=shown: shown in plain(str(bar.render())))
            assert "Read" not in plain(str(bar.render()))
            await pilot.press("escape")
            await wait_for(pilot, lambda: "r Read" in plain(str(bar.render())))


def test_a_hint_is_cut_after_a_whole_word_with_an_ellipsis() -> None:
    hint = '/ search: words (typos ok), "a phrase", is:starred has:code'
    assert cut_at_word(hint, 80) == hint
    assert cut_at_word(hint, 52) == '/ search: words (typos ok), "a phrase", is:starred…'
    assert cut_at_word(hint, 50) == '/ search: words (typos ok), "a phrase"…'
    assert cut_at_word(hint, 36) == "/ search: words (typos ok)…"  # not '"a…'
    assert cut_at_word("abcdefgh", 5) == "abcd…" and cut_at_word("abc", 0) == ""


async def test_the_search_hint_fits_the_width_after_a_resize(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(60, 20)) as pilot:
        screen = await ready(pilot)
        box = screen.query_one(SearchBox)
        assert len(box.placeholder) <= 59 and box.placeholder.endswith("…")
        await pilot.resize_terminal(200, 30)
        await wait_for(pilot, lambda: box.placeholder.endswith("-word"))


COUNTS = {"inbox": 3_703, "starred": 0, "read": 0, "skipped": 0, "all": 3_703}


@pytest.mark.parametrize(
    ("counts", "saved"),
    [
        (COUNTS, []),
        ({"inbox": 91_000, "starred": 3_000, "read": 4_000, "skipped": 2_000, "all": 100_000}, []),
        (COUNTS, [("saved:gnn", "gnn"), ("saved:diffusion models", "diffusion models")]),
    ],
)
async def test_the_triage_count_stays_in_the_tab_bar_at_80_columns(
    counts: dict[str, int], saved: list[tuple[str, str]]
) -> None:
    app = OneTabBar(ShownTabs({**counts, **{name: 12 for name, _ in saved}}, saved=saved))
    async with app.run_test(size=(80, 24)) as pilot:
        bar = app.query_one(TabBar)
        bar.show()
        await pilot.pause()
        text = bar.render()
        shown = str(text)
        assert Text(shown).cell_len <= 80, shown
        done = counts["all"] - counts["inbox"]
        assert f"{done:,} / {counts['all']:,} triaged" in shown or (
            f"  {done:,}/{counts['all']:,}" in shown and (saved or counts["all"] > 10_000)
        ), shown


async def test_the_welcome_is_inside_the_paper_pane(tmp_path: Path) -> None:
    app = make_app(tmp_path / "new-home")  # a first run: the bundled sample
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await ready(pilot)
        await wait_for(pilot, lambda: screen.detail.text.plain.startswith("Welcome to papers"))
        assert not [n for n in app._notifications if "Welcome" in n.title]
        assert "papers import FILE" in screen.detail.text.plain
        screen.detail.set_welcome("", "")
        assert not screen.detail.text.plain.startswith("Welcome")


async def test_the_help_at_80_columns_keeps_its_words_on_few_lines(seeded_home: Path) -> None:
    app = make_app(seeded_home)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        await pilot.pause()
        assert app.screen._wide is False  # type: ignore[attr-defined]
        # narrow: keys and words (the id after them), the groups as headings
        assert len(app.screen.table(wide=False).columns) == 2  # type: ignore[attr-defined]
    async with make_app(seeded_home).run_test(size=(160, 40)) as pilot:
        await ready(pilot)
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, HelpScreen))
        await pilot.pause()
        assert pilot.app.screen._wide is True  # type: ignore[attr-defined]


@pytest.mark.parametrize("wide", [True, False])
async def test_the_help_shows_its_words_as_written(seeded_home: Path, wide: bool) -> None:
    """The help read "Sync with the  folder now": its table took "[sync]" for markup. The
    keys < and > showed as less_than_sign and greater_than_sign; the id, at 80 columns,
    read as the sentence's last word."""
    app = make_app(seeded_home)
    async with app.run_test(size=(160 if wide else 80, 40)) as pilot:
        await ready(pilot)
        await opened(pilot, "question_mark", HelpScreen)
        console = Console(width=160 if wide else 76, record=True, file=io.StringIO())
        console.print(app.screen.table(wide=wide))  # type: ignore[attr-defined]
        text = " ".join(console.export_text().split())
        assert "Sync with the [sync] folder now" in text
        assert "less_than_sign" not in text and "greater_than_sign" not in text
        assert re.search(r"\s<\s+Give the paper more room", text)
        if not wide:
            assert "Put the paper back in the Inbox (id: inbox)" in text


def test_the_stats_screen_cuts_a_list_named_at_length() -> None:
    """A list name of 4,900 characters wrapped into a row a hundred lines tall."""
    counts = dict.fromkeys(Status, 1)
    table = StatsScreen.table("Per list", {"a list " * 700: counts, "short": counts})
    console = Console(width=100, record=True, file=io.StringIO())
    console.print(table)
    lines = console.export_text().splitlines()
    assert len(lines) <= 4, lines  # the title, the heading, a row each
    assert "…" in lines[2] and lines[2].rstrip().endswith("75%")  # 3 of 4 decided


async def test_a_thousand_saved_searches_are_drawn_once_a_key(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With more saved searches' tabs than the bar can ever hold, the bar is drawn once in its
    shortest form, not tried in every form first; the built-in tabs keep their counts."""
    saved = [(f"saved:s{n}", f"search {n}") for n in range(1000)]
    app = OneTabBar(
        ShownTabs({**COUNTS, **{name: n for n, (name, _) in enumerate(saved)}}, saved=saved)
    )
    async with app.run_test(size=(120, 24)) as pilot:
        bar = app.query_one(TabBar)
        draws: list[int] = []
        draw = TabBar._draw

        def counted(self: TabBar, *args: object, **kwargs: object) -> object:
            draws.append(1)
            return draw(self, *args, **kwargs)  # type: ignore[arg-type]

        monkeypatch.setattr(TabBar, "_draw", counted)
        bar.show()
        await pilot.pause()
        shown = str(bar.render())
        assert len(draws) == 1
        assert shown.startswith(" In 3,703  ★ 0 "), shown[:60]


def on_screen(app: object) -> str:
    """What the terminal shows, as text (the screenshot's, its spaces plain)."""
    import html

    svg = app.export_screenshot()  # type: ignore[attr-defined]
    return html.unescape(re.sub(r"<[^>]+>", "", svg)).replace("\xa0", " ")


@pytest.mark.parametrize("size", [(80, 24), (60, 20), (120, 30)])
async def test_the_lists_note_shows_at_every_width(
    seeded_home: Path, size: tuple[int, int]
) -> None:
    """Below 100 columns the list, stacked over the paper, has no bottom border, and what is
    said there was not shown at all: 'year:abc is read as words…', 'no paper has all 3
    words…', 'none here; 2 papers in All', a PDF download's progress. It is said on the line
    between the list and the paper there, and follows the terminal's width."""
    app = make_app(seeded_home)
    async with app.run_test(size=size) as pilot:
        screen = await ready(pilot)
        await pilot.press("slash", *"is:skiped")
        await wait_for(pilot, lambda: "is:skiped is read" in on_screen(app))
        await pilot.resize_terminal(200 - size[0], size[1])  # narrow to wide, wide to narrow
        await pilot.pause(0.2)
        assert "is:skiped is read" in on_screen(app)
        screen.set_list_note("pdfs", "PDFs: 1 / 3 [ok]")
        await pilot.pause(0.2)
        assert "PDFs: 1 / 3 [ok]" in on_screen(app)
        screen.set_list_note("pdfs", None)
        await pilot.press("ctrl+l")
        await pilot.pause(0.2)
        assert "is read" not in on_screen(app) and "PDFs" not in on_screen(app)


@pytest.mark.parametrize("width", [40, 59])
async def test_under_60_columns_the_stats_tables_keep_every_count_whole(
    tmp_path: Path, width: int
) -> None:
    """At 40 columns the stats' tables read "3,6…" for 3,694 papers in the Inbox, and their
    headings "inb…", "ski…": the counts were cut to fit six columns. Now the headings are the
    tab bar's signs and the names are cut first: every count shows whole."""
    from rich.table import Table
    from textual.widgets import Static

    from tests.tui.helpers import big_library

    home = tmp_path / "home"
    big_library(home, tmp_path, 1_200)  # 1,197 in the Inbox, 3 starred
    app = make_app(home)
    async with app.run_test(size=(width, 20)) as pilot:
        await ready(pilot)
        await opened(pilot, "S", StatsScreen)
        await pilot.pause(0.1)
        tables = [s for s in app.screen.query(Static) if isinstance(s.content, Table)]
        assert len(tables) == 2
        for shown in tables:
            console = Console(width=shown.content_region.width, record=True, file=io.StringIO())
            console.print(shown.content)
            text = console.export_text()
            lines = text.splitlines()
            assert re.search(r"\bIn\s+✓\s+✗\s+★\s+done$", lines[1].rstrip()), text
            assert re.search(r"1,197\s+0\s+0\s+3\s+0%$", lines[2].rstrip()), text
