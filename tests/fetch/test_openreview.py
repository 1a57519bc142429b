"""``papers fetch`` from OpenReview, run as users run it, against the local stand-in."""

from __future__ import annotations

import json
import os
import tempfile
import time
from pathlib import Path

from tests.fetch import shapes
from tests.fetch.conftest import papers
from tests.fetch.services import Fault, Services, Venue

ICLR25 = "ICLR.cc/2025/Conference"
ICLR23 = "ICLR.cc/2023/Conference"


def _made(n: int, fate: str = "", seed: int = 1) -> list[shapes.Made]:
    return shapes.made_up(n, seed=seed, fate=fate)


def _venue(accepted: int = 3) -> Venue:
    made = _made(accepted)
    for paper, presentation in zip(made, ("Oral", "Spotlight", "Poster"), strict=False):
        paper.presentation = presentation
    made[0].ratings, made[0].confidences = [6, "8: accept, good paper", 10], [4, 3, 5]
    made += _made(2, "Rejected_Submission", 2) + _made(1, "Withdrawn_Submission", 3)
    made += _made(1, "Desk_Rejected_Submission", 4)
    return shapes.v2_venue(made, ICLR25)


def _listed(env: dict[str, str]) -> list[dict]:
    done = papers(env, "list", "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_a_short_name_fetches_the_accepted_papers(services: tuple[Services, str], env) -> None:
    found, base = services
    found.v2[ICLR25] = _venue()
    done = papers(env, "fetch", "iclr2025")
    assert done.returncode == 0, done.stderr
    assert "3 added" in done.stdout and "ICLR 2025 (OpenReview)" in done.stdout
    listed = _listed(env)
    assert sorted(p["venue_status"] for p in listed) == ["Oral", "Poster", "Spotlight"]
    note = found.v2[ICLR25].notes[0]
    [first] = [p for p in listed if p["title"] == note["content"]["title"]["value"]]
    assert first["url"].endswith(f"forum?id={note['id']}")
    assert first["extra"]["pdf"].startswith(f"{base}/or2/pdf/") and first["venue"] == "ICLR 2025"
    assert first["extra"]["area"] == "generative models" and first["authors"]
    notes = found.requests_to("/or2/notes")
    assert {r.query.get("content.venueid") for r in notes} == {ICLR25}
    assert all("Authorization" not in r.headers and "authorization" not in r.headers for r in notes)


def test_all_brings_every_submission_with_its_decision(services, env) -> None:
    found, _ = services
    found.v2[ICLR25] = _venue()
    done = papers(env, "fetch", "iclr2025", "--all")
    assert done.returncode == 0, done.stderr
    statuses = sorted(p["venue_status"] for p in _listed(env))
    assert statuses == sorted(
        ["Oral", "Spotlight", "Poster", "Rejected", "Rejected", "Withdrawn", "Desk rejected"]
    )
    asked = {r.query.get("content.venueid") for r in found.requests_to("/or2/notes")}
    assert f"{ICLR25}/Rejected_Submission" in asked and f"{ICLR25}/Withdrawn_Submission" in asked


def test_reviews_give_the_ratings_their_mean_and_the_confidence(services, env) -> None:
    found, _ = services
    found.v2[ICLR25] = _venue()
    done = papers(env, "fetch", "openreview:ICLR.cc/2025/Conference", "--reviews")
    assert done.returncode == 0, done.stderr
    title = found.v2[ICLR25].notes[0]["content"]["title"]["value"]
    [first] = [p for p in _listed(env) if p["title"] == title]
    assert first["extra"]["ratings"] == "6, 8, 10"  # "8: accept, good paper" is 8
    assert first["extra"]["rating"] == 8.0 and first["extra"]["confidence"] == 4.0
    hits = papers(env, "search", "rating:>7", "--json")
    assert [h["id"] for h in json.loads(hits.stdout)] == [first["id"]]
    asked = found.requests_to("/or2/notes")
    assert all(r.query.get("details") == "directReplies" for r in asked)


def test_pages_follow_after_the_last_id_until_the_count(services, env) -> None:
    found, _ = services
    found.v2[ICLR25] = shapes.v2_venue(_made(450), ICLR25)
    done = papers(env, "fetch", "iclr2025", "--reviews")  # 200 notes a page with replies
    assert done.returncode == 0, done.stderr
    assert "450 added" in done.stdout
    asked = found.requests_to("/or2/notes")
    assert len(asked) == 3 and "after" not in asked[0].query
    ids = sorted(n["id"] for n in found.v2[ICLR25].notes)
    assert [r.query.get("after") for r in asked[1:]] == [ids[199], ids[399]]
    assert all(r.query["sort"] == "id" and r.query["limit"] == "200" for r in asked)


def test_a_v1_venue_pages_by_offset_and_reads_decisions_from_replies(services, env) -> None:
    found, _ = services
    made = _made(230, seed=5)
    made[0].ratings, made[0].confidences = ["6: marginally above", "8: accept"], ["3: fairly", 4]
    made += _made(20, "Rejected_Submission", 6) + _made(3, "Withdrawn_Submission", 7)
    found.v1[ICLR23] = shapes.v1_venue(made, ICLR23)
    done = papers(env, "fetch", "iclr2023")
    assert done.returncode == 0, done.stderr
    assert "230 added" in done.stdout
    listed = {p["title"]: p for p in _listed(env)}
    assert {p["venue_status"] for p in listed.values()} == {"Poster"}
    assert listed[made[0].title]["extra"]["rating"] == 7.0  # v1 fetches the replies anyway
    offsets = [
        r.query.get("offset")
        for r in found.requests_to("/or1/notes")
        if r.query.get("limit") != "1"
    ]
    assert offsets == ["0", "200"]
    assert not found.requests_to("/or2/notes")
    done = papers(env, "fetch", "iclr2023", "--all")
    assert "23 added" in done.stdout, done.stdout + done.stderr
    statuses = [p["venue_status"] for p in _listed(env)]
    assert statuses.count("Rejected") == 20 and statuses.count("Withdrawn") == 3


def test_a_v1_venue_gives_a_rejected_paper_the_venue_id_and_its_decision_says_no(
    services, env
) -> None:
    """The real v1 shape: once decisions are out, every submission's ``venueid`` is the
    venue's, the rejected ones' ``venue`` "Submitted to ICLR 2023"; a venue without decision
    notes (ICLR 2019) says it in the meta review's recommendation."""
    found, _ = services
    made = _made(6, seed=8) + _made(4, "Rejected_Submission", 9)
    venue = shapes.v1_venue(made, ICLR23)
    rejected = {n["id"] for n in venue.notes if n["content"]["venue"].startswith("Submitted")}
    assert len(rejected) == 4
    assert all(n["content"]["venueid"] == ICLR23 for n in venue.notes)
    found.v1[ICLR23] = venue
    done = papers(env, "fetch", "iclr2023")
    assert done.returncode == 0, done.stderr
    assert "6 added" in done.stdout, done.stdout
    assert not {p["id"] for p in _listed(env)} & rejected

    iclr19 = "ICLR.cc/2019/Conference"
    old = shapes.v1_venue(_made(5, seed=10) + _made(3, "Rejected_Submission", 11), iclr19)
    for note in old.notes:  # no venue, no venueid: only the meta review tells
        del note["content"]["venue"], note["content"]["venueid"]
        for reply in old.replies[note["id"]]:
            if reply["invitation"].endswith("/-/Decision"):
                reply["invitation"] = reply["invitation"].replace("/-/Decision", "/-/Meta_Review")
                reply["content"] = {"recommendation": reply["content"]["decision"]}
    found.v1[iclr19] = old
    done = papers(env, "fetch", f"openreview:{iclr19}")
    assert done.returncode == 0, done.stderr
    assert "5 added" in done.stdout, done.stdout


def test_a_v2_venue_of_2023_is_read_from_v2_though_v1_knows_its_group(services, env) -> None:
    found, _ = services
    neurips23 = "NeurIPS.cc/2023/Conference"
    found.v2[neurips23] = shapes.v2_venue(_made(5, seed=12), neurips23)
    done = papers(env, "fetch", f"openreview:{neurips23}")
    assert done.returncode == 0, done.stderr
    assert "5 added" in done.stdout, done.stdout
    assert found.requests_to("/or2/notes") and not found.requests_to("/or1/notes")


def test_icml_reviews_overall_recommendation_is_the_rating(services, env) -> None:
    found, _ = services
    icml25 = "ICML.cc/2025/Conference"
    made = _made(2, seed=13)
    made[0].ratings, made[0].confidences = [2, 4, 3], [3, 4, 4]
    venue = shapes.v2_venue(made, icml25)
    for replies in venue.replies.values():
        for reply in replies:
            if "rating" in reply["content"]:
                reply["content"]["overall_recommendation"] = reply["content"].pop("rating")
    found.v2[icml25] = venue
    done = papers(env, "fetch", f"openreview:{icml25}", "--reviews")
    assert done.returncode == 0, done.stderr
    title = venue.notes[0]["content"]["title"]["value"]
    [first] = [p for p in _listed(env) if p["title"] == title]
    assert first["extra"]["ratings"] == "2, 4, 3" and first["extra"]["rating"] == 3.0


def test_a_venue_that_does_not_exist_is_one_line_naming_the_short_names(
    services, env, tmp_path: Path
) -> None:
    found, _ = services
    found.v2[ICLR25] = _venue()
    papers(env, "fetch", "iclr2025")
    before = (tmp_path / "home" / "papers.json").read_bytes()
    done = papers(env, "fetch", "iclr2031")
    assert done.returncode == 1
    line = done.stderr.strip()
    assert "\n" not in line and "Traceback" not in line
    assert "no venue ICLR.cc/2031/Conference on OpenReview; known short names: iclr2025" in line
    assert (tmp_path / "home" / "papers.json").read_bytes() == before


def test_fetching_again_updates_what_changed_and_keeps_the_users_triage(services, env) -> None:
    found, _ = services
    made = _made(3)
    found.v2[ICLR25] = shapes.v2_venue(made, ICLR25)
    assert papers(env, "fetch", "iclr2025", "--reviews").returncode == 0
    [first] = [p["id"] for p in _listed(env) if p["title"] == made[0].title]
    assert papers(env, "mark", first, "starred").returncode == 0
    assert papers(env, "note", first, "read this first").returncode == 0
    made[0].presentation = "Oral"  # after the camera-ready
    made[0].ratings = [8, 8, 8]
    made.append(_made(1, seed=9)[0])
    found.v2[ICLR25] = shapes.v2_venue(made, ICLR25)
    cached = papers(env, "fetch", "iclr2025", "--reviews")  # the same day: from the cache
    assert "0 requests" in cached.stderr and "3 skipped" in cached.stdout, cached.stdout
    done = papers(env, "fetch", "iclr2025", "--reviews", "--refresh")
    assert done.returncode == 0, done.stderr
    assert "1 added, 1 updated, 2 skipped" in done.stdout
    listed = {p["id"]: p for p in _listed(env)}
    assert listed[first]["venue_status"] == "Oral" and listed[first]["extra"]["rating"] == 8.0
    assert listed[first]["status"] == "starred" and listed[first]["note"] == "read this first"


def test_a_repeated_fetch_reads_the_cache_and_refresh_ignores_it(
    services, env, tmp_path: Path
) -> None:
    found, _ = services
    found.v2[ICLR25] = _venue()
    assert papers(env, "fetch", "iclr2025").returncode == 0
    sent = len(found.log)
    again = papers(env, "fetch", "iclr2025")
    assert again.returncode == 0 and len(found.log) == sent
    assert "0 requests" in again.stderr and "3 skipped" in again.stdout
    pages = list((tmp_path / "home" / "fetched").iterdir())
    assert pages and all(p.suffix == ".page" and not p.name.startswith(".") for p in pages)
    assert papers(env, "fetch", "iclr2025", "--refresh").returncode == 0
    assert len(found.log) > sent


def test_a_fetch_removes_the_half_written_pages_of_fetches_stopped_long_ago(
    services, env, tmp_path: Path
) -> None:
    """Ctrl+C while a page was written left its temporary file (``.part-*.page``) in
    ``HOME/fetched`` for good. The next fetch removes one an hour old, but not one made just
    now (a fetch beside it writing a page: its file is open here), nor an old page kept."""
    found, _ = services
    found.v2[ICLR25] = _venue()
    folder = tmp_path / "home" / "fetched"
    folder.mkdir(parents=True)
    hour_ago = time.time() - 3600
    handle, left = tempfile.mkstemp(prefix=".part-", suffix=".page", dir=folder)
    os.write(handle, b'{"notes": [{"id": "cut off')
    os.close(handle)
    os.utime(left, (hour_ago, hour_ago))
    kept = folder / f"{'0' * 40}.page"
    kept.write_bytes(b'{"notes": []}')
    os.utime(kept, (hour_ago, hour_ago))
    writing, written = tempfile.mkstemp(prefix=".part-", suffix=".page", dir=folder)
    try:
        os.write(writing, b'{"notes": [')
        done = papers(env, "fetch", "iclr2025")
        assert done.returncode == 0 and "3 added" in done.stdout, done.stderr
        assert not os.path.exists(left)
        assert os.path.exists(written) and kept.exists()
    finally:
        os.close(writing)


def test_an_interrupted_fetch_imports_nothing_and_goes_on_from_the_cache(services, env) -> None:
    found, _ = services
    found.v2[ICLR25] = shapes.v2_venue(_made(450), ICLR25)
    boom = Fault("/or2/notes", "status", status=500, body=b'{"message": "boom"}', skip=2)
    found.faults.append(boom)
    done = papers(env, "fetch", "iclr2025", "--reviews")  # pages 1 and 2 come, page 3 fails
    assert done.returncode == 1, done.stdout
    assert "HTTP 500 Internal Server Error (boom)" in done.stderr and "127.0.0.1" in done.stderr
    assert _listed(env) == []  # all or nothing
    found.log.clear()
    done = papers(env, "fetch", "iclr2025", "--reviews")
    assert done.returncode == 0 and "450 added" in done.stdout, done.stderr
    assert len(found.requests_to("/or2/notes")) == 1  # only the page it did not have


def test_credentials_are_used_only_when_the_environment_has_them(services, env) -> None:
    found, _ = services
    found.v2[ICLR25] = _venue()
    login = {**env, "OPENREVIEW_USERNAME": "reader@example.org", "OPENREVIEW_PASSWORD": "secret"}
    done = papers(login, "fetch", "iclr2025")
    assert done.returncode == 0, done.stderr
    assert all(
        r.headers.get("authorization") == "Bearer token-123"
        for r in found.requests_to("/or2/notes")
    )
    wrong = {**login, "OPENREVIEW_PASSWORD": "nope"}
    done = papers(wrong, "fetch", "iclr2025", "--refresh")
    assert done.returncode == 1 and "HTTP 400" in done.stderr and "Invalid username" in done.stderr


def test_the_token_goes_to_openreview_alone(services, env) -> None:
    """One fetch of OpenReview, Paper Copilot and arXiv: the OpenReview token must not reach
    the others (here another origin, localhost, as they are other hosts for real)."""
    found, base = services
    found.v2[ICLR25] = _venue()
    found.paperlists["iclr2024"] = [
        shapes.paperlists_record(m, "iclr", 2024) for m in shapes.made_up(2, seed=5, fate="")
    ]
    other = base.replace("127.0.0.1", "localhost")
    token = {
        **env,
        "OPENREVIEW_TOKEN": "secret-xyz",
        "PAPERS_PAPERLISTS_URL": f"{other}/pl",
        "PAPERS_ARXIV_API": f"{other}/arxiv/query",
    }
    done = papers(token, "fetch", "iclr2025", "paperlists:iclr2024", "arxiv:2501.00001")
    assert found.requests_to("/pl/") and found.requests_to("/arxiv/"), done.stderr
    for request in found.log:
        sent = request.headers.get("authorization")
        wanted = "Bearer secret-xyz" if request.path.startswith("/or") else None
        assert sent == wanted, request.path


def test_short_names_from_config_toml(services, env, tmp_path: Path) -> None:
    found, _ = services
    found.v2[ICLR25] = _venue()
    home = tmp_path / "home"
    home.mkdir(parents=True, exist_ok=True)
    (home / "config.toml").write_text(
        '[venues]\nmine = "ICLR.cc/2025/Conference"\nbroken = 7\n', encoding="utf-8"
    )
    done = papers(env, "fetch", "mine")
    assert done.returncode == 0, done.stderr
    assert "3 added" in done.stdout
    assert "[venues] broken = 7: ignored" in done.stderr
    done = papers(env, "fetch", "iclr2031")
    assert "from config.toml: broken" not in done.stderr and "mine" in done.stderr.splitlines()[-1]


def test_no_accepted_papers_yet_is_not_cached(services, env) -> None:
    """Before the decisions, no note bears the venue's id: "no accepted papers … yet". That
    empty answer is not kept, so the same fetch once the decisions are out (the same day, no
    --refresh) brings the accepted papers."""
    found, _ = services
    made = _made(3, "Submission", seed=14)
    found.v2[ICLR25] = shapes.v2_venue(made, ICLR25)
    done = papers(env, "fetch", "iclr2025")
    assert done.returncode == 1
    assert "OpenReview has no accepted papers of ICLR.cc/2025/Conference yet" in done.stderr
    for paper in made:
        paper.fate = ""  # the decisions are out
    found.v2[ICLR25] = shapes.v2_venue(made, ICLR25)
    done = papers(env, "fetch", "iclr2025")
    assert done.returncode == 0 and "3 added" in done.stdout, done.stdout + done.stderr


def test_a_short_page_does_not_end_the_paging_while_the_count_says_more(services, env) -> None:
    """A server that answers fewer notes than asked (150 of 200) before the end: the fetch
    goes on after the last id until it has all the ``count`` says, v2 and v1 alike."""
    found, _ = services
    found.page_cap = 150
    found.v2[ICLR25] = shapes.v2_venue(_made(320, seed=15), ICLR25)
    done = papers(env, "fetch", "iclr2025", "--reviews")  # 200 notes asked a page
    assert done.returncode == 0, done.stderr
    assert "320 added" in done.stdout and "warning" not in done.stderr, done.stdout
    assert len(found.requests_to("/or2/notes")) == 3
    found.v1[ICLR23] = shapes.v1_venue(_made(260, seed=16), ICLR23)
    done = papers(env, "fetch", "iclr2023")
    assert done.returncode == 0 and "260 added" in done.stdout, done.stdout + done.stderr
    asked = found.requests_to("/or1/notes")
    assert [r.query["offset"] for r in asked if r.query["limit"] != "1"] == ["0", "150"]


def test_pages_that_end_before_the_count_keep_what_came_and_say_so(services, env) -> None:
    """An empty page while ``count`` says more notes remain (notes taken away between two
    pages): the papers that came are kept, and a warning says how many of how many."""
    found, _ = services
    found.v2[ICLR25] = shapes.v2_venue(_made(250, seed=17), ICLR25)
    empty = b'{"notes": [], "count": 250}'
    found.faults.append(Fault("/or2/notes", "body", body=empty, skip=1))
    done = papers(env, "fetch", "iclr2025", "--reviews")
    assert done.returncode == 0 and "200 added" in done.stdout, done.stdout + done.stderr
    assert (
        "warning: ICLR 2025 (OpenReview): accepted papers: OpenReview counts 250 notes but its "
        "pages ended after 200: fetch again later for the rest" in done.stderr
    ), done.stderr


def test_a_server_that_sends_the_same_short_page_again_is_refused(services, env) -> None:
    """Paging on after a short page must still end: a v1 server that ignores ``offset`` and
    sends the same two notes (of a count of 500) again is refused, not asked 250 times."""
    found, _ = services
    venue = shapes.v1_venue(_made(2, seed=18), ICLR23)
    found.v1[ICLR23] = venue
    same = json.dumps({"notes": venue.notes, "count": 500}).encode()
    found.faults.append(Fault("/or1/notes", "body", body=same, skip=1, times=10))
    done = papers(env, "fetch", "iclr2023")
    assert done.returncode == 1
    assert "the pages of notes do not move on (the same page again)" in done.stderr
    assert len(found.requests_to("/or1/notes")) == 3  # the probe, the page, the same page


def test_reviews_under_the_name_the_venues_group_gives_them(services, env) -> None:
    """A venue whose group names its reviews ``Review`` (``review_name``, as openreview-py's
    how-to reads it): their ratings are read; a comment's "Rating: 1" still is not."""
    found, _ = services
    made = _made(2, seed=19)
    made[0].ratings, made[0].confidences = [4, 6, 8], [3, 3, 4]
    found.v2[ICLR25] = shapes.v2_venue(made, ICLR25, review_name="Review")
    reply = found.v2[ICLR25].replies[found.v2[ICLR25].notes[0]["id"]][0]
    assert reply["invitations"][0].endswith("/Submission1/-/Review")
    done = papers(env, "fetch", "iclr2025", "--reviews")
    assert done.returncode == 0, done.stderr
    listed = {p["title"]: p for p in _listed(env)}
    assert listed[made[0].title]["extra"]["ratings"] == "4, 6, 8"
    assert listed[made[0].title]["extra"]["rating"] == 6.0


#: The decisions of ICLR's v1 years, in their own words: an oral, a poster, the others.
_V1_DECISIONS = ("Accept (Oral)", "Accept (Poster)", "Reject", "Invite to Workshop Track")


def _decided_four(seed: int) -> list[shapes.Made]:
    """Four made-up papers with ``_V1_DECISIONS``, in order."""
    made = _made(4, seed=seed)
    for paper, decision in zip(made, _V1_DECISIONS, strict=True):
        paper.decision = decision
    return made


def test_iclr_2018_acceptance_decisions_and_2020_talks(services, env) -> None:
    """ICLR 2018 posted its decisions under one invitation for the venue,
    ``ICLR.cc/2018/Conference/-/Acceptance_Decision``, in its own words; its notes say no
    venue. ICLR 2020 accepted its orals as "Accept (Talk)": an Oral, as a Spotlight reads."""
    found, _ = services
    iclr18 = "ICLR.cc/2018/Conference"
    made = _decided_four(seed=20)
    venue = shapes.v1_venue(made, iclr18, acceptance_decision=True)
    for note in venue.notes:
        del note["content"]["venue"], note["content"]["venueid"]
    found.v1[iclr18] = venue
    done = papers(env, "fetch", "iclr2018")
    assert done.returncode == 0 and "2 added" in done.stdout, done.stdout + done.stderr
    assert sorted(p["venue_status"] for p in _listed(env)) == ["Oral", "Poster"]
    done = papers(env, "fetch", "iclr2018", "--all")
    assert done.returncode == 0, done.stderr
    statuses = {p["title"]: p["venue_status"] for p in _listed(env)}
    assert statuses[made[2].title] == "Rejected" and statuses[made[3].title] == "Workshop"

    iclr20 = "ICLR.cc/2020/Conference"
    made = _made(2, seed=21)
    made[0].decision, made[1].decision = "Accept (Talk)", "Accept (Spotlight)"
    found.v1[iclr20] = shapes.v1_venue(made, iclr20)
    done = papers(env, "fetch", "iclr2020")
    assert done.returncode == 0, done.stderr
    statuses = {p["title"]: p["venue_status"] for p in _listed(env)}
    assert statuses[made[0].title] == "Oral" and statuses[made[1].title] == "Spotlight"


def test_iclr_2017_its_lower_case_ids_and_acceptance_replies(services, env) -> None:
    """ICLR 2017's venue id is ``ICLR.cc/2017/conference``, its submissions are under
    ``…/-/submission`` and its decisions are ``…/-/paper<N>/acceptance`` replies: ``iclr2017``
    and the venue id fetch its accepted papers, ``--all`` the others with their decisions."""
    found, _ = services
    iclr17 = "ICLR.cc/2017/conference"
    made = _decided_four(seed=23)
    found.v1[iclr17] = shapes.iclr2017_venue(made)
    done = papers(env, "fetch", "iclr2017")
    assert done.returncode == 0 and "2 added" in done.stdout, done.stdout + done.stderr
    assert "ICLR 2017 (OpenReview)" in done.stdout
    listed = {p["title"]: p for p in _listed(env)}
    assert [listed[m.title]["venue_status"] for m in made[:2]] == ["Oral", "Poster"]
    assert listed[made[0].title]["venue"] == "ICLR 2017"
    asked = {r.query.get("invitation") for r in found.requests_to("/or1/notes")}
    assert f"{iclr17}/-/submission" in asked
    done = papers(env, "fetch", f"openreview:{iclr17}", "--all")
    assert done.returncode == 0, done.stderr
    statuses = {p["title"]: p["venue_status"] for p in _listed(env)}
    assert [statuses[m.title] for m in made] == ["Oral", "Poster", "Rejected", "Workshop"]


def test_iclr_2017_reviews_under_official_review_give_the_ratings(services, env) -> None:
    """ICLR 2017's reviews are replies under ``…/-/paper<N>/official/review`` (its questions
    ``…/pre-review/question``, its comments ``…/public/comment``): their last part,
    ``review``, is no ``Official_Review``, and ``papers fetch iclr2017 --reviews`` gave its
    papers no rating at all. Now the reviews' ratings and confidences are read."""
    found, _ = services
    made = _decided_four(seed=24)
    made[0].ratings = ["9: Top 15% of accepted papers, strong accept", "7: Good paper, accept"]
    made[0].confidences = [
        "4: The reviewer is confident but not absolutely certain that the evaluation is correct",
        "3: The reviewer is fairly confident that the evaluation is correct",
    ]
    found.v1["ICLR.cc/2017/conference"] = shapes.iclr2017_venue(made)
    done = papers(env, "fetch", "iclr2017", "--reviews")
    assert done.returncode == 0 and "2 added" in done.stdout, done.stdout + done.stderr
    listed = {p["title"]: p for p in _listed(env)}
    extra = listed[made[0].title]["extra"]
    assert extra["ratings"] == "9, 7" and extra["rating"] == 8.0, extra
    assert extra["confidence"] == 3.5, extra
    other = listed[made[1].title]["extra"]["ratings"]
    assert other == ", ".join(str(r) for r in made[1].ratings), other


def test_a_one_sentence_summary_is_the_tldr(services, env) -> None:
    """ICLR 2021's and 2022's submissions (API v1) give their TL;DR as
    ``one-sentence_summary`` (as crawlers of them read it: ``content.get("TL;DR",
    content.get("one-sentence_summary"))``), not ``TL;DR``: it was lost, and the papers
    fetched had no TL;DR to show or search."""
    found, _ = services
    iclr21 = "ICLR.cc/2021/Conference"
    made = _made(2, seed=25)
    venue = shapes.v1_venue(made, iclr21)
    venue.notes[0]["content"]["one-sentence_summary"] = "Sparse attention scales graph nets."
    venue.notes[1]["content"]["TL;DR"] = "A TL;DR as ICLR 2023 names it."
    found.v1[iclr21] = venue
    done = papers(env, "fetch", "iclr2021")
    assert done.returncode == 0 and "2 added" in done.stdout, done.stdout + done.stderr
    listed = {p["title"]: p for p in _listed(env)}
    assert listed[made[0].title]["extra"]["tldr"] == "Sparse attention scales graph nets."
    assert listed[made[1].title]["extra"]["tldr"] == "A TL;DR as ICLR 2023 names it."


def test_iclr_2023_notable_decisions_are_orals_and_spotlights(services, env) -> None:
    """ICLR 2023 (API v1) decided "Accept: notable-top-5%" for its orals and
    "Accept: notable-top-25%" for its spotlights, its notes' venue "ICLR 2023 notable top 5%":
    read as Oral and Spotlight, whether the decision or only the venue says it."""
    found, _ = services
    made = _made(4, seed=22)
    words = ("notable-top-5%", "notable-top-25%", "poster", "notable-top-5%")
    for paper, word in zip(made, words, strict=True):
        paper.decision = f"Accept: {word}"
        paper.presentation = word.replace("-", " ")
    venue = shapes.v1_venue(made, ICLR23)
    last = venue.notes[3]["id"]
    venue.replies[last] = [r for r in venue.replies[last] if "decision" not in r["content"]]
    found.v1[ICLR23] = venue
    done = papers(env, "fetch", "iclr2023")
    assert done.returncode == 0 and "4 added" in done.stdout, done.stdout + done.stderr
    statuses = {p["title"]: p["venue_status"] for p in _listed(env)}
    assert [statuses[m.title] for m in made] == ["Oral", "Spotlight", "Poster", "Oral"]


def test_a_confidence_without_a_rating_is_not_in_the_mean(services, env) -> None:
    """The mean confidence says how sure the reviewers who scored the paper were: a review
    that gave a confidence but no rating (its form had none, a placeholder) scores nothing."""
    found, _ = services
    made = _made(1, seed=22)
    made[0].ratings, made[0].confidences = [6, 8, 4], [2, 2, 5]
    venue = shapes.v2_venue(made, ICLR25)
    [note] = venue.notes
    del venue.replies[note["id"]][2]["content"]["rating"]
    found.v2[ICLR25] = venue
    done = papers(env, "fetch", "iclr2025", "--reviews")
    assert done.returncode == 0, done.stderr
    [paper] = _listed(env)
    assert paper["extra"]["ratings"] == "6, 8" and paper["extra"]["rating"] == 7.0
    assert paper["extra"]["confidence"] == 2.0


def test_hidden_authors_are_no_authors(services, env) -> None:
    """v1 gives a withdrawn submission whose authors were never revealed the author
    "Anonymous": the paper is stored with no authors, not with a person called Anonymous."""
    found, _ = services
    made = _made(2, seed=23) + _made(2, "Withdrawn_Submission", seed=24)
    found.v1[ICLR23] = shapes.v1_venue(made, ICLR23)
    done = papers(env, "fetch", "iclr2023", "--all")
    assert done.returncode == 0, done.stderr
    authors = {p["title"]: p["authors"] for p in _listed(env)}
    assert authors[made[2].title] == [] and authors[made[3].title] == []
    assert authors[made[0].title] == made[0].authors


def test_a_workshop_is_a_list_of_its_own(services, env) -> None:
    """A workshop fetched with its main conference lands in a list that names it, so that
    ``papers remove --list`` of the conference leaves the workshop's papers."""
    found, _ = services
    iclr24, workshop = "ICLR.cc/2024/Conference", "ICLR.cc/2024/Workshop/ME-FoMo"
    main, small = _made(3, seed=25), _made(2, seed=26)
    found.v2[iclr24] = shapes.v2_venue(main, iclr24)
    found.v2[workshop] = shapes.v2_venue(small, workshop)
    done = papers(env, "fetch", "iclr2024", f"openreview:{workshop}")
    assert done.returncode == 0, done.stderr
    assert "ICLR 2024 Workshop ME-FoMo (OpenReview)" in done.stdout, done.stdout
    lists = {p["title"]: p["list"] for p in _listed(env)}
    assert {lists[m.title] for m in small} == {"ICLR 2024 Workshop ME-FoMo (OpenReview)"}
    assert {lists[m.title] for m in main} == {"ICLR 2024 (OpenReview)"}
    # the workshop's papers are not the conference's ("ME-FoMo 2024 Poster" in their notes
    # and the list's name "ICLR 2024 …" made them ICLR 2024's, cited in its proceedings)
    venues = {p["title"]: (p["venue"], p["venue_status"]) for p in _listed(env)}
    assert {venues[m.title] for m in small} == {("ICLR 2024 Workshop ME-FoMo", "Poster")}
    assert {venues[m.title][0] for m in main} == {"ICLR 2024"}
    done = papers(env, "export", "--status", "all", "--format", "bibtex")
    entries = done.stdout.split("\n@")
    for made in small:
        [entry] = [e for e in entries if made.title in e]
        assert "booktitle = {ICLR 2024 Workshop ME-FoMo}" in entry, entry
    done = papers(env, "remove", "--list", "ICLR 2024 (OpenReview)")
    assert done.returncode == 0, done.stderr
    assert sorted(p["title"] for p in _listed(env)) == sorted(m.title for m in small)


def _tmlr(found: Services) -> list[shapes.Made]:
    fates = ["", "Under_Review", "Decision_Pending", "Rejected", "Rejected"]
    made = [_made(1, fate, seed=30 + i)[0] for i, fate in enumerate(fates)]
    made += _made(1, "Withdrawn_Submission", seed=40)
    found.v2["TMLR"] = shapes.journal_venue(made, year=2023)
    return made


def test_tmlr_all_brings_every_submission_of_the_journal(services, env) -> None:
    """TMLR, a journal: its group names only its under-review and decision-pending venue ids;
    its rejected, withdrawn and desk-rejected papers are under ``TMLR/Rejected``,
    ``TMLR/Withdrawn_Submission``, ``TMLR/Desk_Rejected`` (openreview-py's Journal)."""
    found, _ = services
    made = _tmlr(found)
    done = papers(env, "fetch", "openreview:TMLR", "--all")
    assert done.returncode == 0, done.stderr
    assert "6 added" in done.stdout and "TMLR (OpenReview)" in done.stdout, done.stdout
    listed = {p["title"]: p for p in _listed(env)}
    statuses = [listed[m.title]["venue_status"] for m in made]
    assert statuses == [  # "Accepted by TMLR" names no presentation: Accepted
        "Accepted", "Under review", "Decision pending", "Rejected", "Rejected", "Withdrawn",
    ]  # fmt: skip
    asked = {r.query.get("content.venueid") for r in found.requests_to("/or2/notes")}
    assert {"TMLR/Desk_Rejected", "TMLR/Withdrawn_Submission", "TMLR/Under_Review"} <= asked


def test_a_journal_paper_takes_its_year_from_the_note(services, env) -> None:
    """TMLR's venue ("Accepted by TMLR") names no year: a published paper's is its
    publication date's (``pdate``); one without (under review, rejected) takes its BibTeX's,
    else when it went public (``odate``), else when it was made (``cdate``). A venue that
    names its year keeps it (ICLR 2018's notes, submitted in 2017, say no venue at all)."""
    found, _ = services
    made = _tmlr(found)
    note = found.v2["TMLR"].notes[1]  # under review: no pdate, BibTeX and dates of 2023
    bibtex = note["content"].pop("_bibtex")["value"]
    assert "year={2023}" in bibtex and "pdate" not in note
    rejected = found.v2["TMLR"].notes[3]["content"]["_bibtex"]  # decided the next year
    rejected["value"] = rejected["value"].replace("year={2023}", "year={2024}")
    done = papers(env, "fetch", "openreview:TMLR", "--all")
    assert done.returncode == 0, done.stderr
    listed = {p["title"]: p for p in _listed(env)}
    assert listed[made[0].title]["venue"] == "TMLR 2024"  # published in 2024
    assert listed[made[3].title]["venue"] == "TMLR 2024"  # its BibTeX's, not its odate's
    assert {listed[m.title]["venue"] for m in made[1:3] + made[4:]} == {"TMLR 2023"}
    hits = papers(env, "search", "year:2024", "--json")
    assert sorted(h["title"] for h in json.loads(hits.stdout)) == sorted(
        [made[0].title, made[3].title]
    )

    iclr18 = "ICLR.cc/2018/Conference"
    old = shapes.v1_venue(_made(1, seed=41), iclr18)
    for note in old.notes:  # made in 2017 (cdate), no venue: the venue id says 2018
        del note["content"]["venue"], note["content"]["venueid"]
        note["cdate"] = note["tcdate"] = 1508000000000
    found.v1[iclr18] = old
    assert papers(env, "fetch", "iclr2018").returncode == 0
    assert {p["venue"] for p in _listed(env) if p["list"].startswith("ICLR")} == {"ICLR 2018"}
