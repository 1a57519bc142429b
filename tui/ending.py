"""The app's end within a bound, whatever runs: the last resort behind the graceful end.

Quitting (``q``), a signal or the terminal going away begin the app's end: input is no longer
taken, the screens close, the decisions still queued are written, the terminal is restored.
That takes a few tens of milliseconds, but on the event loop, behind whatever the loop is
doing when the end begins: keys already handed to a widget (a flood: thousands of moves,
each a frame), a slow handler, a machine with no core to spare. ``EndingDeadline`` is a
thread, started with the app, that waits for the end to begin (``begin``: safe to call from
a signal handler); if the process still runs ``DEADLINE_S`` later, it has the decisions still
queued written (the session's writer, which does not wait on the event loop), restores the
terminal without waiting on it, and ends the process with the exit code the end was asked
with. An end that goes well never meets it: the process is gone before.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable

#: How long after the end began the process may still run (the promise is one second: what
#: follows, the save, the terminal and the exit, took up to 0.8 s more on a 2-core machine
#: running the test suite beside it, so 0.6 s left too little).
DEADLINE_S = 0.4


def is_ending(app: object) -> bool:
    """Whether ``app``'s end has begun: its own (``q``, a signal, the terminal gone: its
    ``ending``), or Textual's (its message loop over, its screens being taken down: a test
    leaving ``run_test``, an error). A thread's result that arrives then is let go: the
    widgets it would show on may be gone already."""
    return bool(getattr(app, "ending", False)) or not getattr(app, "is_running", True)


class EndingDeadline:
    """Ends the process ``deadline`` seconds after ``begin``, if it is still running then."""

    def __init__(
        self,
        save: Callable[[], object],
        restore: Callable[[], object],
        deadline: float = DEADLINE_S,
    ) -> None:
        self._save = save
        self._restore = restore
        self._deadline = deadline
        self._begun = threading.Event()
        #: Set before ``_begun``: a second signal whose handler runs while the first is
        #: inside ``Event.set`` (holding its lock, on the same thread) returns at once rather
        #: than wait on that lock for ever (it did: a terminal closed sends SIGHUP, then more).
        self._beginning = False
        self._ended = threading.Event()
        self.code = 0
        self._thread = threading.Thread(target=self._watch, name="papers-ending", daemon=True)

    def start(self) -> None:
        """Start watching (the thread sleeps until ``begin``)."""
        self._thread.start()

    def begin(self, code: int) -> None:
        """The end has begun, to exit with ``code``: the deadline runs from now (the first
        call counts; none before ``start``; safe in a signal handler, nested in itself too:
        a plain flag first, then the event)."""
        if self._beginning or not self._thread.is_alive():
            return
        self._beginning = True
        self.code = code
        self._begun.set()

    @property
    def begun(self) -> bool:
        return self._begun.is_set()

    def _watch(self) -> None:
        self._begun.wait()
        if self._ended.wait(self._deadline):
            return
        try:
            self._save()  # bounded by its own timeout: the decisions come before the deadline
        finally:
            try:
                self._restore()
            finally:
                os._exit(self.code)  # (no flushing: a stuck thread may hold a stream's lock)

    def cancel(self) -> None:
        """The end went well (the caller is about to return): nothing more to watch."""
        self._ended.set()
