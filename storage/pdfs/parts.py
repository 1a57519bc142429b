"""A download's part, ``.ID.pdf.part`` in the folder of copies: only ever a regular file of ours.

The folder may be a sync folder (Dropbox, Syncthing) that others write into: whatever has a
part's name is opened without following a symbolic link (``O_NOFOLLOW``) and without waiting
on a pipe (``O_NONBLOCK``), and is checked *after* it is opened (``fstat``: no gap between the
check and the use). A regular file with one name is the part a download resumes from; anything
else there (a symbolic link, a pipe, a socket, a device, a file with a second name elsewhere)
is removed as the entry itself (``unlink`` never touches what a link points to, nor another
name of a file) and the download starts afresh; a folder there is refused in one line naming
it. Beside a part, ``.ID.pdf.part.json`` says which version of its file it is the start of
(``Version``), read and written by the same rule. A part takes its final name by ``rename``,
which moves a name, never writes through one, and is checked to be the file written.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Final

#: Opening a name in the folder of copies: never through a link, never waiting on a pipe,
#: never taking a terminal.
_SAFE: Final = (
    getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_NOCTTY", 0)
    | getattr(os, "O_CLOEXEC", 0)
)
#: What ``open`` with ``O_NOFOLLOW`` says of a link (``ELOOP``; ``EMLINK`` on FreeBSD), and of a
#: socket (``ENXIO``) or a special file it cannot open.
_NOT_OURS: Final = frozenset({errno.ELOOP, errno.EMLINK, errno.ENXIO, errno.EOPNOTSUPP})
#: Times a part is made afresh when something else takes its name meanwhile.
_TRIES: Final = 3


class PartError(Exception):
    """A part cannot be had (a folder in its place): the cause, in one line."""


def open_part(part: Path) -> IO[bytes]:
    """The part, open to read and write: the regular file of ours at ``part`` (its size is
    where a download resumes), else a new empty one, whatever had the name removed (see the
    module). ``PartError`` for a folder there; ``OSError`` for a folder that takes no file."""
    for _ in range(_TRIES):
        try:
            fd = os.open(part, os.O_RDWR | _SAFE)
        except FileNotFoundError:
            pass
        except IsADirectoryError:
            raise PartError(_folder_there(part)) from None
        except OSError as exc:
            if exc.errno not in _NOT_OURS:
                raise
            _unlink(part)  # a link, a socket: the entry goes, never what it points to
        else:
            if _ours(fd):
                return os.fdopen(fd, "r+b")
            os.close(fd)
            _unlink(part)  # a pipe, a device, a file with another name: not ours to write
            remove_sidecar(part)  # what it said was of that file
        try:  # a new one: O_EXCL makes it, or fails on anything put there since
            fd = os.open(part, os.O_RDWR | os.O_CREAT | os.O_EXCL | _SAFE, 0o644)
        except FileExistsError:
            continue
        return os.fdopen(fd, "r+b")
    raise PartError(f"{part}: something else keeps taking the name of the download's part")


def _ours(fd: int) -> bool:
    """True when the open ``fd`` is a regular file with one name (a part this program made)."""
    found = os.fstat(fd)
    return stat.S_ISREG(found.st_mode) and found.st_nlink == 1


def _folder_there(part: Path) -> str:
    return f"{part}: a folder has the name of the download's part (remove it, then try again)"


def settle(handle: IO[bytes], part: Path, final: Path) -> None:
    """The checked part ``handle`` (open at ``part``) synced and renamed to ``final`` (the
    folder synced). ``OSError`` when it cannot be, or when ``part`` was no longer the file
    written (something put in its place meanwhile: that entry is removed, not kept as the
    copy)."""
    handle.flush()
    os.fsync(handle.fileno())
    written = os.fstat(handle.fileno())
    os.replace(part, final)  # a name moved: nothing written through it
    now = os.lstat(final)
    if (now.st_dev, now.st_ino) != (written.st_dev, written.st_ino):
        _unlink(final)
        raise OSError(errno.ESTALE, "the download's part was replaced while it was written")
    sync_folder(final.parent)


def remove_part(part: Path) -> None:
    """Remove a part (the entry at its name, whatever it is) and what says which version of
    its file it is the start of."""
    _unlink(part)
    remove_sidecar(part)


def remove_sidecar(part: Path) -> None:
    _unlink(sidecar(part))


def sidecar(part: Path) -> Path:
    return part.with_name(part.name + ".json")


def _unlink(path: Path) -> None:
    with contextlib.suppress(OSError):  # gone already, or a folder (which is said elsewhere)
        os.unlink(path)


def sync_folder(path: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def read_small(path: Path, limit: int) -> bytes | None:
    """Up to ``limit`` bytes of the regular file at ``path``, not through a link, not waiting
    on a pipe (None: no such file)."""
    try:
        fd = os.open(path, os.O_RDONLY | _SAFE)
    except OSError:
        return None
    try:
        return os.read(fd, limit) if stat.S_ISREG(os.fstat(fd).st_mode) else None
    except OSError:
        return None
    finally:
        os.close(fd)


def write_new(path: Path, data: bytes) -> None:
    """``data`` as a new regular file at ``path``, whatever had the name removed first (an
    entry, never what a link points to). ``OSError`` when it cannot be made."""
    _unlink(path)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _SAFE, 0o644)
    with os.fdopen(fd, "wb") as out:
        out.write(data)


@dataclass(frozen=True, slots=True)
class Version:
    """Which version of a file a part is the start of (``.ID.pdf.part.json`` beside it): its
    address, its validator (a strong ``ETag``, else ``Last-Modified``) and its size. A part is
    resumed only with ``If-Range`` on the validator, and only when the rest is of the same
    size, so that a file changed meanwhile (a new arXiv version) is never joined to the
    start of the one before."""

    url: str
    validator: str
    size: int

    @property
    def can_resume(self) -> bool:
        return bool(self.validator or self.size)

    @classmethod
    def of(cls, url: str, headers: Any, length: int | None) -> Version:
        etag = (headers.get("ETag") or "").strip()
        strong = etag if etag and not etag.startswith("W/") else ""
        modified = (headers.get("Last-Modified") or "").strip()
        return cls(url, (strong or modified)[:300], length or 0)

    @classmethod
    def read(cls, part: Path) -> Version | None:
        import orjson

        try:
            data = orjson.loads(read_small(sidecar(part), 4096) or b"")
            url, validator, size = data["url"], data["validator"], data["size"]
        except (ValueError, KeyError, TypeError):
            return None
        ok = isinstance(url, str) and isinstance(validator, str) and isinstance(size, int)
        # sent back as a header: one line of visible text (else the part starts again)
        return cls(url, validator, size) if ok and validator.isprintable() else None

    def write(self, part: Path) -> None:
        import orjson

        data = {"url": self.url, "validator": self.validator, "size": self.size}
        with contextlib.suppress(OSError):  # without it, the part is started again next time
            write_new(sidecar(part), orjson.dumps(data))
