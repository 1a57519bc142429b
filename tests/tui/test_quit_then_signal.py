"""A ``kill`` that arrives while ``q`` takes the app down, every decision already saved: the
quit is what ended the app, so the process exits 0 (it exited 143, as if the signal had cut it
short, and a script or service manager took a clean quit for a failure). A signal that comes
before the quit has saved still ends the app as a signal does (``tests/tui/test_signals.py``).
Real ``papers`` in a pseudo-terminal."""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path

import pytest

from benchmarks._pty import spawn
from storage import Library, Status
from tests.tui.test_signals import LEAVE_ALTERNATE_SCREEN, papers_command

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")


@pytest.mark.parametrize("after", [0.0, 0.02, 0.06], ids=["at-once", "20ms", "60ms"])
def test_a_sigterm_while_q_takes_the_app_down_leaves_the_exit_code_0(
    seeded_home: Path, after: float
) -> None:
    """``after``: seconds from the terminal given back to the signal (the app taken down, then
    the process ending: the default handler was back by then, and killed it: -15)."""
    first = Library(seeded_home).papers()[0].id
    terminal = spawn([*papers_command(), "--home", str(seeded_home)])
    try:
        terminal.wait_for(b"triaged", timeout=60)
        terminal.quiet(0.15, timeout=5)
        start = len(terminal.screen)
        terminal.type(b"s")
        terminal.wait_for(b"1 / 38 triaged", timeout=10, start=start)
        start = len(terminal.screen)
        terminal.type(b"q")
        # the terminal is given back: the quit has saved, and the app is being taken down
        terminal.wait_for(LEAVE_ALTERNATE_SCREEN, timeout=30, start=start)
        time.sleep(after)
        os.kill(terminal.pid, signal.SIGTERM)  # (a process ended but not reaped takes it too)
        code = terminal.proc.wait(timeout=30)
        while terminal.read(0.05) > 0:
            pass
    finally:
        if terminal.proc.poll() is None:
            terminal.proc.kill()
            terminal.proc.wait(timeout=10)
        os.close(terminal.master)
    assert code == 0
    assert b"Traceback" not in terminal.screen
    assert Library(seeded_home).status(first) is Status.STARRED
