""" "Submitted" is no "Under review": a venue's "Submitted to ICLR 2024" says a paper was sent
there, and no more. OpenReview leaves it on a paper it rejected (API v1's notes after the
decisions; OpenReview's BibTeX of a rejected paper), and Paper Copilot's own tools read it so
(papercopilot/paperbot ``settings/nips.json``: "Submitted to NeurIPS 2023" → "Reject"). So
every reader keeps it as "Submitted" (``tests/unit/test_real_exports_tools.py``: ICLR 2022's
paper "Submitted" four years on, not "Under review"), and Paper Copilot's fetch now says the
same word for a record so written: it said "Under review". Only what says a paper is still
being reviewed reads "Under review": Paper Copilot's "Active", OpenReview's venue id
``…/Submission``. Neither is an accepted paper: over OpenReview's "Accepted" the venue's word
stays."""

from __future__ import annotations

import json
from pathlib import Path

from storage.importing.authority import SNAPSHOT, VENUE, overruled
from storage.models import Paper
from tests.fetch import shapes
from tests.fetch.conftest import papers
from tests.fetch.services import Services

STATUSES = ["Submitted", "Submitted to ICLR 2024", "Active", "Reject", "Poster"]


def _statuses(env: dict[str, str]) -> dict[str, str]:
    done = papers(env, "list", "--json")
    assert done.returncode == 0, done.stderr
    return {p["title"]: p["venue_status"] for p in json.loads(done.stdout)}


def test_paper_copilots_submitted_reads_as_the_same_record_in_a_file_does(
    services: tuple[Services, str], env: dict[str, str], tmp_path: Path
) -> None:
    found, _ = services
    records = []
    for paper, status in zip(shapes.made_up(5, seed=151, fate=""), STATUSES, strict=True):
        record = shapes.paperlists_record(paper, "iclr", 2024)
        record["status"] = status
        records.append(record)
    found.paperlists["iclr2024"] = records
    done = papers(env, "fetch", "paperlists:iclr2024", "--all")
    assert done.returncode == 0, done.stdout + done.stderr
    fetched = _statuses(env)
    assert sorted(fetched.values()) == [
        "Poster", "Rejected", "Submitted", "Submitted", "Under review",
    ]  # fmt: skip
    saved = tmp_path / "iclr2024.json"
    saved.write_text(json.dumps(records), encoding="utf-8")
    other = {**env, "PAPERS_HOME": str(tmp_path / "other")}
    done = papers(other, "import", str(saved))
    assert done.returncode == 0, done.stdout + done.stderr
    assert _statuses(other) == fetched
    done = papers(env, "fetch", "paperlists:iclr2024", "--refresh")  # the accepted papers only
    assert done.returncode == 0 and "1 skipped" in done.stdout, done.stdout + done.stderr
    assert "no longer among" not in done.stderr, done.stderr


def test_a_snapshots_submitted_does_not_replace_the_venues_accepted() -> None:
    held = Paper(id="a", title="T", abstract="A.", venue_status="Accepted")
    new = Paper(id="a", title="T", abstract="A.", venue_status="Submitted")
    kept, said = overruled(held, VENUE, new, SNAPSHOT)
    assert (kept.venue_status, said) == ("Accepted", ["decision"])
