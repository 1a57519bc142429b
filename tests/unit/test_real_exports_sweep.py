"""Exports as real tools wrote them, found by a sweep of public repositories: every entry
comes in as a paper with its year, or a line of the report says why it could not.

Each file of ``tests/fixtures/real_exports`` named here is listed, with the public file it
comes from, in that folder's README (or names it in its opening comment).
"""

from __future__ import annotations

from pathlib import Path

from storage.sources.records import SourceRecord
from storage.sources.registry import read_source

FOLDER = Path(__file__).resolve().parents[1] / "fixtures" / "real_exports"


def _year(record: SourceRecord) -> object:
    return dict(record.extra).get("year")


def test_web_of_knowledge_and_isi_plain_text_are_web_of_science_exports() -> None:
    # "FN Thomson Reuters Web of Knowledge" (2008 to 2014) and "FN ISI Export Format" (ISI's
    # and INSPEC's, before): read as lists of abstracts, each gave two papers named "FN …"
    # and "PT J", and none of its records
    result = read_source(FOLDER / "wok_2011.txt")
    assert not result.errors
    first, second = result.records
    assert first.title == (
        "Anaplerotic Role for Cytosolic Malic Enzyme in Engineered Saccharomyces cerevisiae Strains"
    )
    assert first.authors[0] == "Rintze M. Zelle" and len(first.authors) == 4
    assert (_year(first), _year(second)) == (2011, 2010)
    (inspec,) = read_source(FOLDER / "isi_inspec.isi").records
    assert inspec.title == "Optical properties of MgO doped LiNbO/sub 3/ single crystals"
    assert _year(inspec) == 2006 and inspec.venue.startswith("Optical Materials")


def test_biblatex_quotation_commands_keep_their_quotation_marks() -> None:
    # `\enquote{…}` and `\mkbibquote{…}` print quotation marks: the title lost them
    titles = [record.title for record in read_source(FOLDER / "biblatex_quotes.bib").records]
    assert titles == [
        "Blah emph and “enquote”.",
        "Blah mkbibemph and “mkbibquote”.",
        "Blah emph and “enquote”.",
        "Blah mkbibemph and “mkbibquote”.",
    ]
