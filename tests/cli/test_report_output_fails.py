"""A change saved, then its report cannot be written (real processes, temporary homes).

``papers mark ID read | reader`` whose reader has gone (EPIPE) ended saying nothing; one whose
output is a file that cannot grow (a full disk) said ``papers: error: No space left on
device``, and a user took the mark for not made and tried again, or believed it lost. The
line now says that the change is saved: exit 0 when the reader left (nobody was there to
read the report, as with ``>&-``), 1 when the report was lost on its way. The only copy of a
note replaced goes out before the change is written: the note stays when it cannot.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli import test_bad_input
from tests.cli.test_bad_input import PAPERS, Seeded, run

# The fixtures of test_bad_input: the bundled sample imported once, a copy of it, a clean env.
seeded, home, env = test_bad_input.seeded, test_bad_input.home, test_bad_input.env

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX pipes and FIFOs")

SAVED_READER_LEFT = (
    "papers: standard output's reader left: the change is saved (its report is cut short)\n"
)


def papers_into(fd: int, home: Path, env: dict[str, str], *args: str) -> tuple[int, str]:
    """``papers ARGS`` with ``fd`` as its standard output: its exit code and its stderr."""
    done = subprocess.run(
        [*PAPERS, "--home", str(home), *args],
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=fd,
        stderr=subprocess.PIPE,
        text=True,
        timeout=60,
    )
    assert "Traceback" not in done.stderr
    return done.returncode, done.stderr


def pipe_without_reader() -> int:
    """The write end of a real pipe whose reader has gone (closed)."""
    read, write = os.pipe()
    os.close(read)
    return write


def fifo_without_reader(tmp_path: Path) -> int:
    """The write end of a FIFO in ``tmp_path``, opened while a reader had it, then left."""
    path = tmp_path / "report.fifo"
    os.mkfifo(path)
    read = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    write = os.open(path, os.O_WRONLY)
    os.close(read)
    return write


def record(home: Path, env: dict[str, str], paper_id: str) -> dict[str, object]:
    listing = run("--home", home, "list", "--json", env=env)
    assert listing.returncode == 0, listing.stderr
    return next(r for r in json.loads(listing.stdout) if r["id"] == paper_id)


@pytest.mark.parametrize("output", ["pipe", "fifo"])
def test_a_mark_whose_reader_left_says_it_is_saved(
    output: str, seeded: Seeded, home: Path, env: dict[str, str], tmp_path: Path
) -> None:
    first = seeded.ids[0]
    fd = pipe_without_reader() if output == "pipe" else fifo_without_reader(tmp_path)
    try:
        code, err = papers_into(fd, home, env, "mark", first, "read")
        assert (code, err) == (0, SAVED_READER_LEFT)
        assert record(home, env, first)["status"] == "read"
        # an undo's report the same: the mark is undone, and said so
        code, err = papers_into(fd, home, env, "undo")
        assert (code, err) == (0, SAVED_READER_LEFT)
        assert record(home, env, first)["status"] == "inbox"
    finally:
        os.close(fd)


def test_a_mark_whose_report_file_cannot_grow_says_it_is_saved(
    seeded: Seeded, home: Path, env: dict[str, str], tmp_path: Path
) -> None:
    """Standard output a file in ``tmp_path`` at the size the process may write (a full disk,
    as the process sees it: ``File too large``): the mark is saved, the report lost, exit 1."""
    first = seeded.ids[0]
    out = tmp_path / "report.log"
    code, err = into_a_full_file(out, home, env, "mark", first, "starred")
    assert code == 1
    assert err == (
        "papers: error: standard output: File too large: the change is saved; its report is lost\n"
    )
    assert record(home, env, first)["status"] == "starred"
    assert out.stat().st_size == FULL_AT


#: The size standard output's file may grow to (far above triage.json, which a change writes).
FULL_AT = 1 << 20


def into_a_full_file(out: Path, home: Path, env: dict[str, str], *args: str) -> tuple[int, str]:
    """Run ``papers`` with standard output ``out``, a file already at the size the process
    may write (a full disk, as the process sees it: ``File too large``): its exit code and
    standard error."""
    out.write_bytes(b"-" * FULL_AT)

    def small_files() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (FULL_AT, FULL_AT))

    with out.open("ab") as handle:
        done = subprocess.run(
            [*PAPERS, "--home", str(home), *args],
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=handle,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
            preexec_fn=small_files,  # noqa: PLW1509 - the child's own limit
        )
    return done.returncode, done.stderr


@pytest.mark.parametrize("output", ["pipe", "full"])
def test_a_note_replaced_with_nowhere_to_print_it_is_left_as_it_was(
    output: str, seeded: Seeded, home: Path, env: dict[str, str], tmp_path: Path
) -> None:
    """The note a new one replaces is printed as its only copy: with its reader gone, or its
    file unable to grow (a full disk), the new note was saved and the old one said lost, for
    good. The copy now goes out before the change is written: exit 1, the note as it was."""
    first = seeded.ids[0]
    note = "the first:  \r\nits second line"
    assert run("--home", home, "note", first, note, env=env).returncode == 0
    if output == "pipe":
        fd = pipe_without_reader()
        try:
            code, err = papers_into(fd, home, env, "note", first, "the second")
        finally:
            os.close(fd)
        failure = "Broken pipe"
    else:
        out = tmp_path / "report.log"
        code, err = into_a_full_file(out, home, env, "note", first, "the second")
        failure = "File too large"
    assert code == 1
    assert err == (
        f"papers: error: standard output: {failure}: the note is left as it was (the note it "
        "would replace is printed as its only copy, and could not be)\n"
    )
    assert record(home, env, first)["note"] == note


def test_a_listing_whose_reader_left_still_ends_quietly(
    seeded: Seeded, home: Path, env: dict[str, str]
) -> None:
    """``papers list | head``: the output is the work, the reader took what it wanted."""
    fd = pipe_without_reader()
    try:
        assert papers_into(fd, home, env, "list") == (0, "")
    finally:
        os.close(fd)
