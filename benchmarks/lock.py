"""The HOME lock under loops: how long a process waits for it while others re-take it at once.

Run from the repository root::

    python -m benchmarks.lock [--quick]

Three child processes each loop for the run's length: take the lock, hold it 40 ms (a
``papers mark`` or a small sync), let it go, take it again at once. Meanwhile this process
takes the lock every 100 ms (the app's writer with a decision), holds it 5 ms, and notes how
long each take waited. Once with ``HomeLock`` (a queue: whoever waits is next) and once with
the lock as it was before issue 24 (poll every 1-20 ms: a loop that lets go and re-takes at
once mostly wins), in the same run. Target, with ``HomeLock``: p95 wait <= 4 holds (160 ms:
what the holder has left, then each other loop's hold at most once).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from storage.files.locks import HomeLock, _try_lock, _unlock

HOLD_S = 0.04
LOOPS = 3
TARGET_S = (LOOPS + 1) * HOLD_S  # the holder's hold, and each other loop's once


class NaiveLock:
    """The HOME lock before issue 24: poll the lock file, 1 ms doubling to 20 ms."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._fd = -1

    def __enter__(self) -> NaiveLock:
        self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        delay = 0.001
        while not _try_lock(self._fd):
            time.sleep(delay)
            delay = min(delay * 2, 0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        _unlock(self._fd)
        os.close(self._fd)


def make_lock(kind: str, path: Path) -> HomeLock | NaiveLock:
    return HomeLock(path, timeout=60) if kind == "queued" else NaiveLock(path)


def child(kind: str, path: str, until: float) -> None:
    lock = make_lock(kind, Path(path))
    while time.time() < until:
        with lock:
            time.sleep(HOLD_S)


def measure(kind: str, seconds: float) -> list[float]:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / ".lock"
        until = time.time() + seconds + 1.0
        code = f"from benchmarks.lock import child; child({kind!r}, {str(path)!r}, {until!r})"
        root = str(Path(__file__).resolve().parents[1])
        children = [subprocess.Popen([sys.executable, "-c", code], cwd=root) for _ in range(LOOPS)]
        time.sleep(1.0)  # the loops are running
        lock = make_lock(kind, path)
        waits = []
        while time.time() < until - 0.5:
            started = time.perf_counter()
            with lock:
                waits.append(time.perf_counter() - started)
                time.sleep(0.005)
            time.sleep(0.1)
        for proc in children:
            proc.wait(timeout=60)
    return waits


def p95(values: list[float]) -> float:
    return sorted(values)[int(0.95 * (len(values) - 1))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="5 s a lock instead of 20")
    args = parser.parse_args(argv)
    seconds = 5.0 if args.quick else 20.0
    print(
        f"{LOOPS} loops holding the lock {HOLD_S * 1000:.0f} ms each; load {os.getloadavg()[0]:.1f}"
    )
    found = {}
    for kind in ("naive", "queued"):
        waits = measure(kind, seconds)
        found[kind] = p95(waits)
        print(
            f"{kind:>6}: {len(waits)} takes, wait p50 {statistics.median(waits) * 1000:.0f} ms, "
            f"p95 {p95(waits) * 1000:.0f} ms, max {max(waits) * 1000:.0f} ms",
            flush=True,
        )
    ratio = found["naive"] / max(found["queued"], 1e-6)
    ok = found["queued"] <= TARGET_S
    print(f"p95 wait: {ratio:.1f}x shorter queued; target <= {TARGET_S * 1000:.0f} ms")
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
