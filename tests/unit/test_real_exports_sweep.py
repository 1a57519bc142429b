"""Exports as real tools wrote them, found by a sweep of public repositories: every entry
comes in as a paper with its year, or a line of the report says why it could not.

Each file of ``tests/fixtures/real_exports`` named here is listed, with the public file it
comes from, in that folder's README (or names it in its opening comment).
"""

from __future__ import annotations

from pathlib import Path

from storage.sources.records import SourceRecord
from storage.sources.registry import read_source
from storage.sources.venues import find_year

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


def test_a_biblatex_date_that_names_no_year_the_library_keeps_is_said() -> None:
    # BibLaTeX's EDTF: ``-0876`` (before the common era) was dropped without a word, while a
    # ``year`` of ``795`` was said; the other forms give their year
    result = read_source(FOLDER / "biblatex_edtf_dates.bib")
    assert [_year(record) for record in result.records] == [None, 1723, 1723, 1723, 1988, 2004]
    (warning,) = result.warnings
    assert "record 1: '-0876'" in warning and "imported without one" in warning


def test_a_csl_date_whose_parts_name_no_year_the_library_keeps_is_said() -> None:
    # ``"issued": {"date-parts": [["795"]]}`` was dropped without a word (its ``raw`` or
    # ``literal`` forms, and BibTeX's and RIS's years, were said)
    result = read_source(FOLDER / "csl_string_dates.json")
    assert [_year(record) for record in result.records] == [2000, 1965, None]
    assert dict(result.records[1].extra)["month"] == 6
    (warning,) = result.warnings
    assert "record 3: '795'" in warning and "imported without one" in warning


#: Each file of the sweep: its entries as counted apart from the reader (BibTeX's ``@type{``
#: but ``@comment``, ``@string`` and ``@preamble``; RIS's ``TY  -``; ``PT`` lines; ``%0``;
#: ``<record>``; ``<entry>``; a JSON array's items), the records read, the records refused
#: with a reason or lending their fields (a ``crossref``'s book), and the records read with
#: a year (their own, or the one their venue names: arXiv's journal reference).
SWEEP = {
    "wok_2011.txt": (2, 2, 0, 2),
    "isi_inspec.isi": (1, 1, 0, 1),
    "biblatex_quotes.bib": (4, 4, 0, 0),
    "biblatex_edtf_dates.bib": (6, 6, 0, 5),
    "csl_string_dates.json": (3, 3, 0, 2),
    "bibtex_parens_1990s.bib": (16, 16, 0, 13),  # three name crossrefs it lacks: said
    "qiqqa.bib": (2, 2, 0, 2),
    "bibdesk_crossref_date.bib": (6, 3, 3, 3),  # three books lend their date to chapters
    "biblatex_examples.bib": (21, 20, 1, 19),  # @set: no title, said; a crossref it lacks
    "mendeley_groups.bib": (4, 4, 0, 4),
    "rispy_full.ris": (2, 2, 0, 2),
    "aip_scitation.ris": (2, 2, 0, 2),
    "sciencedirect.ris": (1, 1, 0, 1),
    "dnb_book.enw": (1, 1, 0, 1),
    "bookends.xml": (1, 1, 0, 1),
    "endnote_styles.xml": (3, 3, 0, 3),
    "arxiv_api_id_list.atom": (1, 1, 0, 1),
    "s2_paper.json": (1, 1, 0, 1),
    "bbt_online_philpapers.bib": (2, 2, 0, 2),
}


def test_every_entry_of_the_sweep_is_read_or_refused_with_its_year() -> None:
    found = {}
    for name in SWEEP:
        result = read_source(FOLDER / name)
        records = result.records
        with_year = sum(1 for r in records if _year(r) or (r.venue and find_year(r.venue)))
        others = len(result.errors) + result.containers
        found[name] = (len(records) + others, len(records), others, with_year)
    assert found == SWEEP
