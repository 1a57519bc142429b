"""An undo gives a paper back its status with the time that status was given, and a redo
the time of the decision it makes again: ``r`` pressed by mistake on the queue's head and
undone made the paper "starred now", so ``papers queue sort starred`` (by when you starred
them) sent the oldest star to the end; a read paper starred by mistake and undone was "read
from the queue" on the day of the undo. And a star sent back to the Inbox keeps no place in
the queue, note or none: read later, it was read from the Inbox."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.test_cli import SAMPLE, make_env, ok, run


def times(home: Path, env: dict[str, str]) -> dict[str, float]:
    """Each decided paper's ``decided_at``, by id."""
    records = json.loads(ok(run("--home", home, "list", "--json", env=env)))
    return {r["id"]: r["decided_at"] for r in records if r["status"] != "inbox"}


def test_an_undo_keeps_when_the_paper_was_starred_and_the_queue_sort_by_it(
    tmp_path: Path,
) -> None:
    env = make_env(tmp_path)
    home = tmp_path / "home"
    ok(run("--home", home, "import", SAMPLE, env=env))
    ids = [r["id"] for r in json.loads(ok(run("--home", home, "list", "--json", env=env)))][:4]
    for pid in ids[:3]:  # one command each: three times, oldest first
        ok(run("--home", home, "mark", pid, "starred", env=env))
    starred = times(home, env)
    assert starred[ids[0]] < starred[ids[1]] < starred[ids[2]]

    ok(run("--home", home, "mark", ids[0], "read", env=env))  # the head read by mistake…
    ok(run("--home", home, "undo", env=env))  # …and put back
    assert times(home, env)[ids[0]] == starred[ids[0]]
    said = ok(run("--home", home, "queue", "sort", "starred", env=env))
    assert "0 papers moved" in said
    queue = [r["id"] for r in json.loads(ok(run("--home", home, "queue", "--json", env=env)))]
    assert queue == ids[:3]

    # a paper read, starred by mistake, the star undone: read when it was read
    ok(run("--home", home, "mark", ids[3], "read", env=env))
    read_at = times(home, env)[ids[3]]
    ok(run("--home", home, "mark", ids[3], "starred", env=env))
    ok(run("--home", home, "undo", env=env))
    assert times(home, env)[ids[3]] == read_at

    # a redo makes the decision again as it was made: at its time
    ok(run("--home", home, "mark", ids[1], "skipped", env=env))
    skipped_at = times(home, env)[ids[1]]
    ok(run("--home", home, "undo", env=env))
    assert times(home, env)[ids[1]] == starred[ids[1]]
    ok(run("--home", home, "redo", env=env))
    assert times(home, env)[ids[1]] == skipped_at


def test_a_star_sent_back_to_the_inbox_is_not_read_from_the_queue_later(tmp_path: Path) -> None:
    """Two papers starred, then sent back to the Inbox (``i``, ``papers mark … inbox``), then
    read from the Inbox: the one with a note kept its place in the queue on disk and counted
    as read from the queue (``papers stats``, the pane's "read from the queue on …"), the one
    without did not; the app, which keeps no place for an Inbox paper, said neither."""
    env = make_env(tmp_path)
    home = tmp_path / "home"
    ok(run("--home", home, "import", SAMPLE, env=env))
    ids = [r["id"] for r in json.loads(ok(run("--home", home, "list", "--json", env=env)))][:3]
    ok(run("--home", home, "mark", *ids, "starred", env=env))
    ok(run("--home", home, "note", ids[0], "to read after the deadline", env=env))
    ok(run("--home", home, "mark", ids[0], ids[1], "inbox", env=env))
    ok(run("--home", home, "mark", ids[0], ids[1], "read", env=env))
    ok(run("--home", home, "mark", ids[2], "read", env=env))  # this one from the queue
    queue = json.loads(ok(run("--home", home, "stats", "--json", env=env)))["queue"]
    assert sum(week["read"] for week in queue["read_per_week"]) == 1
    ok(run("--home", home, "undo", env=env))
    ok(run("--home", home, "undo", env=env))
    ok(run("--home", home, "undo", env=env))  # back in the queue, each in its place
    assert [r["id"] for r in json.loads(ok(run("--home", home, "queue", "--json", env=env)))] == ids


def test_a_star_an_import_sends_back_to_the_inbox_is_not_read_from_the_queue_later(
    tmp_path: Path,
) -> None:
    """The same through ``papers import --take-theirs`` of a list that has the papers in the
    Inbox: the star with a note (cleared by the file's, its time kept) kept its place on disk
    and, read later from the Inbox, counted as read from the queue; its undo still puts both
    back in their places."""
    env = make_env(tmp_path)
    home = tmp_path / "home"
    ok(run("--home", home, "import", SAMPLE, env=env))
    ids = [r["id"] for r in json.loads(ok(run("--home", home, "list", "--json", env=env)))][:3]
    inbox = tmp_path / "inbox.json"
    ok(run("--home", home, "export", "--status", "all", "--format", "json", "-o", inbox, env=env))
    ok(run("--home", home, "mark", *ids[:2], "starred", env=env))
    ok(run("--home", home, "note", ids[0], "to read after the deadline", env=env))
    ok(run("--home", home, "import", "--take-theirs", inbox, env=env))
    assert json.loads(ok(run("--home", home, "queue", "--json", env=env))) == []
    ok(run("--home", home, "mark", *ids[:2], "read", env=env))  # from the Inbox
    ok(run("--home", home, "mark", ids[2], "starred", env=env))
    ok(run("--home", home, "mark", ids[2], "read", env=env))  # this one from the queue
    queue_stats = json.loads(ok(run("--home", home, "stats", "--json", env=env)))["queue"]
    assert sum(week["read"] for week in queue_stats["read_per_week"]) == 1
    for _ in range(4):  # the reads, the star and the import's decisions taken back
        ok(run("--home", home, "undo", env=env))
    queue = [r["id"] for r in json.loads(ok(run("--home", home, "queue", "--json", env=env)))]
    assert queue == ids[:2]
