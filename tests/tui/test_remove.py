"""Removing papers and lists in the app (Pilot): asked first, one undo step, `u` brings back."""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import Input

from storage import Library, Status
from tests.tui.helpers import make_app, messages, plist, ready, settled, tab_text, wait_for
from tui.app import PapersApp
from tui.screens.remove import ConfirmRemoval, ListChooser

SIZE = (120, 36)


def shown_ids(app: PapersApp) -> list[str]:
    return [p.id for p in plist(app).row_papers()]


async def confirm(pilot: Pilot[None], key: str = "y") -> None:
    """Answer the removal's confirmation with ``key``."""
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, ConfirmRemoval))
    await pilot.press(key)
    await wait_for(pilot, lambda: not isinstance(pilot.app.screen, ConfirmRemoval))


async def test_remove_the_paper_then_undo_and_redo(seeded_home: Path) -> None:
    lib = Library(seeded_home)
    first, second = (p.id for p in lib.papers()[:2])
    lib.set_note(first, "keep this note")
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("delete")
        assert isinstance(app.screen, ConfirmRemoval)
        assert first in [p.id for p in app.papers]  # nothing goes before the answer
        await confirm(pilot)
        assert shown_ids(app)[0] == second and len(plist(app).rows) == 37  # gone at once
        current = plist(app).current
        assert current is not None and current.id == second  # the next paper moved up
        await settled(pilot)
        assert len(Library(seeded_home)) == 37 and "Inbox 37" in tab_text(app)
        assert any("Removed 1 paper. u brings it all back." in m for m in messages(app))

        await pilot.press("u")
        await wait_for(pilot, lambda: len(plist(app).rows) == 38)
        await settled(pilot)
        assert shown_ids(app)[0] == first and len(Library(seeded_home)) == 38
        assert app.session.state.notes == {first: "keep this note"}  # it came back with it
        assert any("Undid the removal: 1 paper back." in m for m in messages(app))

        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: len(plist(app).rows) == 37)
        await settled(pilot)
        assert first not in [p.id for p in app.papers] and app.session.state.notes == {}
        assert any("Redid the removal" in m for m in messages(app))
        assert not any("imported elsewhere" in m for m in messages(app))  # its own change
    assert len(Library(seeded_home)) == 37


async def test_remove_the_marked_papers_with_their_decisions(seeded_home: Path) -> None:
    lib = Library(seeded_home)
    ids = [p.id for p in lib.papers()]
    lib.set_status(ids[1], "starred")
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("5")  # All: the starred paper shows too
        await pilot.press("space", "space", "space")  # marks the first three
        await pilot.press("delete")
        assert isinstance(app.screen, ConfirmRemoval)
        assert "Remove 3 papers from the library?" in str(app.screen.question)
        await confirm(pilot)
        assert len(plist(app).rows) == 35 and not app.main_screen.view.marked
        await settled(pilot)
        assert [p.id for p in Library(seeded_home).papers()] == ids[3:]
        assert "Starred 0" in tab_text(app)
        await pilot.press("u")  # one step brings the three back, the star with them
        await wait_for(pilot, lambda: len(plist(app).rows) == 38)
        await settled(pilot)
        assert app.session.state.statuses == {ids[1]: Status.STARRED}
        assert "Starred 1" in tab_text(app)
        await pilot.press("u")  # the step before it, in the same log: the star
        await settled(pilot)
        assert app.session.state.statuses == {} and "Starred 0" in tab_text(app)
    assert Library(seeded_home).statuses() == {}


async def test_remove_a_list_from_the_palette(seeded_home: Path) -> None:
    lib = Library(seeded_home)
    first, second = lib.lists()
    keep = [p.id for p in lib.papers() if p.list == second.name]
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("ctrl+p", *"remove list")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ListChooser))
        await pilot.press("enter")  # the first list
        assert isinstance(app.screen, ConfirmRemoval)
        assert f"the list “{first.name}” ({first.size} papers)" in str(app.screen.question)
        await confirm(pilot)
        await settled(pilot)
        assert shown_ids(app) == keep and [i.name for i in Library(seeded_home).lists()] == [
            second.name
        ]
        assert any(f"the list “{first.name}”" in m for m in messages(app))
        await pilot.press("u")
        await wait_for(pilot, lambda: len(plist(app).rows) == 38)
        await settled(pilot)
    assert [i.name for i in Library(seeded_home).lists()] == [first.name, second.name]


async def test_cancel_removes_nothing(seeded_home: Path) -> None:
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("delete")
        await confirm(pilot, "escape")
        await pilot.press("delete")
        await confirm(pilot, "n")
        await pilot.press("delete")
        await confirm(pilot, "enter")  # the focus starts on Cancel
        await pilot.press("shift+delete")
        await wait_for(pilot, lambda: isinstance(app.screen, ListChooser))
        await pilot.press("escape")
        await pilot.press("shift+delete")
        await wait_for(pilot, lambda: isinstance(app.screen, ListChooser))
        await pilot.press("q")  # as in the other dialogs of a list (it did nothing here)
        await wait_for(pilot, lambda: app.screen is app.main_screen)
        await pilot.press("shift+delete")
        await wait_for(pilot, lambda: isinstance(app.screen, ListChooser))
        await pilot.press("enter")
        await confirm(pilot, "escape")
        await settled(pilot)
        assert len(plist(app).rows) == 38
    lib = Library(seeded_home)
    assert len(lib) == 38 and lib.undo_step().restored is None and lib.undo() == []


async def test_a_removal_keeps_the_search_results(seeded_home: Path) -> None:
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("slash", *"benchmark")
        await pilot.press("down")  # into the list, the search kept
        view = app.main_screen.view
        await wait_for(pilot, lambda: view.query == "benchmark" and view.found is not None)
        await app.workers.wait_for_complete()  # the searches of "b", "be"… are in
        await pilot.pause(0.05)
        found = shown_ids(app)
        assert 1 < len(found) < 38
        await pilot.press("delete")
        await confirm(pilot)
        # the same papers, less the one removed (their order may change a little when the
        # index of the smaller library searches again: rarer words weigh more)
        assert sorted(shown_ids(app)) == sorted(found[1:])
        await settled(pilot)
        await wait_for(pilot, lambda: app.main_screen.index is not None)
        await app.workers.wait_for_complete()
        await pilot.pause(0.05)
        assert sorted(shown_ids(app)) == sorted(found[1:])
        assert app.main_screen.query_one("#search", Input).value == "benchmark"


async def test_the_welcome_to_the_sample_goes_with_its_papers(home: Path) -> None:
    """The first run's welcome ("This is the bundled sample…") stayed above "No papers yet"
    once every paper was removed: a removal, like an import, ends it."""
    app = make_app(home)  # a first run: the bundled sample
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        await wait_for(pilot, lambda: "bundled sample" in screen.detail.text.plain)
        await pilot.press("5", "ctrl+a", "delete")
        await confirm(pilot)
        await wait_for(pilot, lambda: not plist(app).rows)
        await settled(pilot)
        shown = screen.detail.text.plain
        assert "bundled sample" not in shown and "Welcome" not in shown, shown
