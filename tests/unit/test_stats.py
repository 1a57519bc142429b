"""The pace of ``LibraryStats``: papers triaged a day over the calendar days of its window."""

from __future__ import annotations

from datetime import date, timedelta
from pathlib import Path

import pytest

from storage.files.triage_file import DayCount
from storage.models import Status
from storage.stats import Counted, LibraryStats

TODAY = date(2026, 3, 10)


def day(days_ago: int, read: int) -> DayCount:
    return DayCount(TODAY - timedelta(days=days_ago), {Status.READ: read})


def stats(inbox: int, days: list[DayCount]) -> LibraryStats:
    papers = [Counted(f"p{i}", "list", "") for i in range(inbox + 1)]
    return LibraryStats.compute(papers, {"p0": Status.READ}, days, TODAY)


def test_a_busy_day_in_a_quiet_week_is_averaged_over_the_week() -> None:
    # the first decision was long ago: the window is the whole week, quiet days included
    s = stats(700, [day(30, 1), day(2, 70)])
    assert s.pace_days == 7
    assert s.rate_per_day == 10
    assert s.days_to_empty_inbox == pytest.approx(70)
    assert s.pace() == (
        "Pace: 10 papers triaged a day (last 7 days); the Inbox is empty in about 10 weeks "
        "at this pace."
    )


def test_days_before_the_first_decision_do_not_count() -> None:
    s = stats(100, [day(2, 30), day(0, 0)])
    assert s.pace_days == 3 and s.rate_per_day == 10
    assert "10 papers triaged a day (last 3 days)" in s.pace()
    first_day = stats(100, [day(0, 20)])
    assert first_day.pace_days == 1 and first_day.rate_per_day == 20
    assert first_day.pace() == (
        "Pace: 20 papers triaged today; the Inbox is empty in about 5.0 days at this pace."
    )


def test_days_older_than_the_window_are_left_out() -> None:
    s = stats(10, [day(7, 500), day(6, 7)])
    assert s.pace_days == 7 and s.rate_per_day == 1


def test_a_slow_week_says_how_many_decisions_it_had() -> None:
    s = stats(10, [day(20, 0), day(3, 2)])
    assert s.rate_per_day == pytest.approx(2 / 7)
    assert s.pace() == (
        "Pace: 2 papers triaged in the last 7 days; the Inbox is empty in about 5 weeks at "
        "this pace."
    )


def test_no_decisions() -> None:
    assert stats(5, [day(10, 3)]).pace() == "Pace: no paper triaged in the last 7 days."
    assert stats(5, []).pace() == "Pace: no paper triaged in the last 7 days."
    assert stats(5, [day(0, 0)]).pace() == "Pace: no paper triaged today."
    assert stats(0, [day(0, 1)]).pace() == "The Inbox is empty."


def test_a_time_far_ahead_is_said_in_weeks_months_or_years() -> None:
    from storage.stats import _days_from_now

    said = [_days_from_now(d) for d in (0.5, 5.0, 35.0, 300.0, 1850.5)]
    assert said == [
        "in less than a day",
        "in about 5.0 days",
        "in about 5 weeks",
        "in about 10 months",
        "in about 5 years",  # not "in about 1,850.5 days"
    ]


def test_venue_statuses_come_orals_first_as_the_queue_sorts_them() -> None:
    """papers stats and S listed Poster, Oral, Spotlight: the order first met in the list."""
    venues = ["Poster", "", "Workshop", "Oral", "Spotlight Poster", "Poster"]
    papers = [Counted(f"p{i}", "list", v) for i, v in enumerate(venues)]
    s = LibraryStats.compute(papers, {}, [], TODAY)
    assert list(s.by_venue) == ["Oral", "Spotlight Poster", "Poster", "Workshop", "unknown"]


def test_a_decision_is_counted_under_one_name_whatever_words_stored_it() -> None:
    """A library that holds a Paper Copilot file imported before (its "Withdraw", "Reject")
    and a fetched list (its "Withdrawn", "Rejected") counted each decision twice, apart."""
    venues = ["Withdraw", "Withdrawn", "Reject", "Rejected", "Desk Reject", "Active", "Poster"]
    papers = [Counted(f"p{i}", "list", v) for i, v in enumerate(venues)]
    s = LibraryStats.compute(papers, {"p0": Status.READ}, [], TODAY)
    assert {name: sum(counts.values()) for name, counts in s.by_venue.items()} == {
        "Poster": 1, "Withdrawn": 2, "Rejected": 2, "Desk rejected": 1, "Under review": 1,
    }  # fmt: skip
    assert s.by_venue["Withdrawn"][Status.READ] == 1


def test_a_change_of_mind_is_no_progress(tmp_path: Path) -> None:
    """A paper read, then skipped, then starred is one paper out of the Inbox: the pace said
    "3 decisions today", and the day the Inbox is empty came three times sooner (found by a
    QA run: 5 papers triaged showed as "11 decisions today"). An undo takes its paper back."""
    from storage import Library

    library = Library(tmp_path / "home")
    source = tmp_path / "list.jsonl"
    source.write_text(
        "\n".join(
            f'{{"title": "Paper {n}", "abstract": "Paper number {n} studies a question and '
            f'reports what it found at length."}}'
            for n in range(4)
        )
    )
    library.import_file(source)
    first, second = (p.id for p in library.papers()[:2])
    for status in ("read", "skipped", "starred"):
        library.set_status(first, status)
    library.set_status(second, "read")
    library.set_status(second, "inbox")  # put back
    assert library.stats().pace().startswith("Pace: 1 paper triaged today;")
    library.undo()  # the put-back undone: the second is out again
    assert library.stats().pace().startswith("Pace: 2 papers triaged today;")
