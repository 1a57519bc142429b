"""Crash-safe, process-safe TinyDB files: atomic writes under an inter-process lock.

TinyDB's own ``JSONStorage`` rewrites its file in place, so a crash mid-write leaves a torn file
and two processes overwrite each other. ``AtomicJSONStorage`` instead

* writes a temporary file in the same folder, fsyncs it, renames it over the target and fsyncs
  the folder (git's lockfile-and-rename; a reader sees the old file or the new one, never half);
* keeps the previous version beside it as ``NAME.bak`` (a hard link, so it costs no copy);
* sweeps the temporaries of writers killed mid-write once they are ten minutes old;
* refuses to write over a file it could not parse (``DamagedFileError``, file left as it was);
* only writes inside ``transaction()``, which takes the HOME lock and re-reads the file first,
  so every read-modify-write sees the other processes' changes.
"""

from __future__ import annotations

import contextlib
import errno
import glob
import hashlib
import io
import itertools
import os
import queue
import stat
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, BinaryIO, NamedTuple, Protocol

from tinydb.storages import Storage

from storage.errors import DamagedFileError, NewerFileError
from storage.files.locks import HomeLock, LockPair
from storage.files.tables_json import (
    Tables,
    backup_path,
    encoded_tables,
    parse_lines,
    parse_tables,
)

__all__ = ["Tables", "backup_path", "encoded_tables", "parse_tables"]
#: Upgrades the tables of a file written by an older schema; gets the old schema number.
Migration = Callable[[Tables, int], Tables]

#: Temporary files of a writer killed mid-write older than this are swept away.
STALE_TEMPORARY_S = 600

META_TABLE = "meta"
META_DOC_ID = "1"


class FileSignature(NamedTuple):
    """What tells one version of a file from another without reading it."""

    inode: int
    size: int
    mtime_ns: int


def signature(path: Path) -> FileSignature | None:
    """The file's current signature, or None when it does not exist."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None
    return _signature_of(st)


def _signature_of(st: os.stat_result) -> FileSignature:
    return FileSignature(st.st_ino, st.st_size, st.st_mtime_ns)


class FileStamp(NamedTuple):
    """A ``FileSignature`` and the inode's change time, which no program can set back: a
    file rewritten in place with its modification time put back still gets a new stamp."""

    inode: int
    size: int
    mtime_ns: int
    ctime_ns: int

    @property
    def signature(self) -> FileSignature:
        return FileSignature(self.inode, self.size, self.mtime_ns)


def _stamp_of(st: os.stat_result) -> FileStamp:
    return FileStamp(st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def stamp(path: Path) -> FileStamp | None:
    """The file's current stamp, or None when it does not exist."""
    try:
        return _stamp_of(os.stat(path))
    except FileNotFoundError:
        return None


class FileContent(NamedTuple):
    """What a file holds, named so that a copy of it is named alike (a signature is not: a
    copy has another inode and time): its size and the SHA-256 of its bytes."""

    size: int
    sha256: str


def content_of(data: bytes | memoryview) -> FileContent:
    """The ``FileContent`` of these bytes."""
    return FileContent(len(data), hashlib.sha256(data).hexdigest())


class StreamDigest:
    """The ``FileContent`` of bytes fed one part after the other, hashed on a thread of its
    own: ``hashlib`` lets go of the interpreter on large data, so the hash of a 180 MB file
    runs beside the encoding or parsing that makes or reads it (0.26 s on its own)."""

    def __init__(self) -> None:
        self._hash = hashlib.sha256()
        self._size = 0
        self._parts: queue.Queue[bytes | memoryview | None] = queue.Queue(maxsize=8)
        self._thread = threading.Thread(target=self._run, name="digest", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while (part := self._parts.get()) is not None:
            self._hash.update(part)

    def feed(self, part: bytes | memoryview) -> None:
        """Add ``part`` (kept unchanged until ``result``)."""
        self._size += len(part)
        self._parts.put(part)

    def fed(self, parts: Iterable[bytes]) -> Iterator[bytes]:
        """``parts``, each fed as it passes."""
        for part in parts:
            self.feed(part)
            yield part

    def result(self) -> FileContent:
        """The content of everything fed (the thread ends)."""
        self.close()
        return FileContent(self._size, self._hash.hexdigest())

    def close(self) -> None:
        """End the thread (what was fed is hashed first)."""
        if self._thread.is_alive():
            self._parts.put(None)
            self._thread.join()


class SpecialFileError(OSError):
    """A FIFO, a device, a socket or a folder where a file is read: refused, not waited on."""

    def __str__(self) -> str:
        return f"{self.filename}: {self.strerror}"


_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_READ_FLAGS = os.O_RDONLY | _NONBLOCK | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0)


def open_regular(path: Path) -> io.BufferedReader:
    """``path`` (or the file its links lead to) open for reading when it is a regular file;
    ``SpecialFileError`` when it is not: a FIFO's reader would wait for a writer for ever.
    ``OSError`` as ``open`` raises it otherwise (``FileNotFoundError``: there is none).
    A device is not even opened (opening some does something)."""
    _refuse_special(os.stat(path).st_mode, path)
    try:
        fd = os.open(path, _READ_FLAGS)
    except BlockingIOError:  # a file under a lease on a network share: wait as open does
        fd = os.open(path, _READ_FLAGS & ~_NONBLOCK)
    try:
        _refuse_special(os.fstat(fd).st_mode, path)  # what was opened, whatever came since
        if _NONBLOCK:  # a regular file's reads never wait; a platform without it has none
            os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def _refuse_special(mode: int, path: Path) -> None:
    kind = special_kind(mode)
    if kind:
        raise SpecialFileError(errno.EINVAL, f"{kind}, not a file", str(path))


def read_regular(path: Path) -> bytes:
    """The bytes of the regular file ``path`` (``open_regular``'s errors)."""
    with open_regular(path) as handle:
        return handle.read()


def read_tables(
    path: Path, digest: bool
) -> tuple[Tables | DamagedFileError, FileStamp, FileContent | None] | None:
    """The tables of the file (or what is wrong with them), the stamp of the very version
    read, and (with ``digest``) its content; None when there is no file.

    Read a line at a time (``tables_json.parse_lines``) through one descriptor, its stamp
    taken before and after: a file replaced by a rename meanwhile cannot mix in, and one
    rewritten in place while it was read is read again.
    """
    for _ in range(_STEADY_TRIES):
        try:
            with open_regular(path) as handle:
                before = _stamp_of(os.fstat(handle.fileno()))
                reading = _Reading(handle, digest)
                try:
                    tables: Tables | DamagedFileError = parse_lines(
                        reading.lines(), path, reading.whole
                    )
                except DamagedFileError as exc:
                    tables = exc
                hashed = reading.content()
                after = _stamp_of(os.fstat(handle.fileno()))
        except FileNotFoundError:
            return None
        if before == after and reading.size == after.size:
            return tables, after, hashed
    raise OSError(f"{path}: the file kept changing while it was read")


#: A first line longer than this: the file is not laid out a slice a line (``tables_json``).
_LONGEST_LINE = 1 << 23


class _Reading:
    """One read of a file: its lines, or (when they are not laid out as written) its whole
    text read again; hashed as it goes, with ``digest``."""

    def __init__(self, handle: BinaryIO, digest: bool) -> None:
        self._handle = handle
        self._digest = StreamDigest() if digest else None
        self._whole: FileContent | None = None
        #: Bytes read (the whole file, once read).
        self.size = 0

    def lines(self) -> Iterator[bytes]:
        first = self._handle.readline(_LONGEST_LINE)
        if len(first) == _LONGEST_LINE and not first.endswith(b"\n"):
            # one long line (an older papers-tui's layout, or a file edited by hand): parsed
            # whole, not copied piece by piece on the way
            return  # no lines: ``parse_lines`` reads it whole
        for line in itertools.chain((first,), self._handle):
            self.size += len(line)
            if self._digest is not None:
                self._digest.feed(line)
            yield line

    def whole(self) -> bytes:
        self._handle.seek(0)
        data = self._handle.read()
        self.size = len(data)
        if self._digest is not None:
            self._whole = content_of(data)
        return data

    def content(self) -> FileContent | None:
        if self._digest is None:
            return None
        for _ in self.lines():  # the rest, when a parse stopped early
            pass
        lines = self._digest.result()
        return self._whole or lines


_STEADY_TRIES = 3


def file_content(path: Path) -> tuple[FileStamp, FileContent] | None:
    """The stamp and ``FileContent`` of the file as it is now, read (not parsed) to be
    hashed (None: no file); ``OSError`` when it cannot be read or keeps changing."""
    for _ in range(_STEADY_TRIES):
        try:
            with open_regular(path) as handle:
                before = _stamp_of(os.fstat(handle.fileno()))
                digest = hashlib.file_digest(handle, "sha256")  # without the interpreter lock
                after = _stamp_of(os.fstat(handle.fileno()))
        except FileNotFoundError:
            return None
        if before == after:
            return after, FileContent(after.size, digest.hexdigest())
    raise OSError(f"{path}: the file kept changing while it was read")


def fsync_folder(folder: Path) -> None:
    """Make a rename in ``folder`` durable (a no-op where folders cannot be opened)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:  # pragma: no cover - Windows
        return
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def atomic_write(path: Path, payload: bytes, *, backup: bool = True) -> None:
    """Replace ``path`` with ``payload`` so that a crash leaves the old file or the new one.

    A symbolic link is written through: its target is replaced (atomically, beside itself) and
    the link stays a link, as dotfile managers expect. ``NAME.bak`` stays beside ``path``.
    """
    atomic_write_parts(path, (payload,), backup=backup)


def atomic_write_parts(
    path: Path, parts: Iterable[bytes], *, backup: bool = True, marker: str = ""
) -> FileStamp:
    """``atomic_write`` of the bytes ``parts`` make one after the other, each written as it
    comes: the whole payload is never in memory (a library of 100,000 papers is 180 MB).
    Returns the stamp of the file written, as renamed (its change time is unknown, -1, when
    another file took its place at once). With a ``marker`` (an export: the folder is the
    user's), the temporary is ``.NAME.MARKER…tmp``, and the caller sweeps those of killed
    writers by it, not this: a file ``.NAME.x.tmp`` there may be another program's."""
    target = link_target(path)
    try:
        return _write_parts(target, path, parts, backup=backup, marker=marker)
    except OSError as exc:
        # a full disk, a folder without write permission: said of the file being written,
        # not of no file (a write's ENOSPC names none) or of the temporary file beside it
        name = Path(exc.filename).name if isinstance(exc.filename, str) else ""
        if exc.filename is None or (name.startswith(f".{target.name}.") and name.endswith(".tmp")):
            raise OSError(exc.errno, exc.strerror, str(target)) from exc
        raise


def _write_parts(
    target: Path, path: Path, parts: Iterable[bytes], *, backup: bool, marker: str
) -> FileStamp:
    folder = target.parent
    prefix = _temporary_prefix(target.name, marker)
    fd, tmp_name = tempfile.mkstemp(prefix=prefix, suffix=".tmp", dir=folder)
    tmp = Path(tmp_name)
    try:
        if hasattr(os, "fchmod"):  # mkstemp makes 0600: keep the file's mode, or the usual one
            os.fchmod(fd, _mode_for(target))
        with os.fdopen(fd, "wb") as out:
            for part in parts:
                out.write(part)
            out.flush()
            os.fsync(out.fileno())
            written = _stamp_of(os.fstat(out.fileno()))
        if backup and target.exists():
            _keep_backup(path)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    fsync_folder(folder)
    if not marker:
        sweep_temporaries(target)
    renamed = stamp(target)  # a rename changes the change time
    if renamed is None or renamed.signature != written.signature:
        return written._replace(ctime_ns=-1)
    return renamed


#: The longest file name most file systems take, in bytes, and what ``mkstemp`` adds to a
#: temporary's prefix (eight characters, then ``.tmp``).
_NAME_MAX = 255
_MKSTEMP_ADDS = len("XXXXXXXX.tmp")


def _temporary_prefix(name: str, marker: str) -> str:
    """``.NAME.MARKER``, the name of the file cut so that its temporary's name is no longer
    than a name may be: a file of a long name (an export's ``-o`` of 230 characters, 80 in
    Chinese) was refused as a name too long, though the name itself was fine."""
    room = _NAME_MAX - _MKSTEMP_ADDS - len(os.fsencode(f"..{marker}"))
    while name and len(os.fsencode(name)) > room:
        name = name[: min(len(name) - 1, room)]
    return f".{name}.{marker}"


def sweep_temporaries(path: Path) -> None:
    """Remove the temporaries of ``path`` that writers killed mid-write left (its own, and the
    link of its backup), once they are old enough for their writer to be dead."""
    now = time.time()
    with contextlib.suppress(OSError):
        for leftover in path.parent.glob(f".{glob.escape(path.name)}.*.tmp"):
            with contextlib.suppress(OSError):
                if now - leftover.lstat().st_mtime > STALE_TEMPORARY_S:
                    leftover.unlink()


def link_target(path: Path) -> Path:
    """The file a write to ``path`` must replace: ``path`` itself, or where its symlinks lead.

    A dangling link leads to the file it names (the write creates it); a loop of links is an
    ``OSError`` (ELOOP), like any other path that cannot be opened.
    """
    if not path.is_symlink():
        return path
    with contextlib.suppress(FileNotFoundError):  # dangling: the write creates what it names
        os.stat(path)  # a loop of links raises here (ELOOP), before anything is written
    return Path(os.path.realpath(path))


_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def special_kind(mode: int) -> str:
    """What a file of ``st_mode`` is when it is not a regular file ("a FIFO"…); "" when it is."""
    if stat.S_ISREG(mode):
        return ""
    return next((kind for is_kind, kind in _KINDS if is_kind(mode)), "a special file")


def _mode_for(path: Path) -> int:
    """The permission bits a replaced file keeps, or those a new file gets under the umask."""
    try:
        return os.stat(path).st_mode & 0o7777
    except OSError:
        return 0o666 & ~_umask()


def _umask() -> int:
    """The process umask, read without changing it where the system tells it."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    umask = os.umask(0o022)  # elsewhere: set and put back
    os.umask(umask)
    return umask


def _keep_backup(path: Path) -> None:
    """Point ``NAME.bak`` at the current (good) version of ``path`` by a hard link."""
    bak = backup_path(path)
    link = path.with_name(f".{path.name}.bak.{os.getpid()}.tmp")
    with contextlib.suppress(FileNotFoundError):
        link.unlink()
    try:
        os.link(link_target(path), link)  # the file itself: os.link would link a symlink
    except OSError:  # no hard links here (or the link leads to another disk): keep no backup
        return
    try:
        os.replace(link, bak)
    except OSError:  # its place taken (a folder named NAME.bak): the write goes on without it
        with contextlib.suppress(OSError):
            link.unlink()


def schema_of(tables: Tables) -> int:
    """The schema version a file declares (0 when it declares none)."""
    meta = tables.get(META_TABLE, {}).get(META_DOC_ID, {})
    version = meta.get("schema", 0)
    return version if isinstance(version, int) else 0


class AtomicJSONStorage(Storage):
    """A TinyDB storage that writes atomically, under the HOME lock, and only in transactions."""

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        lock: HomeLock | LockPair,
        kind: str,
        schema: int,
        migrate: Migration | None = None,
        digest: bool = False,
    ) -> None:
        self.path = Path(path)
        self.lock = lock
        self.kind = kind
        self.schema = schema
        self._migrate = migrate
        #: Whether the content of each version read or written is hashed (``known_content``).
        self.digest = digest
        self._cache: Tables | None = None
        self._cache_sig: FileSignature | None = None
        self._cache_content: tuple[FileStamp, FileContent] | None = None
        self._tx: Tables | None = None
        self._dirty = False
        self._tx_thread: int | None = None
        self._copied: set[str] = set()
        #: The version found damaged last (not "changed" again until it changes).
        self._bad_sig: FileSignature | None = None
        #: Whether the last transaction found the file changed by another process.
        self.saw_outside_change = False
        #: The version last read or written and its ``writes`` (kept when ``forget`` lets the
        #: tables go: asking it of that version parses nothing again).
        self._writes: tuple[FileSignature | None, int] = (None, 0)

    # -- TinyDB's interface -------------------------------------------------------------
    def read(self) -> Tables | None:
        """The file's tables (the transaction's working copy inside a transaction)."""
        if self._tx is not None and self._tx_thread == threading.get_ident():
            return self._tx
        return self.load()

    def write(self, data: Tables) -> None:
        """Stage ``data``; it reaches the disk when the enclosing transaction commits."""
        if self._tx is None or self._tx_thread != threading.get_ident():
            raise RuntimeError(f"{self.path.name}: writes happen inside transaction()")
        self._tx = data
        self._dirty = True

    # -- ours ---------------------------------------------------------------------------
    def load(self) -> Tables | None:
        """Read the file (or reuse the last parse when it has not changed on disk)."""
        return self.load_signed()[0]

    def load_signed(self) -> tuple[Tables | None, FileSignature | None]:
        """``load``, and the version of the file the tables are (taken together: another
        thread may write the file meanwhile)."""
        sig = signature(self.path)
        if sig is None:
            self._cache, self._cache_sig, self._cache_content = None, None, None
            return None, None
        if sig == self._cache_sig and self._cache is not None:
            return self._cache, sig
        found = read_tables(self.path, self.digest)
        if found is None:
            return None, None
        tables, read_stamp, hashed = found
        sig = read_stamp.signature
        if isinstance(tables, DamagedFileError):
            self._bad_sig = sig
            raise tables
        content = (read_stamp, hashed) if hashed is not None else None
        version = schema_of(tables)
        if version > self.schema:
            raise NewerFileError(
                f"{self.path} was written by a newer papers-tui (schema {version}, this one "
                f"reads up to {self.schema}); upgrade papers-tui to open it"
            )
        if version < self.schema:
            tables = self._migrate(tables, version) if self._migrate else tables
            tables.setdefault(META_TABLE, {})[META_DOC_ID] = self._meta(tables)
        self._cache, self._cache_sig, self._cache_content = tables, sig, content
        self._writes = (sig, writes_of(tables))
        return tables, sig

    def writes(self) -> int:
        """How many times the file was written (``writes_of``), parsed only when it is not
        the version last read or written."""
        sig = signature(self.path)
        if sig is not None and sig == self._writes[0]:
            return self._writes[1]
        return writes_of(self.load() or {})

    def known_content(self) -> tuple[FileStamp, FileContent] | None:
        """The stamp and content of the version last read or written, when hashed."""
        return self._cache_content

    def holds(self, version: FileSignature | None) -> bool:
        """Whether the tables of this version of the file are in memory (read or written)."""
        return self._cache is not None and self._cache_sig == version

    def seen(self, version: FileSignature) -> None:
        """Take ``version`` as the one last read, its tables not in memory (what another reader
        of the file gave): ``changed_on_disk`` is False while the file is that version."""
        self._cache, self._cache_sig, self._cache_content = None, version, None

    def writable_table(self, name: str) -> dict[str, Any]:
        """Inside a transaction: a table's documents to change directly (ids as text keys).

        The table is copied on first use in the transaction, so readers holding the last
        parse never see a half-made change; replace documents, do not edit them in place.
        Unlike TinyDB's table calls, this costs nothing per document left alone.
        """
        if self._tx is None or self._tx_thread != threading.get_ident():
            raise RuntimeError(f"{self.path.name}: writes happen inside transaction()")
        if name not in self._copied:
            self._tx[name] = dict(self._tx.get(name, {}))
            self._copied.add(name)
        self._dirty = True
        return self._tx[name]

    def changed_on_disk(self) -> bool:
        """True when the file is not the version this storage last read or wrote.

        A version already found damaged does not count as a change again.
        """
        return self.changed_since(self._cache_sig)

    def changed_since(self, known: FileSignature | None) -> bool:
        """True when the file is not the version ``known`` (nor one found damaged already)."""
        sig = signature(self.path)
        return sig != known and sig != self._bad_sig

    def forget(self) -> None:
        """Drop the parsed tables (the next ``load`` reads the file again); what version was
        last read is still known to ``changed_on_disk``."""
        self._cache = None

    @contextlib.contextmanager
    def transaction(self) -> Iterator[None]:
        """Lock HOME, re-read the file, run the block's TinyDB calls, then write once."""
        with self.lock:
            if self._tx is not None and self._tx_thread == threading.get_ident():
                yield  # nested: the outer transaction writes
                return
            self.saw_outside_change = self.changed_on_disk()
            current = self.load()
            # A shallow copy: TinyDB replaces whole tables, so the cache is not touched
            # unless a document is updated in place; a failure below drops the cache anyway.
            self._tx = dict(current) if current is not None else {}
            self._tx_thread = threading.get_ident()
            self._dirty = False
            self._copied = set()
            try:
                yield
                if self._dirty:
                    self._tx.setdefault(META_TABLE, {})[META_DOC_ID] = self._meta(self._tx)
                    self._write(self._tx)
            except BaseException:
                # The tables in memory may hold the failed change: read them again. The
                # version known stays the one read above (a write that failed before its
                # rename changed nothing on disk; one that failed after it changed the
                # signature): a refused write is not another process's change.
                self._cache, self._cache_content = None, None
                raise
            finally:
                self._tx, self._tx_thread, self._dirty = None, None, False

    def _write(self, tables: Tables) -> None:
        """Write ``tables`` (hashed as they are written, when asked) and keep them as the
        last version known."""
        count = writes_of(tables)
        if not self.digest:
            self._cache_sig = atomic_write_parts(self.path, encoded_tables(tables)).signature
            self._cache, self._cache_content = tables, None
            self._writes = (self._cache_sig, count)
            return
        digest = StreamDigest()
        try:
            written = atomic_write_parts(self.path, digest.fed(encoded_tables(tables)))
        finally:
            content = digest.result()
        self._cache, self._cache_sig = tables, written.signature
        self._cache_content = (written, content)
        self._writes = (written.signature, count)

    def _meta(self, tables: Tables) -> dict[str, Any]:
        """The meta document of ``tables`` about to be written: the schema and kind, and how
        many times the file was written (``writes``: a copy put back from a backup is told by
        fewer writes than a sync saw)."""
        return {"schema": self.schema, "kind": self.kind, "writes": writes_of(tables) + 1}


def writes_of(tables: Tables) -> int:
    """How many times the file of ``tables`` was written (``_meta``; 0 for a file made before
    it was counted, or none)."""
    meta = tables.get(META_TABLE)
    doc = meta.get(META_DOC_ID) if isinstance(meta, dict) else None
    found = doc.get("writes") if isinstance(doc, dict) else None
    return found if isinstance(found, int) and not isinstance(found, bool) and found > 0 else 0


class ChangingTables(Protocol):
    """What a change of a file works on: its tables, and a table to change."""

    def read(self) -> Tables | None: ...

    def writable_table(self, name: str) -> dict[str, Any]: ...

    def known_content(self) -> tuple[FileStamp, FileContent] | None: ...


class ScratchTables:
    """A file's tables changed in memory only: what a change would do, nothing written (an
    import's ``--dry-run``)."""

    def __init__(self, tables: Tables) -> None:
        self._tables = dict(tables)
        self._copied: set[str] = set()

    def read(self) -> Tables:
        return self._tables

    def known_content(self) -> tuple[FileStamp, FileContent] | None:
        return None  # not a version of any file

    def writable_table(self, name: str) -> dict[str, Any]:
        if name not in self._copied:
            self._tables[name] = dict(self._tables.get(name, {}))
            self._copied.add(name)
        return self._tables[name]
