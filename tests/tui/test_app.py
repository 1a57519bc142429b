"""The real app driven by keys (Textual's Pilot): every key path changes what it should."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual import events
from textual.binding import Binding
from textual.command import Command, CommandList, CommandPalette
from textual.widgets import Input

from storage import Library, Status
from tests.tui.helpers import (
    FakeClipboard,
    make_app,
    messages,
    one_paper_list,
    opened,
    plist,
    ready,
    settled,
    tab_text,
    wait_for,
)
from tests.tui.test_dialog_sizes import footer
from tui.app import PapersApp
from tui.paths import typed_path
from tui.screens.dialogs import BulkDecision
from tui.screens.help import HelpScreen
from tui.screens.main import MainScreen
from tui.screens.similar import TopicsScreen
from tui.screens.stats import StatsScreen
from tui.stray_keys import GAP_S
from tui.widgets.paper_pane import PaperPane
from tui.widgets.styles import component_style

SIZE = (120, 36)


def palette_choice(app: PapersApp) -> str:
    """The command the palette's Enter runs now: its highlighted one ("" for none yet)."""
    commands = app.screen.query_one(CommandList)
    if commands.highlighted is None:
        return ""
    option = commands.get_option_at_index(commands.highlighted)
    return str(option.hit.text) if isinstance(option, Command) else ""


async def test_first_run_imports_the_sample_and_says_how_to_import(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        assert len(plist(app).rows) == 38
        assert "Inbox 38" in tab_text(app) and "0 / 38 triaged" in tab_text(app)
        pane = app.main_screen.detail  # the welcome, inside the pane (a toast hid its border)
        await wait_for(pilot, lambda: "papers import FILE" in pane.text.plain)
        assert app.focused is plist(app)


async def test_triage_keys_decide_and_move_on(seeded_home: Path) -> None:
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        papers = [p.id for p in app.papers]
        await pilot.press("s")  # star the first: it leaves the Inbox, the next is selected
        assert plist(app).current is not None and plist(app).current.id == papers[1]
        assert len(plist(app).rows) == 37
        await pilot.press("r", "x")
        assert plist(app).current is not None and plist(app).current.id == papers[3]
        assert "Inbox 35" in tab_text(app) and "Starred 1" in tab_text(app)
        await settled(pilot)
    lib = Library(seeded_home)
    assert lib.statuses() == {
        papers[0]: Status.STARRED,
        papers[1]: Status.READ,
        papers[2]: Status.SKIPPED,
    }


async def test_in_the_all_tab_a_decision_stays_and_the_cursor_moves(seeded_home: Path) -> None:
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("5", "s", "s")
        assert len(plist(app).rows) == 38
        assert plist(app).cursor == 2
        await pilot.press("g", "i")  # back to the Inbox
        await settled(pilot)
        assert app.session.status(app.papers[0].id) is Status.INBOX
        assert app.session.status(app.papers[1].id) is Status.STARRED


async def test_the_app_opens_where_it_was_quit(seeded_home: Path) -> None:
    """The tab and the paper under the cursor are kept by a quit (in ui.json), as the split
    and the theme are; a file naming a tab or paper no longer there opens the Inbox's top."""
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        await pilot.press("5", "j", "j", "j")
        left = screen.paper_list.current
        await pilot.press("q")
    assert left is not None
    again = make_app(seeded_home)
    async with again.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        assert screen.view.tab == "all" and screen.paper_list.current == left
    (seeded_home / "ui.json").write_text('{"tab": "nowhere", "paper": 7}', encoding="utf-8")
    third = make_app(seeded_home)
    async with third.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        assert screen.view.tab == "inbox" and screen.paper_list.cursor == 0


async def test_movement_keys(seeded_home: Path) -> None:
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("j", "j", "down")
        assert plist(app).cursor == 3
        await pilot.press("k", "up")
        assert plist(app).cursor == 1
        await pilot.press("G")
        assert plist(app).cursor == 37
        await pilot.press("g")
        assert plist(app).cursor == 0
        await pilot.press("ctrl+d")
        half = plist(app).cursor
        assert half > 3
        await pilot.press("ctrl+u")
        assert plist(app).cursor == 0


async def test_tabs_show_their_papers(seeded_home: Path) -> None:
    lib = Library(seeded_home)
    ids = [p.id for p in lib.papers()]
    lib.set_statuses(ids[:3], "starred")
    lib.set_status(ids[3], "read")
    lib.set_statuses(ids[4:6], "skipped")
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        expected = {"1": 32, "2": 3, "3": 1, "4": 2, "5": 38}
        for key, count in expected.items():
            await pilot.press(key)
            assert len(plist(app).rows) == count, key
        await pilot.press("2")
        assert [p.id for p in plist(app).row_papers()] == ids[:3]


async def test_undo_redo_many_steps_and_across_restarts(seeded_home: Path) -> None:
    app = make_app(seeded_home)
    ids = [p.id for p in Library(seeded_home).papers()]
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("s", "r", "x")
        await settled(pilot)
        await pilot.press("u", "u")
        await settled(pilot)
        assert app.session.state.statuses == {ids[0]: Status.STARRED}
        assert plist(app).current is not None and plist(app).current.id == ids[1]
        await pilot.press("ctrl+r")
        await settled(pilot)
        assert app.session.state.statuses == {ids[0]: Status.STARRED, ids[1]: Status.READ}
    app = make_app(seeded_home)  # a restart: undo reaches the last session's steps
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("u", "u")
        await settled(pilot)
        assert app.session.state.statuses == {}
        await pilot.press("u")
        await settled(pilot)
        assert any("Nothing to undo" in n.message for n in app._notifications)
    assert Library(seeded_home).statuses() == {}


async def test_search_as_you_type_esc_keeps_the_filter(seeded_home: Path) -> None:
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        await pilot.press("slash")
        assert isinstance(app.focused, Input)
        await pilot.press(*"parasolvr")
        await wait_for(
            pilot, lambda: screen.view.query == "parasolvr" and screen.view.hit_rows is not None
        )
        await wait_for(
            pilot,
            lambda: plist(app).current is not None and "ParaSolver" in plist(app).current.title,
        )
        assert app.session.state.statuses == {}
        await pilot.press("escape")
        assert app.focused is plist(app)
        assert screen.view.query == "parasolvr"
        assert len(plist(app).rows) < 38
        await pilot.press("escape")
        assert screen.view.query == ""
        assert len(plist(app).rows) == 38
        await pilot.press("slash", *"graph")
        await wait_for(
            pilot, lambda: screen.view.hit_rows is not None and screen.view.query == "graph"
        )
        await pilot.press("ctrl+l")
        assert screen.view.query == "" and len(plist(app).rows) == 38


async def test_search_words_are_highlighted_in_the_detail(seeded_home: Path) -> None:
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        await pilot.press("slash", *"curvature")
        pane = app.main_screen.query_one(PaperPane)

        def marked() -> list[str]:
            shown, match = pane.text, component_style(pane, "paper-pane--match")
            return [shown.plain[s.start : s.end].lower() for s in shown.spans if s.style == match]

        await wait_for(
            pilot, lambda: screen.view.found is not None and plist(app).current is not None
        )
        await wait_for(pilot, lambda: "curvature" in marked())


async def test_copy_one_link_and_all_links(seeded_home: Path, clipboard: FakeClipboard) -> None:
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("c")  # the first sample paper (CollabEdit) has a link
        await wait_for(pilot, lambda: clipboard.text != "")
        assert clipboard.text == "https://github.com/LINs-lab/CollabEdit"
        assert app.clipboard == clipboard.text  # OSC 52 as well
        await pilot.press("j", "y")  # the second has none
        await wait_for(pilot, lambda: any("no GitHub" in n.message for n in app._notifications))
        await pilot.press("C")
        await wait_for(pilot, lambda: clipboard.text.count("\n") == 7)
        assert len(set(clipboard.text.splitlines())) == 8
        await wait_for(
            pilot, lambda: any("8 links from 8 papers" in n.message for n in app._notifications)
        )


async def test_copy_without_a_system_clipboard_shows_the_link(
    seeded_home: Path, clipboard: FakeClipboard
) -> None:
    clipboard.fail = "Pyperclip could not find a copy/paste mechanism for your system."
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("c")
        await wait_for(pilot, lambda: any("OSC 52" in n.message for n in app._notifications))
        note = next(n for n in app._notifications if "OSC 52" in n.message)
        assert "https://github.com/LINs-lab/CollabEdit" in note.message
        assert "no system clipboard" in note.message


async def test_export_writes_markdown_where_asked(seeded_home: Path, tmp_path: Path) -> None:
    lib = Library(seeded_home)
    ids = [p.id for p in lib.papers()]
    lib.set_statuses(ids[:2], "starred")
    target = tmp_path / "out.md"
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("2", "e")
        field = app.screen.query_one(Input)
        field.value = str(target)
        await pilot.press("enter")
        await wait_for(pilot, target.exists)
        text = target.read_text()
        assert text.startswith("# Starred papers: ICLR 2025 论文列表 (2 papers)")
        assert "https://github.com/LINs-lab/CollabEdit" in text
        assert any(str(target) in n.message for n in app._notifications)


async def test_note_and_tags(seeded_home: Path) -> None:
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        first = app.papers[0].id
        await pilot.press("n", *"try it", "ctrl+s")
        await pilot.pause(GAP_S)  # (a key typed on at once would be held back)
        await pilot.press("t", *"diffusion todo", "enter")
        await settled(pilot)
    snap = Library(seeded_home).triage()
    assert snap.notes == {first: "try it"}
    assert snap.tags == {first: ("diffusion", "todo")}


async def test_esc_on_a_changed_note_asks_for_a_second_esc(seeded_home: Path) -> None:
    """Esc in the note editor threw away what had been typed, at once and silently (an Esc
    out of habit, a vim user's): a first Esc now says so, a second throws it away; Esc on a
    note left as it was closes at once."""
    from textual.widgets import TextArea

    from tui.screens.dialogs import NoteEditor

    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        await opened(pilot, "n", NoteEditor)
        await pilot.press(*"ten minutes of thought", "escape")
        assert isinstance(app.screen, NoteEditor)
        assert app.screen.query_one(TextArea).text == "ten minutes of thought"
        assert any(m.startswith("Not saved: Esc again throws away") for m in messages(app))
        await pilot.press("ctrl+s")  # still there to be saved
        await wait_for(pilot, lambda: app.screen is screen)
        first = app.papers[0].id
        assert app.session.state.notes == {first: "ten minutes of thought"}
        await pilot.pause(GAP_S)  # (an n typed at once would be held back)
        await opened(pilot, "n", NoteEditor)
        await pilot.press("escape")  # unchanged: closed at once
        await wait_for(pilot, lambda: app.screen is screen)
        await pilot.pause(GAP_S)  # (likewise)
        await opened(pilot, "n", NoteEditor)
        await pilot.press(*" and more", "escape", "escape")  # twice: thrown away
        await wait_for(pilot, lambda: app.screen is screen)
        await settled(pilot)
    assert Library(seeded_home).triage().notes == {first: "ten minutes of thought"}


async def test_ctrl_q_in_the_note_editor_keeps_what_was_typed(seeded_home: Path) -> None:
    """ctrl+q quits from any screen: with the note editor open, what was typed was thrown
    away without a word (one Esc does not do that); it is saved as ctrl+s would. A note
    unchanged writes nothing."""
    from tui.screens.dialogs import NoteEditor

    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        first = app.papers[0].id
        await opened(pilot, "n", NoteEditor)
        await pilot.press(*"check the proofs", "ctrl+q")
        await wait_for(pilot, lambda: not app.is_running)
    assert Library(seeded_home).triage().notes == {first: "check the proofs"}
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await opened(pilot, "n", NoteEditor)
        await pilot.press("ctrl+q")
        await wait_for(pilot, lambda: not app.is_running)
    assert not (seeded_home / "triage.json.bak").exists()  # one write: the note's


async def test_paper_text_is_data_not_markup(home: Path, tmp_path: Path) -> None:
    abstract = (
        "We study [bold]markup[/bold] and \x1b[31mescape codes\x1b[0m in abstracts, "
        "which must show as typed."
    )
    (tmp_path / "evil.jsonl").write_text(
        json.dumps({"title": "[red]Evil[/red] \x1b[31mtitle", "abstract": abstract})
    )
    Library(home).import_file(tmp_path / "evil.jsonl")
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await wait_for(pilot, lambda: "Evil" in plist(app).render_line(0).text)
        row = plist(app).render_line(0).text
        # markup shows as typed; an escape code cannot reach the terminal (its text stays visible)
        assert "[red]Evil[/red] ␛[31mtitle" in row and "\x1b" not in row
        shown = app.main_screen.query_one(PaperPane).text  # what is drawn: no markup parsed
        assert shown.plain.startswith("[red]Evil[/red] ␛[31mtitle")
        assert "[bold]markup[/bold]" in shown.plain
        assert "␛[31mescape codes" in shown.plain
        assert "\x1b" not in shown.plain


async def test_a_titles_underscores_and_asterisks_show_everywhere(
    home: Path, tmp_path: Path
) -> None:
    """Titles went through the abstract's Markdown reading: ``__init__ considered harmful``
    showed as "init considered harmful" in the list, the pane, the queue and the toasts."""
    titles = ["__init__ considered harmful", "Using *args and **kwargs", "The `yield` _keyword_"]
    rows = [
        {"title": t, "abstract": f"Abstract {i}, long enough to be one."}
        for i, t in enumerate(titles)
    ]
    (tmp_path / "code.jsonl").write_text("\n".join(json.dumps(r) for r in rows))
    Library(home).import_file(tmp_path / "code.jsonl")
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await wait_for(pilot, lambda: titles[-1] in plist(app).render_line(2).text)
        for y, title in enumerate(titles):
            assert title in plist(app).render_line(y).text
        pane = app.main_screen.query_one(PaperPane)
        assert pane.text.plain.startswith(titles[0])
        await pilot.press("s", "u")  # starred, then undone: the toast names the paper
        await wait_for(pilot, lambda: f"Undid: {titles[0]} → inbox" in messages(app))
        await pilot.press("s", "2")  # the reading queue
        await wait_for(pilot, lambda: titles[0] in plist(app).render_line(0).text)
        assert pane.text.plain.startswith(titles[0])


@pytest.mark.parametrize("size", [(40, 12), (60, 20), (30, 8)])
async def test_narrow_terminals_stack_and_do_not_crash(
    seeded_home: Path, size: tuple[int, int]
) -> None:
    app = make_app(seeded_home)
    async with app.run_test(size=size) as pilot:
        await ready(pilot)
        await pilot.press("j", "s", "slash", *"graph", "escape", "question_mark")
        await wait_for(pilot, lambda: app.main_screen.has_class("-narrow"))
        await pilot.press("escape", "2", "5", "G")
        assert app.is_running


async def test_another_process_decisions_show_up(seeded_home: Path) -> None:
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        other = Library(seeded_home)
        target = other.papers()[5].id
        other.set_status(target, "starred")
        await wait_for(pilot, lambda: app.session.status(target) is Status.STARRED)
        await wait_for(pilot, lambda: "Starred 1" in tab_text(app))
        assert len(plist(app).rows) == 37


async def test_help_and_palette(seeded_home: Path) -> None:
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        await pilot.press("ctrl+p")
        await wait_for(pilot, lambda: isinstance(app.screen, CommandPalette))
        await pilot.press(*"star paper")
        await wait_for(pilot, lambda: palette_choice(app) == "Triage: Star")
        await pilot.press("enter")
        await settled(pilot)
        assert list(app.session.state.statuses.values()) == [Status.STARRED]


async def test_the_footer_names_the_palettes_keys_while_it_is_open(seeded_home: Path) -> None:
    """The footer showed through blank under the palette: its keys are named there, the
    palette's own, and the main keys come back when it closes."""
    from tui.screens.palette import Palette

    bound = {key.strip() for b in CommandPalette.BINDINGS for key in b.key.split(",")}
    assert {"down", "up"} <= bound  # what PALETTE_KEYS names, Enter aside
    assert [b.key for b in Palette.BINDINGS if isinstance(b, Binding)] == ["escape"]  # ours
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("ctrl+p")
        await wait_for(pilot, lambda: isinstance(app.screen, CommandPalette))
        await wait_for(pilot, lambda: footer(app) == "↑↓ choose  Enter run  esc close")
        await pilot.press("escape")
        await wait_for(pilot, lambda: footer(app).startswith("r Read"))


async def test_keys_are_remapped_from_the_config_file(seeded_home: Path) -> None:
    (seeded_home / "config.toml").write_text('[keys]\nstar = "f"\n')
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("s")
        assert app.session.state.statuses == {}
        await pilot.press("f")
        assert list(app.session.state.statuses.values()) == [Status.STARRED]
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        keys = [str(cell) for cell in app.screen.table().columns[1].cells]
        assert "f" in keys and "s" not in keys


async def test_bad_config_is_reported_not_fatal(seeded_home: Path) -> None:
    (seeded_home / "config.toml").write_text("[keys\nstar = ")
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        assert any("does not parse" in n.message for n in app._notifications)
        await pilot.press("s")
        assert len(app.session.state.statuses) == 1


async def test_bulk_decision_is_one_undo_step(seeded_home: Path) -> None:
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("space", "space", "space")
        await opened(pilot, "D", BulkDecision)
        await pilot.press("x")
        await settled(pilot)
        assert list(app.session.state.statuses.values()) == [Status.SKIPPED] * 3
        assert len(plist(app).rows) == 35
        await pilot.press("u")
        await settled(pilot)
        assert app.session.state.statuses == {}


async def test_undoing_a_bulk_decision_puts_the_cursor_on_its_first_paper(
    seeded_home: Path,
) -> None:
    """Three papers marked from the top and skipped, then u: the cursor went to the last of
    them, the undo's changes coming in reverse (at 100,000 papers a topic's 9,409 papers put
    back sent it from row 1 to row 99,986)."""
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        first = plist(app).current
        await pilot.press("space", "space", "space")
        await opened(pilot, "D", BulkDecision)
        await pilot.press("x")
        await settled(pilot)
        assert len(app.session.state.statuses) == 3
        await pilot.press("u")
        await settled(pilot)
        assert app.session.state.statuses == {}
        assert first is not None and plist(app).current is not None
        assert plist(app).current.id == first.id and plist(app).cursor == 0


async def test_the_marked_view_opens_on_the_marked_paper_nearest_the_cursor(
    seeded_home: Path,
) -> None:
    """Rows 2, 20 and 30 marked, the cursor on row 10, then M: the view opened on the last
    marked paper (the row number kept, cut to the three), and M again left the cursor on
    row 30, far from where the user was; the nearest marked paper after it is row 20."""
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("j", "j", "space", *["j"] * 17, "space", *["j"] * 9, "space")
        await pilot.press("g", *["j"] * 10)
        rows = plist(app).rows
        ids = [plist(app).papers[row].id for row in rows]
        assert app.main_screen.view.marked == {ids[2], ids[20], ids[30]}
        assert plist(app).cursor == 10
        await pilot.press("M")
        assert app.main_screen.view.only_marked and len(plist(app).rows) == 3
        assert plist(app).current is not None and plist(app).current.id == ids[20]
        await pilot.press("M")
        assert not app.main_screen.view.only_marked and plist(app).cursor == 20


async def test_after_a_bulk_decision_the_cursor_stays_on_its_paper(seeded_home: Path) -> None:
    """Two papers above the cursor marked and skipped: it stays on the paper it was on, not
    on its row (two papers further on)."""
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("space", "space", "j", "j")  # two marked, the cursor two rows on
        await settled(pilot)
        here = plist(app).current
        assert here is not None and here.id not in app.session.state.statuses
        await opened(pilot, "D", BulkDecision)
        await pilot.press("x")
        await settled(pilot)
        assert len(app.session.state.statuses) == 2
        assert plist(app).current is not None and plist(app).current.id == here.id


async def test_r_with_papers_marked_says_once_that_they_wait_for_D(seeded_home: Path) -> None:
    """Papers marked, then r: the paper under the cursor is read, the marked ones are not,
    and nothing said so (a user expects r to decide what was marked)."""
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("space", "space", "r")  # two marked, the third read
        await settled(pilot)
        said = [m for m in messages(app) if "marked" in m]
        assert said == [
            "Decided the paper under the cursor; 2 marked papers wait: D decides them at once."
        ]
        await pilot.press("x")  # the same marks: said once
        await settled(pilot)
        assert len([m for m in messages(app) if "marked" in m]) == 1
        assert len(app.session.state.statuses) == 2 and len(app.main_screen.view.marked) == 2


async def test_the_marks_said_to_wait_are_those_the_list_shows(seeded_home: Path) -> None:
    """Two papers marked in the Inbox, one of them read in the All tab: back in the Inbox, r
    said "2 marked papers wait" while the title said 1 marked, and D decides 1 (a review)."""
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("space", "space", "5", "g", "r", "1")
        await wait_for(pilot, lambda: "1 marked" in str(plist(app).border_title))
        await pilot.press("j", "j", "r")
        await settled(pilot)
        said = [m for m in messages(app) if "marked" in m]
        assert said == [
            "Decided the paper under the cursor; 1 marked paper waits: D decides them at once."
        ], said


async def test_import_from_inside_the_app(seeded_home: Path, tmp_path: Path) -> None:
    source = one_paper_list(
        tmp_path / "more.jsonl",
        "A New Paper",
        "We introduce NEWTHING, a benchmark for testing imports in the app.",
    )
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("a")
        app.screen.query_one("#import-path", Input).value = str(source)
        await pilot.press("enter", "enter")
        await wait_for(pilot, lambda: len(app.papers) == 39)
        await wait_for(pilot, lambda: len(plist(app).rows) == 39)
        await wait_for(pilot, lambda: any("1 added" in n.message for n in app._notifications))


async def test_stats_similar_and_suggested_order(seeded_home: Path) -> None:
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await opened(pilot, "S", StatsScreen)
        await pilot.press("escape", "m")
        await wait_for(pilot, lambda: type(app.screen).__name__ == "SimilarScreen")
        await pilot.press("escape", "s", "ctrl+o")
        await wait_for(pilot, lambda: app.main_screen.view.suggested_rows is not None)
        assert app.main_screen.view.suggested_rows[0] != 0  # the starred paper is not in the Inbox
        await pilot.press("ctrl+o")
        assert app.main_screen.view.suggested_rows is None


async def test_a_large_librarys_order_and_topics_say_they_started(
    seeded_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """They take seconds at 100,000 papers: said at once, before their result."""
    import tui.screens.main.similar as similar

    monkeypatch.setattr(similar, "SAID_FROM", 30)  # the 38 papers are many
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("s", "ctrl+o")
        said = "Ordering the Inbox by likeness to your 1 starred paper…"
        await wait_for(pilot, lambda: any(n.message == said for n in app._notifications))
        await wait_for(pilot, lambda: app.main_screen.view.suggested_rows is not None)
        await pilot.press("T")
        said = "Grouping 37 papers into topics…"
        await wait_for(pilot, lambda: any(n.message == said for n in app._notifications))
        await wait_for(pilot, lambda: type(app.screen).__name__ == "TopicsScreen")


def burst(app: PapersApp, key: str, char: str) -> None:
    """Queue a key as the terminal driver does, without waiting for the app in between."""
    event = events.Key(key, char)
    event.set_sender(app)
    assert app._driver is not None
    app._driver.send_message(event)


async def test_typing_fast_after_slash_goes_to_the_search_box(seeded_home: Path) -> None:
    """A burst of keys (a fast typist, a paste) after `/` must not run triage keys."""
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        for char in "/graph neural":  # two of the sample's papers hold both words
            burst(app, {"/": "slash", " ": "space"}.get(char, char), char)
        await wait_for(pilot, lambda: screen.view.query == "graph neural")
        assert app.session.state.statuses == {}
        assert isinstance(app.focused, Input)
        for char in "\x1bss":  # Esc, then two stars, in one burst: the rest of a word, held
            burst(app, "escape" if char == "\x1b" else char, char)
        await pilot.pause(GAP_S + 0.1)  # proves the stars held back never run
        assert app.session.state.statuses == {}
        for char in "ss":  # once the typing has stopped: two stars
            burst(app, char, char)
        await wait_for(pilot, lambda: len(app.session.state.statuses) == 2)
        assert screen.view.query == "graph neural"


async def test_a_slash_in_a_burst_stays_where_it_was_typed(seeded_home: Path) -> None:
    """``/`` is a priority binding: run as it arrived, it went into the box before the
    letters typed ahead of it (or, just after ``/`` focused the box, was lost)."""
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        for char in "/graph/neural a/b":
            burst(app, {"/": "slash", " ": "space"}.get(char, char), char)
        await wait_for(pilot, lambda: screen.view.query == "graph/neural a/b")
        assert app.session.state.statuses == {}


async def test_a_file_damaged_while_the_app_runs_is_reported_once(seeded_home: Path) -> None:
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("s")
        await settled(pilot)
        (seeded_home / "triage.json").write_bytes(b'{"decisions": {')
        await wait_for(pilot, lambda: any("damaged" in n.message for n in app._notifications))
        await pilot.pause(2.5)  # two more polls: no new message for the same damage
        assert sum("damaged" in n.message for n in app._notifications) == 1
        await pilot.press("S")  # stats cannot be read: said, not crashed
        await wait_for(pilot, lambda: any(n.title == "Stats" for n in app._notifications))
        assert app.is_running and isinstance(app.screen, type(app.main_screen))
        assert (seeded_home / "triage.json").read_bytes() == b'{"decisions": {'


async def test_suggested_order_keeps_papers_put_back_in_the_inbox(seeded_home: Path) -> None:
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        await pilot.press("s", "s", "x")
        await settled(pilot)
        await pilot.press("ctrl+o")
        await wait_for(pilot, lambda: screen.view.suggested_rows is not None)
        assert len(plist(app).rows) == 35
        await pilot.press("u")
        await settled(pilot)
        assert len(plist(app).rows) == 36
        assert plist(app).current is not None and plist(app).current.id == app.papers[2].id


async def test_marks_stay_with_their_list(seeded_home: Path) -> None:
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("space", "space", "2")
        assert not app.main_screen.view.marked
        assert "marked" not in str(plist(app).border_title)
        await pilot.press("1")  # back with their list
        await wait_for(pilot, lambda: "2 marked" in str(plist(app).border_title))


async def test_a_topic_marked_takes_the_inbox_with_its_own_marks(seeded_home: Path) -> None:
    """A topic marked from another tab (T, Enter) shows the Inbox, its marks the topic's; the
    tab left keeps its own. The Inbox's marks of before came back after the topic was
    decided (D), and the All tab's were gone."""
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        view = (await ready(pilot)).view
        await pilot.press("space", "space", "5")
        await wait_for(pilot, lambda: view.tab == "all")
        await pilot.press("G", "space")
        await wait_for(pilot, lambda: len(view.marked) == 1)
        in_all = set(view.marked)
        await opened(pilot, "T", TopicsScreen)
        await pilot.press("enter")
        await wait_for(pilot, lambda: view.tab == "inbox" and isinstance(app.screen, MainScreen))
        topic = set(view.marked)
        await opened(pilot, "D", BulkDecision)
        await pilot.press("x")
        await wait_for(pilot, lambda: all(view.status(pid) is Status.SKIPPED for pid in topic))
        await pilot.press("5")
        await wait_for(pilot, lambda: view.tab == "all" and view.marked == in_all)
        await pilot.press("1")
        await wait_for(pilot, lambda: view.tab == "inbox")
        assert not view.marked


async def test_the_detail_always_shows_the_paper_under_the_cursor(seeded_home: Path) -> None:
    app = make_app(seeded_home)

    def shows_current() -> bool:
        paper = plist(app).current
        shown = app.main_screen.query_one(PaperPane).text.plain
        return paper is not None and shown.startswith(paper.display_title)

    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        for keys in (("j", "j"), ("k",), ("G",), ("g",), ("s",), ("x", "r"), ("5",), ("j",)):
            await pilot.press(*keys)
            await pilot.pause()
            assert shows_current(), keys
        await pilot.press("1", "slash", *"graph")
        await wait_for(
            pilot, lambda: screen.view.query == "graph" and screen.view.found is not None
        )
        await pilot.pause()
        assert shows_current()
        await pilot.press("ctrl+l")
        await pilot.pause()
        assert shows_current()
        assert screen.shown_paper is plist(app).current


async def test_papers_imported_elsewhere_replace_the_list_at_once(
    seeded_home: Path, tmp_path: Path
) -> None:
    """A key handled right after the reload sees the new papers through the new positions."""
    source = one_paper_list(
        tmp_path / "first.jsonl", "Zeroth Paper", "We introduce ZERO, listed first of all."
    )
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        await pilot.press("s")  # one starred paper
        await wait_for(pilot, lambda: not app.session.busy)
        starred = set(app.session.state.statuses)
        Library(seeded_home).import_file(source, list_name="A first list")
        screen.reload_papers()
        screen.action_show_tab("starred")
        assert [p.id for p in plist(app).row_papers()] == list(starred)
        screen.action_show_tab("all")
        assert len(plist(app).rows) == 39


async def test_an_import_elsewhere_shows_up_even_if_the_library_read_it_first(
    seeded_home: Path, tmp_path: Path
) -> None:
    """The writer thread may read the new papers.json before the screen polls: the screen
    asks whether the papers *it shows* are stale, not whether the library has seen the file."""
    source = one_paper_list(
        tmp_path / "more.jsonl", "Elsewhere", "We introduce ELSEWHERE, imported aside."
    )
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        Library(seeded_home).import_file(source)
        app.library.papers()  # as the writer thread does when it resolves an id
        await wait_for(pilot, lambda: len(app.papers) == 39)
        await wait_for(pilot, lambda: "All 39" in tab_text(app))


async def test_an_absolute_path_typed_after_the_prefilled_folder(
    seeded_home: Path, tmp_path: Path
) -> None:
    """The import prompt starts at the current folder; typing /abs/path after it means it."""
    source = one_paper_list(
        tmp_path / "more.jsonl", "Typed Path", "We introduce TYPED, imported by hand."
    )
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("a")
        field = app.screen.query_one("#import-path", Input)
        assert field.value.endswith("/")
        field.cursor_position = len(field.value)
        await pilot.press(*str(source))
        await pilot.press("enter", "enter")
        await wait_for(pilot, lambda: len(app.papers) == 39)


def test_typed_paths() -> None:
    assert typed_path("/home/me/papers//data/list.jsonl") == Path("/data/list.jsonl")
    assert typed_path("/home/me/papers/~/list.jsonl") == Path("~/list.jsonl").expanduser()
    assert typed_path(" /home/me/papers/list.jsonl ") == Path("/home/me/papers/list.jsonl")
    assert typed_path("lists/a.txt") == Path("lists/a.txt")


async def test_a_search_that_ends_as_the_app_closes_is_let_go(seeded_home: Path) -> None:
    """A search's result that arrives once the app's list is gone (the app closing) raised
    NoMatches in its handler, on the way out (seen once in a full run)."""
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        await pilot.press("slash", *"graph")  # a real search, its result kept
        await wait_for(pilot, lambda: screen.view.query == "graph")
        assert screen.index is not None
        found = screen.searcher(screen.index)("graph")
        # the app closing (what ``begin_ending`` sets first): else the poll, each second,
        # met the list taken away before the app had ended (a loaded run took that long)
        app.ending = True
        await screen.paper_list.remove()
        screen.search_results("graph", found)  # nothing to list it in: let go
        await pilot.pause()


async def test_the_pane_says_why_the_list_is_empty(tmp_path: Path) -> None:
    """After the last paper of the Inbox was decided the pane said "No papers here" and to
    clear a search there was none of: it says why the list is empty, with the keys (as
    remapped) that lead on."""
    home = tmp_path / "home"
    library = Library(home)
    library.import_file(one_paper_list(tmp_path / "one.jsonl", "Only", "The one paper here."))
    (home / "config.toml").write_text('[keys]\ntab_starred = "w"\n')
    app = PapersApp(Library(home))
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        pane = app.main_screen.query_one(PaperPane)
        await pilot.press("r")
        await wait_for(
            pilot, lambda: "The Inbox is empty: every paper is triaged" in pane.text.plain
        )
        assert "w shows the starred papers" in pane.text.plain
        await pilot.press("w")
        await wait_for(pilot, lambda: "No paper in Starred yet" in pane.text.plain)
        await pilot.press("slash", *"only")  # the paper read: in All, not here
        await wait_for(pilot, lambda: "No paper in Starred matches the search" in pane.text.plain)
        assert "ctrl+l clears the search; 5 searches every paper" in pane.text.plain
        await pilot.press("ctrl+l", *"nothing")  # in no tab: All is not offered
        await wait_for(pilot, lambda: "in the library matches the search" in pane.text.plain)
        assert pane.text.plain.endswith("ctrl+l clears the search.")
