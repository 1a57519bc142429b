"""TeX's commands within a word read as TeX prints them: ``\\hyphen`` (hyphenat's) a hyphen,
``\\slash`` a slash, ``\\nobreakdash`` nothing (its dash after it: ``non\\nobreakdash-linear``,
``3\\nobreakdash--5``), each ending with the spaces after it (``self\\hyphen supervised`` is
``self-supervised``); the spaces ``\\,`` ``\\;`` ``\\:`` ``\\ `` a space and ``\\!`` none. Before,
the three commands showed as their names (``selfhyphen supervised``, ``inputslash output``).

The ids of papers stay what they were (``storage.importing.identity._as_first_named``): an
abstract's, a title's (a BibTeX title is kept with its commands, ``\\hyphen{}``, so that its
id reads them as it did), the real list's; a library made before finds its papers again
when the file is imported again, and our exports, which write the text as shown, import back
as the same papers (a paper whose abstract has ``a\\textendash b`` came in twice before).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from storage import Library, Status
from storage.export import export
from storage.files.triage_model import doc_id
from storage.sources.papers import paper_id
from storage.sources.registry import read_source
from storage.text.latex import to_unicode


@pytest.mark.parametrize(
    ("source", "shown"),
    [
        (r"a self\hyphen supervised model", "a self-supervised model"),
        (r"pre\hyphen{}trained", "pre-trained"),
        (r"input\slash output", "input/output"),
        (r"fast\slash{}slow", "fast/slow"),
        (r"non\nobreakdash-linear", "non-linear"),
        (r"pages 3\nobreakdash--5", "pages 3–5"),
        (r"$k$\nobreakdash -means", "k-means"),
        (r"ab\,cd", "ab cd"),
        (r"ab\;cd", "ab cd"),
        (r"ab\:cd", "ab cd"),
        (r"ab\ cd", "ab cd"),
        (r"ab\!cd", "abcd"),
        (r"10\,000 images", "10 000 images"),
        (r"e.g.\ this", "e.g. this"),
        (r"\hyphenation{x} and \slashed{y}", "x and y"),  # other commands: not these
    ],
)
def test_word_commands_and_spaces_read_as_tex_prints_them(source: str, shown: str) -> None:
    assert to_unicode(source) == shown


BIBTEX = (
    "@article{a, title = {Self\\hyphen Supervised Input\\slash Output for "
    "Non\\nobreakdash-linear {$k$}\\nobreakdash-Means}, author = {Ann Lee}, year = 2020}\n"
    "@article{b, title = {A \\textbf{Bold}\\slash Plain Title}, author = {Bo Park}, year = 2021,\n"
    "  abstract = {We train a self\\hyphen supervised encoder whose input\\slash output maps are "
    "learnt over 3\\nobreakdash--5 layers, with 10\\,000 images.}}\n"
)
TITLES = ["Self-Supervised Input/Output for Non-linear k-Means", "A Bold/Plain Title"]
#: The ids the version before gave these papers (its ``papers import``), and their titles as
#: it stored them.
STORED = (
    ("69fc625d098a", "Selfhyphen Supervised Inputslash Output for Nonnobreakdash-linear "
     "knobreakdash-Means", "", "Ann Lee"),
    ("32f6a4e2ad70", "A Boldslash Plain Title",
     "We train a self\\hyphen supervised encoder whose input\\slash output maps are learnt "
     "over 3\\nobreakdash--5 layers, with 10\\,000 images.", "Bo Park"),
)  # fmt: skip


def test_a_bibtex_title_shows_them_and_its_exports_write_them(tmp_path: Path) -> None:
    from storage.files.triage_file import TriageState

    source = tmp_path / "refs.bib"
    source.write_text(BIBTEX, encoding="utf-8")
    Library(tmp_path / "home").import_file(source)
    papers = Library(tmp_path / "home").papers()
    assert [p.display_title for p in papers] == TITLES
    assert papers[1].display_abstract.startswith("We train a self-supervised encoder whose input/")
    bib = export(papers, TriageState(), "bibtex")
    assert "title = {{Self-Supervised Input/Output for Non-linear k-Means}}" in bib
    ris = export(papers, TriageState(), "ris")
    assert "TI  - Self-Supervised Input/Output for Non-linear k-Means" in ris


def test_the_ids_are_those_the_earlier_version_gave(tmp_path: Path) -> None:
    source = tmp_path / "refs.bib"
    source.write_text(BIBTEX, encoding="utf-8")
    Library(tmp_path / "fresh").import_file(source)
    assert [p.id for p in Library(tmp_path / "fresh").papers()] == [s[0] for s in STORED]


#: Texts and the ids the version before gave them (an abstract's; a raw title's, as a JSON
#: list gives it, with its first author).
IDS = [
    (r"We train a self\hyphen supervised encoder whose input\slash output maps are learnt "
     r"over 3\nobreakdash--5 layers, with 10\,000 images.", "", (), "32f6a4e2ad70"),
    (r"A non\nobreakdash-linear model, $x\slash y$ ratios and the pre\hyphen{}trained weights "
     r"of a \\hyphen double-escaped source.", "", (), "724f253eeb5f"),
    (r"Models with \hyphen{x} arguments, \slash* starred and \nobreakdash -5 spaced forms "
     r"still have ids that read them as before.", "", (), "62692369d8fa"),
    ("", r"Self\hyphen Supervised Input\slash Output Learning", ("Ann Lee",), "ce4a4f8d84f9"),
    ("", r"Non\nobreakdash-linear Maps", ("Bo Park",), "4ba1c562064b"),
]  # fmt: skip


@pytest.mark.parametrize(("abstract", "title", "authors", "pid"), IDS)
def test_ids_read_the_commands_as_first_read(
    abstract: str, title: str, authors: tuple[str, ...], pid: str
) -> None:
    assert paper_id(abstract, title, authors) == pid


def test_the_real_lists_ids_are_those_they_were(real_list: Path) -> None:
    """The 3,703 ICLR 2025 papers' ids, in list order (their digest, as the version before
    gave them)."""
    result = read_source(real_list)
    ids = [paper_id(r.abstract, r.title, r.authors) for r in result.records]
    assert len(ids) == 3703
    assert hashlib.sha256("\n".join(ids).encode()).hexdigest()[:16] == "9f41b1312416824a"


def _doc(place: int, pid: str, title: str, abstract: str, author: str) -> dict[str, Any]:
    return {
        "id": pid, "title": title, "abstract": abstract, "authors": [author], "github": [],
        "url": "", "keywords": [], "venue_status": "", "list": "refs", "position": place,
        "title_derived": False, "name": "", "lists": ["refs"], "venue": "", "extra": [],
    }  # fmt: skip


def test_a_library_made_before_keeps_its_papers_when_the_file_comes_again(tmp_path: Path) -> None:
    """Its ``papers.json`` as the version before wrote it from this file: each paper is found
    under its id, keeps its decision, and takes its title as now read."""
    source = tmp_path / "refs.bib"
    source.write_text(BIBTEX, encoding="utf-8")
    home = tmp_path / "home"
    home.mkdir()
    docs = [_doc(n, *stored) for n, stored in enumerate(STORED)]
    tables = {
        "papers": {str(doc_id(d["id"])): d for d in docs},
        "lists": {"1": {"name": "refs", "sources": {str(source): 0}, "at": 1, "size": 2}},
        "meta": {"1": {"schema": 2, "kind": "papers", "writes": 1}},
    }
    (home / "papers.json").write_text(json.dumps(tables), encoding="utf-8")
    ids = [d["id"] for d in docs]
    Library(home).set_statuses(ids, Status.STARRED)
    report = Library(home).import_file(source)
    papers = Library(home).papers()
    assert [p.id for p in papers] == ids and not report.added
    assert [p.display_title for p in papers] == TITLES
    assert {Library(home).status(pid) for pid in ids} == {Status.STARRED}


LIST = [
    {"title": "Paper One", "abstract": r"We study the speed\textendash accuracy trade-off of "
     "large models over many years and find twenty effects that matter."},
    {"title": "Paper Two", "abstract": r"We train a self\hyphen supervised encoder whose "
     r"input\slash output maps are learnt over many layers and find effects."},
    {"title": r"Input\slash Output, a Title Alone"},
]  # fmt: skip


@pytest.mark.parametrize(
    ("fmt", "suffix"),
    [("bibtex", ".bib"), ("ris", ".ris"), ("csl-json", ".csl.json"), ("json", ".json")],
)
def test_our_exports_of_them_import_back_as_the_same_papers(
    fmt: str, suffix: str, tmp_path: Path
) -> None:
    """Each export writes the text as shown (``self-supervised``, ``a–b``), which an id reads
    otherwise than the source (as first read): the library's paper of that title whose
    abstract shows so is the one (``resolve._shown_as``); a title alone is matched as shown."""
    from storage.files.triage_file import TriageState

    source = tmp_path / "list.json"
    source.write_text(json.dumps(LIST), encoding="utf-8")
    library = Library(tmp_path / "home")
    library.import_file(source)
    papers = library.papers()
    out = tmp_path / f"out{suffix}"
    out.write_text(export(papers, TriageState(), fmt), encoding="utf-8")
    report = Library(tmp_path / "home").import_file(out)
    assert report.added == 0, [m.reason for m in report.merged]
    assert [p.id for p in Library(tmp_path / "home").papers()] == [p.id for p in papers]
