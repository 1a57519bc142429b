"""Small hostile files against the readers (issue 24): each is read in linear time and bounded
memory through the real ``papers import``, says in one line what it left out, and imports the
rest of the file. Each failed before: minutes, gigabytes, an internal error, papers gone.

The time and memory limits here are loose (a busy machine must not fail them); the figures
are in ``python -m benchmarks.hostile_readers``.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from storage import Library
from tests.cli.test_bad_input import PAPERS
from tests.hostile import bombs
from tui.config import load_config

#: Far above what each takes (well under 2 s), far below what each took before.
SECONDS = 20
MEGABYTES = 400


#: Runs a command and then prints its peak memory (its own, whatever ran before it).
_MEASURED = (
    "import resource, subprocess, sys\n"
    "code = subprocess.run(sys.argv[1:]).returncode\n"
    "peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss\n"
    "print(f'peak-kb={peak}', file=sys.stderr)\n"
    "sys.exit(code)\n"
)


def papers_import(
    home: Path, *args: str | Path
) -> tuple[subprocess.CompletedProcess[str], float, float]:
    """``papers --home HOME import ARGS``: its result, seconds and peak memory (MB)."""
    command = [sys.executable, "-c", _MEASURED, *PAPERS, "--home", str(home), "import"]
    start = time.perf_counter()
    try:
        result = subprocess.run(
            [*command, *map(str, args)], capture_output=True, text=True,
            timeout=SECONDS * 3, check=False,
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        pytest.fail(f"papers import {args} ran past {SECONDS * 3} s")
    seconds = time.perf_counter() - start
    *lines, last = result.stderr.rstrip("\n").split("\n")
    assert last.startswith("peak-kb="), result.stderr
    result.stderr = "\n".join(lines)
    return result, seconds, int(last.removeprefix("peak-kb=")) / 1024


def check(bomb: bombs.Bomb, home: Path) -> str:
    result, seconds, peak = papers_import(home, bomb.path)
    text = (result.stdout + result.stderr).casefold()
    assert result.returncode == 0, text
    assert "traceback" not in text and "internal error" not in text, text
    assert seconds < SECONDS, f"{bomb.path.name}: {seconds:.1f} s"
    assert peak < MEGABYTES, f"{bomb.path.name}: {peak:.0f} MB"
    for words in bomb.said:
        assert words.casefold() in text, (words, text)
    assert all(len(line) < 400 for line in text.splitlines()), text
    assert len(Library(home).papers()) == bomb.added
    return text


def test_doubling_string_macros_are_refused_within_a_budget(tmp_path: Path) -> None:
    text = check(bombs.macro_bomb(tmp_path), tmp_path / "home")
    assert "@article{bomb}" in text  # the entry using the macro, named, refused
    [paper] = Library(tmp_path / "home").papers()
    assert paper.title == "A Sound Paper"


@pytest.mark.parametrize("megabytes", [10, 20])
def test_wrapped_ris_lines_are_joined_in_linear_time(tmp_path: Path, megabytes: int) -> None:
    check(bombs.ris_wrapped(tmp_path, megabytes), tmp_path / "home")


def test_numbers_no_field_holds_are_one_bad_record_each(tmp_path: Path) -> None:
    check(bombs.huge_numbers(tmp_path), tmp_path / "home")
    [paper] = Library(tmp_path / "home").papers()
    assert paper.fact("citations") == 12


@pytest.mark.parametrize(
    "triage",
    [
        '{"decisions": {"' + "1" * 5000 + '": {"status": "starred"}, "125789077317797": '
        '{"status": "read", "at": 1796164131}}, "meta": {"1": {"schema": 3, "kind": "triage"}}}',
        '{"decisions": {"1": {"status": "starred"}',  # does not parse
        "[" * 100_000,  # nests past any parser's stack
    ],
    ids=["5000-digit key", "does not parse", "nested"],
)
def test_a_hostile_triage_json_beside_good_papers(tmp_path: Path, triage: str) -> None:
    check(bombs.hostile_library(tmp_path, triage), tmp_path / "home")


def test_a_crossref_cycle_is_named_and_its_entries_imported(tmp_path: Path) -> None:
    check(bombs.crossref_cycle(tmp_path), tmp_path / "home")


def test_csv_rows_ending_in_a_bare_cr(tmp_path: Path) -> None:
    check(bombs.bare_cr_csv(tmp_path), tmp_path / "home")
    titles = [p.title for p in Library(tmp_path / "home").papers()]
    assert titles == [f"Paper {i}" for i in range(10)]


def test_thousands_of_fields_run_together_are_read_apart(tmp_path: Path) -> None:
    check(bombs.run_together_fields(tmp_path), tmp_path / "home")
    run = next(p for p in Library(tmp_path / "home").papers() if p.title.startswith("Fields"))
    assert run.fact("year") == 2020


def test_fields_named_at_length_are_cut_in_their_warnings(tmp_path: Path) -> None:
    check(bombs.long_field_names(tmp_path), tmp_path / "home")


def test_a_config_nested_600_deep_is_reported_and_ignored(tmp_path: Path) -> None:
    path = bombs.nested_config(tmp_path / "home")
    assert path.stat().st_size == 1205
    config = load_config([path])
    assert config.problems == [f"{path}: ignored, it nests too deep to read"]
    result = subprocess.run(
        [*PAPERS, "--home", str(tmp_path / "home"), "sync"],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
    assert "nests too deep" in result.stderr and "give the synced folder" in result.stderr
    assert Library(tmp_path / "home").papers() == []
