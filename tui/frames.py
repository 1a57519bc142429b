"""Frame pacing: the screen's update timer, with the frame after an idle spell on time.

Textual paints a screen from a timer ticking at most 60 times a second, paused while nothing
needs painting. Its catch-up after a pause is one tick off (``count`` becomes the index of the
next tick, then the loop adds one again): the frame that follows the first frame after an
idle spell waits one to two ticks (17-33 ms) instead of up to one. A keystroke in the search
box hits exactly that: the typed letter is painted at once, the results a frame later, so a
third of a filter's latency was this wait. ``PacedScreen`` gives a screen a timer with the
arithmetic fixed; everything else is Textual's.
"""

from __future__ import annotations

from textual import _time
from textual.screen import UPDATE_PERIOD, Screen, ScreenResultType
from textual.timer import EventTargetGone, Timer


class FrameTimer(Timer):
    """``Timer`` whose ticks, after a pause, resume at the next tick of its schedule."""

    async def _run(self) -> None:
        # Textual's Timer._run (8.x), but for the catch-up line marked below.
        count = 0
        repeat = self._repeat
        interval = self._interval
        await self._active.wait()
        start = _time.get_time()
        while repeat is None or count <= repeat:
            next_timer = start + (count + 1) * interval
            now = _time.get_time()
            if self._skip and next_timer < now:
                count = int((now - start) / interval)  # Textual: ... / interval + 1
                continue
            await _time.sleep(max(0.0, next_timer - _time.get_time()))
            count += 1
            await self._active.wait()
            if self._reset:
                start = _time.get_time()
                count = 0
                self._reset = False
                continue
            try:
                await self._tick(next_timer=next_timer, count=count)
            except EventTargetGone:
                break


class PacedScreen(Screen[ScreenResultType]):
    """A screen painted by a ``FrameTimer``."""

    _frame_timer: FrameTimer | None = None

    @property
    def _update_timer(self) -> Timer:
        if self._frame_timer is None:
            timer = FrameTimer(
                self,
                UPDATE_PERIOD,
                name="screen_update",
                callback=self._on_timer_update,
                pause=True,
            )
            timer._start()
            self._timers.add(timer)
            self._frame_timer = timer
        return self._frame_timer
