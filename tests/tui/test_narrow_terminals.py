"""A phone-sized or split terminal (40 to 89 columns): the titles take the row's room, the
dialogs' key hints and border titles fit, whole."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.command import CommandPalette
from textual.screen import Screen
from textual.widgets import OptionList, Static

from storage import Library
from storage.files.saved_searches import SavedSearches
from tests.tui.helpers import make_app, opened, plist, ready, wait_for
from tui.app import PapersApp
from tui.screens.dialogs import NoteEditor, TextPrompt
from tui.screens.export import ExportScreen
from tui.screens.importer import ImportScreen
from tui.screens.main import MainScreen
from tui.screens.queue_sort import QueueSortDialog
from tui.screens.remove import ListChooser
from tui.screens.similar import SimilarScreen, TopicsScreen
from tui.screens.tab_picker import TabPicker
from tui.widgets.tab_bar import TabBar

LONG = "A Remarkably Long Title About Sparse Autoencoders And Their Features In Vision Models"


def _library(home: Path, tmp_path: Path) -> Library:
    """Two papers with long titles: an Oral with code and a note, a Poster without."""
    records = [
        {
            "title": LONG,
            "abstract": "We study sparse autoencoders; code at https://github.com/a/b.",
            "status": "Oral",
        },
        {"title": f"{LONG} Again", "abstract": "Another study of features.", "status": "Poster"},
    ]
    path = tmp_path / "long.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in records), encoding="utf-8")
    library = Library(home)
    library.import_file(path)
    return library


async def test_at_40_columns_the_title_takes_the_rows_room(home: Path, tmp_path: Path) -> None:
    """At 40 columns a row gave its title 27 of 39 cells: the venue badge, the note, PDF and
    code columns took the rest. Now the title has all but the status mark and one mark
    column, which shows the user's note."""
    library = _library(home, tmp_path)
    oral = next(p for p in library.papers() if p.venue_status == "Oral")
    library.set_note(oral.id, "read the appendix")
    app = make_app(home)
    async with app.run_test(size=(40, 20)) as pilot:
        await ready(pilot)
        titles = [p.display_title for p in app.papers]

        def row(title: str) -> str:
            return plist(app).render_line(titles.index(title)).text

        await wait_for(pilot, lambda: "✎" in row(LONG))
        noted, plain = row(LONG), row(f"{LONG} Again")
        assert noted.startswith(" · " + LONG[:32] + "…")
        assert noted.rstrip(" ▐").endswith("… ✎")
        assert plain.startswith(" · " + LONG[:32] + "…")
        assert "</>" not in noted and "Oral" not in noted
        assert len(noted) == len(plain) == 40


async def test_the_list_beside_the_paper_keeps_every_column(home: Path, tmp_path: Path) -> None:
    """At 100 columns the list (47 cells beside the paper) keeps its venue and code columns."""
    _library(home, tmp_path)
    app = make_app(home)
    async with app.run_test(size=(100, 24)) as pilot:
        await ready(pilot)
        await wait_for(pilot, lambda: "Oral" in plist(app).render_line(0).text)
        row = plist(app).render_line(0).text
        assert "Oral" in row and "</>" in row


def _key_lines(screen: Screen[object]) -> list[Static]:
    """The dialog's lines that name its keys (Esc, Enter, ctrl+s, u)."""
    found = []
    for line in screen.query(Static):
        words = str(line.render())
        if any(key in words for key in ("Esc", "Enter", "ctrl+s", "u undoes")):
            found.append(line)
    return found


def _whole(line: Static) -> bool:
    """Each line of the words on one row of the screen: none wrapped."""
    return line.size.height == str(line.render()).count("\n") + 1


@pytest.mark.parametrize("width", [40, 60, 70, 80])
async def test_the_dialogs_key_hints_do_not_wrap(seeded_home: Path, width: int) -> None:
    """At 60 columns the import dialog's "Enter imports · Tab completes a path · Esc
    cancels" wrapped "cancels" onto a row of its own, the note editor's keys at 60 and 70,
    the reading queue's sort at 60 to 80: each line of keys is now worded for its width."""
    app = make_app(seeded_home)
    async with app.run_test(size=(width, 24)) as pilot:
        await ready(pilot)
        for key, kind in (
            ("a", ImportScreen),
            ("n", NoteEditor),
            ("t", TextPrompt),
            ("shift+delete", ListChooser),
        ):
            screen = await opened(pilot, key, kind)
            await pilot.pause()
            lines = _key_lines(screen)
            assert lines, (key, width)
            for line in lines:
                assert _whole(line), (key, width, str(line.render()))
            await pilot.press("escape")
            await wait_for(pilot, lambda: isinstance(app.screen, MainScreen))
        await pilot.press("s", "s", "2")
        screen = await opened(pilot, "Q", QueueSortDialog)
        await pilot.pause()
        lines = _key_lines(screen)
        assert lines and all(_whole(line) for line in lines), width


@pytest.mark.parametrize(
    ("width", "key", "kind", "last"),
    [
        (60, "e", ExportScreen, "Esc cancels"),
        (40, "e", ExportScreen, "Esc cancels"),
        (40, "m", SimilarScreen, "Esc, q, m close"),
        (60, "T", TopicsScreen, "Esc, q close"),
        (80, "T", TopicsScreen, "Esc, q close"),
    ],
)
async def test_the_dialogs_border_words_are_whole(
    seeded_home: Path, width: int, key: str, kind: type[Screen[object]], last: str
) -> None:
    """Textual cut a border's words that did not fit: "Enter goes to the paper · Esc clo…"
    at 40 columns, "Enter writes · ctrl+y copies · Esc …" at 60. The border now says as much
    as fits, whole, the closing key always."""
    app = make_app(seeded_home)
    async with app.run_test(size=(width, 24)) as pilot:
        await ready(pilot)
        screen = await opened(pilot, key, kind)
        box = screen.query_one(".dialog")
        await pilot.pause()
        words = str(box.border_subtitle)
        assert words.endswith(last), words
        assert len(words) <= box.size.width - 6, (words, box.size.width)


def _picked(app: PapersApp) -> tuple[str, tuple[str | None, ...]]:
    """The tab picker's title and the tabs it lists."""
    box = app.screen.query_one(".dialog")
    choices = app.screen.query_one(OptionList)
    ids = tuple(choices.get_option_at_index(i).id for i in range(choices.option_count))
    return str(box.border_title), ids


async def test_more_tabs_has_a_key_and_a_palette_entry(seeded_home: Path) -> None:
    """At 40 columns saved searches' tabs past the edge ("+4 more") were reached only by a
    click on the count: 0 and the palette's "More tabs" list them too."""
    searches = SavedSearches(seeded_home)
    for name in ["model", "learning", "graph", "language", "agents"]:
        searches.save(name, name)
    app = make_app(seeded_home)
    async with app.run_test(size=(40, 20)) as pilot:
        screen = await ready(pilot)
        bar = screen.query_one(TabBar)
        await wait_for(pilot, lambda: any(name == "+more" for _, _, name in bar._spans))
        left_out = bar.left_out()
        await opened(pilot, "0", TabPicker)
        assert _picked(app) == ("More tabs", left_out)
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is screen)
        await pilot.press("ctrl+p")
        await wait_for(pilot, lambda: isinstance(app.screen, CommandPalette))
        await pilot.press(*"more", "space", *"tabs")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, TabPicker))
        assert _picked(app) == ("More tabs", left_out)
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.screen is screen and screen.view.tab == left_out[0])


async def test_more_tabs_lists_every_tab_when_the_bar_has_room(seeded_home: Path) -> None:
    """With every tab on the bar, 0 lists them all rather than doing nothing."""
    app = make_app(seeded_home)
    async with app.run_test(size=(120, 30)) as pilot:
        screen = await ready(pilot)
        await opened(pilot, "0", TabPicker)
        assert _picked(app) == ("Tabs", ("inbox", "starred", "read", "skipped", "all"))
        await pilot.press("j", "enter")
        await wait_for(pilot, lambda: app.screen is screen and screen.view.tab == "starred")


async def test_at_40_columns_the_search_note_is_whole(seeded_home: Path) -> None:
    """At 40 columns the note on the line under the list was cut: "no paper has both words;
    showing thos…". It keeps what fits, whole: the list's title says "1 of 2 words"."""
    app = make_app(seeded_home)
    async with app.run_test(size=(40, 20)) as pilot:
        screen = await ready(pilot)
        await pilot.press("slash", *"model", "space", *"xyzzq", "enter")
        await wait_for(pilot, lambda: screen.detail.border_title is not None)
        await pilot.pause(0.1)
        said = str(screen.detail.border_title)
        assert said == "no paper has both words", said
        await pilot.resize_terminal(120, 30)
        await wait_for(pilot, lambda: screen.paper_list.border_subtitle is not None)
        await pilot.pause(0.1)
        said = str(screen.paper_list.border_subtitle)
        assert said == "no paper has both words; showing those with 1 of 2", said
