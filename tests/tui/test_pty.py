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
from collections.abc import Mapping
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


def spawn_papers(
    home: Path, rows: int, columns: int, more_env: Mapping[str, str] | None = None
) -> tuple[subprocess.Popen[bytes], int]:
    """The real ``papers`` on ``home`` in a new pseudo-terminal of that size (``more_env`` in
    its environment too), and its master."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": str(columns), "LINES": str(rows)}
    env.update(more_env or {})
    proc = subprocess.Popen(
        [*papers_command(), "--home", str(home)],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env=env,
        close_fds=True,
        start_new_session=True,
    )
    os.close(slave)
    return proc, master


def quit_papers(proc: subprocess.Popen[bytes], master: int) -> bytes:
    """``q``, and what the app writes until it ends (15 s at the most)."""
    screen = b""
    os.write(master, b"q")
    deadline = time.monotonic() + 15
    while proc.poll() is None and time.monotonic() < deadline:
        if select.select([master], [], [], 0.1)[0]:
            try:
                screen += os.read(master, 65536)
            except OSError:  # the terminal side closed: the process is ending
                time.sleep(0.05)
    return screen


def test_papers_opens_in_a_terminal_and_quits(tmp_path: Path) -> None:
    proc, master = spawn_papers(tmp_path / "home", 36, 120)
    try:
        screen = read_until(master, b"Inbox", timeout=30)
        screen += read_until(master, b"triaged", timeout=10)
        os.write(master, b"j")
        os.write(master, b"s")
        time.sleep(0.5)
        screen += quit_papers(proc, master)
        assert proc.wait(timeout=5) == 0, screen[-2000:]
        assert b"Traceback" not in screen
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
    # the decision made in the terminal is on disk
    from storage import Library, Status

    assert list(Library(tmp_path / "home").statuses().values()) == [Status.STARRED]


def test_bytes_that_are_no_utf_8_are_no_crash(tmp_path: Path) -> None:
    """A Latin-1 terminal's é (0xe9), an 8-bit CSI (0x9b) or any byte that is no UTF-8 ended
    the app: Textual's input thread died on a UnicodeDecodeError and printed its traceback.
    Such a byte is now read as U+FFFD, and the keys after it work."""
    proc, master = spawn_papers(tmp_path / "home", 24, 80)
    try:
        screen = read_until(master, b"triaged", timeout=30)
        for chunk in (b"\xe9", b"j", b"\x9b31m", b"\xff\xfe", b"/caf\xe9"):
            os.write(master, chunk)
            time.sleep(0.2)
        os.write(master, b"\x1b")  # leave the search box
        time.sleep(0.6)
        os.write(master, b"s")
        time.sleep(0.5)
        assert proc.poll() is None, read_until(master, b"", timeout=1)[-2000:]
        screen += quit_papers(proc, master)
        assert proc.wait(timeout=5) == 0, screen[-2000:]
        assert b"Traceback" not in screen and b"UnicodeDecodeError" not in screen
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
    from storage import Library, Status

    assert list(Library(tmp_path / "home").statuses().values()) == [Status.STARRED]
