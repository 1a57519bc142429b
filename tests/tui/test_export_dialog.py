"""The export dialog from the keyboard: a key per format, Enter writes from anywhere, the
format said in words, every label whole at 80 columns, and every key typeable in the path."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from rich.text import Text
from textual.widgets import Button, Input, Label, Static

import tui.screens.export as export_dialog
from storage import Library, Status
from storage.errors import LibraryError
from storage.export import EXPORTERS, export
from tests.tui.helpers import make_app, messages, ready, wait_for
from tui.screens.export import ExportScreen, FormatChoice, format_keys


def test_every_format_has_a_key_of_its_own() -> None:
    keys = format_keys({})
    assert keys == {
        "markdown": "m",
        "csv": "c",
        "json": "j",
        "bibtex": "b",
        "csl-json": "l",
        "ris": "r",
    }
    assert set(keys) == {e.name for e in EXPORTERS}
    assert format_keys({"export_bibtex": "B"})["bibtex"] == "B"  # remapped in config.toml


async def open_export(app, pilot) -> ExportScreen:  # type: ignore[no-untyped-def]
    await ready(pilot)
    await pilot.press("e")
    await wait_for(pilot, lambda: isinstance(app.screen, ExportScreen))
    screen = app.screen
    assert isinstance(screen, ExportScreen)
    return screen


@pytest.mark.parametrize(
    ("key", "name"),
    [
        ("m", "markdown"),
        ("c", "csv"),
        ("j", "json"),
        ("b", "bibtex"),
        ("l", "csl-json"),
        ("r", "ris"),
    ],
)
async def test_one_key_chooses_a_format_and_enter_writes_it(
    seeded_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, key: str, name: str
) -> None:
    monkeypatch.chdir(tmp_path)
    app = make_app(seeded_home)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_export(app, pilot)
        assert isinstance(app.focused, FormatChoice)  # the keys work at once
        await pilot.press(key)
        exporter = next(e for e in EXPORTERS if e.name == name)
        words = str(screen.query_one("#export-format-words", Static).render())
        assert words.startswith(f"Format: {exporter.label} ({exporter.suffix})")
        await pilot.press("enter")  # from the formats, not the path field
        target = tmp_path / f"papers-inbox{exporter.suffix}"
        await wait_for(pilot, target.exists)
        assert not isinstance(app.screen, ExportScreen)
        await wait_for(pilot, lambda: any(exporter.label in n.message for n in app._notifications))


async def test_arrows_step_through_the_formats(seeded_home: Path) -> None:
    app = make_app(seeded_home)
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await open_export(app, pilot)
        formats = screen.query_one(FormatChoice)
        await pilot.press("right", "right")
        assert formats.index == 2
        await pilot.press("left", "left", "left")
        assert formats.index == len(EXPORTERS) - 1  # round


async def test_the_path_field_takes_every_key(
    seeded_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Tab (or ↓) goes to the path; the format keys then type, arrows move the text cursor,
    and Enter writes there too."""
    monkeypatch.chdir(tmp_path)
    app = make_app(seeded_home)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_export(app, pilot)
        await pilot.press("j", "tab")
        field = screen.query_one("#export-path", Input)
        assert app.focused is field
        field.value = str(tmp_path) + "/"
        field.cursor_position = len(field.value)
        await pilot.press(*"mcjblr.json", "left")
        assert field.value == f"{tmp_path}/mcjblr.json"
        assert screen.query_one(FormatChoice).index == 2  # still JSON
        await pilot.press("up")
        assert isinstance(app.focused, FormatChoice)
        await pilot.press("down")
        assert app.focused is field
        await pilot.press("enter")
        await wait_for(pilot, (tmp_path / "mcjblr.json").exists)
        assert len(json.loads((tmp_path / "mcjblr.json").read_text())) == 38


async def test_labels_are_whole_at_80_columns(seeded_home: Path) -> None:
    app = make_app(seeded_home)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_export(app, pilot)
        await pilot.pause()
        formats = screen.query_one(FormatChoice)
        lines = formats.render().plain.split("\n")
        assert all(len(line) <= formats.content_region.width for line in lines), lines
        for exporter in EXPORTERS:  # each format whole, with its key, on one line
            item = f"{format_keys({})[exporter.name]} {exporter.label}"
            assert any(item in line for line in lines), (item, lines)
        for label in screen.query(Label):  # the dialog's one-line labels fit
            text = Text(str(label.render()))
            assert text.cell_len <= label.content_region.width, text.plain
        for button in screen.query(Button):
            assert Text.from_markup(str(button.label)).cell_len + 2 <= button.size.width


def held_after_the_first_piece(monkeypatch: pytest.MonkeyPatch) -> threading.Event:
    """The dialog's export pieces, held after the first until the event returned is set (the
    thread that writes them waits there)."""
    gate = threading.Event()
    real = export_dialog.export_pieces

    def held(*args: Any, **kwargs: Any) -> Iterator[str]:
        pieces = real(*args, **kwargs)
        yield next(pieces)
        assert gate.wait(30)
        yield from pieces

    monkeypatch.setattr(export_dialog, "export_pieces", held)
    return gate


@pytest.fixture
def out(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The folder the dialog writes to (its current folder), where the 38 sample papers are
    many: written by a thread."""
    folder = tmp_path / "out"
    folder.mkdir()
    monkeypatch.chdir(folder)
    monkeypatch.setattr(export_dialog, "WRITE_AT_ONCE", 10)
    return folder


async def test_many_papers_are_written_by_a_thread_while_the_app_answers(
    seeded_home: Path, out: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    gate = held_after_the_first_piece(monkeypatch)
    app = make_app(seeded_home)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_export(app, pilot)
        await pilot.press("b", "enter")
        note = screen.query_one("#export-note", Static)
        await wait_for(pilot, lambda: "Writing 38 papers as BibTeX" in str(note.render()))
        assert "Esc stops" in str(note.render())
        # the app answers, and what is being written cannot change meanwhile: the keys
        # typed wait for the list, where they act once the file is written
        await pilot.press("enter", "c", "j", "x")
        assert screen.query_one(FormatChoice).index == 3  # still BibTeX
        assert screen.query_one("#export-path", Input).value == str(out / "papers-inbox.bib")
        assert "Writing 38 papers as BibTeX" in str(note.render())
        assert app.screen is screen and screen.writing
        library = Library(seeded_home)
        papers = library.papers()
        written = export(papers, library.triage(), "bibtex", heading=screen.choice.heading)
        second = app.main_screen.paper_list.papers[app.main_screen.paper_list.rows[1]].id
        gate.set()
        target = out / "papers-inbox.bib"
        await wait_for(pilot, lambda: not isinstance(app.screen, ExportScreen))
        assert target.read_text(encoding="utf-8") == written
        await wait_for(pilot, lambda: library.status(second) is Status.SKIPPED)
        # the notice is a message to the app, which may come after the dialog has closed
        await wait_for(
            pilot, lambda: any("Wrote 38 papers as BibTeX" in n.message for n in app._notifications)
        )
        assert sorted(p.name for p in out.iterdir()) == ["papers-inbox.bib"]


async def test_esc_stops_a_file_being_written_and_leaves_it_as_it_was(
    seeded_home: Path, out: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = out / "papers-inbox.csv"
    target.write_text("the export of yesterday\n")
    gate = held_after_the_first_piece(monkeypatch)
    app = make_app(seeded_home)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_export(app, pilot)
        await pilot.press("c", "enter")
        await wait_for(pilot, lambda: screen.confirmed == target)  # it exists: asked first
        await pilot.press("enter")
        await wait_for(pilot, lambda: screen.writing)
        await pilot.press("escape")
        note = screen.query_one("#export-note", Static)
        await wait_for(pilot, lambda: "Stopping" in str(note.render()))
        assert app.screen is screen  # it closes once the thread has stopped
        gate.set()
        await wait_for(pilot, lambda: not isinstance(app.screen, ExportScreen))
        await wait_for(pilot, lambda: any("stopped" in n.message for n in app._notifications))
    assert target.read_text() == "the export of yesterday\n"
    assert sorted(p.name for p in out.iterdir()) == ["papers-inbox.csv"]


async def test_a_file_a_thread_could_not_write_is_said_and_the_form_is_back(
    seeded_home: Path, out: Path, monkeypatch: pytest.MonkeyPatch
) -> None:

    def full_disk(*args: Any, **kwargs: Any) -> Path:
        raise LibraryError("papers-inbox.md: cannot write (No space left on device)")

    monkeypatch.setattr(export_dialog, "write_export", full_disk)
    app = make_app(seeded_home)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_export(app, pilot)
        await pilot.press("enter")
        note = screen.query_one("#export-note", Static)
        await wait_for(pilot, lambda: "Not written" in str(note.render()))
        assert "No space left on device" in str(note.render())
        assert not screen.writing and not screen.query_one(FormatChoice).disabled
        await pilot.press("j")  # the form answers again
        assert screen.query_one(FormatChoice).index == 2
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, ExportScreen))


async def test_keys_typed_with_enter_wait_for_the_file_then_act_on_the_list(
    seeded_home: Path, out: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``e Enter j x`` in one burst, a thread writing the file: the ``j`` and ``x`` go to
    the list once the dialog has closed (they were taken by the disabled form, and lost)."""
    from tests.tui.test_burst_effects import burst, listed

    gate = held_after_the_first_piece(monkeypatch)
    app = make_app(seeded_home)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await ready(pilot)
        ids = listed(screen)
        burst(app, "e", "enter", "j", "x")
        await wait_for(pilot, lambda: isinstance(app.screen, ExportScreen) and app.screen.writing)
        dialog = app.screen
        assert isinstance(dialog, ExportScreen)
        assert dialog.query_one(FormatChoice).index == 0  # Markdown: the j chose no JSON
        gate.set()
        await wait_for(pilot, lambda: Library(seeded_home).status(ids[1]) is Status.SKIPPED)
        assert (out / "papers-inbox.md").exists()
        assert Library(seeded_home).status(ids[0]) is Status.INBOX


async def test_esc_typed_after_enter_stops_the_thread_at_once(
    seeded_home: Path, out: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``e Enter j Esc j``: Esc goes ahead of the ``j`` waiting for the list (not after the key
    gate's deadline), stops the thread, and both moves then act in the list."""
    from tests.tui.test_burst_effects import burst
    from tui.screens.main import MainScreen

    gate = held_after_the_first_piece(monkeypatch)
    app = make_app(seeded_home)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await ready(pilot)
        burst(app, "e", "enter", "j", "escape", "j")

        def stopping() -> bool:  # (the thread may stop before its first piece, and close)
            dialogs = [s for s in app.screen_stack if isinstance(s, ExportScreen)]
            return any(d.stop.is_set() for d in dialogs) or stopped()

        def stopped() -> bool:
            return any("export was stopped" in m for m in messages(app))

        # (the thread waits for ``gate``, and the export holds the keys for as long as it
        # works: an Esc not let ahead never stops it; a loaded machine takes its time)
        await wait_for(pilot, stopping, 30.0)
        gate.set()
        await wait_for(pilot, stopped)
        await wait_for(pilot, lambda: isinstance(app.screen, MainScreen))
        await wait_for(pilot, lambda: screen.paper_list.cursor == 2)
    assert list(out.iterdir()) == []


async def test_keys_typed_while_a_thread_failed_to_write_are_dropped_not_given_to_the_form(
    seeded_home: Path, out: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The thread cannot write the file: the form is back as it was (the ``j`` typed while
    it was disabled, meant for the list, chose no JSON), and the note says they were dropped."""
    from tests.tui.test_burst_effects import burst

    gate = threading.Event()
    real = export_dialog.export_pieces

    def failing(*args: Any, **kwargs: Any) -> Iterator[str]:
        yield next(real(*args, **kwargs))
        assert gate.wait(30)
        raise LibraryError("papers-inbox.md: cannot write (No space left on device)")

    monkeypatch.setattr(export_dialog, "export_pieces", failing)
    app = make_app(seeded_home)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        burst(app, "e", "enter", "j", "j")
        await wait_for(pilot, lambda: isinstance(app.screen, ExportScreen) and app.screen.writing)
        dialog = app.screen
        assert isinstance(dialog, ExportScreen)
        gate.set()
        note = dialog.query_one("#export-note", Static)
        await wait_for(pilot, lambda: "Not written" in str(note.render()))
        assert "2 keys typed meanwhile" in str(note.render())
        await wait_for(pilot, lambda: not dialog.query_one(FormatChoice).disabled)
        assert dialog.query_one(FormatChoice).index == 0  # still Markdown
        await pilot.press("j")  # the form answers again
        assert dialog.query_one(FormatChoice).index == 2


async def test_a_name_with_a_hidden_character_is_written_as_it_is_or_refused(
    seeded_home: Path, tmp_path: Path
) -> None:
    """Tab completes ``a\\x1bb.md`` as ``a␛b.md``, and Enter writes that file. Names that
    show alike (``a\\x9bb.md``, ``a\\x9db.md``: ``a�b.md``), or a new name typed with ``␛``,
    wrote a file named otherwise than any shown, ``a�b.md`` or ``a␛b.csv``, in silence:
    refused in one line, nothing written."""
    out = tmp_path / "out"
    out.mkdir()
    for name in ("a\x1bb.md", "c\x9bd.md", "c\x9dd.md"):
        (out / name).write_text("old", encoding="utf-8")
    app = make_app(seeded_home)
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await open_export(app, pilot)
        await pilot.press("m", "tab")
        field = screen.query_one("#export-path", Input)
        said = screen.query_one("#export-note", Static)
        for typed, refused in (
            ("c", "c�d.md stands for 2 names that show alike"),
            ("a␛b.csv", "a␛b.csv names nothing, and ␛ stands for a hidden character"),
        ):
            field.value = f"{out}/{typed}"
            field.cursor_position = len(field.value)
            await pilot.press("tab", "enter")
            await wait_for(pilot, lambda r=refused: r in str(said.render()))
            assert str(said.render()).startswith("Not written: ")
        field.value = f"{out}/a"
        field.cursor_position = len(field.value)
        await pilot.press("tab")
        assert field.value == f"{out}/a␛b.md"
        await pilot.press("enter", "enter")  # (it exists: a second Enter replaces it)
        await wait_for(pilot, lambda: (out / "a\x1bb.md").read_text(encoding="utf-8") != "old")
    assert sorted(p.name for p in out.iterdir()) == ["a\x1bb.md", "c\x9bd.md", "c\x9dd.md"]
