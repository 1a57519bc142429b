"""What ``papers fetch --all`` (every submission with its decision) says of a paper fetched
before as accepted that is now withdrawn, or that OpenReview no longer lists at all: the
rules of ``storage.importing.departed``, its guard against broken answers included."""

from __future__ import annotations

import json

import pytest

from tests.fetch import shapes
from tests.fetch.conftest import papers
from tests.fetch.services import Fault, Services

ICLR22 = "ICLR.cc/2022/Conference"
ICLR25 = "ICLR.cc/2025/Conference"


def _statuses(env: dict[str, str]) -> dict[str, str]:
    done = papers(env, "list", "--json")
    assert done.returncode == 0, done.stderr
    return {p["title"]: p["venue_status"] for p in json.loads(done.stdout)}


def _gone_and_withdrawn(found: Services, version: int, made: list[shapes.Made]) -> None:
    """Serve the venue of ``version`` with ``made[1]`` withdrawn and ``made[0]`` on no page."""
    made[1].fate = "Withdrawn_Submission"
    if version == 2:
        found.v2[ICLR25] = shapes.v2_venue(made[1:], ICLR25)
    else:
        found.v1[ICLR22] = shapes.v1_venue(made[1:], ICLR22)


@pytest.mark.parametrize("version", [2, 1])
def test_all_marks_an_accepted_paper_no_longer_listed_and_gives_a_withdrawn_one_its_fate(
    services: tuple[Services, str], env, version: int
) -> None:
    """10 accepted papers fetched; then one is withdrawn and another is on no page at all.
    ``--all --refresh``: the withdrawn one is Withdrawn; the one no longer listed kept a
    stale "Poster". It now says it left the accepted list, with one line, the user's star
    kept, as a refresh of the accepted papers says it."""
    found, _ = services
    made = shapes.made_up(10, seed=74, fate="")
    iclr = "iclr2025" if version == 2 else f"openreview:{ICLR22}"
    if version == 2:
        found.v2[ICLR25] = shapes.v2_venue(made, ICLR25)
    else:
        found.v1[ICLR22] = shapes.v1_venue(made, ICLR22)
    done = papers(env, "fetch", iclr)
    assert done.returncode == 0 and "10 added" in done.stdout, done.stdout + done.stderr
    listed = json.loads(papers(env, "list", "--json").stdout)
    [mine] = [p["id"] for p in listed if p["title"] == made[0].title]
    assert papers(env, "mark", mine, "starred").returncode == 0
    _gone_and_withdrawn(found, version, made)
    done = papers(env, "fetch", iclr, "--all", "--refresh")
    assert done.returncode == 0, done.stderr
    statuses = _statuses(env)
    assert statuses[made[1].title] == "Withdrawn"
    assert statuses[made[0].title] == "Left the accepted list (was Poster)", done.stderr
    assert {statuses[m.title] for m in made[2:]} == {"Poster"}
    [line] = [line for line in done.stderr.splitlines() if "1 paper of" in line]
    assert "no longer" in line, line
    assert [p["status"] for p in json.loads(papers(env, "list", "--json").stdout)
            if p["id"] == mine] == ["starred"]  # fmt: skip


def test_all_with_an_empty_page_of_accepted_papers_marks_nothing(
    services: tuple[Services, str], env
) -> None:
    """Four accepted papers fetched; ``--all`` while the page of accepted papers comes back
    empty and the others are still under review: no accepted paper is marked as gone (four
    are fewer than the guard against a broken answer counts)."""
    found, _ = services
    made = shapes.made_up(4, seed=75, fate="") + shapes.made_up(3, seed=76, fate="Submission")
    found.v2[ICLR25] = shapes.v2_venue(made, ICLR25)
    assert papers(env, "fetch", "iclr2025").returncode == 0
    found.faults.append(Fault("/or2/notes", "body", body=b'{"notes": [], "count": 0}'))
    done = papers(env, "fetch", "iclr2025", "--all", "--refresh")
    assert done.returncode == 0, done.stderr
    assert "no longer among" not in done.stderr, done.stderr
    [line] = [line for line in done.stderr.splitlines() if "4 papers of 4" in line]
    assert "none of them as accepted" in line and "not marked" in line, line
    statuses = _statuses(env)
    assert {statuses[m.title] for m in made[:4]} == {"Poster"}, done.stderr
    assert {statuses[m.title] for m in made[4:]} == {"Under review"}


def test_all_missing_most_of_the_accepted_papers_marks_none(
    services: tuple[Services, str], env
) -> None:
    """``--all`` that lost most of the accepted papers at once: a broken answer, not so many
    withdrawals (departed.py's guard), as without ``--all``."""
    found, _ = services
    made = shapes.made_up(20, seed=77, fate="")
    found.v2[ICLR25] = shapes.v2_venue(made, ICLR25)
    assert papers(env, "fetch", "iclr2025").returncode == 0
    found.v2[ICLR25] = shapes.v2_venue(made[:5], ICLR25)
    done = papers(env, "fetch", "iclr2025", "--all", "--refresh")
    assert done.returncode == 0, done.stderr
    assert "15 papers" in done.stderr and "not marked" in done.stderr, done.stderr
    assert set(_statuses(env).values()) == {"Poster"}


#: OpenReview's answer to notes an account may not read (its ``ForbiddenError``).
_FORBIDDEN = b'{"name": "ForbiddenError", "message": "You do not have permission to read"}'


@pytest.mark.parametrize("version", [2, 1])
def test_all_keeps_what_came_when_the_withdrawn_papers_are_forbidden(
    services: tuple[Services, str], env, version: int
) -> None:
    """A venue that shows its withdrawn and desk-rejected submissions to some accounts only:
    ``--all`` is answered 403 for them. The whole fetch failed on it ("HTTP 403 Forbidden"),
    the accepted and rejected papers that came with it lost. Now they are imported, one line
    says which part could not be read and that the user may not have access, and the exit is
    1 (it exited 0, as if --all had brought every submission; as a folder's import with a file
    not read: the rest imported, what failed named, exit 1). A paper
    accepted before and withdrawn since, which the part forbidden would have shown, left the
    accepted papers; it is not said to be on no page of the submissions, which were not all
    read."""
    found, _ = services
    made = shapes.made_up(4, seed=78, fate="") + shapes.made_up(1, seed=79)
    made += shapes.made_up(1, seed=80, fate="Desk_Rejected_Submission")
    venue_id, iclr = (ICLR25, "iclr2025") if version == 2 else (ICLR22, f"openreview:{ICLR22}")
    serve = shapes.v2_venue if version == 2 else shapes.v1_venue
    stand_in = found.v2 if version == 2 else found.v1
    stand_in[venue_id] = serve(made, venue_id)
    assert papers(env, "fetch", iclr).returncode == 0
    made[0].fate = "Withdrawn_Submission"
    stand_in[venue_id] = serve(made, venue_id)
    for gone in ("Withdrawn_Submission", "Desk_Rejected_Submission"):
        asked = {"content.venueid": f"{venue_id}/{gone}"}
        if version == 1:
            asked = {"invitation": f"{venue_id}/-/{gone}"}
        found.faults.append(
            Fault(f"/or{version}/notes", "status", status=403, body=_FORBIDDEN, times=9,
                  params=asked)
        )  # fmt: skip
    done = papers(env, "fetch", iclr, "--all", "--refresh")
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    forbidden = [line for line in done.stderr.splitlines() if "403" in line]
    assert len(forbidden) == 1, done.stderr
    assert "withdrawn and desk rejected submissions" in forbidden[0], forbidden
    assert "may not have access" in forbidden[0], forbidden
    statuses = _statuses(env)
    assert [statuses[m.title] for m in made[1:5]] == ["Poster"] * 3 + ["Rejected"]
    assert made[5].title not in statuses  # (the desk-rejected paper's part was forbidden)
    assert statuses[made[0].title] == "Left the accepted list (was Poster)", done.stderr
    assert "nor among its other submissions" not in done.stderr, done.stderr
    # the user ran --all: its line does not send them to --all for the decision it lacked
    [left] = [line for line in done.stderr.splitlines() if "no longer among" in line]
    assert "--all shows" not in left, left
    assert "decision could not be read" in left, left
    assert "withdrawn and desk rejected submissions were refused" in left, left


def test_a_part_refused_after_its_first_page_leaves_no_note_seen(
    services: tuple[Services, str], env
) -> None:
    """The withdrawn submissions' first page came, then OpenReview refused the next (403): the
    part was left out, but its notes stayed "seen", so one of them that a later part lists
    (its venue id moved back to the submissions while the fetch paged) was skipped there too
    and imported by neither. The part refused now leaves nothing behind: it comes, under
    review, with the part that lists it."""
    found, _ = services
    made = shapes.made_up(2, seed=81, fate="") + shapes.made_up(1, seed=82, fate="Submission")
    found.v2[ICLR25] = shapes.v2_venue(made, ICLR25)
    withdrawn = {"content.venueid": f"{ICLR25}/Withdrawn_Submission"}
    page = {"notes": [shapes.v2_note(made[2], ICLR25, 3)], "count": 2}
    found.faults += [
        Fault("/or2/notes", "body", body=json.dumps(page).encode(), params=withdrawn),
        Fault("/or2/notes", "status", status=403, body=_FORBIDDEN, times=9, params=withdrawn),
    ]
    done = papers(env, "fetch", "iclr2025", "--all")
    assert done.returncode == 1  # (the part refused), done.stderr
    assert "refused the withdrawn submissions" in done.stderr, done.stderr
    statuses = _statuses(env)
    assert statuses.get(made[2].title) == "Under review", (statuses, done.stderr)
    assert [statuses[m.title] for m in made[:2]] == ["Poster"] * 2


def test_all_with_an_empty_page_of_accepted_papers_and_a_part_refused_marks_nothing(
    services: tuple[Services, str], env
) -> None:
    """``--all`` whose page of accepted papers came back empty while OpenReview refused its
    withdrawn submissions (403): the guard against an empty page of them held only when every
    part was read, so the four accepted papers (fewer than a broken answer's count) were all
    marked as having left the accepted list, their decision said to be unreadable. They are
    kept as they were, a line saying the fetch brought none of them as accepted."""
    found, _ = services
    made = shapes.made_up(4, seed=83, fate="") + shapes.made_up(3, seed=84, fate="Submission")
    found.v2[ICLR25] = shapes.v2_venue(made, ICLR25)
    assert papers(env, "fetch", "iclr2025").returncode == 0
    empty = b'{"notes": [], "count": 0}'
    withdrawn = {"content.venueid": f"{ICLR25}/Withdrawn_Submission"}
    found.faults += [
        Fault("/or2/notes", "body", body=empty, params={"content.venueid": ICLR25}),
        Fault("/or2/notes", "status", status=403, body=_FORBIDDEN, times=9, params=withdrawn),
    ]
    done = papers(env, "fetch", "iclr2025", "--all", "--refresh")
    assert done.returncode == 1  # (the part refused), done.stderr
    assert "refused the withdrawn submissions" in done.stderr, done.stderr
    assert "no longer among" not in done.stderr, done.stderr
    [line] = [line for line in done.stderr.splitlines() if "4 papers of 4" in line]
    assert "none of them as accepted" in line and "not marked" in line, line
    assert "--all shows" not in line, line
    statuses = _statuses(env)
    assert {statuses[m.title] for m in made[:4]} == {"Poster"}, done.stderr
    assert {statuses[m.title] for m in made[4:]} == {"Under review"}
