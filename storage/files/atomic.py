"""Crash-safe, process-safe TinyDB files: atomic writes under an inter-process lock.

TinyDB's own ``JSONStorage`` rewrites its file in place, so a crash mid-write leaves a torn file
and two processes overwrite each other. ``AtomicJSONStorage`` instead

* writes a temporary file in the same folder, fsyncs it, renames it over the target and fsyncs
  the folder (git's lockfile-and-rename; a reader sees the old file or the new one, never half);
* keeps the previous version beside it as ``NAME.bak`` (a hard link, so it costs no copy);
* refuses to write over a file it could not parse (``DamagedFileError``, file left as it was);
* only writes inside ``transaction()``, which takes the HOME lock and re-reads the file first,
  so every read-modify-write sees the other processes' changes.
"""

from __future__ import annotations

import contextlib
import os
import stat
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from itertools import islice
from pathlib import Path
from typing import Any, NamedTuple

import orjson
from tinydb.storages import Storage

from storage.errors import DamagedFileError, LockTimeoutError, NewerFileError

Tables = dict[str, dict[str, Any]]
#: Upgrades the tables of a file written by an older schema; gets the old schema number.
Migration = Callable[[Tables, int], Tables]

META_TABLE = "meta"
META_DOC_ID = "1"

if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
    import msvcrt

    def _try_lock(fd: int) -> bool:
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True

    def _unlock(fd: int) -> None:
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)

else:
    import fcntl

    def _try_lock(fd: int) -> bool:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True

    def _unlock(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_UN)


def _lock_in_turn(fd: int, seconds: float) -> bool:
    """Wait up to ``seconds`` for the lock of ``fd`` in the kernel's own queue of waiters
    (woken in turn when it is let go: polling would favour whoever polls most often, a
    process that just arrived over one that has waited long). True once held; False when
    the time ran out, the descriptor then being the waiting thread's to close."""
    if _try_lock(fd):
        return True
    if sys.platform == "win32":  # pragma: no cover - no waiting flock there: poll
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            time.sleep(0.002)
            if _try_lock(fd):
                return True
        os.close(fd)
        return False
    got = threading.Event()
    guard = threading.Lock()
    gave_up: list[bool] = []

    def wait() -> None:
        with contextlib.suppress(OSError):
            fcntl.flock(fd, fcntl.LOCK_EX)
        with guard:
            got.set()
            if gave_up:  # nobody waits for it any more: let it go at once
                os.close(fd)

    threading.Thread(target=wait, name="papers-lock-queue", daemon=True).start()
    if got.wait(seconds):
        return True
    with guard:
        if got.is_set():
            return True
        gave_up.append(True)
    return False


#: The lock file of a HOME: every change of a file in it is made holding it (``triage.json``
#: aside, which has its own, ``TRIAGE_LOCK_FILE``: a decision never waits for an import).
LOCK_FILE = ".lock"
#: The lock of ``triage.json``: taken after ``LOCK_FILE`` by whoever needs both (``LockPair``).
TRIAGE_LOCK_FILE = ".lock-triage"
#: The line to a lock (``.lock-queue`` beside ``.lock``): a process waiting for the lock holds
#: this, so that one that has just let the lock go cannot take it straight back (a loop of
#: ``papers mark`` or ``papers sync`` would otherwise keep the app's writer waiting for
#: seconds: see ``HomeLock``).
QUEUE_SUFFIX = "-queue"


class HomeLock:
    """The inter-process lock of one HOME folder, re-entrant within a process and its threads.

    Fair between processes: a process takes the queue file's lock, then waits for the lock
    itself, and lets the queue go once it holds the lock. Whoever lets the lock go and wants
    it again must queue first, behind the process already waiting, so each waiter is next
    once the holder is done (a loop that releases and re-takes the lock at once does not
    starve the app's writer thread). The queue is waited for in the kernel's own line
    (``_lock_in_turn``); the process at its head polls the lock every 0.5 to 4 ms.
    """

    def __init__(self, path: Path, timeout: float = 15.0) -> None:
        self.path = path
        self.queue_path = path.with_name(path.name + QUEUE_SUFFIX)
        self.timeout = timeout
        self._thread_lock = threading.RLock()
        self._depth = 0
        self._fd: int | None = None

    def __enter__(self) -> HomeLock:
        self._thread_lock.acquire()
        try:
            if self._depth == 0:
                self._fd = self._acquire()
            self._depth += 1
        except BaseException:
            self._thread_lock.release()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        try:
            self._depth -= 1
            if self._depth == 0 and self._fd is not None:
                fd, self._fd = self._fd, None
                _unlock(fd)
                os.close(fd)
        finally:
            self._thread_lock.release()

    def _acquire(self) -> int:
        deadline = time.monotonic() + self.timeout
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            queue = _open_queue(self.queue_path)  # always joined: else a releaser cuts in
            if queue is not None and not _lock_in_turn(queue, self.timeout):
                raise self._timed_out()  # the queue's descriptor is its waiter's to close
            try:
                delay = 0.0005  # at the head of the queue: the lock is next, poll it often
                while not _try_lock(fd):
                    if time.monotonic() > deadline:
                        raise self._timed_out()
                    time.sleep(delay)
                    delay = min(delay * 2, 0.004)
            finally:
                if queue is not None:
                    os.close(queue)  # closing lets the queue go, to the next in line
        except BaseException:
            os.close(fd)
            raise
        return fd

    def _timed_out(self) -> LockTimeoutError:
        return LockTimeoutError(
            f"another papers process has held {self.path} for {self.timeout:.0f} s; "
            "close it and try again"
        )


class LockPair:
    """Two ``HomeLock``s taken as one, always in the same order (the first, then the second),
    let go in the other: what a change of both ``papers.json`` and ``triage.json`` holds
    (``Library.lock``). Whoever holds only the second must never ask for the first."""

    def __init__(self, first: HomeLock, second: HomeLock) -> None:
        self.first = first
        self.second = second
        self.path = first.path

    def __enter__(self) -> LockPair:
        self.first.__enter__()
        try:
            self.second.__enter__()
        except BaseException:
            self.first.__exit__(None, None, None)
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        try:
            self.second.__exit__(*exc)
        finally:
            self.first.__exit__(*exc)


def _open_queue(path: Path) -> int | None:
    """The queue file, open (None where it cannot be made: the lock works without it)."""
    try:
        return os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError:
        return None


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
    return FileSignature(st.st_ino, st.st_size, st.st_mtime_ns)


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


def atomic_write_parts(path: Path, parts: Iterable[bytes], *, backup: bool = True) -> None:
    """``atomic_write`` of the bytes ``parts`` make one after the other, each written as it
    comes: the whole payload is never in memory (a library of 100,000 papers is 180 MB)."""
    target = link_target(path)
    folder = target.parent
    fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    tmp = Path(tmp_name)
    try:
        if hasattr(os, "fchmod"):  # mkstemp makes 0600: keep the file's mode, or the usual one
            os.fchmod(fd, _mode_for(target))
        with os.fdopen(fd, "wb") as out:
            for part in parts:
                out.write(part)
            out.flush()
            os.fsync(out.fileno())
        if backup and target.exists():
            _keep_backup(path)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    fsync_folder(folder)


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


def backup_path(path: Path) -> Path:
    """Where the last good version of ``path`` is kept."""
    return path.with_name(path.name + ".bak")


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
    os.replace(link, bak)


def parse_tables(raw: bytes, path: Path) -> Tables:
    """Parse a TinyDB file, or raise ``DamagedFileError`` naming what is wrong."""
    if not raw.strip():
        raise DamagedFileError(path, "the file is empty", backup_path(path))
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        raise DamagedFileError(path, f"not valid JSON: {exc}", backup_path(path)) from None
    if not isinstance(data, dict):
        raise DamagedFileError(path, "not a TinyDB file: the top level is not an object", None)
    for name, table in data.items():
        if not isinstance(table, dict) or not all(isinstance(d, dict) for d in table.values()):
            raise DamagedFileError(path, f"not a TinyDB file: table {name!r} is malformed", None)
    return data


#: Documents of a large table encoded at a time (see ``encoded_tables``).
_DOCUMENTS_AT_ONCE = 1000


def encoded_tables(tables: Tables) -> Iterator[bytes]:
    """``orjson.dumps(tables)``, byte for byte, in parts: a large table a slice of documents at
    a time, so that writing a library never holds its whole text in memory."""
    if not all(isinstance(name, str) for name in tables):
        yield orjson.dumps(tables)  # what it says of a key that is not text
        return
    yield b"{"
    for number, (name, table) in enumerate(tables.items()):
        yield (b"," if number else b"") + orjson.dumps(name) + b":"
        if not isinstance(table, dict) or len(table) <= _DOCUMENTS_AT_ONCE:
            yield orjson.dumps(table)
            continue
        documents = iter(table.items())
        separator = b"{"
        while part := dict(islice(documents, _DOCUMENTS_AT_ONCE)):
            yield separator + orjson.dumps(part)[1:-1]  # without its braces
            separator = b","
        yield b"}"
    yield b"}"


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
    ) -> None:
        self.path = Path(path)
        self.lock = lock
        self.kind = kind
        self.schema = schema
        self._migrate = migrate
        self._cache: Tables | None = None
        self._cache_sig: FileSignature | None = None
        self._tx: Tables | None = None
        self._dirty = False
        self._tx_thread: int | None = None
        self._copied: set[str] = set()
        #: The version found damaged last (not "changed" again until it changes).
        self._bad_sig: FileSignature | None = None
        #: Whether the last transaction found the file changed by another process.
        self.saw_outside_change = False

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
            self._cache, self._cache_sig = None, None
            return None, None
        if sig == self._cache_sig and self._cache is not None:
            return self._cache, sig
        try:
            raw = self.path.read_bytes()
        except FileNotFoundError:
            return None, None
        try:
            tables = parse_tables(raw, self.path)
        except DamagedFileError:
            self._bad_sig = sig
            raise
        version = schema_of(tables)
        if version > self.schema:
            raise NewerFileError(
                f"{self.path} was written by a newer papers-tui (schema {version}, this one "
                f"reads up to {self.schema}); upgrade papers-tui to open it"
            )
        if version < self.schema:
            tables = self._migrate(tables, version) if self._migrate else tables
            tables.setdefault(META_TABLE, {})[META_DOC_ID] = self._meta()
        self._cache, self._cache_sig = tables, sig
        return tables, sig

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
                    self._tx.setdefault(META_TABLE, {})[META_DOC_ID] = self._meta()
                    atomic_write_parts(self.path, encoded_tables(self._tx))
                    self._cache, self._cache_sig = self._tx, signature(self.path)
            except BaseException:
                self._cache, self._cache_sig = None, None
                raise
            finally:
                self._tx, self._tx_thread, self._dirty = None, None, False

    def _meta(self) -> dict[str, Any]:
        return {"schema": self.schema, "kind": self.kind}
