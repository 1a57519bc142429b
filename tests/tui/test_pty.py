"""The real `papers` command in a pseudo-terminal: it paints the Inbox and quits on `q`."""

from __future__ import annotations

import fcntl
import os
import pty
import select
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")


def papers_command() -> list[str]:
    script = Path(sys.executable).with_name("papers")
    return [str(script)] if script.exists() else [sys.executable, "-m", "tui"]


def read_until(fd: int, marker: bytes, timeout: float) -> bytes:
    seen = b""
    deadline = time.monotonic() + timeout
    while marker not in seen:
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError(f"no {marker!r} on the screen; got {seen[-500:]!r}")
        ready, _, _ = select.select([fd], [], [], left)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
    return seen


def test_papers_opens_in_a_terminal_and_quits(tmp_path: Path) -> None:
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 36, 120, 0, 0))
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "120", "LINES": "36"}
    proc = subprocess.Popen(
        [*papers_command(), "--home", str(tmp_path / "home")],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env=env,
        close_fds=True,
        start_new_session=True,
    )
    os.close(slave)
    try:
        screen = read_until(master, b"Inbox", timeout=30)
        screen += read_until(master, b"triaged", timeout=10)
        os.write(master, b"j")
        os.write(master, b"s")
        time.sleep(0.5)
        os.write(master, b"q")
        deadline = time.monotonic() + 15
        while proc.poll() is None and time.monotonic() < deadline:
            if select.select([master], [], [], 0.1)[0]:
                try:
                    screen += os.read(master, 65536)
                except OSError:  # the terminal side closed: the process is ending
                    time.sleep(0.05)
        assert proc.wait(timeout=5) == 0, screen[-2000:]
        assert b"Traceback" not in screen
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
    # the decision made in the terminal is on disk
    from storage import Library, Status

    assert list(Library(tmp_path / "home").statuses().values()) == [Status.STARRED]
