"""A phone-sized or split terminal (40 to 89 columns): the titles take the row's room, the
dialogs' key hints and border titles fit, whole."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.screen import Screen
from textual.widgets import Static

from storage import Library
from tests.tui.helpers import make_app, opened, plist, ready, wait_for
from tui.screens.dialogs import NoteEditor, TextPrompt
from tui.screens.export import ExportScreen
from tui.screens.importer import ImportScreen
from tui.screens.main import MainScreen
from tui.screens.queue_sort import QueueSortDialog
from tui.screens.remove import ListChooser
from tui.screens.similar import SimilarScreen, TopicsScreen

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
        (40, "m", SimilarScreen, "Esc closes"),
        (60, "T", TopicsScreen, "Esc closes"),
        (80, "T", TopicsScreen, "Esc closes"),
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
