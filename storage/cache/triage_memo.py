"""``triage.cache``: what ``triage.json`` says of each paper, kept in a form that loads fast.

Every command reads the whole triage state before it runs (its statuses, notes, tags and
queue positions, every record checked: ``tui.cli.common.open_library``). With 20,000 decisions
that is 75 ms of a ``papers search`` of 0.3 s: parsing the JSON (with the undo log, which no
reader of the state needs) and reading each record. The memo holds the state and the decisions
per day that a parse gave, and loads in ~10 ms.

It is derived data (``storage.cache.derived``): its header names the bytes of ``triage.json``
it was made from (their size and SHA-256, hashed as they were parsed or written), the file's
schema, the statuses and the Python that wrote it, and its body's length and checksum;
anything else and it is ignored. It is believed only for a file that holds those very bytes
now: ``triage.json`` is hashed on every read (3 ms for 20,000 decisions), so no stamp, clock
or reused inode can make it answer for another version, and a copied HOME reads it too. A
memo is written only from a parse in which every record was read, so a valid one also proves
that this version of the file was checked, as a parse would. Only reading goes through it: a
change of ``triage.json`` always reads and writes the file itself, under the lock.

Commands use it (``TriageFile.uses_memo``), the app does not: a command that read the file
keeps the memo of what it read, one that changed it the memo of what it wrote, as it ends.
"""

from __future__ import annotations

import contextlib
import marshal
import os
import zlib
from datetime import date
from pathlib import Path
from typing import Any, Final

from storage.cache.derived import python_tag, write_derived
from storage.files.atomic import FileContent, FileSignature, file_content, open_regular
from storage.files.triage_model import DayCount, TriageState
from storage.models import Status

MEMO_FILE: Final = "triage.cache"
#: Bumped by hand whenever what the memo holds, or how, changes.
FORMAT: Final = 2  # 2: each day's papers out of the Inbox
#: The statuses in the order their codes number them (named in the magic: a version of
#: papers-tui with other statuses reads no memo of this one).
_STATUSES: Final = tuple(Status)
_CODES: Final = {status: code for code, status in enumerate(_STATUSES)}
_MAGIC: Final = (
    b"papers-tui triage.cache %d %s "
    % (
        FORMAT,
        ",".join(s.value for s in _STATUSES).encode(),
    )
    + python_tag()
    + b"\n"
)
#: The header line after the magic: the file's schema, size and SHA-256, the body's length and
#: checksum.
_HEADER_FIELDS: Final = 5
_MAX_HEADER: Final = 200


class TriageMemo:
    """The memo of ``triage.json``'s state in a HOME."""

    def __init__(self, home: Path) -> None:
        self.path = home / MEMO_FILE

    def read(
        self, source: Path, schema: int
    ) -> tuple[FileSignature, TriageState, list[DayCount]] | None:
        """The state and days of ``source`` as it is now, with the version they are of, when
        the memo holds them for files of ``schema``; else None."""
        found = _memo_bytes(self.path)
        if found is None:
            return None
        key, body = found
        if key[0] != schema:
            return None
        try:
            now = file_content(source)  # the bytes, whatever their stamp says (3 ms)
        except OSError:
            return None
        if now is None or now[1] != key[1:]:
            return None
        try:
            state, days = _unpacked(marshal.loads(body))
        except (ValueError, EOFError, TypeError, KeyError, IndexError):
            return None  # not what we wrote
        return now[0].signature, state, days

    def write(
        self, content: FileContent, schema: int, state: TriageState, days: list[DayCount]
    ) -> None:
        """Keep ``state`` and ``days``, those of the file of schema ``schema`` whose bytes are
        ``content`` (as they were parsed or written: best effort)."""
        body = marshal.dumps(_packed(state, days))
        header = b"%d %d %s %d %d\n" % (
            schema,
            content.size,
            content.sha256.encode("ascii"),
            len(body),
            zlib.crc32(body),
        )
        write_derived(self.path, [_MAGIC, header, body])


def _memo_bytes(path: Path) -> tuple[tuple[int, int, str], bytes] | None:
    """The key (schema, size, digest) and body of the memo at ``path`` when it is whole and
    ours: a regular file (a FIFO there is not waited on) of the length its header says."""
    try:
        handle = open_regular(path)
    except OSError:
        return None
    with contextlib.suppress(OSError), handle:
        file_size = os.fstat(handle.fileno()).st_size
        head = handle.read(len(_MAGIC) + _MAX_HEADER)
        end = head.find(b"\n", len(_MAGIC))
        if not head.startswith(_MAGIC) or end < 0:
            return None
        fields = head[len(_MAGIC) : end].split(b" ")
        if len(fields) != _HEADER_FIELDS or not all(fields[i].isdigit() for i in (0, 1, 3, 4)):
            return None
        schema, content_size, length, crc = (int(fields[i]) for i in (0, 1, 3, 4))
        if file_size != end + 1 + length:
            return None  # cut short, or grown
        handle.seek(end + 1)
        body = handle.read(length)
        if len(body) != length or zlib.crc32(body) != crc:
            return None
        return (schema, content_size, fields[2].decode("ascii", "replace")), body
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
        [(d.day.isoformat(), tuple(d.counts[s] for s in _STATUSES), d.out) for d in days],
    )


def _unpacked(packed: Any) -> tuple[TriageState, list[DayCount]]:
    """The state and days ``_packed`` kept."""
    ids, codes, notes, tags, decided_at, positions, positioned_at, days = packed
    if len(ids) != len(codes):
        raise ValueError("statuses and codes differ in number")
    statuses = dict(zip(ids, map(_STATUSES.__getitem__, codes), strict=True))
    state = TriageState(statuses, notes, tags, decided_at, positions, positioned_at)
    counted = [
        DayCount(date.fromisoformat(day), dict(zip(_STATUSES, counts, strict=True)), out)
        for day, counts, out in days
    ]
    return state, counted
