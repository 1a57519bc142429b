"""The year of each paper in the CSV and JSON exports: the one a citation gives (its own, else
the one its venue or list names). Papers of a venue's list keep no year of their own (``ICLR
2025`` says it), so a spreadsheet's year column was empty for every one of them, and the
JSON records named none, while the BibTeX and CSL-JSON exports of the same papers gave 2025."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from storage import Library
from storage.export import export
from tests.unit.test_round_trip import imported_again

ROWS = [
    {"title": "A paper of the list", "abstract": "Sampling diffusion models in few steps."},
    {"title": "In its venue", "abstract": "Graph networks oversmooth.", "venue": "NeurIPS 2023"},
    {
        "title": "Its own year",
        "abstract": "A preprint year before its venue's.",
        "venue": "ICLR 2025 Poster",
        "year": 2024,
    },
    {"title": "No year anywhere", "abstract": "Words with no year.", "venue": "A workshop"},
]


def _library(tmp_path: Path, list_name: str = "ICLR 2025 Papers") -> Library:
    source = tmp_path / f"{list_name}.json"
    source.write_text(json.dumps(ROWS), encoding="utf-8")
    library = Library(tmp_path / "home")
    library.import_file(source)
    return library


def test_the_csv_and_json_exports_give_each_paper_its_cited_year(tmp_path: Path) -> None:
    library = _library(tmp_path)
    papers = library.papers()
    table = list(csv.DictReader(io.StringIO(export(papers, library.triage(), "csv"))))
    records = json.loads(export(papers, library.triage(), "json"))
    by_title = {row["title"]: row["year"] for row in table}
    assert by_title == {
        "A paper of the list": "2025",  # the list's name
        "In its venue": "2023",  # the venue's
        "Its own year": "2024",  # its own, before its venue's
        "No year anywhere": "2025",  # its list is the file's, which names it
    }
    assert {r["title"]: r["year"] for r in records} == {t: int(y) for t, y in by_title.items()}


def test_a_paper_with_no_year_anywhere_has_an_empty_cell_and_null(tmp_path: Path) -> None:
    library = _library(tmp_path, "reading group")
    papers = library.papers()
    table = list(csv.DictReader(io.StringIO(export(papers, library.triage(), "csv"))))
    records = json.loads(export(papers, library.triage(), "json"))
    assert {r["title"]: r["year"] for r in table}["A paper of the list"] == ""
    assert {r["title"]: r["year"] for r in records}["A paper of the list"] is None


@pytest.mark.parametrize("fmt", ["csv", "json"])
def test_the_year_given_comes_back_as_no_change(tmp_path: Path, fmt: str) -> None:
    """Our readers take a year its venue or list names as no fact of the paper's own: the
    export imported back changes nothing, and a paper's own year stays its own."""
    rows = [{**r, "list": "ICLR 2025 Papers"} for r in ROWS]
    library, papers = imported_again(tmp_path, rows, fmt)
    again = {p.title: p.fact("year") for p in library.papers()}
    assert again == {p.title: p.fact("year") for p in papers}
    assert again["Its own year"] == 2024 and again["A paper of the list"] is None


def test_the_year_a_search_reads_is_the_citations_when_only_its_journal_names_it(
    tmp_path: Path,
) -> None:
    """``year_of`` (``year:`` searches, the exports' year) read the venue and lists only: a
    paper whose journal or booktitle alone names a year was cited with it but had none."""
    from dataclasses import replace

    from storage.sources.citation import citation_of, year_of

    paper = _library(tmp_path, "reading group").papers()[0]
    for extra in (
        (("journal", "Transactions on Machine Learning Research 2023"),),
        (("booktitle", "Proceedings of ICML 2023"), ("entry_type", "inproceedings")),
    ):
        cited = replace(paper, extra=extra)
        assert year_of(cited) == citation_of(cited).year == 2023
