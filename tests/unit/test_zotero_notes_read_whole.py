"""Zotero's notes read whole, whatever their number and however much markup they hold: Better
BibTeX's JSON gives an item its notes inside it, its RDF points to each (``bib:Memo``), and
a note Zotero 7 makes from a PDF's annotations is mostly markup (each highlight a ``<span
data-annotation="…">`` and a citation ``<span data-citation="…">``). What is cut is cut at
the note's cap, and said."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import quote

from storage import Library
from storage.caps import MAX_NOTE_CHARS
from tests.unit.test_zotero_notes_in_exports import COMMENT, REPO, ZOTERO_RDF

ITEM = "http://zotero.org/users/local/abCdEfGh/items/ABCD2345"
PDF = "http://zotero.org/users/local/abCdEfGh/items/XYZ12345"


def _annotation(page: int, quoted: str) -> str:
    """One highlight as Zotero 7's "Add Note from Annotations" writes it."""
    data = {
        "attachmentURI": PDF,
        "annotationKey": f"AN{page:06d}",
        "color": "#ffd400",
        "pageLabel": str(page),
        "position": {"pageIndex": page - 1, "rects": [[108.0, 520.1, 504.2, 532.3]]},
        "citationItem": {"uris": [ITEM], "locator": str(page)},
    }
    citation = {"citationItems": [{"uris": [ITEM], "locator": str(page)}], "properties": {}}
    return (
        f'<p><span class="highlight" data-annotation="{quote(json.dumps(data))}">'
        f"&ldquo;{quoted}&rdquo;</span> "
        f'<span class="citation" data-citation="{quote(json.dumps(citation))}">'
        f'(<span class="citation-item">Lee, 2024, p. {page}</span>)</span></p>\n'
    )


def _item(notes: list[Any]) -> dict[str, Any]:
    return {
        "itemID": 1,
        "itemType": "journalArticle",
        "title": "Sparse Attention at Scale",
        "creators": [{"firstName": "Ann", "lastName": "Lee", "creatorType": "author"}],
        "date": "2024-05",
        "citationKey": "lee2024sparse",
        "notes": notes,
        "attachments": [],
        "tags": [],
        "key": "ABCD2345",
    }


def _imported(tmp_path: Path, notes: list[Any]) -> tuple[list[str], str, tuple[str, ...]]:
    """(the import's warnings, the paper's note, its code) of a Better BibTeX JSON export."""
    export = {
        "config": {
            "id": "36a3b0b5-bad0-4a04-b79b-441c7cef77db",
            "label": "BetterBibTeX JSON",
            "preferences": {},
            "options": {"exportNotes": True, "exportFileData": False},
        },
        "version": {"zotero": "7.0.11", "bbt": "7.0.5"},
        "collections": {},
        "items": [_item(notes)],
    }
    path = tmp_path / "My Library.json"
    path.write_text(json.dumps(export, indent=2), encoding="utf-8")
    library = Library(tmp_path / "home")
    report = library.import_file(path)
    assert (report.added, report.errors) == (1, [])
    [paper] = library.papers()
    return report.warnings, library.triage().notes.get(paper.id, ""), paper.github


def test_every_note_of_an_item_is_read_not_the_first_thousand(tmp_path: Path) -> None:
    """The notes past an item's thousandth were dropped in silence, the repository the last
    one links with them."""
    repo = "https://github.com/example/late"
    notes: list[Any] = [{"note": f"<p>Note {i}</p>", "key": f"N{i:07d}"} for i in range(1000)]
    warnings, note, github = _imported(tmp_path, [*notes, f"<p>Code at {repo}</p>"])
    assert warnings == []
    assert note.startswith("Note 0\n\nNote 1\n\n") and note.endswith(f"Note 999\n\nCode at {repo}")
    assert github == (repo,)


def test_a_note_of_annotations_is_read_whole_not_its_html_cut(tmp_path: Path) -> None:
    """A note of 1,000 highlights: 875,000 characters of HTML, some 38,000 of text, within
    the note's cap. Its HTML was cut at 400,000 characters, in silence: half its text was
    lost, and the note ended in the markup of a tag cut in two."""
    html = (
        '<div data-schema-version="9"><h1>Annotations<br>(5/20/2024, 10:30:00 AM)</h1>\n'
        + "".join(_annotation(page, f"quoted line {page}") for page in range(1, 1001))
        + "</div>"
    )
    assert len(html) > 4 * MAX_NOTE_CHARS
    warnings, note, _ = _imported(tmp_path, [{"note": html, "key": "NOTE1234"}])
    assert warnings == []
    first = "“quoted line 1” (Lee, 2024, p. 1)"
    assert note.startswith(f"Annotations\n(5/20/2024, 10:30:00 AM)\n{first}\n")
    assert note.endswith("“quoted line 1000” (Lee, 2024, p. 1000)")
    assert "data-" not in note and len(note) < MAX_NOTE_CHARS


def test_notes_past_the_cap_are_cut_there_and_said(tmp_path: Path) -> None:
    html = "".join(_annotation(page, "a long quoted passage " * 20) for page in range(1, 401))
    warnings, note, _ = _imported(tmp_path, [html])
    assert len(note) == MAX_NOTE_CHARS and note.endswith("…")
    [warning] = warnings
    assert "record 1: its notes are " in warning
    assert f"characters long: the first {MAX_NOTE_CHARS:,} kept as its note" in warning


def test_every_memo_of_an_items_rdf_is_read(tmp_path: Path) -> None:
    """Zotero's RDF: an item's notes past its thousandth ``dcterms:isReferencedBy`` were left
    out and said as "notes with no item in the file", which they were not."""
    repo = "https://github.com/example/late"
    first = '<dcterms:isReferencedBy rdf:resource="#item_3"/>'
    refs = "".join(f'<dcterms:isReferencedBy rdf:resource="#n{i}"/>' for i in range(1001))
    memo = '<bib:Memo rdf:about="#n{}"><rdf:value>&lt;p&gt;{}&lt;/p&gt;</rdf:value></bib:Memo>'
    memos = "".join(memo.format(i, f"Note {i}") for i in range(1000))
    memos += memo.format(1000, f"Code at {repo}")
    rdf = ZOTERO_RDF.replace(first, first + refs).replace("</rdf:RDF>", f"{memos}</rdf:RDF>")
    path = tmp_path / "zotero.rdf"
    path.write_text(rdf, encoding="utf-8")
    library = Library(tmp_path / "home")
    report = library.import_file(path)
    assert (report.added, report.errors, report.warnings) == (1, [], [])
    [paper] = library.papers()
    note = library.triage().notes[paper.id]
    assert note.startswith(f"{COMMENT}\n\nNote 0\n\n") and note.endswith(f"Code at {repo}")
    assert paper.github == (REPO, repo)


def test_a_note_many_items_point_to_is_read_once(tmp_path: Path) -> None:
    """Read whole, a note was read again for each item that points to it: a file of 5 MB, a
    note of annotations that 300 items point to, took 44 s to import (6 s when each note was
    cut at 200,000 characters); each note is read once a file now."""
    import time

    from storage.sources.zotero_rdf import read_zotero_rdf

    head, rest = ZOTERO_RDF.split("<rdf:Description", 1)
    item, tail = rest.split("</rdf:Description>", 1)
    items = "".join(
        f"<rdf:Description{item}</rdf:Description>".replace("2405.01234", f"2405.{i:05d}")
        for i in range(200)
    )
    line = "&lt;p&gt;&lt;span class=&quot;highlight&quot;&gt;a quoted line&lt;/span&gt;&lt;/p&gt;\n"
    tail = tail.replace("&lt;div data-schema-version=&quot;9&quot;&gt;", line * 40_000)
    path = tmp_path / "zotero.rdf"
    started = time.process_time()
    result = read_zotero_rdf(head + items + tail, path)
    assert time.process_time() - started < 5
    assert len(result.records) == 200 and not result.errors
    notes = [record.decision.note if record.decision else "" for record in result.records]
    assert all(note.startswith("a quoted line\na quoted line\n") for note in notes)
