"""Zotero's Web API answers beyond ``format=json``'s ``data``: items asked with
``include=csljson`` (the fields as CSL-JSON in each envelope, with ``data`` or without it),
``format=csljson`` (CSL-JSON itself), and attachment items whose PDF is on this machine (a
``linked_file``'s path, an imported file in a Zotero storage folder beside the export, the
local API's ``file:`` enclosure) becoming their parent paper's local PDF."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from storage import Library
from storage.pdfs.attached import link_attachments
from storage.pdfs.folder import PdfFolder
from storage.sources.records import SourceRecord
from storage.sources.registry import read_source
from tests.pdf_files import paper_pdf

ABSTRACT = "We study sparse attention at scale and show it keeps accuracy on long inputs."
API = "http://127.0.0.1:9/users/475425/items"


def envelope(key: str, *, up: str = "", enclosure: dict[str, Any] | None = None) -> dict[str, Any]:
    """An item's envelope as the Web API writes it, without its fields."""
    links: dict[str, Any] = {
        "self": {"href": f"{API}/{key}", "type": "application/json"},
        "alternate": {"href": f"http://127.0.0.1:9/me/items/{key}", "type": "text/html"},
    }
    if up:
        links["up"] = {"href": f"{API}/{up}", "type": "application/json"}
    if enclosure is not None:
        links["enclosure"] = enclosure
    return {
        "key": key,
        "version": 1234,
        "library": {"type": "user", "id": 475425, "name": "me", "links": {}},
        "links": links,
        "meta": {"creatorSummary": "Lee and Park", "parsedDate": "2024-05", "numChildren": 1},
    }


CSL = {
    "id": "475425/ABCD2345",
    "type": "article-journal",
    "title": "Sparse Attention at Scale",
    "container-title": "Journal of Machine Learning Research",
    "abstract": ABSTRACT,
    "author": [{"family": "Lee", "given": "Ann"}, {"family": "Park", "given": "Bo"}],
    "issued": {"date-parts": [["2024", 5]]},
    "DOI": "10.5555/jmlr.2024.1",
    "note": "arXiv: 2401.01234",
}
DATA = {
    "key": "ABCD2345",
    "version": 1234,
    "itemType": "journalArticle",
    "title": "Sparse Attention at Scale",
    "creators": [
        {"creatorType": "author", "firstName": "Ann", "lastName": "Lee"},
        {"creatorType": "author", "firstName": "Bo", "lastName": "Park"},
    ],
    "abstractNote": ABSTRACT,
    "publicationTitle": "Journal of Machine Learning Research",
    "date": "2024-05",
    "DOI": "10.5555/jmlr.2024.1",
    "extra": "arXiv: 2401.01234",
    "tags": [{"tag": "attention"}],
    "relations": {},
}
PREPRINT_CSL = {
    "id": "475425/PRE12345",
    "type": "article",
    "title": "Graph Flows for Everyone",
    "author": [{"family": "Okafor", "given": "Chidi"}],
    "issued": {"raw": "2023"},
    "number": "arXiv:2402.00002",
    "publisher": "arXiv",
    "abstract": "We propose graph flows, a method that works on every graph we tried so far.",
}


def fact(record: SourceRecord, name: str) -> Any:
    return dict(record.extra).get(name)


def _write(tmp_path: Path, data: Any, name: str = "zotero.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")
    return path


def test_items_asked_with_include_csljson_are_read_from_their_csl_json(tmp_path: Path) -> None:
    pdf_item = {
        **envelope(
            "PDF12345",
            up="ABCD2345",
            enclosure={
                "href": f"{API}/PDF12345/file/view",
                "type": "application/pdf",
                "title": "Lee - 2024.pdf",
                "length": 12345,
            },
        ),
        "csljson": {"id": "475425/PDF12345", "type": "article", "title": "Full Text PDF"},
    }
    items = [
        {**envelope("ABCD2345"), "csljson": CSL},
        pdf_item,
        {**envelope("PRE12345"), "csljson": PREPRINT_CSL},
    ]
    result = read_source(_write(tmp_path, items))
    assert not result.errors and not result.warnings
    article, preprint = result.records  # the attachment is no paper
    assert article.title == "Sparse Attention at Scale"
    assert article.authors == ("Ann Lee", "Bo Park") and article.abstract == ABSTRACT
    extra = dict(article.extra)
    assert extra["year"] == 2024 and extra["month"] == 5
    assert extra["doi"] == "10.5555/jmlr.2024.1" and extra["eprint"] == "2401.01234"
    assert extra["journal"] == "Journal of Machine Learning Research"
    assert "file" not in extra  # its PDF is on Zotero's server, not on this machine
    assert preprint.authors == ("Chidi Okafor",)
    assert dict(preprint.extra)["year"] == 2023
    assert dict(preprint.extra)["eprint"] == "2402.00002"  # Zotero's CSL number: arXiv:…


def test_include_data_and_csljson_reads_the_data(tmp_path: Path) -> None:
    both = {**envelope("ABCD2345"), "data": DATA, "csljson": {**CSL, "title": "Other Title"}}
    [paper] = read_source(_write(tmp_path, [both])).records
    assert paper.title == "Sparse Attention at Scale"  # data's, not csljson's
    assert paper.keywords == ("attention",)  # only data has tags
    [one] = read_source(_write(tmp_path, both, name="one.json")).records  # /items/KEY
    assert one.title == "Sparse Attention at Scale"


def test_format_csljson_an_object_of_items_or_a_bare_array(tmp_path: Path) -> None:
    for name, data in (("items.json", {"items": [CSL, PREPRINT_CSL]}), ("a.json", [CSL])):
        result = read_source(_write(tmp_path, data, name=name))
        assert not result.errors
        assert result.records[0].title == "Sparse Attention at Scale"
        assert dict(result.records[0].extra)["year"] == 2024


def _attachment(key: str, parent: str, **data: Any) -> dict[str, Any]:
    return {
        **envelope(key, up=parent),
        "meta": {},
        "data": {
            "key": key,
            "version": 1234,
            "itemType": "attachment",
            "parentItem": parent,
            "title": "Full Text PDF",
            "contentType": "application/pdf",
            "tags": [],
            "relations": {},
            **data,
        },
    }


def _pdf(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    return paper_pdf(path, "Sparse Attention at Scale", 1)


def test_a_linked_file_pdf_that_is_here_is_its_parents_pdf(tmp_path: Path) -> None:
    pdf = _pdf(tmp_path / "papers" / "Lee: sparse; 2024.pdf")
    snapshot = tmp_path / "papers" / "page.html"
    snapshot.write_text("<html></html>")
    items = [
        {**envelope("ABCD2345"), "data": DATA},
        _attachment(
            "SNAP1234",
            "ABCD2345",
            linkMode="linked_file",
            path=str(snapshot),
            contentType="text/html",
            filename="page.html",
        ),  # fmt: skip
        _attachment("PDF12345", "ABCD2345", linkMode="linked_file", path=str(pdf)),
    ]
    (tmp_path / "out").mkdir()
    export = _write(tmp_path / "out", items)  # the export elsewhere than the PDF
    [paper] = read_source(export).records
    assert fact(paper, "file") == str(pdf)
    library = Library(tmp_path / "home")
    library.import_file(export)
    [stored] = library.papers()
    folder = PdfFolder(tmp_path / "home" / "pdfs")
    linked = link_attachments([stored], folder)
    assert len(linked.done) == 1 and linked.done[0].resolve() == pdf.resolve()


def test_a_linked_file_not_on_this_machine_is_no_pdf(tmp_path: Path) -> None:
    items = [
        {**envelope("ABCD2345"), "data": DATA},
        _attachment(
            "PDF12345", "ABCD2345", linkMode="linked_file", path=str(tmp_path / "gone.pdf")
        ),
        _attachment(
            "WIN12345", "ABCD2345", linkMode="linked_file", path="C:\\Users\\me\\Lee 2024.pdf"
        ),
        _attachment(
            "REL12345", "ABCD2345", linkMode="linked_file", path="attachments:Lee 2024.pdf"
        ),
    ]
    result = read_source(_write(tmp_path, items))
    [paper] = result.records
    assert fact(paper, "file") is None and not result.errors and not result.warnings


def test_an_imported_file_is_linked_only_when_its_storage_folder_is_beside_the_export(
    tmp_path: Path,
) -> None:
    items = [
        {**envelope("ABCD2345"), "data": DATA},
        _attachment(
            "IMP12345",
            "ABCD2345",
            linkMode="imported_url",
            filename="Lee - 2024.pdf",
            url="http://127.0.0.1:9/pdf/2401.01234v1",
        ),  # fmt: skip
    ]
    export = _write(tmp_path, items)
    [paper] = read_source(export).records
    assert fact(paper, "file") is None  # Zotero's storage folder is not here: no path made up
    assert fact(paper, "pdf") == "http://127.0.0.1:9/pdf/2401.01234v1"  # its web address
    pdf = _pdf(tmp_path / "storage" / "IMP12345" / "Lee - 2024.pdf")
    [paper] = read_source(export).records
    assert fact(paper, "file") == str(pdf)


def test_an_imported_files_name_cannot_leave_its_storage_folder(tmp_path: Path) -> None:
    _pdf(tmp_path / "secret.pdf")
    _pdf(tmp_path / "storage" / "secret.pdf")
    items = [
        {**envelope("ABCD2345"), "data": DATA},
        _attachment("IMP12345", "ABCD2345", linkMode="imported_file", filename="../secret.pdf"),
        _attachment("../../x", "ABCD2345", linkMode="imported_file", filename="secret.pdf"),
    ]
    [paper] = read_source(_write(tmp_path, items)).records
    assert fact(paper, "file") is None


def test_the_local_apis_file_enclosure_is_the_pdf(tmp_path: Path) -> None:
    pdf = _pdf(tmp_path / "Zotero" / "storage" / "LOC12345" / "Lee 2024.pdf")
    enclosure = {"href": pdf.as_uri(), "type": "application/pdf", "title": pdf.name}
    item = _attachment("LOC12345", "ABCD2345", linkMode="imported_file", filename=pdf.name)
    item["links"]["enclosure"] = enclosure
    [paper] = read_source(_write(tmp_path, [{**envelope("ABCD2345"), "data": DATA}, item])).records
    assert fact(paper, "file") == str(pdf)
    # the same attachment as CSL-JSON alone: its file still found by its enclosure
    csl_item = {**envelope("LOC12345", up="ABCD2345", enclosure=enclosure), "csljson": {}}
    export = _write(tmp_path, [{**envelope("ABCD2345"), "csljson": CSL}, csl_item], "c.json")
    [paper] = read_source(export).records
    assert fact(paper, "file") == str(pdf)


def test_better_bibtex_json_reads_zoteros_fields_notes_and_attached_pdf(tmp_path: Path) -> None:
    """Better BibTeX's JSON export: Zotero's own fields per item (no ``data`` envelope), its
    notes and attachments inside it; a PDF there linked when the file is here."""
    pdf = _pdf(tmp_path / "Zotero" / "storage" / "ABCD2345" / "Lee - 2024.pdf")
    export = {
        "config": {
            "id": "36a3b0b5-bad0-4a04-b79b-441c7cef77db",
            "label": "BetterBibTeX JSON",
            "preferences": {},
            "options": {"exportNotes": True, "exportFileData": False},
        },
        "version": {"zotero": "7.0.11", "bbt": "7.0.5"},
        "collections": {},
        "items": [
            {
                "itemID": 1,
                **{k: v for k, v in DATA.items() if k != "version"},
                "citationKey": "lee2024sparse",
                "notes": [{"note": "<p>Read <b>section 3</b></p>", "key": "NOTE1234"}],
                "attachments": [
                    {"path": str(tmp_path / "gone.pdf"), "title": "Old PDF"},
                    {
                        "itemType": "attachment",
                        "title": "Full Text PDF",
                        "path": str(pdf),
                        "contentType": "application/pdf",
                        "linkMode": "imported_url",
                    },
                ],
                "uri": "http://127.0.0.1/users/1/items/ABCD2345",
            },
            {
                "itemID": 2,
                "itemType": "preprint",
                "title": "Graph Flows for Everyone",
                "creators": [{"firstName": "Bo", "lastName": "Park", "creatorType": "author"}],
                "date": "2023",
                "repository": "arXiv",
                "archiveID": "arXiv:2402.00002",
                "citationKey": "park2023graph",
                "attachments": [],
                "notes": ["<p>An older export's note</p>"],
                "tags": [],
                "key": "PRE12345",
            },
        ],
    }
    result = read_source(_write(tmp_path, export, name="My Library.json"))
    assert not result.errors and not result.warnings
    article, preprint = result.records
    assert article.authors == ("Ann Lee", "Bo Park") and article.abstract == ABSTRACT
    assert article.venue == "Journal of Machine Learning Research 2024"
    assert fact(article, "eprint") == "2401.01234" and fact(article, "month") == 5
    assert fact(article, "file") == str(pdf)
    assert article.decision is not None and article.decision.note == "Read section 3"
    assert preprint.authors == ("Bo Park",) and fact(preprint, "eprint") == "2402.00002"
    assert preprint.decision is not None and preprint.decision.note == "An older export's note"
