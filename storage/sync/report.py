"""What one sync did, for people: the report ``papers sync`` prints and the app shows, and how
it says a length of time (a clock ahead by ``12 hours``)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from storage.sync.device import Device
from storage.sync.folder import LogRead
from storage.sync.own import OwnCheck
from storage.sync.records import BASIS, NOTE, PAPER, QUEUE, STATUS, TAGS, Record
from storage.text.words import count

#: The kinds of change a sync counts (what it sent, received, changed here), in the order a
#: report names them, and how it names one of each.
_ONE = {
    "papers": "paper",
    "removals": "removal",
    "statuses": "decision",
    "notes": "note",
    "tags": "tag change",
    "queue moves": "queue move",
}
#: The change each kind of triage record is (a paper's record: the paper, or its removal).
_KINDS = {STATUS: "statuses", NOTE: "notes", TAGS: "tags", QUEUE: "queue moves"}


def kinds_of(rows: Iterable[Sequence[Any]]) -> Counter[str]:
    """Records (as rows: kind, stamp, device, paper, value) counted by the change each is:
    papers, removals, statuses, notes, tags, queue moves."""
    return Counter(
        ("papers" if row[4] is not None else "removals")
        if row[0] == PAPER
        else _KINDS.get(row[0], "change")
        for row in rows
        if row[0] != BASIS  # part of the note or tags record after it
    )


def changes_in(rows: Iterable[Sequence[Any]]) -> int:
    """How many changes the records ``rows`` are (a basis is part of the record after it)."""
    return sum(1 for row in rows if row[0] != BASIS)


def _in_words(kinds: Counter[str]) -> str:
    """What ``kinds`` counts, for people: "3,703 papers, 12 decisions and 1 note"."""
    order = [*_ONE, *sorted(kinds.keys() - _ONE.keys())]
    said = [count(kinds[what], _ONE.get(what, what)) for what in order if kinds[what]]
    return " and ".join([", ".join(said[:-1]), said[-1]] if len(said) > 1 else said)


@dataclass(slots=True)
class SyncReport:
    """What one sync did, for people."""

    folder: Path
    device: Device
    #: Records this device sent (its changes since the last sync, and those that waited),
    #: written into the folder, by kind (``kinds_of``): what a full or read-only folder
    #: refused is ``waiting``.
    sent_kinds: Counter[str] = field(default_factory=Counter)
    #: Records read from the other devices' logs, by kind.
    received_kinds: Counter[str] = field(default_factory=Counter)
    #: Records of other devices passed on because their log disappeared.
    relayed: int = 0
    #: How many other devices the folder has told of.
    devices: int = 0
    #: What changed in the library: statuses, notes, tags, papers, removals.
    applied: Counter[str] = field(default_factory=Counter)
    #: Records made here that wait to be written into the folder.
    waiting: int = 0
    #: Papers this library does not have whose statuses, notes or tags arrived: they wait
    #: for the paper (``SyncState.waiting``).
    awaiting: int = 0
    #: One line each: what the folder or its files made this sync skip or work around.
    problems: list[str] = field(default_factory=list)
    #: Where in ``problems`` the folder's refusal of a write is said.
    refusal: int | None = None
    #: Notes edited here and on another device at once, kept both (``storage.sync.both``).
    kept_both: int = 0
    #: Papers whose tags were edited here and on another device at once, merged as sets.
    tags_merged: int = 0

    def refused(self, where: object, why: str, waiting: int) -> None:
        """The folder refused a write: said in one line, the last refusal's (the papers'
        write then the decisions' said '3,703' then '3,723 changes wait', two lines)."""
        waits = "waits" if waiting == 1 else "wait"
        said = f"{where}: cannot write ({why}): {count(waiting, 'change')} {waits} in this "
        said += "library to be sent"
        if self.refusal is None:
            self.refusal = len(self.problems)
            self.problems.append(said)
        else:
            self.problems[self.refusal] = said

    @property
    def sent(self) -> int:
        """Records sent."""
        return sum(self.sent_kinds.values())

    @property
    def received(self) -> int:
        """Records received."""
        return sum(self.received_kinds.values())

    def took(self, records: Iterable[Record]) -> None:
        """``records`` were read from the other devices' logs (this device's, passed on by
        another, are not counted)."""
        ours = self.device.id
        self.received_kinds += kinds_of(r.row() for r in records if r.device != ours)

    def log_read(self, where: str, read: LogRead) -> None:
        """What reading one log (``where``, as people know it) met: a last record still
        arriving (until the wait zeros get went by: then waited for unsaid, ``LogRead.
        stalled``), one whole but for its line end once that wait went by (damage, said once:
        it was read as it is), note and tags records past the caps, damaged lines."""
        if read.waiting and not read.stalled:
            self.problems.append(
                f"{where}: its last record has not fully arrived (read up to it; the rest next "
                "time)"
            )
        self.problems += [f"{where}: {past}, skipped" for past in read.past_caps]
        skipped = read.skipped - len(read.past_caps)
        if read.cut:
            damaged = f" ({skipped} damaged line(s) skipped)" if skipped else ""
            self.problems.append(
                f"{where}: {read.cut}, and nothing more arrived: damage, read as it is{damaged}"
            )
        elif skipped:
            self.problems.append(f"{where}: {skipped} damaged line(s) skipped")

    def written(self, records: Counter[str]) -> None:
        """``records`` (by kind) were written into the folder: sent, and a refusal before is
        unsaid."""
        self.sent_kinds += records
        if self.refusal is not None:
            del self.problems[self.refusal]
            self.refusal = None

    def unusable(self, papers: Mapping[str, str]) -> None:
        """Paper records no paper this version takes (paper → why): said in one line."""
        if papers:
            reason = next(iter(papers.values()))
            self.problems.append(
                f"{count(len(papers), 'paper record')} no paper this version takes: "
                f"skipped ({', '.join(list(papers)[:3])}: {reason})"
            )

    def held_back(self, records: list[Record], now: int, name: Callable[[str], str]) -> None:
        """Records stamped beyond this clock's bound (``now``), said by device (``name``: as
        people know it), the nearest's stamp: not believed until then."""
        for device in sorted({record.device for record in records}):
            mine = [record for record in records if record.device == device]
            self.problems.append(
                f"{name(device)}: {count(len(mine), 'record')} stamped "
                f"{span_of(mine[0].stamp - now)} or more ahead of this clock: not believed "
                "until then (that clock wants setting)"
            )

    def clock_ahead(self, device: str, ahead: int, beaten: int) -> None:
        """A ``device``'s clock is ``ahead`` (ms) of this one's: every device still takes the
        same change, but its changes win over those made here in that time (``beaten`` of
        them did), which the user should know, not only that the clock wants setting."""
        span = span_of(ahead)
        line = (
            f"{device}: its clock is {span} ahead of this one's: its changes win over those "
            f"made here up to {span} after them, until that clock is set"
        )
        if beaten:
            line += f" ({count(beaten, 'change')} made here lost to it)"
        self.problems.append(line)

    def mended(self, log: str, check: OwnCheck, *, done: bool) -> None:
        """This device's own ``log`` was changed by another hand since it wrote it: its lines
        that no longer read, its records that no longer say what it wrote, and what it writes
        again at its end (not ``done``: what the next sync writes, ``--status`` only reads)."""
        found = [count(check.damaged, "damaged line")] if check.damaged else []
        if check.altered:
            found.append(f"{count(check.altered, 'record')} not as this device wrote it")
        again = _in_words(kinds_of(record.row() for record in check.lost))
        line = f"{log}: this device's own log was changed since it wrote it"
        line += f" ({', '.join(found)})" if found else ""
        if not again:
            line += ": nothing in it was lost"
        elif done:
            line += f": written again at its end: {again}"
        else:
            line += f": the next sync writes again at its end: {again}"
        self.problems.append(line)

    def summary(self) -> str:
        """One line: what was sent, received and changed here, each said as what it is
        ("sent 3,703 papers and 16 decisions": it said "sent 3,719")."""
        sent, received = _in_words(self.sent_kinds), _in_words(self.received_kinds)
        line = (
            f"synced with {self.folder} as {self.device.name} ({self.device.short}): "
            f"sent {sent or 'nothing'}; received {received or 'nothing'} from "
            f"{count(self.devices, 'other device')}; "
            f"changed here: {_in_words(self.applied) or 'nothing'}"
        )
        if self.kept_both:
            line += f"; {count(self.kept_both, 'note')} edited on both devices: both texts kept"
        if self.tags_merged:
            line += f"; tags of {count(self.tags_merged, 'paper')} edited on both devices: merged"
        if self.waiting:
            waits = "waits" if self.waiting == 1 else "wait"
            line += f"; {count(self.waiting, 'change')} {waits} to be sent"
        return line


def span_of(ms: int) -> str:
    """A length of time for people, in the unit that reads best: ``12 min``, ``3 days``."""
    minutes = ms / 60_000
    if minutes < 120:
        return f"{minutes:,.0f} min"
    if minutes < 48 * 60:
        return count(round(minutes / 60), "hour")
    if minutes < 730 * 24 * 60:
        return count(round(minutes / (24 * 60)), "day")
    return count(round(minutes / (365.25 * 24 * 60)), "year")
