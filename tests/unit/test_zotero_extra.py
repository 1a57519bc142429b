"""Zotero's CSV keeps an arXiv id and a DOI in ``Extra`` lines (``arXiv: 2401.01234``,
``DOI: 10.1/x``) for item types without a column of their own, and a preprint's Archive ID
in ``Number``: read as the paper's eprint and DOI (its link, its identity), never over the
columns that hold them."""

from __future__ import annotations

import csv
from pathlib import Path

from storage.sources.registry import read_source

HEADER = ["Key", "Item Type", "Title", "Url", "DOI", "Abstract Note", "Extra", "Number"]
ABSTRACT = "We study sparse attention at scale and show it keeps accuracy on long inputs."


def _records(tmp_path: Path, *rows: dict[str, str]) -> dict[str, dict[str, object]]:
    path = tmp_path / "zotero.csv"
    with path.open("w", newline="", encoding="utf-8-sig") as out:
        writer = csv.DictWriter(out, HEADER, quoting=csv.QUOTE_ALL)
        writer.writeheader()
        for i, row in enumerate(rows):
            writer.writerow({"Key": f"K{i}", "Abstract Note": ABSTRACT, **row})
    found = read_source(path)
    assert not found.errors
    return {r.title: {**dict(r.extra), "url": r.url} for r in found.records}


def test_extra_lines_give_the_arxiv_id_and_the_doi(tmp_path: Path) -> None:
    papers = _records(
        tmp_path,
        {"Item Type": "preprint", "Title": "One", "Extra": "arXiv: 2401.01234"},
        {
            "Item Type": "preprint",
            "Title": "Two",
            "Extra": "Citation Key: lee2024\narXiv:2402.00002v2 [cs]\nPublisher: arXiv",
        },
        {"Item Type": "preprint", "Title": "Three", "Number": "arXiv:2403.00003"},
        {"Item Type": "conferencePaper", "Title": "Four", "Extra": "DOI: 10.1145/3580305.3599"},
    )
    assert papers["One"]["eprint"] == "2401.01234"
    assert papers["One"]["url"] == "https://arxiv.org/abs/2401.01234"
    assert papers["Two"]["eprint"] == "2402.00002v2"
    assert papers["Three"]["eprint"] == "2403.00003"
    assert papers["Four"]["doi"] == "10.1145/3580305.3599"
    assert papers["Four"]["url"] == "https://doi.org/10.1145/3580305.3599"


def test_the_columns_win_and_prose_is_no_field(tmp_path: Path) -> None:
    papers = _records(
        tmp_path,
        {
            "Item Type": "journalArticle",
            "Title": "Kept",
            "DOI": "10.1038/s42256-021-00001-x",
            "Url": "http://127.0.0.1:9/kept",
            "Extra": "DOI: 10.9999/other\narXiv: 2401.01234",
        },
        {
            "Item Type": "journalArticle",
            "Title": "Prose",
            "Extra": "see arXiv: 2401.01234 for the long version\nDOI: not-a-doi",
            "Number": "12",
        },
    )
    assert papers["Kept"]["doi"] == "10.1038/s42256-021-00001-x"
    assert papers["Kept"]["url"] == "http://127.0.0.1:9/kept"
    assert papers["Kept"]["eprint"] == "2401.01234"  # no column of its own: Extra's
    assert "eprint" not in papers["Prose"] and "doi" not in papers["Prose"]
    assert papers["Prose"]["url"] == ""
