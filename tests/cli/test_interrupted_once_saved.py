"""Ctrl+C that comes as a command ends, its change saved (real processes, a temporary HOME).

``papers mark ID read | reader``: the mark is saved, then the report goes out; a Ctrl+C while
the report waits for the reader ended the command with "papers: interrupted" and exit code
130, and a script took the mark for not made. The point is reached the same way every run:
standard output is a pipe filled beforehand, so that the command blocks writing its report,
its change saved, and the test waits until the kernel says so (``/proc/PID/wchan``).
"""

from __future__ import annotations

import fcntl
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tests.cli import test_bad_input
from tests.cli.test_bad_input import PAPERS, Seeded, run

# The fixtures of test_bad_input: the bundled sample imported once, a copy of it, a clean env.
seeded, home, env = test_bad_input.seeded, test_bad_input.home, test_bad_input.env

pytestmark = pytest.mark.skipif(
    sys.platform != "linux", reason="POSIX signals, and Linux's /proc/PID/wchan"
)


def full_pipe() -> tuple[int, int]:
    """A pipe whose buffer is full: a process given its write end blocks on its first write."""
    read, write = os.pipe()
    flags = fcntl.fcntl(write, fcntl.F_GETFL)
    fcntl.fcntl(write, fcntl.F_SETFL, flags | os.O_NONBLOCK)
    try:
        while True:
            os.write(write, b"x" * 4096)
    except BlockingIOError:
        pass
    fcntl.fcntl(write, fcntl.F_SETFL, flags)
    return read, write


def wait_blocked_writing(proc: subprocess.Popen[bytes], seconds: float = 60) -> None:
    """Wait until ``proc`` sleeps in the kernel writing to a pipe (``pipe_write``, or
    ``anon_pipe_write`` on newer kernels): its only pipe is its standard output."""
    deadline = time.monotonic() + seconds
    wchan = Path(f"/proc/{proc.pid}/wchan")
    while "pipe_write" not in wchan.read_text(encoding="ascii", errors="replace"):
        assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
        assert time.monotonic() < deadline, "the command never blocked on its output"
        time.sleep(0.01)


def drain(fd: int) -> threading.Thread:
    """Read ``fd`` until its end, in a thread (the command's last flush may wait for it)."""

    def read_all() -> None:
        while os.read(fd, 65536):
            pass

    thread = threading.Thread(target=read_all, daemon=True)
    thread.start()
    return thread


def interrupted_writing(env: dict[str, str], *args: str | Path) -> tuple[int, str]:
    """``papers ARGS`` with a full pipe for its output, sent SIGINT once it blocks writing to
    it (then the pipe drained, so that its last flush ends): its exit code and its stderr."""
    read, write = full_pipe()
    try:
        with subprocess.Popen(
            [*PAPERS, *map(str, args)],
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=write,
            stderr=subprocess.PIPE,
            # as a terminal's Ctrl+C finds it (a shell without job control ignores SIGINT for
            # what it starts in the background, and Python keeps it ignored)
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # noqa: PLW1509
        ) as proc:
            os.close(write)
            write = -1
            wait_blocked_writing(proc)
            proc.send_signal(signal.SIGINT)
            reader = drain(read)
            err = proc.stderr.read().decode("utf-8") if proc.stderr else ""
            code = proc.wait(timeout=60)
        reader.join(timeout=60)
    finally:
        os.close(read)
        if write >= 0:
            os.close(write)
    return code, err


def record_of(home: Path, env: dict[str, str], pid: str) -> dict[str, object]:
    listed = run("--home", home, "list", "--json", env=env)
    assert listed.returncode == 0, listed.stderr
    (record,) = [r for r in json.loads(listed.stdout) if r["id"] == pid]
    return dict(record)


@pytest.mark.parametrize(
    ("command", "field", "saved"),
    [
        (["mark", "{pid}", "read"], "status", "read"),
        (["note", "{pid}", "a", "note"], "note", "a note"),
    ],
    ids=["mark", "note"],
)
def test_ctrl_c_once_the_change_is_saved_says_so_and_exits_0(
    command: list[str],
    field: str,
    saved: str,
    seeded: Seeded,
    home: Path,
    env: dict[str, str],
) -> None:
    pid = next(p for p in seeded.ids if p != seeded.starred)
    assert record_of(home, env, pid)[field] != saved
    words = [word.format(pid=pid) for word in command]
    code, err = interrupted_writing(env, "--home", home, *words)  # its report: once saved
    assert (code, err) == (
        0,
        "papers: interrupted as it ended: its change is saved (its report may be cut short)\n",
    )
    assert record_of(home, env, pid)[field] == saved


def test_ctrl_c_while_a_list_is_written_is_still_an_interruption(
    home: Path, env: dict[str, str]
) -> None:
    """What ``papers list`` writes is its work, not a report of a change: cut short, it is
    interrupted (exit code 130), as before."""
    code, err = interrupted_writing(env, "--home", home, "list")
    assert (code, err) == (130, "papers: interrupted\n")
