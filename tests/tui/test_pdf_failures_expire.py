"""Failures that may mend expire; those of papers gone go, a month after a batch found them
gone; lasting ones a user needs stay (subprocess and Pilot, a real server on 127.0.0.1,
``pdf-failures.json`` as written).

A timeout or a 503 was kept until the paper's PDF came, so a paper unstarred after it timed
out, or removed from the library, kept its entry for good: ``papers pdf --failed`` said "may
mend, failed once: asked for again next time" of it months later, and the file only grew.
(A removed paper's failure went at the next batch then, which an undo of the removal did not
get back: ``tests/unit/test_pdf_failure_after_removal.py``.)
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from storage import Library
from storage.pdfs.failures import MAY_MEND_KEPT_S, PASSED_FOR_S, REMOVED_KEPT_S
from storage.pdfs.links import pdf_url
from tests.cli.test_cli import make_env, ok, run
from tests.cli.test_queue_cli import pdf_home
from tests.pdf_server import PdfServer
from tests.tui.helpers import messages, ready, wait_for
from tui.app import PapersApp

DAY = 24 * 3600.0
#: Ids of papers not (or no longer) in the library.
GONE_NOW, GONE_RECENT, GONE_OLD = "0123456789ab", "0123456789ac", "0123456789ad"
GONE_LONG_AGO = "0123456789ae"


def write_failures(home: Path, ids: list[str]) -> None:
    """Failures of the library's papers ``ids[0:3]`` and of three papers not in it."""
    now = time.time()
    urls = {p.id: pdf_url(p) for p in Library(home).papers()}
    gone = "http://127.0.0.1:9/pdf?id=gone"

    def entry(url: str, ago: float, lasting: bool, seen: int = 1) -> dict[str, object]:
        cause = "HTTP 404 Not Found" if lasting else "no answer in time from 127.0.0.1"
        return {"url": url, "cause": cause, "at": now - ago, "seen": seen, "lasting": lasting}

    found_gone = {**entry(gone, 60 * DAY, True, 2), "gone": now - REMOVED_KEPT_S - DAY}

    papers = {
        ids[0]: entry(urls[ids[0]], MAY_MEND_KEPT_S + DAY, False, 3),  # stale: expired
        ids[1]: entry(urls[ids[1]], 2 * DAY, False),  # recent: kept
        ids[2]: entry(urls[ids[2]], 300 * DAY, True, 2),  # lasting, old: the pane says it
        # their papers removed: kept a month from now, for an undo (found gone now)
        GONE_NOW: entry(gone, DAY, False),
        GONE_RECENT: entry(gone, DAY, True, 2),
        GONE_OLD: entry(gone, PASSED_FOR_S + DAY, True, 2),
        GONE_LONG_AGO: found_gone,  # found gone over a month ago: goes
    }
    (home / "pdf-failures.json").write_text(
        json.dumps({"format": 1, "papers": papers}), encoding="utf-8"
    )


def kept(home: Path) -> set[str]:
    return set(json.loads((home / "pdf-failures.json").read_text(encoding="utf-8"))["papers"])


#: What the first batch keeps: the library's failures that are no stale one, and those of
#: papers gone, which it finds gone.
KEPT = {GONE_NOW, GONE_RECENT, GONE_OLD}


def test_papers_pdf_drops_failures_that_no_batch_will_correct(
    tmp_path: Path, server: PdfServer
) -> None:
    env = make_env(tmp_path)
    home, ids = pdf_home(tmp_path, env, server, 4)
    write_failures(home, ids)
    # a failure that may mend, a month old, is not listed, even before any run
    records = json.loads(ok(run("--home", home, "pdf", "--failed", "--json", env=env)))
    assert [r["id"] for r in records] == ids[1:3], records

    ok(run("--home", home, "pdf", ids[3], "--pause", "0", "--no-text", env=env))  # one paper
    assert kept(home) == {ids[1], ids[2], *KEPT}
    stored = json.loads((home / "pdf-failures.json").read_text(encoding="utf-8"))["papers"]
    assert {pid for pid, entry in stored.items() if "gone" in entry} == KEPT
    records = json.loads(ok(run("--home", home, "pdf", "--failed", "--json", env=env)))
    assert [(r["id"], r["lasting"]) for r in records] == [(ids[1], False), (ids[2], True)]
    assert [r.paper for r in server.requests] == ["p03"]  # the others not asked for


async def test_P_in_the_app_drops_them_too(tmp_path: Path, server: PdfServer) -> None:
    env = make_env(tmp_path)
    home, ids = pdf_home(tmp_path, env, server, 4)
    ok(run("--home", home, "mark", *ids[:3], "inbox", env=env))  # the queue: the last alone
    write_failures(home, ids)
    app = PapersApp(Library(home), import_sample=False)
    async with app.run_test(size=(120, 36)) as pilot:
        await ready(pilot)
        await pilot.press("2", "P")
        done = "1 PDF downloaded"
        await wait_for(pilot, lambda: any(m.startswith(done) for m in messages(app)), 20)
    assert kept(home) == {ids[1], ids[2], *KEPT}


async def test_P_keeps_the_failure_of_a_paper_imported_elsewhere_since(
    tmp_path: Path, server: PdfServer
) -> None:
    """Another terminal imports a list while the app is open and `papers pdf` fails for its
    paper (a 404): P, pressed before the app read the papers again, took that paper for one
    removed (not among the papers it shows) and forgot its failure, which `papers pdf
    --failed` then did not list and the next run asked for again."""
    from tests.pdf_server import library_list

    env = make_env(tmp_path)
    home, ids = pdf_home(tmp_path, env, server, 2)
    app = PapersApp(Library(home), import_sample=False)
    async with app.run_test(size=(120, 36)) as pilot:
        await ready(pilot)
        await pilot.press("2")
        # the other terminal, while the app's loop waits for it: the app reads nothing meanwhile
        server.behaviour["p09"] = "missing"
        more = library_list(tmp_path / "more.json", server, {"p09": "A paper imported later"})
        ok(run("--home", home, "import", more, env=env))
        listed = json.loads(ok(run("--home", home, "list", "--json", env=env)))
        (added,) = [r["id"] for r in listed if r["id"] not in ids]
        failed = run("--home", home, "pdf", added, "--pause", "0", "--no-text", env=env)
        assert failed.returncode == 1 and "404" in failed.stderr, failed.stderr
        assert added in kept(home)
        # P's action at once, before the app's next look at the disk (once a second) reads the
        # papers again: as P pressed in the second before it
        app.main_screen.action_download_pdfs()
        done = "2 PDFs downloaded"
        await wait_for(pilot, lambda: any(m.startswith(done) for m in messages(app)), 20)
    assert added in kept(home)
    records = json.loads(ok(run("--home", home, "pdf", "--failed", "--json", env=env)))
    assert [(r["id"], r["lasting"]) for r in records] == [(added, True)]
