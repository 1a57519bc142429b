"""``papers pdf --failed`` (why PDFs failed for good, nothing downloaded) and a file named as a
paper's PDF that is no PDF (no copy, said), against a real server on 127.0.0.1 (subprocess)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.test_cli import make_env, ok, run
from tests.cli.test_queue_cli import pdf_home
from tests.pdf_server import PdfServer


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return make_env(tmp_path)


def test_papers_pdf_failed_lists_why_each_pdf_failed_for_good_and_asks_nothing(
    tmp_path: Path, env: dict[str, str], server: PdfServer
) -> None:
    """The app's download summary pointed at `papers pdf --retry` as what "says why", which
    downloads again; `--failed` lists the papers whose link failed for good, with the cause,
    the server and whether `papers pdf` passes them over, without a request."""
    home, ids = pdf_home(tmp_path, env, server, 4)
    none = run("--home", home, "pdf", "--failed", env=env)
    assert none.returncode == 0 and none.stdout == "", none.stderr
    assert none.stderr == (
        "papers: no PDF failed (for good: HTTP 404 or 410, not a PDF; for now: no answer in "
        "time, HTTP 5xx or 429, a server not reached)\n"
    )
    server.behaviour.update(p01="missing", p02="html", p03="broken")  # a 500 may mend
    first = run("--home", home, "pdf", "--pause", "0", "--no-text", env=env)
    assert "1 PDF downloaded, 3 failed" in first.stderr, first.stderr
    asked = len(server.requests)
    listed = run("--home", home, "pdf", "--failed", env=env)
    assert listed.returncode == 0 and server.requests[asked:] == [], listed.stderr
    lines = listed.stdout.splitlines()
    host = server.base.removeprefix("http://")
    assert [line.split("  ", 1)[0] for line in lines] == ids[1:]  # the 500 as one that may mend
    assert lines[0].startswith(
        f'{ids[1]}  Study 1: a/b "quoted" <x>: HTTP 404 Not Found (at {host}, '
    )
    assert lines[0].endswith("; asked for again next time)"), lines
    assert ": not a PDF (the server sent text/html: a login or error page?) (at " in lines[1]
    assert ": HTTP 500 " in lines[2] and lines[2].endswith(
        "; may mend, failed once: asked for again next time)"
    )
    second = run("--home", home, "pdf", "--pause", "0", "--no-text", env=env)
    assert "3 failed" in second.stderr, second.stderr
    again = ok(run("--home", home, "pdf", "--failed", ids[2], env=env)).splitlines()
    assert len(again) == 1 and again[0].startswith(f"{ids[2]}  ")
    assert "; passed over until " in again[0] and again[0].endswith(" (--retry asks again))")
    starred = ok(run("--home", home, "pdf", "--failed", "--status", "read", env=env))
    assert starred == ""  # none read
    both = run("--home", home, "pdf", "--failed", "--retry", env=env)
    assert both.returncode == 2 and "not both" in both.stderr
    assert len(server.requests) == asked + 3  # the second run's three, no other


def test_a_page_saved_as_a_papers_pdf_is_no_copy_and_is_said_and_replaced(
    tmp_path: Path, env: dict[str, str], server: PdfServer
) -> None:
    """A login page an older version saved under a paper's PDF name was its copy: its
    ``pdf_path`` in `papers queue --json`, read for `pdf:`. It is none: `papers pdf` says the
    file is not a PDF, and replaces it with the PDF."""
    home, ids = pdf_home(tmp_path, env, server, 2)
    ok(run("--home", home, "pdf", "--pause", "0", "--no-text", env=env))
    queued = json.loads(ok(run("--home", home, "queue", "--json", env=env)))
    page = Path(queued[0]["pdf_path"])
    page.write_bytes(b"<!DOCTYPE html><html><body>Please log in</body></html>\n")
    queued = json.loads(ok(run("--home", home, "queue", "--json", env=env)))
    assert [r["pdf_path"] is None for r in queued] == [True, False]
    asked = len(server.requests)
    result = run("--home", home, "pdf", "--pause", "0", env=env)
    assert result.returncode == 0, result.stderr
    said = "papers: note: 1 file named as a paper's PDF is not a PDF (a page saved under its "
    assert f"{said}name?), so no copy: {page.name}\n" in result.stderr, result.stderr
    assert "1 PDF downloaded, 1 already here" in result.stderr
    assert [r.paper for r in server.requests[asked:]] == ["p00"]
    assert page.read_bytes() == server.pdfs["p00"]
    queued = json.loads(ok(run("--home", home, "queue", "--json", env=env)))
    assert [r["pdf_path"] for r in queued] == [str(page), queued[1]["pdf_path"]]
    found = json.loads(ok(run("--home", home, "search", "pdf:numbat", "--json", env=env)))
    assert sorted(r["id"] for r in found) == sorted(ids)


def test_papers_pdf_failed_with_its_output_closed_fails(
    tmp_path: Path, env: dict[str, str], server: PdfServer
) -> None:
    """`papers pdf --failed` is a listing, its output its work: with standard output closed
    (``>&-``) it ended 0 and said nothing, as a download's report does (`pdf`'s parser says
    its output is a report), and a script took the empty listing for no failure. It fails as
    `papers list >&-` does."""
    from tests.cli.test_closed_output import run_with_stdout_closed

    home, _ids = pdf_home(tmp_path, env, server, 2)
    server.behaviour.update(p01="missing")
    run("--home", home, "pdf", "--pause", "0", "--no-text", env=env)  # (one failed: exit 1)
    assert ok(run("--home", home, "pdf", "--failed", env=env)).count("\n") == 1
    closed = run_with_stdout_closed(home, env, "pdf", "--failed")
    assert closed.returncode == 1, closed.stderr
    assert closed.stderr == "papers: error: standard output is closed\n"
