"""Pausing Python's cyclic garbage collector around work that makes many objects, none garbage."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


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
