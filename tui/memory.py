"""The garbage collector: the one place papers-tui sets it (storage never does).

- ``collector_paused``: no passes while an import makes its papers (the CLI's and the app's
  import): 100,000 papers make millions of objects, none of them garbage, and the passes they
  trigger cost a tenth of the import (19.9 -> 17.8 s of CPU at 100,000 papers, three runs each
  alternated, /tmp measurement quoted in the commit that moved this here);
- ``kept_for_good`` / ``release_memory``: the app's long-lived data loaded without passes and
  frozen out of later ones, memory given back after a big build.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache


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
    even on error.

    Loading a library or making a search's hits creates objects by the hundred thousand, none
    of them garbage: each pass they trigger walks them all and finds nothing to free.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
