"""Dialogs on small terminals (Pilot, the real app): each keeps its essential control (the
field, the list of choices) and its result line whole inside its border; what no longer fits
is a description, which scrolls; the footer names how to act."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from textual.widget import Widget
from textual.widgets import Input, Static

from tests.tui.helpers import make_app, ready, wait_for
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
    seeded_home: Path, tmp_path: Path, size: tuple[int, int]
) -> None:
    """At 80x24 the result line of Enter on a missing path was below the bottom edge."""
    app = make_app(seeded_home)
    async with app.run_test(size=size) as pilot:
        await ready(pilot)
        await pilot.press("a")
        await wait_for(pilot, lambda: isinstance(app.screen, ImportScreen))
        await pilot.pause()
        field = app.screen.query_one("#import-path", Input)
        assert whole(field)
        field.value = str(tmp_path / "missing.jsonl")
        await pilot.press("enter")
        status = app.screen.query_one("#import-status", Static)
        await wait_for(pilot, lambda: "no such file" in str(status.render()))
        await pilot.pause(0.1)
        assert whole(status) and whole(field), (status.region, app.screen.query_one(".dialog"))
        assert "Enter Import" in footer(app) and "esc Cancel" in footer(app)
