"""Work after a keystroke's frame: ``call_after_frame``.

What a key leaves to do once its result is on the glass (the decision's write, drawing ahead
what the next key most likely shows) must not share the interpreter with that frame. Textual
hands a frame to its output thread, which then needs the interpreter to give it to the
terminal, in pieces as the terminal reads them: Python work started at once took it from that
thread between pieces (r/x/s reached the glass at 10.3 ms median instead of 7.2 in the same
session, benchmarks/glass-like runs at 12,000 papers). Nor can the work go before the frame:
Textual's ``call_after_refresh`` runs its callbacks when the screen is next idle, which can
come before the widgets changed by the key have asked to be drawn, and a timer from the key
can fire before the frame (frames come on a 60 Hz clock). Run that way, the draw-ahead took
r/x/s's settled p95 at 12,000 papers from 26 to 45 ms (benchmarks.glass, side by side).

So the list and the pane say when their lines went into a frame (``BorderedLines.Drawn``,
posted while the frame is made, handled once it is out), and the callbacks run
``AFTER_FRAME_S`` after that, or after ``AFTER_FRAME_LIMIT_S`` when nothing was drawn.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from textual import on
from textual.screen import Screen, ScreenResultType
from textual.timer import Timer

from tui.ending import is_ending
from tui.widgets.bordered import BorderedLines

#: How long after the frame its after-frame callbacks run (see the module).
AFTER_FRAME_S = 0.01
#: The longest after-frame callbacks wait when no frame comes (nothing needed drawing).
AFTER_FRAME_LIMIT_S = 0.05


class AfterFrameScreen(Screen[ScreenResultType]):
    """A screen that runs work after the frame of the key that asked for it."""

    _after_frame: list[Callable[[], object]] | None = None
    _after_frame_timer: Timer | None = None
    #: When the first callback waiting was given (``time.monotonic``).
    _asked_at = 0.0
    _armed = False

    @property
    def waiting_for_frame(self) -> bool:
        """Whether callbacks wait for a frame (``BorderedLines`` says when it drew only then)."""
        return bool(self._after_frame) and not self._armed

    def call_after_frame(self, callback: Callable[[], object]) -> None:
        """Run ``callback`` ``AFTER_FRAME_S`` after the next frame that draws the list or the
        pane (after ``AFTER_FRAME_LIMIT_S`` when none does); callbacks run in the order given."""
        if self._after_frame is None:
            self._after_frame = []
            self._asked_at = time.monotonic()
            self._armed = False
            self._after_frame_timer = self.set_timer(
                AFTER_FRAME_LIMIT_S, self._run_after_frame, name="after-frame"
            )
        self._after_frame.append(callback)

    @on(BorderedLines.Drawn)
    def _frame_drawn(self, event: BorderedLines.Drawn) -> None:
        event.stop()
        if self._after_frame and not self._armed and event.at >= self._asked_at:
            self._armed = True  # a frame after the callbacks were given: they follow it
            if self._after_frame_timer is not None:
                self._after_frame_timer.stop()
            self._after_frame_timer = self.set_timer(
                AFTER_FRAME_S, self._run_after_frame, name="after-frame"
            )

    def _run_after_frame(self) -> None:
        callbacks, self._after_frame = self._after_frame or [], None
        if self._after_frame_timer is not None:
            self._after_frame_timer.stop()
            self._after_frame_timer = None
        if is_ending(self.app):
            # Let go: the screen's widgets may be gone (Textual takes a screen's children
            # down, then runs what its timers left it; drawing ahead queried a list no longer
            # there and the app ended with a traceback), and what waits here is for the next
            # key's frame, or the writer's release, which the end's flush gives.
            return
        for callback in callbacks:
            callback()
