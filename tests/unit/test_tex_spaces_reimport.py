"""A BibTeX file imported again after the converter learnt that the spaces after a text
symbol's control word end it (``a\\textendash b`` is ``a–b``, was ``a– b``;
``storage.text.latex``). The library holds the papers as the version before stored them (its
``papers.json`` documents as ``papers import`` at b4455a2 wrote them from this file): each is
found under the id it has, with its decision, and takes the title as now read."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from storage import Library, Status
from storage.files.triage_model import doc_id
from storage.sources.papers import paper_id

ABSTRACT = (
    r"We study the speed\textendash accuracy trade-off of large models over the years "
    r"1990\textendash 2000 and find twenty effects."
)
BIBTEX = (
    "@article{a1, title = {Trade\\textendash off in learning}, author = {Bo Li}, year = 2020}\n"
    f"@article{{a3, title = {{Ranges 1990\\textendash 2000}}, author = {{Ann Lee}},\n"
    f"  year = 2021, abstract = {{{ABSTRACT}}}}}\n"
)
#: (id, title, abstract, authors) as the version before stored them.
STORED = (
    ("2c0ec6ec73b4", "Trade– off in learning", "", "Bo Li"),
    ("b152c09fa41a", "Ranges 1990– 2000", ABSTRACT, "Ann Lee"),
)


def _doc(place: int, pid: str, title: str, abstract: str, author: str) -> dict[str, Any]:
    return {
        "id": pid, "title": title, "abstract": abstract, "authors": [author], "github": [],
        "url": "", "keywords": [], "venue_status": "", "list": "refs", "position": place,
        "title_derived": False, "name": "", "lists": ["refs"], "venue": "", "extra": [],
    }  # fmt: skip


def _library_of_before(home: Path, source: Path) -> list[str]:
    home.mkdir()
    docs = [_doc(n, *stored) for n, stored in enumerate(STORED)]
    tables = {
        "papers": {str(doc_id(d["id"])): d for d in docs},
        "lists": {"1": {"name": "refs", "sources": {str(source): 0}, "at": 1, "size": 2}},
        "meta": {"1": {"schema": 2, "kind": "papers", "writes": 1}},
    }
    (home / "papers.json").write_text(json.dumps(tables), encoding="utf-8")
    return [d["id"] for d in docs]


def test_the_ids_are_those_the_earlier_version_gave() -> None:
    """The title-only paper's id is its title's letters and its author's (spaces aside: the
    same today); the other's is its abstract's, read for its id as it was then (``–`` then a
    space, a minus among its signs), though shown as today's reading (``speed–accuracy``)."""
    assert paper_id("", STORED[0][1], ["Bo Li"]) == STORED[0][0]
    assert paper_id(ABSTRACT, STORED[1][1], ["Ann Lee"]) == STORED[1][0]


def test_a_fresh_library_gives_the_ids_the_earlier_version_gave(tmp_path: Path) -> None:
    """Found by review: the first fix looked the earlier id up at import, which kept a
    library's papers but gave a list imported anew (another device, a new HOME) other ids; a
    sync of the two then carried the paper twice."""
    source = tmp_path / "refs.bib"
    source.write_text(BIBTEX, encoding="utf-8")
    Library(tmp_path / "fresh").import_file(source)
    papers = Library(tmp_path / "fresh").papers()
    assert [p.id for p in papers] == [stored[0] for stored in STORED]
    assert [p.title for p in papers] == ["Trade–off in learning", "Ranges 1990–2000"]


def test_a_bibtex_file_imported_again_keeps_its_papers_and_their_ids(tmp_path: Path) -> None:
    """Found on the first version of the fix: the paper known by its abstract came in a
    second time, in the Inbox, under the id today's reading gives."""
    source = tmp_path / "refs.bib"
    source.write_text(BIBTEX, encoding="utf-8")
    home = tmp_path / "home"
    ids = _library_of_before(home, source)
    Library(home).set_statuses(ids, Status.STARRED)

    report = Library(home).import_file(source)
    again = Library(home).import_file(source)

    papers = Library(home).papers()
    assert [p.id for p in papers] == ids and not report.added and not again.added
    assert [p.title for p in papers] == ["Trade–off in learning", "Ranges 1990–2000"]
    assert {Library(home).status(pid) for pid in ids} == {Status.STARRED}
