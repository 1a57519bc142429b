"""The import dialog's import is the app's own: no "imported elsewhere" notice about it."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual import events
from textual.pilot import Pilot
from textual.widgets import Input, Static

from storage import Library
from tests.tui.helpers import make_app, messages, one_paper_list, opened, ready, settled, wait_for
from tui.screens.importer import ImportScreen
from tui.screens.main import MainScreen

SIZE = (120, 36)
ELSEWHERE = "Papers imported elsewhere were added."


async def import_typed(pilot: Pilot[None], path: Path) -> None:
    """Open the import dialog, type ``path`` in its field, press Enter."""
    await opened(pilot, "a", ImportScreen)
    pilot.app.screen.query_one("#import-path", Input).value = str(path)
    await pilot.press("enter")


async def test_an_import_from_the_dialog_is_not_said_to_come_from_elsewhere(
    seeded_home: Path, tmp_path: Path
) -> None:
    source = one_paper_list(
        tmp_path / "one.jsonl", "Quiet Paper", "We introduce QUIET, imported from the dialog."
    )
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        await opened(pilot, "a", ImportScreen)
        # papers.json changes while the dialog is open (as its own thread writes it), and
        # the screen polls the disk before the dialog has said so
        Library(seeded_home).import_file(source)
        screen.poll_disk()
        assert ELSEWHERE not in messages(app)
        app.screen.query_one("#import-path", Input).value = str(source)
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, MainScreen))
        await wait_for(pilot, lambda: any(m.startswith("Imported") for m in messages(app)))
        await pilot.pause(1.3)  # a poll of the disk after the import
        assert ELSEWHERE not in messages(app)
        assert any(p.title == "Quiet Paper" for p in app.papers)


async def test_another_process_import_is_still_said(seeded_home: Path, tmp_path: Path) -> None:
    source = one_paper_list(
        tmp_path / "other.jsonl", "Other Paper", "We introduce OTHER, imported by a script."
    )
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("a", "escape")  # the dialog opened and closed: nothing of ours
        await wait_for(pilot, lambda: isinstance(app.screen, MainScreen))
        Library(seeded_home).import_file(source)
        await wait_for(pilot, lambda: ELSEWHERE in messages(app))


async def test_an_unexpected_error_in_the_import_is_said_and_the_dialog_still_closes(
    seeded_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = one_paper_list(tmp_path / "one.jsonl", "Quiet Paper", "We introduce QUIET.")

    def broken(*_args: object, **_kwargs: object) -> None:
        raise RuntimeError("a bug in the reader")  # not a LibraryError: no one foresaw it

    monkeypatch.setattr(Library, "import_files", broken)
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await import_typed(pilot, source)
        status = app.screen.query_one("#import-status", Static)
        said = "Not imported: internal error: RuntimeError: a bug in the reader"
        await wait_for(pilot, lambda: said in str(status.render()))
        await pilot.press("escape")  # the dialog is not stuck "running"
        await wait_for(pilot, lambda: isinstance(app.screen, MainScreen))
    assert len(Library(seeded_home).papers()) == 38


async def test_a_folder_is_imported_only_after_a_second_enter(
    seeded_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The field starts with the current folder: Enter on it at once (a home folder: every
    .txt and .json under it, recursively) says what it would do before it does it."""
    one_paper_list(tmp_path / "a.jsonl", "First Listed", "We introduce FIRST, in a folder.")
    (tmp_path / "deeper").mkdir()
    one_paper_list(tmp_path / "deeper" / "b.jsonl", "Second Listed", "We introduce SECOND.")
    monkeypatch.chdir(tmp_path)
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await opened(pilot, "a", ImportScreen)
        status = app.screen.query_one("#import-status", Static)
        await pilot.press("enter")
        await wait_for(pilot, lambda: "is a folder: Enter again" in str(status.render()))
        await pilot.pause(0.3)
        assert isinstance(app.screen, ImportScreen)
        assert len(Library(seeded_home).papers()) == 38  # nothing read yet
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, MainScreen))
    titles = {p.title for p in Library(seeded_home).papers()}
    assert {"First Listed", "Second Listed"} <= titles


async def test_a_source_to_fetch_is_named_as_it_is_typed(
    seeded_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The field starts with the current folder, so a venue typed after it reads like a
    file's path (``/home/me/iclr2025``): the status line says it will be fetched, and says
    the usual again once the field names a file; nothing is fetched before Enter."""
    one_paper_list(tmp_path / "mine.jsonl", "Mine", "We introduce MINE, a list of one.")
    monkeypatch.chdir(tmp_path)
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await opened(pilot, "a", ImportScreen)
        status = app.screen.query_one("#import-status", Static)
        usual = str(status.render())
        await pilot.press(*"iclr2025")
        await wait_for(pilot, lambda: "Enter fetches iclr2025" in str(status.render()))
        assert app.screen.query_one("#import-path", Input).value == f"{tmp_path}/iclr2025"
        for _ in "iclr2025":
            await pilot.press("backspace")
        await pilot.press(*"mine.jsonl")
        await wait_for(pilot, lambda: str(status.render()) == usual)
        # --max 1 fetches; --max 1x does not: the line said "Enter fetches" still
        for _ in "mine.jsonl":
            await pilot.press("backspace")
        await pilot.press(*"iclr2025 --max 1")
        await wait_for(pilot, lambda: "Enter fetches iclr2025" in str(status.render()))
        await pilot.press("x")
        await wait_for(pilot, lambda: "will not fetch: --max wants" in str(status.render()))
        await pilot.press("backspace")
        await wait_for(pilot, lambda: "Enter fetches iclr2025" in str(status.render()))
    assert len(Library(seeded_home).papers()) == 38  # nothing fetched, nothing imported


@pytest.mark.parametrize(
    "typed",
    [
        "x" * 10_000,  # a page pasted into the field: no file can have that name
        "on the way to a name " * 500,
        "~nosuchuser9/list.jsonl",  # ~name of no user (~r on the way to ~rob)
    ],
    ids=["one long word", "many words", "tilde"],
)
async def test_text_no_file_can_be_named_is_said_not_a_crash(
    seeded_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, typed: str
) -> None:
    """The status line reads the field at each key to say whether Enter fetches it: a name
    too long for the system (ENAMETOOLONG) or a ~ of no user raised there, and the app
    ended with a traceback mid-typing; Enter says it is not imported, in one line."""
    monkeypatch.chdir(tmp_path)
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await opened(pilot, "a", ImportScreen)
        field = app.screen.query_one("#import-path", Input)
        if typed.startswith("~"):
            await pilot.press("ctrl+u")  # the folder the field starts with, gone
        field.post_message(events.Paste(typed))
        await wait_for(pilot, lambda: len(field.value) >= len(typed))
        await pilot.press("backspace", "x")  # and a key typed after it
        status = app.screen.query_one("#import-status", Static)
        await pilot.press("enter")
        await wait_for(pilot, lambda: "Not imported" in str(status.render()))
        assert isinstance(app.screen, ImportScreen) and app.is_running
    assert len(Library(seeded_home).papers()) == 38


async def test_a_tab_that_completes_to_a_source_says_enter_fetches_it(
    seeded_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Tab on "iclr" beside iclr2025.jsonl and iclr2025b.jsonl makes "iclr2025", a venue:
    the line listed the two files alone, and Enter fetched the venue."""
    for name in ("iclr2025.jsonl", "iclr2025b.jsonl"):
        one_paper_list(tmp_path / name, name, f"We introduce {name}, a list of one.")
    monkeypatch.chdir(tmp_path)
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await opened(pilot, "a", ImportScreen)
        status = app.screen.query_one("#import-status", Static)
        await pilot.press("ctrl+u", *"iclr", "tab")
        said = "iclr2025.jsonl  iclr2025b.jsonl · Enter fetches iclr2025"
        await wait_for(pilot, lambda: said in str(status.render()))
        await pilot.press(*".j", "tab")  # a file's name now: the list alone
        await wait_for(pilot, lambda: str(status.render()) == "iclr2025.jsonl")
    assert len(Library(seeded_home).papers()) == 38


async def test_the_imports_warnings_are_shown_not_only_counted(
    seeded_home: Path, tmp_path: Path
) -> None:
    """The CLI prints an import's warnings under its report line; the app showed only the
    summary, so PDFs a Zotero export names on another machine went unsaid there."""
    from tests.unit.test_zotero_rdf import elsewhere_pdfs, items

    body = elsewhere_pdfs(2)
    export = tmp_path / "Reading.rdf"
    export.write_text(items(body), encoding="utf-8")
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await import_typed(pilot, export)
        await wait_for(pilot, lambda: isinstance(app.screen, MainScreen))
        warned = "2 attached PDFs not found on this machine"
        await wait_for(pilot, lambda: any(warned in m for m in messages(app)))
        # the summary is said by the main screen once it has the papers: the warnings, said
        # by the worker, may come a frame before it (CI's loaded machine saw them apart)
        summary = "Imported Reading: 2 added"
        await wait_for(pilot, lambda: any(m.startswith(summary) for m in messages(app)))


async def test_a_fifo_refused_in_the_dialog_names_the_option_as_the_shells(
    seeded_home: Path, tmp_path: Path
) -> None:
    """A refusal said "(--any-file reads it anyway)": typed after the path in the dialog, the
    option was read as part of the file's name ("no such file or folder")."""
    import os

    fifo = tmp_path / "list.bib"
    os.mkfifo(fifo)
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await import_typed(pilot, fifo)
        status = app.screen.query_one("#import-status", Static)
        await wait_for(pilot, lambda: "FIFO" in str(status.render()))
        assert "(papers import --any-file in a shell reads it anyway)" in str(status.render())


@pytest.mark.parametrize("where", ["dialog", "shell"])
async def test_the_first_runs_welcome_goes_once_the_users_list_is_imported(
    home: Path, tmp_path: Path, where: str
) -> None:
    """The welcome said "This is the bundled sample" above the user's own papers for the rest
    of its 45 s, the list imported: in the dialog, or by `papers import FILE` in a shell, as
    the welcome says to."""
    source = one_paper_list(
        tmp_path / "mine.jsonl", "My Own Paper", "We introduce MINE, the user's own list."
    )
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        await wait_for(pilot, lambda: "bundled sample" in screen.detail.text.plain)
        if where == "dialog":
            await import_typed(pilot, source)
            said = "Imported"
        else:
            Library(home).import_file(source)
            screen.poll_disk()  # what the app does every second
            said = "Papers imported elsewhere"
        await wait_for(pilot, lambda: any(m.startswith(said) for m in messages(app)))
        await settled(pilot)
        assert "bundled sample" not in screen.detail.text.plain
