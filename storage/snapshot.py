"""A fast-loading copy of ``papers.json``'s papers, so that the app opens quickly.

Opening 12,000 papers from JSON takes ~0.1 s (parsing 21 MB, then building the papers);
from this snapshot (Python's ``marshal`` of one tuple per paper) it takes ~0.04 s. The
snapshot is derived data: it is only used when it names the exact version of ``papers.json``
it was made from (inode, size, modification time) and its checksum holds; anything else
(another import, an edit by hand, a torn write, another Python) and it is ignored and made
again from the JSON, which stays the one source of truth. Deleting it is always safe.
"""

from __future__ import annotations

import contextlib
import marshal
import mmap
import os
import sys
import tempfile
import time
import zlib
from pathlib import Path
from typing import Any, NamedTuple

from storage.files import FileSignature

SNAPSHOT_FILE = "papers.cache"
#: Bumped whenever what a snapshot holds, or how papers are read into it, changes.
FORMAT = 1
#: Temporary files of a writer killed mid-write older than this are swept away.
_STALE_TEMPORARY_S = 600
_MAGIC = b"papers-tui snapshot\n"


class Snapshot(NamedTuple):
    """What opening the papers needs: each paper's fields, papers in list order, and the
    lists table."""

    rows: list[tuple[Any, ...]]
    lists: dict[str, Any]


def _key(sig: FileSignature, schema: int, fields: tuple[str, ...]) -> tuple[Any, ...]:
    return (FORMAT, sys.implementation.cache_tag, marshal.version, tuple(sig), schema, fields)


def read_snapshot(
    path: Path, sig: FileSignature, schema: int, fields: tuple[str, ...]
) -> Snapshot | None:
    """The snapshot at ``path`` if it was made from the file version ``sig`` by a reader of
    ``papers.json`` schema ``schema`` with these paper ``fields``, else None."""
    head = _MAGIC + marshal.dumps(_key(sig, schema, fields))
    try:
        # mapped, not read: no copy of the whole file before it is decoded
        with (
            path.open("rb") as handle,
            mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) as mapped,
            memoryview(mapped) as view,
        ):
            if len(view) < len(head) + 4 or view[: len(head)] != head:
                return None  # another version of papers.json, another Python, not ours
            checksum = int.from_bytes(view[len(head) : len(head) + 4], "big")
            with view[len(head) + 4 :] as body:
                if zlib.crc32(body) != checksum:
                    return None  # torn or damaged
                rows, lists = marshal.loads(body)
    except (OSError, ValueError, EOFError, TypeError):
        return None  # unreadable, empty (cannot be mapped), or not what we wrote
    if not isinstance(rows, list) or not isinstance(lists, dict):
        return None
    return Snapshot(rows, lists)


def write_snapshot(
    path: Path, sig: FileSignature, schema: int, fields: tuple[str, ...], snapshot: Snapshot
) -> None:
    """Write the snapshot of file version ``sig`` (best effort: a cache that cannot be
    written is simply not there next time)."""
    temporary: str | None = None
    try:
        head = _MAGIC + marshal.dumps(_key(sig, schema, fields))
        body = marshal.dumps((snapshot.rows, snapshot.lists))
        fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        with os.fdopen(fd, "wb") as handle:
            handle.write(head + zlib.crc32(body).to_bytes(4, "big") + body)
        os.replace(temporary, path)
        temporary = None
    except (OSError, ValueError):
        pass
    finally:
        if temporary is not None:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
    _sweep_temporaries(path)


def _sweep_temporaries(path: Path) -> None:
    """Remove temporary snapshots left by writers killed mid-write (old enough to be dead)."""
    now = time.time()
    with contextlib.suppress(OSError):
        for leftover in path.parent.glob(f".{path.name}.*.tmp"):
            with contextlib.suppress(OSError):
                if now - leftover.stat().st_mtime > _STALE_TEMPORARY_S:
                    leftover.unlink()
