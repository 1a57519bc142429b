"""``papers pdf --failed`` lists the downloads that failed for now too (a 5xx, no answer in
time), apart from those that failed for good, and ``--json`` gives them as one document
(subprocess, a real server on 127.0.0.1).

A user whose 30 PDFs timed out saw nothing there: a failure that may mend was never kept.
It is kept now, as asked for again next time, with when it last failed and on how many runs in
a row; a download that then succeeds forgets it.
"""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest

from tests.cli.test_cli import make_env, ok, run
from tests.cli.test_queue_cli import pdf_home
from tests.pdf_server import PdfServer

#: The keys of a record of ``papers pdf --failed --json``, as the README lists them.
KEYS = {
    "id",
    "title",
    "url",
    "host",
    "cause",
    "lasting",
    "failed_at",
    "runs",
    "passed_over_until",
}


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return make_env(tmp_path)


def download(home: Path, env: dict[str, str]) -> str:
    """``papers pdf`` of the queue, no pause, a server silent for 1 s given up: its stderr."""
    done = run("--home", home, "pdf", "--pause", "0", "--no-text", "--timeout", "1", env=env)
    assert done.returncode == 1, done.stderr  # some failed
    return done.stderr


def test_failures_that_may_mend_are_listed_apart_and_as_json(
    tmp_path: Path, env: dict[str, str], server: PdfServer
) -> None:
    home, ids = pdf_home(tmp_path, env, server, 4)
    server.behaviour.update(p01="unavailable", p02="silent", p03="missing")
    started = time.time()
    said = download(home, env)
    assert "1 PDF downloaded, 3 failed" in said, said
    lines = ok(run("--home", home, "pdf", "--failed", env=env)).splitlines()
    assert [line.split("  ", 1)[0] for line in lines] == ids[1:]
    assert "HTTP 503" in lines[0] and lines[0].endswith(
        "; may mend, failed once: asked for again next time)"
    ), lines
    assert lines[1].endswith("; may mend, failed once: asked for again next time)"), lines
    assert "HTTP 404 Not Found" in lines[2] and "may mend" not in lines[2], lines
    assert lines[2].endswith("; asked for again next time)"), lines

    said = download(home, env)  # a second run: the same
    lines = ok(run("--home", home, "pdf", "--failed", env=env)).splitlines()
    assert all("may mend, failed on 2 runs in a row" in line for line in lines[:2]), lines
    assert "passed over until " in lines[2], lines

    records = json.loads(ok(run("--home", home, "pdf", "--failed", "--json", env=env)))
    assert [r["id"] for r in records] == ids[1:]
    assert all(set(record) == KEYS for record in records), records
    host = server.base.removeprefix("http://")
    assert [(r["lasting"], r["runs"], r["host"]) for r in records] == [
        (False, 2, host),
        (False, 2, host),
        (True, 2, host),
    ]
    assert [r["passed_over_until"] is None for r in records] == [True, True, False]
    assert "503" in records[0]["cause"] and records[2]["cause"] == "HTTP 404 Not Found"
    for record in records:
        at = datetime.strptime(record["failed_at"], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
        assert started - 1 <= at.timestamp() <= time.time() + 1

    # the server mends: the PDF is downloaded, and its failure forgotten
    server.behaviour.update(p01="ok")
    download(home, env)
    records = json.loads(ok(run("--home", home, "pdf", "--failed", "--json", env=env)))
    assert [(r["id"], r["runs"]) for r in records] == [(ids[2], 3), (ids[3], 2)]


def test_no_failure_is_an_empty_document_and_json_needs_failed(
    tmp_path: Path, env: dict[str, str], server: PdfServer
) -> None:
    home, _ids = pdf_home(tmp_path, env, server, 1)
    assert json.loads(ok(run("--home", home, "pdf", "--failed", "--json", env=env))) == []
    none = run("--home", home, "pdf", "--failed", env=env)
    assert none.returncode == 0 and none.stdout == ""
    assert none.stderr.startswith("papers: no PDF failed (for good: HTTP 404 or 410"), none.stderr
    alone = run("--home", home, "pdf", "--json", env=env)
    assert alone.returncode == 2 and "give --failed too" in alone.stderr, alone.stderr
    assert server.requests == []


@pytest.mark.parametrize("at", [1e300, -1e300, 2**70])
def test_a_failure_of_a_time_out_of_range_is_not_kept(
    tmp_path: Path, env: dict[str, str], at: float
) -> None:
    """A ``pdf-failures.json`` whose time no clock can show (a hand edit, a file damaged into
    JSON still): ``papers pdf --failed`` and its ``--json`` ended in "internal error:
    OverflowError: timestamp out of range". Such an entry is read as none, as any other
    entry not as written here."""
    home = tmp_path / "home"
    source = tmp_path / "p.jsonl"
    source.write_text(
        json.dumps(
            {"title": "A paper", "abstract": "About things.", "url": "http://127.0.0.1:9/a.pdf"}
        )
        + "\n",
        encoding="utf-8",
    )
    ok(run("--home", home, "import", source, env=env))
    (pid,) = [p["id"] for p in json.loads(ok(run("--home", home, "list", "--json", env=env)))]
    for lasting in (True, False):
        entry = {"url": "http://127.0.0.1:9/a.pdf", "cause": "x", "at": at, "seen": 1}
        (home / "pdf-failures.json").write_text(
            json.dumps({"format": 1, "papers": {pid: {**entry, "lasting": lasting}}}),
            encoding="utf-8",
        )
        assert json.loads(ok(run("--home", home, "pdf", "--failed", "--json", env=env))) == []
        done = run("--home", home, "pdf", "--failed", env=env)
        assert done.returncode == 0 and done.stdout == "", done.stderr
        assert "no PDF failed" in done.stderr
