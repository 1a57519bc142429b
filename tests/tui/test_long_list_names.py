"""A list's name of hundreds of characters (``papers import FILE --list NAME``, a file's
name), markup and control characters in it: one line of the paper pane's state, whole where
the lists are listed, data everywhere."""

from __future__ import annotations

from pathlib import Path

from rich.cells import cell_len
from textual.widgets import Input, OptionList

from storage import Library
from tests.tui.helpers import make_app, messages, one_paper_list, opened, ready, wait_for
from tui.screens.remove import ListChooser
from tui.widgets.paper_pane import LEAST_NAME_CELLS, PaperPane, name_cells

LONG = "Very long list name " + " ".join(f"word{i}" for i in range(50))
MARKED = "[bold]x[/] \x1b[31mred\x07 " + "y" * 200
ABSTRACT = "We study very long list names and how a pane shows them on one line."


def state_of(pane: PaperPane) -> str:
    """The pane's state line (after the title and a blank line)."""
    return pane.text.plain.split("\n")[2]


def lists_home(home: Path, tmp_path: Path, *names: str) -> None:
    """A library of one paper, in a list of each of these names."""
    path = one_paper_list(tmp_path / "one.jsonl", "Long Names", ABSTRACT)
    library = Library(home)
    for name in names:
        library.import_file(path, list_name=name)


async def test_a_long_list_name_takes_one_line_of_the_pane(home: Path, tmp_path: Path) -> None:
    """The pane's state line held the whole name: four lines above the authors."""
    assert len(LONG) > 300
    lists_home(home, tmp_path, LONG)
    app = make_app(home)
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await ready(pilot)
        pane = screen.query_one(PaperPane)
        await wait_for(pilot, lambda: "Long Names" in pane.text.plain)
        state = state_of(pane)
        assert state.startswith("Inbox  ·  Very long list name word0") and "…" in state, state
        assert cell_len(state) <= pane._text_width, (state, pane._text_width)
        narrow = pane._text_width
        await pilot.press("z")  # the paper full screen: more of the name, still one line
        await wait_for(pilot, lambda: pane._text_width > narrow and state_of(pane) != state)
        wide = state_of(pane)
        assert len(wide) > len(state) and cell_len(wide) <= pane._text_width, wide
        # the whole name where the lists are listed
        chooser = await opened(pilot, "shift+delete", ListChooser)
        shown = chooser.query_one(OptionList).get_option_at_index(0).prompt
        assert LONG in str(shown)


async def test_names_holding_markup_and_controls_are_data(home: Path, tmp_path: Path) -> None:
    """Two long names share the line, cut; wider than there is room for both, the first and
    how many more; markup and controls show as typed, never obeyed."""
    lists_home(home, tmp_path, LONG, MARKED)
    app = make_app(home)
    async with app.run_test(size=(220, 40)) as pilot:
        screen = await ready(pilot)
        pane = screen.query_one(PaperPane)
        await wait_for(pilot, lambda: "Long Names" in pane.text.plain)
        state = state_of(pane)
        assert "Very long list name word" in state and "[bold]x[/] ␛[31mred␇ yyy" in state
        assert state.count("…") == 2 and cell_len(state) <= pane._text_width, state
        assert "\x1b" not in pane.text.plain and "\x07" not in pane.text.plain
        chooser = await opened(pilot, "shift+delete", ListChooser)
        prompts = [str(o.prompt) for o in chooser.query_one(OptionList).options]
        assert any(MARKED.replace("\x1b", "␛").replace("\x07", "␇") in p for p in prompts)
    app = make_app(home)
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await ready(pilot)
        pane = screen.query_one(PaperPane)
        await wait_for(pilot, lambda: "Long Names" in pane.text.plain)
        state = state_of(pane)
        assert "  ·  2 lists  ·  " in state or "  ·  +1 list  ·  " in state, state
        assert cell_len(state) <= pane._text_width, state


def test_names_share_the_room_the_short_ones_whole() -> None:
    assert name_cells([10, 20], 40) == [10, 20]
    assert name_cells([10, 300], 40) == [10, 30]
    assert name_cells([300, 300], 40) == [20, 20]
    assert name_cells([300, 300], 4) == [LEAST_NAME_CELLS, LEAST_NAME_CELLS]


async def test_the_import_toast_cuts_a_long_file_name(seeded_home: Path, tmp_path: Path) -> None:
    """A file named with 230 characters is a list of that name: the toast saying it was
    imported filled seven lines with it."""
    from tui.screens.importer import ImportScreen

    name = "A" * 20 + " long file name " + "z" * 200
    path = one_paper_list(tmp_path / f"{name}.jsonl", "Long Names", ABSTRACT)
    app = make_app(seeded_home)
    async with app.run_test(size=(120, 36)) as pilot:
        await ready(pilot)
        await opened(pilot, "a", ImportScreen)
        app.screen.query_one("#import-path", Input).value = str(path)
        await pilot.press("enter")
        await wait_for(pilot, lambda: any(m.startswith("Imported") for m in messages(app)))
        [said] = [m for m in messages(app) if m.startswith("Imported")]
        assert said.startswith("Imported AAAAAAAAAAAAAAAAAAAA long file name zzz") and "…:" in said
        assert len(said) < 120, said


async def test_the_removal_toast_cuts_a_long_list_name(home: Path, tmp_path: Path) -> None:
    """Removing a list of a 300-character name said it whole: a toast of seven lines."""
    from tui.screens.remove import ConfirmRemoval

    lists_home(home, tmp_path, LONG)
    app = make_app(home)
    async with app.run_test(size=(120, 36)) as pilot:
        await ready(pilot)
        await opened(pilot, "shift+delete", ListChooser)
        await opened(pilot, "enter", ConfirmRemoval)
        await pilot.press("y")
        await wait_for(pilot, lambda: any(m.startswith("Removed") for m in messages(app)))
        [said] = [m for m in messages(app) if m.startswith("Removed")]
        assert said.startswith("Removed the list “Very long list name word0") and "…”" in said
        assert len(said) < 120, said
