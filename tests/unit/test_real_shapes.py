"""Exports in the shapes real tools write, read whole, and our own exports written back whole.

The files of ``tests/fixtures/real_shapes`` hold our own records in the shapes of Better
BibTeX, Zotero, Mendeley, Google Scholar, arXiv, DBLP, EndNote, Paper Copilot and OpenReview
exports (``make.py`` writes them; ``truth.json`` says what each record holds). Every record
is accounted for, every field exact, no two papers merged; re-importing any of our six
exports into the same library adds and changes nothing.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks.real_shapes import FOLDER, import_all, import_each
from storage import Library
from storage.export import EXPORTERS, export
from storage.sources.citation import citation_of

SUFFIXES = {"markdown": ".md", "json": ".json", "csv": ".csv", "bibtex": ".bib",
            "csl-json": ".csl.json", "ris": ".ris"}  # fmt: skip


def test_every_record_of_every_shape_is_read_exactly(tmp_path: Path) -> None:
    for score in import_each(tmp_path):
        assert score.unaccounted == 0, score.name
        assert not score.missing and not score.wrong, (score.name, score.missing, score.wrong)
        assert score.false_merges == 0, score.name


def test_one_paper_from_every_file_that_holds_it(tmp_path: Path) -> None:
    papers, distinct, report = import_all(tmp_path)
    assert papers == distinct == 20
    assert report.read == report.accounted == 98 and report.containers == 1


def _library(tmp_path: Path, name: str) -> Library:
    library = Library(tmp_path / name)
    library.import_file(FOLDER / name)
    return library


def test_bibtex_entries_of_every_type_with_their_reference_fields(tmp_path: Path) -> None:
    papers = {p.display_title: p for p in _library(tmp_path, "better_bibtex.bib").papers()}
    book = papers["Foundations of Graph Sampling"]
    assert citation_of(book).kind == "book" and book.fact("publisher") == "MIT Press"
    thesis = papers["Memory for Agents That Act"]
    assert citation_of(thesis).kind == "phdthesis" and thesis.fact("school")
    journal = papers["Streaming Graph Sampling at Scale"]
    cited = citation_of(journal)
    assert (cited.kind, cited.journal, cited.year, cited.month) == (
        "article", "Nature Machine Intelligence", 2021, 4,
    )  # fmt: skip
    assert (journal.fact("volume"), journal.fact("issue"), journal.fact("pages")) == (
        "3", "4", "120–131",
    )  # fmt: skip
    preprint = citation_of(papers["Contrastive Objectives for Tabular Data"])
    assert (preprint.kind, preprint.arxiv, preprint.primary_class) == (
        "misc",
        "2401.01234",
        "cs.LG",
    )
    assert papers["A 10€ Budget for Training Small Models"].authors[1] == "Martìn Sola"
    # keys differing in case are two papers (Li2025MarS, Li2025MaRS)
    assert {"MarS: Market Simulation With Generative Models",
            "MaRS: A Recommender System That Reads"} <= set(papers)  # fmt: skip


def test_mendeley_empty_keys_and_scholar_repeated_keys_import(tmp_path: Path) -> None:
    assert len(_library(tmp_path, "mendeley.bib").papers()) == 7  # seven `@article{,`
    scholar = _library(tmp_path, "google_scholar.bib").papers()
    assert len(scholar) == 9  # two entries keyed li2025mars
    assert all(citation_of(p).year for p in scholar)


def test_a_crossref_container_is_no_paper_and_lends_its_fields(tmp_path: Path) -> None:
    library = Library(tmp_path / "home")
    report = library.import_file(FOLDER / "dblp.bib")
    assert (report.added, report.containers, report.read) == (2, 1, 3)
    assert all(p.fact("publisher") == "OpenReview.net" for p in library.papers())


def test_openreview_decisions_and_paper_copilot_tracks(tmp_path: Path) -> None:
    keyed = _library(tmp_path, "openreview_keyed_iclr2025.json").papers()
    # from the venue id's suffix: …/Rejected_Submission, …/Desk_Rejected_Submission
    assert [p.venue_status for p in keyed] == [
        "Spotlight",
        "Rejected",
        "Withdrawn",
        "Desk rejected",
    ]
    assert all(p.url.startswith("https://openreview.net/forum?id=Orv") for p in keyed)
    copilot = _library(tmp_path, "paper_copilot_iclr2025.json").papers()
    assert [p.title for p in copilot].count("Withdrawn") == 2  # a placeholder title never merges
    assert all(p.fact("area") != "main" for p in copilot)  # a track is no area
    assert copilot[0].authors == ("Shin'ya Yamaguchi", "Ann Lee")  # &#x27; decoded before the split
    assert copilot[-1].authors == ("Kai Wu", "Kai Wu", "Lena Berg")  # two people, one name


@pytest.mark.parametrize("fmt", [e.name for e in EXPORTERS])
def test_our_exports_reimported_into_the_same_library_change_nothing(
    tmp_path: Path, fmt: str
) -> None:
    library = Library(tmp_path / "home")
    names = ("better_bibtex.bib", "zotero.ris", "paper_copilot_iclr2025.json",
             "openreview_keyed_iclr2025.json")  # fmt: skip
    library.import_files([FOLDER / name for name in names])
    papers = library.papers()
    for paper in papers[::3]:
        library.set_status(paper.id, "starred")
    path = tmp_path / f"export{SUFFIXES[fmt]}"
    path.write_text(export(papers, library.triage(), fmt), encoding="utf-8")
    report = library.import_file(path)
    assert (report.added, report.updated, report.refused) == (0, 0, 0), report.summary()
    assert report.read == report.accounted == len(papers)
    assert library.papers() == papers


@pytest.mark.slow(15)
@pytest.mark.parametrize("fmt", ["bibtex", "csl-json", "ris", "markdown"])
def test_the_real_list_exported_reimported_changes_nothing(tmp_path: Path, fmt: str) -> None:
    from tests.conftest import REAL_LIST

    if not REAL_LIST.is_file():
        pytest.skip(f"real data absent: {REAL_LIST} (only on machines with ../shared/data)")
    library = Library(tmp_path / "home")
    library.import_file(REAL_LIST)
    papers = library.papers()
    path = tmp_path / f"real{SUFFIXES[fmt]}"
    path.write_text(export(papers, library.triage(), fmt), encoding="utf-8")
    report = library.import_file(path)
    assert (report.added, report.updated, report.refused) == (0, 0, 0), (fmt, report.summary())
    assert library.papers() == papers


def test_reference_managers_csv_columns_read_as_the_fields_they_are(tmp_path: Path) -> None:
    """Zotero's ``Item Type``, ``Publication Title``, ``Manual Tags``; Scopus's ``Source
    title``, ``Page start``/``Page end`` and ``Cited by``: as their BibTeX gives them."""
    zotero = {p.display_title: p for p in _library(tmp_path, "zotero.csv").papers()}
    journal = citation_of(zotero["Streaming Graph Sampling at Scale"])
    assert (journal.kind, journal.journal, journal.year) == (
        "article", "Nature Machine Intelligence", 2021,
    )  # fmt: skip
    assert zotero["Streaming Graph Sampling at Scale"].keywords == ("graph sampling", "streaming")
    talk = citation_of(zotero["Skipping the Last Steps of Diffusion Samplers"])
    assert talk.kind == "inproceedings" and talk.booktitle.startswith("Proceedings of the 40th")
    preprint = zotero["Contrastive Objectives for Tabular Data"]
    assert preprint.keywords == ("Computer Science - Machine Learning",)
    scopus = {p.display_title: p for p in _library(tmp_path, "scopus.csv").papers()}
    article = scopus["Streaming Graph Sampling at Scale"]
    assert (article.fact("pages"), article.fact("citations"), citation_of(article).kind) == (
        "120–131", 12, "article",
    )  # fmt: skip
    assert citation_of(scopus["Skipping the Last Steps of Diffusion Samplers"]).kind == (
        "inproceedings"
    )


def test_endnote_tagged_records_with_their_types_and_reference_fields(tmp_path: Path) -> None:
    papers = {p.display_title: p for p in _library(tmp_path, "endnote.enw").papers()}
    journal = papers["Streaming Graph Sampling at Scale"]
    cited = citation_of(journal)
    assert (cited.kind, cited.journal, cited.year, cited.doi) == (
        "article", "Nature Machine Intelligence", 2021, "10.1038/s42256-021-00001-x",
    )  # fmt: skip
    assert (journal.fact("pages"), journal.keywords) == ("120–131", ("graph sampling", "streaming"))
    assert citation_of(papers["Memory for Agents That Act"]).kind == "phdthesis"
    assert citation_of(papers["A Survey of Graph Samplers"]).booktitle


def test_endnote_records_opened_by_their_type_line_alone(tmp_path: Path) -> None:
    """No blank line between two records (some publishers' files): the ``%0`` opens the next;
    a record of a type line alone is none."""
    path = tmp_path / "download.txt"
    path.write_text(
        "%0 Journal Article\n%T One\n%A Lee, Ann\n%D 2020\n"
        "%0 Conference Paper\n%T Two\n%A Doe, Bob\n%D 2021\n%0 Book\n",
        encoding="utf-8",
    )
    library = Library(tmp_path / "home")
    report = library.import_file(path)
    assert report.added == 2
    found = {p.display_title: (p.authors, citation_of(p).kind) for p in library.papers()}
    assert found == {"One": (("Ann Lee",), "article"), "Two": (("Bob Doe",), "inproceedings")}


def test_reference_managers_attachments_are_kept_as_absolute_paths(tmp_path: Path) -> None:
    """Zotero's BibTeX ``file`` (``Full Text PDF:…:application/pdf``) and CSV ``File
    Attachments``, Mendeley's slashless ``:home/u/…:pdf``: each paper's PDF, from the root."""
    for name, folder in (
        ("zotero.bib", "/home/u/Zotero/storage/ABCD/"),
        ("zotero.csv", "/home/u/Zotero/storage/ABCD/"),
        ("mendeley.bib", "/home/u/Mendeley/"),
    ):
        papers = _library(tmp_path / name, name).papers()
        files = [p.fact("file") for p in papers]
        assert papers and all(
            isinstance(f, str) and f.startswith(folder) and f.endswith(".pdf") for f in files
        ), (name, files)


def test_paper_copilot_area_slug_is_read_as_words(tmp_path: Path) -> None:
    """A Paper Copilot file imported as it is (not fetched) gives its area in OpenReview's
    words too; a name with an underscore among words keeps it."""
    records = [
        {"title": "Slugged", "abstract": "We study slugs in paper lists at some length here.",
         "primary_area": "applications_to_computer_vision,_audio,_language,_and_other_modalities"},
        {"title": "Worded", "abstract": "We study words in paper lists at some length here.",
         "primary_area": "learning on graphs and other geometries & topologies"},
        {"title": "Named", "abstract": "We study names in paper lists at some length here.",
         "primary_area": "the snake_case naming of things"},
    ]  # fmt: skip
    path = tmp_path / "iclr2025.json"
    path.write_text(json.dumps(records), encoding="utf-8")
    library = Library(tmp_path / "home")
    library.import_file(path)
    areas = {p.title: p.fact("area") for p in library.papers()}
    assert areas == {
        "Slugged": "applications to computer vision, audio, language, and other modalities",
        "Worded": "learning on graphs and other geometries & topologies",
        "Named": "the snake_case naming of things",
    }
