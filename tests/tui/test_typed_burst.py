"""Keys typed in one burst (a paste without brackets, ``tmux send-keys "list.bib" Enter``, a
fast typist, keys pressed while the app is busy) act as if typed one by one.

Enter typed with the path before it acts on the path as typed, whole.
The dialogs' Enter is bound with priority ("from either field") and ran as the app received
it, while the characters just before it still waited in the field's queue: the import dialog
imported the folder its field was filled with (the whole current folder, every list in it)
instead of the file typed after it, and the export dialog wrote where the field pointed before
the name was typed. The keys are posted here as a terminal's driver posts them: all at once.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual import events
from textual.app import App
from textual.widgets import Input, Static

from storage import Library
from tests.tui.helpers import make_app, messages, one_paper_list, opened, ready, wait_for
from tui.keys import character_key
from tui.screens.export import ExportScreen
from tui.screens.importer import ImportScreen
from tui.screens.main import MainScreen


def burst(app: App[object], text: str, *keys: str) -> None:
    """``text`` then ``keys`` (Enter when none), posted to the app in one go, as a terminal's
    driver reads them."""
    for character in text:
        app.post_message(events.Key(character_key(character), character))
    for key in keys or ("enter",):
        app.post_message(events.Key(key, NAMED.get(key, key)))


NAMED = {"enter": "\r", "escape": "\x1b", "tab": "\t", "slash": "/"}


async def test_a_path_typed_with_enter_in_a_burst_imports_that_file_not_the_folder(
    seeded_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lists = tmp_path / "lists"
    lists.mkdir()
    one_paper_list(lists / "wanted.jsonl", "Wanted Paper", "We introduce WANTED, the one typed.")
    one_paper_list(lists / "other.jsonl", "Other Paper", "We introduce OTHER, beside it.")
    monkeypatch.chdir(lists)  # the field starts with this folder
    app = make_app(seeded_home)
    async with app.run_test(size=(120, 36)) as pilot:
        await ready(pilot)
        await opened(pilot, "a", ImportScreen)
        assert app.screen.query_one("#import-path", Input).value == f"{lists}/"
        burst(app, "wanted.jsonl")
        await wait_for(pilot, lambda: isinstance(app.screen, MainScreen))
        await wait_for(pilot, lambda: any(m.startswith("Imported") for m in messages(app)))
    titles = {p.title for p in Library(seeded_home).papers()}
    assert "Wanted Paper" in titles
    assert "Other Paper" not in titles  # the folder was not imported


async def test_a_path_typed_with_enter_in_a_burst_is_where_the_export_writes(
    seeded_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    app = make_app(seeded_home)
    async with app.run_test(size=(120, 36)) as pilot:
        await ready(pilot)
        await opened(pilot, "e", ExportScreen)
        await pilot.press("tab")
        field = app.screen.query_one("#export-path", Input)
        assert app.focused is field
        field.value = f"{tmp_path}/"
        field.cursor_position = len(field.value)
        burst(app, "mine.md")
        await wait_for(pilot, (tmp_path / "mine.md").exists)
        assert not (tmp_path / "papers-inbox.md").exists()
        assert not isinstance(app.screen, ExportScreen)


async def test_what_enter_in_a_burst_says_stays_on_the_dialog(
    seeded_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The field's changes from the keys before Enter come after what Enter said: they no
    longer wipe it (the dialog seemed to take no Enter), nor forget the warning that the file
    exists (a second Enter asked again instead of replacing it)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "there.md").write_text("kept until a second Enter\n")
    app = make_app(seeded_home)
    async with app.run_test(size=(120, 36)) as pilot:
        await ready(pilot)
        await pilot.press("e", "tab")
        await wait_for(pilot, lambda: isinstance(app.screen, ExportScreen))
        screen = app.screen
        field = screen.query_one("#export-path", Input)
        note = screen.query_one("#export-note", Static)
        field.value = f"{tmp_path}/"
        field.cursor_position = len(field.value)
        burst(app, "missing/mine.md")
        await wait_for(pilot, lambda: "no such folder" in str(note.render()))
        await pilot.pause(0.2)
        assert "no such folder" in str(note.render())
        field.value = f"{tmp_path}/"
        field.cursor_position = len(field.value)
        burst(app, "there.md")
        await wait_for(pilot, lambda: "Enter again replaces it" in str(note.render()))
        await pilot.pause(0.2)
        assert "Enter again replaces it" in str(note.render())
        await pilot.press("enter")
        await wait_for(pilot, lambda: not isinstance(app.screen, ExportScreen))
    assert (tmp_path / "there.md").read_text().startswith("# ")


async def test_a_dialog_opened_in_a_burst_takes_the_keys_typed_after_its_key(
    seeded_home: Path,
) -> None:
    """``t mytag Enter``: the tag went to the list the prompt opened over, and was lost."""
    app = make_app(seeded_home)
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await ready(pilot)
        paper = screen.paper_list.current
        assert paper is not None
        burst(app, "tmytag")
        await wait_for(
            pilot, lambda: Library(seeded_home).triage().tags.get(paper.id) == ("mytag",)
        )
        assert isinstance(app.screen, MainScreen)


async def test_a_key_after_one_whose_dialog_takes_time_goes_to_that_dialog(
    seeded_home: Path,
) -> None:
    """``m q``: similar papers open once a thread found them; the ``q`` came first and quit
    the app instead of closing them."""
    app = make_app(seeded_home)
    async with app.run_test(size=(120, 36)) as pilot:
        await ready(pilot)
        burst(app, "mq", "j")
        # (a busy machine takes its time: the keys are held back until the dialog is up, and
        # then the j after it moves the list; the app quitting ends the wait at once)
        await wait_for(pilot, lambda: app.main_screen.paper_list.cursor == 1 or app.ending)
        await pilot.pause(0.3)
        assert app.is_running and not app.ending
        assert isinstance(app.screen, MainScreen)
        assert app.main_screen.paper_list.cursor == 1  # the j after the closed dialog


async def test_keys_before_a_priority_key_act_first(
    seeded_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``j j j /`` moved nothing (``/`` ran first); ``e j Enter`` wrote Markdown, not JSON."""
    monkeypatch.chdir(tmp_path)
    app = make_app(seeded_home)
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await ready(pilot)
        burst(app, "jjj", "slash")
        await wait_for(pilot, lambda: app.focused is screen.search_box)
        await pilot.pause(0.3)
        assert screen.paper_list.cursor == 3
        assert screen.search_box.value == ""
        await pilot.press("escape")
        await pilot.pause(0.5)  # (a key right after leaving the box is held back)
        burst(app, "ej")
        await wait_for(pilot, (tmp_path / "papers-inbox.json").exists)
        assert not (tmp_path / "papers-inbox.md").exists()


async def test_esc_and_a_letter_read_as_alt_leave_the_search_box(seeded_home: Path) -> None:
    """A terminal sends Esc and a letter within 100 ms as Alt+letter: ``graph`` Esc ``j``
    typed ``graphj`` into the search box instead of leaving it and moving down."""
    app = make_app(seeded_home)
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await ready(pilot)
        await pilot.press("slash", *"graph")
        await wait_for(pilot, lambda: screen.view.query == "graph")
        app.post_message(events.Key("alt+j", "j"))
        await wait_for(pilot, lambda: screen.paper_list.cursor == 1)
        assert screen.search_box.value == "graph"
        assert app.focused is screen.paper_list


async def test_esc_and_a_digit_read_as_one_sign_leave_the_search_for_that_tab(
    seeded_home: Path,
) -> None:
    """``/graph``, Esc, ``2`` within tmux's escape-time: tmux sends ``ESC 2`` at once, which
    Textual reads as ``™`` (macOS's Option+2): it was typed into the search box, ``graph™``,
    and the Starred tab never showed. (The app's terminal reads it as alt+2.)"""
    from tests.tui.test_search_word_keys import terminal_keys

    app = make_app(seeded_home)
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await ready(pilot)
        await pilot.press("slash", *"graph")
        await wait_for(pilot, lambda: screen.view.query == "graph")
        for event in terminal_keys("\x1b2"):
            app.post_message(event)
        await wait_for(pilot, lambda: app.focused is screen.paper_list)
        await wait_for(pilot, lambda: screen.view.tab == "starred")
        assert "™" not in screen.search_box.value


#: Signs macOS's Option key types with the digits (3, 6, 1, 0, 9), which Textual reads Esc
#: and a digit as (the app's terminal does not: ``tui.terminal``), and the tabs of two of them.
SIGNS = "£§¡ºª"
TABS = {"£": "read", "¡": "inbox"}


@pytest.mark.parametrize("sign", sorted(TABS))
async def test_a_digit_sign_on_the_list_shows_the_tab_and_keeps_the_search(
    seeded_home: Path, sign: str
) -> None:
    """On the list, ``£`` (Esc 3 read as one, or macOS's Option+3) showed the Read tab after
    an Esc that cleared the search filter: it now shows the tab alone, the filter kept, as
    ``3`` does."""
    tab = TABS[sign]
    app = make_app(seeded_home)
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await ready(pilot)
        await pilot.press("2", "slash", *"graph", "enter")
        await wait_for(pilot, lambda: app.focused is screen.paper_list)
        await wait_for(pilot, lambda: screen.view.query == "graph")
        await pilot.pause(0.5)  # (a key right after leaving the box is held back)
        app.post_message(events.Key(character_key(sign), sign))
        await wait_for(pilot, lambda: screen.view.tab == tab)
        await pilot.pause(0.3)
        assert screen.view.query == "graph" and screen.search_box.value == "graph"
        assert app.focused is screen.paper_list and app.screen is screen


@pytest.mark.parametrize("sign", SIGNS)
async def test_a_digit_sign_is_typed_in_a_dialogs_field_and_the_palettes(
    seeded_home: Path, sign: str
) -> None:
    """In a text field (the tag prompt's, the palette's; the search box's too:
    ``tests/tui/test_digit_signs.py``) the sign is typed: the dialog stays open, no tab
    changes."""
    from textual.command import CommandInput, CommandPalette

    from tui.screens.dialogs import TextPrompt

    app = make_app(seeded_home)
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await ready(pilot)
        prompt = await opened(pilot, "t", TextPrompt)
        app.post_message(events.Key(character_key(sign), sign))
        await wait_for(pilot, lambda: prompt.query_one(Input).value == sign)
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is screen)
        await pilot.press("ctrl+p")
        await wait_for(pilot, lambda: isinstance(app.screen, CommandPalette))
        app.post_message(events.Key(character_key(sign), sign))
        palette = app.screen
        field = palette.query_one(CommandInput)
        await wait_for(pilot, lambda: field.value == sign)
        assert isinstance(app.screen, CommandPalette) and screen.view.tab == "inbox"
        # its search for the sign ended: Textual's palette, taken down with the app while its
        # search listed what it found, raised NoMatches (a loaded run)
        await wait_for(
            pilot, lambda: not any(w.node is palette and not w.is_finished for w in app.workers)
        )


async def test_alt_and_a_letter_in_a_dialog_types_the_letter(seeded_home: Path) -> None:
    """Only the search box reads Alt+letter as Esc then the letter: in the note editor Esc
    closed it, and the note typed was thrown away (found by a review)."""
    from textual.widgets import TextArea

    from tui.screens.dialogs import NoteEditor

    app = make_app(seeded_home)
    async with app.run_test(size=(120, 36)) as pilot:
        await ready(pilot)
        await opened(pilot, "n", NoteEditor)
        await pilot.press(*"hello")
        app.post_message(events.Key("alt+x", "x"))
        await pilot.pause(0.3)
        assert isinstance(app.screen, NoteEditor)
        assert app.screen.query_one(TextArea).text == "hellox"


async def test_moves_typed_after_enter_in_the_search_box_move_in_its_results(
    seeded_home: Path,
) -> None:
    """``/robot Enter j j j``: the results came after the j's and put the cursor back on the
    first paper (found at the glass in 7 of 18 bursts); the moves now wait for them."""
    import time

    app = make_app(seeded_home)
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await ready(pilot)
        searcher = screen.search_box._searcher
        assert searcher is not None

        def slow(query: str):  # type: ignore[no-untyped-def]
            time.sleep(0.3)  # a busy machine's search
            return searcher(query)

        screen.search_box.use(slow)
        burst(app, "/graph", "enter", "j", "j")
        await wait_for(pilot, lambda: screen.view.query == "graph" and screen.view.found)
        await pilot.pause(0.3)
        assert screen.paper_list.cursor == 2


async def test_esc_and_a_letter_read_as_alt_close_a_dialog_of_no_field(
    seeded_home: Path,
) -> None:
    """Esc then ``j`` within 100 ms over the help (Alt+j to the app) did nothing at all."""
    from tui.screens.help import HelpScreen

    app = make_app(seeded_home)
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await ready(pilot)
        await opened(pilot, "question_mark", HelpScreen)
        app.post_message(events.Key("alt+j", "j"))
        await wait_for(pilot, lambda: isinstance(app.screen, MainScreen))
        await wait_for(pilot, lambda: screen.paper_list.cursor == 1)


async def test_a_path_pasted_right_after_the_key_that_opens_the_dialog_goes_into_it(
    seeded_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``a``, a path pasted, Enter, at once: the paste went to the list under the dialog
    (not mounted yet), and Enter met the folder the field starts with."""
    lists = tmp_path / "lists"
    lists.mkdir()
    wanted = one_paper_list(lists / "wanted.jsonl", "Pasted Paper", "We introduce PASTED here.")
    monkeypatch.chdir(lists)
    app = make_app(seeded_home)
    async with app.run_test(size=(120, 36)) as pilot:
        await ready(pilot)
        app.post_message(events.Key("a", "a"))
        app.post_message(events.Paste(f"/{wanted}"))  # after the folder: // starts anew
        app.post_message(events.Key("enter", "\r"))
        await wait_for(pilot, lambda: any(m.startswith("Imported") for m in messages(app)))
    assert "Pasted Paper" in {p.title for p in Library(seeded_home).papers()}
