"""Decision words every reader and fetch reads the same (``storage.sources.status_words``), at
their edges: words that say a paper was not accepted are no acceptance, and the venue an
acceptance names (its year) is no track of it. Read from a real file's ``decision`` column as
an import reads it, and by the function the fetches call."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from storage.sources.registry import read_source
from storage.sources.status_words import decision_status, venue_status

NOT_ACCEPTED = [
    "Not yet accepted",
    "Non-accepted",
    "Never accepted",
    "Wasn't accepted",
    "Cannot accept",
]


@pytest.mark.parametrize("words", NOT_ACCEPTED)
def test_words_that_say_not_accepted_are_no_acceptance(words: str) -> None:
    """Only "not accepted" was read as none: these were stored as Accepted (they were kept as
    written before decisions were read the same on every path)."""
    assert venue_status(words) == words
    assert decision_status(words) == ""


@pytest.mark.parametrize(
    "words",
    [
        "Accepted to NeurIPS 2024",
        "Accept to ICLR 2024",
        "Accept (ICLR 2024)",
        "Accept - ICLR 2024",
        "Accepted (not presented)",
    ],
)
def test_the_venue_an_acceptance_names_is_no_track(words: str) -> None:
    """ "Accepted to NeurIPS 2024" was stored as "NeurIPS 2024" (a venue's name, where the
    status said the paper accepted; "Accepted at ICML 2024" was Accepted), "Accepted (not
    presented)" as "Not presented". Each is Accepted; the tracks stay theirs."""
    assert venue_status(words) == "Accepted"
    assert decision_status(words) == "Accepted"
    assert venue_status("Accept (Journal track)") == "Journal"
    assert venue_status("2 - Accept to findings") == "Findings"


def test_a_list_s_decision_column_reads_them_so(tmp_path: Path) -> None:
    path = tmp_path / "decided.csv"
    said = [*NOT_ACCEPTED, "Accepted to NeurIPS 2024", "Accept-Findings", "Reject"]
    with path.open("w", newline="", encoding="utf-8") as out:
        rows = csv.writer(out)
        rows.writerow(["title", "authors", "decision"])
        for n, decision in enumerate(said):
            rows.writerow([f"A study of graph number {n} and its kind", "Ann Lee", decision])
    result = read_source(path)
    assert not result.errors, result.errors
    assert [r.venue_status for r in result.records] == [
        *NOT_ACCEPTED, "Accepted", "Findings", "Rejected"
    ]  # fmt: skip
