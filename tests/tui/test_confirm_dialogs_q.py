"""The removal's confirmation and the bulk decision close on q, as every other dialog does:
they stayed open at q (``remove_no`` was n and Esc, ``bulk_cancel`` Esc alone). q cancels
there, never confirms: nothing is removed, nothing decided."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Button

from storage import Library
from tests.tui.helpers import make_app, opened, plist, ready, settled, wait_for
from tests.tui.test_dialog_sizes import footer
from tui.screens.dialogs import BulkDecision
from tui.screens.remove import ConfirmRemoval, ListChooser

SIZE = (120, 36)


def labels(screen: object) -> set[str]:
    return {str(button.label) for button in screen.query(Button)}  # type: ignore[attr-defined]


async def test_q_cancels_a_removal_and_keeps_everything(seeded_home: Path) -> None:
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        dialog = await opened(pilot, "delete", ConfirmRemoval)
        await wait_for(pilot, lambda: "n esc q Cancel" in footer(app))
        assert "Cancel (n, Esc, q)" in labels(dialog)
        await pilot.press("q")
        await wait_for(pilot, lambda: app.screen is screen)
        await pilot.press("shift+delete")  # a whole list: chosen, then asked about
        await wait_for(pilot, lambda: isinstance(app.screen, ListChooser))
        await opened(pilot, "enter", ConfirmRemoval)
        await pilot.press("q")
        await wait_for(pilot, lambda: app.screen is screen)
        await settled(pilot)
        assert len(plist(app).rows) == 38
    assert len(Library(seeded_home)) == 38


async def test_q_cancels_a_bulk_decision_and_decides_nothing(seeded_home: Path) -> None:
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        await pilot.press("space", "space", "space")
        dialog = await opened(pilot, "D", BulkDecision)
        await wait_for(pilot, lambda: "esc q Cancel" in footer(app))
        assert "Cancel (Esc, q)" in labels(dialog)
        await pilot.press("q")
        await wait_for(pilot, lambda: app.screen is screen)
        await settled(pilot)
        assert app.session.state.statuses == {}
        assert len(screen.view.marked) == 3  # the marks stay, for another decision
