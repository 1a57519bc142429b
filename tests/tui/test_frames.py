"""Frame pacing: the screen timer's catch-up after an idle spell, and the held paint."""

from __future__ import annotations

import asyncio
import gc
import hashlib
import importlib
import inspect
import statistics
import textwrap
import time
from importlib.metadata import version
from pathlib import Path

from textual.app import App
from textual.timer import Timer

from tests.tui.helpers import make_app, ready, wait_for
from tui.frames import AFTER_FRAME_LIMIT_S, IDLE_COLLECT_S, UPSTREAM, FrameTimer
from tui.widgets import composed
from tui.widgets.search_box import HOLD_PAINT_SECONDS

SIZE = (120, 36)
INTERVAL = 0.1


async def gaps_after_idle(kind: type[Timer], rounds: int = 4) -> list[float]:
    """As the screen uses it: paused in each tick, resumed when something needs painting.

    Each round idles for a while, asks for a frame, then at once for another: the gap is
    how long the second waited for the first.
    """
    ticks: list[float] = []
    gaps: list[float] = []
    app = App[None]()
    async with app.run_test():
        timer: Timer

        def tick() -> None:
            timer.pause()
            ticks.append(time.perf_counter())

        timer = kind(app, INTERVAL, callback=tick, pause=True)
        timer._start()
        try:
            for _ in range(rounds):
                await asyncio.sleep(3.3 * INTERVAL)  # idle: ticks go by unused
                seen = len(ticks)
                timer.resume()
                while len(ticks) == seen:
                    await asyncio.sleep(0.001)
                timer.resume()  # the next frame is wanted right away
                while len(ticks) == seen + 1:
                    await asyncio.sleep(0.001)
                gaps.append(ticks[-1] - ticks[-2])
        finally:
            timer.stop()
    return gaps


async def test_after_an_idle_spell_the_next_frame_comes_within_one_tick() -> None:
    gaps = await gaps_after_idle(FrameTimer, rounds=5)
    # Textual's own timer waits 0.17 s here, one interval too many; the median is robust to
    # a round slowed by a busy machine
    assert statistics.median(gaps) < INTERVAL + 0.03, gaps


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


def test_the_textual_code_frames_copies_is_what_it_was() -> None:
    """An upgrade of Textual that changes what tui/frames.py copies, or what
    tui/widgets/composed.py extends, must be looked at."""
    for dotted, expected in {**UPSTREAM, **composed.UPSTREAM}.items():
        module_name, cls_name, member = dotted.rsplit(".", 2)
        found = inspect.getattr_static(
            getattr(importlib.import_module(module_name), cls_name), member
        )
        source = textwrap.dedent(inspect.getsource(getattr(found, "fget", found)))
        digest = hashlib.sha256(source.encode()).hexdigest()[:16]
        assert digest == expected, (
            f"Textual's {dotted} changed (Textual {version('textual')}): revisit tui/frames.py"
            " and tui/widgets/composed.py"
        )


async def test_the_main_screen_is_painted_by_the_fixed_timer(seeded_home: Path) -> None:
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        assert isinstance(screen._update_timer, FrameTimer)


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
        assert time.perf_counter() - began < AFTER_FRAME_LIMIT_S + 0.5
