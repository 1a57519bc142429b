"""Author lists in CSV files and in the text of a list's authors column: Zotero's ``Author``
(``Last, First; Last2, First2``, an organization's name as it is: Zotero's CSV translator
joins each creator's ``lastName, firstName``, or a single-field name alone, with ``; ``),
Scopus's and a generic list's, and an organization whose name holds a comma there and in
RIS (``AU  - University of California, Berkeley``, as our RIS export writes it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from storage.export import export
from storage.files.triage_file import TriageState
from storage.sources.authors import last_first, names_of
from storage.sources.papers import build_paper
from storage.sources.registry import read_source, read_text_content

#: The first columns of Zotero's CSV export (its translator's header, in its order).
ZOTERO_HEADER = (
    '"Key","Item Type","Publication Year","Author","Title","Publication Title","ISBN","ISSN",'
    '"DOI","Url","Abstract Note","Date","Date Added","Date Modified"'
)


def _zotero_row(authors: str) -> str:
    rest = '"Paper One","J","","","","","x","2020","",""'
    return f'"ABCD1234","journalArticle","2020","{authors}",{rest}'


def test_zotero_csv_keeps_an_organization_whose_name_holds_a_comma(tmp_path: Path) -> None:
    """``University of California, Berkeley`` read as ``Berkeley University of California``."""
    path = tmp_path / "zotero.csv"
    authors = (
        "van der Berg, Jan; Google Research; University of California, Berkeley; "
        "Smith, John, Jr.; O'Neil, Mary-Kate"
    )
    path.write_text(f"{ZOTERO_HEADER}\n{_zotero_row(authors)}\n", encoding="utf-8")
    (record,) = read_source(path).records
    assert record.authors == (
        "Jan van der Berg",
        "Google Research",
        "University of California, Berkeley",
        "John Smith Jr.",
        "Mary-Kate O'Neil",
    )


@pytest.mark.parametrize(
    ("text", "names"),
    [
        (
            "Lee, Ann; University of California, Berkeley",
            ("Ann Lee", "University of California, Berkeley"),
        ),
        ("Lee, Ann; Google DeepMind; Park, Bo", ("Ann Lee", "Google DeepMind", "Bo Park")),
        ("Lee, Ann and Park, Bo and Google Research", ("Ann Lee", "Bo Park", "Google Research")),
        ("Ann Lee; Bo Park; Google DeepMind", ("Ann Lee", "Bo Park", "Google DeepMind")),
        ("Lee, Ann; Park, Bo", ("Ann Lee", "Bo Park")),
        ("Ann Lee, Bo Park", ("Ann Lee", "Bo Park")),
    ],
)
def test_a_lists_authors_text_keeps_people_and_organizations_apart(
    text: str, names: tuple[str, ...]
) -> None:
    """The first three were read ``Lee, Ann; University …`` as written (the people not
    turned), and ``Lee``, ``Ann``, ``Park``, ``Bo``, ``Google Research``."""
    assert names_of(text) == names


def test_an_organization_with_a_comma_comes_back_from_our_ris_export() -> None:
    """Our RIS export writes an organization whole; reading it turned it round."""
    assert last_first("University of California, Berkeley") == "University of California, Berkeley"
    assert last_first("van der Berg, Jan") == "Jan van der Berg"
    text = (
        "TY  - JOUR\nTI  - Names\nAU  - University of California, Berkeley\n"
        "AU  - Lee, Ann\nER  - \n"
    )
    [record] = read_text_content(text, Path("names.ris")).records
    paper = build_paper(record, "names", 0)
    text = export([paper], TriageState(), "ris")
    assert "AU  - University of California, Berkeley" in text
    (record,) = read_text_content(text, Path("back.ris")).records
    assert record.authors == ("University of California, Berkeley", "Ann Lee")
