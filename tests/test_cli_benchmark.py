"""The CLI benchmark's own parts: a command timed as a user runs it, and the naive commands."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.cli import commands, run_command

REPO = Path(__file__).resolve().parents[1]


def test_a_reader_that_leaves_early_ends_the_timed_command(seeded_home: Path) -> None:
    every = run_command([sys.executable, "-m", "benchmarks.cli_naive", str(seeded_home), "list"])
    head = run_command(
        [sys.executable, "-m", "benchmarks.cli_naive", str(seeded_home), "list"], head=3
    )
    assert every.seconds > 0 and head.seconds > 0 and head.peak > 0


def test_a_failing_command_is_an_error() -> None:
    with pytest.raises(RuntimeError, match="failed"):
        run_command([sys.executable, "-c", "raise SystemExit(3)"])


def first_column(command: list[str]) -> list[str]:
    result = subprocess.run(command, capture_output=True, text=True, check=True, cwd=REPO)
    return [line.split()[0] for line in result.stdout.splitlines() if line.strip()]


@pytest.mark.parametrize("name", ["search", "list | head", "mark", "stats", "export"])
def test_ours_and_the_naive_commands_say_the_same(seeded_home: Path, name: str) -> None:
    """Both ways print the same papers, in the same order (the naive one, fewer columns)."""
    paper = first_column([sys.executable, "-m", "tui", "--home", str(seeded_home), "list"])[5]
    said = []
    for naive in (False, True):
        command, _ = commands(seeded_home, paper, naive)[name]
        said.append(first_column(["starred" if part == "STATUS" else part for part in command]))
    ours, plain = said
    if name in ("search", "list | head", "mark"):
        assert ours == plain and ours
    else:
        assert ours and plain
