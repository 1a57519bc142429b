"""Books, proceedings volumes and edited collections that name only their editors: every reader
takes the editors as the paper's people when no author is named (as BibTeX's and CSL's styles
cite them), and never adds them to authors that are named. They came with no one at all.

The files of ``tests/fixtures/real_exports`` named ``editors_only`` keep, trimmed, the shapes
of: DBLP's BibTeX of a volume (volkm/bibtex-dblp ``tests/files``) and biblatex's
``biblatex-examples.bib`` collections (as jgm/pandoc's ``test/command`` tests adapt them, the
CSL-JSON pandoc makes of them too); Zotero's and EndNote's RIS, where a book's editors are its
``A3`` (its ``A2`` its series' editor), a chapter's or a proceedings' its ``A2``, and ``ED`` an
editor whatever the type (zotero/translators ``RIS.js``: its field map and the EndNote
reference types of its test cases); Zotero's Refer/BibIX export (``%E``) and its test case of
a book with an author, a translator and an editor, beside EndNote's book (``%Y`` its editor,
``%E`` its series' editor); EndNote XML as Zotero's ``Endnote XML.js`` maps the roles
(``tertiary-authors`` a book's editors, ``secondary-authors`` a chapter's or a proceedings').
A name of an editor of ours is added to a chapter that names its author, to show it is not
taken; links are local.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from storage.sources.citation import editors_only
from storage.sources.records import SourceRecord
from storage.sources.registry import read_source

FOLDER = Path(__file__).resolve().parents[1] / "fixtures" / "real_exports"
CRESTANI = ("Fabio Crestani", "Paolo Ferragina", "Mark Sanderson")


def _people(name: str) -> dict[str, tuple[str, ...]]:
    result = read_source(FOLDER / name)
    assert not result.errors and not result.warnings
    return {r.title: r.authors for r in result.records}


def _record(name: str, title: str) -> SourceRecord:
    return next(r for r in read_source(FOLDER / name).records if r.title.startswith(title))


def test_bibtex_volumes_and_collections_are_their_editors() -> None:
    people = {title[:30]: names for title, names in _people("editors_only.bib").items()}
    assert people == {
        "String Processing and Informat": CRESTANI,
        "Alternative Modernities": ("Dilip Parameshwar Gaonkar",),
        "Space and Beyond: The Frontier": ("Gary Westfahl",),
        "On Alternative Modernities": ("Dilip Parameshwar Gaonkar",),  # its author alone
    }


def test_a_bibtex_chapter_with_no_author_takes_its_books_editors_by_crossref(
    tmp_path: Path,
) -> None:
    """As BibTeX's styles do: the parent's editor is the chapter's editor."""
    path = tmp_path / "front.bib"
    path.write_text(
        "@inproceedings{front, title = {Front Matter}, crossref = {vol}}\n"
        "@proceedings{vol, editor = {Lee, Ann and Roe, Rob}, title = {Proc.}, year = 2020}\n"
    )
    (record,) = read_source(path).records
    assert record.authors == ("Ann Lee", "Rob Roe") and record.venue == "Proc. 2020"


def test_csl_json_books_are_their_editors() -> None:
    assert _people("editors_only.json") == {
        "Alternative modernities": ("Dilip Parameshwar Gaonkar",),
        "On alternative modernities": ("Dilip Parameshwar Gaonkar",),
    }


def test_ris_editors_by_the_place_each_type_gives_them() -> None:
    people = {title[:24]: names for title, names in _people("editors_only.ris").items()}
    assert people == {
        "String Processing and In": CRESTANI,  # A3, not the series' editor in A2
        "28th International Confe": ("Roland Meyer", "Uwe Nestmann"),  # A2
        "Space and Beyond: The Fr": ("Gary Westfahl",),  # ED
        "Output-Sensitive Autocom": ("H. Bast", "Christian Worm Mortensen", "Ingmar Weber"),
        "A letter to its recipien": (),  # A2 is its recipient, no editor
    }


def test_endnote_tagged_editors_by_the_place_each_type_gives_them() -> None:
    assert _people("editors_only.enw") == {
        "Space and Beyond: The Frontier Theme in Science Fiction": ("Gary Westfahl",),  # Zotero
        "String Processing and Information Retrieval": CRESTANI,  # EndNote's %Y, not its %E
        "28th International Conference on Concurrency Theory, CONCUR 2017": (
            "Roland Meyer",
            "Uwe Nestmann",
        ),
        "Usynlige byer": ("Italo Calvino",),  # its translator and editor are not its authors
        "A thesis whose advisor is its secondary author": (),
    }


def test_endnote_xml_editors_by_the_place_each_type_gives_them() -> None:
    assert _people("editors_only.xml") == {
        "String Processing and Information Retrieval": CRESTANI,
        "28th International Conference on Concurrency Theory, CONCUR 2017": (
            "Roland Meyer",
            "Uwe Nestmann",
        ),
        "Output-Sensitive Autocompletion Search": (
            "H. Bast",
            "Christian Worm Mortensen",
            "Ingmar Weber",
        ),
        "A thesis whose advisor is its secondary author": (),
    }


def test_web_of_science_book_editors_and_group_authors() -> None:
    """A book chapter's record as ugent-library/biblio-backoffice keeps it
    (``cypress/fixtures/wos-000500696400004.txt``): its authors, not its book's editors
    (``BE``); the book's own record, which names only the editors; a group's paper (``CA``)."""
    people = {title[:30]: names for title, names in _people("wos_book_editors.txt").items()}
    assert people == {
        "Nucleic Acid Induced Interfero": ("Hanne Dubois", "Geert van Loo", "Andy Wullaert"),
        "Nucleic Acid Sensing and Immun": ("C VanpouilleBox", "L Galluzzi"),
        "A group's paper that names no ": ("ATLAS Collaboration",),
    }


def test_a_zotero_csv_book_is_its_editors(tmp_path: Path) -> None:
    """Zotero's CSV export (its header row as ``tests/fixtures/real_shapes/zotero.csv`` has
    it): a book whose ``Author`` is empty and whose ``Editor`` names its editors."""
    header = (FOLDER.parent / "real_shapes" / "zotero.csv").read_text(encoding="utf-8-sig")
    columns = header.splitlines()[0]
    names = [c.strip('"') for c in columns.split('","')]
    row = dict.fromkeys(names, "")
    row.update(
        {
            "Key": "ZK000009",
            "Item Type": "book",
            "Publication Year": "2006",
            "Title": "String Processing and Information Retrieval",
            "Editor": "Crestani, Fabio; Ferragina, Paolo; Sanderson, Mark",
            "Series Editor": "Goos, Gerhard",
        }
    )
    path = tmp_path / "zotero.csv"
    cells = ",".join(f'"{row[name]}"' for name in names)
    path.write_text(f"{columns}\n{cells}\n", encoding="utf-8")
    (record,) = read_source(path).records
    assert record.authors == CRESTANI
    assert dict(record.extra)["edited_by"] == "; ".join(CRESTANI)  # exported as editors


def test_a_zotero_api_book_is_its_editors_not_its_translator(tmp_path: Path) -> None:
    """Zotero's Web API item (``creators`` by ``creatorType``) of a book with editors and a
    translator but no author: its editors, as the Zotero RDF reader gives them. Every
    creator was taken, the translator among the authors."""
    from tests.unit.test_zotero_api_json import item

    book = item(
        "BOOK1234",
        itemType="book",
        title="Space and Beyond",
        creators=[
            {"creatorType": "translator", "firstName": "Tom", "lastName": "Trans"},
            {"creatorType": "editor", "firstName": "Gary", "lastName": "Westfahl"},
            {"creatorType": "seriesEditor", "firstName": "Sue", "lastName": "Series"},
        ],
        date="2000",
    )
    lone = item(
        "BOOK5678",
        itemType="book",
        title="Translated Alone",
        creators=[{"creatorType": "translator", "firstName": "Tom", "lastName": "Trans"}],
        date="2001",
    )
    path = tmp_path / "items.json"
    path.write_text(json.dumps([book, lone]), encoding="utf-8")
    assert {r.title: r.authors for r in read_source(path).records} == {
        "Space and Beyond": ("Gary Westfahl",),
        "Translated Alone": ("Tom Trans",),  # its one creator, as before
    }


def test_a_papers_editors_never_reach_its_authors_nor_its_exports(tmp_path: Path) -> None:
    """An @inproceedings that names its authors (braced ``Last, First``, an organization, an
    accented initial braced as BibTeX writes it) and its volume's editors: the editors are
    in none of the paper's authors, nor in its BibTeX, RIS and CSL-JSON exports."""
    from storage.export import export
    from storage.files.triage_file import TriageState
    from storage.sources.papers import build_paper

    path = tmp_path / "paper.bib"
    path.write_text(
        "@inproceedings{a, title = {Paper A}, booktitle = {Proc. X}, year = 2020,\n"
        "  author = {{van der Berg}, Jan and {Google Research} and {\\'E}mile Zola},\n"
        "  editor = {Editorson, Ed and Other, Al}}\n",
        encoding="utf-8",
    )
    (record,) = read_source(path).records
    assert record.authors == ("Jan van der Berg", "Google Research", "Émile Zola")
    paper = build_paper(record, "l", 0)
    for fmt in ("bibtex", "ris", "csl-json"):
        text = export([paper], TriageState(), fmt)
        assert "Editorson" not in text and "Other" not in text, fmt


@pytest.mark.parametrize(
    "name",
    [
        "editors_only.bib", "editors_only.json", "editors_only.ris", "editors_only.enw",
        "editors_only.xml", "wos_book_editors.txt",
    ],
)  # fmt: skip
def test_every_reader_says_when_its_people_are_its_editors(name: str) -> None:
    """The records whose people are their editors name them in ``edited_by`` (what the
    exports write as editors: ``storage.sources.citation.editors_only``), the others not;
    the people themselves as the tests above give them."""
    from storage.sources.fields import edited_by
    from storage.sources.papers import build_paper

    result = read_source(FOLDER / name)
    for record in result.records:
        paper = build_paper(record, "l", 0)
        edited = dict(record.extra).get("edited_by")
        assert edited in (None, edited_by(record.authors)), record.title
        assert editors_only(paper) == (edited is not None), record.title
    edited_titles = {r.title[:12] for r in result.records if editors_only(build_paper(r, "l", 0))}
    assert edited_titles == _EDITED_TITLES[name]


_SPIRE, _CONCUR, _SPACE = "String Proce", "28th Interna", "Space and Be"
_EDITED_TITLES = {
    "editors_only.bib": {_SPIRE, "Alternative ", _SPACE},
    "editors_only.json": {"Alternative "},
    "editors_only.ris": {_SPIRE, _CONCUR, _SPACE},
    "editors_only.enw": {_SPACE, _SPIRE, _CONCUR},
    "editors_only.xml": {_SPIRE, _CONCUR},
    "wos_book_editors.txt": {"Nucleic Acid"},
}
