"""The reading queue's pace (``QueueStats``, ``papers stats``, the app's stats screen) over the
days since the first paper read from the queue: a first week counted whole made 3 papers read
on its Saturday and Sunday "3.0 read a week (last 1 week)", as if read over seven days; now
"3 papers read from it in the last 2 days". Real ``triage.json`` files, decided at set times."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, datetime, timedelta
from pathlib import Path

import pytest

import storage.files.triage_file as triage_file
from storage import Library
from storage.stats import QueueStats

#: A Sunday.
SUNDAY = date(2026, 3, 15)


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[float]]:
    """The time ``triage.json`` writes decisions at (seconds), set by the test."""
    at = [datetime(2026, 1, 5, 12).timestamp()]
    monkeypatch.setattr(triage_file, "now", lambda: at[0])
    yield at


def read_from_queue(
    lib: Library, clock: list[float], reads: list[tuple[date, str]], waiting: list[str]
) -> None:
    """Star the papers of ``reads`` and ``waiting`` the day before the first read, then read
    each of ``reads`` (from the queue) at noon of its day."""
    first = min(day for day, _pid in reads) - timedelta(days=1)
    clock[0] = datetime(first.year, first.month, first.day, 12).timestamp()
    lib.set_statuses([*(pid for _day, pid in reads), *waiting], "starred")
    for day, pid in reads:
        clock[0] = datetime(day.year, day.month, day.day, 12).timestamp()
        lib.set_status(pid, "read")


def queue_stats(lib: Library, today: date) -> QueueStats:
    stats = lib.stats(today=today).queue
    assert stats is not None
    return stats


def test_a_first_weekend_of_reading_is_said_as_read_not_as_a_weeks_pace(
    seeded_home: Path, clock: list[float]
) -> None:
    lib = Library(seeded_home)
    ids = [p.id for p in lib.papers()][:10]
    saturday = SUNDAY - timedelta(days=1)
    reads = [(saturday, ids[0]), (saturday, ids[1]), (SUNDAY, ids[2])]
    read_from_queue(lib, clock, reads, ids[3:])
    queue = queue_stats(lib, SUNDAY)
    assert queue.sentence() == (
        "Reading queue: 7 papers waiting; 3 papers read from it in the last 2 days: "
        "empty within a week at this pace."
    )
    assert queue.rate_per_week == pytest.approx(10.5)  # 3 in 2 days, not 3 in a week
    assert queue.waiting == 7 and queue.pace_days == 2
    assert queue.to_json()["pace_days"] == 2
    # on the Tuesday after: 3 in the 4 days since the first (it said 3 in 1 week and 2 days)
    later = queue_stats(lib, SUNDAY + timedelta(days=2))
    assert later.pace_days == 4 and later.rate_per_week == pytest.approx(5.25)
    assert "3 papers read from it in the last 4 days: empty in about 1.3 weeks" in (
        later.sentence()
    )


def test_a_queue_read_from_for_weeks_keeps_its_pace_over_the_window(
    seeded_home: Path, clock: list[float]
) -> None:
    """Reading that began before the window: the window's days, this week's by its days gone
    (3 weeks and Monday to Sunday: 4 weeks), as before."""
    lib = Library(seeded_home)
    ids = [p.id for p in lib.papers()][:12]
    days = [SUNDAY - timedelta(days=40), *(SUNDAY - timedelta(days=3 * i) for i in range(8))]
    read_from_queue(lib, clock, list(zip(days, ids[:9], strict=True)), ids[9:])
    queue = queue_stats(lib, SUNDAY)
    assert queue.pace_days == 28 and queue.pace_weeks == 4
    assert queue.rate_per_week == pytest.approx(2.0)  # 8 in the last 4 weeks
    assert queue.sentence() == (
        "Reading queue: 3 papers waiting; 2.0 read a week (last 4 weeks): empty in about "
        "1.5 weeks at this pace."
    )


def test_ten_days_of_reading_are_a_pace_of_two_weeks(seeded_home: Path, clock: list[float]) -> None:
    lib = Library(seeded_home)
    ids = [p.id for p in lib.papers()][:12]
    reads = [(SUNDAY - timedelta(days=9), ids[0]), (SUNDAY, ids[1])]
    read_from_queue(lib, clock, reads, ids[2:])
    queue = queue_stats(lib, SUNDAY)
    assert queue.sentence() == (
        "Reading queue: 10 papers waiting; 1.4 read a week (last 2 weeks): empty in about "
        "7.1 weeks at this pace."
    )
    assert queue.rate_per_week == pytest.approx(1.4)  # 2 in 10 days, not in 2 weeks
    assert queue.pace_days == 10 and queue.pace_weeks == 2


def test_reads_dated_after_today_count_as_read_today(seeded_home: Path, clock: list[float]) -> None:
    """Papers read from the queue at times after today (a clock set back since, or another
    device's ahead, whose times sync keeps): `papers stats` ended in "internal error:
    IndexError" when they were all of a later week (the pace's window held no week). They
    count as read today."""
    lib = Library(seeded_home)
    ids = [p.id for p in lib.papers()][:5]
    ahead = SUNDAY + timedelta(days=10)
    read_from_queue(lib, clock, [(ahead, ids[0]), (ahead, ids[1])], ids[2:])
    for today in (SUNDAY, SUNDAY + timedelta(days=1)):
        queue = queue_stats(lib, today)
        assert queue.pace_days == 1 and queue.rate_per_week == pytest.approx(14.0)
        assert queue.sentence() == (
            "Reading queue: 3 papers waiting; 2 papers read from it today: empty within a "
            "week at this pace."
        )
