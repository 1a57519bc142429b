"""A phone-sized or split terminal (40 to 89 columns): the titles take the row's room, the
dialogs' key hints and border titles fit, whole."""

from __future__ import annotations

import json
from pathlib import Path

from storage import Library
from tests.tui.helpers import make_app, plist, ready, wait_for

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
