"""The decision a submission's replies state, where its note does not say it: an accepted note
of API v2 without a ``venue`` (or an empty one), a submission still under review whose
decision is out, the decision named ``recommendation`` or posted as a meta review's
``decision``; and what a withdrawn or desk-rejected venue id says over any decision."""

from __future__ import annotations

import json
from typing import Any

from tests.fetch import shapes
from tests.fetch.conftest import papers
from tests.fetch.services import Services, Venue

ICLR25 = "ICLR.cc/2025/Conference"
ICLR22 = "ICLR.cc/2022/Conference"


def _statuses(env: dict[str, str]) -> dict[str, str]:
    done = papers(env, "list", "--json")
    assert done.returncode == 0, done.stderr
    return {p["title"]: p["venue_status"] for p in json.loads(done.stdout)}


def _decision_of(venue: Venue, note: dict[str, Any]) -> dict[str, Any]:
    [reply] = [
        r for r in venue.replies[note["id"]] if any("/-/Decision" in i for i in r["invitations"])
    ]
    return reply


def test_an_accepted_v2_note_without_a_venue_takes_its_decision(
    services: tuple[Services, str], env
) -> None:
    """Three accepted notes: one without ``venue``, one with an empty one, one "Submitted to"
    (not yet updated): their decision replies ("Accept (oral)", "Accept (spotlight)",
    "Accept (poster)") say Oral, Spotlight and Poster, as the venue would."""
    found, _ = services
    made = shapes.made_up(4, seed=41, fate="")
    for paper, presentation in zip(made, ("Oral", "Spotlight", "Poster", "Poster"), strict=True):
        paper.presentation = presentation
    venue = shapes.v2_venue(made, ICLR25)
    del venue.notes[0]["content"]["venue"]
    venue.notes[1]["content"]["venue"] = {"value": ""}
    venue.notes[2]["content"]["venue"] = {"value": "Submitted to ICLR 2025"}
    found.v2[ICLR25] = venue
    done = papers(env, "fetch", "iclr2025", "--reviews")
    assert done.returncode == 0, done.stderr
    assert "4 added" in done.stdout, done.stdout
    statuses = _statuses(env)
    assert [statuses[m.title] for m in made] == ["Oral", "Spotlight", "Poster", "Poster"]
    listed = json.loads(papers(env, "list", "--json").stdout)
    assert {p["venue"] for p in listed} == {"ICLR 2025"}  # the year is kept without a venue


def test_decisions_named_either_way_in_both_apis(services: tuple[Services, str], env) -> None:
    """A decision form whose field is ``recommendation``, a meta review that states the
    ``decision`` (no decision reply): read as decisions, v2's ``{"value": …}`` and v1's plain
    values alike."""
    found, _ = services
    made = shapes.made_up(2, seed=42, fate="")
    made[0].presentation, made[1].presentation = "Oral", "Spotlight"
    venue = shapes.v2_venue(made, ICLR25)
    for note in venue.notes:
        del note["content"]["venue"]
    first = _decision_of(venue, venue.notes[0])
    first["content"] = {"recommendation": first["content"]["decision"]}
    second = _decision_of(venue, venue.notes[1])
    second["invitations"] = [
        i.replace("/-/Decision", "/-/Meta_Review") for i in second["invitations"]
    ]
    second["content"] = {
        "metareview": {"value": "A fine paper."},
        "decision": second["content"]["decision"],
    }
    found.v2[ICLR25] = venue
    done = papers(env, "fetch", "iclr2025", "--reviews")
    assert done.returncode == 0, done.stderr
    statuses = _statuses(env)
    assert [statuses[m.title] for m in made] == ["Oral", "Spotlight"]

    old = shapes.v1_venue(shapes.made_up(2, seed=43, fate=""), ICLR22)
    for note, decision in zip(old.notes, ("Accept (Oral)", "Reject"), strict=True):
        del note["content"]["venue"], note["content"]["venueid"]
        for reply in old.replies[note["id"]]:
            if reply["invitation"].endswith("/-/Decision"):
                reply["invitation"] = reply["invitation"].replace("/-/Decision", "/-/Meta_Review")
                reply["content"] = {"metareview": "Fine.", "decision": decision}
    found.v1[ICLR22] = old
    done = papers(env, "fetch", f"openreview:{ICLR22}", "--all")
    assert done.returncode == 0, done.stderr
    titles = [n["content"]["title"] for n in old.notes]
    statuses = _statuses(env)
    assert [statuses[t] for t in titles] == ["Oral", "Rejected"]


def test_a_decision_out_before_the_venue_id_moves_is_the_status(
    services: tuple[Services, str], env
) -> None:
    """``--all --reviews`` in the hours between the decisions and the venue ids' update: a
    submission still at ``…/Submission`` whose decision reply says "Accept (poster)" is a
    Poster, one that says "Reject" is Rejected, one without a decision is Under review; a
    withdrawn submission stays Withdrawn whatever decision it had."""
    found, _ = services
    made = shapes.made_up(3, seed=44, fate="Submission")
    made += shapes.made_up(1, seed=45, fate="Withdrawn_Submission")
    venue = shapes.v2_venue(made, ICLR25)
    decisions = ("Accept (poster)", "Reject", None, "Accept (oral)")
    for note, decision in zip(venue.notes, decisions, strict=True):
        if decision is not None:
            venue.replies[note["id"]].append(
                {
                    "id": shapes.note_id(note["id"] + "-decision"),
                    "forum": note["id"],
                    "replyto": note["id"],
                    "invitations": [f"{ICLR25}/Submission{note['number']}/-/Decision"],
                    "content": {"decision": {"value": decision}},
                }
            )
    found.v2[ICLR25] = venue
    done = papers(env, "fetch", "iclr2025", "--all", "--reviews")
    assert done.returncode == 0, done.stderr
    statuses = _statuses(env)
    assert [statuses[m.title] for m in made] == ["Poster", "Rejected", "Under review", "Withdrawn"]


def test_a_v1_paper_accepted_then_withdrawn_is_withdrawn(
    services: tuple[Services, str], env
) -> None:
    """A v1 submission whose decision accepted it and whose venue id then moved to
    ``…/Withdrawn_Submission`` (or ``…/Desk_Rejected_Submission``) is no accepted paper."""
    found, _ = services
    made = shapes.made_up(3, seed=46, fate="")
    venue = shapes.v1_venue(made, ICLR22)
    venue.notes[1]["content"]["venueid"] = f"{ICLR22}/Withdrawn_Submission"
    venue.notes[2]["content"]["venueid"] = f"{ICLR22}/Desk_Rejected_Submission"
    found.v1[ICLR22] = venue
    done = papers(env, "fetch", f"openreview:{ICLR22}")
    assert done.returncode == 0, done.stderr
    assert "1 added" in done.stdout, done.stdout
    done = papers(env, "fetch", f"openreview:{ICLR22}", "--all")
    assert done.returncode == 0, done.stderr
    statuses = _statuses(env)
    assert [statuses[m.title] for m in made] == ["Poster", "Withdrawn", "Desk rejected"]


def test_an_accepted_v2_note_without_a_venue_is_accepted_without_reviews(
    services: tuple[Services, str], env
) -> None:
    """Without ``--reviews`` no decision reply is read: a note of the accepted papers that
    names no venue is still accepted (not left without a status), and the fetch says how
    many are so, and that ``--reviews`` would say oral or poster."""
    found, _ = services
    made = shapes.made_up(3, seed=43, fate="")
    for paper in made:
        paper.presentation = "Poster"
    venue = shapes.v2_venue(made, ICLR25)
    del venue.notes[0]["content"]["venue"]
    venue.notes[1]["content"]["venue"] = {"value": ""}
    found.v2[ICLR25] = venue
    done = papers(env, "fetch", "iclr2025")
    assert done.returncode == 0, done.stderr
    assert "3 added" in done.stdout, done.stdout
    statuses = _statuses(env)
    assert [statuses[m.title] for m in made] == ["Accepted", "Accepted", "Poster"]
    said = done.stdout + done.stderr
    assert "2 accepted paper(s) of ICLR.cc/2025/Conference name no venue" in said, said
    assert "--reviews reads their decisions" in said, said


def test_an_accepted_v2_note_without_a_venue_shows_the_venue_s_name(
    services: tuple[Services, str], env
) -> None:
    """A venue whose name papers-tui does not know (Learning on Graphs,
    ``logconference.io/LOG/2024/Conference``): an accepted note without ``venue`` was shown
    at its venue id, as the reader falls back to the ``venueid``. It is now at the name the
    venue's group gives (its ``subtitle``, the short name openreview-py's venue writes there
    and starts each note's venue with), else the group's title."""
    found, _ = services
    log24 = "logconference.io/LOG/2024/Conference"
    made = shapes.made_up(2, seed=47, fate="")
    venue = shapes.v2_venue(made, log24)
    venue.group["content"]["subtitle"] = {"value": "LoG 2024"}
    venue.group["content"]["title"] = {"value": "The Third Learning on Graphs Conference"}
    del venue.notes[0]["content"]["venue"]
    venue.notes[1]["content"]["venue"] = {"value": "LoG 2024 Poster"}
    found.v2[log24] = venue
    done = papers(env, "fetch", f"openreview:{log24}")
    assert done.returncode == 0 and "2 added" in done.stdout, done.stdout + done.stderr
    listed = {p["title"]: p for p in json.loads(papers(env, "list", "--json").stdout)}
    assert [listed[m.title]["venue"] for m in made] == ["LoG 2024", "LoG 2024 Poster"]
    del venue.group["content"]["subtitle"]
    done = papers(env, "fetch", f"openreview:{log24}", "--refresh")
    assert done.returncode == 0, done.stdout + done.stderr
    listed = {p["title"]: p for p in json.loads(papers(env, "list", "--json").stdout)}
    assert listed[made[0].title]["venue"] == "The Third Learning on Graphs Conference"


def test_all_s_rejected_and_withdrawn_notes_without_a_venue_show_the_venue_s_name(
    services: tuple[Services, str], env
) -> None:
    """``--all``'s rejected and withdrawn notes that carry no ``venue`` were shown at their
    venue id (``logconference.io/LOG/2024/Conference/Rejected_Submission``), the reader falling
    back to the ``venueid``, while the accepted ones took the venue's name. They take it as
    the accepted do (the group's subtitle, else the known name, else the group's title); a
    note that says "Submitted to …" keeps what it says."""
    found, _ = services
    log24 = "logconference.io/LOG/2024/Conference"
    made = shapes.made_up(1, seed=85, fate="")
    made += shapes.made_up(2, seed=86, fate="Rejected_Submission")
    made += shapes.made_up(1, seed=87, fate="Withdrawn_Submission")
    venue = shapes.v2_venue(made, log24)
    venue.group["content"]["subtitle"] = {"value": "LoG 2024"}
    venue.group["content"]["title"] = {"value": "The Third Learning on Graphs Conference"}
    for note in (venue.notes[0], venue.notes[1], venue.notes[3]):
        del note["content"]["venue"]
    submitted = venue.notes[2]["content"]["venue"]["value"]
    assert submitted.startswith("Submitted to ")
    found.v2[log24] = venue
    done = papers(env, "fetch", f"openreview:{log24}", "--all")
    assert done.returncode == 0 and "4 added" in done.stdout, done.stdout + done.stderr
    listed = {p["title"]: p for p in json.loads(papers(env, "list", "--json").stdout)}
    assert [listed[m.title]["venue"] for m in made] == [
        "LoG 2024",
        "LoG 2024",
        submitted,
        "LoG 2024",
    ], done.stderr
    assert [listed[m.title]["venue_status"] for m in made[1:]] == [
        "Rejected",
        "Rejected",
        "Withdrawn",
    ]
    del venue.group["content"]["subtitle"]
    done = papers(env, "fetch", f"openreview:{log24}", "--all", "--refresh")
    assert done.returncode == 0, done.stdout + done.stderr
    listed = {p["title"]: p for p in json.loads(papers(env, "list", "--json").stdout)}
    named = "The Third Learning on Graphs Conference"
    assert [listed[made[n].title]["venue"] for n in (1, 3)] == [named, named]
