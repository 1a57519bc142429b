"""``triage.cache``: what ``triage.json`` says of each paper, kept in a form that loads fast.

Every command reads the whole triage state before it runs (its statuses, notes, tags and
queue positions, every record checked: ``tui.cli.common.open_library``). With 20,000 decisions
that is 75 ms of a ``papers search`` of 0.3 s: parsing the JSON (with the undo log, which no
reader of the state needs) and reading each record. The memo holds the state and the decisions
per day that a parse gave, and loads in ~10 ms.

It is derived data (``storage.cache.derived``): its header names the version of ``triage.json``
it was made from (the file's stamp, and its content: size and SHA-256), the file's schema and
the Python that wrote it, and its body's length and checksum; anything else and it is ignored.
When ``triage.json`` has another stamp but the same size (a copied HOME, a ``touch``) its
content is hashed (3 ms for 20,000 decisions) and compared. A memo is written only from a parse
in which every record was read, so a valid one also proves that this version of the file was
checked, as a parse would. Only reading goes through it: a change of ``triage.json`` always
reads and writes the file itself, under the lock.

Commands write it (``TriageFile.memo_writes``), the app does not: a command that read the file
writes the memo of what it read, one that changed it the memo of what it wrote, as it ends.
"""

from __future__ import annotations

import contextlib
import marshal
import os
import stat
import zlib
from datetime import date
from pathlib import Path
from typing import Any, Final

from storage.cache.derived import python_tag, write_derived
from storage.files.atomic import FileSignature, file_content
from storage.files.atomic import stamp as stamp_of
from storage.files.triage_model import DayCount, TriageState
from storage.models import Status

MEMO_FILE: Final = "triage.cache"
#: Bumped by hand whenever what the memo holds, or how, changes.
FORMAT: Final = 1
_MAGIC: Final = b"papers-tui triage.cache %d " % FORMAT + python_tag() + b"\n"
#: The header line after the magic: the numbers and the digest it holds, and its longest.
_HEADER_FIELDS: Final = 9
_MAX_HEADER: Final = 400
#: The statuses in the order their codes number them.
_STATUSES: Final = tuple(Status)
_CODES: Final = {status: code for code, status in enumerate(_STATUSES)}


class TriageMemo:
    """The memo of ``triage.json``'s state in a HOME."""

    def __init__(self, home: Path) -> None:
        self.path = home / MEMO_FILE

    def read(
        self, source: Path, schema: int
    ) -> tuple[FileSignature, TriageState, list[DayCount]] | None:
        """The state and days of ``source`` as it is now, with the version they are of, when
        the memo holds them for files of ``schema``; else None."""
        now = stamp_of(source)
        data = _regular_file_bytes(self.path)
        if now is None or data is None or not data.startswith(_MAGIC):
            return None
        end = data.find(b"\n", len(_MAGIC), len(_MAGIC) + _MAX_HEADER)
        fields = data[len(_MAGIC) : end].split(b" ") if end > 0 else []
        if len(fields) != _HEADER_FIELDS or not all(f.isdigit() for i, f in _numbers(fields)):
            return None
        ino, size, mtime, ctime, file_schema, content_size, length, crc = (
            int(f) for _i, f in _numbers(fields)
        )
        digest = fields[5].decode("ascii", "replace")
        body = memoryview(data)[end + 1 :]
        if file_schema != schema or len(body) != length or zlib.crc32(body) != crc:
            return None
        if (now.inode, now.size, now.mtime_ns, now.ctime_ns) != (ino, size, mtime, ctime):
            # another stamp: the same file still when it holds the same bytes (a copy)
            if now.size != content_size:
                return None
            try:
                found = file_content(source)
            except OSError:
                return None
            if found is None or found[1] != (content_size, digest):
                return None
            now = found[0]
        try:
            state, days = _unpacked(marshal.loads(body))
        except (ValueError, EOFError, TypeError, KeyError, IndexError):
            return None  # not what we wrote
        return now.signature, state, days

    def write(
        self,
        source: Path,
        version: FileSignature,
        schema: int,
        state: TriageState,
        days: list[DayCount],
    ) -> None:
        """Keep ``state`` and ``days``, read from ``source`` at ``version`` (best effort: not
        when the file is another version by now)."""
        try:
            found = file_content(source)
        except OSError:
            return
        if found is None or found[0].signature != version:
            return
        at, content = found
        body = marshal.dumps(_packed(state, days))
        header = b"%d %d %d %d %d %s %d %d %d\n" % (
            at.inode,
            at.size,
            at.mtime_ns,
            at.ctime_ns,
            schema,
            content.sha256.encode("ascii"),
            content.size,
            len(body),
            zlib.crc32(body),
        )
        write_derived(self.path, [_MAGIC, header, body])


def _numbers(fields: list[bytes]) -> list[tuple[int, bytes]]:
    """The header's numeric fields (all but the digest, the sixth)."""
    return [(i, f) for i, f in enumerate(fields) if i != 5]


def _regular_file_bytes(path: Path) -> bytes | None:
    """The bytes of ``path`` when it is a regular file (a FIFO there is not waited on)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None
    with contextlib.suppress(OSError), os.fdopen(fd, "rb") as handle:
        if stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            return handle.read()
        return None
    return None


def _packed(state: TriageState, days: list[DayCount]) -> tuple[Any, ...]:
    """What ``marshal`` keeps of the state: plain values, every dictionary in its order."""
    return (
        list(state.statuses),
        bytes(map(_CODES.__getitem__, state.statuses.values())),
        state.notes,
        state.tags,
        state.decided_at,
        state.positions,
        state.positioned_at,
        [(d.day.isoformat(), tuple(d.counts[s] for s in _STATUSES)) for d in days],
    )


def _unpacked(packed: Any) -> tuple[TriageState, list[DayCount]]:
    """The state and days ``_packed`` kept."""
    ids, codes, notes, tags, decided_at, positions, positioned_at, days = packed
    if len(ids) != len(codes):
        raise ValueError("statuses and codes differ in number")
    statuses = dict(zip(ids, map(_STATUSES.__getitem__, codes), strict=True))
    state = TriageState(statuses, notes, tags, decided_at, positions, positioned_at)
    counted = [
        DayCount(date.fromisoformat(day), dict(zip(_STATUSES, counts, strict=True)))
        for day, counts in days
    ]
    return state, counted
