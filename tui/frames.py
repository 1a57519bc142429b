"""Frame pacing: the screen's update timer, with the frame after an idle spell on time.

Textual paints a screen from a timer ticking at most 60 times a second, paused while nothing
needs painting. Its catch-up after a pause is one tick off (``count`` becomes the index of the
next tick, then the loop adds one again): the frame that follows the first frame after an
idle spell waits one to two ticks (17-33 ms) instead of up to one. A keystroke in the search
box hits exactly that: the typed letter is painted at once, the results a frame later, so a
third of a filter's latency was this wait. ``PacedScreen`` gives a screen a timer with the
arithmetic fixed (everything else is Textual's), and runs the garbage collector's full pass
when the screen has been still for a second, not in the middle of a keystroke.
"""

from __future__ import annotations

import gc
from collections.abc import Callable

from textual import _time
from textual.screen import UPDATE_PERIOD, Screen, ScreenResultType
from textual.timer import EventTargetGone, Timer

#: The Textual code this module copies or relies on, by the SHA-256 (first 16 hex digits) of
#: its source in the pinned Textual. A test fails when an upgrade changes any of them: read
#: the new source, port the fix (or drop it, if Textual fixed the catch-up) and update these.
UPSTREAM = {
    "textual.timer.Timer._run": "92f4923ce3b2fa97",  # copied by FrameTimer._run
    "textual.screen.Screen._update_timer": "ed1ff3583a641eba",  # replaced by PacedScreen's
    "textual.screen.Screen._on_timer_update": "af1f31e0921c3100",  # extended by PacedScreen's
}


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


#: How long after a frame its after-frame callbacks run: Textual's output thread needs the
#: GIL to hand the frame to the terminal, in pieces as the terminal reads them; Python work
#: started at once took the GIL from it between pieces (r/x/s reached the glass at 10.3 ms
#: median instead of 7.2 in the same session, benchmarks/glass-like runs at 12,000 papers).
AFTER_FRAME_S = 0.01
#: The longest an after-frame callback waits when no frame comes (nothing needed drawing).
AFTER_FRAME_LIMIT_S = 0.05

#: Seconds without a frame after which the garbage collector runs: the user is reading, not
#: typing (a pass takes up to ~30 ms: keys a second apart rarely meet one).
IDLE_COLLECT_S = 1.0


class PacedScreen(Screen[ScreenResultType]):
    """A screen painted by a ``FrameTimer``, collecting garbage while nothing is painted.

    Painting leaves cyclic garbage (Textual's strips cache themselves), which only the
    collector frees. Collected on its own schedule, a full pass could land in a keystroke
    (60 ms seen); run when the screen has been still for ``IDLE_COLLECT_S``, it finds little
    (the app sets the full pass's own threshold high: see ``PapersApp``).
    """

    _frame_timer: FrameTimer | None = None
    _collect_timer: Timer | None = None
    _after_frame: list[Callable[[], object]] | None = None
    _after_frame_timer: Timer | None = None

    def call_after_frame(self, callback: Callable[[], object]) -> None:
        """Run ``callback`` once the next frame is on its way to the terminal
        (``AFTER_FRAME_S`` after it), or after ``AFTER_FRAME_LIMIT_S`` when nothing needed
        drawing.

        Textual's ``call_after_refresh`` runs its callbacks when the screen is next idle, which
        can come before the widgets changed by a keystroke have asked to be drawn: work put
        there ran inside the keystroke's latency.
        """
        if self._after_frame is None:
            self._after_frame = []
        self._after_frame.append(callback)
        if self._after_frame_timer is None:
            self._after_frame_timer = self.set_timer(
                AFTER_FRAME_LIMIT_S, self._run_after_frame, name="after-frame"
            )

    def _run_after_frame(self) -> None:
        callbacks, self._after_frame = self._after_frame or [], None
        if self._after_frame_timer is not None:
            self._after_frame_timer.stop()
            self._after_frame_timer = None
        for callback in callbacks:
            callback()

    def _on_timer_update(self) -> None:
        super()._on_timer_update()
        if self._after_frame:  # a frame went out: its callbacks a little later
            if self._after_frame_timer is not None:
                self._after_frame_timer.stop()
            self._after_frame_timer = self.set_timer(
                AFTER_FRAME_S, self._run_after_frame, name="after-frame"
            )
        if self._collect_timer is not None:
            self._collect_timer.stop()
        self._collect_timer = self.set_timer(IDLE_COLLECT_S, _collect, name="idle-collect")

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


def _collect() -> None:
    gc.collect()
