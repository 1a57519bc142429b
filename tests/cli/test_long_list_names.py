"""A list named in 100,000 characters (a script's ``--list``) is cut in the lines for people
that name it, as the app's toast cuts it (``tui.text.NAME_CELLS``), and kept whole in what
scripts read (``--json``, CSV), whole as the library keeps it (its first 499 characters and
"…"): the import's report, a removal's and its undo's, the error naming the lists there are.
Each line was 100,000 characters long (the error 200,000)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from tests.cli.test_bad_input import SAMPLE, make_env, one_line_error, run

LONG = "L" + "ong name " * 11_111  # 100,000 characters
KEPT = LONG[:499] + "…"  # as the library keeps it (``caps.list_named``), whole for scripts
SHOWN = 60  # a cut name's line is the words around it and at most NAME_CELLS of the name
ONE_LIST = sorted(SAMPLE.glob("*.txt"))[0]


def lines_are_short(text: str, limit: int = 200) -> None:
    assert text and max(map(len, text.splitlines())) <= limit, max(map(len, text.splitlines()))


def test_a_long_list_name_is_cut_in_reports_and_whole_for_scripts(tmp_path: Path) -> None:
    env = make_env(tmp_path)
    home = tmp_path / "home"
    dry = run("--home", home, "import", "--dry-run", "--list", LONG, ONE_LIST, env=env)
    assert dry.returncode == 0, dry.stderr
    lines_are_short(dry.stdout)
    assert dry.stdout.startswith(f"Would import {LONG[:30]}")
    done = run("--home", home, "import", "--list", LONG, ONE_LIST, env=env)
    assert done.returncode == 0, done.stderr
    lines_are_short(done.stdout)
    head = done.stdout.splitlines()[0]
    assert head.startswith(f"Imported {LONG[:30]}") and "…: 19 added" in head
    assert "Traceback" not in done.stderr and len(done.stderr) < SHOWN * 4

    # what scripts read keeps the whole name, as kept (a sync takes no longer one)
    (paper, *_) = json.loads(run("--home", home, "list", "--json", env=env).stdout)
    assert paper["list"] == KEPT
    stats = json.loads(run("--home", home, "stats", "--json", env=env).stdout)
    assert KEPT in json.dumps(stats, ensure_ascii=False)
    exported = run("--home", home, "export", "--status", "all", "--format", "csv", env=env)
    rows = list(csv.DictReader(io.StringIO(exported.stdout)))
    assert rows and all(KEPT in row.values() for row in rows)

    removed = run("--home", home, "remove", "--list", LONG, env=env)
    assert removed.returncode == 0, removed.stderr
    lines_are_short(removed.stdout)
    assert removed.stdout.startswith(f"Removed 19 papers and the list {LONG[:30]}")
    for step in ("undo", "redo", "undo"):
        again = run("--home", home, step, env=env)
        assert again.returncode == 0, again.stderr
        lines_are_short(again.stdout)

    unknown = one_line_error(run("--home", home, "remove", "--list", "x" + LONG, env=env), 1)
    assert len(unknown) < 200
    assert unknown.startswith("papers: error: no list is named 'xLong name")
    assert "(the lists: 'Long name" in unknown
