"""Zotero's Web API JSON (``GET /users/N/items?format=json``: an array of items, each with its
fields in ``data``; one item alone for ``/items/KEY``): authors from ``creators``, the abstract,
the year from ``date`` as typed, DOI, link, venue, tags, arXiv ids in ``extra``; notes under an
item become its note, attachments are no papers and no refused records."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from storage import Library
from storage.sources.registry import read_source
from storage.sources.zotero_api import zotero_date

REPO = Path(__file__).resolve().parents[2]
ABSTRACT = "We study sparse attention at scale and show it keeps accuracy on long inputs."


def item(key: str, **data: Any) -> dict[str, Any]:
    """One item as the API gives it: its envelope, its fields in ``data``."""
    return {
        "key": key,
        "version": 41,
        "library": {"type": "user", "id": 7, "name": "me", "links": {}},
        "links": {"self": {"href": f"http://127.0.0.1:9/users/7/items/{key}"}},
        "meta": data.pop("meta", {"numChildren": 0}),
        "data": {"key": key, "version": 41, "tags": [], "relations": {}, **data},
    }


ARTICLE = item(
    "ART12345",
    itemType="journalArticle",
    title="Sparse Attention at Scale",
    creators=[
        {"creatorType": "author", "firstName": "Ann", "lastName": "Lee"},
        {"creatorType": "author", "name": "Google DeepMind"},
        {"creatorType": "editor", "firstName": "Ed", "lastName": "Itor"},
    ],
    abstractNote=ABSTRACT,
    publicationTitle="Journal of Machine Learning Research",
    volume="25",
    issue="3",
    pages="1-20",
    date="May 7, 2024",
    DOI="10.5555/jmlr.2024.1",
    url="http://127.0.0.1:9/papers/v25/lee24a.html",
    extra="Citation Key: lee2024\narXiv: 2401.01234",
    tags=[{"tag": "attention"}, {"tag": "sparse", "type": 1}],
    meta={"creatorSummary": "Lee et al.", "parsedDate": "2024-05-07", "numChildren": 2},
)
NOTE = item(
    "NOTE1234",
    itemType="note",
    parentItem="ART12345",
    note='<div data-schema-version="8"><p>Read <b>section 3</b> &amp; its proof.</p>'
    "<p>Second thought.</p></div>",
)
ATTACHMENT = item(
    "ATT12345",
    itemType="attachment",
    parentItem="ART12345",
    linkMode="imported_file",
    title="Full Text PDF",
    contentType="application/pdf",
    filename="Lee - 2024.pdf",
)
PAPER = item(
    "CONF1234",
    itemType="conferencePaper",
    title="Graph Flows for Everyone",
    creators=[{"creatorType": "author", "firstName": "Bo", "lastName": "Park"}],
    abstractNote="We propose graph flows, a method that works on every graph we tried so far.",
    proceedingsTitle="Proceedings of the Twelfth Conference on Graphs",
    conferenceName="Graphs 2023",
    date="12/03/2023",
    extra="DOI: 10.1145/3580305.3599",
)
PREPRINT = item(
    "PRE12345",
    itemType="preprint",
    title="A Title-Only Preprint",
    creators=[{"creatorType": "author", "lastName": "Solo"}],
    repository="arXiv",
    archiveID="arXiv:2402.00002",
    date="2024",
    url="http://127.0.0.1:9/preprints/2402.00002v2",
)


def _write(tmp_path: Path, data: Any, name: str = "zotero.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_items_read_fully_notes_attached_attachments_no_papers(tmp_path: Path) -> None:
    path = _write(tmp_path, [ARTICLE, NOTE, ATTACHMENT, PAPER, PREPRINT])
    result = read_source(path)
    assert not result.errors and not result.warnings
    article, paper, preprint = result.records
    assert article.title == "Sparse Attention at Scale"
    assert article.authors == ("Ann Lee", "Google DeepMind")  # the editor is no author
    assert article.abstract == ABSTRACT
    assert article.url == "http://127.0.0.1:9/papers/v25/lee24a.html"
    assert article.keywords == ("attention", "sparse")
    assert article.venue == "Journal of Machine Learning Research 2024"
    extra = dict(article.extra)
    assert extra["year"] == 2024 and extra["month"] == 5 and extra["date"] == "2024-05-07"
    assert extra["doi"] == "10.5555/jmlr.2024.1" and extra["eprint"] == "2401.01234"
    assert extra["entry_type"] == "article" and extra["pages"] == "1–20"
    assert article.decision is not None
    assert article.decision.note == "Read section 3 & its proof.\nSecond thought."
    assert paper.authors == ("Bo Park",)
    extra = dict(paper.extra)
    assert extra["booktitle"] == "Proceedings of the Twelfth Conference on Graphs"
    assert extra["year"] == 2023 and extra["month"] == 12 and extra["date"] == "2023-12-03"
    assert extra["doi"] == "10.1145/3580305.3599" and extra["entry_type"] == "inproceedings"
    assert preprint.abstract == "" and preprint.authors == ("Solo",)
    assert dict(preprint.extra)["eprint"] == "2402.00002"
    assert "publisher" not in dict(preprint.extra)  # arXiv is the server, not a venue


def test_the_import_counts_papers_only_and_keeps_the_note(tmp_path: Path) -> None:
    library = Library(tmp_path / "home")
    report = library.import_file(_write(tmp_path, [ARTICLE, NOTE, ATTACHMENT, PAPER]))
    assert report.added == 2 and report.read == report.accounted == 2 and not report.errors
    [lee] = [p for p in library.papers() if p.title == "Sparse Attention at Scale"]
    assert library.triage().notes[lee.id].startswith("Read section 3")


def test_one_item_alone_and_what_is_left_out_is_said(tmp_path: Path) -> None:
    result = read_source(_write(tmp_path, ARTICLE))
    [one] = result.records
    assert one.authors == ("Ann Lee", "Google DeepMind") and one.abstract == ABSTRACT
    orphan = item("ORPH1234", itemType="note", note="<p>A note of its own.</p>")
    lone = item("LONE1234", itemType="attachment", linkMode="linked_url", title="A page")
    trashed = item("GONE1234", itemType="book", title="Thrown Away", deleted=1)
    result = read_source(_write(tmp_path, [PAPER, orphan, lone, trashed, NOTE]))
    assert len(result.records) == 1 and not result.errors
    [warning] = result.warnings
    assert "2 notes with no item in the file" in warning
    assert "1 standalone attachment" in warning and "1 item in the trash" in warning


def test_hostile_fields_are_refused_or_cleaned_never_a_crash(tmp_path: Path) -> None:
    bad = [
        item("BAD00001", itemType="journalArticle", title="Bad \x1b[31mCreators", creators="x"),
        item("BAD00002", itemType="journalArticle", title="", abstractNote=""),
        item("BAD00003", itemType="journalArticle", title="Huge", abstractNote="word " * 9000),
        item("BAD00004", itemType="book", title=["not", "text"], creators=[1, None, {}]),
        {"key": "BAD00005", "data": {"itemType": "journalArticle", "title": "Dated", "date": 5}},
        {"key": "BAD00006", "data": "not an object"},
        PAPER,
    ]
    result = read_source(_write(tmp_path, bad))
    titles = [r.title for r in result.records]
    assert titles[0].startswith("Bad") and "Dated" in titles
    assert "Graph Flows for Everyone" in titles
    assert {e.record for e in result.errors} == {2, 3, 4, 6}
    assert all("\n" not in e.reason for e in result.errors)


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("2024-05-07", (2024, 5, 7)),
        ("2024-05-07T10:00:00Z", (2024, 5, 7)),
        ("May 7, 2024", (2024, 5, 7)),
        ("7 May 2024", (2024, 5, 7)),
        ("12th March 2021", (2021, 3, 12)),
        ("Sept. 2019", (2019, 9, None)),
        ("05/07/2024", (2024, 5, 7)),
        ("25/12/2024", (2024, 12, 25)),
        ("7.5.2024", (2024, 5, 7)),
        ("2024/5", (2024, 5, None)),
        ("Spring 2024", (2024, None, None)),
        ("2024", (2024, None, None)),
        ("", (None, None, None)),
        ("n.d.", (None, None, None)),
        ("0000-00-00 2019", (2019, None, None)),
    ],
)
def test_dates_as_zotero_users_type_them(
    typed: str, expected: tuple[int | None, int | None, int | None]
) -> None:
    assert zotero_date(typed) == expected


def test_the_command_imports_it_and_says_what_it_cannot(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PAPERS_", "XDG_"))}
    env.update(HOME=str(tmp_path / "user"), PYTHONPATH=str(REPO))

    def papers(*args: str | Path) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "tui", *map(str, args)],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            stdin=subprocess.DEVNULL,
        )

    done = papers("import", _write(tmp_path, [ARTICLE, NOTE, ATTACHMENT, PAPER]))
    assert done.returncode == 0, done.stderr
    assert "2 added" in done.stdout and "Traceback" not in done.stderr
    notes_only = papers("import", _write(tmp_path, [NOTE, ATTACHMENT], name="notes.json"))
    assert notes_only.returncode == 1 and "Traceback" not in notes_only.stderr
    [line] = notes_only.stderr.strip().splitlines()
    assert "a Zotero export of no papers" in line
