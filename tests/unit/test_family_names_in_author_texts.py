"""A family name of two words in an authors field that is one text, not a list of names: a
JSON or JSON Lines list made from a BibTeX file (bibtexparser's entries dumped as they are:
``"author": "García Márquez, Gabriel and Lloyd Webber, Andrew"``), or a CSV's column of names
written ``Last, First; Last, First`` (Web of Science's ``AF``, a spreadsheet's).

The BibTeX-style text was cut at its commas into four people (``García Márquez``,
``Gabriel``, ``Lloyd Webber``, ``Andrew``); the ``;`` text was read ``Gabriel García
Márquez``, which every export then cited as ``Márquez, Gabriel García``, and a list of such
names with one ``Smith, John, Jr.`` among them was kept unread (``De Silva, Rohan``). Each
now reads as one person, the family name's words tied (``storage.sources.authors
.FAMILY_TIE``), as the BibTeX and RIS readers read them.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from storage import Library
from storage.export import export
from storage.sources.authors import name_parts, names_of

TIED = "\u00a0"


def test_a_bibtex_style_text_of_two_word_family_names_is_two_people() -> None:
    people = names_of("García Márquez, Gabriel and Lloyd Webber, Andrew")
    assert people == (f"Gabriel García{TIED}Márquez", f"Andrew Lloyd{TIED}Webber")
    assert names_of("van der Berg, Anna and De Silva, Rohan and Lee, Ann") == (
        "Anna van der Berg",
        f"Rohan De{TIED}Silva",
        "Ann Lee",
    )


def test_a_semicolon_text_ties_the_family_name_and_reads_a_suffix() -> None:
    assert names_of("García Márquez, Gabriel; Lloyd Webber, Andrew") == (
        f"Gabriel García{TIED}Márquez",
        f"Andrew Lloyd{TIED}Webber",
    )
    assert names_of("De Silva, Rohan; van der Berg, Anna; Smith, John, Jr.") == (
        f"Rohan De{TIED}Silva",
        "Anna van der Berg",
        "John Smith Jr.",
    )


def test_texts_that_read_otherwise_are_read_as_before() -> None:
    """Three people written ``First Last`` apart by commas, one without a comma among
    ``Last, First`` ones, a name and its institution: not taken for family names."""
    assert names_of("Ann Lee, Bo Park and Cy Doe") == ("Ann Lee", "Bo Park", "Cy Doe")
    assert names_of("Lee, Ann and Park, Bo") == ("Ann Lee", "Bo Park")
    assert names_of("Lee, Ann; University of California, Berkeley") == (
        "Ann Lee",
        "University of California, Berkeley",
    )


BIBTEXPARSER_JSON = [
    {
        "ENTRYTYPE": "article",
        "ID": "garciamarquez2020",
        "title": "A Study of Solitude in Networks",
        "author": "García Márquez, Gabriel and Lloyd Webber, Andrew",
        "journal": "Journal of Things",
        "year": "2020",
        "doi": "10.1000/solitude",
    }
]

SPREADSHEET_CSV = (
    "Title,Authors,Year,Source title,DOI\n"
    '"A Study of Solitude in Networks","García Márquez, Gabriel; Lloyd Webber, Andrew",'
    "2020,Journal of Things,10.1000/solitude\n"
)


@pytest.mark.parametrize("name", ["bibtexparser.json", "spreadsheet.csv"])
def test_the_export_cites_the_family_names_whole(tmp_path: Path, name: str) -> None:
    source = tmp_path / name
    text = json.dumps(BIBTEXPARSER_JSON) if name.endswith(".json") else SPREADSHEET_CSV
    source.write_text(text, encoding="utf-8")
    library = Library(tmp_path / "home")
    report = library.import_file(source)
    assert report.added == 1 and not report.errors and not report.warnings
    (paper,) = library.papers()
    assert [a.split() for a in paper.authors] == [
        ["Gabriel", "García", "Márquez"],
        ["Andrew", "Lloyd", "Webber"],
    ]
    assert name_parts(paper.authors[0]).family == "García Márquez"
    bib = export([paper], library.triage(), "bibtex")
    assert "author = {Garc{\\'i}a M{\\'a}rquez, Gabriel and Lloyd Webber, Andrew}" in bib, bib
