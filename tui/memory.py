"""The app's garbage-collector policy, all of it: load without passes, freeze what lives as long
as the app, collect while the user is still, give memory back after a big build.

Painting leaves cyclic garbage (Textual's strips and their caches, ~8,000 objects a keystroke)
that only the collector frees; the papers (12,000 of them: ~200,000 objects) live as long as
the app. Python's own schedule would walk the papers in every full pass and run full passes
every few keys; this module is the one place the app sets the collector (storage/ sets it only
in the processes it starts for one build: ``storage.cache.children.without_collector``).

An import (the CLI's and the app's) runs with the collector paused (``collector_paused``):
100,000 papers make millions of objects, none of them garbage, and the passes they trigger
cost a tenth of the import (19.9 -> 17.8 s of CPU at 100,000 papers).

What it buys (benchmarks.glass at 12,000 papers, the app with and without it side by side, key
by key): with Python's defaults instead (no freezing, no thresholds, no idle pass) the keys'
settled p95 grow by 6.7 ms (j/k), 22.9 ms (r/x/s) and 9.1 ms (a search letter), and their CPU
p95 by 4-28 ms: full passes land inside keys. Without the idle pass alone: +13.8, +13.5 and
+11.1 ms.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import time
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the CLI's import pauses the collector without importing Textual
    from textual.message_pump import MessagePump

#: Young passes every 5,000 new objects keep each small: (20,000, 20, 20) let garbage pile
#: up into 130 ms pauses; Python's default (700, 10, 10) runs so often that the passes add
#: up (measured on filter keys). Full passes run when the user is still (``IdleCollector``),
#: so their own threshold is high.
THRESHOLDS = (5_000, 10, 100)
#: Seconds without a key or a click after which the collector makes a full pass: the user is
#: reading (a pass takes up to ~30 ms at 12,000 papers: keys a second apart rarely meet one).
IDLE_COLLECT_S = 1.0


def use_app_thresholds() -> None:
    """The collector's schedule for the app's life (see ``THRESHOLDS``)."""
    gc.set_threshold(*THRESHOLDS)


@cache
def _malloc_trim() -> ctypes._CFuncPtr | None:  # type: ignore[name-defined]
    name = ctypes.util.find_library("c")
    if not name:
        return None
    try:
        return ctypes.CDLL(name).malloc_trim  # glibc only
    except (OSError, AttributeError):
        return None


def release_memory() -> None:
    """After a big build: collect, freeze what is left, give free heap pages back.

    Building the search index makes millions of short-lived entries; glibc keeps the freed
    heap (``malloc_trim`` returns it), so without this the app would hold twice the memory it
    uses for the rest of the session. What survives the build lives as long as the app, so
    it is frozen out of later collections (a full pass over it is a visible pause).
    """
    gc.collect()
    gc.freeze()
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


@contextmanager
def kept_for_good() -> Iterator[None]:
    """Run a load of data that lives as long as the app: no collector passes while it runs,
    and what it made is frozen out of every later pass.

    Opening 12,000 papers makes ~200,000 objects, none of them garbage; the passes they
    trigger (during the load, or right after it over the young generation) cost as much as
    the load itself: 0.18 s -> 0.09 s at start.
    """
    with collector_paused():
        try:
            yield
        finally:
            gc.freeze()  # before the collector is back: the young objects are never walked


@contextmanager
def collector_paused() -> Iterator[None]:
    """No collector passes while the block runs; it is turned back on (if it was on) after,
    even on error (an import: its objects by the hundred thousand are none of them garbage)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


class IdleCollector:
    """A full collection once the user has been still for ``IDLE_COLLECT_S``: collected on
    Python's schedule, a full pass could land in a keystroke (60 ms seen). A key only notes
    when it came (``touched``); a timer looks twice a second."""

    def __init__(self) -> None:
        self._last = time.monotonic()
        self._collected = False

    def start(self, owner: MessagePump) -> None:
        """Look for stillness from now on, on ``owner``'s timers (a running app's)."""
        owner.set_interval(IDLE_COLLECT_S / 2, self._look, name="idle-collect")

    def touched(self) -> None:
        """The user did something: the pass waits until they have been still again."""
        self._last = time.monotonic()
        self._collected = False

    def _look(self) -> None:
        if not self._collected and time.monotonic() - self._last >= IDLE_COLLECT_S:
            self._collected = True
            gc.collect()
