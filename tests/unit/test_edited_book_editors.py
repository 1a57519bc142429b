"""EndNote's "Edited Book": its Author field is labelled Editor, so the people EndNote writes
in it are the book's editors. EndNote XML (``<ref-type name="Edited Book">28</ref-type>``,
the editors in ``contributors/authors``), EndNote's tagged export (``%0 Edited Book``, the
editors as ``%A``) and RIS (``TY  - EDBOOK``, the editors as ``AU``, its series' editor as
``A2``: the RIS specification's table of EndNote's reference types, ``AU - Editor``,
``A2 - Editor, Series``) were read with the editors as the book's authors: BibTeX's export
wrote ``author = {…}`` and RIS's ``AU``, where BibTeX's ``@book{…, editor = {…}}`` of the
same book gives ``editor``. They are read as its editors now, as the other readers read them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from storage import Library
from storage.export import export
from storage.sources.citation import editors_only

ENDNOTE_XML = """<?xml version="1.0" encoding="UTF-8" ?><xml><records><record>\
<database name="My Library.enl" path="C:\\Users\\x\\Documents\\My Library.enl">My Library.enl\
</database><source-app name="EndNote" version="20.0">EndNote</source-app><rec-number>12\
</rec-number><foreign-keys><key app="EN" db-id="ez0s2x">12</key></foreign-keys>\
<ref-type name="Edited Book">28</ref-type><contributors><authors><author>\
<style face="normal" font="default" size="100%">Roe, Richard</style></author><author>\
<style face="normal" font="default" size="100%">Poe, Edgar A.</style></author></authors>\
<secondary-authors><author><style face="normal" font="default" size="100%">Goos, Gerhard\
</style></author></secondary-authors></contributors><titles><title>\
<style face="normal" font="default" size="100%">The Handbook of Stuff</style></title>\
<secondary-title><style face="normal" font="default" size="100%">Lecture Notes in Stuff\
</style></secondary-title></titles><dates><year>\
<style face="normal" font="default" size="100%">2019</style></year></dates><pub-location>\
<style face="normal" font="default" size="100%">Cham</style></pub-location><publisher>\
<style face="normal" font="default" size="100%">Springer</style></publisher></record>\
</records></xml>
"""

ENDNOTE_TAGGED = """%0 Edited Book
%A Roe, Richard
%A Poe, Edgar A.
%T The Handbook of Stuff
%D 2019
%C Cham
%I Springer
%E Goos, Gerhard
%S Lecture Notes in Stuff

"""

ENDNOTE_RIS = """TY  - EDBOOK
AU  - Roe, Richard
AU  - Poe, Edgar A.
A2  - Goos, Gerhard
T2  - Lecture Notes in Stuff
TI  - The Handbook of Stuff
PY  - 2019
CY  - Cham
PB  - Springer
ER  - 

"""

SOURCES = {"endnote.xml": ENDNOTE_XML, "endnote.enw": ENDNOTE_TAGGED, "endnote.ris": ENDNOTE_RIS}


@pytest.mark.parametrize("name", list(SOURCES))
def test_an_edited_books_people_are_its_editors(tmp_path: Path, name: str) -> None:
    source = tmp_path / name
    source.write_text(SOURCES[name], encoding="utf-8")
    library = Library(tmp_path / "home")
    report = library.import_file(source)
    assert report.added == 1 and not report.errors and not report.warnings
    (paper,) = library.papers()
    assert paper.authors == ("Richard Roe", "Edgar A. Poe")  # shown as its people still
    assert editors_only(paper)
    bib = export([paper], library.triage(), "bibtex")
    assert "editor = {Richard Roe and Edgar A. Poe}" in bib and "author =" not in bib, bib
    ris = export([paper], library.triage(), "ris")
    assert "ED  - Roe, Richard\n" in ris and "AU  -" not in ris, ris


def test_an_edited_books_series_editor_in_ris_is_not_its_editor(tmp_path: Path) -> None:
    """``A2`` of an ``EDBOOK`` is its series' editor (the RIS specification's ``Editor,
    Series``), not its editors, also when no ``AU`` names them."""
    source = tmp_path / "series.ris"
    source.write_text(
        "TY  - EDBOOK\nA2  - Goos, Gerhard\nTI  - The Handbook of Stuff\nPY  - 2019\nER  - \n",
        encoding="utf-8",
    )
    library = Library(tmp_path / "home")
    library.import_file(source)
    (paper,) = library.papers()
    assert paper.authors == ()
    assert paper.fact("series_editors") == "Gerhard Goos"


def test_a_collection_named_by_its_authors_comes_back_with_authors(tmp_path: Path) -> None:
    """Our RIS export wrote such a collection ``TY  - EDBOOK`` with ``AU``: its authors came
    back as its editors."""
    source = tmp_path / "collection.bib"
    source.write_text(
        "@collection{c, title = {A Collection}, author = {Lee, Ann}, year = {2020}}\n",
        encoding="utf-8",
    )
    library = Library(tmp_path / "home")
    library.import_file(source)
    out = tmp_path / "back.ris"
    out.write_text(export(library.papers(), library.triage(), "ris"), encoding="utf-8")
    fresh = Library(tmp_path / "fresh")
    fresh.import_file(out)
    (paper,) = fresh.papers()
    assert paper.authors == ("Ann Lee",) and not editors_only(paper)


def test_an_edited_books_ed_beside_its_au_are_editors_too(tmp_path: Path) -> None:
    """An ``EDBOOK`` naming people in both ``AU`` and ``ED``: those of ``ED`` were dropped
    once ``AU`` was read as its editors (before, they were its editors beside ``AU``'s
    authors). Both are its editors now, each once."""
    source = tmp_path / "both.ris"
    source.write_text(
        "TY  - EDBOOK\nAU  - Roe, Richard\nED  - Doe, Jane\nED  - Roe, Richard\n"
        "TI  - The Handbook of Stuff\nPY  - 2019\nER  - \n",
        encoding="utf-8",
    )
    library = Library(tmp_path / "home")
    library.import_file(source)
    (paper,) = library.papers()
    assert paper.authors == ("Richard Roe", "Jane Doe") and editors_only(paper)
    bib = export([paper], library.triage(), "bibtex")
    assert "editor = {Richard Roe and Jane Doe}" in bib, bib
