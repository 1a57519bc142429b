"""Each dialog names every key that closes it, in its footer and in its words, from its
bindings: the similar papers, the topics, the help, the queue's sorts and the tab list said
``esc Close`` (and "Esc closes"), though q closes each of them too (m the similar papers,
? the help); the removal's footer said ``n Cancel``, though Esc cancels too."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.text import Text
from textual.widgets import Label

from storage import Library
from tests.tui.helpers import make_app, opened, ready, wait_for
from tests.tui.test_dialog_sizes import footer
from tui.widgets.key_bar import KeyBar


def test_every_dialogs_footer_names_every_key_that_closes_it() -> None:
    """Every dialog's closing command: its footer entry names each key it is bound to (with
    its opener's: ``bound_keys``), as remapped too."""
    from tui.commands import COMMANDS, SCOPES, bound_keys, closes, key_label

    for keymap in ({}, {"similar_close": "escape,x", "help": "f10", "prompt_cancel": "ctrl+g"}):
        bar = KeyBar(keymap)
        for scope in SCOPES:
            closing = [c for c in COMMANDS if c.scope == scope and closes(c)]
            if not closing:
                continue
            bar.scope = scope
            named = {entry[0]: entry[2] for entry in bar.entries()}
            [command] = closing
            wanted = " ".join(dict.fromkeys(key_label(k) for k in bound_keys(command, keymap)))
            assert named[command.id] == wanted, (scope, named)


def test_the_key_that_opens_a_dialog_closes_it_as_remapped() -> None:
    """``similar_close`` and ``stats_close`` had their openers' default keys (m, S) among
    their own, as ``help_close`` had ``?``: with ``similar = "w"`` m still closed the similar
    papers and w did not. The opener's key closes its dialog as remapped now, unless the user
    set the closing keys themselves; an opener's key the dialog uses for another command
    keeps that one (``similar = "enter"``: Enter goes to the paper)."""
    from tui.commands import closing_keys, textual_keymap

    assert closing_keys("similar", {}) == ["escape", "q", "m"]
    assert closing_keys("stats", {}) == ["escape", "q", "S"]
    assert closing_keys("help", {}) == ["escape", "q", "question_mark"]
    assert closing_keys("similar", {"similar": "w"}) == ["escape", "q", "w"]
    assert closing_keys("stats", {"stats": "W,f9"}) == ["escape", "q", "W", "f9"]
    assert closing_keys("help", {"help": "f10"}) == ["escape", "q", "f10"]
    assert closing_keys("similar", {"similar": "w", "similar_close": "escape"}) == ["escape"]
    assert closing_keys("similar", {"similar": "enter"}) == ["escape", "q"]
    assert textual_keymap({"similar": "w", "stats_close": "x"}) == {
        "similar": "w",
        "similar_close": "escape,q,w",
        "stats_close": "x",
    }
    assert textual_keymap({}) == {}


#: A dialog: the key that opens it, its footer's closing entry, its words' (None: it has
#: none about its keys), and a key that closes it other than Esc.
DIALOGS = [
    ("m", "esc q m Close", "Esc, q, m close", "m"),
    ("T", "esc q Close", "Esc, q close", "q"),
    ("question_mark", "esc q ? Close", "Esc, q, ? close", "q"),
    ("0", "esc q Close", None, "q"),
    ("Q", "esc q Close", None, "q"),
    ("delete", "n esc q Cancel", None, "n"),
    ("shift+delete", "esc q Cancel", "Esc, q close", "q"),
]


@pytest.mark.parametrize(("key", "closing", "words", "closer"), DIALOGS)
async def test_each_dialog_names_the_keys_that_close_it(
    seeded_home: Path, key: str, closing: str, words: str | None, closer: str
) -> None:
    library = Library(seeded_home)
    for paper in library.papers()[:3]:
        library.set_status(paper.id, "starred")
    app = make_app(seeded_home)
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await ready(pilot)
        if key == "Q":  # the reading queue's, on the Starred tab
            await pilot.press("2")
            await wait_for(pilot, lambda: screen.view.tab == "starred")
        await pilot.press(key)
        await wait_for(pilot, lambda: app.screen is not screen)
        dialog = app.screen
        await wait_for(pilot, lambda: closing in footer(app))
        if words is not None:
            said = [str(dialog.query_one(".dialog").border_subtitle)]
            said += [str(label.render()) for label in dialog.query(Label)]
            assert any(words in line for line in said), said
        await pilot.press(closer)
        await wait_for(pilot, lambda: app.screen is screen)


#: A remapped opener: its key, the dialog's kind, the default key that no longer closes it.
OPENERS = [("similar", "w", "SimilarScreen", "m"), ("stats", "W", "StatsScreen", "S")]


@pytest.mark.parametrize(("command", "key", "kind", "former"), OPENERS)
async def test_a_remapped_opener_closes_its_dialog_and_its_default_key_does_not(
    seeded_home: Path, command: str, key: str, kind: str, former: str
) -> None:
    """With ``similar = "w"`` the similar papers opened with w, and w did nothing there
    while m closed them, and their footer and words said "Esc, q, m close"; so the stats
    with ``stats = "W"`` and S. Set explicitly, the closing keys are the user's alone."""
    (seeded_home / "config.toml").write_text(f'[keys]\n{command} = "{key}"\n', "utf-8")
    app = make_app(seeded_home)
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await ready(pilot)
        assert app.config_problems == []
        await pilot.press(key)
        await wait_for(pilot, lambda: type(app.screen).__name__ == kind)
        dialog = app.screen
        await wait_for(pilot, lambda: f"esc q {key} Close" in footer(app))
        said = [str(dialog.query_one(".dialog").border_subtitle)]
        assert any(f"Esc, q, {key} close" in line for line in said), said
        await pilot.press(former)  # the opener's default key: nothing here now
        await pilot.pause(0.2)
        assert app.screen is dialog
        await pilot.press(key)  # the opener's key as remapped: closes it (a toggle)
        await wait_for(pilot, lambda: app.screen is screen)
    (seeded_home / "config.toml").write_text(
        f'[keys]\n{command} = "{key}"\n{command}_close = "escape"\n', "utf-8"
    )
    app = make_app(seeded_home)
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await ready(pilot)
        await pilot.press(key)
        await wait_for(pilot, lambda: type(app.screen).__name__ == kind)
        dialog = app.screen
        await wait_for(pilot, lambda: "esc Close" in footer(app))
        await pilot.press(key, "q")  # set explicitly: Esc alone closes
        await pilot.pause(0.2)
        assert app.screen is dialog
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is screen)


async def test_the_dialogs_with_a_field_name_every_key_that_cancels(seeded_home: Path) -> None:
    """The prompts, the note editor, the import and the export dialogs named the first key
    of their cancel command alone ("Esc to cancel", "Esc cancels") where their footer named
    each (``esc ctrl+g Cancel``): with ``prompt_cancel = "escape,ctrl+g"`` ctrl+g cancelled
    unsaid. Their words name every key that cancels now, from the bindings, as the footer."""
    from textual.containers import Vertical
    from textual.widgets import Static, TextArea

    from tui.screens.dialogs import NoteEditor, TextPrompt
    from tui.screens.export import ExportScreen
    from tui.screens.importer import ImportScreen

    (seeded_home / "config.toml").write_text(
        "[keys]\n"
        'prompt_cancel = "escape,ctrl+g"\n'
        'note_cancel = "escape,ctrl+g"\n'
        'import_cancel = "escape,f3"\n'
        'export_cancel = "f4,escape"\n',
        "utf-8",
    )
    app = make_app(seeded_home)
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await ready(pilot)
        assert app.config_problems == []
        dialog = await opened(pilot, "t", TextPrompt)
        await wait_for(pilot, lambda: "esc ctrl+g Cancel" in footer(app))
        said = [str(label.render()) for label in dialog.query(Label)]
        assert "Enter to accept · Esc, ctrl+g to cancel" in said, said
        await pilot.press("ctrl+g")
        await wait_for(pilot, lambda: app.screen is screen)
        dialog = await opened(pilot, "n", NoteEditor)
        said = [str(label.render()) for label in dialog.query(Label)]
        assert "ctrl+s to save · Esc, ctrl+g to cancel · an empty note is removed" in said, said
        dialog.query_one(TextArea).insert("typed")
        await pilot.press("ctrl+g")  # the first says what a second throws away
        said = [str(label.render()) for label in dialog.query(Label)]
        wanted = "Not saved: Esc or ctrl+g again throws away what you typed · ctrl+s saves"
        assert wanted in said, said
        await pilot.press("ctrl+g")
        await wait_for(pilot, lambda: app.screen is screen)
        dialog = await opened(pilot, "a", ImportScreen)
        said = str(dialog.query_one("#import-status", Static).render())
        assert said == "Enter imports · Tab completes a path · Esc, f3 cancel"
        await pilot.press("f3")
        await wait_for(pilot, lambda: app.screen is screen)
        dialog = await opened(pilot, "e", ExportScreen)
        subtitle = str(dialog.query_one(".dialog", Vertical).border_subtitle)
        assert subtitle.endswith("· f4, Esc cancel"), subtitle
        await pilot.press("f4")
        await wait_for(pilot, lambda: app.screen is screen)


async def test_a_remapped_opener_closes_its_dialog_over_its_lists_own_key(
    seeded_home: Path,
) -> None:
    """An opener remapped to a key the dialog's list or scroll binds itself (Home, End: free
    on the main screen once ``first`` and ``last`` left them) did not close it, though its
    footer and words said so: the focused list took the key first (the similar papers' Home
    went to the first of them, the help's End to its end). The help's key closed it whatever
    its scroll bound (``HelpScreen.on_key``) until the openers' keys became bindings."""
    from tui.screens.help import HelpScreen
    from tui.screens.similar import SimilarScreen

    (seeded_home / "config.toml").write_text(
        '[keys]\nfirst = "g"\nlast = "G"\nsimilar = "home"\nhelp = "end"\n', "utf-8"
    )
    app = make_app(seeded_home)
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await ready(pilot)
        assert app.config_problems == []
        dialog = await opened(pilot, "home", SimilarScreen)
        await wait_for(pilot, lambda: "esc q home Close" in footer(app))
        await pilot.press("down", "home")
        await wait_for(pilot, lambda: app.screen is screen)
        dialog = await opened(pilot, "end", HelpScreen)
        await wait_for(pilot, lambda: "esc q end Close" in footer(app))
        await pilot.press("end")
        await wait_for(pilot, lambda: app.screen is screen)
        assert not dialog.is_attached


#: A list dialog: the key that opens it, its kind, its closing command set with a key its
#: list binds itself (the arrows, Home, End, PageDown), and that key.
OWN_KEYS = [
    ("m", "SimilarScreen", "similar_close", "down"),
    ("T", "TopicsScreen", "topics_close", "end"),
    ("shift+delete", "ListChooser", "lists_cancel", "down"),
    ("Q", "QueueSortDialog", "queue_sort_cancel", "pagedown"),
    ("0", "TabPicker", "tabs_cancel", "home"),
]


@pytest.mark.parametrize(("opener", "kind", "command", "key"), OWN_KEYS)
async def test_a_closing_key_set_to_its_lists_own_key_closes_the_dialog(
    seeded_home: Path, opener: str, kind: str, command: str, key: str
) -> None:
    """``similar_close = "escape,down"``: the footer said "esc ↓ Close", and ↓ went to the
    next paper of the list, which has the focus and took the key before the dialog's binding
    (an opener's key was taken first since 16ea44a; a closing command's own as set was not).
    The dialog takes each of its closing keys first now."""
    library = Library(seeded_home)
    for paper in library.papers()[:3]:
        library.set_status(paper.id, "starred")
    (seeded_home / "config.toml").write_text(f'[keys]\n{command} = "escape,{key}"\n', "utf-8")
    app = make_app(seeded_home)
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await ready(pilot)
        assert app.config_problems == []
        if opener == "Q":  # the reading queue's, on the Starred tab
            await pilot.press("2")
            await wait_for(pilot, lambda: screen.view.tab == "starred")
        await pilot.press(opener)
        await wait_for(pilot, lambda: type(app.screen).__name__ == kind)
        await pilot.press(key)
        await wait_for(pilot, lambda: app.screen is screen)


def test_a_dialogs_footer_keeps_its_other_keys_when_its_closing_keys_do_not_fit() -> None:
    """``similar = "一,丁,…"`` (a thousand keys): the closing entry, every key that closes the
    dialog, is wider than the line and goes, and the footer was blank, though "Enter Go to
    it" fits (its narrowing took the entries out of the list it then looked for one in)."""
    many = ",".join(chr(0x4E00 + i) for i in range(1000))
    for keymap in ({"similar": many}, {"similar_close": f"escape,{many[:400]}"}):
        bar = KeyBar(keymap)
        bar.scope = "similar"
        assert footer_text(bar.line(120)) == "Enter Go to it", keymap
    bar = KeyBar({})
    bar.scope = "similar"
    assert footer_text(bar.line(120)) == "esc q m Close  Enter Go to it  j Down  k Up"


def footer_text(markup: str) -> str:
    """A footer's line without its markup."""
    return str(Text.from_markup(markup))


#: A dialog's opener remapped, with its closing command written out as its default was
#: before the opener's key left it (28919f9): the opener, its new key, the dialog's kind,
#: the closing setting, the old default key that closes nothing now, the footer's entry.
WRITTEN_OUT = [
    ("similar", "w", "SimilarScreen", 'similar_close = "escape,q,m"', "m", "esc q w Close"),
    ("stats", "W", "StatsScreen", 'stats_close = "escape, q, S"', "S", "esc q W Close"),
    ("help", "f10", "HelpScreen", 'help_close = "q,?,escape"', "?", "esc q f10 Close"),
]


@pytest.mark.parametrize(("command", "key", "kind", "setting", "former", "shown"), WRITTEN_OUT)
async def test_a_closing_setting_written_out_as_its_old_default_is_the_default(
    seeded_home: Path, command: str, key: str, kind: str, setting: str, former: str, shown: str
) -> None:
    """A config.toml that spelt out the old closing defaults (``similar_close =
    "escape,q,m"``, as the README's key table lists them) counted as the user's own choice:
    with ``similar = "w"`` m still closed the similar papers and w, which opened them, did
    not. Such a setting is the default now: the opener's key as remapped closes its dialog."""
    (seeded_home / "config.toml").write_text(f'[keys]\n{command} = "{key}"\n{setting}\n', "utf-8")
    app = make_app(seeded_home)
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await ready(pilot)
        assert app.config_problems == []
        await pilot.press(key)
        await wait_for(pilot, lambda: type(app.screen).__name__ == kind)
        dialog = app.screen
        await wait_for(pilot, lambda: shown in footer(app))
        await pilot.press(former)  # the opener's default key: nothing here now
        await pilot.pause(0.2)
        assert app.screen is dialog
        await pilot.press(key)
        await wait_for(pilot, lambda: app.screen is screen)


def test_the_confirmations_cancel_written_out_as_before_q_is_the_default(
    tmp_path: Path,
) -> None:
    """``remove_no = "n,escape"`` and ``bulk_cancel = "escape"``, their defaults before q
    cancelled there too, are read as the defaults they are now: q cancels."""
    from tui.commands import closing_keys
    from tui.config import load_config

    path = tmp_path / "config.toml"
    path.write_text('[keys]\nremove_no = "escape,n"\nbulk_cancel = "escape"\n', "utf-8")
    loaded = load_config([path])
    assert loaded.problems == []
    assert closing_keys("remove", loaded.keymap) == ["n", "escape", "q"]
    assert closing_keys("bulk", loaded.keymap) == ["escape", "q"]


async def test_the_note_editors_unsaved_line_names_three_cancel_keys_as_a_sentence(
    seeded_home: Path,
) -> None:
    """``note_cancel = "escape,ctrl+g,f3"``: the first cancel on a changed note said "Not
    saved: Esc or ctrl+g or f3 again throws away what you typed", where the other dialogs'
    words list keys as a sentence does ("Esc, q, m close"). It says "Esc, ctrl+g or f3"."""
    from textual.widgets import TextArea

    from tui.screens.dialogs import NoteEditor

    (seeded_home / "config.toml").write_text('[keys]\nnote_cancel = "escape,ctrl+g,f3"\n', "utf-8")
    app = make_app(seeded_home)
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await ready(pilot)
        assert app.config_problems == []
        dialog = await opened(pilot, "n", NoteEditor)
        dialog.query_one(TextArea).insert("typed")
        await pilot.press("f3")
        said = [str(label.render()) for label in dialog.query(Label)]
        wanted = "Not saved: Esc, ctrl+g or f3 again throws away what you typed · ctrl+s saves"
        assert wanted in said, said
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is screen)
