"""What the files derived from ``papers.json`` share: their version key and how they are written.

A derived file (``papers.cache``, ``search.index``) is a copy of what ``papers.json`` holds, in
a form that loads fast. It is only trusted when it names the exact version of the file it was
made from, its own format (a ``FORMAT`` number bumped by hand when the code that makes it
changes what it holds) and the Python reading it; otherwise it is ignored and made again.
Writing one is best effort: a file that cannot be written is simply not there next time, and the
temporaries of writers killed mid-write are swept once they are old enough to be dead. Deleting
a derived file is always safe.
"""

from __future__ import annotations

import contextlib
import marshal
import os
import sys
import tempfile
from collections.abc import Callable, Iterable
from functools import cache
from pathlib import Path
from typing import BinaryIO

from storage.files.atomic import sweep_temporaries


def python_tag() -> bytes:
    """The Python a derived file was written by (its ``marshal`` format and byte order)."""
    return f"{sys.implementation.cache_tag} m{marshal.version} {sys.byteorder}".encode()


def write_derived(path: Path, parts: Iterable[bytes | memoryview]) -> bool:
    """Write ``path`` from ``parts`` through a temporary file and a rename; False if it failed.

    No fsync: a file cut short by a crash fails its size or checksum check and is made again.
    """

    def write(handle: BinaryIO) -> None:
        for part in parts:
            handle.write(part)

    return write_derived_with(path, write)


def write_derived_with(path: Path, write: Callable[[BinaryIO], None]) -> bool:
    """``write_derived`` of what ``write`` writes into the open temporary file (which it may
    seek in: a header written last, before the parts it describes). ``OSError`` and
    ``ValueError`` from ``write`` mean a failed write."""
    temporary: str | None = None
    try:
        fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        with os.fdopen(fd, "wb") as handle:
            write(handle)
        os.replace(temporary, path)
        temporary = None
        return True
    except (OSError, ValueError):
        return False
    finally:
        if temporary is not None:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
        sweep_temporaries(path)


def copy_range(source: BinaryIO, start: int, length: int, target: BinaryIO) -> None:
    """Copy ``length`` bytes of ``source`` from ``start`` to where ``target`` is, and move
    ``target`` past them: in the kernel (``os.copy_file_range``) where it can, else a piece at
    a time. ``OSError`` (or ``ValueError``: the source is shorter) when they cannot be copied.
    """
    target.flush()
    at = target.tell()
    src, dst = source.fileno(), target.fileno()
    done = 0
    kernel = hasattr(os, "copy_file_range")
    while done < length:
        want = min(length - done, 1 << 23)
        if kernel:
            try:
                moved = os.copy_file_range(src, dst, want, start + done, at + done)
            except OSError:  # not on this file system or this kernel: by hand
                kernel = False
                continue
        else:
            piece = os.pread(src, want, start + done)
            moved = os.pwrite(dst, piece, at + done)
        if moved <= 0:
            raise ValueError("the source ended before the range")
        done += moved
    target.seek(at + length)


@cache
def _malloc_trim() -> Callable[[int], int] | None:
    import ctypes  # 9 ms: imported by the one process that gives memory back
    import ctypes.util

    name = ctypes.util.find_library("c")
    if not name:
        return None
    try:
        trim: Callable[[int], int] = ctypes.CDLL(name).malloc_trim  # glibc only
    except (OSError, AttributeError):
        return None
    return trim


def give_back_memory() -> None:
    """Give the heap the process freed back to the system (glibc keeps it otherwise): before
    a child process makes a derived file, so that the two do not hold memory at once that
    only one of them uses (an import of 100,000 papers frees ~350 MB of parsed papers)."""
    trim = _malloc_trim()
    if trim is not None:
        trim(0)
