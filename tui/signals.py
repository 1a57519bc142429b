"""Ending the app by a signal (``kill``, the terminal window closed, ctrl+c from outside) the way
``q`` ends it: the terminal restored, every decision on the screen on disk.

Without this, SIGTERM and SIGHUP end the process at once: decisions shown on the screen but
still queued for the writer thread never reach the disk, and the terminal is left in the app's
mode. ``ending_by_signals`` handles SIGTERM, SIGHUP and SIGINT for as long as ``papers`` runs
the app, in three phases:

- before the app's event loop runs, nothing is on the screen and nothing is decided: the
  signal ends the process at once (``SystemExit``, through the callers' ``finally``);
- while it runs, the signal asks the app to exit, from the event loop, as ``q`` does; the
  caller then waits (bounded) for the writer queue to drain;
- once the caller is saving the last decisions (``closing``), signals change nothing: a
  second ``kill`` must not cut the wait that the first one started.

A ``q`` that has saved every decision (``quit_saved``) is a clean end: a signal that comes
while the app is taken down changes nothing, not even the exit code (it was 143 for a ``kill``
sent on the way out, everything saved, and a service manager took the quit for a failure).
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
from collections.abc import Iterator
from types import FrameType
from typing import Any

from textual.app import App

#: The signals that end the app with its decisions saved.
ENDING_SIGNALS = tuple(
    getattr(signal, name) for name in ("SIGTERM", "SIGHUP", "SIGINT") if hasattr(signal, name)
)


class SignalEnding:
    """What the signals do now, and the exit code a signal asked for (128 + its number)."""

    def __init__(self) -> None:
        self.app: App[Any] | None = None
        self.saving = False
        self.code: int | None = None
        #: A ``q`` saved every decision before a signal came: signals change nothing now.
        self.quit_done = False

    def watch(self, app: App[Any]) -> None:
        """From now on a signal ends ``app`` (once its event loop runs; the app calls
        ``reclaim`` once it does)."""
        self.app = app

    def reclaim(self) -> None:
        """Take the ending signals back from the running event loop, where the app's driver
        may have put them: Textual's web driver (``papers serve``'s tabs) asks asyncio for
        SIGTERM and SIGINT. Its handler ends the app without the exit code or the deadline,
        and asyncio sets the signals back to their defaults when the loop closes: a SIGTERM
        that came while the last decisions were being saved then killed the process with them
        unsaved (a killed server's tab: its pipes close first, the app ends on them, and the
        death signal, ``tui/web_child.py``, comes after the loop has closed)."""
        loop = asyncio.get_running_loop()
        masks = hasattr(signal, "pthread_sigmask")
        # none lands between the loop's removal (it sets the default) and ours
        before = signal.pthread_sigmask(signal.SIG_BLOCK, ENDING_SIGNALS) if masks else None
        try:
            for number in ENDING_SIGNALS:
                with contextlib.suppress(NotImplementedError):  # (a loop without signals)
                    loop.remove_signal_handler(number)  # (False, nothing done, if not asked)
                signal.signal(number, self.on_signal)
        finally:
            if before is not None:
                signal.pthread_sigmask(signal.SIG_SETMASK, before)

    def closing(self) -> None:
        """From now on a signal changes nothing: the caller is saving the last decisions
        (the handlers are put back first: a closed event loop may have reset them)."""
        self.saving = True
        for number in ENDING_SIGNALS:
            signal.signal(number, self.on_signal)

    def quit_saved(self) -> None:
        """The app is ending by ``q`` with every decision on disk: from now on a signal
        changes nothing, the exit code included (one that came before still says why the
        app ended: the quit did not finish first)."""
        if self.code is None:
            self.quit_done = True

    def on_signal(self, number: int, _frame: FrameType | None) -> None:
        """The handler of every ending signal (runs on the main thread, between bytecodes)."""
        if self.quit_done:
            return  # (the app is already ending, within its deadline: ``tui/ending.py``)
        if self.code is None:  # the first signal says why the app ended
            self.code = 128 + number
        if self.saving:
            return
        try:  # the app's event loop runs on this thread: is it running now?
            loop = asyncio.get_running_loop()
        except RuntimeError:
            raise SystemExit(self.code) from None
        app = self.app
        if app is not None:
            begin_ending = getattr(app, "begin_ending", None)
            if begin_ending is not None:  # no more input from now on: the exit asked for
                begin_ending(self.code)  # below must not wait behind keys still arriving
            loop.call_soon_threadsafe(app.exit, None, self.code)


@contextlib.contextmanager
def ending_by_signals() -> Iterator[SignalEnding]:
    """Handle the ending signals while the block runs; the previous handlers come back after,
    but for a ``q`` that saved everything (``quit_saved``): the process is then as good as
    ended, everything saved and the terminal given back, and the signals are ignored for the
    little it still runs (the default handler killed it: -15, the shell's 143). Ignored, not
    handled: the interpreter puts back the default of a signal it handles as it ends."""
    ending = SignalEnding()
    previous = {number: signal.signal(number, ending.on_signal) for number in ENDING_SIGNALS}
    try:
        yield ending
    finally:
        for number, handler in previous.items():
            signal.signal(number, signal.SIG_IGN if ending.quit_done else handler)
