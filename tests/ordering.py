"""The suite's longest tests first, one to a worker, so that none of them starts last.

pytest-xdist's ``worksteal`` gives each worker a run of the collection (the first quarter to
the first of four, and so on) and lets an idle worker take the back half of the busiest one's
queue. A long test collected near the end of a run starts late and leaves the other workers
idle while it finishes: the suite's last minute ran three tests of ``tests/unit`` on one or two
workers. Tests marked ``slow`` are put at the head of the workers' runs, the longest spread
over them in turn (the longest first: ``slow(seconds)`` says about how long each took), so
that they start at once and the short tests fill in around them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")


def shares(count: int, workers: int) -> list[int]:
    """How many of ``count`` tests each worker is given first (as ``worksteal`` splits them)."""
    sizes = []
    left = count
    for i in range(workers):
        size = left // (workers - i)
        sizes.append(size)
        left -= size
    return sizes


def spread_first(items: Sequence[T], weight: Callable[[T], float], workers: int) -> list[T]:
    """``items`` reordered: the slow ones (a ``weight`` above 0), the heaviest first, dealt one
    at a time to the heads of the ``workers`` runs; every other item after them in its order."""
    slow = sorted((item for item in items if weight(item) > 0), key=weight, reverse=True)
    rest = [item for item in items if weight(item) <= 0]
    if workers < 2 or not slow:
        return slow + rest
    dealt: list[list[T]] = [[] for _ in range(workers)]
    for n, item in enumerate(slow):
        dealt[n % workers].append(item)
    ordered: list[T] = []
    for size, heads in zip(shares(len(items), workers), dealt, strict=True):
        take = max(size - len(heads), 0)
        ordered += heads + rest[:take]
        del rest[:take]
    return ordered + rest
