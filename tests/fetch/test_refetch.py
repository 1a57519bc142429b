"""``papers fetch`` again after OpenReview changed, or after a fetch that did not end: the
decisions that came out are the papers' statuses, the user's triage is kept, nothing doubles."""

from __future__ import annotations

import json
import os
import time
from collections import Counter
from datetime import datetime
from pathlib import Path

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


def _age_the_cache(home: Path, hours: float) -> float:
    """Every page kept in ``home``'s cache made ``hours`` old; when they now say they were
    kept."""
    kept = time.time() - hours * 3600
    pages = list((home / "fetched").glob("*.page"))
    assert pages
    for page in pages:
        os.utime(page, (kept, kept))
    return kept


def test_a_venue_still_deciding_is_asked_again_within_the_day(services, env, tmp_path) -> None:
    """This morning 10 papers were under review. Two hours later 5 are accepted and 3 others
    have new ratings: the fetch without --refresh read this morning's pages and said all 20
    "unchanged". A venue still deciding is asked again after an hour, and a paper that only
    moved in the list (after those now accepted) is not counted "updated"."""
    found, _ = services
    made = shapes.made_up(20, seed=11, fate="")
    for paper in made[10:]:
        paper.fate = "Submission"
    found.v2[ICLR25] = shapes.v2_venue(made, ICLR25)
    assert papers(env, "fetch", "iclr2025", "--all", "--reviews").returncode == 0
    _age_the_cache(tmp_path / "home", 2)
    for paper in made[10:15]:
        paper.fate = ""
    for paper in made[:3]:
        paper.ratings = [10, 10, 10]
    found.v2[ICLR25] = shapes.v2_venue(made, ICLR25)
    sent = len(found.log)
    done = papers(env, "fetch", "iclr2025", "--all", "--reviews")
    assert done.returncode == 0, done.stderr
    assert len(found.log) > sent
    assert "0 added, 8 updated, 12 skipped (unchanged)" in done.stdout, done.stdout
    shown = Counter(p["venue_status"] for p in _listed(env))
    assert shown == {"Poster": 15, "Under review": 5}


def test_a_decided_venue_keeps_its_day_and_the_fetch_says_when_its_pages_were_kept(
    services, env, tmp_path
) -> None:
    """Its bulky pages of notes and reviews are not asked again the same day (the services'
    rate limits), but the report no longer lets "unchanged" pass for the service's word: it
    says the pages are this morning's, and how to ask again."""
    found, _ = services
    made = shapes.made_up(6, seed=12, fate="")
    made[5].fate = "Rejected_Submission"
    found.v2[ICLR25] = shapes.v2_venue(made, ICLR25)
    assert papers(env, "fetch", "iclr2025", "--all", "--reviews").returncode == 0
    kept = _age_the_cache(tmp_path / "home", 2)
    made[0].ratings = [10, 10, 10]
    found.v2[ICLR25] = shapes.v2_venue(made, ICLR25)
    sent = len(found.log)
    done = papers(env, "fetch", "iclr2025", "--all", "--reviews")
    assert done.returncode == 0, done.stderr
    asked = {e.query.get("content.venueid") for e in found.log[sent:] if e.path == "/or2/notes"}
    assert not asked & {ICLR25, f"{ICLR25}/Rejected_Submission"}, asked  # (the empty ones are)
    assert "0 updated" in done.stdout, done.stdout
    at = datetime.fromtimestamp(kept)
    said = at.strftime("%H:%M") if at.date() == datetime.now().date() else at.strftime("%b %H:%M")
    assert "pages from the cache of " in done.stderr and said in done.stderr, done.stderr
    assert "--refresh asks again" in done.stderr
    done = papers(env, "fetch", "iclr2025", "--all", "--reviews", "--refresh")
    assert "0 added, 1 updated" in done.stdout, done.stdout
    assert "0 pages from the cache" in done.stderr and "asks again" not in done.stderr
