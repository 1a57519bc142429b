"""Enter typed in one burst with the path before it (a paste without brackets, ``tmux
send-keys "list.bib" Enter``, a fast typist) acts on the path as typed, whole.

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
from tests.tui.helpers import make_app, messages, one_paper_list, ready, wait_for
from tui.screens.export import ExportScreen
from tui.screens.importer import ImportScreen
from tui.screens.main import MainScreen


def burst(app: App[object], text: str) -> None:
    """``text`` then Enter, posted to the app in one go, as a terminal's driver reads them."""
    for character in text:
        app.post_message(events.Key(character, character))
    app.post_message(events.Key("enter", "\r"))


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
        await pilot.press("a")
        await wait_for(pilot, lambda: isinstance(app.screen, ImportScreen))
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
        await pilot.press("e")
        await wait_for(pilot, lambda: isinstance(app.screen, ExportScreen))
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
