"""``papers.cache``: a copy of ``papers.json``'s papers that loads fast and reads in parts.

Opening 100,000 papers from JSON parses 180 MB; a command that prints ten of them should not.
The cache keeps the papers in list order, in *chunks* of ``CHUNK_ROWS`` papers, and each
chunk field by field (one ``marshal`` block per field, each with its own checksum), so that

- ``papers list | head`` reads the first chunk, not the file;
- resolving ids reads the ``id`` blocks only (1.3 MB at 100,000 papers), and showing a paper
  the blocks of its chunk;
- counting papers per list reads the ``list`` blocks.

It is derived data (``storage.cache.derived``): the header names the version of ``papers.json``
it was made from (its content: ``storage.cache.content_key``), its schema, the paper fields,
the format of this file (``FORMAT``) and the Python that wrote it, and is checked (size and
checksum) before anything in it is believed; each block is checked when read. A damaged block
raises ``DamagedCacheError`` for the reader to fall back on the JSON, the one source of truth.
A valid cache also proves that the JSON it names parsed and that its every record was
readable: it is written only then.
"""

from __future__ import annotations

import marshal
import os
import threading
import zlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any, BinaryIO, NamedTuple

from storage.cache.derived import copy_range, python_tag, write_derived_with
from storage.files.atomic import FileContent, open_regular

PAPERS_CACHE_FILE = "papers.cache"
#: Bumped by hand whenever the layout of the file changes, or what it holds of a paper does
#: (``storage.files.papers_file``'s ``paper_from_doc``): a cache of another format is made again.
FORMAT = 4
#: Papers per chunk: what ``papers list | head`` reads, and showing one paper (~0.4 MB).
CHUNK_ROWS = 256
_MAGIC = b"papers-tui papers.cache %d " % FORMAT + python_tag() + b"\n"
_LENGTHS = 8  # the header's length and checksum, 4 bytes each


class PapersCache(NamedTuple):
    """What a cache is written from: each paper's fields (in list order) and the lists table;
    with ``reuse``, the first ``reused`` chunks are those of an older cache, copied block by
    block, and ``rows`` are the papers after them."""

    rows: Sequence[tuple[Any, ...]]
    lists: dict[str, Any]
    reuse: PapersCacheReader | None = None
    reused: int = 0


class DamagedCacheError(Exception):
    """A block of the cache fails its checksum: the cache must not be used any more."""


def _key(content: FileContent, schema: int, fields: tuple[str, ...]) -> tuple[Any, ...]:
    return (tuple(content), schema, fields)


def write_papers_cache(
    path: Path,
    version: FileContent,
    schema: int,
    fields: tuple[str, ...],
    content: PapersCache,
) -> None:
    """Write the cache of the ``papers.json`` of content ``version`` (best effort), each block
    as it is made.

    The header names every block, so it is written last, into room kept for it before the
    first block: 100,000 papers make 160 MB of blocks, never all in memory. What the header
    does not fill of its room is zeros, which ``marshal.loads`` leaves unread.
    """
    key = _key(version, schema, fields)
    rows, reuse, reused = content.rows, content.reuse, content.reused
    if reuse is not None and (reuse.chunk_rows != CHUNK_ROWS or reuse.fields != fields):
        raise ValueError("a cache of another layout cannot be reused")
    count = reused * CHUNK_ROWS + len(rows)
    chunks = -(-count // CHUNK_ROWS)
    room = _header_room(key, chunks * len(fields), content.lists)

    def write(handle: BinaryIO) -> None:
        handle.seek(len(_MAGIC) + _LENGTHS + room)
        blocks: list[tuple[int, int, int]] = []
        offset = 0

        def put(block: bytes, checksum: int) -> None:
            nonlocal offset
            handle.write(block)
            blocks.append((offset, len(block), checksum))
            offset += len(block)

        if reuse is not None and reused:
            start, length, copied = reuse.span(reused)
            # as the older file holds them, in the kernel (0.4 s of CPU block by block through
            # Python for 100,000 papers); each block keeps its checksum, checked when read
            copy_range(reuse.file, start, length, handle)
            blocks.extend(copied)
            offset = length
        for start in range(0, len(rows), CHUNK_ROWS):
            for column in zip(*rows[start : start + CHUNK_ROWS], strict=True):
                block = marshal.dumps(list(column))
                put(block, zlib.crc32(block))
        head = marshal.dumps((key, count, CHUNK_ROWS, offset, blocks, content.lists))
        if len(head) > room:
            raise ValueError("the cache's header outgrew its room")
        head += bytes(room - len(head))
        handle.seek(0)
        handle.write(_MAGIC + room.to_bytes(4, "big") + zlib.crc32(head).to_bytes(4, "big"))
        handle.write(head)

    write_derived_with(path, write)


def _header_room(key: tuple[Any, ...], blocks: int, lists: dict[str, Any]) -> int:
    """Bytes enough for the header of a cache of ``blocks`` blocks: ``marshal`` writes an
    int in 15 bytes at most, a block's three in a tuple in 47, an object met again in 5."""
    return len(marshal.dumps(key)) + len(marshal.dumps(lists)) + 64 + 48 * blocks


class PapersCacheReader:
    """An open, checked content: its lists table, and its papers' fields read chunk by chunk.

    Safe to share between threads (reads are positioned, ``os.pread``).
    """

    def __init__(
        self,
        handle: BinaryIO,
        body_start: int,
        count: int,
        chunk_rows: int,
        fields: tuple[str, ...],
        blocks: Sequence[tuple[int, int, int]],
        lists: dict[str, Any],
    ) -> None:
        self._handle = handle
        self._lock = threading.Lock()
        self._body_start = body_start
        self.count = count
        self.chunk_rows = chunk_rows
        self.fields = fields
        self._blocks = blocks
        #: The lists table of ``papers.json`` (as stored there).
        self.lists = lists

    @classmethod
    def open(
        cls, path: Path, version: FileContent, schema: int, fields: tuple[str, ...]
    ) -> PapersCacheReader | None:
        """The cache at ``path`` if it was made from the file of content ``version`` by a reader of
        ``papers.json`` schema ``schema`` with these paper ``fields``, else None."""
        try:
            handle = open_regular(path)
        except OSError:
            return None
        try:
            reader = cls._checked(handle, version, schema, fields)
        except (OSError, ValueError, EOFError, TypeError, IndexError):
            reader = None  # not what we wrote
        if reader is None:
            handle.close()
        return reader

    @classmethod
    def _checked(
        cls, handle: BinaryIO, version: FileContent, schema: int, fields: tuple[str, ...]
    ) -> PapersCacheReader | None:
        start = handle.read(len(_MAGIC) + _LENGTHS)
        if len(start) < len(_MAGIC) + _LENGTHS or not start.startswith(_MAGIC):
            return None  # another format or another Python
        size = int.from_bytes(start[len(_MAGIC) : len(_MAGIC) + 4], "big")
        checksum = int.from_bytes(start[len(_MAGIC) + 4 :], "big")
        head = handle.read(size)
        if len(head) != size or zlib.crc32(head) != checksum:
            return None  # torn or damaged
        key, count, chunk_rows, body_size, blocks, lists = marshal.loads(head)
        if key != _key(version, schema, fields):
            return None  # made from another version of papers.json
        body_start = len(start) + size
        chunks = -(-count // chunk_rows) if chunk_rows > 0 else -1
        if (
            os.fstat(handle.fileno()).st_size != body_start + body_size
            or len(blocks) != chunks * len(fields)
            or not isinstance(lists, dict)
        ):
            return None  # cut short, or not what we wrote
        return cls(handle, body_start, count, chunk_rows, fields, blocks, lists)

    @property
    def chunks(self) -> int:
        """Number of chunks."""
        return len(self._blocks) // max(len(self.fields), 1)

    def chunk_size(self, chunk: int) -> int:
        """Number of papers in chunk ``chunk``."""
        return min(self.chunk_rows, self.count - chunk * self.chunk_rows)

    def block(self, field: str, chunk: int) -> tuple[bytes, int]:
        """The block of one field of a chunk as stored, and its checksum (checked)."""
        offset, length, checksum = self._blocks[chunk * len(self.fields) + self.fields.index(field)]
        with self._lock:  # a closed handle must not be read by another thread meanwhile
            if self._handle.closed:
                raise DamagedCacheError("the cache was closed")
            data = os.pread(self._handle.fileno(), length, self._body_start + offset)
        if len(data) != length or zlib.crc32(data) != checksum:
            raise DamagedCacheError(f"chunk {chunk}, field {field!r}")
        return data, checksum

    @property
    def file(self) -> BinaryIO:
        """The open file (read with positioned reads only: its position is not used)."""
        return self._handle

    def span(self, chunks: int) -> tuple[int, int, list[tuple[int, int, int]]]:
        """Where the blocks of the first ``chunks`` chunks lie in the file (they are written
        one after the other, from the body's start): its offset, length, and the blocks as the
        header names them. ``ValueError`` when they do not lie so (not what we wrote)."""
        blocks = list(self._blocks[: chunks * len(self.fields)])
        offset = 0
        for start, length, _ in blocks:
            if start != offset or length < 0:
                raise ValueError("the older cache's blocks do not follow one another")
            offset += length
        if chunks > self.chunks:
            raise ValueError("the older cache holds fewer chunks")
        return self._body_start, offset, blocks

    def column(self, field: str, chunk: int) -> list[Any]:
        """One field of every paper of a chunk, in list order."""
        data, _ = self.block(field, chunk)
        try:
            values = marshal.loads(data)
        except (ValueError, EOFError, TypeError) as exc:
            raise DamagedCacheError(f"chunk {chunk}, field {field!r}: {exc}") from None
        if not isinstance(values, list) or len(values) != self.chunk_size(chunk):
            raise DamagedCacheError(f"chunk {chunk}, field {field!r}: wrong length")
        return values

    def rows(self, chunk: int) -> list[tuple[Any, ...]]:
        """Every field of every paper of a chunk: one tuple per paper, in ``fields`` order."""
        return list(zip(*(self.column(f, chunk) for f in self.fields), strict=True))

    def close(self) -> None:
        """Close the file (the reader raises ``DamagedCacheError`` if read afterwards)."""
        with self._lock:
            self._handle.close()
