"""EndNote's tagged format (``.enw``) names people by role, and the role depends on the
reference type (EndNote's reference types, as its XML export and RIS name them): an ``Edited
Book``'s ``%A`` are its editors and its ``%E`` (secondary author) its series' editor; a ``Book
Section``'s ``%E`` are its book's editors and its ``%Y`` (tertiary author) its series' editor.
The series' editors of both were dropped in silence (EndNote XML's and RIS's readers kept
them): they are the paper's ``series_editors`` now, written back as RIS's ``A2`` or ``A3`` and
CSL's ``collection-editor`` (real processes, a temporary HOME).
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.test_ris_abstract_tags import papers  # (the CLI in a temporary HOME)

ENW = """%0 Edited Book
%A Roe, Richard
%A Poe, Edgar A.
%E Goos, Gerhard
%T The Handbook of Stuff
%S Lecture Notes in Stuff
%D 2019
%I Springer

%0 Book Section
%A Lee, Ann
%E Park, Bo
%Y Hartmanis, Juris
%T A Chapter on Things
%B The Book of Chapters
%S Lecture Notes in Stuff
%D 2018
"""


def test_an_edited_books_and_a_chapters_series_editors_are_kept(tmp_path: Path) -> None:
    source = tmp_path / "endnote.enw"
    source.write_text(ENW, encoding="utf-8")
    papers(tmp_path, "import", str(source))
    listed = {p["title"]: p for p in json.loads(papers(tmp_path, "list", "--json"))}
    book = listed["The Handbook of Stuff"]
    assert book["authors"] == ["Richard Roe", "Edgar A. Poe"]
    assert book["extra"]["edited_by"] == "Richard Roe; Edgar A. Poe"
    assert book["extra"]["series_editors"] == "Gerhard Goos"
    chapter = listed["A Chapter on Things"]
    assert chapter["authors"] == ["Ann Lee"]
    assert chapter["extra"]["editors"] == "Bo Park"
    assert chapter["extra"]["series_editors"] == "Juris Hartmanis"
    ris = papers(tmp_path, "export", "--status", "all", "--format", "ris")
    assert "ED  - Roe, Richard\nED  - Poe, Edgar A.\nA2  - Goos, Gerhard\n" in ris, ris
    assert "AU  - Lee, Ann\nA2  - Park, Bo\nA3  - Hartmanis, Juris\n" in ris, ris
    csl = {
        i["title"]: i
        for i in json.loads(papers(tmp_path, "export", "--format", "csl-json", "--status", "all"))
    }
    assert csl["A Chapter on Things"]["collection-editor"] == [
        {"family": "Hartmanis", "given": "Juris"}
    ]


BOOKS = """%0 Book
%A Calvino, Italo
%E Park, Bo
%T Invisible Cities
%D 1972

%0 Edited Book
%A Roe, Richard
%E Goos, Gerhard
%Y Hartmanis, Juris
%T Advances in Stuff
%D 2019
"""


def test_a_books_editor_beside_its_authors_and_an_edited_books_y_are_kept(
    tmp_path: Path,
) -> None:
    """A Book's ``%E`` beside its ``%A`` (EndNote's series' editor, Zotero's Refer export's
    book editor) was dropped: it is the book's ``editors`` now, written back as RIS's ``A3``
    (a book's editors: Zotero's RIS). An Edited Book's ``%Y`` (its tertiary author) was read as
    no one: it is a series' editor, as a chapter's ``%Y`` is and as bibutils writes it."""
    source = tmp_path / "books.enw"
    source.write_text(BOOKS, encoding="utf-8")
    papers(tmp_path, "import", str(source))
    listed = {p["title"]: p for p in json.loads(papers(tmp_path, "list", "--json"))}
    book = listed["Invisible Cities"]
    assert book["authors"] == ["Italo Calvino"]
    assert book["extra"]["editors"] == "Bo Park"
    assert "series_editors" not in book["extra"]
    edited = listed["Advances in Stuff"]
    assert edited["extra"]["edited_by"] == "Richard Roe"
    assert edited["extra"]["series_editors"] == "Gerhard Goos; Juris Hartmanis"
    ris = papers(tmp_path, "export", "--status", "all", "--format", "ris")
    assert "AU  - Calvino, Italo\nA3  - Park, Bo\n" in ris, ris
    assert "ED  - Roe, Richard\nA2  - Goos, Gerhard\nA2  - Hartmanis, Juris\n" in ris, ris
