"""The paper pane of a book or proceedings volume that names only its editors."""

from __future__ import annotations

from pathlib import Path

from storage import Library
from tests.tui.helpers import make_app, ready
from tui.widgets.paper_pane import PaperPane

SIZE = (100, 30)


async def test_a_volume_that_names_only_its_editors_shows_them_as_editors(
    home: Path, tmp_path: Path
) -> None:
    """Its editors are its people, as its exports now call them (``editor =``, ``ED``): the
    pane showed them as its authors."""
    (tmp_path / "ed.bib").write_text(
        "@book{a, editor = {Gaonkar, Dilip and Lee, Ann}, title = {Alternative Modernities},"
        " year = 2001}\n",
        encoding="utf-8",
    )
    Library(home).import_file(tmp_path / "ed.bib")
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.pause(0.1)
        shown = app.main_screen.query_one(PaperPane).text.plain
        assert "Dilip Gaonkar, Ann Lee (eds.)" in shown, shown
