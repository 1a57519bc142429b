"""Progress figures of a library: counts per status, list and venue status; pace."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any, NamedTuple

from storage.files.triage_file import DayCount
from storage.models import Place, Status
from storage.queue import queue_empty
from storage.queue.sorts import venue_rank
from storage.sources.decisions import in_one_word
from storage.text.words import count

#: The pace is taken over the last week.
PACE_DAYS = 7
#: The queue's pace is taken over the last four weeks.
QUEUE_PACE_WEEKS = 4


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


def done_share(counts: Mapping[Status, int]) -> str:
    """``16%``: the share of a list's papers out of the Inbox (``–`` for an empty list)."""
    total = sum(counts.values())
    done = total - counts.get(Status.INBOX, 0)
    return f"{100 * done / total:.0f}%" if total else "–"


@dataclass(frozen=True, slots=True)
class LibraryStats:
    """Progress figures of a library, as shown by ``papers stats`` and the app's stats screen."""

    total: int
    by_status: Mapping[Status, int]
    by_list: Mapping[str, Mapping[Status, int]]
    by_venue: Mapping[str, Mapping[Status, int]]
    days: Sequence[DayCount]
    #: Decisions a day, averaged over every calendar day of the last ``pace_days``.
    rate_per_day: float
    days_to_empty_inbox: float | None
    #: The days the pace averages over: the last week, or fewer when the first decision is
    #: younger (a library started today has its pace from today alone).
    pace_days: int = PACE_DAYS
    #: The reading queue: papers waiting, papers read from it per week.
    queue: QueueStats | None = None

    @property
    def triaged(self) -> int:
        return self.total - self.by_status.get(Status.INBOX, 0)

    def progress(self) -> str:
        """``3 / 38 triaged (7.9%)``: the first line of ``papers stats`` and the stats screen."""
        pct = 100 * self.triaged / self.total if self.total else 0.0
        return f"{self.triaged:,} / {self.total:,} triaged ({pct:.1f}%)"

    def status_counts(self) -> str:
        """``inbox 35  read 2  skipped 0  starred 1``: the papers in each state."""
        return "  ".join(f"{s.value} {self.by_status.get(s, 0):,}" for s in Status)

    def pace(self) -> str:
        """One sentence on the pace and when the Inbox will be empty at it."""
        if self.total and self.by_status.get(Status.INBOX, 0) == 0:
            return "The Inbox is empty."
        days, rate = self.pace_days, self.rate_per_day
        if rate > 0 and self.days_to_empty_inbox is not None:
            if days == 1:  # a library whose first decision was today
                made = f"{count(round(rate), 'paper')} triaged today"
            elif rate >= 1:
                made = f"{count(round(rate), 'paper')} triaged a day (last {days} days)"
            else:  # "0 papers a day" would hide the few there were
                made = f"{count(round(rate * days), 'paper')} triaged in the last {days} days"
            when = _days_from_now(self.days_to_empty_inbox)
            return f"Pace: {made}; the Inbox is empty {when} at this pace."
        return (
            "Pace: no paper triaged today."
            if days == 1
            else f"Pace: no paper triaged in the last {days} days."
        )

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
        # a decision under one name, whichever words a library imported before stored
        by_venue_status: Counter[tuple[str, Status]] = Counter()
        for (name, state), n in Counter(zip(venues, states, strict=True)).items():
            by_venue_status[in_one_word(name), state] += n
        by_venue = _by_name(by_venue_status)
        # orals, spotlights, posters, as the queue sorts them; the rest as first seen
        ranked = sorted(by_venue, key=lambda name: venue_rank("" if name == "unknown" else name))
        by_venue = {name: by_venue[name] for name in ranked}
        # every calendar day of the window counts, a day without decisions too: 70 decisions
        # on one day of a week are 10 a day; days before the first decision are not counted
        start = today - timedelta(days=PACE_DAYS - 1)
        if days:
            start = min(today, max(start, min(d.day for d in days)))
        pace_days = (today - start).days + 1
        rate = sum(d.total for d in days if d.day >= start) / pace_days
        inbox = by_status[Status.INBOX]
        eta = inbox / rate if rate > 0 else (0.0 if inbox == 0 else None)
        return cls(len(papers), by_status, by_list, by_venue, list(days), rate, eta, pace_days)

    def to_json(self) -> dict[str, Any]:
        """The figures as plain JSON values."""

        def plain(counts: Mapping[Status, int]) -> dict[str, int]:
            return {s.value: n for s, n in counts.items()}

        queue = self.queue.to_json() if self.queue is not None else None
        return {
            "queue": queue,
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


@dataclass(frozen=True, slots=True)
class QueueStats:
    """The reading queue's progress: how many wait, how many were read from it each week,
    and when it is empty at that pace."""

    waiting: int
    #: (the Monday of a week, papers read from the queue that week), oldest first, every
    #: week from the first paper read (at most a year back) to this one.
    per_week: Sequence[tuple[date, int]]
    #: Papers read from the queue a week, over the last ``QUEUE_PACE_WEEKS`` weeks (fewer
    #: when the first was read since).
    rate_per_week: float
    weeks_to_empty: float | None
    pace_weeks: int = QUEUE_PACE_WEEKS
    #: The days the pace is taken over: the last ``QUEUE_PACE_WEEKS`` weeks (this one to
    #: today), or the days since the first paper read from the queue when that is later.
    pace_days: int = 7 * QUEUE_PACE_WEEKS

    @classmethod
    def compute(
        cls,
        statuses: Mapping[str, Status],
        positions: Mapping[str, Place],
        decided_at: Mapping[str, float],
        today: date,
    ) -> QueueStats:
        """A paper read from the queue is a read paper that had a place in it (its place is
        kept when it leaves, for an undo): counted in the week it was read."""
        waiting = sum(1 for s in statuses.values() if s is Status.STARRED)
        this_week = today - timedelta(days=today.weekday())
        first = this_week - timedelta(weeks=52)
        weeks: Counter[date] = Counter()
        first_read = today
        for pid, status in statuses.items():
            at = decided_at.get(pid)
            if status is Status.READ and pid in positions and at is not None:
                # (a read dated after today, by a clock set back since or another device's
                # ahead, is one of today's: the pace's window ends this week)
                day = min(date.fromtimestamp(at), today)
                weeks[max(first, day - timedelta(days=day.weekday()))] += 1
                first_read = min(first_read, day)
        start = min(weeks, default=this_week)
        per_week = []
        week = start
        while week <= this_week:
            per_week.append((week, weeks.get(week, 0)))
            week += timedelta(weeks=1)
        recent = per_week[-QUEUE_PACE_WEEKS:]
        # every day from the window's Monday to today counts, the week under way by its days
        # gone (3 read by Wednesday is 7 a week), but none before the first paper read: a
        # first week counted whole made 3 read on its Saturday and Sunday "3 read a week"
        days = (today - max(recent[0][0], first_read)).days + 1
        rate = 7 * sum(n for _w, n in recent) / days if weeks else 0.0
        eta = waiting / rate if rate > 0 else (0.0 if waiting == 0 else None)
        return cls(waiting, per_week, rate, eta, -(-days // 7), days)

    def sentence(self, how: str = "") -> str:
        """One sentence on the queue: what waits, the pace, when it is empty at it (``how``
        papers are starred, said when none waits: ``storage.queue.queue_empty``)."""
        if not self.waiting:
            return queue_empty(how)
        head = f"Reading queue: {count(self.waiting, 'paper')} waiting"
        if self.rate_per_week <= 0 or self.weeks_to_empty is None:
            return f"{head}; none read from it yet."
        rate, days = self.rate_per_week, self.pace_days
        pace = f"{rate:,.1f} read a week" if rate < 10 else f"{rate:,.0f} read a week"
        pace += f" (last {count(self.pace_weeks, 'week')})"
        if days < 7:  # less than a week of reading: what was read, not a week's pace
            read = count(round(rate * days / 7), "paper")
            pace = f"{read} read from it " + ("today" if days == 1 else f"in the last {days} days")
        weeks = self.weeks_to_empty
        when = (
            "within a week"
            if weeks < 1
            else f"in about {weeks:,.1f} weeks"
            if weeks < 20
            else f"in about {weeks / 4.35:,.0f} months"
        )
        return f"{head}; {pace}: empty {when} at this pace."

    def to_json(self) -> dict[str, Any]:
        return {
            "waiting": self.waiting,
            "read_per_week": [{"week": w.isoformat(), "read": n} for w, n in self.per_week],
            "rate_per_week": round(self.rate_per_week, 2),
            "pace_days": self.pace_days,
            "weeks_to_empty": None
            if self.weeks_to_empty is None
            else round(self.weeks_to_empty, 1),
        }


def _days_from_now(days: float) -> str:
    """A time ahead as people say it: "in about 3.5 days", "in about 5 weeks", "in about 5
    years" (not "in about 1,850.5 days")."""
    if days < 1:
        return "in less than a day"
    if days < 14:
        return f"in about {days:,.1f} days"
    if days < 120:
        return f"in about {days / 7:,.0f} weeks"
    if days < 730:
        return f"in about {days / 30.4:,.0f} months"
    return f"in about {days / 365.25:,.0f} years"
