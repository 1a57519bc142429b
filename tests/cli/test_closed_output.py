"""A command run with its standard output closed (``papers mark ID read >&-``): the decision
was saved, then exit code 1 ("standard output is closed") told a script it failed. A command
that changes the library prints only a report of the change, which nobody is there to read:
exit 0 once the change is saved. One whose output is its work (a listing, an export, a dry
run's report) still fails, as before (real processes, temporary homes)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from tests.cli import test_bad_input
from tests.cli.test_bad_input import PAPERS, SAMPLE, Seeded, run
from tests.helpers import home_files

# The fixtures of test_bad_input: the bundled sample imported once, a copy of it, a clean env.
seeded, home, env = test_bad_input.seeded, test_bad_input.home, test_bad_input.env


def statuses(home: Path, env: dict[str, str]) -> dict[str, str]:
    listing = run("--home", home, "list", "--json", env=env)
    assert listing.returncode == 0, listing.stderr
    return {r["id"]: r["status"] for r in json.loads(listing.stdout)}


def run_with_stdout_closed(
    home: Path, env: dict[str, str], *args: str, stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    """``papers ARGS >&-``: the child starts with no file descriptor 1 at all."""
    return subprocess.run(
        [*PAPERS, "--home", str(home), *args],
        env=env,
        input=stdin,
        stdin=subprocess.DEVNULL if stdin is None else None,
        stderr=subprocess.PIPE,
        text=True,
        timeout=60,
        preexec_fn=lambda: os.close(1),  # noqa: PLW1509 - the child's stdout, closed
    )


def test_a_change_with_its_report_going_nowhere_succeeds(
    seeded: Seeded, home: Path, env: dict[str, str]
) -> None:
    """``papers mark ID read >&-``: the decision was saved, then the exit code 1 ("standard
    output is closed") told a script it failed. What it prints only reports the change, and
    no one was to read it: exit 0, nothing said. The same for the other changes."""
    first, second = seeded.ids[0], seeded.ids[1]
    for args in (
        ["mark", first, "read"],
        ["undo"],
        ["redo"],
        ["note", first, "a note"],
        ["tag", first, "later"],
        ["queue", "move", seeded.starred, "--to", "top"],
        ["remove", second],
    ):
        done = run_with_stdout_closed(home, env, *args)
        assert (done.returncode, done.stderr) == (0, ""), args
    assert statuses(home, env)[first] == "read" and second not in statuses(home, env)
    listed = json.loads(run("--home", home, "list", "--json", env=env).stdout)
    assert [(r["note"], r["tags"]) for r in listed if r["id"] == first] == [("a note", ["later"])]


def test_output_that_is_the_work_still_fails_when_closed(
    seeded: Seeded, home: Path, env: dict[str, str]
) -> None:
    """A dry run's report is its work, as a listing or an export is: exit 1, said; and an
    import's report goes nowhere with the import made."""
    before = home_files(home)
    listing = (SAMPLE / "002_729efa22d9503d43.txt").read_text(encoding="utf-8")
    dry = run_with_stdout_closed(home, env, "import", "-", "--dry-run", stdin=listing)
    assert dry.returncode == 1 and dry.stderr == "papers: error: standard output is closed\n"
    assert home_files(home) == before
    bib = "@article{a, title = {Closed Outputs}, author = {Lee, Ann}, year = 2020}\n"
    made = run_with_stdout_closed(home, env, "import", "-", stdin=bib)
    assert (made.returncode, made.stderr) == (0, "")
    found = run("--home", home, "search", "Closed Outputs", "--json", env=env)
    assert [r["title"] for r in json.loads(found.stdout)][:1] == ["Closed Outputs"]


def test_a_note_or_tags_replaced_with_nowhere_to_print_them_are_left_as_they_were(
    seeded: Seeded, home: Path, env: dict[str, str]
) -> None:
    """``papers note ID new >&-`` over a note: the note it replaces is printed as its only
    copy (no undo brings a note back). With standard output closed it went nowhere: the new
    note was saved, the error said the old one was lost, and it was, for good. Now the copy is
    printed before the change is written, and an output that cannot take it leaves the note
    (the tags) as it was: exit 1, said in one line. A note added to (``--append``) replaces
    nothing: exit 0."""
    first = seeded.ids[0]
    for args in (["note", first, "the first  \r\nof two lines"], ["tag", first, "first"]):
        assert run("--home", home, *args, env=env).returncode == 0
    before = home_files(home)
    for args, said in (
        (["note", first, "the second"], "the note is left as it was (the note it would"),
        (["note", first, ""], "the note is left as it was (the note it would"),
        (["tag", first, "second"], "the tags are left as they were (the tags it would"),
    ):
        done = run_with_stdout_closed(home, env, *args)
        assert done.returncode == 1, args
        assert done.stderr.startswith(f"papers: error: standard output is closed: {said}")
        assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert home_files(home) == before  # nothing half-saved
    added = run_with_stdout_closed(home, env, "note", first, "--append", "more")
    assert (added.returncode, added.stderr) == (0, "")
    listed = json.loads(run("--home", home, "list", "--json", env=env).stdout)
    found = [(r["note"], r["tags"]) for r in listed if r["id"] == first]
    assert found == [("the first  \r\nof two lines\nmore", ["first"])]
