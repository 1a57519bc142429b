"""A family name of two words that its source wrote apart (``Stender Clausen, Jørgen``) keeps
its split through import and export: BibTeX, RIS and CSL-JSON wrote it back ``Clausen,
Jørgen Stender`` (the library keeps a name flat, and the exports took its last word for the
family name). Its words are now tied (``storage.sources.authors.FAMILY_TIE``); a paper known
by its title keeps the id it had (the tie reads as a space).

The records are written as their tools write them: JabRef's and Zotero's BibTeX, Zotero's
and Mendeley's RIS, EndNote's XML, Zotero's CSL-JSON (``family`` and ``given``), a BibTeX
name written ``First {Last Last}``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from storage import Library
from storage.export import export
from storage.importing.identity import id_of_title
from storage.sources.authors import name_parts, names_of
from storage.sources.registry import read_source

TITLE = "Branch and bound for the quadratic assignment problem"

JABREF_BIB = """% Encoding: UTF-8

@Article{StenderClausen1996,
  author    = {Stender Clausen, Jørgen and Perregaard, Michael},
  title     = {Branch and bound for the quadratic assignment problem},
  journal   = {Annals of Operations Research},
  year      = {1996},
  volume    = {63},
  pages     = {95--113},
}

@Comment{jabref-meta: databaseType:bibtex;}
"""

BRACED_BIB = """@article{clausen1996,
  title = {Branch and bound for the quadratic assignment problem},
  author = {J{\\o}rgen {Stender Clausen} and Michael Perregaard},
  journal = {Annals of Operations Research},
  year = {1996}
}
"""

ZOTERO_RIS = """TY  - JOUR
TI  - Branch and bound for the quadratic assignment problem
AU  - Stender Clausen, Jørgen
AU  - Perregaard, Michael
T2  - Annals of Operations Research
DA  - 1996///
PY  - 1996
VL  - 63
SP  - 95
EP  - 113
ER  - 

"""

ENDNOTE_XML = """<?xml version="1.0" encoding="UTF-8" ?><xml><records><record>\
<database name="My EndNote Library.enl" path="My EndNote Library.enl">My EndNote Library.enl\
</database><source-app name="EndNote" version="20.0">EndNote</source-app><rec-number>1\
</rec-number><ref-type name="Journal Article">17</ref-type><contributors><authors><author>\
<style face="normal" font="default" size="100%">Stender Clausen, Jørgen</style></author>\
<author><style face="normal" font="default" size="100%">Perregaard, Michael</style></author>\
</authors></contributors><titles><title><style face="normal" font="default" size="100%">\
Branch and bound for the quadratic assignment problem</style></title><secondary-title>\
<style face="normal" font="default" size="100%">Annals of Operations Research</style>\
</secondary-title></titles><volume>63</volume><dates><year>1996</year></dates></record>\
</records></xml>
"""

ZOTERO_CSL = [
    {
        "id": "http://127.0.0.1/users/local/abcd1234/items/XYZ12345",
        "type": "article-journal",
        "container-title": "Annals of Operations Research",
        "page": "95-113",
        "title": TITLE,
        "volume": "63",
        "author": [
            {"family": "Stender Clausen", "given": "Jørgen"},
            {"family": "Perregaard", "given": "Michael"},
        ],
        "issued": {"date-parts": [["1996"]]},
    }
]

SOURCES = {
    "jabref.bib": JABREF_BIB,
    "braced.bib": BRACED_BIB,
    "zotero.ris": ZOTERO_RIS,
    "endnote.xml": ENDNOTE_XML,
    "zotero.csl.json": json.dumps(ZOTERO_CSL, ensure_ascii=False),
}


def _imported(tmp_path: Path, name: str) -> Library:
    source = tmp_path / name
    source.write_text(SOURCES[name], encoding="utf-8")
    library = Library(tmp_path / "home")
    library.import_file(source)
    return library


@pytest.mark.parametrize("name", list(SOURCES))
def test_a_family_name_of_two_words_comes_back_whole_from_every_citation_export(
    tmp_path: Path, name: str
) -> None:
    library = _imported(tmp_path, name)
    (paper,) = library.papers()
    assert paper.authors[0].split() == ["Jørgen", "Stender", "Clausen"]  # shown as it was
    assert name_parts(paper.authors[0]).family == "Stender Clausen"
    bib = export([paper], library.triage(), "bibtex")
    assert "author = {Stender Clausen, J{\\o}rgen and Michael Perregaard}" in bib
    ris = export([paper], library.triage(), "ris")
    assert "AU  - Stender Clausen, Jørgen\n" in ris
    (item,) = json.loads(export([paper], library.triage(), "csl-json"))
    assert item["author"][0] == {"family": "Stender Clausen", "given": "Jørgen"}


def test_the_paper_keeps_its_id(tmp_path: Path) -> None:
    """A title-only paper's id takes its first author's family name as the flat name read it
    before (``clausen``): a library made before finds its papers again."""
    library = _imported(tmp_path, "zotero.ris")
    (paper,) = library.papers()
    assert paper.id == id_of_title(TITLE, ("Jørgen Stender Clausen",))


@pytest.mark.parametrize("fmt", ["bibtex", "ris", "csl-json"])
def test_the_split_survives_a_round_trip_through_each_export(tmp_path: Path, fmt: str) -> None:
    library = _imported(tmp_path, "jabref.bib")
    (paper,) = library.papers()
    out = tmp_path / {"bibtex": "back.bib", "ris": "back.ris", "csl-json": "back.csl.json"}[fmt]
    out.write_text(export([paper], library.triage(), fmt), encoding="utf-8")
    (record,) = read_source(out).records
    assert record.authors == paper.authors
    fresh = Library(tmp_path / "fresh")
    fresh.import_file(out)
    (again,) = fresh.papers()
    assert again.id == paper.id
    ris = export([again], fresh.triage(), "ris")
    assert "AU  - Stender Clausen, Jørgen\n" in ris


def test_no_break_spaces_a_source_gave_elsewhere_are_spaces() -> None:
    """A no-break space a list's names hold (an HTML page's ``&nbsp;``) ties no family name but
    the last words' after a given name: a whole name tied is a name of spaces."""
    assert names_of(["Jean\u00a0Dupont", "Ann\u00a0 Lee", "Jean \u00a0Dupont"]) == (
        "Jean Dupont",
        "Ann Lee",
        "Jean Dupont",
    )
    assert name_parts("Jean\u00a0Pierre Dupont").family == "Dupont"


def test_a_no_break_space_after_an_initial_ties_no_family_name(tmp_path: Path) -> None:
    """Typesetting ties an initial to the word after it (``John D.&nbsp;Smith``, an HTML
    page's; ``J.-P.&nbsp;Roux``): a list's name so written was cited ``D. Smith, John``, its
    key ``dsmith…``, where it was ``John D. Smith``, key ``smith…``. A tie holding an initial
    is no family name's; the name reads as it did, whether it comes from a list or a library
    that stored it tied."""
    assert names_of(["John D.\u00a0Smith", "J.-P.\u00a0Roux", "Yann Le\u00a0Cun"]) == (
        "John D. Smith",
        "J.-P. Roux",
        "Yann Le\u00a0Cun",
    )
    parts = name_parts("John D.\u00a0Smith")  # (as a library made before holds it)
    assert (parts.family, parts.given) == ("Smith", "John D.")
    source = tmp_path / "list.json"
    row = {"title": TITLE, "authors": ["John D.\u00a0Smith"], "abstract": ""}
    source.write_text(json.dumps([row]), encoding="utf-8")
    library = Library(tmp_path / "home")
    library.import_file(source)
    bib = export(library.papers(), library.triage(), "bibtex")
    assert "@misc{smith" in bib and "author = {John D. Smith}" in bib, bib  # (as before)


def test_hostile_characters_in_a_tied_family_name_are_shown_as_in_any_name(
    tmp_path: Path,
) -> None:
    bib = tmp_path / "hostile.bib"
    bib.write_text(
        "@article{x, author = {Stender \x1b[2J Clausen, J\x07rgen and Lee, Ann},\n"
        "  title = {Escapes in names}, journal = {J}, year = {2000}}\n",
        encoding="utf-8",
    )
    library = Library(tmp_path / "home")
    library.import_file(bib)
    (paper,) = library.papers()
    for fmt in ("bibtex", "ris", "csl-json", "markdown"):
        text = export([paper], library.triage(), fmt)
        assert "\x1b" not in text and "\x07" not in text


def test_an_editors_family_name_of_two_words_comes_back_whole(tmp_path: Path) -> None:
    """A volume's editors (its people: ``edited_by``) and a chapter's book's (``editors``)."""
    bib = tmp_path / "edited.bib"
    bib.write_text(
        "@book{volume, editor = {Stender Clausen, Jørgen and Lee, Ann},\n"
        "  title = {Edited volume}, publisher = {P}, year = {2001}}\n"
        "@incollection{chapter, author = {Park, Bo}, editor = {Stender Clausen, Jørgen},\n"
        "  title = {A chapter}, booktitle = {Edited volume}, year = {2001}}\n",
        encoding="utf-8",
    )
    library = Library(tmp_path / "home")
    library.import_file(bib)
    papers = library.papers()
    ris = export(papers, library.triage(), "ris")
    assert ris.count("Stender Clausen, Jørgen\n") == 2
    assert "ED  - Stender Clausen, Jørgen\n" in ris
    bibtex = export(papers, library.triage(), "bibtex")
    assert bibtex.count("editor = {Stender Clausen, J{\\o}rgen") == 2
    items = json.loads(export(papers, library.triage(), "csl-json"))
    assert [item["editor"][0] for item in items] == [
        {"family": "Stender Clausen", "given": "Jørgen"}
    ] * 2


def test_a_list_that_wrote_the_name_whole_takes_the_split_its_bibtex_gives(
    tmp_path: Path,
) -> None:
    """A paper first imported from a list (``Jørgen Stender Clausen``, as a library made
    before the split was kept holds it too), then from its BibTeX: the split is taken."""
    listed = tmp_path / "list.json"
    listed.write_text(
        json.dumps([{"title": TITLE, "authors": ["Jørgen Stender Clausen", "Michael Perregaard"]}]),
        encoding="utf-8",
    )
    library = Library(tmp_path / "home")
    library.import_file(listed)
    (before,) = library.papers()
    assert name_parts(before.authors[0]).family == "Clausen"
    bib = tmp_path / "jabref.bib"
    bib.write_text(JABREF_BIB, encoding="utf-8")
    library.import_file(bib)
    (after,) = library.papers()
    assert after.id == before.id
    assert "AU  - Stender Clausen, Jørgen\n" in export([after], library.triage(), "ris")
    report = library.import_file(bib)  # again: nothing changes
    assert (report.added, report.updated) == (0, 0)
