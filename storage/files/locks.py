"""The inter-process locks of a HOME: ``HomeLock`` (fair between processes: waiters queue in
the kernel's own line) and ``LockPair`` (two taken as one, always in the same order). Every
change of a file in a HOME is made holding ``LOCK_FILE``; ``triage.json`` has its own,
``TRIAGE_LOCK_FILE``, so that a decision never waits for an import.
"""

from __future__ import annotations

import contextlib
import errno
import os
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

from storage.errors import LockTimeoutError
from storage.locations import make_home

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

    def __init__(self, path: Path, timeout: float = 15.0, *, guards: Path | None = None) -> None:
        self.path = path
        #: The file the user knows whose changes this lock guards (``triage.json``): a writer
        #: refused the lock file (a HOME made read-only, its files too) is told it could not
        #: change that file (``refused_for``), not the lock file it never named.
        self.guards = guards
        self.queue_path = path.with_name(path.name + QUEUE_SUFFIX)
        self.timeout = timeout
        self._thread_lock = threading.RLock()
        self._depth = 0
        self._fd: int | None = None
        self._reading = threading.local()  # the threads in ``reading``
        #: Why the lock was not taken (``reading``), if it was not.
        self.missed = ""

    @contextlib.contextmanager
    def reading(self) -> Iterator[None]:
        """For a reader that changes nothing (``papers sync --status``), in this thread: where
        the lock file can be neither opened nor made (a read-only HOME that never had one),
        the lock is not taken and ``missed`` says why, rather than the reader failing. A lock
        file that is not there is not made (a reader leaves HOME as it was): no writer has
        taken that lock yet, whose files are written whole (renamed into place), and the
        reader reads them without it, as they are, unsaid."""
        self.missed = ""
        self._reading.on = True
        try:
            yield
        finally:
            self._reading.on = False

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

    def _acquire(self) -> int | None:
        deadline = time.monotonic() + self.timeout
        reading = getattr(self._reading, "on", False)
        try:
            try:
                fd = _open_lock(self.path, read_only=reading)
            except FileNotFoundError:
                if reading or self.path.parent.is_dir():
                    raise
                # HOME not there yet: made by the first change, which stores something (a
                # command that fails or only reads leaves no folder behind: ``Library``)
                make_home(self.path.parent)
                fd = _open_lock(self.path, read_only=reading)
        except OSError as exc:
            if not reading and self.guards is not None:
                raise refused_for(exc, self, self.guards) from None
            if not reading or exc.errno not in _UNWRITABLE:
                raise
            self.missed = f"{self.path}: {exc.strerror or exc}"
            return None
        if fd is None:  # a reader, and no lock file: no writer has taken this lock yet
            return None
        try:
            # always joined: else a releaser cuts in
            queue = _open_queue(self.queue_path, read_only=reading)
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


#: What opening a file for writing fails with where the folder is read-only.
_UNWRITABLE = (errno.EACCES, errno.EPERM, errno.EROFS)


def refused_for(exc: OSError, lock: HomeLock | LockPair, path: Path) -> OSError:
    """``exc``, naming ``path`` where it names a file of ``lock`` (its lock file, its queue,
    or the file it guards, said for it) that this user may not write: the file the user
    asked to change, which cannot be changed either (HOME and its files read-only to them:
    ``chmod -R 0555``)."""
    locks = [lock.first, lock.second] if isinstance(lock, LockPair) else [lock]
    own = {str(f) for one in locks for f in (one.path, one.queue_path, one.guards) if f}
    if exc.errno not in _UNWRITABLE or exc.filename not in own:
        return exc
    return OSError(exc.errno, exc.strerror, str(path))


@contextlib.contextmanager
def held_for(lock: HomeLock | LockPair, path: Path) -> Iterator[None]:
    """``lock`` held for a change of ``path``; a lock file this user may not write is said as
    ``path`` refused (``refused_for``)."""
    try:
        lock.__enter__()
    except OSError as exc:
        raise refused_for(exc, lock, path) from None
    try:
        yield
    finally:
        lock.__exit__(None, None, None)


def _open_lock(path: Path, *, read_only: bool) -> int | None:
    """The lock file, open: made where it is not there, and opened read-only where HOME is a
    read-only mount: a lock is taken through any descriptor, so that a reader of a read-only
    HOME (``papers sync --status``) waits for writers all the same, where it failed on
    ``.lock: Read-only file system``, and a writer's error names the file it could not write.
    A lock file this user may not write (another user's HOME) is opened read-only for a
    reader (``read_only``) alone: a writer's lock so taken would let whoever may read a HOME
    hold up its owner's writes. A reader's lock file is not made where it is not there and
    HOME could have it (``HomeLock.reading``): None."""
    try:
        if read_only:
            try:
                return os.open(path, os.O_RDWR)
            except FileNotFoundError:
                if os.access(path.parent, os.W_OK) or not path.parent.exists():
                    return None  # (HOME itself not there yet: nothing to read)
        return os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        if exc.errno not in (_UNWRITABLE if read_only else (errno.EROFS,)):
            raise
        try:
            return os.open(path, os.O_RDONLY)
        except OSError:
            raise exc from None


def _open_queue(path: Path, *, read_only: bool) -> int | None:
    """The queue file, open (None where it cannot be made: the lock works without it)."""
    try:
        return _open_lock(path, read_only=read_only)
    except OSError:
        return None
