"""What a device writes in the sync folder: records, one JSON array a line, and their order.

Every change a device makes is one record, self-contained (it names its device), so a record
means the same wherever it is read: in its device's log, a conflicted copy of that log, or
another device's log that passes it on::

    ["s", STAMP, DEVICE, PAPER, "read"]           the paper's status
    ["n", STAMP, DEVICE, PAPER, "a note"]         its note ("" clears it)
    ["g", STAMP, DEVICE, PAPER, ["tag", ...]]     its tags
    ["q", STAMP, DEVICE, PAPER, 3.5 | null]       its place in the reading queue (or a path:
                                                  [3.0, "a1b2…", 1.0], ``storage.queue.order``)
    ["P", STAMP, DEVICE, PAPER, {paper} | null]   the paper itself, or its removal
    ["b", STAMP, DEVICE, PAPER, ["n" | "g", BSTAMP, BDEVICE]]   what the note (or tags)
                                                  record of the same stamp, device and paper
                                                  was written over

A ``b`` record comes just before the note or tags record it is of, in the same log: the
register's holder the writer last saw (``BSTAMP`` 0 and ``BDEVICE`` "" for none), so that a
note or tags written without seeing another's are told from ones written after them
(``storage.sync.both``). A version before it counts it as a damaged line (said once a sync) and
reads the note or tags as it always did (a version that knew only notes' bases does so with a
tags' one); it refuses a queue place that is a path too, so a move into tied places made here
does not reach a device of that version (its order stays its own; no decision is lost).

Each (paper, kind) is a last-writer-wins register: the record greatest in ``(STAMP, DEVICE,
value)`` holds. STAMP is a hybrid logical clock in milliseconds (``Clock``): a change made after
a device has seen a record always stamps greater than it, whatever the devices' clocks say, and
changes made apart are ordered by when they were made. The order is total, so every device that
has read the same records shows the same library, in whatever order the records arrived.
"""

from __future__ import annotations

import hashlib
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

import orjson

from storage.caps import note_problem, tags_problem
from storage.models import Status
from storage.queue.order import place_of

STATUS: Final = "s"
NOTE: Final = "n"
TAGS: Final = "g"
QUEUE: Final = "q"
PAPER: Final = "P"
#: The registers of a paper's triage, in the order records of one change are written.
TRIAGE_KINDS: Final = (STATUS, NOTE, TAGS, QUEUE)
KINDS: Final = (*TRIAGE_KINDS, PAPER)
#: What a record of a register was written over (not a register of its own).
BASIS: Final = "b"
#: The registers whose records go after a ``BASIS`` (``storage.sync.both``).
BASES: Final = (NOTE, TAGS)

#: Stamps are milliseconds since the epoch; a record stamped in the year 9999 or after is not
#: believed: no clock is that far ahead, and a decision made then could not even be dated
#: (one such record would stop every device's sync at the decision's day).
MAX_STAMP: Final = 253_370_764_800_000
#: The hybrid clock goes no further than this, whatever its wall clock says or it has seen, so
#: that the stamps it makes after seeing one near ``MAX_STAMP`` are still believed everywhere
#: (the headroom is 2**36 stamps: two years of milliseconds).
CLOCK_CEILING: Final = MAX_STAMP - 2**36
#: A record stamped further than this ahead of this device's clock is not believed yet: it
#: waits in the sync state until the clock is that far on (``SyncState.held``). A device whose
#: clock runs a day ahead (or in the year 9998) thus cannot pin the others' clocks to its
#: own, and a decision made after one of its records still wins on its paper (one day: far
#: beyond any clock set by hand, a time zone mistaken for UTC included).
MAX_AHEAD_MS: Final = 24 * 60 * 60 * 1000
#: The longest line a log holds: a record of a paper at its caps (``storage.caps``) is a
#: fraction of it; a longer line is no record, and is skipped without being held in memory.
MAX_LINE: Final = 1024 * 1024

_HEX_ID = re.compile(r"[0-9a-f]{4,32}")
_STATUSES = frozenset(s.value for s in Status)

#: A register's holder: (stamp, device, what decides a tie: the value's bytes or the digest).
Holder = tuple[int, str, str]


@dataclass(frozen=True, slots=True)
class Record:
    """One change of one paper by one device."""

    kind: str
    stamp: int
    device: str
    paper: str
    value: Any

    def row(self) -> list[Any]:
        """The record as a row of a log (and of the outbox): kind, stamp, device, paper, value."""
        return [self.kind, self.stamp, self.device, self.paper, self.value]

    def line(self) -> bytes:
        """The record as written: one JSON array and a newline."""
        return row_line(self.row())

    def holder(self) -> Holder:
        """What orders this record against others of its register (greatest holds)."""
        return (self.stamp, self.device, tie_value(self.kind, self.value))


def row_line(row: list[Any]) -> bytes:
    """A log's row as written: one JSON array and a newline."""
    return orjson.dumps(row) + b"\n"


def tie_value(kind: str, value: Any) -> str:
    """The part of a register's holder that breaks a tie of stamp and device: for a paper its
    digest ("" for a removal), for the rest the value's JSON."""
    if kind == PAPER:
        return "" if value is None else paper_digest(value)
    return orjson.dumps(value).decode()


def paper_digest(doc: Any) -> str:
    """A short digest of a paper document: equal documents, equal digests, on every device."""
    raw = orjson.dumps(doc, option=orjson.OPT_SORT_KEYS)
    return hashlib.blake2b(raw, digest_size=8).hexdigest()


def is_id(text: object) -> bool:
    """True for a paper or device id: lower-case hexadecimal, 4 to 32 characters."""
    return isinstance(text, str) and _HEX_ID.fullmatch(text) is not None


def parse_record(raw: bytes) -> Record | None:
    """A record from one line; None when it is well-formed JSON but no record this version
    uses (a later version's kind, or nonsense): skipped, never fatal.

    Raises ``ValueError`` when the line is not JSON at all (a record still arriving).
    """
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        raise ValueError(str(exc)) from None
    if not isinstance(data, list) or len(data) != 5:
        return None
    kind, stamp, device, paper, value = data
    if (kind not in KINDS and kind != BASIS) or not is_id(device) or not is_id(paper):
        return None
    if not isinstance(stamp, int) or isinstance(stamp, bool) or not 0 < stamp < MAX_STAMP:
        return None
    if not valid_value(kind, value):
        return None
    return Record(kind, stamp, device, paper, value)


def parse_line(raw: bytes) -> tuple[Record | None, str]:
    """A record from one complete line of a log (``parse_record``), or None and, for a note
    or tags record past the caps (written into a log by hand), what it is and why ("" for a
    line that is no record: damaged, a later version's)."""
    try:
        record = parse_record(raw)
    except ValueError:
        return None, ""
    if record is not None:
        return record, ""
    data = orjson.loads(raw)  # (it parsed: a list of five)
    kind, _stamp, _device, paper, value = (
        data if isinstance(data, list) and len(data) == 5 else [None] * 5
    )
    past = cap_problem(kind, value)
    what = "the note" if kind == NOTE else "the tags"
    return None, f"{what} of {paper} past the caps: {past}" if past and is_id(paper) else ""


def cap_problem(kind: object, value: Any) -> str:
    """What puts a note or tags value past the caps (``storage.caps``), "" for none or for
    another kind or shape of value."""
    if kind == NOTE and isinstance(value, str):
        return note_problem(value)
    if kind == TAGS and isinstance(value, list | tuple) and all(isinstance(t, str) for t in value):
        return tags_problem(value)
    return ""


def valid_value(kind: str, value: Any) -> bool:
    """True for a value a record of ``kind`` may carry (a paper's document is checked when
    it is written: ``storage.sync.merge.clean_paper``)."""
    if kind == STATUS:
        return value in _STATUSES
    if kind == NOTE:
        return isinstance(value, str) and not note_problem(value)
    if kind == TAGS:
        return (
            isinstance(value, list)
            and all(isinstance(t, str) and t for t in value)
            and not tags_problem(value)
        )
    if kind == QUEUE:  # a number, or a path under another paper's place
        return value is None or place_of(value) is not None
    if kind == BASIS:
        return (
            isinstance(value, list)
            and len(value) == 3
            and value[0] in BASES
            and isinstance(value[1], int)
            and not isinstance(value[1], bool)
            and value[1] >= 0
            and isinstance(value[2], str)
        )
    return value is None or isinstance(value, dict)  # a paper: checked when applied


def _ms(seconds: float) -> int:
    """A time in seconds as milliseconds: rounded, not cut (``1796601450.279`` is ``…0.27899…``
    as a float: cut, two decisions a millisecond apart were stamped alike)."""
    return round(seconds * 1000)


class Clock:
    """A hybrid logical clock in milliseconds: never behind the wall clock, never behind a
    stamp it has seen or made, so each stamp it makes is greater than every one before; and
    never more than ``MAX_AHEAD_MS`` ahead of the wall clock, whatever it has seen (records
    stamped further ahead are not folded: ``believable``)."""

    def __init__(self, last: int = 0, wall: Callable[[], float] = time.time) -> None:
        self.wall = wall
        #: A clock an earlier version let run ahead (a record of the year 9998 seen) is
        #: brought back within the bound: its next stamps follow the present again.
        self.last = min(last, self.limit())

    def now_ms(self) -> int:
        return min(int(self.wall() * 1000), CLOCK_CEILING)

    def limit(self) -> int:
        """The furthest this clock goes now: ``MAX_AHEAD_MS`` past its wall clock."""
        return min(self.now_ms() + MAX_AHEAD_MS, CLOCK_CEILING)

    def believable(self, stamp: int) -> bool:
        """True for a stamp within the bound (others wait until the clock gets near them)."""
        return stamp <= self.limit()

    def tick(self, made_at: float | None = None) -> int:
        """A new stamp for a change made at ``made_at`` (seconds; default now): that moment,
        or later when the clock has already seen later stamps."""
        now = self.now_ms()
        at = now if made_at is None else min(_ms(made_at), now)
        self.last = max(at, self.last + 1)
        return self.last

    def after(self, made_at: float | None, seen: int) -> int:
        """The stamp of a change made at ``made_at`` (seconds; default now) to a register
        this device last saw held at stamp ``seen``: that moment, or just after ``seen`` when
        that is later (the change was made after it, whatever the clocks say)."""
        now = self.now_ms()
        at = now if made_at is None else min(_ms(made_at), now)
        stamp = min(max(at, seen + 1), self.limit())
        self.last = max(self.last, stamp)
        return stamp

    def at(self, made_at: float) -> int:
        """The stamp of a change made at ``made_at`` (seconds) before this device had seen any
        other's records (a library synced for the first time): ordered by when it was made."""
        stamp = max(1, min(_ms(made_at), self.now_ms()))
        self.see(stamp)
        return stamp

    def see(self, stamp: int) -> None:
        """Take in a stamp read from another device (no further than the bound)."""
        self.last = max(self.last, min(stamp, self.limit()))
