"""One EndNote record, three of EndNote's exports: its tagged format (``%A`` ``%E`` ``%Y``), its
XML (``authors``, ``secondary-authors``, ``tertiary-authors``) and its RIS (``AU``, ``A2``,
``A3``) name the same people in the same fields, so the three readers give the same authors,
editors and series' editors. Before, EndNote XML dropped an authored book's editor (its
tertiary author, EndNote's "Editor" of a Book and Zotero's ``editor`` in its ``Endnote XML.js``)
and, with RIS, an edited book's tertiary author, which the tagged reader keeps as the series'
level; the tagged reader took an authored LNCS book's series editor (``%E``) for its editor and
dropped its editors (``%Y``).

Zotero's exports of a book of an author with an editor agree too: its Refer/BibIX export
writes the editor as ``%E`` and no ``%Y``, its EndNote XML as ``tertiary-authors``, its RIS as
``A3``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from storage.sources.registry import read_source

AUTHOR, SECOND, THIRD = "Bast, H.", "Goos, Gerhard", "Crestani, Fabio"


def _tagged(kind: str, authors: list[str], second: list[str], third: list[str]) -> str:
    lines = [f"%0 {kind}", f"%T A {kind}"]
    lines += [f"%A {a}" for a in authors] + [f"%E {a}" for a in second]
    return "\n".join([*lines, *(f"%Y {a}" for a in third), "%D 2006", ""])


def _xml(kind: str, number: int, authors: list[str], second: list[str], third: list[str]) -> str:
    def people(element: str, names: list[str]) -> str:
        inner = "".join(
            f'<author><style face="normal" font="default" size="100%">{n}</style></author>'
            for n in names
        )
        return f"<{element}>{inner}</{element}>" if names else ""

    contributors = (
        people("authors", authors)
        + people("secondary-authors", second)
        + people("tertiary-authors", third)
    )
    return (
        '<?xml version="1.0" encoding="UTF-8" ?><xml><records><record>'
        f'<database name="My Library.enl">My Library.enl</database>'
        f'<ref-type name="{kind}">{number}</ref-type>'
        f"<contributors>{contributors}</contributors>"
        f"<titles><title>A {kind}</title></titles><dates><year>2006</year></dates>"
        "</record></records></xml>\n"
    )


def _ris(kind: str, authors: list[str], second: list[str], third: list[str]) -> str:
    lines = [f"TY  - {kind}"] + [f"AU  - {a}" for a in authors]
    lines += [f"A2  - {a}" for a in second] + [f"A3  - {a}" for a in third]
    return "\n".join([*lines, f"TI  - A {kind}", "PY  - 2006", "ER  - ", ""])


def _roles(path: Path) -> tuple[tuple[str, ...], object, object, object]:
    result = read_source(path)
    assert not result.errors and not result.warnings
    (record,) = result.records
    extra = dict(record.extra)
    return (
        record.authors,
        extra.get("edited_by"),
        extra.get("editors"),
        extra.get("series_editors"),
    )


# EndNote's reference type, its number in its XML, its RIS type
TYPES = [
    ("Book", 6, "BOOK"),
    ("Edited Book", 28, "EDBOOK"),
    ("Book Section", 5, "CHAP"),
    ("Conference Proceedings", 10, "CONF"),
]
PEOPLE = [
    ([AUTHOR], [SECOND], [THIRD]),
    ([], [SECOND], [THIRD]),
    ([AUTHOR], [], [THIRD]),
    ([AUTHOR], [SECOND], []),
]


# (a book's %E alone is its editor, as Zotero's Refer export writes it; in XML, its series')
CASES = [(*kind, *people) for kind in TYPES for people in PEOPLE if kind[0] != "Book" or people[2]]


@pytest.mark.parametrize(("kind", "number", "ris", "authors", "second", "third"), CASES)
def test_endnotes_three_exports_of_a_record_name_the_same_editors(
    tmp_path: Path,
    kind: str,
    number: int,
    ris: str,
    authors: list[str],
    second: list[str],
    third: list[str],
) -> None:
    tagged = tmp_path / "endnote.enw"
    tagged.write_text(_tagged(kind, authors, second, third), encoding="utf-8")
    xml = tmp_path / "endnote.xml"
    xml.write_text(_xml(kind, number, authors, second, third), encoding="utf-8")
    tagged_ris = tmp_path / "endnote.ris"
    tagged_ris.write_text(_ris(ris, authors, second, third), encoding="utf-8")
    assert _roles(xml) == _roles(tagged) == _roles(tagged_ris)


def test_an_authored_lncs_book_keeps_its_editors_and_its_series_editor(tmp_path: Path) -> None:
    """EndNote's Book of an author in Lecture Notes in Computer Science: its Editor (tertiary
    author) the volume's editors, its Series Editor (secondary) the series'."""
    path = tmp_path / "book.enw"
    path.write_text(
        _tagged("Book", [AUTHOR], [SECOND], [THIRD, "Ferragina, Paolo"]), encoding="utf-8"
    )
    authors, edited_by, editors, series_editors = _roles(path)
    assert authors == ("H. Bast",) and edited_by is None
    assert editors == "Fabio Crestani; Paolo Ferragina"
    assert series_editors == "Gerhard Goos"


def test_zoteros_exports_of_a_book_with_an_editor_agree(tmp_path: Path) -> None:
    refer = tmp_path / "zotero.enw"  # Refer/BibIX: the editor %E, no %Y (a translator is %?)
    refer.write_text("%0 Book\n%T A Book\n%A Bast, H.\n%E Crestani, Fabio\n%D 2006\n")
    xml = tmp_path / "zotero.xml"  # Endnote XML.js: a book's editor its tertiary-authors
    xml.write_text(
        '<?xml version="1.0" encoding="UTF-8"?><xml><records><record>'
        '<ref-type name="Book">6</ref-type><contributors><authors><author>Bast, H.</author>'
        "</authors><tertiary-authors><author>Crestani, Fabio</author></tertiary-authors>"
        "</contributors><titles><title>A Book</title></titles>"
        "<dates><year>2006</year></dates></record></records></xml>\n"
    )
    ris = tmp_path / "zotero.ris"  # RIS.js: a book's editor its A3
    ris.write_text("TY  - BOOK\nTI  - A Book\nAU  - Bast, H.\nA3  - Crestani, Fabio\nER  - \n")
    expected = (("H. Bast",), None, "Fabio Crestani", None)
    assert _roles(refer) == _roles(xml) == _roles(ris) == expected


def test_a_ris_chapter_naming_editors_in_ed_and_a2_keeps_both(tmp_path: Path) -> None:
    """``ED`` is an editor whatever the type, a chapter's ``A2`` its book's editor (Zotero's
    RIS import reads both so): the ``A2`` ones were dropped when there was an ``ED``, and a
    book's ``A3`` (its editors, as Zotero writes them) beside its ``ED``."""
    path = tmp_path / "mixed.ris"
    path.write_text(
        "TY  - CHAP\nTI  - A Chapter\nAU  - Bast, H.\nED  - Crestani, Fabio\n"
        "A2  - Ferragina, Paolo\nA3  - Goos, Gerhard\nER  - \n\n"
        "TY  - BOOK\nTI  - A Book\nAU  - Bast, H.\nED  - Crestani, Fabio\n"
        "A3  - Ferragina, Paolo\nA2  - Goos, Gerhard\nER  - \n",
        encoding="utf-8",
    )
    result = read_source(path)
    for record in result.records:
        extra = dict(record.extra)
        assert record.authors == ("H. Bast",)
        assert extra["editors"] == "Fabio Crestani; Paolo Ferragina"
        assert extra["series_editors"] == "Gerhard Goos"
