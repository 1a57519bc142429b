"""A long import or fetch says how far it is, on a terminal only, and a short one says nothing.

The printers are driven here by a clock of the test's own (a command run for real, through
a pipe, prints nothing on standard error: the other CLI tests check that it stays empty).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tui.cli.library_io import ImportProgress


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def progress(clock: Clock, *, live: bool = True) -> ImportProgress:
    shown = ImportProgress([Path("lists/iclr.jsonl")])
    shown.clock, shown.started, shown.last, shown.live = clock, clock.now, clock.now, live
    return shown


def test_a_long_import_says_how_many_records_it_read_then_that_it_indexes(
    capsys: pytest.CaptureFixture[str],
) -> None:
    clock = Clock()
    shown = progress(clock)
    shown(200, 100_000)  # at once: nothing yet
    clock.now += 2.5
    shown(40_000, 100_000)
    clock.now += 0.5
    shown(50_000, 100_000)  # too soon after the last line
    clock.now += 2.0
    shown(90_000, 100_000)
    shown(99_998, 99_998)  # every record read (fewer than the lines counted ahead)
    shown(99_998, 99_998)  # said once
    assert capsys.readouterr().err.splitlines() == [
        "papers: reading lists/iclr.jsonl: 40,000 / 100,000 records",
        "papers: reading lists/iclr.jsonl: 90,000 / 100,000 records",
        "papers: 99,998 records read; storing and indexing them",
    ]


def test_a_short_import_and_one_off_a_terminal_say_nothing(
    capsys: pytest.CaptureFixture[str],
) -> None:
    clock = Clock()
    quick = progress(clock)
    quick(200, 3_703)
    clock.now += 1.0
    quick(3_703, 3_703)
    piped = progress(clock, live=False)
    clock.now += 30.0
    piped(50_000, 100_000)
    piped(100_000, 100_000)
    assert capsys.readouterr().err == ""


def test_the_file_name_is_shown_as_data(capsys: pytest.CaptureFixture[str]) -> None:
    clock = Clock()
    shown = ImportProgress([Path("evil\x1b]52;c;SGVsbG8=\x07.jsonl")])
    shown.clock, shown.started, shown.last, shown.live = clock, clock.now, clock.now, True
    clock.now += 3.0
    shown(10, 20)
    err = capsys.readouterr().err
    assert "\x1b" not in err and "\x07" not in err and "␛]52;c;" in err
