"""Work after a keystroke's frame, a letter painted with its results, the idle collector."""

from __future__ import annotations

import gc
import time
from pathlib import Path

import pytest
from textual.geometry import Region
from textual.pilot import Pilot
from textual.strip import Strip

from tests.tui.helpers import make_app, ready, wait_for
from tui.memory import IDLE_COLLECT_S
from tui.widgets.bordered import BorderedLines
from tui.widgets.search_box import HOLD_PAINT_SECONDS

SIZE = (120, 36)
#: What the app draws of the list and the pane in a second under a dialog, still.
IDLE_DRAWS = 4


async def test_a_letter_is_painted_with_its_results(seeded_home: Path) -> None:
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        await pilot.press("slash", "g")
        # held while the search runs, released by the results
        await wait_for(pilot, lambda: screen.view.query == "g" and screen.view.hit_rows is not None)
        assert not screen.search_box.holding and app._batch_count == 0


async def test_a_letter_is_painted_anyway_when_its_search_is_slow(seeded_home: Path) -> None:
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        screen.search_box.run_search = lambda query: None  # type: ignore[method-assign]  # never answers
        holds: list[float] = []
        hold = screen.search_box.hold_paint

        def held() -> None:
            holds.append(time.perf_counter())
            hold()

        screen.search_box.hold_paint = held  # type: ignore[method-assign]
        await pilot.press("slash", "g")
        assert holds  # the letter waited for its results…
        await pilot.pause(HOLD_PAINT_SECONDS + 0.05)
        assert app._batch_count == 0 and not screen.search_box.holding  # …but not for long
        assert screen.search_box.value == "g"


async def test_the_collector_runs_when_the_screen_is_still(seeded_home: Path) -> None:
    full_passes: list[int] = []

    def watch(phase: str, info: dict[str, int]) -> None:
        if phase == "stop" and info["generation"] == 2:
            full_passes.append(1)

    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        gc.callbacks.append(watch)
        try:
            await pilot.press("j")
            await pilot.pause(IDLE_COLLECT_S + 0.5)
        finally:
            gc.callbacks.remove(watch)
        assert full_passes


async def test_after_frame_callbacks_run_after_the_frame(seeded_home: Path) -> None:
    """Work put after a keystroke's frame runs once that frame is drawn, never before it
    (Textual's call_after_refresh could run it before the widgets asked to be drawn)."""
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        await pilot.pause(0.2)
        events: list[str] = []
        refresh = screen._compositor_refresh

        def drawing() -> None:
            events.append("frame")
            refresh()

        screen._compositor_refresh = drawing  # type: ignore[method-assign]
        screen.paper_list.move_by(1)
        screen.call_after_frame(lambda: events.append("after"))
        await wait_for(pilot, lambda: "after" in events)
        assert events[0] == "frame" and events.index("after") > 0
        events.clear()
        screen.call_after_frame(lambda: events.append("after"))  # nothing to draw:
        began = time.perf_counter()
        await wait_for(pilot, lambda: "after" in events)  # it runs all the same
        assert time.perf_counter() - began < 0.5
        assert events == ["after"]  # (and drew nothing)
        screen.call_after_frame(lambda: events.append("first"))
        screen.call_after_frame(lambda: events.append("second"))
        await wait_for(pilot, lambda: "second" in events)
        assert events[-2:] == ["first", "second"]  # in the order given


async def still(pilot: Pilot[None], drawn: list[float], quiet: float = 0.3) -> None:
    """Wait until nothing was drawn for ``quiet`` seconds (fails after 10 s of drawing)."""
    began = time.monotonic()
    while True:
        await pilot.pause(quiet / 3)
        last = drawn[-1] if drawn else began
        if time.monotonic() - last >= quiet:
            return
        assert time.monotonic() - began < 10, f"still drawing: {len(drawn)} draws"


async def test_a_dialog_over_the_list_leaves_the_app_still(
    seeded_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under a dialog the list and the pane are drawn again for the dialog's frames; saying
    so each time (a message to the screen below) kept the app drawing them for ever: a key
    typed in the import dialog took 1.7 s. Now the app is still, and typing is quick."""
    drawn: list[float] = []
    render_lines = BorderedLines.render_lines

    def counted(self: BorderedLines, crop: Region) -> list[Strip]:
        drawn.append(time.monotonic())
        return render_lines(self, crop)

    monkeypatch.setattr(BorderedLines, "render_lines", counted)
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("a")  # the import dialog, its field focused
        # Work the start left (the PDFs' texts read 2 s in, on a busy machine) may end under
        # the dialog and draw the list a few frames more; the app must then fall still.
        screen = app.main_screen
        await wait_for(pilot, lambda: screen.pdfs.texts is not None)
        await still(pilot, drawn)
        drawn.clear()
        started = time.process_time()
        await pilot.pause(1.0)
        assert len(drawn) <= IDLE_DRAWS, len(drawn)  # (a repaint of the dialog may draw them)
        assert time.process_time() - started < 0.5
        typing = time.monotonic()
        await pilot.press(*"/some/folder/list.jsonl")
        await pilot.pause()
        # 30 draws for the keys, and the still app's meanwhile: a loaded machine took seconds
        # over the keys (32 draws, two a repaint, two repaints a second)
        took = time.monotonic() - typing
        assert len(drawn) <= 30 + IDLE_DRAWS * int(took), (len(drawn), took)


async def test_work_after_the_frame_whose_time_comes_as_the_app_ends_is_let_go(
    seeded_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Textual takes a screen's widgets down, then runs what its timers left it: the drawing
    ahead asked for after a frame ran on the screen without its list (``NoMatches: #papers``)
    and the app ended with a traceback (a test's end on a loaded machine, CI-like). Here the
    work is asked for as the widgets go, and their going is slow, as on that machine."""
    import asyncio
    from functools import partial

    from tui.widgets.paper_pane import PaperPane
    from tui.widgets.tab_bar import TabBar

    app = make_app(seeded_home)
    screen = app.main_screen

    def ask(self: TabBar) -> None:
        screen.call_after_frame(partial(screen.prepare_neighbours, screen.view.papers[0]))

    async def slow(self: PaperPane) -> None:
        await asyncio.sleep(0.3)

    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        monkeypatch.setattr(TabBar, "on_unmount", ask, raising=False)
        monkeypatch.setattr(PaperPane, "on_unmount", slow, raising=False)
    # (the error, had the work run, is raised by run_test as the app's)
