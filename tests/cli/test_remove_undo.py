"""``papers undo`` and ``papers redo`` walk one log: decisions, bulk decisions and removals,
in order, both ways, as users run them (real subprocesses)."""

from __future__ import annotations

from pathlib import Path

from tests.cli import test_cli
from tests.cli.test_cli import Seeded, listed, ok, run, statuses

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
    assert papers(home, env, "redo") == "nothing to redo\n"
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
    assert papers(home, env, "redo") == "nothing to redo\n"
