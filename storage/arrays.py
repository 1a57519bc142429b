"""Two numpy helpers the index builds share (``storage.search.build``, ``storage.similar``,
``storage.paper_words``)."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator, Sequence
from typing import TypeVar

import numpy as np
import numpy.typing as npt

IntArray = npt.NDArray[np.int64]
Answer = TypeVar("Answer")


def ranges(starts: IntArray, lengths: IntArray) -> IntArray:
    """The concatenation of ``arange(s, s + n)`` for each start ``s`` and length ``n``."""
    total = int(lengths.sum())
    if total == 0:
        return np.zeros(0, dtype=np.int64)
    offsets = np.cumsum(lengths) - lengths
    return np.arange(total, dtype=np.int64) - np.repeat(offsets - starts, lengths)


def ahead(
    work: Callable[[int], Answer], items: Sequence[int], depth: int = 2, name: str = "build"
) -> Iterator[Answer]:
    """``work`` of each item, in order, the next ones worked out meanwhile by threads: numpy
    lets go of the interpreter while it sorts and counts, so that a second core takes part
    while this thread uses what came before (``depth`` items are in the works at most, each
    holding its own arrays)."""
    if len(items) < 2:
        yield from map(work, items)
        return
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=depth, thread_name_prefix=name) as pool:
        pending = deque(pool.submit(work, item) for item in items[:depth])
        for item in items[depth:]:
            done = pending.popleft().result()
            pending.append(pool.submit(work, item))
            yield done
        while pending:
            yield pending.popleft().result()
