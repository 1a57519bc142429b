"""What the app says names each key as the user mapped it in config.toml, never the default
one a remapped key no longer is: the help's words, the dialogs' hints, the main screen's."""

from __future__ import annotations

from pathlib import Path

from rich.console import Console
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Label

from tests.tui.helpers import make_app, opened, ready, wait_for
from tui.commands import key_table
from tui.screens.export import ExportScreen
from tui.screens.help import HelpScreen
from tui.stray_keys import GAP_S


def config(home: Path, *settings: str) -> None:
    """``config.toml`` in HOME with these ``[keys]`` settings."""
    (home / "config.toml").write_text("[keys]\n" + "\n".join(settings) + "\n", encoding="utf-8")


def as_text(renderable: object, width: int = 400) -> str:
    """A Rich renderable (a help table) as the plain text it shows."""
    console = Console(width=width, record=True, file=open("/dev/null", "w"))  # noqa: SIM115
    console.print(renderable)
    return console.export_text()


async def test_the_help_names_the_keys_its_words_mention_as_remapped(seeded_home: Path) -> None:
    """The note editor's help said "a second Esc" with ``note_cancel = "ctrl+g"``: Esc then
    did nothing there. So did the search's "esc leaves", the paper's "h or esc go back"."""
    config(
        seeded_home,
        'note_cancel = "ctrl+g"',
        'leave_search = "ctrl+e"',
        'leave_pane = "H"',
        'line_down = "n"',
        'import_start = "ctrl+j"',
    )
    app = make_app(seeded_home)
    async with app.run_test(size=(120, 36)) as pilot:
        await ready(pilot)
        assert app.config_problems == []
        screen = await opened(pilot, "question_mark", HelpScreen)
        assert isinstance(screen, HelpScreen)
        shown = " ".join(
            as_text(screen.table(dialogs=dialogs, wide=wide)).replace("\n", " ")
            for dialogs in (False, True)
            for wide in (False, True)
        )
        shown = " ".join(shown.split())
        assert "(a second ctrl+g when typed in)" in shown
        assert "Search as you type (ctrl+e leaves, keeps the filter)" in shown
        assert "(then n/k/space scroll it; H or ctrl+e go back)" in shown
        assert "a folder at a second ctrl+j" in shown
        assert "a second Esc" not in shown and "esc leaves" not in shown
    # the README's table: the default keys
    assert "(a second Esc when typed in)" in key_table()


def test_a_help_names_keys_only_of_commands() -> None:
    """A ``{name}`` in a command's help is a command's id (``help_text`` fills in its key)."""
    import re

    from tui.commands import BY_ID, COMMANDS

    for command in COMMANDS:
        named = re.findall(r"\{([^}]*)\}", command.help)
        assert all(name in BY_ID for name in named), command.id
        assert command.help.count("{") == len(named) == command.help.count("}"), command.id


async def test_the_palette_key_is_remapped_and_named_so(seeded_home: Path) -> None:
    """The palette's key was Textual's ctrl+p whatever config.toml said, and so every word
    naming it ("later ones: ctrl+p, Search: NAME"); it is the command ``palette`` now."""
    from textual.content import Content

    from tui.screens.palette import Palette
    from tui.widgets.key_bar import KeyBar

    config(seeded_home, 'palette = "ctrl+k"')
    app = make_app(seeded_home)
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await ready(pilot)
        assert app.config_problems == []
        assert "^k palette" in Content.from_markup(screen.query_one(KeyBar).line(120)).plain
        help_screen = await opened(pilot, "question_mark", HelpScreen)
        assert isinstance(help_screen, HelpScreen)
        shown = " ".join(as_text(help_screen.table(wide=True)).split())
        assert "(later ones: ctrl+k, Search: NAME)" in shown
        assert help_screen.query_one(".dialog").border_subtitle == (
            "Esc, q, ? close · ctrl+k: command palette"
        )
        await pilot.press("escape")
        await opened(pilot, "ctrl+k", Palette)


async def test_a_key_remapped_onto_the_palettes_is_said_and_not_taken(seeded_home: Path) -> None:
    """``star = "ctrl+p"`` was taken without a word, and ctrl+p then opened the palette:
    a dead key. It clashes with the palette's key on every screen, as ctrl+q does."""
    config(seeded_home, 'star = "ctrl+p"')
    app = make_app(seeded_home)
    async with app.run_test(size=(120, 36)) as pilot:
        await ready(pilot)
        [problem] = app.config_problems
        assert 'star and palette both bind "ctrl+p"' in problem
        assert "star keeps its default keys (s)" in problem


def label_texts(screen: object) -> list[str]:
    """The words of every label of a screen."""
    from textual.widgets import Label

    assert isinstance(screen, Screen)
    return [str(label.render()) for label in screen.query(Label)]


async def test_the_export_dialog_names_its_keys_as_remapped(seeded_home: Path) -> None:
    """ "Tab or ↓ goes there, where Tab completes" and "its key, or ← →" said the default
    keys whatever the mapping: with ``export_field = "ctrl+n"`` ↓ no longer went there."""
    from tui.screens.export import ExportScreen

    config(
        seeded_home,
        'export_field = "ctrl+n"',
        'path_complete = "ctrl+t"',
        'export_previous_format = "["',
        'export_next_format = "]"',
    )
    app = make_app(seeded_home)
    async with app.run_test(size=(120, 36)) as pilot:
        await ready(pilot)
        assert app.config_problems == []
        shown = label_texts(await opened(pilot, "e", ExportScreen))
        assert "Format (its key, or [ ]):" in shown
        assert "File (Tab or ctrl+n goes there, where ctrl+t completes):" in shown
        await pilot.press("ctrl+n")
        assert app.screen.focused is not None and app.screen.focused.id == "export-path"


async def test_the_default_keys_are_named_as_before(seeded_home: Path) -> None:
    from tui.screens.export import ExportScreen

    app = make_app(seeded_home)
    async with app.run_test(size=(120, 36)) as pilot:
        await ready(pilot)
        shown = label_texts(await opened(pilot, "e", ExportScreen))
        assert "Format (its key, or ← →):" in shown
        assert "File (Tab or ↓ goes there, where Tab completes):" in shown


async def test_the_dialogs_hints_name_their_keys_as_remapped(seeded_home: Path) -> None:
    """The import dialog said "Enter imports · Tab completes a path · Esc cancels", the
    prompts "Enter to accept · Esc to cancel", the lists' picker "Enter chooses it · Esc
    closes", the removal "u (undo) brings it all back", the stats "Esc closes" and "star
    papers (s)": the default keys, whatever config.toml mapped."""
    from textual.widgets import Static

    from tui.screens.dialogs import TextPrompt
    from tui.screens.importer import ImportScreen
    from tui.screens.remove import ConfirmRemoval, ListChooser
    from tui.screens.stats import StatsScreen

    config(
        seeded_home,
        'import_start = "f2"',
        'import_cancel = "f3"',
        'import_field = "f4"',
        'path_complete = "f5"',
        'prompt_accept = "f6"',
        'prompt_cancel = "f7"',
        'lists_choose = "f8"',
        'lists_cancel = "f9"',
        'stats_close = "f10"',
        'star = "f"',
        'undo = "U"',
    )
    app = make_app(seeded_home)
    async with app.run_test(size=(120, 36)) as pilot:
        await ready(pilot)
        assert app.config_problems == []
        dialog = await opened(pilot, "a", ImportScreen)
        said = str(dialog.query_one("#import-status", Static).render())
        assert said == "f2 imports · f5 completes a path · f3 cancels"
        assert "A catalog to fill titles, authors and links (optional, f4):" in label_texts(dialog)
        await pilot.press("f3")
        dialog = await opened(pilot, "t", TextPrompt)
        assert "f6 to accept · f7 to cancel" in label_texts(dialog)
        await pilot.press("f7")
        dialog = await opened(pilot, "shift+delete", ListChooser)
        assert "Which list? f8 chooses it · f9 closes" in label_texts(dialog)
        dialog = await opened(pilot, "f8", ConfirmRemoval)
        words = [str(s.render()) for s in dialog.query(Static)]
        assert any("U (undo) brings it all back" in w for w in words), words
        await pilot.press("escape")
        dialog = await opened(pilot, "S", StatsScreen)
        assert dialog.query_one(".dialog").border_subtitle == "f10 closes"
        words = [str(s.render()) for s in dialog.query(Static)]
        assert any("star papers (f in the list) to queue them" in w for w in words), words


async def test_the_main_screen_names_its_keys_as_remapped(seeded_home: Path) -> None:
    """The tab bar numbered its tabs 1…9, the search box's hint began "/ search", the marked
    view said "space marks a paper, ctrl+a every paper" and ctrl+w on no saved search's tab
    "(6…9, …)", the palette "· 6": the default keys, whatever config.toml mapped."""
    from storage.files.saved_searches import SavedSearches
    from tests.tui.helpers import messages, tab_text, wait_for
    from tui.commands import PaperCommands
    from tui.widgets.search_box import SearchBox

    SavedSearches(seeded_home).save("Graphs", "graph")
    config(
        seeded_home,
        'tab_inbox = "f1"',
        'tab_all = "f5"',
        'tab_saved_first = "f6"',
        'search = "f2"',
        'mark = "v"',
        'mark_all = "V"',
    )
    app = make_app(seeded_home)
    async with app.run_test(size=(160, 36)) as pilot:
        screen = await ready(pilot)
        assert app.config_problems == []
        await wait_for(pilot, lambda: " f6 Graphs " in tab_text(app))
        shown = tab_text(app)
        assert shown.startswith(" f1 Inbox 38 ") and " 2 Starred 0 " in shown, shown
        assert " f5 All 38 " in shown and " 1 " not in shown
        assert screen.query_one(SearchBox).placeholder.startswith("f2 search: words")
        await pilot.press("M")
        assert "Nothing marked here: v marks a paper, V every paper." in messages(app)
        await pilot.press("ctrl+w")
        said = "closes one (f6, 7, 8, 9, or ctrl+p: Search)."
        assert any(said in m for m in messages(app)), messages(app)
        entries = [words for _, words, _ in PaperCommands(screen)._entries()]
        assert "Show its tab: “graph” · f6" in entries


async def test_the_welcome_and_the_config_toasts_name_keys_as_remapped(tmp_path: Path) -> None:
    """The first run's welcome said "`a` here … r, x, s decide; ? shows every key", and
    the toast of more config problems than fit "the help (?) lists them all"."""
    from tests.tui.helpers import messages, wait_for

    home = tmp_path / "new-home"
    home.mkdir()
    config(
        home,
        'import = "A"',
        'read = "f"',
        'help = "f1"',
        *(f'{name} = "notakey"' for name in ("skip", "tag", "note", "zoom")),
    )
    app = make_app(home)  # a first run: the bundled sample
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await ready(pilot)
        await wait_for(pilot, lambda: screen.detail.text.plain.startswith("Welcome to papers"))
        welcome = " ".join(screen.detail.text.plain.split())
        assert "list with `A` here" in welcome
        assert "f, x, s decide; f1 shows every key." in welcome
        said = messages(app)
        assert any("the help (f1) lists them all" in m for m in said), said


async def test_the_help_key_as_remapped_closes_the_help_it_opened(seeded_home: Path) -> None:
    """With ``help = "f10"``, f10 opened the help and did nothing there: only Esc, q and ``?``
    (the default help key) closed it. The key that opens it closes it, as ``?`` does."""
    config(seeded_home, 'help = "f10"')
    app = make_app(seeded_home)
    async with app.run_test(size=(120, 36)) as pilot:
        await ready(pilot)
        await opened(pilot, "f10", HelpScreen)
        await pilot.press("f10")
        await pilot.pause()
        assert not isinstance(app.screen, HelpScreen)
        await opened(pilot, "f10", HelpScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, HelpScreen)


async def test_the_helps_subtitle_names_every_closing_key_as_remapped(seeded_home: Path) -> None:
    """It said "esc closes": q and ``?`` close it too, and so does the help's own key
    remapped (``help = "f10"``), which it never named; closing keys set explicitly
    (``help_close = "x"``) are the only ones, as the similar papers' and the stats' are."""
    app = make_app(seeded_home)
    async with app.run_test(size=(120, 36)) as pilot:
        await ready(pilot)
        screen = await opened(pilot, "question_mark", HelpScreen)
        subtitle = screen.query_one(VerticalScroll).border_subtitle
        assert subtitle == "Esc, q, ? close · ctrl+p: command palette"
    config(seeded_home, 'help_close = "x"', 'help = "f10"')
    app = make_app(seeded_home)
    async with app.run_test(size=(120, 36)) as pilot:
        await ready(pilot)
        screen = await opened(pilot, "f10", HelpScreen)
        assert screen.query_one(VerticalScroll).border_subtitle.startswith("x closes · ")
    config(seeded_home, 'help = "f10"')
    app = make_app(seeded_home)
    async with app.run_test(size=(120, 36)) as pilot:
        await ready(pilot)
        screen = await opened(pilot, "f10", HelpScreen)
        subtitle = screen.query_one(VerticalScroll).border_subtitle
        assert subtitle == "Esc, q, f10 close · ctrl+p: command palette"  # ? no longer
        await pilot.press("question_mark")
        await pilot.pause(0.2)
        assert app.screen is screen


async def test_textuals_own_keys_are_named_only_while_no_remapped_key_takes_them(
    seeded_home: Path,
) -> None:
    """The help said "(ctrl+u: everything before it)" with ``search_delete_word = "ctrl+u"``
    (ctrl+u then deleted a word), and "Tab too" where a command remapped to Tab took it."""
    config(
        seeded_home,
        'search_delete_word = "ctrl+u"',
        'clear_search = "tab"',
        'export_next_format = "tab"',
    )
    app = make_app(seeded_home)
    async with app.run_test(size=(120, 36)) as pilot:
        await ready(pilot)
        assert app.config_problems == []
        await pilot.press("slash", *"graph neural", "ctrl+u")
        await wait_for(pilot, lambda: app.main_screen.search_box.value == "graph ")
        await pilot.press("tab")  # the search cleared, not left for the results
        await wait_for(pilot, lambda: app.main_screen.search_box.value == "")
        assert app.main_screen.search_box.has_focus
        await pilot.press("escape")
        await pilot.pause(GAP_S + 0.1)
        screen = await opened(pilot, "question_mark", HelpScreen)
        assert isinstance(screen, HelpScreen)
        shown = " ".join(as_text(screen.table(dialogs=True, wide=True)).split())
        assert "Search box: delete the word before the cursor search_delete_word" in shown
        assert "everything before it" not in shown
        assert "keeping the filter (↓ too)" in shown
        assert "Export: between the format and the file's path export_field" in shown
        await pilot.press("escape")
        await pilot.pause(GAP_S + 0.1)
        export = await opened(pilot, "e", ExportScreen)
        labels = " ".join(str(label.render()) for label in export.query(Label))
        assert "(↓ goes there, where Tab completes)" in labels and "Tab or" not in labels
    # the defaults name them, as the README does
    table = key_table()
    assert "keeping the filter (Tab and ↓ too)" in table
    assert "delete back to a space (ctrl+u: everything before it)" in table
    assert "the format and the file's path (Tab too)" in table


async def test_the_palettes_esc_is_remapped_and_named_so(seeded_home: Path) -> None:
    """The palette's Esc is ours (``palette_close``, so that Esc after Enter comes after
    it): remapped, the key closes the palette, Esc no longer does, and the footer says so."""
    from textual.content import Content

    from tui.screens.main import MainScreen
    from tui.screens.palette import Palette
    from tui.widgets.key_bar import KeyBar

    config(seeded_home, 'palette_close = "ctrl+g"')
    app = make_app(seeded_home)
    async with app.run_test(size=(120, 36)) as pilot:
        await ready(pilot)
        assert app.config_problems == []
        palette = await opened(pilot, "ctrl+p", Palette)
        bar = app.query_one(KeyBar)
        await wait_for(pilot, lambda: bar.scope == "palette")
        assert Content.from_markup(bar.line(120)).plain.strip().endswith("ctrl+g close")
        await pilot.press("escape")
        await pilot.pause(0.2)
        assert app.screen is palette
        await pilot.press("ctrl+g")
        await wait_for(pilot, lambda: isinstance(app.screen, MainScreen))
