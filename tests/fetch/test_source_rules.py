"""Which source says a paper's decision, its title and its ratings when two disagree, and what a
refreshed fetch says of a paper that left its list: OpenReview (the venue's own record) over
Paper Copilot (a third party's snapshot, which may be older); the user's triage kept."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.fetch import shapes
from tests.fetch.conftest import papers
from tests.fetch.services import Services

ICLR25 = "ICLR.cc/2025/Conference"
ICLR26 = "ICLR.cc/2026/Conference"


def _listed(env: dict[str, str]) -> dict[str, dict[str, Any]]:
    done = papers(env, "list", "--json")
    assert done.returncode == 0, done.stderr
    return {p["url"].rpartition("id=")[2]: p for p in json.loads(done.stdout)}


def test_an_older_paper_copilot_snapshot_does_not_undo_what_openreview_says(
    services: tuple[Services, str], env
) -> None:
    """Fetched from OpenReview, then withdrawn there (its title revised, a fourth review in):
    Paper Copilot's older snapshot (Oral, the old title, three ratings) fetched after it
    leaves the paper Withdrawn, with the new title and four ratings, and says so in a line;
    the user's star stays. What Paper Copilot alone gives (its TL;DR) still comes in."""
    found, _ = services
    made = shapes.made_up(3, seed=61, fate="")
    for i, paper in enumerate(made):
        paper.note_id = shapes.note_id(f"rules-{i}")
        paper.presentation = "Oral"
    found.v2[ICLR25] = shapes.v2_venue(made, ICLR25)
    found.paperlists["iclr2025"] = [shapes.paperlists_record(p, "iclr", 2025) for p in made]
    found.paperlists["iclr2025"][0]["tldr"] = "A short summary only Paper Copilot has."
    done = papers(env, "fetch", "iclr2025", "--all", "--reviews")
    assert done.returncode == 0, done.stderr
    mine = made[0].note_id
    old_title = made[0].title
    made[0].fate = "Withdrawn_Submission"
    made[0].title = old_title + " Revised"
    made[0].ratings = [*made[0].ratings, 8]
    made[0].confidences = [3, 4, 4, 5]
    found.v2[ICLR25] = shapes.v2_venue(made, ICLR25)
    done = papers(env, "fetch", "iclr2025", "--all", "--reviews", "--refresh")
    assert done.returncode == 0, done.stderr
    before = _listed(env)[mine]
    assert before["venue_status"] == "Withdrawn" and before["title"].endswith("Revised")
    assert papers(env, "mark", before["id"], "starred").returncode == 0

    done = papers(env, "fetch", "paperlists:iclr2025", "--all")
    assert done.returncode == 0, done.stderr
    said = done.stdout + done.stderr
    after = _listed(env)[mine]
    assert after["venue_status"] == "Withdrawn", said
    assert after["title"] == before["title"], said
    assert after["extra"]["ratings"] == before["extra"]["ratings"], said
    assert after["extra"]["tldr"] == "A short summary only Paper Copilot has."
    assert after["status"] == "starred"
    [line] = [line for line in said.splitlines() if "OpenReview's kept" in line]
    assert "Paper Copilot" in line and "1 paper" in line and "decision" in line, line

    done = papers(env, "fetch", "iclr2025", "--all", "--reviews")
    assert done.returncode == 0, done.stderr
    assert _listed(env)[mine]["venue_status"] == "Withdrawn"


def test_both_sources_in_one_fetch_give_openreview_s_decision_in_either_order(
    services: tuple[Services, str], env
) -> None:
    """``papers fetch iclr2025 paperlists:iclr2025`` (and the other order): one import, the
    paper Withdrawn on OpenReview and Poster in the snapshot is Withdrawn either way."""
    found, _ = services
    made = shapes.made_up(2, seed=62, fate="")
    for i, paper in enumerate(made):
        paper.note_id = shapes.note_id(f"both-{i}")
    found.paperlists["iclr2025"] = [shapes.paperlists_record(p, "iclr", 2025) for p in made]
    made[0].fate = "Withdrawn_Submission"
    found.v2[ICLR25] = shapes.v2_venue(made, ICLR25)
    for order in (("iclr2025", "paperlists:iclr2025"), ("paperlists:iclr2025", "iclr2025")):
        done = papers(env, "fetch", *order, "--all", "--refresh")
        assert done.returncode == 0, done.stderr
        assert _listed(env)[made[0].note_id]["venue_status"] == "Withdrawn", (order, done.stdout)


def test_a_paper_withdrawn_after_acceptance_is_said_and_marked_on_a_refresh(
    services: tuple[Services, str], env
) -> None:
    """101 accepted papers; OpenReview then withdraws one. ``papers fetch iclr2026 --refresh``
    (not ``--all``) said "100 skipped" and left it Poster: now a line says it left the
    accepted papers, its venue status says so, and the user's star, note and tags stay. A
    fetch with ``--all`` then gives it its decision."""
    found, _ = services
    made = shapes.made_up(101, seed=63, fate="")
    found.v2[ICLR26] = shapes.v2_venue(made, ICLR26)
    done = papers(env, "fetch", "iclr2026")
    assert done.returncode == 0, done.stderr
    assert "101 added" in done.stdout, done.stdout
    gone = made[40]
    pid = _listed(env)[shapes.note_id(gone.title + gone.abstract[:40])]["id"]
    assert papers(env, "mark", pid, "starred").returncode == 0
    assert papers(env, "tag", pid, "keep").returncode == 0
    gone.fate = "Withdrawn_Submission"
    found.v2[ICLR26] = shapes.v2_venue(made, ICLR26)
    done = papers(env, "fetch", "iclr2026", "--refresh")
    assert done.returncode == 0, done.stderr
    said = done.stdout + done.stderr
    [line] = [line for line in said.splitlines() if "no longer among its accepted" in line]
    assert "1 paper" in line and "--all" in line, line
    [paper] = [p for p in _listed(env).values() if p["id"] == pid]
    assert paper["venue_status"] == "Left the accepted list (was Poster)", paper
    assert paper["status"] == "starred" and paper["tags"] == ["keep"], paper
    for query, found_ids in (("status:left", [pid]), ("status:accepted", [])):
        done = papers(env, "search", query, "--json")
        assert done.returncode == 0, done.stderr
        assert [p["id"] for p in json.loads(done.stdout) if p["id"] == pid] == found_ids, query
    statuses = {p["venue_status"] for p in _listed(env).values() if p["id"] != pid}
    assert statuses == {"Poster"}
    done = papers(env, "fetch", "iclr2026", "--all")
    assert done.returncode == 0, done.stderr
    [paper] = [p for p in _listed(env).values() if p["id"] == pid]
    assert paper["venue_status"] == "Withdrawn" and paper["status"] == "starred"


@pytest.mark.parametrize(
    ("first", "said", "lists"),
    [
        (("--list", "Reading group"), "Reading group", ["Reading group"]),
        ((), "ICLR 2026 (OpenReview)", ["ICLR 2026 (OpenReview)"]),
    ],
    ids=["fetched-into-it-both-times", "fetched-into-another-first"],
)
def test_the_line_of_a_paper_that_left_names_the_list_it_is_in(
    services: tuple[Services, str], env, first: tuple[str, ...], said: str, lists: list[str]
) -> None:
    """A refresh with ``--list "Reading group"``: the line names the list the paper that left
    is in. It named the source's own list ("ICLR 2026") when both fetches went into Reading
    group, a list the library did not hold; then, fixed for that, it named Reading group when
    the first fetch went into the source's own list, which alone holds the paper."""
    found, _ = services
    made = shapes.made_up(8, seed=64, fate="")
    found.v2[ICLR26] = shapes.v2_venue(made, ICLR26)
    done = papers(env, "fetch", "iclr2026", *first)
    assert done.returncode == 0, done.stderr
    made[3].fate = "Withdrawn_Submission"
    found.v2[ICLR26] = shapes.v2_venue(made, ICLR26)
    done = papers(env, "fetch", "iclr2026", "--refresh", "--list", "Reading group")
    assert done.returncode == 0, done.stderr
    out = done.stdout + done.stderr
    [line] = [line for line in out.splitlines() if "no longer among its accepted" in line]
    assert f"warning: 1 paper of {said} is no longer" in line, line
    [left] = [p for p in _listed(env).values() if p["venue_status"].startswith("Left")]
    assert left["lists"] == lists


def test_a_refresh_missing_most_of_its_list_marks_none(services: tuple[Services, str], env) -> None:
    """An answer that lost most of the accepted papers (a broken page) is no withdrawal of
    them all: a warning, no paper marked."""
    found, _ = services
    made = shapes.made_up(20, seed=64, fate="")
    found.v2[ICLR26] = shapes.v2_venue(made, ICLR26)
    assert papers(env, "fetch", "iclr2026").returncode == 0
    found.v2[ICLR26] = shapes.v2_venue(made[:5], ICLR26)
    done = papers(env, "fetch", "iclr2026", "--refresh")
    assert done.returncode == 0, done.stderr
    assert "15 papers" in done.stderr and "not marked" in done.stderr, done.stderr
    assert {p["venue_status"] for p in _listed(env).values()} == {"Poster"}


def test_an_empty_page_of_accepted_papers_beside_rejected_ones_is_warned_of(
    services: tuple[Services, str], env
) -> None:
    """``--all`` on a venue whose decisions are out (rejected papers on their page) when the
    page of accepted papers comes back empty: the rest is imported, and a warning says the
    accepted papers are missing, not that there are none."""
    from tests.fetch.services import Fault

    found, _ = services
    made = shapes.made_up(10, seed=65, fate="")
    for paper in made[5:]:
        paper.fate = "Rejected_Submission"
    found.v2[ICLR25] = shapes.v2_venue(made, ICLR25)
    found.faults.append(Fault("/or2/notes", "body", body=b'{"notes": [], "count": 0}'))
    done = papers(env, "fetch", "iclr2025", "--all")
    assert done.returncode == 0, done.stderr
    assert "5 added" in done.stdout, done.stdout
    [line] = [line for line in done.stderr.splitlines() if "no accepted papers" in line]
    assert "warning" in line and "5" in line and "rejected" in line, line
    assert found.requests_to("/or2/notes")[0].query["content.venueid"] == ICLR25


def test_a_paper_copilot_list_marks_only_papers_openreview_does_not_hold(
    services: tuple[Services, str], env
) -> None:
    """A paper gone from a refreshed Paper Copilot list is marked when the list is all the
    library has of it; one OpenReview holds keeps OpenReview's status (the snapshot's
    absence says less than the venue's record)."""
    found, _ = services
    made = shapes.made_up(12, seed=66, fate="")
    found.v2[ICLR25] = shapes.v2_venue(made[:6], ICLR25)
    found.paperlists["iclr2025"] = [shapes.paperlists_record(p, "iclr", 2025) for p in made]
    for words in (("iclr2025",), ("paperlists:iclr2025",)):
        assert papers(env, "fetch", *words).returncode == 0
    found.paperlists["iclr2025"] = [
        shapes.paperlists_record(p, "iclr", 2025) for i, p in enumerate(made) if i not in (0, 8)
    ]
    done = papers(env, "fetch", "paperlists:iclr2025", "--refresh")
    assert done.returncode == 0, done.stderr
    assert "1 paper of ICLR 2025 (Paper Copilot) is no longer among" in done.stderr, done.stderr
    listed = _listed(env)
    statuses = {made.index(m): listed[shapes.note_id(m.title + m.abstract[:40])] for m in made}
    assert statuses[0]["venue_status"] == "Poster"
    assert statuses[8]["venue_status"] == "Left the accepted list (was Poster)"
