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
from collections.abc import Callable, Sequence
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


def test_a_papers_editors_never_reach_its_authors_and_are_exported_as_editors(
    tmp_path: Path,
) -> None:
    """An @inproceedings that names its authors (braced ``Last, First``, an organization, an
    accented initial braced as BibTeX writes it) and its volume's editors: the editors are
    in none of the paper's authors; its BibTeX, RIS and CSL-JSON exports write them as its
    editors (they were dropped before: ``tests/unit/test_book_editors.py``)."""
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
    assert dict(record.extra)["editors"] == "Ed Editorson; Al Other"
    paper = build_paper(record, "l", 0)
    bib = export([paper], TriageState(), "bibtex")
    assert "editor = {Ed Editorson and Al Other}" in bib
    ris = export([paper], TriageState(), "ris").splitlines()
    assert [line for line in ris if "Editorson" in line or "Other" in line] == [
        "A2  - Editorson, Ed",
        "A2  - Other, Al",
    ]
    (item,) = json.loads(export([paper], TriageState(), "csl-json"))
    assert item["editor"] == [
        {"family": "Editorson", "given": "Ed"},
        {"family": "Other", "given": "Al"},
    ]
    assert all("Editorson" not in str(person) for person in item["author"])


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
    _say_editors(read_source(FOLDER / name).records, _EDITED_TITLES[name])


def _say_editors(records: Sequence[SourceRecord], titles: set[str]) -> None:
    """Each record's ``edited_by`` names its people when they are its editors, else is none;
    ``titles`` the first 12 characters of the titles of those that are."""
    from storage.sources.fields import edited_by
    from storage.sources.papers import build_paper

    for record in records:
        paper = build_paper(record, "l", 0)
        edited = dict(record.extra).get("edited_by")
        assert edited in (None, edited_by(record.authors)), record.title
        assert editors_only(paper) == (edited is not None), record.title
    edited_titles = {r.title[:12] for r in records if editors_only(build_paper(r, "l", 0))}
    assert edited_titles == titles


_SPIRE, _CONCUR, _SPACE = "String Proce", "28th Interna", "Space and Be"
_EDITED_TITLES = {
    "editors_only.bib": {_SPIRE, "Alternative ", _SPACE},
    "editors_only.json": {"Alternative "},
    "editors_only.ris": {_SPIRE, _CONCUR, _SPACE},
    "editors_only.enw": {_SPACE, _SPIRE, _CONCUR},
    "editors_only.xml": {_SPIRE, _CONCUR},
    "wos_book_editors.txt": {"Nucleic Acid"},
}


def _zotero_rdf(folder: Path) -> Path:
    """Zotero RDF (``tests/unit/test_zotero_rdf.py``'s shapes): a book of its editors, one of
    its series' editors, one of its authors and editors, a chapter of its author."""
    from tests.unit.test_zotero_rdf import export, items

    def people(role: str, last: str, first: str) -> str:
        return (
            f"<{role}><rdf:Seq><rdf:li><foaf:Person><foaf:surname>{last}</foaf:surname>"
            f"<foaf:givenName>{first}</foaf:givenName></foaf:Person></rdf:li></rdf:Seq></{role}>"
        )

    def book(n: int, kind: str, title: str, *roles: str) -> str:
        return (
            f'<bib:Book rdf:about="#item_{n}"><z:itemType>{kind}</z:itemType>{"".join(roles)}'
            f"<dc:title>{title}</dc:title><dc:date>2006</dc:date></bib:Book>"
        )

    editor = people("bib:editors", "Westfahl", "Gary")
    body = (
        book(1, "book", "Space and Beyond", editor)
        + book(2, "book", "Series Alone", people("z:seriesEditors", "Goos", "Gerhard"))
        + book(3, "book", "Authored Book", people("bib:authors", "Lee", "Ann"), editor)
        + book(4, "bookSection", "A Chapter", people("bib:authors", "Roe", "Rob"), editor)
    )
    return export(folder, items(body))


def _zotero_api(folder: Path) -> Path:
    """Zotero's Web API items (``tests/unit/test_zotero_api_json.py``'s shapes): a book of its
    editors (its translator not among them), one of its series' editor, one of its translator
    alone (no editor: not said to be edited), an article of its authors and an editor."""
    from tests.unit.test_zotero_api_json import ARTICLE, item

    def book(key: str, title: str, *creators: tuple[str, str]) -> dict[str, object]:
        people = [{"creatorType": kind, "name": name} for kind, name in creators]
        return item(key, itemType="book", title=title, creators=people, date="2000")

    path = folder / "items.json"
    books = [
        book("BOOK0001", "Space and Beyond", ("translator", "Tom Trans"), ("editor", "G W")),
        book("BOOK0002", "Series Alone", ("seriesEditor", "Gerhard Goos")),
        book("BOOK0003", "Translated Alone", ("translator", "Tom Trans")),
    ]
    path.write_text(json.dumps([*books, ARTICLE]), encoding="utf-8")
    return path


def _dblp_dump(folder: Path) -> Path:
    """DBLP's dump (``tests/unit/test_dblp_xml.py``'s): a paper, a proceedings volume of its
    editors, a withdrawn article, a thesis."""
    from tests.unit.test_dblp_xml import DUMP

    path = folder / "dump.xml"
    path.write_text(DUMP, encoding="utf-8")
    return path


def _hit(number: str, kind: str, title: str, key: str) -> dict[str, object]:
    """A hit of DBLP's search API in JSON, as ``tests/unit/test_dblp_xml.py`` gives one."""
    people = [
        {"@pid": "c/FabioCrestani", "text": "Fabio Crestani"},
        {"@pid": "f/PFerragina", "text": "Paolo Ferragina"},
    ]
    info = {"authors": {"author": people}, "title": title, "venue": "SPIRE", "year": "2006"}
    return {"@score": "3", "@id": number, "info": {**info, "type": kind, "key": key}}


def _dblp_search_json(folder: Path) -> Path:
    """DBLP's search API in JSON: a volume, whose ``authors`` DBLP fills with its editors
    (its ``type`` "Editorship"), and a paper of its authors."""
    volume = _hit("1", "Editorship", "String Processing and Information Retrieval.", "c/s/06")
    paper = _hit("2", "Conference and Workshop Papers", "Output-Sensitive Search.", "c/s/B06")
    answer = {"result": {"hits": {"@total": "2", "hit": [volume, paper]}}}
    path = folder / "spire.json"
    path.write_text(json.dumps(answer), encoding="utf-8")
    return path


def _dblp_search_xml(folder: Path) -> Path:
    """DBLP's search API in XML (``tests/unit/test_dblp_xml.py``'s ``SEARCH``) with a volume's
    hit among its papers'."""
    from tests.unit.test_dblp_xml import SEARCH

    volume = (
        '<hit score="3" id="2000001"><info><authors>'
        '<author pid="c/FabioCrestani">Fabio Crestani</author>'
        '<author pid="f/PFerragina">Paolo Ferragina</author></authors>'
        "<title>String Processing and Information Retrieval, SPIRE 2006.</title>"
        "<venue>SPIRE</venue><year>2006</year><type>Editorship</type>"
        "<key>conf/spire/2006</key></info></hit>"
    )
    path = folder / "spire.xml"
    path.write_text(SEARCH.replace("</hits>", volume + "</hits>"), encoding="utf-8")
    return path


def _sciencedirect(folder: Path) -> Path:
    """ScienceDirect's plain text (``tests/unit/test_citation_text_readers.py``'s), a
    chapter of no author after its articles and its chapter of an author: ScienceDirect
    writes no author line for it (a book's preface), its book's editors on theirs."""
    from tests.unit.test_citation_text_readers import SCIENCEDIRECT

    preface = (
        "Preface,\nEditor(s): Dee Edit, Eve Edit,\nGraph Learning Handbook,\nAcademic Press,\n"
        "2021,\nPages ix-x,\nISBN 9780128000000,\n"
        "https://doi.org/10.1016/B978-0-12-800000-0.09991-8.\n"
        "(https://www.sciencedirect.com/science/article/pii/B9780128000000099918)\n"
    )
    path = folder / "ScienceDirect_citations_1700000000000.txt"
    path.write_text(f"{SCIENCEDIRECT}\n{preface}", encoding="utf-8")
    return path


_MADE: dict[str, tuple[Callable[[Path], Path], set[str]]] = {
    "sciencedirect text": (_sciencedirect, {"Preface"}),
    "zotero rdf": (_zotero_rdf, {"Space and Be", "Series Alone"}),
    "zotero api": (_zotero_api, {"Space and Be", "Series Alone"}),
    "dblp dump": (_dblp_dump, {"Proceedings "}),
    "dblp search json": (_dblp_search_json, {_SPIRE}),
    "dblp search xml": (_dblp_search_xml, {_SPIRE}),
}


@pytest.mark.parametrize("name", sorted(_MADE))
def test_the_other_readers_say_when_their_people_are_their_editors(
    name: str, tmp_path: Path
) -> None:
    """As ``test_every_reader_says_when_its_people_are_its_editors``, of files in the shapes
    each reader's own tests give their format."""
    make, edited = _MADE[name]
    result = read_source(make(tmp_path))
    assert not result.errors and not result.warnings and len(result.records) >= 2
    _say_editors(result.records, edited)


def test_a_sciencedirect_chapter_of_no_author_is_its_books_editors(tmp_path: Path) -> None:
    """Its title, its book and publisher where they are, its book's editors its people (as
    a RIS chapter's ``A2``); its title was taken for its author, its book for its title."""
    record = _record_at(_sciencedirect(tmp_path), "Preface")
    assert record.authors == ("Dee Edit", "Eve Edit")
    assert (record.venue, dict(record.extra)["publisher"]) == (
        "Graph Learning Handbook 2021",
        "Academic Press",
    )
    chapter = _record_at(_sciencedirect(tmp_path), "Chapter 3")
    assert chapter.authors == ("Carl Moe",) and chapter.venue == "Graph Learning Handbook 2021"


def _record_at(path: Path, title: str) -> SourceRecord:
    return next(r for r in read_source(path).records if r.title.startswith(title))
