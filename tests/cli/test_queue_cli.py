"""``papers queue``, ``queue move``, ``queue sort``, ``next`` and ``pdf``, run as users run
them (real subprocesses), the PDFs from a real server on 127.0.0.1; kill -9 in the middle of
twenty downloads leaves no file half-written."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.cli.test_cli import PAPERS, SAMPLE, make_env, ok, run
from tests.pdf_files import paper_pdf
from tests.pdf_server import HELD_BYTES, PdfServer, library_list


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return make_env(tmp_path)


def starred_home(tmp_path: Path, env: dict[str, str], n: int = 4) -> tuple[Path, list[str]]:
    home = tmp_path / "home"
    ok(run("--home", home, "import", SAMPLE, env=env))
    ids = [r["id"] for r in json.loads(ok(run("--home", home, "list", "--json", env=env)))][:n]
    for pid in ids:
        ok(run("--home", home, "mark", pid, "starred", env=env))
    return home, ids


#: What every command says of an empty queue.
EMPTY = "The reading queue is empty: star papers (papers mark ID starred) to queue them.\n"


def queue_ids(home: Path, env: dict[str, str]) -> list[str]:
    return [r["id"] for r in json.loads(ok(run("--home", home, "queue", "--json", env=env)))]


def test_queue_move_next_and_undo(tmp_path: Path, env: dict[str, str]) -> None:
    home, ids = starred_home(tmp_path, env)
    lines = ok(run("--home", home, "queue", env=env)).splitlines()
    assert [line.split()[:2] for line in lines] == [[str(i + 1), pid] for i, pid in enumerate(ids)]
    out = ok(run("--home", home, "queue", "move", ids[3][:6], "--to", "top", env=env))
    assert out.startswith(f"{ids[3]}  moved to #1 of 4")
    assert queue_ids(home, env) == [ids[3], *ids[:3]]
    ok(run("--home", home, "queue", "move", ids[3], "--to", "3", env=env))
    assert queue_ids(home, env) == [ids[0], ids[1], ids[3], ids[2]]
    ok(run("--home", home, "queue", "move", ids[0], "--to", "bottom", env=env))
    head = ok(run("--home", home, "next", env=env))
    assert head.startswith(f"{ids[1]}  ") and head.count("\n") == 1
    head = json.loads(ok(run("--home", home, "next", "--json", env=env)))
    assert head["waiting"] == 4 and head["pdf_path"] is None  # (no copy here)
    assert "moved back in the reading queue" in ok(run("--home", home, "undo", env=env))
    assert queue_ids(home, env) == [ids[0], ids[1], ids[3], ids[2]]
    redone = ok(run("--home", home, "redo", env=env))  # (it said "moved back" too)
    assert "redo: 1 paper moved again in the reading queue" in redone
    assert queue_ids(home, env) == [ids[1], ids[3], ids[2], ids[0]]
    ok(run("--home", home, "undo", env=env))
    ok(run("--home", home, "mark", *ids, "read", env=env))
    # an empty queue said in one wording (it was three: "the reading queue is empty (star
    # papers…)", "The reading queue is empty: star papers…", "Reading queue: empty (…)"), and
    # ``queue sort`` said "Sorted 0 papers"
    empty = run("--home", home, "next", env=env)
    assert empty.returncode == 1 and empty.stdout == "" and empty.stderr == EMPTY
    listed = run("--home", home, "queue", env=env)  # (on stdout, a pipe took it for an id)
    assert listed.returncode == 0 and listed.stdout == "" and listed.stderr == EMPTY
    unsorted = run("--home", home, "queue", "sort", "venue", env=env)
    assert unsorted.returncode == 0 and unsorted.stdout == "" and unsorted.stderr == EMPTY
    fetched = run("--home", home, "pdf", env=env)  # ("no starred papers: nothing to download")
    assert fetched.returncode == 0 and fetched.stdout == "" and fetched.stderr == EMPTY
    stats = json.loads(ok(run("--home", home, "stats", "--json", env=env)))
    assert stats["queue"]["waiting"] == 0 and stats["queue"]["read_per_week"][-1]["read"] == 4
    assert f"\n{EMPTY}" in ok(run("--home", home, "stats", env=env))


def test_a_move_past_the_end_says_the_paper_went_to_the_last_place(
    tmp_path: Path, env: dict[str, str]
) -> None:
    """`--to 99` in a queue of 4 put the paper last and said "moved to #4 of 4", as if that
    were the place asked for."""
    home, ids = starred_home(tmp_path, env)
    out = ok(run("--home", home, "queue", "move", ids[0], "--to", "99", env=env))
    assert out.startswith(f"{ids[0]}  moved to #4 of 4, the last place (there is no #99)  ")
    assert queue_ids(home, env) == [*ids[1:], ids[0]]
    out = ok(run("--home", home, "queue", "move", ids[0], "--to", "99", env=env))
    assert out.startswith(f"{ids[0]}  already at #4 of 4, the last place (there is no #99)  ")
    out = ok(run("--home", home, "queue", "move", ids[0], "--to", "4", env=env))
    assert out.startswith(f"{ids[0]}  already at #4 of 4  ")  # the place asked for: no more


def test_queue_errors_are_one_line(tmp_path: Path, env: dict[str, str]) -> None:
    home, ids = starred_home(tmp_path, env, 2)
    inbox = [r["id"] for r in json.loads(ok(run("--home", home, "list", "--json", env=env)))][5]
    for args, code, words in (
        (("queue", "move", inbox, "--to", "1"), 1, "is not in the reading queue"),
        (("queue", "move", ids[0], "--to", "0"), 2, "places start at 1"),
        (("queue", "move", ids[0], "--to", "-3"), 2, "places start at 1"),
        (("queue", "move", ids[0], "--to", "up"), 2, "not a place"),
        (("queue", "move", "zzzz", "--to", "top"), 1, "no paper has the id"),
        (("queue", "sort", "colour"), 2, "invalid choice"),
    ):
        result = run("--home", home, *args, env=env)
        assert result.returncode == code and words in result.stderr, (args, result.stderr)
        assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr


def test_queue_sort_and_the_starred_export_in_queue_order(
    tmp_path: Path, env: dict[str, str]
) -> None:
    home, ids = starred_home(tmp_path, env, 5)
    ok(run("--home", home, "queue", "move", ids[4], "--to", "top", env=env))
    exported = json.loads(ok(run("--home", home, "export", "--format", "json", env=env)))
    assert [r["id"] for r in exported] == [ids[4], *ids[:4]]
    out = ok(run("--home", home, "queue", "sort", "length", env=env))
    assert out.startswith("Sorted 5 papers by length")
    records = {r["id"]: r for r in json.loads(ok(run("--home", home, "list", "--json", env=env)))}
    before = [ids[4], *ids[:4]]
    shortest = sorted(before, key=lambda pid: len(records[pid]["abstract"].split()))
    assert queue_ids(home, env) == shortest
    markdown = ok(run("--home", home, "export", env=env))
    where = [markdown.index(records[pid]["title"][:12]) for pid in shortest]
    assert where == sorted(where)  # the Markdown reading list in queue order
    undone = ok(run("--home", home, "undo", env=env))
    assert queue_ids(home, env) == before
    # the papers the sort moved, those its undo moves back: one count (a sort of 705 papers
    # said 703 moved, its undo 704 moved back: it wrote a place to every paper whose number
    # was not its place in the queue, moved or not)
    moved = int(out.split(": ")[1].split()[0])
    assert undone.startswith(f"undo: {moved} paper{'s' if moved != 1 else ''} moved back")
    # the sort's undo says it was the sort, as the app does (it said as for a move by hand)
    assert undone.split("\n")[0].endswith(" in the reading queue (the sort by length)")
    redone = ok(run("--home", home, "redo", env=env)).split("\n")[0]
    assert redone.endswith("moved again in the reading queue (the sort by length)"), redone
    ok(run("--home", home, "undo", env=env))
    # to the top and back to where it was: the order of the stars, places no longer 1, 2, 3…
    ok(run("--home", home, "queue", "move", ids[4], "--to", "bottom", env=env))
    assert queue_ids(home, env) == ids
    again = ok(run("--home", home, "queue", "sort", "starred", env=env))  # in that order already
    assert again.strip().endswith(": 0 papers moved"), again
    # no paper has a rating: said as the app says it (it said "Sorted 5 papers by rating: 0
    # papers moved"), and no step made
    unrated = ok(run("--home", home, "queue", "sort", "rating", env=env))
    assert unrated == "None of the 5 starred papers has a rating: the queue keeps its order.\n"
    assert "moved back" in ok(run("--home", home, "undo", env=env))  # the move to the bottom
    venue = ok(run("--home", home, "queue", "sort", "venue", env=env))  # (it said ": orals: 1…")
    assert re.match(r"Sorted 5 papers by venue status: \d+ papers? moved", venue), venue


def test_papers_starred_by_one_command_sort_by_when_starred_in_the_commands_order(
    tmp_path: Path, env: dict[str, str]
) -> None:
    """``papers mark A B C starred`` gave the three one time: the sort by when starred could
    not tell them apart and left them as the queue had them. They are a millisecond apart now,
    in the command line's order (not the list's)."""
    home = tmp_path / "home"
    ok(run("--home", home, "import", SAMPLE, env=env))
    ids = [r["id"] for r in json.loads(ok(run("--home", home, "list", "--json", env=env)))][:4]
    given = [ids[2], ids[0], ids[3], ids[1]]
    ok(run("--home", home, "mark", *given, "starred", env=env))
    assert queue_ids(home, env) == given
    ok(run("--home", home, "queue", "move", given[3], "--to", "top", env=env))
    ok(run("--home", home, "queue", "move", given[0], "--to", "bottom", env=env))
    assert queue_ids(home, env) == [given[3], given[1], given[2], given[0]]
    out = ok(run("--home", home, "queue", "sort", "starred", env=env))
    assert out.startswith("Sorted 4 papers by when you starred them"), out
    assert queue_ids(home, env) == given
    exported = json.loads(ok(run("--home", home, "export", "--format", "json", env=env)))
    times = [r["decided_at"] for r in exported]
    assert [r["id"] for r in exported] == given
    assert times == sorted(set(times)) and times[-1] - times[0] < 1  # apart, all of a moment


def test_stars_given_together_keep_their_order_through_an_undo_and_a_redo(
    tmp_path: Path, env: dict[str, str]
) -> None:
    """A redo gives a step's papers its time: one time for all of them, the sort by when
    starred lost their order again. A millisecond apart in the step's order, as first given."""
    home = tmp_path / "home"
    ok(run("--home", home, "import", SAMPLE, env=env))
    ids = [r["id"] for r in json.loads(ok(run("--home", home, "list", "--json", env=env)))][:3]
    given = [ids[1], ids[2], ids[0]]
    ok(run("--home", home, "mark", *given, "starred", env=env))
    ok(run("--home", home, "undo", env=env))
    ok(run("--home", home, "redo", env=env))
    ok(run("--home", home, "queue", "move", given[2], "--to", "top", env=env))
    ok(run("--home", home, "queue", "sort", "starred", env=env))
    assert queue_ids(home, env) == given


def test_a_move_into_tied_places_sends_one_move_and_keeps_a_sort_made_elsewhere(
    tmp_path: Path, env: dict[str, str]
) -> None:
    """A review's run: papers starred on two devices before they synced stand at one place
    each two ([1, 1, 2, 2, 3, 3]); one device sorts the queue, the other moves a paper between
    two tied ones. That move numbered the whole queue again ("sent 5 queue moves"), each place
    a change of its own, and the merged queue was the mover's: the sort gone. It sends its one
    move now, and the merged queue is the sort's, the moved paper where the move put it."""
    folder, a, b = tmp_path / "synced", tmp_path / "a", tmp_path / "b"
    folder.mkdir()
    ok(run("--home", a, "import", SAMPLE, env=env))
    ok(run("--home", a, "sync", folder, "--name", "laptop", env=env))
    ok(run("--home", b, "sync", folder, "--name", "desktop", env=env))
    ids = [r["id"] for r in json.loads(ok(run("--home", a, "list", "--json", env=env)))]
    ok(run("--home", a, "mark", *ids[:3], "starred", env=env))
    ok(run("--home", b, "mark", *ids[3:6], "starred", env=env))
    for home in (a, b, a):
        ok(run("--home", home, "sync", folder, env=env))
    listed = json.loads(ok(run("--home", b, "list", "--json", env=env)))
    places = sorted(r["queue_position"] for r in listed if r["queue_position"] is not None)
    assert places == [1.0, 1.0, 2.0, 2.0, 3.0, 3.0]

    assert ": 0 papers moved" not in ok(run("--home", a, "queue", "sort", "length", env=env))
    sorted_here = queue_ids(a, env)
    moving = queue_ids(b, env)[-1]
    ok(run("--home", b, "queue", "move", moving, "--to", "2", env=env))  # between two tied
    assert queue_ids(b, env)[1] == moving
    sent = ok(run("--home", b, "sync", folder, env=env))
    assert "sent 1 queue move;" in sent, sent
    for home in (a, b):
        ok(run("--home", home, "sync", folder, env=env))
    merged = queue_ids(a, env)
    assert queue_ids(b, env) == merged
    assert [pid for pid in merged if pid != moving] == [p for p in sorted_here if p != moving]


def pdf_home(
    tmp_path: Path, env: dict[str, str], server: PdfServer, n: int, pages: int = 2
) -> tuple[Path, list[str]]:
    titles = {f"p{i:02d}": f'Study {i}: a/b "quoted" <x>' for i in range(n)}
    made = tmp_path / "made"
    for i, key in enumerate(titles):
        marker = f"The numbat bound {key} is tight."
        path = paper_pdf(made / f"{key}.pdf", titles[key], pages, seed=i, marker=marker)
        server.pdfs[key] = path.read_bytes()
    home = tmp_path / "home"
    ok(run("--home", home, "import", library_list(tmp_path / "list.json", server, titles), env=env))
    ids = [r["id"] for r in json.loads(ok(run("--home", home, "list", "--json", env=env)))]
    ok(run("--home", home, "mark", *ids, "starred", env=env))
    return home, ids


def test_papers_pdf_downloads_the_queue_says_each_failure_and_searches_the_text(
    tmp_path: Path, env: dict[str, str], server: PdfServer
) -> None:
    home, ids = pdf_home(tmp_path, env, server, 3)
    server.behaviour["p01"] = "html"
    server.behaviour["p02"] = "busy:1:1"
    result = run("--home", home, "pdf", "--pause", "0", env=env)
    assert result.returncode == 1, result.stderr
    failed = [line for line in result.stderr.splitlines() if "failed:" in line]
    assert len(failed) == 1 and ids[1] in failed[0] and "not a PDF" in failed[0]
    assert "waiting 1 s (HTTP 429" in result.stderr
    assert "2 PDFs downloaded, 1 failed" in result.stderr
    # each paper of the queue with its local copy, as `papers next --json` gives the head's
    queued = json.loads(ok(run("--home", home, "queue", "--json", env=env)))
    assert [r["id"] for r in queued] == ids
    assert [r["pdf_path"] for r in queued] == [
        str(home / "pdfs" / f"Study 0_ a_b _quoted_ _x_ ({ids[0]}).pdf"),
        None,
        str(home / "pdfs" / f"Study 2_ a_b _quoted_ _x_ ({ids[2]}).pdf"),
    ]
    folder = home / "pdfs"
    names = sorted(p.name for p in folder.iterdir())
    assert names == [
        f"Study 0_ a_b _quoted_ _x_ ({ids[0]}).pdf",
        f"Study 2_ a_b _quoted_ _x_ ({ids[2]}).pdf",
    ]
    found = json.loads(ok(run("--home", home, "search", "pdf:numbat", "--json", env=env)))
    assert sorted(r["id"] for r in found) == sorted([ids[0], ids[2]])
    phrase = json.loads(
        ok(run("--home", home, "search", 'pdf:"numbat bound p02"', "--json", env=env))
    )
    assert [r["id"] for r in phrase] == [ids[2]]
    server.behaviour.pop("p01")  # a page that was no PDF is asked for again on --retry
    again = run("--home", home, "pdf", "--pause", "0", "--retry", ids[1], env=env)
    assert again.returncode == 0 and "1 PDF downloaded" in again.stderr
    head = json.loads(ok(run("--home", home, "next", "--json", env=env)))
    assert head["id"] == ids[0]  # its local copy, to open it from a script
    assert head["pdf_path"] == str(home / "pdfs" / f"Study 0_ a_b _quoted_ _x_ ({ids[0]}).pdf")
    here = run("--home", home, "pdf", "--pause", "0", "--no-text", ids[0], env=env)
    # the copy's name, to open it (it said "already here" and the title alone)
    assert f"{ids[0]}  already here: Study 0_ a_b _quoted_ _x_ ({ids[0]}).pdf  " in here.stderr
    config = tmp_path / "home" / "config.toml"
    config.write_text(f'[pdf]\nfolder = "{tmp_path / "elsewhere"}"\n', encoding="utf-8")
    ok(run("--home", home, "pdf", "--pause", "0", "--no-text", ids[0], env=env))
    assert [p.name for p in (tmp_path / "elsewhere").iterdir()][0].endswith(f"({ids[0]}).pdf")


def test_a_pdf_deleted_is_no_longer_found_by_pdf_searches(
    tmp_path: Path, env: dict[str, str], server: PdfServer
) -> None:
    """Its text stayed in pdf-text.cache until the next papers pdf, so pdf:WORD still found
    the paper whose copy the user had deleted (its pane said no PDF here)."""
    home, ids = pdf_home(tmp_path, env, server, 2)
    ok(run("--home", home, "pdf", "--pause", "0", env=env))
    found = json.loads(ok(run("--home", home, "search", "pdf:numbat", "--json", env=env)))
    assert sorted(r["id"] for r in found) == sorted(ids)
    (copy,) = (home / "pdfs").glob(f"*({ids[0]}).pdf")
    copy.unlink()
    found = json.loads(ok(run("--home", home, "search", "pdf:numbat", "--json", env=env)))
    assert [r["id"] for r in found] == [ids[1]]


def test_a_retry_after_of_0_or_gone_by_is_said_as_no_wait(
    tmp_path: Path, env: dict[str, str], server: PdfServer
) -> None:
    """A 429 whose ``Retry-After`` was 0, or an HTTP date already past (a server's clock
    behind), was said as "waiting 0 s (HTTP 429: the server asks to wait 0 s)"; it is no wait,
    and said as none, as the fetch says it."""
    home, ids = pdf_home(tmp_path, env, server, 2)
    server.behaviour["p00"] = "busy:1:0"
    server.behaviour["p01"] = "busy:1:Wed, 21 Oct 2015 07:28:00 GMT"
    result = run("--home", home, "pdf", "--pause", "0", "--no-text", env=env)
    assert result.returncode == 0, result.stderr
    for n, pid in enumerate(ids):
        said = f"[{n + 1}/2] {pid}  HTTP 429: asking again at once as it allows (Retry-After)\n"
        assert said in result.stderr, result.stderr
    assert "waiting" not in result.stderr and "0 s" not in result.stderr
    assert "2 PDFs downloaded" in result.stderr and len(server.requests) == 4


def test_a_text_file_with_page_counts_that_are_no_counts_is_not_believed(
    tmp_path: Path, env: dict[str, str], server: PdfServer
) -> None:
    """pdf-text.cache is derived: a checksum that holds over a page count that is no count
    (a string, negative, past any PDF's; crafted, or written by a faulty version) ended
    `papers queue sort length` with "internal error: ValueError". Such an entry is none: the
    paper sorts by its abstract, and the next `papers pdf` reads its PDF again."""
    from storage.cache.pdf_text import PdfTexts

    home, ids = pdf_home(tmp_path, env, server, 5)
    ok(run("--home", home, "pdf", "--pause", "0", env=env))
    texts = PdfTexts.open(home)
    assert texts.pages() == dict.fromkeys(ids, 2)
    for pid, count in zip(ids[1:], ("twelve", -3, 10**12, 2.5), strict=True):
        texts.entries[pid]["pages"] = count
    assert texts.save()  # through the file's own writer: the checksum holds
    done = run("--home", home, "queue", "sort", "length", env=env)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert done.stdout.startswith("Sorted 5 papers by length")
    # the one PDF whose pages are known first, the others as papers without one (their
    # abstracts' words; the same length here: their order kept)
    assert queue_ids(home, env) == ids
    found = json.loads(ok(run("--home", home, "search", "pdf:numbat", "--json", env=env)))
    assert [r["id"] for r in found] == [ids[0]]  # the others' texts are not believed either
    again = run("--home", home, "pdf", "--pause", "0", env=env)
    assert again.returncode == 0 and "text of 5 PDFs ready" in again.stderr, again.stderr
    assert PdfTexts.open(home).pages() == dict.fromkeys(ids, 2)  # read again from the PDFs
    found = json.loads(ok(run("--home", home, "search", "pdf:numbat", "--json", env=env)))
    assert sorted(r["id"] for r in found) == sorted(ids)


def test_pdfs_that_failed_for_good_are_passed_over_until_retried_or_their_link_changes(
    tmp_path: Path, env: dict[str, str], server: PdfServer
) -> None:
    """A link that answered 404 or 410, or a page that is no PDF, was asked for again by
    every `papers pdf`, a failed line apiece: such a failure, met on two runs, is remembered
    per paper and link in HOME and passed over, in one line, until --retry, a new link or a
    week; a failure that may mend (a 500) is asked for again each time (kept apart, for
    `papers pdf --failed`). Once is not enough:
    a hotel's Wi-Fi answers every link with its login page (a review found one such run
    passed every paper over for good)."""
    home, ids = pdf_home(tmp_path, env, server, 5)
    for key, how in (("p01", "missing"), ("p02", "html"), ("p03", "gone"), ("p04", "broken")):
        server.behaviour[key] = how
    first = run("--home", home, "pdf", "--pause", "0", "--no-text", env=env)
    assert first.returncode == 1 and "1 PDF downloaded, 4 failed" in first.stderr, first.stderr
    assert "HTTP 410 Gone" in first.stderr and "HTTP 500 Internal Server Error" in first.stderr
    asked = len(server.requests)
    second = run("--home", home, "pdf", "--pause", "0", "--no-text", env=env)
    assert sorted(r.paper for r in server.requests[asked:]) == ["p01", "p02", "p03", "p04"]
    assert "1 already here, 4 failed" in second.stderr and "failed before" not in second.stderr
    asked = len(server.requests)
    again = run("--home", home, "pdf", "--pause", "0", "--no-text", env=env)
    assert [r.paper for r in server.requests[asked:]] == ["p04"]  # the 500 only
    assert again.returncode == 1 and f"{ids[4]}  failed: " in again.stderr
    lines = [line for line in again.stderr.splitlines() if "failed before" in line]
    assert lines == [
        "3 papers not asked for again: their PDFs failed before (HTTP 404 Not Found, HTTP 410 "
        "Gone, not a PDF); add --retry to try them again"
    ]
    assert not any(f"{pid}  failed" in again.stderr for pid in ids[1:4])
    kept = json.loads((home / "pdf-failures.json").read_text(encoding="utf-8"))
    assert sorted(kept["papers"]) == sorted(ids[1:])
    assert [kept["papers"][pid]["lasting"] for pid in ids[1:]] == [True, True, True, False]
    assert kept["papers"][ids[4]]["seen"] == 3  # the 500: may mend, on three runs in a row
    # --retry asks for them all: the one that mended is forgotten, the others kept
    server.behaviour.pop("p01")
    asked = len(server.requests)
    retried = run("--home", home, "pdf", "--pause", "0", "--no-text", "--retry", env=env)
    assert sorted(r.paper for r in server.requests[asked:]) == ["p01", "p02", "p03", "p04"]
    assert "1 PDF downloaded, 1 already here, 3 failed" in retried.stderr, retried.stderr
    assert "failed before" not in retried.stderr
    # a paper's new link (its list imported again with another page) is asked for
    server.pdfs["p02b"] = server.pdfs["p02"]
    moved = {f"p0{i}": f'Study {i}: a/b "quoted" <x>' for i in range(5)}
    listed = library_list(tmp_path / "list.json", server, moved)
    records = json.loads(listed.read_text(encoding="utf-8"))
    records[2]["url"] = server.forum("p02b")
    listed.write_text(json.dumps(records), encoding="utf-8")
    ok(run("--home", home, "import", listed, env=env))
    asked = len(server.requests)
    one = run("--home", home, "pdf", "--pause", "0", "--no-text", ids[2], ids[3], env=env)
    assert [r.paper for r in server.requests[asked:]] == ["p02b"]
    # a paper named and passed over has no PDF: exit 1, for a script that opens it next
    assert one.returncode == 1 and "1 PDF downloaded" in one.stderr, one.stderr
    said = "1 paper not asked for again: its PDF failed before (HTTP 410 Gone); add --retry to"
    assert f"{said} try it again\n" in one.stderr
    kept = json.loads((home / "pdf-failures.json").read_text(encoding="utf-8"))
    assert sorted(kept["papers"]) == sorted([ids[3], ids[4]])  # (the 500's may mend)
    # the memory is no decision: damaged, it is as if there were none
    (home / "pdf-failures.json").write_text('{"format": 1, "papers": {"', encoding="utf-8")
    asked = len(server.requests)
    run("--home", home, "pdf", "--pause", "0", "--no-text", ids[3], env=env)
    assert [r.paper for r in server.requests[asked:]] == ["p03"]
    kept = json.loads((home / "pdf-failures.json").read_text(encoding="utf-8"))
    assert sorted(kept["papers"]) == [ids[3]]  # written afresh
    # passed over for a week after its last failure, then asked for again
    kept["papers"][ids[3]].update(seen=2, at=time.time() - 6 * 24 * 3600)
    (home / "pdf-failures.json").write_text(json.dumps(kept), encoding="utf-8")
    asked = len(server.requests)
    run("--home", home, "pdf", "--pause", "0", "--no-text", ids[3], env=env)
    assert server.requests[asked:] == []
    kept["papers"][ids[3]].update(at=time.time() - 8 * 24 * 3600)
    (home / "pdf-failures.json").write_text(json.dumps(kept), encoding="utf-8")
    run("--home", home, "pdf", "--pause", "0", "--no-text", ids[3], env=env)
    assert [r.paper for r in server.requests[asked:]] == ["p03"]


def test_a_download_into_another_folder_keeps_the_librarys_pdf_texts(
    tmp_path: Path, env: dict[str, str], server: PdfServer
) -> None:
    home, ids = pdf_home(tmp_path, env, server, 2)
    ok(run("--home", home, "pdf", "--pause", "0", ids[0], env=env))
    found = json.loads(ok(run("--home", home, "search", "pdf:numbat", "--json", env=env)))
    assert [r["id"] for r in found] == [ids[0]]
    other = tmp_path / "other"
    ok(run("--home", home, "pdf", "--pause", "0", "--folder", other, ids[1], env=env))
    found = json.loads(ok(run("--home", home, "search", "pdf:numbat", "--json", env=env)))
    assert ids[0] in [r["id"] for r in found]  # the library's copy is still searched
    # a PDF whose text cannot be read (an unknown filter) is said, not counted as ready
    odd = next(home.joinpath("pdfs").glob(f"*({ids[0]}).pdf"))
    odd.write_bytes(odd.read_bytes().replace(b"/FlateDecode", b"/FlateRecode"))
    (home / "pdf-text.cache").unlink(missing_ok=True)
    said = run("--home", home, "pdf", "--pause", "0", ids[0], env=env)
    assert "1 PDF without a text to read (encrypted or damaged" in said.stderr, said.stderr
    a_file = tmp_path / "a-file.txt"
    a_file.write_text("not a folder", encoding="utf-8")
    done = run("--home", home, "pdf", "--pause", "0", "--folder", a_file, ids[1], env=env)
    assert done.returncode == 1 and done.stderr == f"papers: error: {a_file}: not a folder\n"


def test_a_pdf_folder_that_links_to_nothing_is_said_as_such(
    tmp_path: Path, env: dict[str, str]
) -> None:
    """A dangling link as HOME/pdfs (a disk not mounted, a folder moved) was "File exists"."""
    home, ids = starred_home(tmp_path, env, 1)
    gone = tmp_path / "unmounted" / "Papers"
    (home / "pdfs").symlink_to(gone)
    said = run("--home", home, "pdf", "--pause", "0", env=env)
    expected = f"papers: error: {home / 'pdfs'}: a symbolic link to {gone}, which does not exist\n"
    assert said.returncode == 1 and said.stderr == expected
    inside = tmp_path / "elsewhere" / "pdfs"  # the link is a folder above the one named
    (tmp_path / "elsewhere").symlink_to(gone)
    said = run("--home", home, "pdf", "--folder", inside, ids[0], env=env)
    expected = f"papers: error: {tmp_path / 'elsewhere'}: a symbolic link to {gone}, which does"
    assert said.returncode == 1 and said.stderr.startswith(expected), said.stderr
    # the library's own folder: its PDFs were written among its files
    said = run("--home", home, "pdf", "--folder", home, ids[0], env=env)
    expected = f"papers: error: {home}: a papers-tui library folder; PDFs go to a folder of"
    assert said.returncode == 1 and said.stderr.startswith(expected), said.stderr


def test_kill_9_in_the_middle_of_twenty_downloads_leaves_nothing_half_written(
    tmp_path: Path, env: dict[str, str], server: PdfServer
) -> None:
    home, ids = pdf_home(tmp_path, env, server, 20, pages=3)
    for key in list(server.pdfs):
        server.behaviour[key] = "slow"
    server.slow_gap = 0.01
    # the sixth in the queue (the list's order) is large, and held on its way until the kill
    big = paper_pdf(tmp_path / "big.pdf", "Study 5", 60, seed=5, marker="The numbat bound p05")
    server.pdfs["p05"] = big.read_bytes()
    assert len(server.pdfs["p05"]) > HELD_BYTES + 4096
    server.behaviour["p05"] = "held"
    child = subprocess.Popen(
        [*PAPERS, "--home", str(home), "pdf", "--pause", "0", "--no-text"],
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    folder = home / "pdfs"
    deadline = time.monotonic() + 60
    held = folder / f".{ids[5]}.pdf.part"
    while time.monotonic() < deadline:  # five done, the sixth on its way
        if held.is_file() and held.stat().st_size >= 64 * 1024:
            break
        time.sleep(0.01)
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    server.release.set()
    finished = sorted(folder.glob("*.pdf"))
    assert len(finished) == 5
    by_key = {key: body for key, body in server.pdfs.items()}
    for path in finished:  # every file with a final name is a whole PDF, byte for byte
        key = next(k for k in by_key if path.read_bytes() == by_key[k])
        assert key
    parts = list(folder.glob(".*.part"))
    assert parts == [held]  # the one cut short, kept to resume from
    before = len(server.requests)
    ok(run("--home", home, "pdf", "--pause", "0", "--no-text", env=env, timeout=120))
    assert len(list(folder.glob("*.pdf"))) == 20 and not list(folder.glob(".*"))
    resumed = [r for r in server.requests[before:] if r.headers.get("Range")]
    assert len(resumed) == len(parts)
    assert len(server.requests) - before == 20 - len(finished)


def zotero_export(tmp_path: Path, attachments: list[str]) -> Path:
    """A Zotero BibTeX export of papers whose ``file`` fields name ``attachments``."""
    entries = []
    for i, path in enumerate(attachments):
        abstract = (
            f"Study {i} of sparse attention over long documents: it scales to a million tokens "
            "with little loss in accuracy on retrieval benchmarks."
        )
        entries.append(
            f"@article{{lee{i},\n  title = {{Sparse attention study {i}}},\n"
            f"  abstract = {{{abstract}}},\n  author = {{Lee, Ann}},\n  year = {{2024}},\n"
            f"  file = {{Snapshot:{tmp_path}/snap{i}.html:text/html;"
            f"Full Text PDF:{path}:application/pdf}},\n}}\n"
        )
    bib = tmp_path / "My Library.bib"
    bib.write_text("\n".join(entries), encoding="utf-8")
    return bib


def test_an_imported_zotero_librarys_pdfs_are_its_copies_with_nothing_downloaded(
    tmp_path: Path, env: dict[str, str]
) -> None:
    storage = tmp_path / "Zotero" / "storage"
    (storage / "A").mkdir(parents=True)
    paper_pdf(storage / "A" / "Lee - 2024.pdf", "Sparse attention study 0", 2, marker="quokka")
    (storage / "B").mkdir()
    (storage / "B" / "login.pdf").write_text("<html>sign in</html>")  # no PDF
    os.mkfifo(storage / "pipe.pdf")  # a pipe where a PDF should be: never waited on
    home = tmp_path / "home"
    bib = zotero_export(
        tmp_path,
        [str(storage / "A" / "Lee - 2024.pdf"), str(storage / "B" / "login.pdf"),
         str(storage / "pipe.pdf"), str(storage / "gone.pdf")],
    )  # fmt: skip
    result = run("--home", home, "import", bib, env=env, timeout=30)
    said = "PDFs: 1 PDF linked from their attachments, 3 attachments not found or not a PDF"
    assert said in ok(result)
    assert result.stderr.count("attachment not found or not a PDF") == 3
    listed = json.loads(ok(run("--home", home, "list", "--json", env=env)))
    ids = {r["title"]: r["id"] for r in listed}
    (copy,) = (home / "pdfs").iterdir()
    assert copy.name == f"Sparse attention study 0 ({ids['Sparse attention study 0']}).pdf"
    assert copy.is_symlink() and copy.resolve() == (storage / "A" / "Lee - 2024.pdf").resolve()
    # the attachment that appears later is linked by `papers pdf`, not downloaded
    paper_pdf(storage / "gone.pdf", "Sparse attention study 3", 1, marker="wallaby")
    pid = ids["Sparse attention study 3"]
    later = run("--home", home, "pdf", "--pause", "0", pid, env=env, timeout=30)
    assert later.returncode == 0, later.stderr
    assert f"{pid}  linked from its attachment" in later.stderr
    assert "0 PDFs downloaded, 1 linked from their attachments" in later.stderr
    found = json.loads(ok(run("--home", home, "search", "pdf:wallaby", "--json", env=env)))
    assert [r["id"] for r in found] == [pid]
    assert (storage / "B" / "login.pdf").read_text() == "<html>sign in</html>"


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX resource limits")
def test_a_pdf_folder_that_refuses_writes_stops_the_batch_at_its_first_paper(
    tmp_path: Path, env: dict[str, str], server: PdfServer
) -> None:
    """A disk that refuses the writes (full, read-only; here a file size limit, which fails
    the write as ENOSPC does): each paper of the queue was downloaded, then failed with the
    same line, a pause after each (a read-only folder: 15 s for 16 papers, nothing asked)."""
    import resource

    home, ids = pdf_home(tmp_path, env, server, 5, pages=12)
    limit = 16 * 1024  # above the library's files (its search index: 4 kB), below a PDF
    assert min(len(pdf) for pdf in server.pdfs.values()) > limit

    def small_files() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # the write fails rather than kill
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    done = subprocess.run(
        [*PAPERS, "--home", str(home), "pdf", "--pause", "0", "--no-text"],
        env=env, capture_output=True, text=True, timeout=60, preexec_fn=small_files,
    )  # fmt: skip
    assert done.returncode == 1, done.stderr
    failed = [line for line in done.stderr.splitlines() if "failed:" in line]
    assert len(failed) == 1 and ids[0] in failed[0] and "cannot write in" in failed[0], done.stderr
    assert "0 PDFs downloaded, 1 failed, 4 not tried (the folder refused a write)" in done.stderr
    assert len(server.requests) == 1
    assert not [p for p in (home / "pdfs").iterdir() if p.suffix == ".pdf"]
