"""Searches in the app: has:note, the closest matches said as such, saved searches as tabs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.content import Content
from textual.pilot import Pilot
from textual.widgets import Input

from storage.files.saved_searches import SEARCHES_FILE, SavedSearches
from tests.tui.helpers import (
    big_library,
    make_app,
    messages,
    opened,
    plist,
    ready,
    settled,
    tab_text,
    wait_for,
)
from tui.commands import PaperCommands
from tui.screens.dialogs import NoteEditor, TextPrompt
from tui.screens.main import MainScreen
from tui.stray_keys import GAP_S
from tui.widgets.tab_bar import TabBar

SIZE = (120, 36)


async def search(pilot: Pilot[None], screen: MainScreen, text: str) -> None:
    """Type ``text`` in the search box and wait for its results."""
    await pilot.press("slash", *text)
    await wait_for(pilot, lambda: screen.view.query == text and screen.view.found is not None)


async def shown_saved(pilot: Pilot[None], screen: MainScreen, key: str) -> None:
    """Press a saved search's tab key and wait for its papers (searched in a thread)."""
    await pilot.press(key)
    await wait_for(pilot, lambda: screen.view.saved_tab() is not None, 20)
    await wait_for(pilot, lambda: screen.view.saved_tab().found is not None, 20)
    await settled(pilot)


async def test_has_note_lists_the_papers_with_a_note(seeded_home: Path) -> None:
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        await pilot.press("j", "j", "n")
        assert isinstance(app.screen, NoteEditor)
        await pilot.press(*"see section 3", "ctrl+s")  # ctrl+s: the note's, not save search
        assert isinstance(app.screen, MainScreen)
        noted = app.papers[2].id
        assert app.session.state.notes == {noted: "see section 3"}
        await search(pilot, screen, "has:note")
        assert [screen.view.ids[i] for i in plist(app).rows] == [noted]


async def test_a_search_no_paper_fully_matches_says_so(seeded_home: Path) -> None:
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        await search(pilot, screen, "diffusion model qqzzxx")  # one word nowhere
        assert len(plist(app).rows) == 5
        assert plist(app).border_title == "Inbox · search: 2 of 3 words · 1 / 5"
        assert plist(app).border_subtitle == "no paper has all 3 words; showing those with 2 of 3"
        await pilot.press("escape", "escape")  # leave the box, then clear the search
        assert screen.view.query == "" and not plist(app).border_subtitle
        await search(pilot, screen, "diffusion")
        assert plist(app).border_title == "Inbox · search · 1 / 5"
        assert not plist(app).border_subtitle


async def test_a_search_saved_in_the_app_is_a_live_tab(seeded_home: Path) -> None:
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        await search(pilot, screen, "diffusion is:inbox")
        found = [screen.view.ids[i] for i in plist(app).rows]
        assert len(found) == 5
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, TextPrompt)
        field = app.screen.query_one(Input)
        assert field.value == "diffusion is:inbox"  # the query, as a name to start from
        await pilot.press("ctrl+u", *"Diffusion", "enter")
        assert isinstance(app.screen, MainScreen)
        saved = SavedSearches(seeded_home).get("diffusion")
        assert saved is not None and saved.query == "diffusion is:inbox"  # the CLI's too
        assert any("Saved “Diffusion”: its tab is 6" in m for m in messages(app))
        await wait_for(pilot, lambda: " 6 Diffusion 5 " in tab_text(app))
        await pilot.press("escape", "escape")  # the search typed goes; the tab stays
        await pilot.press("j", "j")
        inbox_place = plist(app).current
        await pilot.press("6")
        assert screen.view.tab == "saved:diffusion"
        assert [screen.view.ids[i] for i in plist(app).rows] == found
        assert plist(app).border_title == "Diffusion · 1 / 5"
        # a decision that takes a paper out of the query's papers takes it out of the tab
        await pilot.pause(GAP_S)  # (a key typed on at once after the name is held back)
        await pilot.press("s")
        assert [screen.view.ids[i] for i in plist(app).rows] == found[1:]
        assert " 6 Diffusion 4 " in tab_text(app) and "Starred 1" in tab_text(app)
        await pilot.press("j")
        here = plist(app).current
        assert here is not None and here.id == found[2]
        # each tab keeps its place
        await pilot.press("1")
        assert screen.view.tab == "inbox" and plist(app).current is inbox_place
        await pilot.press("6")
        assert plist(app).current is here
        # and the tab follows decisions made in another tab
        await pilot.press("1", "g")
        while plist(app).current is not None and plist(app).current.id != found[3]:
            await pilot.press("j")
        await pilot.press("x")
        assert " 6 Diffusion 3 " in tab_text(app)
        await settled(pilot)


async def test_searches_saved_elsewhere_come_and_go(seeded_home: Path) -> None:
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        searches = SavedSearches(seeded_home)
        searches.save("Graphs", "graph")  # as `papers search --save Graphs graph` does
        await wait_for(pilot, lambda: " 6 Graphs 3 " in tab_text(app))
        await pilot.press("6")
        assert screen.view.tab == "saved:graphs" and len(plist(app).rows) == 3
        searches.save("graphs", "graph neural")  # a new query: its tab searches again
        await wait_for(pilot, lambda: " 6 graphs " in tab_text(app))
        await wait_for(pilot, lambda: plist(app).border_title.startswith("graphs · "))
        searches.delete("graphs")
        await wait_for(pilot, lambda: "graphs" not in tab_text(app))
        assert screen.view.tab == "inbox" and len(plist(app).rows) == 38
        assert tab_text(app).startswith(" 1 Inbox 38  2 Starred 0")


async def test_palette_shows_and_deletes_saved_searches(seeded_home: Path) -> None:
    searches = SavedSearches(seeded_home)
    searches.save("Graphs", "graph")
    searches.save("LLMs", "language model")
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        await wait_for(pilot, lambda: " 7 LLMs 14 " in tab_text(app))
        entries = [text for text, _, _ in PaperCommands(screen)._entries()]
        assert "Search: Graphs" in entries and "Delete search: LLMs" in entries
        assert entries.index("Search: LLMs") < entries.index("App: Theme")
        await pilot.press("ctrl+p", *"Search: LLMs")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await wait_for(pilot, lambda: screen.view.tab == "saved:llms")
        assert len(plist(app).rows) == 14
        await pilot.press("ctrl+w")  # deletes the search whose tab is shown
        assert [s.name for s in searches.all()] == ["Graphs"]
        assert screen.view.tab == "inbox" and "LLMs" not in tab_text(app)
        assert any("Deleted the saved search “LLMs” (language model)" in m for m in messages(app))
        await pilot.press("ctrl+w")  # not a saved search's tab: says so, deletes nothing
        assert any("no saved search's tab" in m for m in messages(app))
        await pilot.press("7")  # no second saved search any more
        assert any("No saved search 2" in m for m in messages(app))
        assert [s.name for s in searches.all()] == ["Graphs"]


async def test_u_brings_back_a_saved_search_deleted_by_ctrl_w(seeded_home: Path) -> None:
    searches = SavedSearches(seeded_home)
    searches.save("Graphs", "graph")
    searches.save("LLMs", "language model")
    searches.save("Agents", "agent")
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        await wait_for(pilot, lambda: " 7 LLMs 14 " in tab_text(app))
        await pilot.press("7", "ctrl+w")
        assert [s.name for s in searches.all()] == ["Graphs", "Agents"]
        assert any("“LLMs” (language model): u brings it back" in m for m in messages(app))
        await pilot.press("u")  # back in its place, its tab shown again; no decision undone
        assert [s.name for s in searches.all()] == ["Graphs", "LLMs", "Agents"]
        await wait_for(pilot, lambda: " 7 LLMs 14 " in tab_text(app))
        assert screen.view.tab == "saved:llms"
        assert any("Restored the saved search “LLMs”" in m for m in messages(app))
        await settled(pilot)
        # a decision after the deletion: u undoes that decision, the search stays deleted
        await pilot.press("ctrl+w", "1", "r")
        await settled(pilot)
        assert list(app.library.statuses().values()) == ["read"]
        await pilot.press("u")
        await settled(pilot)
        assert app.library.statuses() == {} or set(app.library.statuses().values()) == {"inbox"}
        assert [s.name for s in searches.all()] == ["Graphs", "Agents"]
        await pilot.press("u")  # no second chance: the deletion was not the latest step
        await settled(pilot)
        assert [s.name for s in searches.all()] == ["Graphs", "Agents"]


async def test_u_brings_back_saved_searches_deleted_in_a_row_latest_first(
    seeded_home: Path,
) -> None:
    """Two ctrl+w in a row, then u twice: the second u undid the decision made before both
    deletions (only the latest deletion was kept), and the first search stayed deleted."""
    searches = SavedSearches(seeded_home)
    for name, query in (("Graphs", "graph"), ("LLMs", "language model"), ("Agents", "agent")):
        searches.save(name, query)
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await wait_for(pilot, lambda: " 7 LLMs 14 " in tab_text(app))
        await pilot.press("r")  # a decision before the deletions
        await settled(pilot)
        assert list(app.library.statuses().values()) == ["read"]
        await pilot.press("6", "ctrl+w")
        await wait_for(pilot, lambda: " 6 LLMs " in tab_text(app))
        await pilot.press("7", "ctrl+w")
        await wait_for(pilot, lambda: [s.name for s in searches.all()] == ["LLMs"])
        await pilot.press("u")
        await wait_for(pilot, lambda: [s.name for s in searches.all()] == ["LLMs", "Agents"])
        await pilot.press("u")
        names = ["Graphs", "LLMs", "Agents"]
        await wait_for(pilot, lambda: [s.name for s in searches.all()] == names)
        await settled(pilot)
        assert list(app.library.statuses().values()) == ["read"]  # the decision stays
        await pilot.press("u")  # now the decision: nothing deleted is left to bring back
        await settled(pilot)
        assert "read" not in app.library.statuses().values()
        assert [s.name for s in searches.all()] == names

        # deleted, decided, deleted: u brings back the latest, then undoes the decision
        await pilot.press("6", "ctrl+w", "1", "r")
        await settled(pilot)
        await pilot.press("6", "ctrl+w")
        await wait_for(pilot, lambda: [s.name for s in searches.all()] == ["Agents"])
        await pilot.press("u")
        await wait_for(pilot, lambda: [s.name for s in searches.all()] == ["LLMs", "Agents"])
        await pilot.press("u")
        await settled(pilot)
        assert "read" not in app.library.statuses().values()
        await pilot.press("u")  # Graphs was deleted before the decision undone: it stays so
        await settled(pilot)
        assert [s.name for s in searches.all()] == ["LLMs", "Agents"]


async def test_save_needs_a_search_and_bad_names_are_refused(seeded_home: Path) -> None:
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, MainScreen)
        assert any("Type a search first" in m for m in messages(app))
        await search(pilot, screen, "graph")
        await pilot.press("ctrl+s", "ctrl+u", *("x" * 61), "enter")
        assert any("at most 60 characters" in m for m in messages(app))
        assert not (seeded_home / SEARCHES_FILE).exists()


async def test_a_damaged_searches_file_is_reported_once(seeded_home: Path) -> None:
    (seeded_home / SEARCHES_FILE).write_text("{not json", encoding="utf-8")
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.pause(1.2)  # a poll of the disk or two
        said = [m for m in messages(app) if "searches.json" in m]
        assert len(said) == 1 and "tabs stay as they were" in said[0]
        assert (seeded_home / SEARCHES_FILE).read_text(encoding="utf-8") == "{not json"


async def test_saved_tabs_fit_the_bar_and_are_clicked(seeded_home: Path) -> None:
    searches = SavedSearches(seeded_home)
    searches.save("Diffusion models for everything", "diffusion")
    searches.save("Graph neural networks everywhere", "graph")
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        bar = screen.query_one(TabBar)
        await wait_for(pilot, lambda: "everywhe… 3 " in tab_text(app))
        # 120 columns: the progress bar goes, the built-in tabs take their short labels, the
        # count of papers triaged its short form, and the longest name is cut
        text = tab_text(app)
        assert text.startswith(" 1 In 38  2 ★ 0  3 ✓ 0  4 ✗ 0  5 All 38 ")
        assert " 6 Diffusion models for everything 5 " in text and text.endswith("  0/38")
        await pilot.resize_terminal(80, 24)
        await pilot.pause(0.1)
        text = tab_text(app)  # 80: the names are cut; the count of papers triaged stays
        assert len(text) <= 80 and " 6 Diffusion … 5  7 Graph neur… 3 " in text
        assert text.endswith("  0/38")
        graphs = "saved:graph neural networks everywhere"
        start = next(start for start, _, name in bar._spans if name == graphs)
        await pilot.click(TabBar, offset=(start + 2, 0))
        assert screen.view.tab == graphs and len(plist(app).rows) == 3
        assert plist(app).border_title == "Graph neural networks everywhere · 1 / 3"
        await pilot.resize_terminal(200, 50)
        await pilot.pause(0.1)
        assert "0 / 38 triaged ░" in tab_text(app)  # room for everything


async def test_a_saved_name_from_a_hand_edited_file_is_data(seeded_home: Path) -> None:
    document = {"format": 1, "searches": [{"name": "[b]G[/b] \x1b[31m", "query": "graph"}]}
    (seeded_home / SEARCHES_FILE).write_text(json.dumps(document), encoding="utf-8")
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        await wait_for(pilot, lambda: " 6 [b]G[/b] ␛[31m 3 " in tab_text(app))
        await pilot.press("6")
        assert len(plist(app).rows) == 3
        # the list's title is markup to Textual: drawn, it is the name as written
        title = plist(app).border_title or ""
        assert Content.from_markup(title).plain == "[b]G[/b] ␛[31m · 1 / 3"
        entries = [text for text, _, _ in PaperCommands(screen)._entries()]
        shown = [Content.from_markup(text).plain for text in entries]
        assert "Search: [b]G[/b] ␛[31m" in shown


async def test_enter_in_the_search_box_goes_to_the_list(seeded_home: Path) -> None:
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        await search(pilot, screen, "graph")
        await pilot.press("enter")  # once crashed: Input built its Submitted from our class
        assert app.focused is plist(app) and len(plist(app).rows) == 3


async def test_a_saved_tab_exports_under_its_name(seeded_home: Path) -> None:
    from tui.screens.export import ExportScreen

    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        SavedSearches(seeded_home).save("GNN/graphs", "graph")
        await wait_for(pilot, lambda: " 6 GNN/graphs 3 " in tab_text(app))
        await pilot.press("6", "e")
        await wait_for(pilot, lambda: isinstance(app.screen, ExportScreen))
        screen = app.screen
        assert isinstance(screen, ExportScreen)
        assert screen.stem == "papers-gnn-graphs"  # no folder made of the name's "/"
        assert screen.choices[-1].heading.startswith("Search “GNN/graphs”: ")


async def test_a_quit_on_a_saved_search_reopens_there(seeded_home: Path) -> None:
    """ui.json kept the saved search's tab and the paper, and the app opened on the Inbox
    (only the five tabs were put back)."""
    SavedSearches(seeded_home).save("gnn", "graph")
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        await wait_for(pilot, lambda: " 6 gnn 3 " in tab_text(app))
        await pilot.press("6", "j")
        left = screen.paper_list.current
        await pilot.press("q")
    assert left is not None
    again = make_app(seeded_home)
    async with again.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        await wait_for(pilot, lambda: screen.paper_list.current == left)
        assert screen.view.tab == "saved:gnn" and screen.paper_list.cursor == 1


async def test_a_name_typed_for_a_search_replaces_the_one_offered(seeded_home: Path) -> None:
    """The prompt offers the query as the name; typing went on from it (``diffusion`` then
    ``diff`` saved the tab ``diffusiondiff``): the offer is selected, typing replaces it."""
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        await search(pilot, screen, "diffusion")
        await opened(pilot, "ctrl+s", TextPrompt)
        await pilot.press(*"diff", "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, MainScreen))
        saved = SavedSearches(seeded_home).get("diff")
        assert saved is not None and saved.query == "diffusion"
        assert SavedSearches(seeded_home).get("diffusiondiff") is None


@pytest.mark.slow(15)
async def test_a_saved_search_of_starred_papers_finds_them_past_the_best_of_the_library(
    home: Path, tmp_path: Path
) -> None:
    """A saved search "model is:starred" in a library of more papers than a search lists:
    its tab took the library's best 5,000 for "model", then the starred ones among them, and
    showed none of the three starred papers (listed last), each of which says "model"."""
    from tui.view import SEARCH_LIMIT

    starred = big_library(home, tmp_path, SEARCH_LIMIT + 100)
    SavedSearches(home).save("mine", "model is:starred")
    SavedSearches(home).save("inbox", "model is:inbox")
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        await shown_saved(pilot, screen, "6")
        assert sorted(p.id for p in plist(app).row_papers()) == sorted(starred)
        assert "best" not in (plist(app).border_title or "")
        await shown_saved(pilot, screen, "7")  # the Inbox's papers: its best 5,000, said so
        assert len(plist(app).rows) == SEARCH_LIMIT  # (the starred, last, not among them)
        assert "best 5,000" in (plist(app).border_title or "")


@pytest.mark.slow(15)
async def test_a_paper_starred_in_the_app_past_the_best_of_the_library_shows_in_its_saved_tab(
    home: Path, tmp_path: Path
) -> None:
    """A saved search "model is:starred" lists the starred papers past the library's best
    5,000 for "model" found when it was searched: a paper past them starred in the app
    after that search showed in the Starred tab, not in this one (nor in its count), until
    the app was started again."""
    from tui.view import SEARCH_LIMIT

    starred = big_library(home, tmp_path, SEARCH_LIMIT + 100)
    SavedSearches(home).save("mine", "model is:starred")
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        await shown_saved(pilot, screen, "6")
        assert sorted(p.id for p in plist(app).row_papers()) == sorted(starred)
        assert screen.index is not None
        best = set(screen.index.rank("model", limit=SEARCH_LIMIT).ids)
        await pilot.press("1")
        await settled(pilot)
        rows = plist(app).row_papers()
        row = max(i for i, p in enumerate(rows) if p.id not in best)
        late = rows[row].id
        plist(app).move_to(row)
        await settled(pilot)
        await pilot.press("s")
        await wait_for(pilot, lambda: app.library.status(late) == "starred", 10)
        await pilot.press("6")
        await wait_for(pilot, lambda: late in {p.id for p in plist(app).row_papers()}, 10)
        assert sorted(p.id for p in plist(app).row_papers()) == sorted([*starred, late])
        assert "mine 4" in tab_text(app)


@pytest.mark.slow(15)
async def test_a_saved_tab_past_the_best_of_the_library_counts_a_paper_starred_elsewhere(
    home: Path, tmp_path: Path
) -> None:
    """A saved search "model is:starred" at more papers than a search lists counted a paper
    starred past the library's best 5,000 only once its tab was shown: on the Inbox, its count
    stayed as it was (the tab's papers were searched again only when shown)."""
    from tui.view import SEARCH_LIMIT

    big_library(home, tmp_path, SEARCH_LIMIT + 100)
    SavedSearches(home).save("mine", "model is:starred")
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        await wait_for(pilot, lambda: " 6 mine 3 " in tab_text(app), 20)
        assert screen.index is not None
        best = set(screen.index.rank("model", limit=SEARCH_LIMIT).ids)
        rows = plist(app).row_papers()
        row = max(i for i, p in enumerate(rows) if p.id not in best)
        plist(app).move_to(row)
        await settled(pilot)
        await pilot.press("s")  # on the Inbox: the saved tab is not shown
        assert screen.view.tab == "inbox"
        await wait_for(pilot, lambda: " 6 mine 4 " in tab_text(app), 10)
        assert screen.view.tab == "inbox"


@pytest.mark.slow(15)
async def test_a_search_typed_in_a_saved_tab_of_triage_qualifiers_says_what_it_lists(
    home: Path, tmp_path: Path
) -> None:
    """A search typed in a saved tab ``is:starred`` ("model", which every paper of a library
    larger than a search lists says) listed every starred paper it matched, and its title said
    "best 5,000"; in a tab of the Inbox's papers the search lists its best, and says so."""
    from tui.view import SEARCH_LIMIT

    starred = big_library(home, tmp_path, SEARCH_LIMIT + 100)
    SavedSearches(home).save("stars", "is:starred")
    SavedSearches(home).save("waiting", "is:inbox")
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        await shown_saved(pilot, screen, "6")
        await search(pilot, screen, "model")
        await settled(pilot)
        assert sorted(p.id for p in plist(app).row_papers()) == sorted(starred)
        assert plist(app).border_title == "stars · search · 1 / 3"
        await pilot.press("escape")
        await shown_saved(pilot, screen, "7")  # "model" still typed: its best, said so
        assert screen.view.query == "model"
        assert len(plist(app).rows) > 4000
        assert "best 5,000" in (plist(app).border_title or "")
