"""``papers fetch`` against servers that answer as the real services may: an OpenReview v2
that pages by ``offset`` only, replies under ``details.replies``, venue names typed as people
type them, arXiv's answers that are no feed, a server that trickles its answer."""

from __future__ import annotations

import json
import time

import pytest

from tests.fetch import shapes
from tests.fetch.conftest import papers
from tests.fetch.services import Fault

ICLR25 = "ICLR.cc/2025/Conference"


def _listed(env: dict[str, str]) -> list[dict]:
    done = papers(env, "list", "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_a_v2_server_that_pages_by_offset_only_gives_every_note(services, env) -> None:
    """OpenReview documents ``offset`` and ``limit`` for /notes; a server that ignores
    ``after`` sends the first page again: the fetch goes on by offset instead of failing."""
    found, _ = services
    found.ignores_after = True
    found.page_cap = 150
    found.v2[ICLR25] = shapes.v2_venue(shapes.made_up(320, seed=31, fate=""), ICLR25)
    done = papers(env, "fetch", "iclr2025", "--reviews")
    assert done.returncode == 0, done.stderr
    assert "320 added" in done.stdout and "warning" not in done.stderr, done.stdout
    offsets = [r.query.get("offset") for r in found.requests_to("/or2/notes")]
    assert offsets[-2:] == ["150", "300"], offsets
    assert len(_listed(env)) == 320


def test_a_v2_server_that_moves_on_neither_way_is_refused(services, env) -> None:
    """Neither ``after`` nor ``offset`` moves the pages on: refused, nothing imported."""
    found, _ = services
    found.page_cap = 2
    found.v2[ICLR25] = shapes.v2_venue(shapes.made_up(5, seed=32, fate=""), ICLR25)
    first = {"notes": found.v2[ICLR25].notes[:2], "count": 5}
    found.faults.append(Fault("/or2/notes", "body", body=json.dumps(first).encode(), times=10))
    done = papers(env, "fetch", "iclr2025")
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "the pages of notes do not move on (the same page again)" in done.stderr
    assert len(found.requests_to("/or2/notes")) == 3
    assert _listed(env) == []


def test_reviews_under_details_replies_give_the_ratings(services, env) -> None:
    """A server that answers the replies under ``details.replies`` (what ``details=replies``
    gives: every reply of the forum, a comment on a review too): the reviews' ratings
    (``"8: accept, good paper"`` or a number) are read; a reply to a review is not one."""
    found, _ = services
    found.replies_as_replies = True
    made = shapes.made_up(1, seed=33, fate="")
    made[0].ratings, made[0].confidences = ["8: accept, good paper", 6], ["4: confident", 3]
    venue = shapes.v2_venue(made, ICLR25)
    [note] = venue.notes
    review = venue.replies[note["id"]][0]
    nested = {
        **review,
        "id": "nestedRev1",
        "replyto": review["id"],
        "content": {"rating": {"value": 1}, "confidence": {"value": 1}},
    }
    venue.replies[note["id"]].append(nested)
    found.v2[ICLR25] = venue
    done = papers(env, "fetch", "iclr2025", "--reviews")
    assert done.returncode == 0, done.stderr
    [paper] = _listed(env)
    assert paper["extra"]["ratings"] == "8, 6" and paper["extra"]["rating"] == 7.0, paper["extra"]


@pytest.mark.parametrize(
    "words",
    [
        ["iclr2025"],
        ["ICLR 2025"],
        ["ICLR", "2025"],
        ["iclr-2025"],
        ["iclr25"],
        ["ICLR.cc/2025/Conference"],
        ["openreview:ICLR.cc/2025/Conference"],
        ["openreview:iclr2025"],
    ],
    ids=lambda words: "+".join(words),
)
def test_a_venue_typed_in_any_of_its_usual_forms(services, env, words: list[str]) -> None:
    found, _ = services
    found.v2[ICLR25] = shapes.v2_venue(shapes.made_up(2, seed=34, fate=""), ICLR25)
    done = papers(env, "fetch", *words)
    assert done.returncode == 0, done.stderr
    assert "Imported ICLR 2025 (OpenReview): 2 added" in done.stdout, done.stdout


def test_the_import_dialog_takes_a_venue_name_with_a_space() -> None:
    from tui.screens.importer import fetching

    found = fetching("ICLR 2025 --all", {})
    assert found is not None and found.words == ["ICLR 2025"] and found.all_submissions
    assert fetching("no/such/list.txt", {}) is None  # a path still, not a venue


@pytest.mark.parametrize(
    ("fault", "said"),
    [
        (
            Fault("/arxiv/query", "html"),
            "an HTML page came where an Atom feed was expected",
        ),
        (
            Fault(
                "/arxiv/query",
                "body",
                body=b"upstream connect error or disconnect/reset before headers",
                headers={"Content-Type": "text/plain"},
            ),
            "no Atom feed but 'upstream connect error or disconnect/reset before headers'",
        ),
        (
            Fault(
                "/arxiv/query",
                "status",
                status=400,
                body=shapes.atom_error("start must be non-negative").encode(),
            ),
            "HTTP 400 Bad Request (arXiv: start must be non-negative)",
        ),
        (
            Fault(
                "/arxiv/query",
                "body",
                body=shapes.atom_error("max_results must be at most 2000")
                .replace("http://arxiv.org/api/errors#incorrect_id_format_for_1234", "urn:err")
                .encode(),
            ),
            "arXiv answered with an error: max_results must be at most 2000",
        ),
    ],
    ids=["html", "plain-text", "400-atom-error", "error-entry-titled-error"],
)
def test_arxiv_answers_that_are_no_feed_are_one_clear_line(
    services, env, fault: Fault, said: str
) -> None:
    found, _ = services
    found.faults.append(fault)
    done = papers(env, "fetch", "arxiv:cat:cs.LG", "--max", "5")
    assert done.returncode == 1 and "Traceback" not in done.stderr
    [line] = done.stderr.strip().splitlines()
    assert line.startswith("papers: error: fetching arxiv:cat:cs.LG: ") and said in line, line


def test_an_answer_that_trickles_in_is_given_up_on(services, env) -> None:
    """A byte every 50 ms never leaves the server silent for the timeout (1 s): the answer,
    400 bytes in 20 s, is given up on after about the timeout, not waited for."""
    found, _ = services
    found.v2[ICLR25] = shapes.v2_venue(shapes.made_up(2, seed=35, fate=""), ICLR25)
    slow = b'{"notes": [], "count": 0}' + b" " * 375
    found.faults.append(Fault("/or2/notes", "trickle", body=slow, seconds=0.05))
    started = time.monotonic()
    done = papers(env, "fetch", "iclr2025", "--timeout", "1")
    took = time.monotonic() - started
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "the answer is coming too slowly" in done.stderr and "127.0.0.1" in done.stderr
    assert took < 10, took


def test_a_connection_reset_mid_pagination_imports_nothing(services, env) -> None:
    """The second page's connection reset (a TCP RST), again when asked again: one line
    naming the host, exit 1, and not the first page's papers stored as if they were the
    venue."""
    found, _ = services
    found.page_cap = 2
    found.v2[ICLR25] = shapes.v2_venue(shapes.made_up(5, seed=36, fate=""), ICLR25)
    reset = Fault("/or2/notes", "reset", body=b"HTTP/1.1 200 OK\r\n", skip=1, times=2)
    found.faults.append(reset)
    done = papers(env, "fetch", "iclr2025")
    assert done.returncode == 1 and "Traceback" not in done.stderr
    waited, line = done.stderr.strip().splitlines()
    assert "waiting 1 s before trying again (1 of 1)" in waited, waited
    assert "fetching iclr2025: 127.0.0.1" in line and "cut off" in line, line
    assert line.endswith("still after 1 retry"), line
    assert _listed(env) == []


@pytest.mark.parametrize(
    "body",
    [
        b"",  # the connection reset before a byte of the answer
        b'HTTP/1.1 200 OK\r\nContent-Length: 900\r\n\r\n{"notes": [',  # mid-body
    ],
    ids=["before", "mid-body"],
)
def test_a_connection_dropped_once_is_asked_again(services, env, body: bytes) -> None:
    """A proxy or load balancer drops a connection now and then: the page is asked again
    once (said on stderr), and the fetch ends whole rather than on the first drop."""
    found, _ = services
    found.page_cap = 2
    found.v2[ICLR25] = shapes.v2_venue(shapes.made_up(5, seed=36, fate=""), ICLR25)
    found.faults.append(Fault("/or2/notes", "reset", body=body, skip=1))
    done = papers(env, "fetch", "iclr2025")
    assert done.returncode == 0, done.stderr
    assert "5 added" in done.stdout, done.stdout
    waited = [line for line in done.stderr.splitlines() if "127.0.0.1" in line]
    assert len(waited) == 1 and "waiting 1 s before trying again (1 of 1)" in waited[0], waited
    assert len(_listed(env)) == 5


def test_a_gzip_answer_is_read(services, env) -> None:
    found, _ = services
    venue = shapes.v2_venue(shapes.made_up(3, seed=37, fate=""), ICLR25)
    found.v2[ICLR25] = venue
    page = json.dumps({"notes": venue.notes, "count": 3}).encode()
    found.faults.append(Fault("/or2/notes", "gzip", body=page))
    done = papers(env, "fetch", "iclr2025")
    assert done.returncode == 0 and "3 added" in done.stdout, done.stderr
