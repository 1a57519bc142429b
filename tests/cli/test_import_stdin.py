"""``papers import -``: a list on standard input, as many Unix tools read one (real processes,
a temporary ``PAPERS_HOME``).

It said ``-: no such file or folder``. Now the format is found from the content as a file's
is (a byte order mark or not), the list is named by its header, else ``standard input`` and
letters its content gives (``--list NAME`` still wins), ``--dry-run`` writes nothing,
and an input that is empty, no list, or a terminal is one line on stderr with HOME as it was.
Two lists piped in without a header are two lists: both were called ``standard input``, so
the second joined the first; the same list piped in again is the same list.
"""

from __future__ import annotations

import json
import os
import pty
import re
import subprocess
from datetime import date
from pathlib import Path

import pytest

from tests.cli import test_bad_input
from tests.cli.test_bad_input import PAPERS, SAMPLE, Seeded, make_env, one_line_error
from tests.helpers import home_files

# The fixtures of test_bad_input: the bundled sample imported once, a copy of it.
seeded, home = test_bad_input.seeded, test_bad_input.home

#: The list of a list piped in that names none: ``standard input`` and letters its content gives.
PIPED = re.compile(r"standard input [a-z]{8}")

ENGLISH = SAMPLE / "002_729efa22d9503d43.txt"  # "ICLR 2025 Papers", 19 abstracts
PAPERS_JSONL = b"".join(
    json.dumps(
        {
            "title": f"Paper {n} on sparse routing",
            "abstract": f"We study sparse routing of tokens number {n} in mixture-of-experts "
            "models and show that a learned router halves the compute at equal quality on "
            "several language modelling benchmarks.",
        }
    ).encode()
    + b"\n"
    for n in range(3)
)


def papers(
    home: Path, tmp_path: Path, *args: str, stdin: bytes | int | None = None
) -> subprocess.CompletedProcess[str]:
    """``papers ARGS`` in ``PAPERS_HOME=home``, ``stdin`` piped in (bytes) or given (a
    descriptor; None: the null device)."""
    piped = isinstance(stdin, bytes)
    done = subprocess.run(
        [*PAPERS, *args],
        env=make_env(tmp_path, PAPERS_HOME=str(home)),
        input=stdin if piped else None,
        stdin=None if piped else (subprocess.DEVNULL if stdin is None else stdin),
        capture_output=True,
        timeout=60,
    )
    out, err = (done.stdout.decode("utf-8"), done.stderr.decode("utf-8"))
    return subprocess.CompletedProcess(done.args, done.returncode, out, err)


def lists(home: Path, tmp_path: Path) -> dict[str, int]:
    """How many papers each list holds."""
    listed = papers(home, tmp_path, "list", "--json")
    assert listed.returncode == 0, listed.stderr
    found: dict[str, int] = {}
    for record in json.loads(listed.stdout or "[]"):
        found[record["list"]] = found.get(record["list"], 0) + 1
    return found


def test_a_list_on_standard_input_is_imported_and_named_by_its_header(
    tmp_path: Path,
) -> None:
    home = tmp_path / "home"
    done = papers(home, tmp_path, "import", "-", stdin=ENGLISH.read_bytes())
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Imported ICLR 2025 Papers: 19 added"), done.stdout
    assert lists(home, tmp_path) == {"ICLR 2025 Papers": 19}


@pytest.mark.parametrize(
    "encoded",
    [
        PAPERS_JSONL,
        b"\xef\xbb\xbf" + PAPERS_JSONL,  # Notepad's UTF-8, PowerShell's pipe
        PAPERS_JSONL.decode().encode("utf-16"),  # its byte order mark first
    ],
    ids=["utf-8", "utf-8 with a BOM", "utf-16"],
)
def test_a_list_without_a_name_is_standard_input_unless_named(
    encoded: bytes, tmp_path: Path
) -> None:
    """JSON Lines found from the content (no file name says it); the list is called
    ``standard input`` as messages call it, with letters its content gives, and
    ``--list NAME`` still names it."""
    home = tmp_path / "home"
    done = papers(home, tmp_path, "import", "-", stdin=encoded)
    assert done.returncode == 0, done.stderr
    ((name, size),) = lists(home, tmp_path).items()
    assert PIPED.fullmatch(name) and size == 3, name
    assert done.stdout.startswith(f"Imported {name}: 3 added"), done.stdout
    other = tmp_path / "other"
    named = papers(other, tmp_path, "import", "-", "--list", "Routing", stdin=encoded)
    assert named.returncode == 0, named.stderr
    assert lists(other, tmp_path) == {"Routing": 3}


def test_standard_input_beside_files(tmp_path: Path) -> None:
    home = tmp_path / "home"
    done = papers(home, tmp_path, "import", str(ENGLISH), "-", stdin=PAPERS_JSONL)
    assert done.returncode == 0, done.stderr
    english, piped = lists(home, tmp_path).items()
    assert english == ("ICLR 2025 Papers", 19)
    assert PIPED.fullmatch(piped[0]) and piped[1] == 3, piped


def test_two_lists_piped_in_without_a_header_are_two_lists(tmp_path: Path) -> None:
    """Each was called ``standard input``: the second one's papers joined the first list
    (``papers remove --list`` then took both). An explicit ``--list`` still names one."""
    home = tmp_path / "home"
    other = b"".join(
        json.dumps(
            {"title": f"Paper {n} on tiny caches", "abstract": f"Tiny caches {n} " * 12}
        ).encode()
        + b"\n"
        for n in range(2)
    )
    first = papers(home, tmp_path, "import", "-", stdin=PAPERS_JSONL)
    assert first.returncode == 0, first.stderr
    second = papers(home, tmp_path, "import", "-", stdin=other)
    assert second.returncode == 0, second.stderr
    found = lists(home, tmp_path)
    assert sorted(found.values()) == [2, 3] and all(PIPED.fullmatch(n) for n in found), found
    third = other.replace(b"tiny caches", b"wide caches").replace(b"Tiny caches", b"Wide")
    named = papers(home, tmp_path, "import", "-", "--list", "standard input", stdin=third)
    assert named.returncode == 0, named.stderr
    assert lists(home, tmp_path)["standard input"] == 2


def test_the_same_list_piped_in_again_is_the_same_list(tmp_path: Path) -> None:
    """``zcat list.jsonl.gz | papers import -`` every day: named by the time of its import,
    each day's import added one more list to the same papers (2 updated, a list more)."""
    home = tmp_path / "home"
    first = papers(home, tmp_path, "import", "-", stdin=PAPERS_JSONL)
    assert first.returncode == 0, first.stderr
    again = papers(home, tmp_path, "import", "-", stdin=PAPERS_JSONL)
    assert again.returncode == 0, again.stderr
    ((name, size),) = lists(home, tmp_path).items()
    assert PIPED.fullmatch(name) and size == 3, name
    assert "0 added, 0 updated" in again.stdout, again.stdout


def test_a_piped_list_s_name_gives_its_papers_no_year(tmp_path: Path) -> None:
    """Named by the time of its import (``standard input 2026-12-07 17:05:31``), the list
    gave every paper of it without a year that year, for good: an ICLR paper stored at
    ``ICLR 2026``, BibTeX's ``year = {2026}``, ``year:2026`` finding it."""
    home = tmp_path / "home"
    row = {"title": "Tiny caches at scale", "abstract": "Tiny caches " * 12, "venue": "ICLR"}
    done = papers(home, tmp_path, "import", "-", stdin=json.dumps(row).encode() + b"\n")
    assert done.returncode == 0, done.stderr
    [paper] = json.loads(papers(home, tmp_path, "list", "--json").stdout)
    assert paper["list"].startswith("standard input ") and paper["venue"] == "ICLR", paper
    bibtex = papers(home, tmp_path, "export", "--status", "all", "--format", "bibtex").stdout
    assert "year =" not in bibtex and "title = {{Tiny caches at scale}}" in bibtex, bibtex
    year = date.today().year
    searched = papers(home, tmp_path, "search", f"year:{year}")
    assert "Tiny caches at scale" not in searched.stdout, searched.stdout


def test_a_dry_run_from_standard_input_writes_nothing(home: Path, tmp_path: Path) -> None:
    before = home_files(home)
    done = papers(home, tmp_path, "import", "-", "--dry-run", stdin=PAPERS_JSONL)
    assert done.returncode == 0, done.stderr
    assert re.match(rf"Would import {PIPED.pattern}: 3 added", done.stdout), done.stdout
    assert "Nothing was written (--dry-run)." in done.stdout
    assert home_files(home) == before


@pytest.mark.parametrize(
    ("stdin", "said"),
    [
        (b"", "papers: error: standard input is empty: nothing to import"),
        (b"\xef\xbb\xbf \n\n", "papers: error: standard input is empty: nothing to import"),
        (b"\x89PNG\r\n\x1a\n\x00\x00", "standard input: not a text file (it holds binary"),
        (b"hello world\n", "standard input: record 1: paragraph is too short"),
        (b"[1, 2]", "standard input"),
    ],
    ids=["empty", "a BOM and blank lines", "binary", "no list", "JSON of no papers"],
)
def test_bad_input_is_one_line_and_changes_nothing(
    stdin: bytes, said: str, seeded: Seeded, home: Path, tmp_path: Path
) -> None:
    before = home_files(home)
    for args in (["import", "-"], ["import", "-", "--dry-run"]):
        line = one_line_error(papers(home, tmp_path, *args, stdin=stdin), 1)
        assert said in line, line
        assert home_files(home) == before


def test_a_list_larger_than_the_cap_is_refused(home: Path, tmp_path: Path) -> None:
    before = home_files(home)
    big = PAPERS_JSONL * 4000  # ~1.5 MB
    line = one_line_error(papers(home, tmp_path, "import", "-", "--max-size", "1MB", stdin=big), 1)
    assert line.startswith("papers: error: standard input: larger than 1 MB"), line
    assert home_files(home) == before


def test_twice_or_closed_is_a_usage_error(home: Path, tmp_path: Path) -> None:
    before = home_files(home)
    line = one_line_error(papers(home, tmp_path, "import", "-", "-", stdin=PAPERS_JSONL), 2)
    assert "give '-' (a list on standard input) once" in line
    closed = subprocess.run(
        [*PAPERS, "--home", str(home), "import", "-"],
        env=make_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=lambda: os.close(0),  # noqa: PLW1509 - the child's stdin, closed
    )
    line = one_line_error(closed, 2)
    assert "'-' reads a list from standard input, which is closed" in line
    assert home_files(home) == before


def test_a_terminal_is_not_read(tmp_path: Path) -> None:
    """``papers import -`` typed at a prompt would wait for a list nobody pipes in: it says
    so at once, and makes no HOME."""
    home = tmp_path / "home"
    leader, follower = pty.openpty()
    try:
        done = papers(home, tmp_path, "import", "-", stdin=follower)
    finally:
        os.close(follower)
        os.close(leader)
    line = one_line_error(done, 2)
    assert "standard input, which is the terminal: pipe or redirect one in" in line
    assert not home.exists()


def test_help_says_so(tmp_path: Path) -> None:
    done = papers(tmp_path / "home", tmp_path, "import", "--help")
    assert "'-' reads a list from standard input" in " ".join(done.stdout.split())
