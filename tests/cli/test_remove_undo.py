"""``papers undo`` and ``papers redo`` walk one log: decisions, bulk decisions and removals,
in order, both ways, as users run them (real subprocesses)."""

from __future__ import annotations

import subprocess
from pathlib import Path

from tests.cli import test_cli
from tests.cli.test_cli import PAPERS, Seeded, listed, nothing_to, ok, run, statuses

# The fixtures of test_cli: a seeded HOME (built once per module), a copy of it, a clean env.
seeded, home, env = test_cli.seeded, test_cli.home, test_cli.env


def papers(home: Path, env: dict[str, str], *args: str) -> str:
    return ok(run("--home", home, *args, env=env))


def test_redo_takes_a_removal_out_again_and_says_so(
    seeded: Seeded, home: Path, env: dict[str, str]
) -> None:
    papers(home, env, "remove", seeded.parasolver, seeded.helmet)
    out = papers(home, env, "undo")
    assert out.startswith("Put back 2 papers; `papers redo` takes them out again.")
    assert seeded.parasolver in out and len(listed(home, env)) == 38
    assert statuses(home, env)[seeded.parasolver] == "starred"
    out = papers(home, env, "redo")
    assert out.startswith("Removed 2 papers again; `papers undo` puts them back.")
    assert len(listed(home, env)) == 36
    nothing_to(run("--home", home, "redo", env=env), "redo")
    papers(home, env, "undo")
    assert statuses(home, env)[seeded.parasolver] == "starred"  # decisions come back each time


def test_one_paper_removed_is_it_not_them(seeded: Seeded, home: Path, env: dict[str, str]) -> None:
    out = papers(home, env, "remove", seeded.helmet)
    assert out.startswith("Removed 1 paper; `papers undo` puts it back.")
    assert papers(home, env, "undo").startswith("Put back 1 paper; `papers redo` takes it out")
    assert papers(home, env, "redo").startswith("Removed 1 paper again; `papers undo` puts it")


def test_decisions_bulk_decisions_and_removals_undo_and_redo_in_order(
    seeded: Seeded, home: Path, env: dict[str, str]
) -> None:
    first, second = seeded.lists
    picked = {seeded.collabedit, seeded.parasolver}
    a, b = [r["id"] for r in seeded.records if r["list"] == first and r["id"] not in picked][:2]
    in_second = [r["id"] for r in seeded.records if r["list"] == second]
    gone = len(set(in_second) - {seeded.collabedit})  # it is out already when the list goes
    papers(home, env, "mark", seeded.collabedit, "read")  # 1: a decision
    papers(home, env, "remove", seeded.collabedit)  # 2: a removal of the decided paper
    papers(home, env, "mark", a, b, "skipped")  # 3: a bulk decision
    papers(home, env, "remove", "--list", second)  # 4: a whole list
    after = {r["id"]: r["status"] for r in listed(home, env)}
    assert len(after) == 37 - gone and seeded.collabedit not in after

    out = papers(home, env, "undo")  # 4
    assert out.startswith(f"Put back {gone} papers and the list {second};")
    out = papers(home, env, "undo")  # 3
    assert f"{a}  skipped → inbox" in out and f"{b}  skipped → inbox" in out
    out = papers(home, env, "undo")  # 2
    assert out.startswith("Put back 1 paper;") and seeded.collabedit in out
    assert statuses(home, env)[seeded.collabedit] == "read"
    out = papers(home, env, "undo")  # 1
    assert f"{seeded.collabedit}  read → inbox" in out
    assert statuses(home, env) == {r["id"]: r["status"] for r in seeded.records} | {
        seeded.parasolver: "starred"
    }
    assert [r["id"] for r in listed(home, env)] == [r["id"] for r in seeded.records]

    assert "inbox → read" in papers(home, env, "redo")  # 1
    assert papers(home, env, "redo").startswith("Removed 1 paper again;")  # 2
    assert "inbox → skipped" in papers(home, env, "redo")  # 3
    out = papers(home, env, "redo")  # 4
    assert out.startswith(f"Removed {gone} papers and the list {second} again;")
    assert {r["id"]: r["status"] for r in listed(home, env)} == after
    nothing_to(run("--home", home, "redo", env=env), "redo")


def test_undo_until_nothing_is_left_ends(seeded: Seeded, home: Path, env: dict[str, str]) -> None:
    """``while papers undo; do :; done`` looped for ever: nothing to undo exited 0. It is
    said on stderr with exit code 1 (as ``git stash pop`` with no stash), so the loop undoes
    every step (here the one star and two marks) and stops; what was undone is there to
    redo."""
    script = (
        'n=0; while "$@" undo >/dev/null; do n=$((n+1)); [ "$n" -gt 9 ] && exit 9; done; echo $n'
    )
    ids = [r["id"] for r in seeded.records if r["id"] != seeded.parasolver]
    papers(home, env, "mark", *ids[:2], "read")
    papers(home, env, "mark", ids[2], "skipped")
    done = subprocess.run(
        ["sh", "-c", script, "sh", *PAPERS, "--home", str(home)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert (done.returncode, done.stdout) == (0, "3\n"), done.stderr
    assert done.stderr == "papers: nothing to undo\n"
    assert set(statuses(home, env).values()) == {"inbox"}
    assert "inbox → starred" in papers(home, env, "redo")
