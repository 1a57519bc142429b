"""The words of a decision, read the same whichever path gave them (API v1 or v2, a note's
venue or its decision reply, the accepted papers or a submission ``--all`` finds still under
review): a bare "Accept" is Accepted, a track a venue accepts to (ARR's Findings) is kept."""

from __future__ import annotations

import json
from typing import Any

from tests.fetch import shapes
from tests.fetch.conftest import papers
from tests.fetch.services import Services, Venue

ICLR25 = "ICLR.cc/2025/Conference"


def _statuses(env: dict[str, str]) -> dict[str, str]:
    done = papers(env, "list", "--json")
    assert done.returncode == 0, done.stderr
    return {p["title"]: p["venue_status"] for p in json.loads(done.stdout)}


def _accepted(env: dict[str, str]) -> set[str]:
    done = papers(env, "search", "status:accepted", "--json", "--limit", "100")
    assert done.returncode == 0, done.stderr
    return {p["title"] for p in json.loads(done.stdout)}


def _decide(venue: Venue, note: dict[str, Any], decision: str) -> None:
    """Post ``decision`` as the note's decision reply (v2), in place of any it had."""
    replies = venue.replies[note["id"]]
    replies[:] = [r for r in replies if not any("/-/Decision" in i for i in r["invitations"])]
    replies.append(
        {
            "id": shapes.note_id(note["id"] + "-decision"),
            "forum": note["id"],
            "replyto": note["id"],
            "invitations": [f"{note['domain']}/Submission{note['number']}/-/Decision"],
            "content": {"decision": {"value": decision}},
        }
    )


def test_a_bare_accept_reply_to_a_submission_under_review_is_accepted(
    services: tuple[Services, str], env
) -> None:
    """``--all --reviews`` between the decisions and the venue ids' move: a submission still
    at ``…/Submission`` (Under review) or a journal's ``Decision_Pending`` whose decision reply
    says a bare "Accept" was stored as "Accept", where the same decision on an accepted note
    that names no venue is Accepted. Both are Accepted now, and ``status:accepted`` finds
    them."""
    found, _ = services
    made = shapes.made_up(2, seed=301, fate="Submission")
    made += shapes.made_up(1, seed=302, fate="")
    venue = shapes.v2_venue(made, ICLR25)
    del venue.notes[2]["content"]["venue"]
    for note in venue.notes:
        _decide(venue, note, "Accept")
    _decide(venue, venue.notes[1], "accept")
    found.v2[ICLR25] = venue
    done = papers(env, "fetch", "iclr2025", "--all", "--reviews")
    assert done.returncode == 0, done.stderr
    statuses = _statuses(env)
    assert [statuses[m.title] for m in made] == ["Accepted", "Accepted", "Accepted"]
    assert _accepted(env) == {m.title for m in made}


def test_a_journal_s_acceptance_awaiting_its_venue_id_is_accepted(
    services: tuple[Services, str], env
) -> None:
    """TMLR (a journal of API v2) states its decision as the decision reply's
    ``recommendation``: "Accept with minor revision" on a paper still at
    ``TMLR/Decision_Pending`` was stored as written; it is Accepted now, as the paper is once
    its venue id moves. A "Reject" there is Rejected; one without a decision is pending."""
    found, _ = services
    made = shapes.made_up(3, seed=308, fate="Decision_Pending")
    venue = shapes.journal_venue(made)
    for note, said in zip(venue.notes, ("Accept with minor revision", "Reject"), strict=False):
        venue.replies[note["id"]] = [
            {
                "id": shapes.note_id(note["id"] + "-decision"),
                "forum": note["id"],
                "replyto": note["id"],
                "invitations": [f"TMLR/Paper{note['number']}/-/Decision"],
                "content": {"recommendation": {"value": said}, "comment": {"value": "Thanks."}},
            }
        ]
    found.v2["TMLR"] = venue
    done = papers(env, "fetch", "openreview:TMLR", "--all", "--reviews")
    assert done.returncode == 0, done.stderr
    statuses = _statuses(env)
    assert [statuses[m.title] for m in made] == ["Accepted", "Rejected", "Decision pending"]
    assert _accepted(env) == {made[0].title}


EMNLP23 = "EMNLP/2023/Conference"
ACL22 = "aclweb.org/ACL/2022/Conference"


def _stats_by_status(env: dict[str, str]) -> dict[str, int]:
    done = papers(env, "stats", "--json")
    assert done.returncode == 0, done.stderr
    counts = json.loads(done.stdout)["by_venue_status"]
    return {name: sum(by.values()) for name, by in counts.items()}


def test_the_track_an_arr_venue_accepts_to_is_kept_on_every_path(
    services: tuple[Services, str], env
) -> None:
    """EMNLP 2023 on API v2: its notes say ``EMNLP 2023 Findings`` or ``EMNLP 2023 Main``, its
    decisions ``Accept-Findings`` or ``Accept-Main`` (other venues "Accept (Findings)", "Accept
    to Findings", "Accept (Main)"). Each was "Accepted" (the venue's track, a decision's on an
    accepted note that names no venue) or kept as written ("Accept-Findings" on a submission
    still under review). Each is now the track it names, ``Findings`` or ``Main``, and counted
    as accepted: ``status:accepted`` finds them, ``papers stats`` counts them per track; a
    "Conditional Accept" is Accepted, a rejection Rejected."""
    found, _ = services
    made = shapes.made_up(6, seed=303, fate="")
    made += shapes.made_up(4, seed=304, fate="Submission")
    made += shapes.made_up(1, seed=305, fate="Rejected_Submission")
    venue = shapes.v2_venue(made, EMNLP23)
    venue.notes[0]["content"]["venue"] = {"value": "EMNLP 2023 Findings"}
    venue.notes[1]["content"]["venue"] = {"value": "EMNLP 2023 Main"}
    decisions = {
        0: "Accept-Findings",
        1: "Accept-Main",
        2: "Accept-Findings",
        3: "Accept (Main)",
        4: "Accept to Findings",
        5: "Conditional Accept",
        6: "Accept-Findings",
        7: "Accept (Findings)",
        8: "Accept-Main",
        9: "Accept (Journal track)",
    }
    for n, decision in decisions.items():
        if 2 <= n < 6:
            del venue.notes[n]["content"]["venue"]
        _decide(venue, venue.notes[n], decision)
    found.v2[EMNLP23] = venue
    done = papers(env, "fetch", f"openreview:{EMNLP23}", "--all", "--reviews")
    assert done.returncode == 0, done.stderr
    statuses = _statuses(env)
    assert [statuses[m.title] for m in made] == [
        "Findings", "Main", "Findings", "Main", "Findings", "Accepted",
        "Findings", "Findings", "Main", "Journal", "Rejected",
    ]  # fmt: skip
    assert _accepted(env) == {m.title for m in made[:10]}
    counted = _stats_by_status(env)
    assert (counted["Findings"], counted["Main"], counted["Rejected"]) == (5, 3, 1), counted
    assert "Accept-Findings" not in counted and "Accept (Findings)" not in counted


def test_acl_2022_s_numbered_decisions_on_api_v1_name_their_track(
    services: tuple[Services, str], env
) -> None:
    """ACL 2022 on API v1 decided "1 - Accept to main conference", "2 - Accept to findings"
    or "3 - Reject" (its decision invitation's options), its notes' venue not updated: the
    accepted were all "Accepted". They are ``Main`` and ``Findings`` now; the rejected stays
    Rejected and out of the accepted papers."""
    found, _ = services
    made = shapes.made_up(3, seed=306, fate="")
    for paper, decision in zip(
        made, ("1 - Accept to main conference", "2 - Accept to findings", "3 - Reject"), strict=True
    ):
        paper.decision = decision
    venue = shapes.v1_venue(made, ACL22)
    for note in venue.notes:
        note["content"]["venue"] = "Submitted to ACL 2022"
    found.v1[ACL22] = venue
    done = papers(env, "fetch", f"openreview:{ACL22}")
    assert done.returncode == 0, done.stderr
    assert "2 added" in done.stdout, done.stdout
    done = papers(env, "fetch", f"openreview:{ACL22}", "--all")
    assert done.returncode == 0, done.stderr
    statuses = _statuses(env)
    assert [statuses[m.title] for m in made] == ["Main", "Findings", "Rejected"]
    assert _accepted(env) == {made[0].title, made[1].title}


def test_a_v1_decision_that_names_no_presentation_keeps_the_venue_s(
    services: tuple[Services, str], env
) -> None:
    """API v1: a note whose venue says "NeurIPS 2021 Poster" and whose decision a bare
    "Accept" was stored as "Accept" (the decision read over the venue); it is the venue's
    Poster now. A decision naming a presentation still gives it over the venue's."""
    found, _ = services
    neurips21 = "NeurIPS.cc/2021/Conference"
    made = shapes.made_up(2, seed=307, fate="")
    made[0].decision, made[1].decision = "Accept", "Accept (Oral)"
    venue = shapes.v1_venue(made, neurips21)
    for note in venue.notes:
        note["content"]["venue"] = "NeurIPS 2021 Poster"
    found.v1[neurips21] = venue
    done = papers(env, "fetch", f"openreview:{neurips21}")
    assert done.returncode == 0, done.stderr
    statuses = _statuses(env)
    assert [statuses[m.title] for m in made] == ["Poster", "Oral"]


def test_a_v1_decision_that_says_not_accepted_is_no_acceptance(
    services: tuple[Services, str], env
) -> None:
    """API v1 took any decision holding "accept" for an acceptance: a venue deciding "Not
    accepted" (or "Cannot accept") had those papers fetched among the accepted ones."""
    found, _ = services
    midl = "MIDL.io/2020/Conference"
    made = shapes.made_up(3, seed=308, fate="")
    decisions = ("Accept", "Not accepted", "Cannot accept in this form")
    for paper, decision in zip(made, decisions, strict=True):
        paper.decision = decision
    venue = shapes.v1_venue(made, midl)
    for note in venue.notes:
        note["content"]["venue"] = "Submitted to MIDL 2020"
    found.v1[midl] = venue
    done = papers(env, "fetch", f"openreview:{midl}")
    assert done.returncode == 0, done.stderr
    assert "1 added" in done.stdout, done.stdout
    assert _accepted(env) == {made[0].title}
