"""``papers export --with-read``: the reading queue with the papers already read from it, as a
Markdown task list (``- [x]`` for those read, first, in the order they were read, then the
queue's ``- [ ]`` in its order). There was no such export: the starred export dropped a paper
the moment it was read. Real subprocesses, a real HOME; a hostile title stays text."""

from __future__ import annotations

import json
from pathlib import Path

import orjson
import pytest

from tests.cli.test_bad_input import one_line_error
from tests.cli.test_cli import make_env, ok, run

#: A title that would be Markdown of its own (a link, HTML, a task, a heading) and terminal
#: control (ESC, a bidirectional override), were it not escaped.
HOSTILE = "[x](javascript:alert(1)) <script>bad()</script>\n- [ ] fake \x1b[31mred\u202e #h"


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return make_env(tmp_path)


def queue_home(tmp_path: Path, env: dict[str, str]) -> tuple[Path, list[str]]:
    """Five papers starred (the third with a hostile title), the second and then the fourth
    read from the queue, the fifth moved to the head; a sixth read from the Inbox."""
    listed = tmp_path / "list.jsonl"
    titles = ["Alpha", "Bravo", HOSTILE, "Delta", "Echo", "Foxtrot"]
    records = [{"title": t, "abstract": f"Abstract number {i} of the list."} for i, t in
               enumerate(titles)]  # fmt: skip
    listed.write_bytes(b"\n".join(orjson.dumps(r) for r in records) + b"\n")
    home = tmp_path / "home"
    ok(run("--home", home, "import", listed, env=env))
    ids = [r["id"] for r in json.loads(ok(run("--home", home, "list", "--json", env=env)))]
    ok(run("--home", home, "mark", *ids[:5], "starred", env=env))
    ok(run("--home", home, "mark", ids[3], "read", env=env))
    ok(run("--home", home, "mark", ids[1], "read", env=env))
    ok(run("--home", home, "queue", "move", ids[4], "--to", "top", env=env))
    ok(run("--home", home, "mark", ids[5], "read", env=env))
    return home, ids


def test_the_reading_queue_with_its_read_papers_as_a_task_list(
    tmp_path: Path, env: dict[str, str]
) -> None:
    home, ids = queue_home(tmp_path, env)
    out = ok(run("--home", home, "export", "--with-read", env=env))
    tasks = [line for line in out.splitlines() if line.startswith("- [")]
    assert [t[:5] for t in tasks] == ["- [x]"] * 2 + ["- [ ]"] * 3, out
    # read first, in the order read (Delta, then Bravo), then the queue: Echo moved to the head
    titles = [task.split("**")[1] for task in tasks[:4]]
    assert titles == ["Delta", "Bravo", "Echo", "Alpha"], out
    assert "Foxtrot" not in out  # read, but never from the queue
    assert out.startswith("# Reading queue: list (5 papers)\n"), out
    # the hostile title is text: no link, no HTML, no task of its own, no terminal control
    hostile = tasks[4]
    assert "&#91;x&#93;(javascript:alert(1))" in hostile and "&lt;script&gt;" in hostile
    assert "<script>" not in out and "\x1b" not in out and "\u202e" not in out
    assert "fake" in hostile and "\n- [ ] fake" not in out
    # the starred export is as it was: the queue alone
    starred = ok(run("--home", home, "export", env=env))
    assert "- [x]" not in starred and starred.count("- [ ]") == 3


def test_with_read_in_json_and_to_a_folder(tmp_path: Path, env: dict[str, str]) -> None:
    home, ids = queue_home(tmp_path, env)
    records = json.loads(ok(run("--home", home, "export", "--with-read", "--format", "json",
                                env=env)))  # fmt: skip
    assert [(r["id"], r["status"]) for r in records] == [
        (ids[3], "read"), (ids[1], "read"), (ids[4], "starred"), (ids[0], "starred"),
        (ids[2], "starred"),
    ]  # fmt: skip
    folder = tmp_path / "out"
    folder.mkdir()
    done = run("--home", home, "export", "--with-read", "-o", folder, env=env)
    ok(done)
    assert (
        done.stderr
        == f"Wrote 5 papers of the reading queue (2 of them read) to {folder / 'queue.md'}\n"
    )
    assert (folder / "queue.md").read_text(encoding="utf-8").count("- [x]") == 2


def test_with_read_asks_for_the_starred_papers(tmp_path: Path, env: dict[str, str]) -> None:
    home, _ids = queue_home(tmp_path, env)
    line = one_line_error(run("--home", home, "export", "--status", "read", "--with-read",
                              env=env), 2)  # fmt: skip
    assert line == (
        "papers: error: --with-read applies to --status starred (the reading queue) only, "
        "not read (see `papers export --help`)"
    )


def test_the_api_gives_the_same_list(tmp_path: Path, env: dict[str, str]) -> None:
    from storage import Library, Status
    from storage.export import reading_list, select, to_markdown

    home, ids = queue_home(tmp_path, env)
    lib = Library(home)
    triage = lib.triage()
    papers = reading_list(lib.papers(), triage)
    assert [p.id for p in papers] == [ids[3], ids[1], ids[4], ids[0], ids[2]]
    wanted = frozenset({Status.STARRED})
    assert select(lib.papers(), triage.statuses, wanted, triage, with_read=True) == papers
    with pytest.raises(ValueError):
        select(lib.papers(), triage.statuses, frozenset({Status.READ}), triage, with_read=True)
    assert to_markdown(papers, triage).count("- [x]") == 2
