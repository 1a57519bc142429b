"""What one sync did, for people: the report ``papers sync`` prints and the app shows, and how
it says a length of time (a clock ahead by ``12 hours``)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from storage.sync.device import Device
from storage.text.words import count

#: The kinds of change a sync counts (``SyncReport.applied``), one of each.
_ONE = {
    "papers": "paper",
    "removals": "removal",
    "statuses": "status",
    "notes": "note",
    "tags": "tag",
    "queue moves": "queue move",
}


@dataclass(slots=True)
class SyncReport:
    """What one sync did, for people."""

    folder: Path
    device: Device
    #: Records this device sent (its changes since the last sync, and those that waited),
    #: written into the folder: what a full or read-only folder refused is ``waiting``.
    sent: int = 0
    #: Records read from the other devices' logs.
    received: int = 0
    #: Records of other devices passed on because their log disappeared.
    relayed: int = 0
    #: How many other devices the folder has told of.
    devices: int = 0
    #: What changed in the library: statuses, notes, tags, papers, removals.
    applied: Counter[str] = field(default_factory=Counter)
    #: Records made here that wait to be written into the folder.
    waiting: int = 0
    #: One line each: what the folder or its files made this sync skip or work around.
    problems: list[str] = field(default_factory=list)
    #: Where in ``problems`` the folder's refusal of a write is said.
    refusal: int | None = None

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

    def written(self, records: int) -> None:
        """``records`` were written into the folder: sent, and a refusal before is unsaid."""
        self.sent += records
        if self.refusal is not None:
            del self.problems[self.refusal]
            self.refusal = None

    def summary(self) -> str:
        """One line: what was sent, received and changed here."""
        changed = ", ".join(
            count(n, _ONE.get(what, what)) for what, n in sorted(self.applied.items()) if n
        )
        others = f"{count(self.devices, 'other device')}"
        line = (
            f"synced with {self.folder} as {self.device.name} ({self.device.short}): "
            f"sent {self.sent:,}, received {self.received:,} from {others}; "
            f"changed here: {changed or 'nothing'}"
        )
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
