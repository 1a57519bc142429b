"""``papers fetch`` again after OpenReview changed, or after a fetch that did not end: the
decisions that came out are the papers' statuses, the user's triage is kept, nothing doubles."""

from __future__ import annotations

import json
from collections import Counter

from tests.fetch import shapes
from tests.fetch.conftest import papers

ICLR25 = "ICLR.cc/2025/Conference"


def _listed(env: dict[str, str]) -> list[dict]:
    done = papers(env, "list", "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_decisions_out_since_this_mornings_fetch_are_read_beside_its_cached_pages(
    services, env
) -> None:
    """This morning's pages of submissions under review are cached; the pages of the rejected
    and accepted ones were empty then (not kept). Fetched again the same day, every rejected
    paper is in both: it is Rejected, and the cached pages, holding only papers read already,
    are no page "sent again"."""
    found, _ = services
    found.page_cap = 100
    made = shapes.made_up(250, seed=5, fate="Submission")
    found.v2[ICLR25] = shapes.v2_venue(made, ICLR25)
    done = papers(env, "fetch", "iclr2025", "--all")
    assert done.returncode == 0, done.stderr
    listed = _listed(env)
    assert Counter(p["venue_status"] for p in listed) == {"Under review": 250}
    mine = listed[7]["id"]
    assert papers(env, "mark", mine, "starred").returncode == 0
    for i, paper in enumerate(made):
        paper.fate = "" if i < 50 else "Rejected_Submission"
    found.v2[ICLR25] = shapes.v2_venue(made, ICLR25)
    done = papers(env, "fetch", "iclr2025", "--all")
    assert done.returncode == 0, done.stderr
    assert "0 added, 250 updated" in done.stdout, done.stdout
    listed = _listed(env)
    assert len(listed) == len({p["id"] for p in listed}) == 250
    assert Counter(p["venue_status"] for p in listed) == {"Rejected": 200, "Poster": 50}
    assert [p["status"] for p in listed if p["id"] == mine] == ["starred"]


def test_one_venue_named_twice_in_a_fetch_is_fetched_once(services, env) -> None:
    found, _ = services
    found.v2[ICLR25] = shapes.v2_venue(shapes.made_up(5, seed=6, fate=""), ICLR25)
    done = papers(env, "fetch", "iclr2025", "ICLR 2025", "openreview:ICLR.cc/2025/Conference")
    assert done.returncode == 0, done.stderr
    assert "5 added" in done.stdout and "merged" not in done.stdout, done.stdout
    assert "Fetched 5 papers (2 requests" in done.stderr, done.stderr
    assert len(found.requests_to("/or2/notes")) == 1


def test_a_fetch_of_every_submission_lists_accepted_under_review_then_rejected(
    services, env
) -> None:
    """Reading the decided venue ids first (for a decision that came out mid-fetch) left the
    list's order as it was for a normal fetch: accepted, under review, then rejected (it put
    the rejected before the papers under review)."""
    found, _ = services
    made = shapes.made_up(30, seed=9, fate="")
    for i, paper in enumerate(made):
        paper.fate = ("", "Submission", "Rejected_Submission")[i // 10]
    found.v2[ICLR25] = shapes.v2_venue(made, ICLR25)
    done = papers(env, "fetch", "iclr2025", "--all")
    assert done.returncode == 0, done.stderr
    shown = [p["venue_status"] for p in _listed(env)]
    assert len(shown) == 30
    accepted = [s for s in shown[:10] if s not in ("Under review", "Rejected")]
    assert len(accepted) == 10, shown
    assert shown[10:] == ["Under review"] * 10 + ["Rejected"] * 10, shown


def test_max_keeps_the_first_papers_of_the_list_not_the_first_read(services, env, tmp_path) -> None:
    """``--all --max N`` is the first N papers of the list, as ``--all`` without it shows
    them: with 3 accepted, 10 under review and 10 rejected, ``--max 8`` kept the 3 accepted and
    5 rejected ones (the rejected are read first), none under review. A ``--max`` the
    accepted papers fill asks for nothing else."""
    found, _ = services
    made = shapes.made_up(3, seed=9, fate="") + shapes.made_up(10, seed=10, fate="Submission")
    found.v2[ICLR25] = shapes.v2_venue(made + shapes.made_up(10, seed=11), ICLR25)
    done = papers(env, "fetch", "iclr2025", "--all", "--max", "8")
    assert done.returncode == 0 and "8 added" in done.stdout, done.stderr
    some = _listed(env)
    whole = _listed_after({**env, "PAPERS_HOME": str(tmp_path / "whole")}, "--all")
    assert [p["title"] for p in some] == [p["title"] for p in whole[:8]]
    assert [p["venue_status"] for p in some][3:] == ["Under review"] * 5
    found.log.clear()
    done = papers({**env, "PAPERS_HOME": str(tmp_path / "two")}, "fetch", "iclr2025", "--all",
                  "--max", "2", "--refresh")  # fmt: skip
    assert done.returncode == 0 and "2 added" in done.stdout, done.stderr
    assert {r.query["content.venueid"] for r in found.requests_to("/or2/notes")} == {ICLR25}


def _listed_after(env: dict[str, str], *args: str) -> list[dict]:
    """The list of a HOME after ``papers fetch iclr2025 ARGS``."""
    done = papers(env, "fetch", "iclr2025", *args)
    assert done.returncode == 0, done.stderr
    return _listed(env)
