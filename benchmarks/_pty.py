"""Run a terminal program in a pseudo-terminal, as a person would: spawn, watch the screen, type.

Used by ``benchmarks.app`` to time cold starts and keystrokes end to end and to read memory
from ``/proc``, and by ``benchmarks.glass``, whose ``Recorder`` reads the program's output in a
thread of its own so that nothing the benchmark does delays a byte. POSIX only.
"""

from __future__ import annotations

import fcntl
import os
import pty
import select
import struct
import subprocess
import termios
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

#: The terminal every benchmark run gets: columns, rows.
COLUMNS, ROWS = 120, 36


def terminal_env() -> dict[str, str]:
    """The environment of a 120x36 xterm-256color terminal, on a machine that caches bytecode.

    Python writes compiled modules to ``__pycache__`` unless PYTHONDONTWRITEBYTECODE is set
    (as it is in some sandboxes and CI images): the program's own modules would then be
    compiled at every start (~40 ms for papers-tui), which no user's machine does. The warm-up
    run writes the cache.
    """
    environ = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    return {
        **environ,
        "TERM": "xterm-256color",
        "COLUMNS": str(COLUMNS),
        "LINES": str(ROWS),
    }


@dataclass
class Terminal:
    """A program running in a pseudo-terminal, and everything it has written so far."""

    proc: subprocess.Popen[bytes]
    master: int
    started: float
    screen: bytearray = field(default_factory=bytearray)

    @property
    def pid(self) -> int:
        return self.proc.pid

    def read(self, timeout: float) -> int:
        """Read what the program wrote within ``timeout`` seconds; returns the byte count."""
        ready, _, _ = select.select([self.master], [], [], max(0.0, timeout))
        if not ready:
            return 0
        try:
            chunk = os.read(self.master, 1 << 16)
        except OSError:  # the program closed its side
            return -1
        if not chunk:
            return -1
        self.screen += chunk
        return len(chunk)

    def wait_for(self, marker: bytes | tuple[bytes, ...], timeout: float, start: int = 0) -> float:
        """Seconds since spawn when ``marker`` (or one of several) first appears after byte
        ``start``."""
        deadline = time.perf_counter() + timeout
        markers = marker if isinstance(marker, tuple) else (marker,)
        while not any(m in self.screen[start:] for m in markers):
            left = deadline - time.perf_counter()
            if left <= 0:
                tail = bytes(self.screen[-400:])
                raise TimeoutError(f"{marker!r} did not appear within {timeout} s; got {tail!r}")
            if self.read(left) < 0:
                tail = bytes(self.screen[-400:])
                raise RuntimeError(f"the program ended before showing {marker!r}: {tail!r}")
        return time.perf_counter() - self.started

    def quiet(self, silence: float, timeout: float) -> float:
        """Read until nothing arrives for ``silence`` seconds; the time of the last byte."""
        last = time.perf_counter()
        deadline = last + timeout
        while time.perf_counter() < deadline:
            got = self.read(silence)
            if got <= 0:
                break
            last = time.perf_counter()
        return last

    def type(self, data: bytes) -> float:
        """Send keys; returns the time they were sent."""
        sent = time.perf_counter()
        os.write(self.master, data)
        return sent

    def key_to_quiet(self, data: bytes, silence: float = 0.08, timeout: float = 5.0) -> float:
        """Seconds from sending ``data`` to the last byte of the repaint it causes."""
        sent = self.type(data)
        if self.read(timeout) <= 0:
            raise TimeoutError(f"no repaint within {timeout} s of {data!r}")
        last = self.quiet(silence, timeout)
        return last - sent

    def memory(self) -> tuple[int, int]:
        """(VmRSS, VmHWM) of the program in bytes, from ``/proc/PID/status``."""
        return proc_memory(self.pid)

    def close(self, quit_keys: bytes | None = b"\x11", timeout: float = 5.0) -> None:
        """Quit with ``quit_keys`` (ctrl+q; None: kill at once), then kill it if still running."""
        try:
            if quit_keys is not None and self.proc.poll() is None:
                os.write(self.master, quit_keys)
                deadline = time.perf_counter() + timeout
                while self.proc.poll() is None and time.perf_counter() < deadline:
                    if self.read(0.05) < 0:
                        time.sleep(0.01)
        except OSError:
            pass
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
            self.proc.wait(timeout=5)
            os.close(self.master)


def spawn(command: Sequence[str], cwd: Path | None = None) -> Terminal:
    """Start ``command`` in a new 120x36 pseudo-terminal (its own session)."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLUMNS, 0, 0))
    started = time.perf_counter()
    proc = subprocess.Popen(
        list(command),
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env=terminal_env(),
        cwd=cwd,
        close_fds=True,
        start_new_session=True,
    )
    os.close(slave)
    return Terminal(proc, master, started)


def proc_memory(pid: int) -> tuple[int, int]:
    """(VmRSS, VmHWM) of a process in bytes."""
    values = {"VmRSS": 0, "VmHWM": 0}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        name, _, rest = line.partition(":")
        if name in values:
            values[name] = int(rest.split()[0]) * 1024
    return values["VmRSS"], values["VmHWM"]


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (all its threads), from ``/proc/PID/stat``."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def sched_seconds(pid: int) -> dict[int, tuple[float, float]]:
    """Per thread of a process: (seconds it ran on a CPU, seconds it waited, runnable, for
    one), from ``/proc/PID/task/TID/schedstat`` (nanoseconds, unlike ``/proc/PID/stat``'s
    10 ms ticks). Waiting is what other work on the machine costs the program."""
    found: dict[int, tuple[float, float]] = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            ran, waited = task.joinpath("schedstat").read_text().split()[:2]
        except (OSError, ValueError):  # the thread ended meanwhile
            continue
        found[int(task.name)] = (int(ran) / 1e9, int(waited) / 1e9)
    return found


def sched_spent(
    before: dict[int, tuple[float, float]], after: dict[int, tuple[float, float]]
) -> tuple[float, float]:
    """(ran, waited) of a process's threads between two ``sched_seconds`` readings (threads
    that ended in between are not counted; threads that started are counted whole)."""
    ran = waited = 0.0
    for tid, (r, w) in after.items():
        r0, w0 = before.get(tid, (0.0, 0.0))
        ran += max(0.0, r - r0)
        waited += max(0.0, w - w0)
    return ran, waited


def wait_idle(terminal: Terminal, window: float = 0.5, busy: float = 0.05) -> float:
    """Drain the screen until the program uses under ``busy`` of a CPU for ``window`` seconds.

    Returns the time (``perf_counter``) the idle window began: when the work was done.
    """
    deadline = time.perf_counter() + 600
    while time.perf_counter() < deadline:
        began = time.perf_counter()
        used = cpu_seconds(terminal.pid)
        while time.perf_counter() - began < window:
            terminal.read(window / 5)
        if cpu_seconds(terminal.pid) - used < busy * (time.perf_counter() - began):
            return began
    raise TimeoutError("the program never went idle")


def stable_rss(terminal: Terminal, window: float = 1.5, tolerance: int = 1 << 20) -> int:
    """Poll VmRSS (draining the screen) until it moves less than ``tolerance`` in ``window`` s."""
    samples: list[tuple[float, int]] = []
    deadline = time.perf_counter() + 30
    while time.perf_counter() < deadline:
        terminal.read(0.1)
        now = time.perf_counter()
        samples.append((now, terminal.memory()[0]))
        recent = [rss for at, rss in samples if at >= now - window]
        if samples[0][0] <= now - window and max(recent) - min(recent) < tolerance:
            return recent[-1]
    return samples[-1][1]


class Recorder:
    """Everything a program writes to its terminal, read by a thread of its own as it arrives.

    Each chunk is kept with the ``perf_counter`` time (a monotonic clock) it was read, so the
    reading never waits for whatever the caller does with the bytes (a terminal emulator's
    parse costs more than the program's frames). ``answers`` are the replies a terminal sends
    to queries (request bytes -> reply bytes), e.g. that it supports synchronized output.
    While a recorder runs, do not call ``Terminal.read`` (or anything that reads) yourself:
    ``stop`` it first.
    """

    def __init__(self, terminal: Terminal, answers: Mapping[bytes, bytes] | None = None) -> None:
        self.terminal = terminal
        self.answers = dict(answers or {})
        #: (time read, bytes), in order; appended by the reader thread only.
        self.chunks: list[tuple[float, bytes]] = []
        self.ended = False
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._read, name="pty-recorder", daemon=True)
        self._thread.start()

    @property
    def last(self) -> float:
        """When the latest chunk arrived (0.0 before the first)."""
        chunks = self.chunks
        return chunks[-1][0] if chunks else 0.0

    def _read(self) -> None:
        master = self.terminal.master
        longest = max((len(query) for query in self.answers), default=1)
        tail = b""
        while not self._stop.is_set():
            ready, _, _ = select.select([master], [], [], 0.05)
            if not ready:
                continue
            try:
                chunk = os.read(master, 1 << 16)
            except OSError:  # the program closed its side
                chunk = b""
            now = time.perf_counter()
            if not chunk:
                self.ended = True
                return
            self.chunks.append((now, chunk))
            if self.answers:
                seen = tail + chunk
                for query, reply in self.answers.items():
                    if query in seen:
                        os.write(master, reply)
                tail = seen[-(longest - 1) :] if longest > 1 else b""

    def wait_quiet(self, since: float, silence: float, timeout: float) -> bool:
        """Wait until output came after ``since`` and then nothing for ``silence`` seconds.

        False when nothing came within ``timeout`` seconds of ``since`` (or the program
        ended); a program that never stops writing is given up on after ``timeout`` too.
        """
        deadline = since + timeout
        while True:
            now = time.perf_counter()
            last = self.last
            if last > since and now - last >= silence:
                return True
            if now > deadline or self.ended:
                return last > since
            time.sleep(0.001)

    def stop(self) -> None:
        """Stop reading (the terminal stays open)."""
        self._stop.set()
        self._thread.join(timeout=2)
