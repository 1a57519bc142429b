"""Dialogs on small terminals (Pilot, the real app): each keeps its essential control (the
field, the list of choices) and its result line whole inside its border; what no longer fits
is a description, which scrolls; the footer names how to act."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from textual.widget import Widget
from textual.widgets import Input, OptionList, Static

from tests.tui.helpers import make_app, opened, plist, ready, wait_for
from tests.tui.test_queue_keys import queued
from tui.screens.importer import ImportScreen
from tui.widgets.key_bar import KeyBar


def whole(widget: Widget) -> bool:
    """``widget`` is drawn whole: inside its dialog's border, and on the screen."""
    dialog = widget.screen.query_one(".dialog")
    inside = dialog.content_region.contains_region(widget.region)
    on_screen = widget.screen.region.contains_region(dialog.region)
    return widget.region.height > 0 and inside and on_screen


def footer(app: object) -> str:
    bar = app.main_screen.query_one(KeyBar)  # type: ignore[attr-defined]
    return re.sub(r"\[[^\]]*\]", "", str(bar.render()))


@pytest.mark.parametrize("size", [(80, 24), (40, 12), (120, 36)])
async def test_the_import_dialog_shows_why_nothing_was_imported(
    seeded_home: Path, tmp_path: Path, size: tuple[int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """At 80x24 the result line of Enter on a missing path was below the bottom edge. (A
    path typed as users type it, from where they are: a long one fills a 40x12 dialog.)"""
    monkeypatch.chdir(tmp_path)
    app = make_app(seeded_home)
    async with app.run_test(size=size) as pilot:
        await ready(pilot)
        await opened(pilot, "a", ImportScreen)
        await pilot.pause()
        field = app.screen.query_one("#import-path", Input)
        assert whole(field)
        field.value = "missing.jsonl"
        await pilot.press("enter")
        status = app.screen.query_one("#import-status", Static)
        await wait_for(pilot, lambda: "no such file" in str(status.render()))
        # the dialog is fitted after the layout the new status makes (a frame or two later
        # on a busy machine): then it stays so
        await wait_for(pilot, lambda: whole(status) and whole(field))
        await pilot.pause(0.2)
        assert whole(status) and whole(field), (status.region, app.screen.query_one(".dialog"))
        assert "Enter Import" in footer(app) and "esc Cancel" in footer(app)


@pytest.mark.parametrize("size", [(40, 12), (80, 24)])
async def test_small_dialogs_keep_their_choices_and_fields(
    seeded_home: Path, size: tuple[int, int]
) -> None:
    """At 40x12 Q showed its words and no choice, e its formats and no file field, a its
    words and no field."""
    queued(seeded_home, 3)
    app = make_app(seeded_home)
    async with app.run_test(size=size) as pilot:
        await ready(pilot)
        await pilot.press("2")
        for key, essential in (
            ("Q", ["#sort-choice"]),
            ("e", ["#export-format", "#export-path", "#export-note"]),
            ("a", ["#import-path", "#import-status"]),
            ("t", ["#prompt-input"]),
        ):
            await pilot.press(key)
            await wait_for(pilot, lambda: app.screen is not app.main_screen)
            await pilot.pause(0.1)
            for selector in essential:
                widget = app.screen.query_one(selector)
                assert whole(widget), (key, selector, widget.region)
                if selector == "#sort-choice":  # one choice at least, not a bare border
                    assert widget.region.height >= 3 and widget.scrollable_content_region.height
            await pilot.press("escape")
            await wait_for(pilot, lambda: app.screen is app.main_screen)


async def test_the_sort_and_tags_footers_say_how_to_choose(seeded_home: Path) -> None:
    """Q's footer said only "esc Close" (now "esc q Close": q closes it too), the tags prompt's
    only "esc Cancel"."""
    queued(seeded_home, 3)
    app = make_app(seeded_home)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        await pilot.press("2", "Q")
        await wait_for(pilot, lambda: "esc q Close" in footer(app))
        assert all(k in footer(app) for k in ("j Next", "k Previous", "Enter Sort")), footer(app)
        await pilot.press("escape", "t")
        await wait_for(pilot, lambda: "esc Cancel" in footer(app))
        assert "Enter Accept" in footer(app), footer(app)


@pytest.mark.parametrize("size", [(40, 12), (80, 24)])
async def test_the_note_editor_keeps_rows_to_write_in(
    seeded_home: Path, size: tuple[int, int]
) -> None:
    """At 40x12 the note's text area had no row under the title's lines, its margins and the
    hint: what was typed never showed."""
    from textual.widgets import TextArea

    from tui.screens.dialogs import NoteEditor

    app = make_app(seeded_home)
    async with app.run_test(size=size) as pilot:
        await ready(pilot)
        await opened(pilot, "n", NoteEditor)
        await pilot.press(*"hello")
        await pilot.pause()
        area = app.screen.query_one(TextArea)
        assert area.text == "hello"
        assert whole(area) and area.content_region.height >= 3
        box = app.screen.query_one(".dialog")
        assert "ctrl+s" in str(box.border_subtitle) or "ctrl+s" in str(
            app.screen.query(".hint").first().render()
        )


@pytest.mark.parametrize("size", [(80, 24), (60, 20), (40, 12), (120, 36)])
async def test_the_bulk_decisions_buttons_are_whole(
    seeded_home: Path, size: tuple[int, int]
) -> None:
    """At 80x24 D's five buttons ran past the dialog's edge: 'Canc', which no click reached;
    at 60x20 the export's Cancel did. Each of D's says its word and its keys on one line:
    "Cancel (Esc, q)" read "Cancel (Esc," in a third of the row."""
    from rich.cells import cell_len
    from textual.widgets import Button

    from tui.screens.dialogs import BulkDecision
    from tui.screens.export import ExportScreen

    app = make_app(seeded_home)
    async with app.run_test(size=size) as pilot:
        await ready(pilot)
        await opened(pilot, "D", BulkDecision)
        await pilot.pause(0.1)
        buttons = list(app.screen.query(Button))
        assert len(buttons) == 5 and all(whole(button) for button in buttons), [
            (str(b.label), b.region) for b in buttons
        ]
        for button in buttons:
            room = button.content_region.width - 2 * button.styles.line_pad
            assert cell_len(str(button.label)) <= room, (str(button.label), room)
        await pilot.click("#cancel")
        await wait_for(pilot, lambda: app.screen is app.main_screen)
        if size[1] >= 20:  # (a short screen's export shows no buttons: the footer's keys)
            await opened(pilot, "e", ExportScreen)
            await pilot.pause(0.1)
            buttons = list(app.screen.query(Button))
            assert len(buttons) == 3 and all(whole(button) for button in buttons), [
                (str(b.label), b.region) for b in buttons
            ]


async def test_the_list_dialogs_footers_name_enter_and_a_remapped_key_chooses(
    seeded_home: Path,
) -> None:
    """The similar papers' footer said "esc Close j Down k Up", the topics' and the list
    chooser's only their Esc: each takes Enter, which is named now; and a key remapped in
    config.toml chooses as Enter does."""
    (seeded_home / "config.toml").write_text('[keys]\nsimilar_go = "o"\n')
    app = make_app(seeded_home)
    async with app.run_test(size=(120, 30)) as pilot:
        await ready(pilot)
        await pilot.press("m")
        await wait_for(pilot, lambda: type(app.screen).__name__ == "SimilarScreen")
        await wait_for(pilot, lambda: "o Go to it" in footer(app))
        listed = app.screen.query_one(OptionList)
        await pilot.press("j")
        chosen = listed.get_option_at_index(listed.highlighted or 0).id
        await pilot.press("o")
        await wait_for(pilot, lambda: app.screen is app.main_screen)
        await wait_for(pilot, lambda: (p := plist(app).current) is not None and p.id == chosen)
        await pilot.press("T")
        await wait_for(pilot, lambda: "Enter Mark topic" in footer(app))
        await pilot.press("escape", "shift+delete")
        await wait_for(pilot, lambda: "Enter Remove" in footer(app))


@pytest.mark.parametrize("size", [(80, 24), (60, 20), (120, 36)])
async def test_the_import_dialogs_fields_are_as_wide_as_each_other(
    seeded_home: Path, size: tuple[int, int]
) -> None:
    """At 80x24 the words under the fields scrolled with the catalog's field: their scrollbar
    made that field a column narrower than the list's. The words scroll apart now."""
    app = make_app(seeded_home)
    async with app.run_test(size=size) as pilot:
        await ready(pilot)
        await opened(pilot, "a", ImportScreen)
        path = app.screen.query_one("#import-path", Input)
        catalog = app.screen.query_one("#import-catalog", Input)
        await wait_for(pilot, lambda: whole(path) and whole(catalog))
        await pilot.pause(0.2)
        assert catalog.region.width == path.region.width
        assert catalog.region.x == path.region.x


@pytest.mark.parametrize("width", [40, 59])
async def test_under_60_columns_dialogs_take_the_screens_width(
    seeded_home: Path, width: int
) -> None:
    """At 40 columns a dialog was 70% of the screen (30 columns, 4 of them padding): D's
    Cancel read "Cance", the removal's "Cancel (n,", and the words ran a few to a line. Under
    60 columns a dialog takes the whole width, and every button's word shows whole (its keys
    too where there is room: the footer names them)."""
    from rich.cells import cell_len
    from textual.widgets import Button

    queued(seeded_home, 3)
    app = make_app(seeded_home)
    async with app.run_test(size=(width, 20)) as pilot:
        await ready(pilot)
        await pilot.press("2")
        for key in ("D", "delete", "e", "a", "t", "n", "S", "question_mark", "Q"):
            await pilot.press(key)
            await wait_for(pilot, lambda: app.screen is not app.main_screen)
            await pilot.pause(0.1)
            dialog = app.screen.query_one(".dialog")
            assert dialog.region.width == width, (key, dialog.region)
            for button in app.screen.query(Button):
                label = str(button.label)  # "Cancel (n, Esc)": the word, then its keys
                room = button.content_region.width - 2 * button.styles.line_pad
                assert cell_len(label.split(" (")[0]) <= room, (key, label, room)
                if key == "delete":  # two buttons: room for their keys too
                    assert cell_len(label) <= room, (key, label, room)
            await pilot.press("ctrl+s" if key == "n" else "escape")
            await wait_for(pilot, lambda: app.screen is app.main_screen)


async def test_at_40_columns_the_helps_words_have_room_and_its_border_says_how_to_close(
    seeded_home: Path,
) -> None:
    """At 40 columns the help's words had 20 columns beside a 16-column keys' column (three
    lines for "Mark read, go to the next paper"), and its border read "Esc, q, ? close ·
    ctrl+p: com…"."""
    from rich.cells import cell_len
    from rich.table import Table

    from tui.screens.help import HelpScreen

    app = make_app(seeded_home)
    async with app.run_test(size=(40, 20)) as pilot:
        await ready(pilot)
        await opened(pilot, "question_mark", HelpScreen)
        await pilot.pause(0.1)
        box = app.screen.query_one(".dialog")
        subtitle = str(box.border_subtitle)
        assert subtitle == "Esc, q, ? close" and cell_len(subtitle) + 4 <= box.region.width
        table = app.screen.query_one("#help-main", Static).content
        assert isinstance(table, Table) and table.columns[0].max_width == 9
    async with make_app(seeded_home).run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        await opened(pilot, "question_mark", HelpScreen)
        await pilot.pause(0.1)
        assert "command palette" in str(pilot.app.screen.query_one(".dialog").border_subtitle)


@pytest.mark.parametrize("width", [40, 50])
async def test_under_60_columns_a_notification_takes_the_screens_width(
    seeded_home: Path, width: int
) -> None:
    """At 40 columns a notification was 30 columns wide: a link shown to be selected by hand
    (no clipboard) broke across lines, and a line or two of words took five."""
    from textual.widgets._toast import Toast

    app = make_app(seeded_home)
    async with app.run_test(size=(width, 20), notifications=True) as pilot:
        await ready(pilot)
        app.notify("http://127.0.0.1:8000/someone/a-repository", markup=False)
        await wait_for(pilot, lambda: bool(app.screen.query(Toast)))
        await pilot.pause(0.1)
        toast = app.screen.query_one(Toast)
        assert toast.region.width >= width - 2, toast.region


async def test_the_stats_name_every_key_that_closes_them_and_how_to_star(
    seeded_home: Path,
) -> None:
    """The stats' footer said "esc Close" and its border "Esc closes", though q and S close
    them too; its empty queue said "star papers (s)", and s does nothing there."""
    from tui.screens.stats import StatsScreen

    app = make_app(seeded_home)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await ready(pilot)
        for key in ("q", "S"):
            stats = await opened(pilot, "S", StatsScreen)
            await wait_for(pilot, lambda: "esc q S Close" in footer(app))
            assert stats.query_one(".dialog").border_subtitle == "Esc, q, S close"
            said = " ".join(str(s.render()) for s in stats.query(Static))
            assert "The reading queue is empty: star papers (s in the list) to queue them." in said
            await pilot.press(key)
            await wait_for(pilot, lambda: app.screen is screen)
