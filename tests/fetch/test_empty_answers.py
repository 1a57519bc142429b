"""What an empty answer of OpenReview does to a venue of API v1 (ICLR 2018-2023: notes by
invitation, decisions in replies), as it does to one of v2: an empty list of accepted papers
(decisions not out yet, a broken answer) is never kept in the cache as the venue's answer,
never marks the library's papers as gone from the accepted list, and says so in one line."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.fetch import shapes
from tests.fetch.conftest import papers
from tests.fetch.services import Fault, Services, Venue

ICLR22 = "ICLR.cc/2022/Conference"
ICLR25 = "ICLR.cc/2025/Conference"
EMPTY = b'{"notes": [], "count": 0}'


def _statuses(env: dict[str, str]) -> dict[str, str]:
    done = papers(env, "list", "--json")
    assert done.returncode == 0, done.stderr
    return {p["title"]: p["venue_status"] for p in json.loads(done.stdout)}


def _undecided(venue: Venue) -> Venue:
    """The venue before its decisions: no decision replies, every note "Submitted to"."""
    for note in venue.notes:
        note["content"]["venue"] = "Submitted to ICLR 2022"
        del note["content"]["venueid"]
        venue.replies[note["id"]] = [
            r for r in venue.replies[note["id"]] if "decision" not in r["content"]
        ]
    return venue


def _one_line_error(done: Any) -> str:
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    [line] = done.stderr.strip().splitlines()[-1:]
    return str(line)


def test_a_v1_venue_answering_empty_pages_marks_nothing_and_is_asked_again(
    services: tuple[Services, str], env
) -> None:
    """8 accepted papers fetched; a refresh while OpenReview answers every page of notes
    with ``{"notes": [], "count": 0}``: one line, no paper marked as gone. Once it answers
    again, a fetch the same day (no --refresh) asks again: the empty answers (the probe for
    the venue's blind submissions among them) were not kept as the venue's answer."""
    found, _ = services
    made = shapes.made_up(8, seed=71, fate="")
    found.v1[ICLR22] = shapes.v1_venue(made, ICLR22)
    done = papers(env, "fetch", f"openreview:{ICLR22}")
    assert done.returncode == 0 and "8 added" in done.stdout, done.stdout + done.stderr
    found.faults.append(Fault("/or1/notes", "body", body=EMPTY, times=100))
    done = papers(env, "fetch", f"openreview:{ICLR22}", "--refresh")
    line = _one_line_error(done)
    assert "no accepted papers" in line and ICLR22 in line, line
    assert set(_statuses(env).values()) == {"Poster"}
    found.faults.clear()
    done = papers(env, "fetch", f"openreview:{ICLR22}")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "8 skipped" in done.stdout, done.stdout + done.stderr
    assert set(_statuses(env).values()) == {"Poster"}


def test_a_v1_venue_without_decisions_yet_is_asked_again_once_they_are_out(
    services: tuple[Services, str], env
) -> None:
    """This morning no decision was out: no accepted paper, one line. This afternoon they
    are: a fetch without --refresh read this morning's page of submissions from the cache
    and said again there were none."""
    found, _ = services
    made = shapes.made_up(6, seed=72, fate="")
    found.v1[ICLR22] = _undecided(shapes.v1_venue(made, ICLR22))
    done = papers(env, "fetch", f"openreview:{ICLR22}")
    line = _one_line_error(done)
    assert "no accepted papers" in line and "decisions may not be out" in line, line
    found.v1[ICLR22] = shapes.v1_venue(made, ICLR22)
    done = papers(env, "fetch", f"openreview:{ICLR22}")
    assert done.returncode == 0 and "6 added" in done.stdout, done.stdout + done.stderr


@pytest.mark.parametrize("body", [EMPTY, b'{"notes": []}'], ids=["count-0", "no-count"])
def test_a_v1_page_empty_before_the_end_marks_nothing(
    services: tuple[Services, str], env, body: bytes
) -> None:
    """260 accepted papers in pages of 200; on a refresh the second page comes back empty:
    the first 200 are kept, a warning says the pages ended early, the 60 others are not
    marked as gone."""
    found, _ = services
    made = shapes.made_up(260, seed=73, fate="")
    found.v1[ICLR22] = shapes.v1_venue(made, ICLR22)
    done = papers(env, "fetch", f"openreview:{ICLR22}")
    assert done.returncode == 0 and "260 added" in done.stdout, done.stdout + done.stderr
    found.faults.append(Fault("/or1/notes", "body", body=body, skip=2))  # the probe, page 1
    done = papers(env, "fetch", f"openreview:{ICLR22}", "--refresh")
    assert done.returncode == 0, done.stderr
    assert "pages ended after 200" in done.stderr, done.stderr
    assert "no longer among" not in done.stderr, done.stderr
    assert set(_statuses(env).values()) == {"Poster"}
