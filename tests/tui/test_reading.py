"""Reading, not just sorting: the paper pane as a place, your place kept, prompts that work."""

from __future__ import annotations

import json
from pathlib import Path

from textual.command import CommandList, CommandPalette
from textual.containers import VerticalScroll
from textual.widgets import Input

from storage import Library, Status
from storage.files.ui_state import UI_FILE
from tests.tui.helpers import FakeClipboard, make_app, plist, ready, settled, wait_for
from tui.app import PapersApp
from tui.screens.export import ExportScreen
from tui.screens.help import HelpScreen
from tui.widgets.paper_pane import PaperPane

NARROW = (80, 24)
WIDE = (120, 36)


def pane(app: PapersApp) -> PaperPane:
    return app.main_screen.query_one(PaperPane)


async def test_at_80x24_the_whole_abstract_is_read_from_the_keyboard(seeded_home: Path) -> None:
    app = make_app(seeded_home)
    async with app.run_test(size=NARROW) as pilot:
        await ready(pilot)
        paper = plist(app).current
        assert paper is not None and pane(app).max_scroll_y > 0  # it does not fit
        await pilot.press("J")  # from the list
        assert pane(app).scroll_y == 3 and app.focused is plist(app)
        await pilot.press("l")  # into the paper
        assert app.focused is pane(app)
        while pane(app).scroll_y < pane(app).max_scroll_y:
            before = pane(app).scroll_y
            await pilot.press("space")
            assert pane(app).scroll_y > before
        last_words = " ".join(paper.display_abstract.split()[-3:])
        shown = "\n".join(strip.text for strip in app.screen._compositor.render_strips())
        assert last_words.split()[-1] in shown
        await pilot.press("g")
        assert pane(app).scroll_y == 0
        await pilot.press("s")  # triage still works from the pane
        await settled(pilot)
        assert app.session.status(paper.id) is Status.STARRED
        await pilot.press("escape")
        assert app.focused is plist(app)


async def test_zoom_shows_the_paper_alone_and_esc_comes_back(seeded_home: Path) -> None:
    app = make_app(seeded_home)
    async with app.run_test(size=WIDE) as pilot:
        screen = await ready(pilot)
        await pilot.press("z")
        await pilot.pause()
        assert screen.has_class("-zoom") and not plist(app).display
        assert pane(app).size.width > 100 and app.focused is pane(app)
        await pilot.press("escape")
        await pilot.pause()
        assert not screen.has_class("-zoom") and app.focused is plist(app)
        await pilot.press("z", "z")
        assert not screen.has_class("-zoom")


async def test_the_split_moves_and_is_remembered(seeded_home: Path) -> None:
    app = make_app(seeded_home)
    async with app.run_test(size=WIDE) as pilot:
        await ready(pilot)
        width = plist(app).size.width
        await pilot.press("greater_than_sign", "greater_than_sign")
        await pilot.pause()
        assert plist(app).size.width > width
    assert json.loads((seeded_home / UI_FILE).read_text())["split"] == 60
    app = make_app(seeded_home)
    async with app.run_test(size=WIDE) as pilot:
        await ready(pilot)
        await pilot.pause()
        assert plist(app).size.width > width
        for _ in range(20):  # never beyond its bounds
            await pilot.press("less_than_sign")
        await pilot.pause()
        assert plist(app).outer_size.width == 0.2 * WIDE[0]


async def test_leaving_a_search_keeps_the_paper_and_tabs_keep_their_place(
    seeded_home: Path,
) -> None:
    app = make_app(seeded_home)
    async with app.run_test(size=WIDE) as pilot:
        screen = await ready(pilot)
        await pilot.press("5", *"jjjjjjj")
        found = plist(app).current
        assert found is not None and plist(app).cursor == 7
        await pilot.press("slash", *"helmet")
        await wait_for(pilot, lambda: screen.view.found is not None)
        await pilot.press("escape", "j")
        helmet = plist(app).current
        assert helmet is not None
        await pilot.press("escape")  # the search ends: the paper found stays under the cursor
        assert screen.view.query == ""
        assert plist(app).current is helmet and len(plist(app).rows) == 38
        await pilot.press("1")  # another tab, and back: where it was
        await pilot.press("5")
        assert plist(app).current is helmet


async def test_marked_view_shows_what_d_will_decide(seeded_home: Path) -> None:
    app = make_app(seeded_home)
    async with app.run_test(size=WIDE) as pilot:
        screen = await ready(pilot)
        await pilot.press("M")  # nothing marked: said, nothing hidden
        assert len(plist(app).rows) == 38
        await pilot.press("space", "j", "space", "M")
        assert len(plist(app).rows) == 2
        assert "marked only" in str(plist(app).border_title)
        await pilot.press("D", "r")
        await settled(pilot)
        assert not screen.view.only_marked and len(plist(app).rows) == 36


async def test_export_asks_before_replacing_and_can_copy_instead(
    seeded_home: Path, tmp_path: Path, clipboard: FakeClipboard
) -> None:
    target = tmp_path / "out.md"
    target.write_text("keep me")
    app = make_app(seeded_home)
    async with app.run_test(size=WIDE) as pilot:
        await ready(pilot)
        await pilot.press("e")
        assert isinstance(app.screen, ExportScreen)
        app.screen.query_one("#export-path", Input).value = str(target)
        await pilot.press("enter")
        assert target.read_text() == "keep me"  # asked, not replaced
        assert isinstance(app.screen, ExportScreen)
        await pilot.press("enter")
        await wait_for(pilot, lambda: target.read_text() != "keep me")
        assert target.read_text().startswith("# Inbox papers: ")
        await pilot.press("e", "ctrl+y")
        await wait_for(pilot, lambda: clipboard.text.startswith("# Inbox papers: "))


async def test_export_writes_the_format_chosen(seeded_home: Path, tmp_path: Path) -> None:
    app = make_app(seeded_home)
    async with app.run_test(size=WIDE) as pilot:
        await ready(pilot)
        await pilot.press("e")
        screen = app.screen
        assert isinstance(screen, ExportScreen)
        await pilot.press("j")  # JSON
        field = screen.query_one("#export-path", Input)
        assert field.value.endswith("papers-inbox.json")
        field.value = str(tmp_path / "out.json")
        field.focus()
        await pilot.press("enter")
        await wait_for(pilot, (tmp_path / "out.json").exists)
        assert len(json.loads((tmp_path / "out.json").read_text())) == 38


async def test_tab_completes_a_path_and_enter_imports(seeded_home: Path, tmp_path: Path) -> None:
    folder = tmp_path / "lists"
    folder.mkdir()
    (folder / "more-papers.jsonl").write_text(
        json.dumps({"title": "Tab Completed", "abstract": "We introduce TABBED, found by Tab."})
    )
    app = make_app(seeded_home)
    async with app.run_test(size=WIDE) as pilot:
        await ready(pilot)
        await pilot.press("a")
        field = app.screen.query_one("#import-path", Input)
        field.value = str(folder) + "/mo"
        await pilot.press("tab")
        assert field.value == str(folder / "more-papers.jsonl")
        await pilot.press("enter")  # one Enter imports
        await wait_for(pilot, lambda: len(app.papers) == 39)


async def test_help_lists_ids_and_scrolls_with_the_list_keys(seeded_home: Path) -> None:
    app = make_app(seeded_home)
    async with app.run_test(size=NARROW) as pilot:
        await ready(pilot)
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        ids = [str(cell) for cell in app.screen.table().columns[3].cells]
        assert "star" in ids and "decide_marked" in ids
        box = app.screen.query_one(VerticalScroll)
        await pilot.press("j", "j")
        assert box.scroll_y == 2
        await pilot.press("G")
        assert box.scroll_y == box.max_scroll_y > 2
        await pilot.press("g")
        assert box.scroll_y == 0


async def test_palette_lists_our_commands_first_each_group_named_once(seeded_home: Path) -> None:
    """Ours first; the queue's commands read ``Queue: Queue: up`` (their titles name the
    group already)."""
    app = make_app(seeded_home)
    async with app.run_test(size=WIDE) as pilot:
        await ready(pilot)
        await pilot.press("ctrl+p")
        await pilot.pause(0.3)
        palette = app.screen
        assert isinstance(palette, CommandPalette)
        options = palette.query_one(CommandList)
        prompts = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
        assert prompts[0].startswith("Triage:")
        assert any(prompt.startswith("Queue: up") for prompt in prompts)
        assert any(prompt.startswith("Paper: Copy link") for prompt in prompts)
        named_twice = [
            prompt
            for prompt in prompts
            if (parts := prompt.split(": ", 1))[1:] and parts[1].startswith(parts[0])
        ]
        assert named_twice == []


async def test_a_noted_paper_is_marked_in_the_list(seeded_home: Path) -> None:
    lib = Library(seeded_home)
    first = lib.papers()[0].id
    lib.set_note(first, "read the appendix")
    app = make_app(seeded_home)
    async with app.run_test(size=WIDE) as pilot:
        await ready(pilot)
        assert "✎" in plist(app).render_line(0).text
        assert "✎" not in plist(app).render_line(1).text
        shown = pane(app).text.plain
        assert shown.index("read the appendix") < shown.index("We ")  # before the abstract


async def test_the_theme_chosen_is_remembered(seeded_home: Path) -> None:
    app = make_app(seeded_home)
    async with app.run_test(size=WIDE) as pilot:
        await ready(pilot)
        app.theme = "textual-light"
        await pilot.pause()
    app = make_app(seeded_home)
    async with app.run_test(size=WIDE) as pilot:
        await ready(pilot)
        assert app.theme == "textual-light"
