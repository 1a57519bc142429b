"""How much an import reads: regular files only (unless told), and never more than a size cap.

``papers import /dev/zero`` once grew to 7 GB in 8 s: a list file is read whole (or, a large
JSON Lines list, line by line: ``ListFile``), so a device, a FIFO that never ends or a mistyped
multi-gigabyte file must be stopped before it is read, not after. A regular file's size is
known before reading it; anything else is refused unless ``special_files`` says to read it, and
then it is read in chunks up to the cap.
"""

from __future__ import annotations

import errno
import hashlib
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from storage.errors import SourceError
from storage.files.atomic import special_kind

#: What the refusals of a special file and of a file too large say can be done, in the CLI's
#: words (the app says them as a shell's: ``tui.screens.importer.in_the_app``).
ANY_FILE_HINT = "(--any-file reads it anyway, up to --max-size)"
MAX_SIZE_HINT = "(--max-size raises it)"
#: The largest list an import reads unless told otherwise (``papers import --max-size``).
#: 256 MB holds ~150,000 papers with their abstracts (ICLR 2025's 3,703 take 6.3 MB): every
#: conference and a year of the busiest arXiv category fit, while reading it whole (and the
#: papers made of it) stays within the memory of an ordinary laptop.
DEFAULT_MAX_BYTES = 256 * 1024**2

_CHUNK = 1024**2
#: How long a FIFO is waited for its first writer (``mkfifo p; papers import p --any-file &``
#: then ``zcat list.gz > p``): opened at once, it would read as empty until one comes.
FIFO_WAIT_S = 60.0


@dataclass(frozen=True, slots=True)
class ReadLimits:
    """What an import may read: at most ``max_bytes`` a file; pipes and devices only if asked."""

    max_bytes: int = DEFAULT_MAX_BYTES
    #: Read FIFOs and devices too (``papers import <(zcat list.jsonl.gz)``), up to the cap.
    special_files: bool = False


@dataclass(frozen=True, slots=True)
class InputStream:
    """A list given on an open file descriptor rather than by a path (``papers import -``:
    standard input): read whole as it comes, whatever it is (a pipe is what was meant), up to
    the size cap; ``name`` is what messages call it. When its content names no list (a
    plain-text list's header), the list is ``list_name``, or ``name`` and letters its content
    gives (``stream_list_name``): two lists piped in are two lists, not one."""

    fd: int = 0
    name: str = "standard input"
    list_name: str = ""


def stream_list_name(name: str, content: bytes) -> str:
    """The list of an ``InputStream`` called ``name`` whose content names none:
    ``standard input`` and eight letters drawn from a digest of ``content``
    (``standard input kqzfmtra``). The same list piped in again is the same list (its import
    changes nothing, as a file's again does: ``zcat list.jsonl.gz | papers import -`` every
    day adds no list); another list is another one, not joined to the first. Letters, not
    the time of the import: a list's name gives its papers without a year the year it
    names (a venue's list, ``ICLR 2025 Papers``), and a date in it gave every paper piped in
    that year, for good."""
    digest = hashlib.sha256(content).digest()
    return f"{name} " + "".join(chr(ord("a") + byte % 26) for byte in digest[:8])


_UNITS = {"": 1, "k": 1024, "m": 1024**2, "g": 1024**3, "t": 1024**4}
_SIZE = re.compile(r"\s*(\d+(?:\.\d+)?)\s*([kmgt]?)(?:i?b)?\s*", re.IGNORECASE)


#: The largest size a limit is (what is larger is no limit; the size is kept within 64 bits).
MAX_SIZE = 1 << 60


def parse_size(text: str) -> int:
    """``2GB``, ``500M``, ``1.5 GiB``, ``100000`` → bytes (K, M, G, T: powers of 1024).

    ValueError for anything else, or for nothing at all (0).
    """
    match = _SIZE.fullmatch(text)
    if match is None:
        raise ValueError(f"not a size: {text!r} (write e.g. 500MB or 2GB)")
    size = float(match[1]) * _UNITS[match[2].lower()]
    if size < 1:
        raise ValueError(f"not a size: {text!r} (it must be more than nothing)")
    return int(min(size, MAX_SIZE))  # larger than any disk: no limit, within 64 bits


def size_text(size: int) -> str:
    """A size for people: ``7.2 GB``, ``256 MB``, ``512 bytes``."""
    for unit, factor in (("TB", 1024**4), ("GB", 1024**3), ("MB", 1024**2), ("KB", 1024)):
        if size >= factor:
            return f"{size / factor:.1f}".removesuffix(".0") + f" {unit}"
    return f"{size} bytes"


def read_bounded(path: Path, limits: ReadLimits) -> bytes:
    """The bytes of the list file ``path``, or ``SourceError`` (one line) saying why not."""
    with ListFile(path, limits) as file:
        return file.read_all()


class ListFile:
    """A list file open for reading within its ``ReadLimits``: whole, or its start and then
    line by line, so that a list of 100,000 papers need never be in memory at once.

    Every failure is a ``SourceError`` (one line); the cap counts every byte read.
    """

    def __init__(self, path: Path, limits: ReadLimits, given: InputStream | None = None) -> None:
        self.path = path
        self.limits = limits
        self._fd = _open(path, limits) if given is None else _duplicate(given.fd, path)
        try:
            info = _checked(self._fd, path, limits, given=given is not None)
        except BaseException:
            os.close(self._fd)
            raise
        #: Whether it is a regular file (else a pipe or a device, read as it comes).
        self.regular = not special_kind(info.st_mode)
        #: What tells this version of the file from another: (inode, size, modification time).
        self.version = (info.st_ino, info.st_size, info.st_mtime_ns)
        # A regular file is read in one request, usually; a pipe a chunk at a time.
        self._request = max(info.st_size + 1, _CHUNK) if self.regular else _CHUNK
        self._total = 0

    def __enter__(self) -> ListFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Let go of the file."""
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1

    def read(self, size: int) -> bytes:
        """The next ``size`` bytes (fewer only at the end of the file)."""
        parts: list[bytes] = []
        wanted = size
        while wanted > 0:
            request = min(wanted, self._request, self.limits.max_bytes + 1 - self._total)
            try:
                chunk = os.read(self._fd, request)
            except OSError as exc:
                raise SourceError(f"{self.path}: cannot be read ({exc.strerror or exc})") from None
            if not chunk:
                break
            parts.append(chunk)
            wanted -= len(chunk)
            self._total += len(chunk)
            if self._total > self.limits.max_bytes:
                raise _too_big(self.path, self.limits)
        return b"".join(parts)

    def read_all(self) -> bytes:
        """The rest of the file."""
        return self.read(self.limits.max_bytes + 1)

    def lines(self, start: bytes = b"") -> Iterator[bytes]:
        """The lines (without their ``\\n``) of ``start`` and then of the rest of the file, read
        a chunk at a time: memory holds a chunk and the line it ends in, however long."""
        tail: list[bytes] = []
        chunk = start
        while True:
            if b"\n" in chunk:
                first, *middle, last = chunk.split(b"\n")
                tail.append(first)
                yield b"".join(tail)
                yield from middle
                tail = [last]
            else:
                tail.append(chunk)
            chunk = self.read(_CHUNK)
            if not chunk:
                break
        if any(tail):
            yield b"".join(tail)


def _open(path: Path, limits: ReadLimits) -> int:
    """A descriptor of ``path``, looked at before it is opened (see ``read_bounded``)."""
    try:
        # Looked at before it is opened: opening some devices does something (a tape rewinds).
        kind = special_kind(os.stat(path).st_mode)
        if kind == "a folder":
            raise SourceError(f"{path}: is a folder")
        if kind and not limits.special_files:
            raise SourceError(
                f"{path}: is {kind}, not a regular file; papers imports list files and folders "
                f"{ANY_FILE_HINT}"
            )
        # Non-blocking, so that opening a FIFO without a writer does not hang.
        return os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise SourceError(f"{path}: {not_there(path, 'no such file')}") from None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise SourceError(f"{path}: {not_there(path)}") from None
        raise SourceError(f"{path}: cannot be read ({exc.strerror or exc})") from None


def _duplicate(fd: int, path: Path) -> int:
    """A descriptor of what ``fd`` reads (closed when the list is read, ``fd`` left open)."""
    try:
        return os.dup(fd)
    except OSError as exc:  # (closed: EBADF)
        raise SourceError(f"{path}: cannot be read ({exc.strerror or exc})") from None


def not_there(path: Path, otherwise: str = "no such file or folder") -> str:
    """Why a path is not there to read: a loop of links, a link to nothing, or ``otherwise``."""
    try:
        os.stat(path)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "a loop of symbolic links (one leads back to another)"
    from storage.files.links import dangling_target

    target = dangling_target(path)  # the end of a chain of links, not its next link
    if target is not None:
        return f"a symbolic link to {target}, which does not exist"
    return otherwise


def _checked(fd: int, path: Path, limits: ReadLimits, *, given: bool = False) -> os.stat_result:
    """What ``fd`` is, once open; ``SourceError`` when it is not to be read. ``given``: a
    descriptor the process was given (``InputStream``), read whatever it is, as it is (its
    writer is there; its blocking mode is shared with whoever gave it)."""
    try:
        info = os.fstat(fd)  # the file opened, which may not be the one looked at a moment ago
        kind = special_kind(info.st_mode)
        if kind and (kind == "a folder" or not (limits.special_files or given)):
            raise SourceError(f"{path}: is {kind}, not a regular file")
        if not kind and info.st_size > limits.max_bytes:
            raise _too_big(path, limits, info.st_size)
        if given:
            return info
        if kind == "a FIFO":
            _wait_for_writer(fd, path)
        if kind:  # opened without blocking (see above): a pipe is now read as it comes
            os.set_blocking(fd, True)
    except OSError as exc:
        raise SourceError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    return info


def _wait_for_writer(fd: int, path: Path) -> None:
    """Wait until a FIFO has a writer (or data), at most ``FIFO_WAIT_S``: read before one
    opened it, it ends at once, as an empty file (the writer may start a moment later)."""
    import select

    poller = select.poll()
    poller.register(fd, select.POLLIN | select.POLLPRI)
    if not poller.poll(FIFO_WAIT_S * 1000):
        raise SourceError(f"{path}: nothing wrote to this FIFO within {FIFO_WAIT_S:.0f} s")


def _too_big(path: Path, limits: ReadLimits, size: int | None = None) -> SourceError:
    found = f"{size_text(size)}, " if size is not None else ""
    return SourceError(
        f"{path}: {found}larger than {size_text(limits.max_bytes)}, the most an import reads "
        f"{MAX_SIZE_HINT}"
    )
