"""The pane shows what a list told of a paper beyond its text: the reviews' rating (each
review's too) and confidence, the year, the journal, citations, the area, and the TL;DR. A
fetched venue brought them and the queue sorts by the rating, but the pane showed none."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import pytest

from storage import Library
from storage.models import Paper
from tests.tui.helpers import make_app, plist, ready, wait_for
from tui.widgets.paper_pane import PaperPane, paper_facts

SIZE = (120, 36)
ESC = "\x1b"


def _list(folder: Path) -> Path:
    """A JSON list as OpenReview's fetch and Paper Copilot give a venue: the reviews' ratings
    and confidences as lists, the primary area, a TL;DR; one paper told nothing more, and one
    whose facts are hostile (an escape sequence, markup, a 1,000-character area)."""
    records = [
        {
            "title": "Rated paper about diffusion",
            "abstract": "We study diffusion models with reviews.",
            "authors": ["Ada Lovelace"],
            "ratings": [6, 6, 8, 6],
            "confidence": [3, 4, 4, 3],
            "primary_area": "generative models",
            "tldr": "Diffusion,\n  briefly.",
            "year": 2025,
        },
        {
            "title": "Plain paper about graphs",
            "abstract": "Graphs without any review.",
            "authors": ["Alan Turing"],
        },
        {
            "title": "Hostile facts paper",
            "abstract": "Facts that try to break the screen.",
            "authors": ["Grace Hopper"],
            "rating": 5.666666,
            "citations": 1,
            "journal": f"[bold]Journal{ESC}[31m red",
            "primary_area": "x" * 1000,
        },
    ]
    path = folder / "venue.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


async def test_the_pane_shows_ratings_area_year_and_tldr(home: Path, tmp_path: Path) -> None:
    Library(home).import_file(_list(tmp_path))
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        pane = app.main_screen.query_one(PaperPane)
        titles = [p.display_title for p in app.papers]
        rated = titles.index("Rated paper about diffusion")
        await pilot.press(*["j"] * rated)
        await wait_for(pilot, lambda: pane.text.plain.startswith("Rated paper"))
        shown = pane.text.plain
        assert "Rating 6.5 (6, 6, 8, 6) · confidence 3.5 · 2025 · Area: generative models" in (
            shown
        )
        assert "TL;DR  Diffusion, briefly.\n\nWe study diffusion" in shown
        await pilot.press("g", *["j"] * titles.index("Plain paper about graphs"))
        await wait_for(pilot, lambda: pane.text.plain.startswith("Plain paper"))
        assert "Rating" not in pane.text.plain and "TL;DR" not in pane.text.plain
        await pilot.press("g", *["j"] * titles.index("Hostile facts paper"))
        await wait_for(pilot, lambda: pane.text.plain.startswith("Hostile facts"))
        shown = pane.text.plain
        assert ESC not in shown and "[bold]Journal␛[31m red" in shown  # data, never markup
        assert "Rating 5.67 · [bold]Journal" in shown and "· 1 citation · Area: xxx" in shown
        assert plist(app).current is not None


def test_facts_are_numbers_as_people_write_them() -> None:
    def paper(**extra: object) -> Paper:
        return Paper(id="p", title="t", abstract="a", extra=tuple(extra.items()))  # type: ignore[arg-type]

    assert paper_facts(paper()) == ""
    assert paper_facts(paper(rating=6.0, ratings="6, 6")) == "Rating 6 (6, 6)"
    assert paper_facts(paper(rating=1e6)) == "Rating 1000000"
    assert paper_facts(paper(rating=-2.5, confidence=4.25)) == "Rating -2.5 · confidence 4.25"
    assert paper_facts(paper(ratings="3;5")) == "Ratings 3;5"
    assert paper_facts(paper(citations=12_345, booktitle="NeurIPS")) == (
        "NeurIPS · 12,345 citations"
    )


async def test_the_list_rows_show_the_rating_when_the_library_has_ratings(
    home: Path, tmp_path: Path
) -> None:
    """A user triaging a fetched venue by its ratings saw them only in the pane: the rows
    now have a rating column, in a library that has ratings (a blank cell for a paper
    without one), as narrow as a rating."""
    Library(home).import_file(_list(tmp_path))
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        titles = [p.display_title for p in app.papers]

        def row(title: str) -> str:
            return plist(app).render_line(titles.index(title)).text

        await wait_for(pilot, lambda: " 6.5 " in row("Rated paper about diffusion"))
        rated, hostile = row("Rated paper about diffusion"), row("Hostile facts paper")
        plain = row("Plain paper about graphs")
        assert rated.index(" 6.5 ") == hostile.index(" 5.7 ")  # one column, one decimal
        assert plain[rated.index(" 6.5 ") : rated.index(" 6.5 ") + 5] == " " * 5
        assert len(rated) == len(plain) == len(hostile)
        assert rated.startswith(" · Rated paper about diffusion ")


async def test_the_rating_column_shows_before_the_search_index_is_ready(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The rating column came with the search index (about 1 s at 12,000 papers): the rows
    first showed without it, then every title moved over. The papers, loaded before the
    index, tell it: the column is there from the first frame (the index held back here)."""
    from storage.cache import search_index

    Library(home).import_file(_list(tmp_path))
    held, asked = threading.Event(), threading.Event()
    load_index = search_index.load_index

    def slow_load(*args: Any, **kwargs: Any) -> Any:
        asked.set()
        held.wait(20)
        return load_index(*args, **kwargs)

    monkeypatch.setattr(search_index, "load_index", slow_load)
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, asked.is_set)
        titles = [p.display_title for p in app.papers]
        rated = plist(app).render_line(titles.index("Rated paper about diffusion")).text
        assert app.main_screen.index is None  # (still being built)
        assert " 6.5 " in rated
        held.set()
        await ready(pilot)
        assert plist(app).render_line(titles.index("Rated paper about diffusion")).text == rated


def test_a_library_without_ratings_has_no_rating_column() -> None:
    from tui.widgets.paper_list import any_rating

    def paper(i: int, **extra: object) -> Paper:
        return Paper(id=f"p{i}", title="t", abstract="a", extra=tuple(extra.items()))  # type: ignore[arg-type]

    assert not any_rating([paper(0), paper(1, year=2024, citations=3, area="RL")])
    assert not any_rating([paper(0, rating=float("nan")), paper(1, rating=True)])
    assert not any_rating([paper(0, rating="7"), paper(1, ratings="6, 7")])
    assert any_rating([paper(0, year=2024), paper(1, area="RL", rating=6)])
    assert any_rating([paper(0, rating=-2.5)])


def test_a_rating_cell_is_five_cells_whatever_the_rating() -> None:
    from tui.widgets.paper_list import rating_cell

    assert rating_cell(6.5) == "  6.5" and rating_cell(5.666) == "  5.7"
    assert rating_cell(10) == " 10.0" and rating_cell(123.4) == "  123"
    assert {rating_cell(v) for v in (None, "7", float("nan"), True)} == {" " * 5}


def test_a_rating_is_rounded_half_up_as_the_pane_writes_it() -> None:
    """The list rounded a rating half to even on its binary value: 7.25 showed as 7.2 (and
    7.35, which the pane writes 7.35, as 7.3); each half now goes up, away from zero, in
    the list and the pane alike."""
    from tui.widgets.paper_list import rating_cell
    from tui.widgets.paper_pane import paper_facts

    assert rating_cell(7.25) == "  7.3" and rating_cell(7.35) == "  7.4"
    assert rating_cell(6.45) == "  6.5" and rating_cell(0.05) == "  0.1"
    assert rating_cell(-7.25) == " -7.3" and rating_cell(7.24) == "  7.2"
    assert rating_cell(122.5) == "  123" and rating_cell(-10.5) == "  -11"
    assert rating_cell(250_000) == "  3e5"
    rated = Paper(id="p", title="t", abstract="a", extra=(("rating", 5.125), ("confidence", 2.675)))
    assert paper_facts(rated) == "Rating 5.13 · confidence 2.68"


def test_a_rating_too_wide_for_its_cell_is_rounded_not_cut() -> None:
    """The readers keep ratings from -1,000,000 to 1,000,000: a rating of 123,456 showed as
    1234 and one of -10.5 as -10. (its first characters); each is now the nearest number the
    four characters hold."""
    from tui.widgets.paper_list import rating_cell

    assert rating_cell(123_456) == "  1e5" and rating_cell(-123_456) == " -1e5"
    assert rating_cell(999_999) == "  1e6" and rating_cell(1_000_000) == "  1e6"
    assert rating_cell(9_999) == " 9999" and rating_cell(12_345) == "  1e4"
    assert rating_cell(-10.4) == "  -10" and rating_cell(-9.96) == "  -10"
    assert rating_cell(-999.4) == " -999" and rating_cell(-1_000) == " -1e3"
    assert rating_cell(99.96) == "  100" and rating_cell(-2.5) == " -2.5"
    # past what the readers keep (papers.json edited by hand): still four characters
    assert rating_cell(1e308) == "  inf" and rating_cell(-1e300) == " -inf"
    assert rating_cell(9e9) == "  9e9" and rating_cell(-9.6e9) == " -inf"


async def test_the_pane_shows_a_tied_family_name_with_a_plain_space(
    home: Path, tmp_path: Path
) -> None:
    """A family name of two words the library ties (``García\\u00a0Márquez``, as BibTeX wrote
    it apart) was shown with its no-break space: a copy of the pane's text held U+00A0."""
    bib = tmp_path / "novel.bib"
    bib.write_text(
        "@book{gm, title = {One Hundred Years of Solitude}, year = {1967},\n"
        "  author = {Garc{\\'\\i}a M{\\'a}rquez, Gabriel}}\n",
        encoding="utf-8",
    )
    Library(home).import_file(bib)
    (paper,) = Library(home).papers()
    assert "\u00a0" in paper.authors[0]  # (the library keeps the tie)
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        pane = app.main_screen.query_one(PaperPane)
        await wait_for(pilot, lambda: pane.text.plain.startswith("One Hundred"))
        assert "Gabriel García Márquez" in pane.text.plain
        assert "\u00a0" not in pane.text.plain


#: An abstract copied from a PDF's columns: words its lines' ends broke at their hyphens.
BROKEN = (
    "Sparse models have lately gained at-\ntention; large-\r\n  scale mod-\nels and Computer-\n"
    "Aided design on Llama3-\n70B follow. A hyphen before a paragraph-\n\nends the paragraph."
)


async def test_the_pane_shows_a_word_a_line_end_broke_at_its_hyphen_whole(
    home: Path, tmp_path: Path
) -> None:
    """An abstract copied from a PDF's columns (89 words of the real ICLR 2025 list, at-⏎tention)
    was shown with a space in each broken word (``at- tention``). The pane shows it whole, its
    hyphen kept, whatever the next line goes on with: a capital or a digit too (``Computer-
    Aided`` was still shown so); the stored abstract is the source, byte for byte."""
    source = tmp_path / "list.json"
    source.write_text(json.dumps([{"title": "Broken lines", "abstract": BROKEN}]), "utf-8")
    Library(home).import_file(source)
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        pane = app.main_screen.query_one(PaperPane)
        await wait_for(pilot, lambda: pane.text.plain.startswith("Broken lines"))
        shown = " ".join(pane.text.plain.split())  # (the pane's own lines aside)
        whole = "gained at-tention; large-scale mod-els and Computer-Aided design on Llama3-70B"
        assert whole in shown
        assert "paragraph-\n\nends" in pane.text.plain
    (paper,) = Library(home).papers()
    assert paper.abstract == BROKEN
