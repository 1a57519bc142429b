"""A paper whose decision its source does not know: Paper Copilot's status "Unknown"
(papercopilot/paperbot ``settings/nips.json`` names it beside Poster, Spotlight and Reject).
It is no accepted paper: a fetch of the accepted papers leaves it out and says how many it
left so (``--all`` brings them); ``--all`` keeps its status as written, "Unknown"; a refresh
of the accepted papers does not mark it as having left the accepted list (it never was on
it); and over OpenReview's "Accepted" it says no decision, so the venue's word is kept.

A status the vocabulary does not know but that names a presentation or a track of the
accepted papers (EMNLP 2023's "Long Main", "Short Findings", papercopilot/paperlists
``emnlp/emnlp2023.json``) stays an accepted paper, as it was."""

from __future__ import annotations

import json
from typing import Any

from storage.importing.authority import SNAPSHOT, VENUE, overruled
from storage.models import Paper
from tests.fetch import shapes
from tests.fetch.conftest import papers
from tests.fetch.services import Services


def _listed(env: dict[str, str]) -> dict[str, dict[str, Any]]:
    done = papers(env, "list", "--json")
    assert done.returncode == 0, done.stderr
    return {p["title"]: p for p in json.loads(done.stdout)}


def _serve(found: Services) -> dict[str, str]:
    """NeurIPS 2024 on Paper Copilot: a Poster, a Spotlight, a "Long Main", a Reject and two
    "Unknown"; the title of each, by its status."""
    made = shapes.made_up(6, seed=141, fate="")
    statuses = ["Poster", "Spotlight", "Long Main", "Reject", "Unknown", "Unknown"]
    records = []
    for paper, status in zip(made, statuses, strict=True):
        record = shapes.paperlists_record(paper, "nips", 2024)
        record["status"] = status
        records.append(record)
    found.paperlists["nips2024"] = records
    pairs = enumerate(zip(made, statuses, strict=True))
    return {f"{status}{i}": paper.title for i, (paper, status) in pairs}


def test_a_paper_copilot_decision_unknown_is_no_accepted_paper(
    services: tuple[Services, str], env: dict[str, str]
) -> None:
    found, _ = services
    titles = _serve(found)
    done = papers(env, "fetch", "paperlists:neurips2024")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "3 added" in done.stdout, done.stdout + done.stderr
    assert sorted(p["venue_status"] for p in _listed(env).values()) == [
        "Long Main", "Poster", "Spotlight",
    ]  # fmt: skip
    assert "2 papers of nips2024 whose decision Paper Copilot does not know" in done.stderr
    assert "('Unknown'): left out; --all brings them" in done.stderr, done.stderr

    done = papers(env, "fetch", "paperlists:neurips2024", "--all")
    assert done.returncode == 0, done.stdout + done.stderr
    listed = _listed(env)
    assert listed[titles["Unknown4"]]["venue_status"] == "Unknown"
    assert listed[titles["Unknown5"]]["venue_status"] == "Unknown"
    assert listed[titles["Reject3"]]["venue_status"] == "Rejected"
    hits = papers(env, "search", "status:accepted", "--json")
    assert sorted(h["title"] for h in json.loads(hits.stdout)) == sorted(
        [titles["Poster0"], titles["Spotlight1"], titles["Long Main2"]]
    )

    # the accepted papers again: those of unknown decision never were among them
    done = papers(env, "fetch", "paperlists:neurips2024", "--refresh")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no longer among" not in done.stderr and "missing from" not in done.stderr
    assert _listed(env)[titles["Unknown4"]]["venue_status"] == "Unknown"


def test_a_snapshots_unknown_decision_does_not_replace_the_venues_accepted() -> None:
    """OpenReview's "Accepted" (a note naming no presentation) refined by Paper Copilot's
    Oral, as before; its "Unknown" says no decision: the venue's word stays, said to differ."""
    held = Paper(id="a", title="T", abstract="A.", venue_status="Accepted")
    oral, said = overruled(held, VENUE, Paper(id="a", title="T", abstract="A.",
                                              venue_status="Oral"), SNAPSHOT)  # fmt: skip
    assert (oral.venue_status, said) == ("Oral", [])
    new = Paper(id="a", title="T", abstract="A.", venue_status="Unknown")
    kept, said = overruled(held, VENUE, new, SNAPSHOT)
    assert (kept.venue_status, said) == ("Accepted", ["decision"])


def test_a_poster_whose_decision_became_unknown_has_not_left_the_accepted_list(
    services: tuple[Services, str], env: dict[str, str]
) -> None:
    """A Poster fetched, then Paper Copilot's list says "Unknown" for it (a list made again
    while its decisions were redone): the refresh left it out as of no known decision, and then
    marked it "Left the accepted list (was Poster)" as if the venue had dropped it. A list that
    left papers out so is not the whole of the accepted papers: nothing is marked from it."""
    found, _ = services
    titles = _serve(found)
    done = papers(env, "fetch", "paperlists:neurips2024")
    assert done.returncode == 0, done.stdout + done.stderr
    found.paperlists["nips2024"][0]["status"] = "Unknown"  # the Poster's
    done = papers(env, "fetch", "paperlists:neurips2024", "--refresh")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no longer among" not in done.stderr, done.stderr
    assert _listed(env)[titles["Poster0"]]["venue_status"] == "Poster"
