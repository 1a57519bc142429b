"""A derived file of numpy arrays and Python values: written once, read through a memory map.

The search and similarity indexes are saved so. The file is a magic line naming its kind,
format and Python; a header (its length and checksum, then a ``marshal`` of the caller's key,
where each array lies, where the values lie and their checksum, and the body's size and
checksum); then the body: each array at an offset aligned for numpy, then one ``marshal``
block of the Python values.

Reading checks everything before anything is believed (the key, the size, both checksums)
and hands out the arrays as read-only views of a memory map: only the pages a caller touches
are read from disk (the checksum's pass lets its pages go as it goes). A file is only ever
replaced (``storage.cache.derived.write_derived``), never written in place, so a map stays valid
while it is used.
"""

from __future__ import annotations

import contextlib
import dataclasses
import marshal
import mmap
import os
import threading
import zlib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, BinaryIO, Final, NamedTuple, TypeVar

import numpy as np
import numpy.typing as npt

from storage.cache.derived import python_tag, write_derived
from storage.files.atomic import FileContent, open_regular
from storage.models import Paper

_Index = TypeVar("_Index")
_Made = TypeVar("_Made")
_ALIGN: Final = 64
#: Checked at a time (then its pages are let go).
_CHECK_BLOCK: Final = 1 << 23
_LET_GO: Final = getattr(mmap, "MADV_DONTNEED", None)  # not on every system
Array = npt.NDArray[Any]
#: Where each array lies in the body: offset, dtype, shape.
_Layout = dict[str, tuple[int, str, tuple[int, ...]]]


class ArrayFile(NamedTuple):
    """What a file holds: its arrays (read-only, memory-mapped), its Python values, and the
    checksum of its body (what names this very file: another file can say it goes with it)."""

    arrays: Mapping[str, Array]
    values: Any
    checksum: int


def papers_key(version: FileContent) -> tuple[Any, ...]:
    """The key of a file derived from the papers of the ``papers.json`` of content
    ``version``: also the paper fields and numpy (the file's own ``FORMAT``, bumped by hand
    when the code that makes it changes what it holds, is in its magic line)."""
    fields = tuple(f.name for f in dataclasses.fields(Paper))
    return (tuple(version), fields, np.__version__)


def load_or_build(
    path: Path,
    version: FileContent | None,
    load: Callable[[Path, FileContent], _Index | None],
    build: Callable[[], _Index],
    save: Callable[[Path, FileContent, _Index], bool],
) -> _Index:
    """What ``load`` reads from ``path`` for the papers.json of content ``version``; else what
    ``build`` makes, saved there for next time."""
    if version is not None:
        found = load(path, version)
        if found is not None:
            return found
    made = build()
    if version is not None:
        save(path, version, made)
    return made


def _magic(kind: str, version: int) -> bytes:
    return f"papers-tui {kind} {version} ".encode() + python_tag() + b"\n"


def _padding(offset: int) -> bytes:
    return b"\0" * (-offset % _ALIGN)


def write_array_file(
    path: Path, kind: str, version: int, key: Any, arrays: Mapping[str, Array], values: Any
) -> bool:
    """Write the file (best effort); False when it could not be written."""
    parts: list[bytes | memoryview] = []
    layout: _Layout = {}
    offset = 0
    for name, array in arrays.items():
        data = np.ascontiguousarray(array)
        parts.append(_padding(offset))
        offset += len(parts[-1])
        layout[name] = (offset, data.dtype.str, data.shape)
        parts.append(data.data.cast("B"))
        offset += data.nbytes
    parts.append(_padding(offset))
    offset += len(parts[-1])
    python = marshal.dumps(values)
    parts.append(python)
    body_crc = 0
    for part in parts:
        body_crc = zlib.crc32(part, body_crc)
    place = (offset, len(python), zlib.crc32(python))
    head = marshal.dumps((key, layout, place, offset + len(python), body_crc))
    lengths = len(head).to_bytes(4, "big") + zlib.crc32(head).to_bytes(4, "big")
    magic = _magic(kind, version)
    start = len(magic) + len(lengths) + len(head)
    if not write_derived(path, [magic, lengths, head, _padding(start), *parts]):
        return False
    with contextlib.suppress(OSError):  # its body as written: checked by its writer
        write_derived(_checked_path(path), [_stamp(os.stat(path), body_crc)])
    return True


def read_array_file(
    path: Path, kind: str, version: int, key: Any, make: Callable[[ArrayFile], _Made | None]
) -> _Made | None:
    """What ``make`` makes of the file's arrays and values, if the file is of this kind,
    format and ``key``, whole and undamaged; else None.

    ``make`` runs while another thread checks the body (the checksum of 130 MB takes 60 ms at
    100,000 papers, about what making a search index of it takes): what it made is returned
    only once the check holds, and never otherwise. A body checked whole once (by its writer,
    or by a reader) is not checked again while the file keeps the stamp it had then (inode,
    size, modification and change times, recorded in ``NAME.ok``): a file changed in any way
    since (a copy, an edit, bytes damaged by a program) has another stamp and is checked.
    """
    try:
        with open_regular(path) as handle:
            found = _checked(handle, _magic(kind, version), key)
            if found is None:
                return None
            body_start, layout, (at, length, values_crc), body_size, body_crc = found
            mapped = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
            stamp = _stamp(os.fstat(handle.fileno()), body_crc)
    except (OSError, ValueError, EOFError, TypeError):
        return None  # unreadable, or not what we wrote
    if len(mapped) != body_start + body_size:
        return None  # cut short, or grown
    trusted = _checked_stamp(path) == stamp
    check = _Check(mapped, body_start, body_crc if trusted else None)
    check.start()
    try:
        with memoryview(mapped)[body_start + at : body_start + at + length] as view:
            # checked on its own first: ``marshal`` is not meant for damaged data; the arrays
            # are only numbers, and what is made of them is dropped unless the body checks
            if zlib.crc32(view) != values_crc:
                raise ValueError("the values are damaged")
            values = marshal.loads(view)
        arrays = {
            name: _array(mapped, body_start + offset, dtype, shape)
            for name, (offset, dtype, shape) in layout.items()
        }
        made = make(ArrayFile(arrays, values, body_crc))
    except (ValueError, EOFError, TypeError, KeyError, IndexError):
        made = None  # not what we wrote
    finally:
        check.join()
    if check.checksum != body_crc:
        return None
    if not trusted:
        write_derived(_checked_path(path), [stamp])
    return made


def remove_array_file(path: Path) -> None:
    """Remove the file at ``path`` and what says its body was checked, if there (best
    effort: a file left is ignored once what it goes with has changed)."""
    for name in (path, _checked_path(path)):
        with contextlib.suppress(OSError):
            name.unlink(missing_ok=True)


def _checked_path(path: Path) -> Path:
    return path.with_name(path.name + ".ok")


def _stamp(st: os.stat_result, body_crc: int) -> bytes:
    """What ``NAME.ok`` says of a file whose body was checked whole: its stamp, its checksum."""
    return f"{st.st_ino} {st.st_size} {st.st_mtime_ns} {st.st_ctime_ns} {body_crc}\n".encode()


def _checked_stamp(path: Path) -> bytes | None:
    try:
        with open_regular(_checked_path(path)) as handle:
            return handle.read(200)
    except OSError:
        return None


def holds_key(path: Path, kind: str, version: int, key: Any) -> bool:
    """Whether the file at ``path`` is of this kind and format and names ``key`` (its header
    only: whether its body is whole is checked when it is read)."""
    try:
        with open_regular(path) as handle:
            return _checked(handle, _magic(kind, version), key) is not None
    except (OSError, ValueError, EOFError, TypeError):
        return False


def _array(mapped: mmap.mmap, offset: int, dtype: str, shape: tuple[int, ...]) -> Array:
    count = int(np.prod(shape, dtype=np.int64))
    if not count:
        return np.zeros(shape, dtype=np.dtype(dtype))
    return np.frombuffer(mapped, np.dtype(dtype), count, offset).reshape(shape)


class _Check(threading.Thread):
    """The checksum of a map from ``start``, on its own thread (``zlib`` lets go of the
    interpreter while it reads), a block at a time, each block's pages let go once read: the
    check does not count the file in the process's memory (RSS, VmHWM)."""

    def __init__(self, mapped: mmap.mmap, start: int, known: int | None = None) -> None:
        super().__init__(name="array file check", daemon=True)
        self._mapped = mapped
        self._start = start
        self._known = known
        #: The checksum, once the thread has ended (-1 if it failed).
        self.checksum = -1

    def run(self) -> None:
        if self._known is not None:  # checked before: see ``read_array_file``
            self.checksum = self._known
            return
        mapped, checksum = self._mapped, 0
        with memoryview(mapped) as view:
            for at in range(self._start, len(mapped), _CHECK_BLOCK):
                end = min(at + _CHECK_BLOCK, len(mapped))
                checksum = zlib.crc32(view[at:end], checksum)
                if _LET_GO is not None:
                    page = at - at % mmap.PAGESIZE
                    mapped.madvise(_LET_GO, page, end - page)
        self.checksum = checksum


def _checked(
    handle: BinaryIO, magic: bytes, key: Any
) -> tuple[int, _Layout, tuple[int, int, int], int, int] | None:
    """Where the body starts, the arrays' layout, the values' place, the body's size and
    checksum, once the header is whole and its key is ``key``."""
    start = handle.read(len(magic) + 8)
    if len(start) < len(magic) + 8 or not start.startswith(magic):
        return None  # another kind, format or Python
    size = int.from_bytes(start[len(magic) : len(magic) + 4], "big")
    head = handle.read(size)
    if len(head) != size or zlib.crc32(head) != int.from_bytes(start[-4:], "big"):
        return None
    found_key, layout, values, body_size, body_crc = marshal.loads(head)
    if found_key != key:
        return None  # made from another version of papers.json, or by other code
    body_start = len(start) + size
    body_start += -body_start % _ALIGN
    return body_start, layout, values, body_size, body_crc
