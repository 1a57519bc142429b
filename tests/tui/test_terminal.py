"""The terminal's output, the app's threads and its children never keep `papers` from ending."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from tui.terminal import MAX_QUEUED_WRITES, HangupWatch, TerminalOutput
from tui.threads import DaemonThreads

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX pipes and terminals")

REPO = Path(__file__).resolve().parents[2]


class _Pipe:
    """A pipe whose read end the test holds: a terminal that reads, or never does."""

    def __init__(self) -> None:
        self.read_fd, write_fd = os.pipe()
        self.file = os.fdopen(write_fd, "w", encoding="utf-8")

    def drain(self) -> bytes:
        os.set_blocking(self.read_fd, False)
        chunks = []
        while True:
            try:
                chunk = os.read(self.read_fd, 1 << 16)
            except BlockingIOError:
                break
            if not chunk:
                break
            chunks.append(chunk)
        return b"".join(chunks)

    def close(self) -> None:
        for close in (self.file.close, lambda: os.close(self.read_fd)):
            with contextlib.suppress(OSError):
                close()


def test_the_output_writes_in_order() -> None:
    pipe = _Pipe()
    try:
        output = TerminalOutput(pipe.file)
        output.start()
        for i in range(200):
            output.write(f"{i},")
        assert output.stop()
        assert pipe.drain().decode() == "".join(f"{i}," for i in range(200))
    finally:
        pipe.close()


def test_a_terminal_that_went_away_never_blocks_a_write() -> None:
    """The reader gone (as a closed terminal: the write fails), every write returns at once,
    however many, and the app is told once."""
    pipe = _Pipe()
    told: list[float] = []
    try:
        os.close(pipe.read_fd)
        output = TerminalOutput(pipe.file, lambda: told.append(time.monotonic()))
        output.start()
        started = time.monotonic()
        for _ in range(MAX_QUEUED_WRITES * 20):
            output.write("x" * 1000)
        assert output.stop(timeout=0.5)
        assert time.monotonic() - started < 1.0
        assert output.gone and len(told) == 1
    finally:
        pipe.close()


def test_stopping_waits_a_bounded_time_for_a_terminal_that_does_not_read() -> None:
    """A terminal that takes nothing (the queue full behind a write that cannot finish):
    writes wait for it while the app runs, but ``stop`` gives up after its timeout, and
    the writes still waiting then return."""
    pipe = _Pipe()
    try:
        output = TerminalOutput(pipe.file)
        output.start()
        chunk = "y" * 65536  # a pipe holds 64 KiB: the first write fills it
        blocked = threading.Event()

        def flood() -> None:
            for _ in range(MAX_QUEUED_WRITES * 3):
                output.write(chunk)
            blocked.set()

        writer = threading.Thread(target=flood, daemon=True)
        writer.start()
        assert not blocked.wait(0.3)  # the app would wait here: the terminal is slow
        started = time.monotonic()
        assert not output.stop(timeout=0.3)  # it never read: the thread is left behind
        assert time.monotonic() - started < 1.0
        assert blocked.wait(1.0)  # the writes waiting for room gave up
    finally:
        pipe.close()


def test_the_hangup_watch_sees_a_closed_terminal() -> None:
    import pty

    master, slave = pty.openpty()
    seen = threading.Event()
    watch = HangupWatch([slave], seen.set)
    watch.start()
    try:
        assert not seen.wait(0.2)  # an open terminal: nothing to say
        os.close(master)
        assert seen.wait(2.0)
    finally:
        watch.stop()
        os.close(slave)
    idle = HangupWatch([os.open(os.devnull, os.O_RDONLY)], lambda: None)
    idle.start()
    idle.stop()  # stops at once when nothing happened
    assert not idle.is_alive()


def test_the_daemon_executor_runs_tasks_and_reuses_its_threads() -> None:
    pool = DaemonThreads(max_threads=3)
    try:
        results = [pool.submit(lambda n=n: n * n) for n in range(20)]
        assert [f.result(timeout=5) for f in results] == [n * n for n in range(20)]
        assert 1 <= len(pool.threads) <= 3
        assert all(t.daemon for t in pool.threads)
        failing = pool.submit(lambda: 1 / 0)
        with pytest.raises(ZeroDivisionError):
            failing.result(timeout=5)
    finally:
        pool.shutdown()
    with pytest.raises(RuntimeError):
        pool.submit(lambda: None)


def _ends_within(code: str, seconds: float) -> float:
    started = time.monotonic()
    child = subprocess.Popen(
        [sys.executable, "-c", code],
        cwd=REPO,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        out, err = child.communicate(timeout=seconds + 20)
    finally:
        if child.poll() is None:
            child.kill()
    took = time.monotonic() - started
    assert child.returncode == 0, err.decode()
    assert out.decode().strip() == "done", (out, err)
    return took


def test_a_worker_still_running_does_not_keep_the_process_alive() -> None:
    """With asyncio's default executor the process below waits 30 s for its thread (asyncio.run
    ends by joining it, and the interpreter again at exit); with ``DaemonThreads``, it ends
    at once. (A search of a huge saved query, an index build, an import: the same.)"""
    code = textwrap.dedent(
        """
        import asyncio, time
        from tui.threads import DaemonThreads

        async def main():
            loop = asyncio.get_running_loop()
            loop.set_default_executor(DaemonThreads())
            loop.run_in_executor(None, time.sleep, 30)
            await asyncio.sleep(0.1)

        asyncio.run(main())
        print("done")
        """
    )
    baseline = _ends_within("print('done')", 20)
    assert _ends_within(code, 20) < baseline + 2.0


def test_the_index_child_ends_when_its_parent_does() -> None:
    """The child that builds a large index (``build_elsewhere``) watches its standard input,
    a pipe from the app: the app gone, however it ended, the child ends within a second."""
    child = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import time; from storage.cache.children import end_with_parent;"
            " end_with_parent(); time.sleep(30)",
        ],
        cwd=REPO,
        stdin=subprocess.PIPE,
    )
    try:
        time.sleep(0.5)
        assert child.poll() is None  # the parent is there: it works on
        assert child.stdin is not None
        child.stdin.close()  # as when the parent's process ends
        started = time.monotonic()
        child.wait(timeout=10)
        # within a second on a machine at rest (its sleep is 30 s); a loaded run of the suite
        # took 1.3 s to schedule the child's end
        assert time.monotonic() - started < 5.0
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()


def test_a_second_signal_inside_the_first_begins_the_end_without_a_deadlock() -> None:
    """A terminal closed sends SIGHUP, then more: the second handler runs on the same thread
    while the first is inside ``Event.set``, holding its lock. It waited on that lock for ever
    (a process left spinning at 77% CPU, its terminal gone). Here the event's lock is held
    while the second ``begin`` runs, as the nested handler meets it."""
    from tui.ending import EndingDeadline

    deadline = EndingDeadline(save=lambda: None, restore=lambda: None, deadline=60.0)
    deadline.start()
    event = deadline._begun
    original = event.set

    def set_with_a_signal_inside() -> None:
        with event._cond:  # type: ignore[attr-defined]  # as Event.set holds it
            deadline.begin(129)  # the second signal's handler, nested
        original()

    event.set = set_with_a_signal_inside  # type: ignore[method-assign]
    ended = threading.Thread(target=deadline.begin, args=(129,), daemon=True)
    ended.start()
    ended.join(5)
    assert not ended.is_alive() and deadline.begun and deadline.code == 129
    deadline.cancel()
