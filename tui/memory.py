"""Give memory freed after a big build back to the system, where the C library allows it."""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
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
