"""What EndNote XML says of a book's or a chapter's series and of a thesis's type, read into the
fields the other readers fill: a book's or a report's ``<secondary-title>`` and a chapter's or
a paper's ``<tertiary-title>`` (EndNote's "Series Title" of each type, where Zotero's "Endnote
XML" export writes a ``series`` too) are its ``series``; a thesis's ``<work-type>`` (Zotero's
``thesisType``, EndNote's "Thesis Type") says a master's thesis. Each was dropped.

And Zotero's "Series Editor" of a book or a chapter, as each tool writes it: Zotero's RIS
(a book's ``A2``, a chapter's ``A3``: zotero/translators ``RIS.js``), its CSL-JSON
(``collection-editor``), its web API's JSON (``seriesEditor``), EndNote's XML (a book's
``secondary-authors``, a chapter's ``tertiary-authors``): kept as ``series_editors`` and
written back where each format wants them (it was read only as the people of a book that
named no one else).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from storage import Library
from storage.export import export
from storage.models import Paper
from storage.sources.citation import citation_of

_STYLE = '<style face="normal" font="default" size="100%">'


def _styled(text: str) -> str:
    """A value as EndNote writes it: one normal run."""
    return f"{_STYLE}{text}</style>"


def _endnote(*records: str) -> str:
    """EndNote 21's File → Export → XML."""
    return (
        '<?xml version="1.0" encoding="UTF-8" ?><xml><records>' + "".join(records)
        + "</records></xml>\n"
    )  # fmt: skip


ENDNOTE_BOOK = (
    '<record><database name="Lib.enl" path="Lib.enl">Lib.enl</database>'
    '<source-app name="EndNote" version="21.0">EndNote</source-app><rec-number>1</rec-number>'
    '<ref-type name="Book">6</ref-type><contributors><authors>'
    f"<author>{_styled('Knuth, Donald E.')}</author></authors></contributors>"
    f"<titles><title>{_styled('Selected Papers on Computer Science')}</title>"
    f"<secondary-title>{_styled('CSLI Lecture Notes')}</secondary-title></titles>"
    f"<volume>{_styled('59')}</volume><dates><year>{_styled('1996')}</year></dates>"
    f"<publisher>{_styled('CSLI Publications')}</publisher></record>"
)
ENDNOTE_CHAPTER = (
    '<record><database name="Lib.enl" path="Lib.enl">Lib.enl</database>'
    '<source-app name="EndNote" version="21.0">EndNote</source-app><rec-number>2</rec-number>'
    '<ref-type name="Book Section">5</ref-type><contributors><authors>'
    f"<author>{_styled('Bast, H.')}</author></authors><secondary-authors>"
    f"<author>{_styled('Crestani, Fabio')}</author></secondary-authors></contributors>"
    f"<titles><title>{_styled('Output-Sensitive Autocompletion Search')}</title>"
    f"<secondary-title>{_styled('String Processing and Information Retrieval')}"
    "</secondary-title>"
    f"<tertiary-title>{_styled('Lecture Notes in Computer Science')}</tertiary-title></titles>"
    f"<pages>{_styled('150-162')}</pages><volume>{_styled('4209')}</volume>"
    f"<dates><year>{_styled('2006')}</year></dates></record>"
)
# Zotero's "Endnote XML" export: plain text, no runs
ZOTERO_THESIS = (
    '<record><ref-type name="Thesis">32</ref-type><contributors><authors>'
    "<author>Lee, Ann</author></authors></contributors>"
    "<titles><title>Learning to rank papers</title></titles>"
    "<dates><year>2021</year></dates><publisher>University of Somewhere</publisher>"
    "<work-type>Master's thesis</work-type></record>"
)
ENDNOTE_PHD = (
    '<record><ref-type name="Thesis">32</ref-type><contributors><authors>'
    f"<author>{_styled('Park, Bo')}</author></authors></contributors>"
    f"<titles><title>{_styled('Ranking papers, at length')}</title></titles>"
    f"<dates><year>{_styled('2022')}</year></dates>"
    f"<publisher>{_styled('University of Elsewhere')}</publisher>"
    f"<work-type>{_styled('Ph.D. Thesis')}</work-type></record>"
)


def _papers(tmp_path: Path, *records: str) -> dict[str, Paper]:
    source = tmp_path / "library.xml"
    source.write_text(_endnote(*records), encoding="utf-8")
    library = Library(tmp_path / "home")
    library.import_file(source)
    return {p.title: p for p in library.papers()}


def test_a_books_and_a_chapters_series_are_read(tmp_path: Path) -> None:
    papers = _papers(tmp_path, ENDNOTE_BOOK, ENDNOTE_CHAPTER)
    book = papers["Selected Papers on Computer Science"]
    chapter = papers["Output-Sensitive Autocompletion Search"]
    assert book.fact("series") == "CSLI Lecture Notes"
    assert chapter.fact("series") == "Lecture Notes in Computer Science"
    assert citation_of(chapter).booktitle == "String Processing and Information Retrieval"
    bib = export(list(papers.values()), Library(tmp_path / "home").triage(), "bibtex")
    assert bib.count("series = {") == 2


@pytest.mark.parametrize(
    ("record", "kind"),
    [(ZOTERO_THESIS, "mastersthesis"), (ENDNOTE_PHD, "phdthesis")],
    ids=["zotero-masters", "endnote-phd"],
)
def test_a_thesiss_type_of_work_says_a_masters(tmp_path: Path, record: str, kind: str) -> None:
    (paper,) = _papers(tmp_path, record).values()
    assert citation_of(paper).kind == kind


def test_hostile_values_in_the_series_are_kept_as_other_fields_are(tmp_path: Path) -> None:
    hostile = ENDNOTE_BOOK.replace("CSLI Lecture Notes", "Notes &#27;[2J &lt;b&gt;x" + "y" * 5000)
    (paper,) = _papers(tmp_path, hostile).values()
    series = paper.fact("series")
    assert isinstance(series, str) and len(series) <= 1000 and "\x1b" in series
    for fmt in ("bibtex", "markdown"):  # (RIS and CSV keep control characters, in any field)
        assert "\x1b" not in export([paper], Library(tmp_path / "home").triage(), fmt)


ZOTERO_RIS = """TY  - BOOK
TI  - Selected Papers on Computer Science
AU  - Knuth, Donald E.
A2  - Stender Clausen, Jørgen
T2  - CSLI Lecture Notes
PY  - 1996
PB  - CSLI Publications
ER  - 

TY  - CHAP
TI  - Output-Sensitive Autocompletion Search
AU  - Bast, H.
A2  - Crestani, Fabio
A3  - Goos, Gerhard
T2  - String Processing and Information Retrieval
T3  - Lecture Notes in Computer Science
PY  - 2006
ER  - 

"""
ZOTERO_CSL = [
    {
        "id": "http://127.0.0.1/users/local/abcd1234/items/AB12CD34",
        "type": "book",
        "title": "Selected Papers on Computer Science",
        "collection-title": "CSLI Lecture Notes",
        "publisher": "CSLI Publications",
        "author": [{"family": "Knuth", "given": "Donald E."}],
        "collection-editor": [{"family": "Stender Clausen", "given": "Jørgen"}],
        "issued": {"date-parts": [["1996"]]},
    }
]
ZOTERO_API = [
    {
        "key": "AB12CD34",
        "version": 12,
        "data": {
            "key": "AB12CD34",
            "version": 12,
            "itemType": "book",
            "title": "Selected Papers on Computer Science",
            "creators": [
                {"creatorType": "author", "firstName": "Donald E.", "lastName": "Knuth"},
                {
                    "creatorType": "seriesEditor",
                    "firstName": "Jørgen",
                    "lastName": "Stender Clausen",
                },
            ],
            "series": "CSLI Lecture Notes",
            "publisher": "CSLI Publications",
            "date": "1996",
            "tags": [],
            "collections": [],
            "relations": {},
        },
    }
]
ENDNOTE_SERIES_EDITED = ENDNOTE_BOOK.replace(
    "</authors></contributors>",
    f"</authors><secondary-authors><author>{_styled('Stender Clausen, Jørgen')}</author>"
    "</secondary-authors></contributors>",
)
ENDNOTE_CHAPTER_SERIES_EDITED = ENDNOTE_CHAPTER.replace(
    "</secondary-authors></contributors>",
    f"</secondary-authors><tertiary-authors><author>{_styled('Goos, Gerhard')}</author>"
    "</tertiary-authors></contributors>",
)


def _read(tmp_path: Path, name: str, text: str) -> dict[str, Paper]:
    source = tmp_path / name
    source.write_text(text, encoding="utf-8")
    library = Library(tmp_path / f"home-{name}")
    library.import_file(source)
    return {p.title: p for p in library.papers()}


BOOK, CHAPTER = "Selected Papers on Computer Science", "Output-Sensitive Autocompletion Search"


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("zotero.ris", ZOTERO_RIS),
        ("zotero.csl.json", json.dumps(ZOTERO_CSL, ensure_ascii=False)),
        ("zotero-api.json", json.dumps(ZOTERO_API, ensure_ascii=False)),
        ("endnote.xml", _endnote(ENDNOTE_SERIES_EDITED, ENDNOTE_CHAPTER_SERIES_EDITED)),
    ],
    ids=["zotero-ris", "zotero-csl", "zotero-api", "endnote-xml"],
)
def test_a_series_editor_is_read_and_written_back(tmp_path: Path, name: str, text: str) -> None:
    papers = _read(tmp_path, name, text)
    book = papers[BOOK]
    assert book.authors == ("Donald E. Knuth",) and book.fact("editors") is None
    assert str(book.fact("series_editors")).split() == ["Jørgen", "Stender", "Clausen"]
    if CHAPTER in papers:
        assert papers[CHAPTER].fact("series_editors") == "Gerhard Goos"
        assert papers[CHAPTER].fact("editors") == "Fabio Crestani"
    shown = list(papers.values())
    ris = export(shown, Library(tmp_path / "x").triage(), "ris").splitlines()
    assert "A2  - Stender Clausen, Jørgen" in ris  # a book's series' editor
    assert ("A3  - Goos, Gerhard" in ris) == (CHAPTER in papers)  # a chapter's
    items = json.loads(export(shown, Library(tmp_path / "x").triage(), "csl-json"))
    assert items[0]["collection-editor"] == [{"family": "Stender Clausen", "given": "Jørgen"}]
    for fmt, back in (("ris", "back.ris"), ("csl-json", "back.csl.json")):
        again = _read(tmp_path, back, export(shown, Library(tmp_path / "x").triage(), fmt))
        assert again[BOOK].fact("series_editors") == book.fact("series_editors")
        assert again[BOOK].fact("editors") is None and again[BOOK].authors == book.authors


def test_a_reports_series_editor_is_its_a2(tmp_path: Path) -> None:
    """Zotero's RIS of a report: its series' editor in ``A2`` (``RIS.js``), written back so."""
    text = (
        "TY  - RPRT\nTI  - A technical report\nAU  - Lee, Ann\nA2  - Goos, Gerhard\n"
        "T2  - Technical Reports in Computing\nPY  - 2001\nPB  - Some Institute\nER  - \n"
    )
    (report,) = _read(tmp_path, "report.ris", text).values()
    assert report.fact("series_editors") == "Gerhard Goos"
    ris = export([report], Library(tmp_path / "x").triage(), "ris").splitlines()
    assert "A2  - Goos, Gerhard" in ris


def test_a_book_of_its_series_editor_alone_is_theirs_still(tmp_path: Path) -> None:
    """Zotero's RIS of a book that names only its series' editor: they are its people (as
    before), not its series' editors too."""
    text = "TY  - BOOK\nTI  - A volume\nA2  - Goos, Gerhard\nPY  - 1990\nER  - \n"
    (book,) = _read(tmp_path, "alone.ris", text).values()
    assert book.authors == ("Gerhard Goos",) and book.fact("series_editors") is None
