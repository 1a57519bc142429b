"""What the note under the list says of a search typed: what of it is not read, and why."""

from __future__ import annotations

from pathlib import Path

from textual import events
from textual.pilot import Pilot

from storage import Library
from storage.search.query import MAX_QUERY_CHARS
from tests.cli.test_search_cli import venue_without_ratings
from tests.tui.helpers import make_app, plist, ready, wait_for
from tui.app import PapersApp
from tui.screens.main import MainScreen
from tui.widgets.paper_pane import PaperPane

SIZE = (120, 36)


async def notes_as_typed(pilot: Pilot[None], screen: MainScreen, keys: list[str]) -> list[str]:
    """``/`` then ``keys`` one at a time: the list border's note once each key is answered."""
    notes: list[str] = []
    await pilot.press("slash")
    for key in keys:
        await pilot.press(key)
        box = screen.search_box
        await wait_for(pilot, lambda box=box: box.answered == box.search_text)
        await pilot.pause(0.05)
        notes.append(str(screen.paper_list.border_subtitle or ""))
    return notes


async def test_a_query_past_the_cap_says_it_was_cut(seeded_home: Path) -> None:
    """A pasted query of 2,600 characters was searched on its first 2,000 in silence."""
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        await pilot.press("slash")
        pasted = "diffusion " * 260
        assert len(pasted.strip()) > MAX_QUERY_CHARS
        screen.search_box.post_message(events.Paste(pasted))
        await wait_for(pilot, lambda: screen.view.found is not None)
        await wait_for(pilot, lambda: "not searched" in str(plist(app).border_subtitle))
        note = str(plist(app).border_subtitle)
        assert "the query is 2,599 characters long (at most 2,000)" in note
        await pilot.press("ctrl+l", *"diffusion")
        await wait_for(pilot, lambda: screen.view.query == "diffusion")
        await pilot.pause(0.1)
        assert "not searched" not in str(plist(app).border_subtitle)


async def test_a_lone_dash_or_an_empty_qualifier_is_said_once_settled(seeded_home: Path) -> None:
    """`-` alone and `author:` with nothing after it were dropped in silence; said now, but
    not while they may still be being typed (no note that comes and goes with each key)."""
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        notes = await notes_as_typed(pilot, screen, [*"diffusion -", "space", *"video"])
        said = "a lone - leaves nothing out"
        # "diffusion -" and "diffusion - " may be "diffusion -video" being typed
        assert [said in note for note in notes] == [False] * 12 + [True] * 5, notes
        await pilot.press("ctrl+l", *"author:")
        await wait_for(pilot, lambda: screen.view.query == "author:")
        await pilot.pause(0.1)
        assert "author:" not in str(plist(app).border_subtitle or "")  # still being typed
        await pilot.press("space", *"model")
        await wait_for(pilot, lambda: screen.search_box.answered == "author: model")
        await wait_for(pilot, lambda: "author: without a value" in str(plist(app).border_subtitle))


async def test_a_qualifier_typed_with_no_value_yet_says_what_it_takes(seeded_home: Path) -> None:
    """``graph is:`` in the box said nothing (a value may still come): it says the values
    ``is:`` takes, until one is on its way (``is:s``) or taken (``is:starred``)."""
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        notes = await notes_as_typed(pilot, screen, [*"graph is:star"])
        said = "is: takes inbox, read, skipped or starred"
        assert [said in note for note in notes] == [False] * 8 + [True] + [False] * 4, notes


async def test_a_search_no_paper_matches_says_why(tmp_path: Path) -> None:
    """On ICLR 2025's list (no review ratings), ``rating:>6`` and ``status:oral has:code
    author:bengio`` (no oral paper is Bengio's) showed an empty list, nothing on its border,
    and the pane sent to All, where there was none either: the border says why, and the
    pane says it in the same words and no longer sends to All."""
    source = venue_without_ratings(tmp_path)
    home = tmp_path / "home"
    Library(home).import_file(source)
    app = PapersApp(Library(home))
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        pane = screen.query_one(PaperPane)
        said = {
            "rating:>6": "no paper in this library has a rating "
            "(ratings come with `papers fetch VENUE --reviews`)",
            "status:oral has:code author:bengio": "none matches both status:oral (1 paper) "
            "and author:bengio (1 paper)",
        }
        for query, why in said.items():
            await pilot.press("ctrl+l", *query)
            await wait_for(pilot, lambda query=query: screen.search_box.answered == query)
            await wait_for(pilot, lambda why=why: why in str(plist(app).border_subtitle))
            await wait_for(pilot, lambda: "in the library matches" in pane.text.plain)
            text = pane.text.plain
            assert "No paper in the library matches the search" in text
            assert f"{why[:1].upper()}{why[1:]}. ctrl+l clears the search." in text
            assert "searches every paper" not in text  # All has none either
        await pilot.press("ctrl+l", *"status:oral has:code")  # found: nothing of the kind
        await wait_for(pilot, lambda: screen.search_box.answered == "status:oral has:code")
        await wait_for(pilot, lambda: len(plist(app).rows) == 1)
        assert "no paper" not in str(plist(app).border_subtitle or "")
