"""The sync folder: one subfolder per device, each written by that device alone.

::

    DIR/papers-tui/<device id>/triage.jsonl   statuses, notes, tags: appended to, never rewritten
                              papers.jsonl   papers and their removals: appended to
                              device.json    the device's name and last sync: replaced atomically

A file-sync tool or git therefore never sees two writers of one file. What such tools do all the
same is read as it comes: a file still arriving ends in an incomplete record (or a note's or
tags' basis without the record written right after it), or holds a block of zeros where bytes
have not arrived (read up to it, the rest next time; zeros that stay are damage: ``Hole``); a
conflicted copy (``triage (conflicted copy).jsonl``, ``triage.sync-conflict-….jsonl``,
``triage 2.jsonl``) is one more log to read, since every record names its device; a file
replaced or cut shorter is read again from its start; a line that is not a record is skipped
and counted. Files whose names start with a dot are the tools' own (temporary files,
placeholders) and are left alone; iCloud Drive's placeholder of a log it keeps in the cloud
only (``.triage.jsonl.icloud``) says that log is there, not yet here.

A name that is not UTF-8 (a conflicted copy a NAS named in Latin-1, ``triage (conflicted copy
\xe9).jsonl``) is read all the same, and known by its bytes written out (``shown``): such a name
as Python holds it cannot be written into the sync state or onto a terminal.

Whoever else can write in the folder (a shared folder, a git remote) could put a symbolic link
where a device's file or folder goes: it is never followed, read or written through (one append
through it would write into any file of this user's, a card would replace it), and only regular
files are read, a card up to ``MAX_CARD`` bytes (a link to ``/dev/zero`` or a FIFO is no card).
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import stat
from codecs import BOM_UTF8
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from itertools import chain
from pathlib import Path
from typing import Any, NamedTuple

import orjson

from storage.errors import LibraryError
from storage.files.atomic import atomic_write, fsync_folder
from storage.locations import is_library_folder
from storage.sync.records import BASIS, MAX_LINE, Record, is_id, parse_line, parse_record

ROOT_NAME = "papers-tui"
TRIAGE_LOG = "triage.jsonl"
PAPERS_LOG = "papers.jsonl"
CARD = "device.json"
LOG_SUFFIX = ".jsonl"
#: What iCloud Drive adds to a file it keeps in the cloud only (``.NAME.icloud``, a placeholder).
_ICLOUD = ".icloud"
#: The bytes before a cursor that tell whether a file is still the one read (not replaced).
_TAIL = 64
#: Zeros where a block of a file has not arrived: a block is 512 bytes at the least.
_HOLE = b"\0" * 512
#: How long zeros may wait to arrive at the most (a sync tool fills a file in seconds or
#: minutes; a USB stick pulled early or a crash leaves them for good), and at the least once
#: the file was written past them (its writer appended after them: they are not on their way).
HOLE_WAIT_MS = 24 * 60 * 60 * 1000
HOLE_SETTLE_MS = 10 * 60 * 1000
#: What is blank around a record: line ends of any system, and zeros after the last record.
_BLANK = b" \t\r\n\0"
#: How far back from a log's end its last record is looked for (past zeros and blank lines).
_LOOK_BACK = MAX_LINE + 1024 * 1024
#: Bytes read at a time, and at most in one sync from one log (a log of 100,000 papers is
#: ~180 MB: read in one go; a bigger one over several syncs).
_CHUNK = 1024 * 1024
READ_BUDGET = 256 * 1024 * 1024
#: A cursor's tail digest starting with this stops inside a line too long to be a record.
_INSIDE = "~"
#: A device's card is a few dozen bytes; a bigger one is no card.
MAX_CARD = 64 * 1024
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_Sink = Callable[[list[Record]], None]  # takes a log's records a chunk's worth at a time


class SyncError(LibraryError):
    """The sync folder cannot be used at all (missing, not a folder, unreadable)."""


def shown(name: str) -> str:
    """A file name as text that can be stored and shown: its bytes that are not UTF-8 written
    as ``\\xe9`` (the name itself, as the system gives it, still opens the file)."""
    return name.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


@dataclass(frozen=True, slots=True)
class LogFile:
    """One log file found in the folder."""

    path: Path
    #: Where it is, relative to the folder's root (``<device>/triage.jsonl``): what the read
    #: position is remembered under (``shown``: text whatever bytes the names hold).
    key: str
    #: The device folder it is in (``shown``).
    folder: str

    @property
    def name(self) -> str:
        """The file's name, to show (``shown``)."""
        return shown(self.path.name)

    @property
    def conflicted(self) -> bool:
        """True for a sync tool's copy of a log (any name but the log's own)."""
        return self.path.name not in (TRIAGE_LOG, PAPERS_LOG)


class Scan(NamedTuple):
    """What a sync folder holds (``SyncFolder.scan``)."""

    logs: list[LogFile]
    #: Symbolic links where a device's folder or log goes: never followed.
    links: list[Path]
    #: Logs iCloud Drive keeps in the cloud (where each would be): not on this machine.
    away: list[Path]


@dataclass(frozen=True, slots=True)
class Cursor:
    """How far a log was read: bytes of complete lines, and a digest of the bytes before."""

    offset: int
    tail: str

    def to_json(self) -> list[Any]:
        return [self.offset, self.tail]

    @classmethod
    def from_json(cls, data: Any) -> Cursor | None:
        if isinstance(data, list) and len(data) == 2 and isinstance(data[0], int):
            return cls(max(0, data[0]), str(data[1]))
        return None


@dataclass(frozen=True, slots=True)
class Hole:
    """A block of zeros, or a last line still arriving, a log's cursor waits at: where its
    line starts, and the file's size and the time (ms) when it was first seen there."""

    at: int
    size: int
    since: int

    def lasting(self, size: int, now: int) -> bool:
        """Whether zeros still here are damage rather than bytes on their way: the file was
        written past them since they were seen (it grew, or was cut) and a while went by, or
        a day did. Skipped then, or nothing after them would ever be read."""
        waited = now - self.since
        return waited >= HOLE_WAIT_MS or (size != self.size and waited >= HOLE_SETTLE_MS)

    def to_json(self) -> list[int]:
        return [self.at, self.size, self.since]

    @classmethod
    def from_json(cls, data: Any) -> Hole | None:
        if isinstance(data, list) and len(data) == 3 and all(type(n) is int for n in data):
            return cls(*data)
        return None


@dataclass(slots=True)
class LogRead:
    """The records read from one log since its cursor."""

    records: list[Record] = field(default_factory=list)
    cursor: Cursor = Cursor(0, "")
    #: The file was replaced or cut shorter since last read: read again from its start.
    restarted: bool = False
    #: Bytes after the last complete line, or from the first line not fully arrived (a block
    #: of zeros where its bytes go): records still arriving, read again next time.
    waiting: int = 0
    #: The block of zeros the cursor waits at (to remember until the next read), if any.
    hole: Hole | None = None
    #: Complete lines that are no record (damaged, too long, a later version's, or holding
    #: zeros that stayed: ``Hole.lasting``).
    skipped: int = 0
    #: Of those, the note and tags records past the caps (by hand): what and why, each.
    past_caps: list[str] = field(default_factory=list)
    #: Bytes past what one sync reads of a log (``READ_BUDGET``): read by the next ones.
    more: int = 0
    #: What was wrong with a last line read as it is once ``Hole.lasting`` ("" if none was).
    cut: str = ""
    #: A last line not whole once that wait went by: waited for all the same, unsaid.
    stalled: bool = False


def _tail_digest(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=8).hexdigest()


def check_folder(folder: Path, home: Path) -> bool:
    """Refuse a library's folder as the folder to sync by (``SyncError``): the library's own,
    or another's (a sync tool must not carry a library's files, which two devices would then
    write at once); returns whether the library's folder is inside ``folder``, which is the
    same danger, said as a warning. A folder that cannot be resolved (a loop of links) is
    neither."""
    try:
        folder_at, home_at = folder.resolve(), home.resolve()
    except (OSError, RuntimeError):
        return False
    if folder_at == home_at:
        raise SyncError(
            f"{folder}: the library's own folder; sync through a folder your sync tool "
            "shares between machines"
        )
    if is_library_folder(folder_at):  # another library's HOME, kept in Dropbox…
        raise SyncError(
            f"{folder}: a papers-tui library folder (a sync tool must not carry a library's "
            "own files); sync through a folder of its own"
        )
    return home_at.is_relative_to(folder_at)


class SyncFolder:
    """A folder that a file-sync tool or git carries between devices."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path).expanduser()
        if not self.path.exists():
            raise SyncError(f"{self.path}: the sync folder does not exist (is it mounted?)")
        if not self.path.is_dir():
            raise SyncError(f"{self.path}: not a folder")
        self.root = self.path / ROOT_NAME
        if self.path.name == ROOT_NAME and not self.root.exists() and _holds_devices(self.path):
            # the folder this program makes in the synced one, given for it: a sync would
            # start a library of its own inside (papers-tui/papers-tui), seeing no device
            raise SyncError(
                f"{self.path}: the folder papers-tui keeps inside the synced folder; give the "
                f"synced folder itself, {self.path.parent}"
            )

    def device_folder(self, device: str) -> Path:
        return self.root / device

    def log_files(self) -> list[LogFile]:
        """Every log of every device, conflicted copies included, in a stable order."""
        return self.scan().logs

    def scan(self) -> Scan:
        """Every log of every device (conflicted copies included) in a stable order, the
        symbolic links found where a device folder or a log goes (never followed, said), and
        the logs iCloud Drive keeps in the cloud (``.triage.jsonl.icloud``: their bytes are not
        on this machine; said, and read once downloaded)."""
        found: list[LogFile] = []
        links: list[Path] = []
        away: list[Path] = []
        for folder in _entries(self.root):
            if folder.name.startswith("."):
                continue
            if folder.is_symlink():
                links.append(Path(folder.path))
                continue
            if not folder.is_dir(follow_symlinks=False):
                continue
            for entry in _entries(Path(folder.path)):
                name = entry.name
                if name.startswith(".") and name.endswith(LOG_SUFFIX + _ICLOUD):
                    away.append(Path(folder.path) / name[1 : -len(_ICLOUD)])
                if name.startswith(".") or not name.endswith(LOG_SUFFIX):
                    continue
                if entry.is_symlink():  # a loop of links too: never followed, never stat'ed
                    links.append(Path(entry.path))
                elif entry.is_file(follow_symlinks=False):
                    where = shown(folder.name)
                    found.append(LogFile(Path(entry.path), f"{where}/{shown(name)}", where))
        here = {log.path for log in found}  # a placeholder beside its file: downloaded now
        logs = sorted(found, key=lambda log: log.key)
        return Scan(logs, sorted(links), sorted(set(away) - here))

    def read(
        self,
        log: LogFile,
        cursor: Cursor | None,
        sink: Callable[[list[Record]], None] | None = None,
        *,
        hole: Hole | None = None,
        own: bool = False,
        now: int = 0,
    ) -> LogRead:
        """The complete records of ``log`` after ``cursor`` (all of them without one); with
        ``sink``, handed to it a chunk's worth at a time instead (never all in memory).

        Bounded whatever the file holds: read ``_CHUNK`` bytes at a time, at most
        ``READ_BUDGET`` bytes a sync (the rest next time: ``LogRead.more``); a line longer
        than ``MAX_LINE`` is skipped without being held (a cursor may stop inside one, and
        skips the rest of it next time); at a block of zeros (``_HOLE``: bytes still to
        arrive) the cursor waits, and nothing after it is read (records read twice would be
        counted as received twice), until the zeros are filled or taken as damage: ``hole``
        (the one it waited at, as ``LogRead.hole`` said) lasting at ``now`` (ms), or any in
        this device's ``own`` log (it alone writes it: no byte of it is on its way, and a last
        line without its line end was cut short: read as it is, a record or a damaged line).
        So does another's last line not ended, once lasting, if whole but for its line end.
        """
        result = LogRead()
        fd = _open_regular(log.path, os.O_RDONLY)
        try:
            size = os.fstat(fd).st_size
            start, inside = 0, False
            if cursor is not None:
                start = cursor.offset
                inside = cursor.tail.startswith(_INSIDE)
                before = max(0, start - _TAIL)
                if start > size or (
                    start > 0
                    and _tail_digest(os.pread(fd, start - before, before))
                    != cursor.tail.removeprefix(_INSIDE)
                ):
                    start, inside, result.restarted = 0, False, True
            end = min(size, start + READ_BUDGET)
            result.more = size - end
            same = hole is not None and hole.at == start and not result.restarted
            lasting = start if same and hole is not None and hole.lasting(size, now) else -1
            settled, why = _scan(fd, start, end, inside, result, sink, lasting, own=own)
            if why == "" and not result.more and settled < end and (own or lasting == settled):
                take = _take_cut if own else _take_last
                cut = take(os.pread(fd, end - settled, settled), result, sink)
                result.stalled = cut is None  # (waited for, unsaid: nothing after it waits)
                settled, result.cut = (settled, "") if cut is None else (end, cut or "")
            inside_at_end = why == "inside"
            # still arriving: from a hole, or a last line not ended (not a sync's budget left)
            arriving = why == "hole" or (why == "" and not result.more)
            result.waiting = end - settled if arriving else 0
            if result.waiting:  # remembered from when first seen at that offset
                result.hole = hole if same and settled == start else Hole(settled, size, now)
            tail_start = max(0, settled - _TAIL)
            tail = _tail_digest(os.pread(fd, settled - tail_start, tail_start))
        finally:
            os.close(fd)
        result.cursor = Cursor(settled, (_INSIDE if inside_at_end else "") + tail)
        return result

    def append(self, device: str, name: str, lines: Iterable[bytes]) -> int:
        """Append complete lines to one of this device's logs, durably, a part at a time (each
        part whole lines, ``in_batches``: a first sync of 100,000 papers appends 178 MB, which
        joined whole, beside its lines, took the sync to 917 MB); returns the log's new size.

        A log that ends in a broken line (a write cut short) gets a line break first, so the
        broken line stays one skipped line instead of spoiling the first record appended.
        """
        folder = self._own_folder(device)
        path = folder / name
        fd = _open_regular(path, os.O_RDWR | os.O_APPEND | os.O_CREAT)
        try:
            size = os.fstat(fd).st_size
            if size and os.pread(fd, 1, size - 1) != b"\n":
                lines = chain((b"\n",), lines)
            try:
                for part in lines:
                    view = memoryview(part)
                    written = 0
                    while written < len(view):
                        written += os.write(fd, view[written:])
                os.fsync(fd)
            except OSError:  # a full disk: what was written is cut off again, not left torn
                with contextlib.suppress(OSError):  # (every other device skipped it, saying so)
                    os.ftruncate(fd, size)
                raise
            size = os.fstat(fd).st_size
        finally:
            os.close(fd)
        fsync_folder(folder)
        return size

    def grown(self, log: LogFile, known: int, last: str) -> tuple[int, bool] | None:
        """This device's own ``log`` when it is bigger than the ``known`` size it appended:
        its size, and whether it ends in a record other than the last one appended here
        (``last``, its ``record_digest``): another writer's, a copy of this HOME. None when
        it is not bigger, or no regular file.

        Only its end is read, once for each time it grew: a log rewritten with the same
        records (CRLF line ends by git's autocrlf, a byte-order mark by an editor) or given
        zeros or blank lines at its end still ends in this device's last record."""
        try:
            fd = _open_regular(log.path, os.O_RDONLY)
        except OSError:  # a link put in its place: never read
            return None
        try:
            size = os.fstat(fd).st_size
            floor = max(0, size - _LOOK_BACK)
            data = b"" if size <= known else os.pread(fd, size - floor, floor).rstrip(_BLANK)
        finally:
            os.close(fd)
        if size <= known:
            return None
        start = data.rfind(b"\n") + 1
        if not data or (start == 0 and floor > 0):  # nothing, or a line too long to be one
            return size, False
        line = data[start:]
        if record_digest(line) == last:
            return size, False
        try:
            return size, parse_record(line.removeprefix(BOM_UTF8).strip(_BLANK)) is not None
        except ValueError:  # damage, no writer's record
            return size, False

    def appended(self, device: str, name: str, since: int, length: int) -> bytes | None:
        """The last ``length`` bytes of one of this device's logs when it is ``since`` bytes
        and those long (what one append wrote past ``since``); None when it is not, or is no
        regular file."""
        try:
            fd = _open_regular(self.device_folder(device) / name, os.O_RDONLY)
        except OSError:
            return None
        try:
            if os.fstat(fd).st_size != since + length:
                return None
            return os.pread(fd, length, since)
        finally:
            os.close(fd)

    def end_cursor(self, device: str, name: str) -> Cursor:
        """A cursor at the end of one of this device's logs (what it wrote need not be read
        back)."""
        path = self.device_folder(device) / name
        with os.fdopen(_open_regular(path, os.O_RDONLY), "rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            handle.seek(max(0, size - _TAIL))
            return Cursor(size, _tail_digest(handle.read()))

    def size_of(self, device: str, name: str) -> int:
        """The size of one of this device's logs (0 when it does not exist)."""
        try:
            return (self.device_folder(device) / name).stat().st_size
        except FileNotFoundError:
            return 0

    def write_card(self, device: str, card: dict[str, Any]) -> None:
        """Replace this device's card (its name, when it last synced); a link put in its
        place is taken away, never written through."""
        path = self._own_folder(device) / CARD
        if path.is_symlink():
            path.unlink()
        atomic_write(path, orjson.dumps(card), backup=False)

    def _own_folder(self, device: str) -> Path:
        """This device's folder, made as needed: never a symbolic link, nor inside one."""
        folder = self.device_folder(device)
        for part in (self.root, folder):
            if part.is_symlink():
                raise _link_error(part)
        folder.mkdir(parents=True, exist_ok=True)
        return folder

    def cards(self) -> dict[str, dict[str, Any]]:
        """Every device's card that reads well, by device id."""
        found: dict[str, dict[str, Any]] = {}
        for folder in _entries(self.root):
            if folder.name.startswith(".") or not is_id(folder.name):
                continue
            if not folder.is_dir(follow_symlinks=False):
                continue
            try:
                card = orjson.loads(_read_small(Path(folder.path) / CARD, MAX_CARD))
            except (OSError, orjson.JSONDecodeError):
                continue
            if isinstance(card, dict) and card.get("id") == folder.name:
                found[folder.name] = card
        return found


def log_mark(path: Path) -> list[int] | None:
    """What tells whether one of this device's own logs changed since it wrote it, without
    reading it: its inode, size and modification time (None when it is no regular file)."""
    try:
        found = os.lstat(path)
    except OSError:
        return None
    if not stat.S_ISREG(found.st_mode):
        return None
    return [found.st_ino, found.st_size, found.st_mtime_ns]


def record_digest(line: bytes) -> str:
    """A record line's digest whatever its line end, a byte-order mark before it or zeros
    after it (the same record in a log another program re-encoded)."""
    return _tail_digest(line.removeprefix(BOM_UTF8).strip(_BLANK))


def _scan(
    fd: int,
    start: int,
    end: int,
    inside: bool,
    result: LogRead,
    sink: Callable[[list[Record]], None] | None = None,
    lasting: int = -1,
    *,
    own: bool = False,
) -> tuple[int, str]:
    """Read the lines of ``fd`` from ``start`` to ``end`` into ``result`` (``inside``: the
    start is inside a line too long to be a record, skipped to its end; ``lasting``: where
    a line holding zeros that stayed starts, ``own``: any line holding zeros is damage).

    Returns where the cursor goes, and why it stops there: "" after the last complete line
    (in another's log, before it when it is a ``BASIS`` whose record has not arrived: a sync
    tool delivering the log in parts cut between the two, which a device writes one after the
    other; read again with its record, or its basis would be gone by then: ``Folded.bases``),
    ``"hole"`` before the first line holding a hole (read again once it has arrived, and
    nothing past it now), ``"inside"`` inside a line too long to be a record, not ended yet
    (the rest of it skipped next time).
    """
    scan = _Scan(start, inside, result, lasting, own=own)
    pos = start
    while pos < end:
        if scan.hole_at is not None:
            break  # the rest waits for the hole to fill
        chunk = os.pread(fd, min(_CHUNK, end - pos), pos)
        if not chunk:
            break
        scan.feed(chunk, pos)
        if sink is not None and result.records:
            held = [result.records.pop()] if scan.basis_at is not None else []
            if result.records:  # (a basis last: held until the record after it is read)
                sink(result.records)
            result.records = held
        pos += len(chunk)
    settled, why = scan.settled, ""
    if scan.hole_at is not None:
        settled, why = scan.hole_at, "hole"
    elif scan.overlong and pos > scan.settled:
        settled, why = pos, "inside"
    if scan.basis_at is not None and not own and why != "inside":
        result.records.pop()  # its record has not arrived (or is zeros yet): both next time
        settled = scan.basis_at
    if sink is not None and result.records:
        sink(result.records)
        result.records = []
    return settled, why


class _Scan:
    """The lines of a log as its chunks come: whole lines of a chunk in one go, a line across
    chunks gathered (up to ``MAX_LINE``, then only its end is looked for)."""

    def __init__(
        self, start: int, inside: bool, result: LogRead, lasting: int, *, own: bool
    ) -> None:
        self.result = result
        self.lasting, self.own = lasting, own
        self.line = bytearray()  # the line so far, when it started in an earlier chunk
        self.overlong = inside
        self.holed = False
        self.settled = start  # after the last complete line (before a hole: its line)
        self.hole_at: int | None = None
        self.basis_at: int | None = None  # where the last line starts, when it is a BASIS

    def feed(self, chunk: bytes, pos: int) -> None:
        first = chunk.find(b"\n")
        if first < 0:
            self._extend(chunk, pos)
            return
        self._extend(chunk[:first], pos)
        self._end_line(pos + first + 1)
        last = chunk.rfind(b"\n")
        if last > first:
            whole = chunk[first + 1 : last]  # lines within this chunk: each < MAX_LINE
            if self.hole_at is None and _HOLE not in whole:
                at = pos + first + 1
                for raw in whole.split(b"\n"):
                    if raw.strip():
                        self._take(raw, at)
                    at += len(raw) + 1
                self.settled = pos + last + 1
            else:
                at = pos + first + 1
                for raw in whole.split(b"\n"):
                    self._extend(raw, at)
                    at += len(raw) + 1
                    self._end_line(at)
        self._extend(chunk[last + 1 :], pos + last + 1)

    def _extend(self, piece: bytes, at: int) -> None:
        if not piece:
            return
        if not self.holed:
            tail = bytes(self.line[-len(_HOLE) :]) if self.line else b""
            if _HOLE in piece or (tail and _HOLE in tail + piece[: len(_HOLE)]):
                self.holed = True
                # (waiting before a basis: the zeros are in the line after it)
                damage = self.own or self.lasting in (self.settled, self.basis_at)
                if self.hole_at is None and not damage:
                    self.hole_at = self.settled
        if self.overlong:
            return
        if len(self.line) + len(piece) > MAX_LINE:
            self.overlong = True
            self.line = bytearray()
        else:
            self.line += piece

    def _end_line(self, line_end: int) -> None:
        if self.hole_at is not None:
            pass  # the hole's line, or one after it: read once the hole is filled
        elif self.holed or self.overlong:  # zeros that stayed, or too long
            self.result.skipped += 1
            self.basis_at = None
        elif self.line.strip():
            self._take(bytes(self.line), line_end - 1 - len(self.line))
        if self.hole_at is None:
            self.settled = line_end
        self.line = bytearray()
        self.overlong = self.holed = False

    def _take(self, raw: bytes, at: int) -> None:
        """Take the line starting at ``at``, keeping where it starts if it is a ``BASIS``."""
        records = self.result.records
        count = len(records)
        _take(raw, self.result)
        self.basis_at = at if len(records) > count and records[-1].kind == BASIS else None


def _take(raw: bytes, result: LogRead) -> None:
    record, past = parse_line(raw.removeprefix(BOM_UTF8))  # (a BOM: saved by a Windows editor)
    if record is None:
        result.skipped += 1
        result.past_caps += [past] if past else []
    else:
        result.records.append(record)


def _take_cut(raw: bytes, result: LogRead, sink: _Sink | None) -> str:
    """The last line of this device's own log, without its line end: a record whole but for
    it is taken, anything else but blanks and zeros is a damaged line (nothing to say: its
    check says it, ``storage.sync.own``)."""
    if raw := raw.strip(_BLANK):
        _take(raw, result)
    if sink is not None and result.records:
        sink(result.records)
        result.records = []
    return ""


def _take_last(raw: bytes, result: LogRead, sink: _Sink | None) -> str | None:
    """Another device's last lines, waited for until that was damage (``Hole.lasting``):
    taken when whole but for the last line end (a record, a ``BASIS`` before it, blanks),
    returning what was wrong ("" for blanks); None for a line cut short or a basis last,
    maybe still on its way (a laptop asleep, a slow sync tool; read past, it is lost)."""
    got, last = LogRead(), raw.rsplit(b"\n", 1)[-1].strip(_BLANK)
    for line in raw.split(b"\n"):  # (a basis before a record without its line end)
        _take_cut(line, got, None)
    if got.skipped or (got.records and not last):
        return None
    result.records += got.records
    _take_cut(b"", result, sink)  # (handed to the sink)
    return "its last line never got its line end" if last else ""


def _link_error(path: Path) -> OSError:
    return OSError(errno.ELOOP, "a symbolic link, never followed", str(path))


def _open_regular(path: Path, flags: int) -> int:
    """A descriptor of the regular file ``path``: ``OSError`` for a symbolic link (never
    followed), a FIFO or a device (opened without waiting, then refused)."""
    try:
        fd = os.open(path, flags | _NOFOLLOW | _NONBLOCK, 0o644)
    except OSError as exc:
        if exc.errno == errno.ELOOP or path.is_symlink():
            raise _link_error(path) from None
        raise
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise OSError(errno.EINVAL, "not a regular file", str(path))
    if _NONBLOCK:
        os.set_blocking(fd, True)
    return fd


def _read_small(path: Path, limit: int) -> bytes:
    """The bytes of the regular file ``path``; ``OSError`` when it is none or over ``limit``."""
    with os.fdopen(_open_regular(path, os.O_RDONLY), "rb") as handle:
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise OSError(errno.EFBIG, "too big", str(path))
    return data


def _holds_devices(path: Path) -> bool:
    """Whether ``path`` holds device folders (a card or logs), as ``ROOT_NAME`` in a synced
    one does."""
    return any(
        entry.is_dir(follow_symlinks=False)
        and any(f.name == CARD or f.name.endswith(LOG_SUFFIX) for f in _entries(Path(entry.path)))
        for entry in _entries(path)
    )


def _entries(path: Path) -> Iterator[os.DirEntry[str]]:
    """The entries of a folder, none when it is missing or unreadable."""
    with contextlib.suppress(OSError), os.scandir(path) as entries:
        yield from list(entries)
