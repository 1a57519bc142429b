"""What EndNote XML says of a book's or a chapter's series and of a thesis's type, read into the
fields the other readers fill: a book's or a report's ``<secondary-title>`` and a chapter's or
a paper's ``<tertiary-title>`` (EndNote's "Series Title" of each type, where Zotero's "Endnote
XML" export writes a ``series`` too) are its ``series``; a thesis's ``<work-type>`` (Zotero's
``thesisType``, EndNote's "Thesis Type") says a master's thesis. Each was dropped.
"""

from __future__ import annotations

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
