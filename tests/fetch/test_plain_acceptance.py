"""Accepted papers whose note names the venue and no presentation: COLM 2024's notes say
``COLM`` (its 2025 ones ``COLM 2025``), NeurIPS 2022's (API v1) ``NeurIPS 2022 Accept`` and a
decision of ``Accept``, TMLR's ``Accepted by TMLR``. They came with no venue status at all
("unknown" to ``papers stats``, missed by ``status:accepted``), though the fetch asked for
the accepted papers; they are now ``Accepted``, or the presentation their decision names."""

from __future__ import annotations

import json

from tests.fetch import shapes
from tests.fetch.conftest import papers
from tests.fetch.services import Services

COLM24 = "colmweb.org/COLM/2024/Conference"
NEURIPS22 = "NeurIPS.cc/2022/Conference"


def _statuses(env: dict[str, str]) -> dict[str, str]:
    done = papers(env, "list", "--json")
    assert done.returncode == 0, done.stderr
    return {p["title"]: p["venue_status"] for p in json.loads(done.stdout)}


def _accepted(env: dict[str, str]) -> set[str]:
    done = papers(env, "search", "status:accepted", "--json")
    assert done.returncode == 0, done.stderr
    return {p["title"] for p in json.loads(done.stdout)}


def test_a_v2_note_whose_venue_names_no_presentation_is_accepted(
    services: tuple[Services, str], env
) -> None:
    """COLM: two accepted notes whose venue is ``COLM`` and ``COLM 2024``, one rejected.
    Without ``--reviews`` both accepted are Accepted (and no line says they name no venue:
    they do); with it, a decision naming a presentation ("Accept (Oral)") gives it, a plain
    "Accept" leaves them Accepted (not "Accept": a refetch changes nothing)."""
    found, _ = services
    made = shapes.made_up(2, seed=121, fate="")
    made += shapes.made_up(1, seed=122, fate="Rejected_Submission")
    venue = shapes.v2_venue(made, COLM24)
    venue.notes[0]["content"]["venue"] = {"value": "COLM"}
    venue.notes[1]["content"]["venue"] = {"value": "COLM 2024"}
    for note, said in zip(venue.notes[:2], ("Accept (Oral)", "Accept"), strict=True):
        for reply in venue.replies[note["id"]]:
            if any(i.endswith("/-/Decision") for i in reply["invitations"]):
                reply["content"]["decision"] = {"value": said}
    found.v2[COLM24] = venue
    done = papers(env, "fetch", "colm2024", "--all")
    assert done.returncode == 0, done.stderr
    assert "3 added" in done.stdout and "name no venue" not in done.stderr, done.stdout
    statuses = _statuses(env)
    assert [statuses[m.title] for m in made] == ["Accepted", "Accepted", "Rejected"]
    assert _accepted(env) == {made[0].title, made[1].title}
    done = papers(env, "fetch", "colm2024", "--all", "--reviews")
    assert done.returncode == 0, done.stderr
    statuses = _statuses(env)
    assert [statuses[m.title] for m in made] == ["Oral", "Accepted", "Rejected"]
    assert _accepted(env) == {made[0].title, made[1].title}


def test_a_v1_note_whose_venue_and_decision_name_no_presentation_is_accepted(
    services: tuple[Services, str], env
) -> None:
    """NeurIPS 2022 (API v1): notes whose venue is ``NeurIPS 2022 Accept``, one with a
    decision reply of "Accept", one whose decision reply is not public, and one whose venue
    still says "Submitted to NeurIPS 2022" beside its "Accept". All are Accepted (two were
    "Accept", one had no status); their ratings come as before."""
    found, _ = services
    made = shapes.made_up(3, seed=123, fate="")
    made[0].ratings = ["7: Accept: Technically solid paper", "5: Borderline accept"]
    made[0].confidences = ["4: You are confident in your assessment", "3: fairly confident"]
    venue = shapes.v1_venue(made, NEURIPS22)
    said = ("NeurIPS 2022 Accept", "NeurIPS 2022 Accept", "Submitted to NeurIPS 2022")
    for note, venue_text in zip(venue.notes, said, strict=True):
        note["content"]["venue"] = venue_text
    for note in (venue.notes[0], venue.notes[2]):
        for reply in venue.replies[note["id"]]:
            if "decision" in reply["content"]:
                reply["content"]["decision"] = "Accept"
    second = venue.notes[1]["id"]
    venue.replies[second] = [r for r in venue.replies[second] if "decision" not in r["content"]]
    found.v1[NEURIPS22] = venue
    done = papers(env, "fetch", "neurips2022", "--reviews")
    assert done.returncode == 0, done.stderr
    assert "3 added" in done.stdout, done.stdout
    statuses = _statuses(env)
    assert [statuses[m.title] for m in made] == ["Accepted", "Accepted", "Accepted"]
    assert _accepted(env) == {m.title for m in made}
    listed = {p["title"]: p for p in json.loads(papers(env, "list", "--json").stdout)}
    first = listed[made[0].title]
    assert first["extra"]["ratings"] == "7, 5" and first["extra"]["rating"] == 6.0, first
    assert first["extra"]["pdf"].endswith(".pdf") and first["authors"] == made[0].authors


def test_a_v2_note_that_names_no_venue_is_accepted_by_a_plain_accept_too(
    services: tuple[Services, str], env
) -> None:
    """Accepted notes of v2 that name no venue (none, empty, not text, still "Submitted to
    …"), whose decision reply says a bare "Accept": without ``--reviews`` they were Accepted
    (with a line saying so), and ``--reviews`` made them "Accept", a status of its own in
    the stats; v1's like them are Accepted (``openreview_v1.fate``). They stay Accepted now,
    and no line says their decisions were not read; a decision naming a presentation still
    gives it."""
    found, _ = services
    made = shapes.made_up(6, seed=125, fate="")
    venue = shapes.v2_venue(made, COLM24)
    venues: list[object] = [None, {"value": ""}, {"value": ["COLM"]}, {"value": 12}]
    venues += [{"value": "Submitted to COLM"}, None]
    said = ["Accept", "Accept", "Accept", "Accept", "Accept", "Accept (Oral)"]
    for note, venue_value, decision in zip(venue.notes, venues, said, strict=True):
        note["content"].pop("venue", None)
        if venue_value is not None:
            note["content"]["venue"] = venue_value
        for reply in venue.replies[note["id"]]:
            if any(i.endswith("/-/Decision") for i in reply["invitations"]):
                reply["content"]["decision"] = {"value": decision}
    found.v2[COLM24] = venue
    done = papers(env, "fetch", "colm2024")
    assert done.returncode == 0, done.stderr
    assert "6 accepted paper(s)" in done.stderr, done.stderr
    assert set(_statuses(env).values()) == {"Accepted"}
    done = papers(env, "fetch", "colm2024", "--reviews")
    assert done.returncode == 0, done.stderr
    assert "name no venue" not in done.stderr, done.stderr
    statuses = _statuses(env)
    assert [statuses[m.title] for m in made] == ["Accepted"] * 5 + ["Oral"]
    assert _accepted(env) == {m.title for m in made}
