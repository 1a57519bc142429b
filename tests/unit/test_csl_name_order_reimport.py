"""A CSL-JSON file imported again after its names were read in CSL's order (family first for
a Chinese, Japanese or Korean name and for ``"static-ordering": true``; given name first
before). The library holds the papers as the version before stored them (``papers import``
at b4455a2 wrote these documents from this file): each paper known by its title and first
author is found under its id, keeps its decision, and takes the name as now read."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from storage import Library, Status
from storage.export import export
from storage.files.triage_model import TriageState, doc_id
from storage.importing.author_keys import same_person

ITEMS = [
    {"id": "a", "type": "book", "title": "馬說", "author": [{"family": "韓", "given": "愈"}]},
    {"id": "b", "type": "book", "title": "On Guerrilla Warfare",
     "author": [{"family": "Mao", "given": "Zedong", "static-ordering": True}]},
]  # fmt: skip
#: (id, title, first author) as the version before stored them.
STORED = (("faab4f01c9fc", "馬說", "愈 韓"), ("37d84e7bca3e", "On Guerrilla Warfare", "Zedong Mao"))


def _doc(place: int, pid: str, title: str, author: str) -> dict[str, Any]:
    return {
        "id": pid, "title": title, "abstract": "", "authors": [author], "github": [], "url": "",
        "keywords": [], "venue_status": "", "list": "refs.csl", "position": place,
        "title_derived": False, "name": "", "lists": ["refs.csl"], "venue": "",
        "extra": [["entry_type", "book"]],
    }  # fmt: skip


def test_a_csl_file_imported_again_keeps_its_papers_and_their_ids(tmp_path: Path) -> None:
    """Found on the first version of the fix: ``韓愈`` was not the ``愈 韓`` stored (another
    first author), and the paper came in a second time, in the Inbox."""
    source = tmp_path / "refs.csl.json"
    source.write_text(json.dumps(ITEMS, ensure_ascii=False), encoding="utf-8")
    home = tmp_path / "home"
    home.mkdir()
    docs = [_doc(n, *stored) for n, stored in enumerate(STORED)]
    tables = {
        "papers": {str(doc_id(d["id"])): d for d in docs},
        "lists": {"1": {"name": "refs.csl", "sources": {str(source): 0}, "at": 1, "size": 2}},
        "meta": {"1": {"schema": 2, "kind": "papers", "writes": 1}},
    }
    (home / "papers.json").write_text(json.dumps(tables), encoding="utf-8")
    ids = [d["id"] for d in docs]
    Library(home).set_statuses(ids, Status.STARRED)

    report = Library(home).import_file(source)
    again = Library(home).import_file(source)

    papers = Library(home).papers()
    assert [p.id for p in papers] == ids and not report.added and not again.added
    assert [p.authors for p in papers] == [("韓愈",), ("Mao Zedong",)]
    assert {Library(home).status(pid) for pid in ids} == {Status.STARRED}


def test_a_cjk_name_is_one_person_in_either_order_and_not_another() -> None:
    assert same_person("韓愈", "愈 韓") and same_person("毛泽东", "泽东 毛")
    assert not same_person("韓愈", "韓退之") and not same_person("王明", "王明明")


def test_our_own_csl_export_of_a_cjk_name_comes_back_as_it_was_kept(tmp_path: Path) -> None:
    """Our export writes a name's last word as its family (``三 张`` from BibTeX's ``张, 三``,
    ``韓 愈`` as a source spaced it): read in CSL's order it came back ``张三`` and ``愈韓``,
    and a paper known by its title and first author took another id in an empty HOME."""
    home = tmp_path / "home"
    bib = tmp_path / "refs.bib"
    bib.write_text(
        "@article{a, title={A study of rivers}, author={张, 三 and Lee, Ann}, year={2024}}\n"
        "@article{b, title={A study of lakes}, author={韓 愈}, year={2024}}\n",
        encoding="utf-8",
    )
    library = Library(home)
    library.import_file(bib)
    before = [(p.id, p.authors) for p in library.papers()]
    exported = tmp_path / "refs.csl.json"
    exported.write_text(export(library.papers(), TriageState(), "csl-json"), encoding="utf-8")

    again = Library(tmp_path / "empty")
    again.import_file(exported)

    assert [(p.id, p.authors) for p in again.papers()] == before
