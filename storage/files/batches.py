"""Pieces of text or bytes joined into batches as they come: what a writer of many pieces
(an export, a sync log) writes at a time, so that neither the pieces nor their whole is ever
held at once."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import AnyStr

#: About how much a batch of ``in_batches`` holds (characters or bytes).
BATCH = 1 << 20


def in_batches(pieces: Iterable[AnyStr], size: int = BATCH) -> Iterator[AnyStr]:
    """Pieces of text (or bytes) joined into batches of about ``size`` (the last shorter;
    none for nothing): what a writer of many pieces writes at a time (an export, a sync log),
    so that neither the pieces nor their whole is ever held at once."""
    batch: list[AnyStr] = []
    held = 0
    for piece in pieces:
        batch.append(piece)
        held += len(piece)
        if held >= size:
            yield batch[0][:0].join(batch)
            batch.clear()
            held = 0
    if held:
        yield batch[0][:0].join(batch)
