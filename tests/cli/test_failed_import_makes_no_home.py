"""A failed ``papers import`` leaves no trace: HOME is made once there are papers to store
(real processes, temporary folders).

``papers import - < notes.txt`` (no list), ``papers import missing.txt`` or ``papers import
--dry-run list.txt`` of a HOME not there yet made the HOME folder, empty, before the input was
read: the next look found a library folder that no import had filled.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.test_bad_input import one_line_error
from tests.cli.test_import_stdin import PAPERS_JSONL, papers

NO_LIST = b"Attention is all you need\nDeep residual learning for image recognition\n"
#: A list whose one record is refused: read, then found to hold no paper (after the readers).
NO_PAPER = b"Batch normalization\n"


@pytest.mark.parametrize(
    ("args", "stdin", "says"),
    [
        (["-"], NO_LIST, "standard input: not a paper list"),
        (["-"], NO_PAPER, "no papers found to import: standard input: record 1"),
        (["-"], b"", "standard input is empty: nothing to import"),
        (["-"], b"\x00\x01\x02 binary", "standard input: not a text file"),
        (["{tmp}/missing.txt"], b"", "missing.txt: no such file or folder"),
        (["{tmp}/notes.bin"], b"", "notes.bin: not a text file"),
    ],
    ids=["no list", "no paper", "empty", "binary", "missing file", "binary file"],
)
def test_a_failed_import_makes_no_home(
    args: list[str], stdin: bytes, says: str, tmp_path: Path
) -> None:
    (tmp_path / "notes.bin").write_bytes(b"\x00\x01\x02 binary")
    home = tmp_path / "new" / "home"  # neither it nor the folder it goes in is there
    words = [arg.format(tmp=tmp_path) for arg in args]
    line = one_line_error(papers(home, tmp_path, "import", *words, stdin=stdin), 1)
    assert says in line, line
    assert not (tmp_path / "new").exists()


def test_a_dry_run_makes_no_home_and_an_import_makes_it(tmp_path: Path) -> None:
    home = tmp_path / "new" / "home"
    dry = papers(home, tmp_path, "import", "-", "--dry-run", stdin=PAPERS_JSONL)
    assert dry.returncode == 0 and "Nothing was written (--dry-run)." in dry.stdout, dry.stderr
    assert not (tmp_path / "new").exists()
    done = papers(home, tmp_path, "import", "-", stdin=PAPERS_JSONL)
    assert done.returncode == 0, done.stderr
    assert json.loads((home / "papers.json").read_text(encoding="utf-8"))["papers"]


def test_a_home_that_is_a_file_is_said_at_once(tmp_path: Path) -> None:
    """HOME no longer made when the import starts: a file there, or on its way, is still said
    as the library's folder, before the input is read ("is a file"), not as a library file
    that is "Not a directory"."""
    taken = tmp_path / "taken"
    taken.write_text("a file\n", encoding="utf-8")
    line = one_line_error(papers(taken, tmp_path, "import", "-", stdin=PAPERS_JSONL), 1)
    assert line == f"papers: error: {taken}: is a file: the library is a folder"
    below = taken / "sub" / "home"
    line = one_line_error(papers(below, tmp_path, "import", "-", stdin=PAPERS_JSONL), 1)
    assert line == f"papers: error: {below}: has a file in its path: the library is a folder"
    assert taken.read_text(encoding="utf-8") == "a file\n"
