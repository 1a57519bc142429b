"""Progress figures of a library: counts per status, list and venue status; pace."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any, NamedTuple

from storage.models import Status
from storage.triage import DayCount


class Counted(NamedTuple):
    """What the figures read of a paper (a ``Paper`` has these too)."""

    id: str
    list: str
    venue_status: str
    #: Every list the paper is in (``list`` alone when empty): it counts in each.
    lists: tuple[str, ...] = ()


def _by_name(pairs: Counter[tuple[str, Status]]) -> dict[str, dict[Status, int]]:
    """Counts per (name, status) as counts per status for each name, names as first seen."""
    found: dict[str, dict[Status, int]] = {}
    for (name, status), n in pairs.items():
        if name not in found:
            found[name] = dict.fromkeys(Status, 0)
        found[name][status] = n
    return found


@dataclass(frozen=True, slots=True)
class LibraryStats:
    """Progress figures of a library, as shown by ``papers stats`` and the app's stats screen."""

    total: int
    by_status: Mapping[Status, int]
    by_list: Mapping[str, Mapping[Status, int]]
    by_venue: Mapping[str, Mapping[Status, int]]
    days: Sequence[DayCount]
    rate_per_day: float
    days_to_empty_inbox: float | None

    @property
    def triaged(self) -> int:
        return self.total - self.by_status.get(Status.INBOX, 0)

    def pace(self) -> str:
        """One sentence on the pace and when the Inbox will be empty at it."""
        if self.total and self.by_status.get(Status.INBOX, 0) == 0:
            return "The Inbox is empty."
        if self.rate_per_day > 0 and self.days_to_empty_inbox is not None:
            return (
                f"Pace: {self.rate_per_day:.0f} decisions a day (last 7 days); the Inbox is "
                f"empty in about {self.days_to_empty_inbox:.1f} days at this pace."
            )
        return "Pace: no decisions in the last 7 days."

    @classmethod
    def compute(
        cls,
        papers: Sequence[Counted],
        statuses: Mapping[str, Status],
        days: Sequence[DayCount],
        today: date,
    ) -> LibraryStats:
        """Figures from the papers, their statuses and the per-day counts."""
        # counted in C (Counter over pairs): a loop of dict updates took 0.4 s at 100,000
        states = [statuses.get(paper.id, Status.INBOX) for paper in papers]
        by_status = dict.fromkeys(Status, 0)
        by_status.update(Counter(states))
        pairs = Counter(zip([p.list for p in papers], states, strict=True))
        pairs.update(  # a paper in several lists counts in each (few are)
            (name, state)
            for paper, state in zip(papers, states, strict=True)
            if len(paper.lists) > 1
            for name in paper.lists
            if name != paper.list
        )
        by_list = _by_name(pairs)
        venues = [p.venue_status or "unknown" for p in papers]
        by_venue = _by_name(Counter(zip(venues, states, strict=True)))
        recent = [d for d in days if d.day > today - timedelta(days=7)]
        active = [d for d in recent if d.total > 0]
        rate = sum(d.total for d in active) / len(active) if active else 0.0
        inbox = by_status[Status.INBOX]
        eta = inbox / rate if rate > 0 else (0.0 if inbox == 0 else None)
        return cls(len(papers), by_status, by_list, by_venue, list(days), rate, eta)

    def to_json(self) -> dict[str, Any]:
        """The figures as plain JSON values."""

        def plain(counts: Mapping[Status, int]) -> dict[str, int]:
            return {s.value: n for s, n in counts.items()}

        return {
            "total": self.total,
            "triaged": self.triaged,
            "progress": round(self.triaged / self.total, 4) if self.total else 0.0,
            "by_status": plain(self.by_status),
            "by_list": {k: plain(v) for k, v in self.by_list.items()},
            "by_venue_status": {k: plain(v) for k, v in self.by_venue.items()},
            "per_day": [{"day": d.day.isoformat(), **plain(d.counts)} for d in self.days],
            "rate_per_day": round(self.rate_per_day, 2),
            "days_to_empty_inbox": (
                None if self.days_to_empty_inbox is None else round(self.days_to_empty_inbox, 1)
            ),
        }
