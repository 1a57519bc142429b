"""A file imported again after its reader learnt to read rich text in titles
(``storage.text.rich_text``): the library holds its papers as the earlier version stored them,
``<i>In vivo</i> imaging`` and ``YBa<inf>2</inf>Cu<inf>3</inf>O<inf>7</inf> films``, and the
import now reads ``In vivo imaging`` and ``YBa₂Cu₃O₇ films``. Each is the paper the library
holds (``storage.importing.resolve`` matches titles with their rich text read), which takes the
title as now read and keeps its decision, note, tags and place in the reading queue.

The stored libraries are written here as the version before the change wrote them (its
``papers.json`` documents, as ``papers import`` at 74e7221 made them from these files)."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

import pytest

from storage import Library, Status
from storage.files.triage_model import doc_id
from storage.sources.papers import paper_id

AUTHORS = ("Mostafa Dehghan", "Bo Jiang")
ABSTRACT = (
    "We grow superconducting films by a fluorine-free route and measure how their critical "
    "current depends on the annealing temperature, across forty samples."
)
SECOND = (
    "We image tumour growth in living mice over six weeks and relate the signal we record "
    "to the size of each tumour measured after the experiment."
)
#: (title as the file writes it, its abstract): one known by its title alone, one whose
#: abstract is known and whose short title reads otherwise once its tags are read, one whose
#: title reads nearly alike.
RECORDS: tuple[tuple[str, str], ...] = (
    ("<i>In vivo</i> study of CO<sub>2</sub> uptake in leaves", ""),
    ("YBa<inf>2</inf>Cu<inf>3</inf>O<inf>7</inf> films", ABSTRACT),
    ("<i>In vivo</i> imaging of tumour growth in mice", SECOND),
)
PLAIN = (
    "In vivo study of CO₂ uptake in leaves",
    "YBa₂Cu₃O₇ films",
    "In vivo imaging of tumour growth in mice",
)


def _csl() -> str:
    return json.dumps([
        {"id": f"i{n}", "type": "article-journal", "title": title, "abstract": abstract,
         "author": [{"family": "Dehghan", "given": "Mostafa"}, {"family": "Jiang", "given": "Bo"}]}
        for n, (title, abstract) in enumerate(RECORDS)
    ])  # fmt: skip


def _json_list() -> str:
    """A plain JSON list, as APIs and scrapers write one: its titles in HTML."""
    return json.dumps(
        [
            {"title": title, "abstract": abstract, "authors": list(AUTHORS)}
            for title, abstract in RECORDS
        ]
    )


def _ris() -> str:
    return "".join(
        f"TY  - JOUR\nTI  - {title}\nAU  - Dehghan, Mostafa\nAU  - Jiang, Bo\n"
        + (f"AB  - {abstract}\n" if abstract else "")
        + "PY  - 2016\nER  - \n\n"
        for title, abstract in RECORDS
    )


def _csv(header: Sequence[str], row: Callable[[int, str, str], Sequence[str]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(header)
    writer.writerows(row(n, title, abstract) for n, (title, abstract) in enumerate(RECORDS))
    return out.getvalue()


def _scopus() -> str:
    header = ("Authors", "Title", "Year", "Source title", "Abstract", "Document Type", "EID")
    return _csv(
        header,
        lambda n, t, a: ("Dehghan M., Jiang B.", t, "2016", "J", a, "Article", f"2-s2.0-{n}"),
    )


def _zotero_csv() -> str:
    header = ("Key", "Item Type", "Publication Year", "Author", "Title", "Abstract Note")
    return _csv(
        header,
        lambda n, t, a: (f"K{n}", "journalArticle", "2016", "Dehghan, Mostafa; Jiang, Bo", t, a),
    )


_STYLE = '<style face="normal" font="default" size="100%">'


def _endnote_xml() -> str:
    """Zotero's EndNote XML: its rich text escaped in the title's text."""
    authors = "".join(f"<author>{_STYLE}{a}</style></author>" for a in ("Dehghan, M", "Jiang, B"))
    records = "".join(
        '<record><source-app name="Zotero" version="7.0">Zotero</source-app>'
        '<ref-type name="Journal Article">17</ref-type>'
        f"<contributors><authors>{authors}</authors></contributors>"
        f"<titles><title>{_STYLE}{escape(title)}</style></title></titles>"
        + (f"<abstract>{_STYLE}{abstract}</style></abstract>" if abstract else "")
        + "</record>"
        for title, abstract in RECORDS
    )
    return f'<?xml version="1.0" encoding="UTF-8" ?><xml><records>{records}</records></xml>'


_RDF_HEAD = (
    '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"'
    ' xmlns:z="http://www.zotero.org/namespaces/export#" xmlns:dcterms="http://purl.org/dc/terms/"'
    ' xmlns:bib="http://purl.org/net/biblio#" xmlns:foaf="http://xmlns.com/foaf/0.1/"'
    ' xmlns:dc="http://purl.org/dc/elements/1.1/">\n'
)


def _zotero_rdf() -> str:
    people = "".join(
        f"<rdf:li><foaf:Person><foaf:surname>{family}</foaf:surname>"
        f"<foaf:givenName>{given}</foaf:givenName></foaf:Person></rdf:li>"
        for given, family in (a.split() for a in AUTHORS)
    )
    items = "".join(
        f'<bib:Article rdf:about="#item_{n}"><z:itemType>journalArticle</z:itemType>'
        f"<bib:authors><rdf:Seq>{people}</rdf:Seq></bib:authors>"
        f"<dc:title>{escape(title)}</dc:title>"
        + (f"<dcterms:abstract>{abstract}</dcterms:abstract>" if abstract else "")
        + "</bib:Article>\n"
        for n, (title, abstract) in enumerate(RECORDS)
    )
    return f"{_RDF_HEAD}{items}</rdf:RDF>\n"


def _rdf_stored(title: str) -> str:
    """What Zotero RDF's reader made of a title before: CSL's elements dropped, not Scopus's."""
    for tag in ("<i>", "</i>", "<sub>", "</sub>"):
        title = title.replace(tag, "")
    return title


#: Reader → (file name, its text, the titles the version before stored, its authors stored).
_AS_WRITTEN = tuple(title for title, _ in RECORDS)
READERS: dict[str, tuple[str, Callable[[], str], tuple[str, ...], tuple[str, ...]]] = {
    "CSL-JSON": ("zotero.json", _csl, _AS_WRITTEN, AUTHORS),
    "RIS": ("zotero.ris", _ris, _AS_WRITTEN, AUTHORS),
    "JSON list": ("scraped.json", _json_list, _AS_WRITTEN, AUTHORS),
    "Scopus CSV": ("scopus.csv", _scopus, _AS_WRITTEN, ("M. Dehghan", "B. Jiang")),
    "Zotero CSV": ("zotero.csv", _zotero_csv, _AS_WRITTEN, AUTHORS),
    "EndNote XML": ("zotero.xml", _endnote_xml, _AS_WRITTEN, ("M Dehghan", "B Jiang")),
    "Zotero RDF": ("zotero.rdf", _zotero_rdf, tuple(map(_rdf_stored, _AS_WRITTEN)), AUTHORS),
}


def _stored_doc(
    position: int, title: str, abstract: str, authors: Sequence[str], name: str
) -> dict[str, Any]:
    """A paper as ``papers.json`` schema 2 holds it: its id from its abstract, or from its
    title and first author (``paper_id``: the rule of that version, unchanged since)."""
    return {
        "id": paper_id(abstract, title, authors), "title": title, "abstract": abstract,
        "authors": list(authors), "github": [], "url": "", "keywords": [], "venue_status": "",
        "list": name, "position": position, "title_derived": False, "name": "", "lists": [name],
        "venue": "", "extra": [],
    }  # fmt: skip


def _write_library(home: Path, source: Path, docs: Sequence[dict[str, Any]]) -> None:
    """``papers.json`` as the earlier version wrote it after importing ``source``."""
    home.mkdir()
    name = source.stem
    tables = {
        "papers": {str(doc_id(d["id"])): d for d in docs},
        "lists": {"1": {"name": name, "sources": {str(source): 0}, "at": 1, "size": len(docs)}},
        "meta": {"1": {"schema": 2, "kind": "papers", "writes": 1}},
    }
    (home / "papers.json").write_text(json.dumps(tables), encoding="utf-8")


def _decide(library: Library, ids: Sequence[str]) -> dict[str, Any]:
    """Star the papers (the last at the head of the queue), a note and tags on each: what
    the user did before importing again."""
    library.set_statuses(ids, Status.STARRED)
    library.move_in_queue(ids[-1], "top")
    for pid in ids:
        library.set_note(pid, f"note on {pid}")
        library.set_tags(pid, ["to-cite"])
    return _decisions(library)


def _decisions(library: Library) -> dict[str, Any]:
    triage = library.triage()
    return {"statuses": triage.statuses, "notes": triage.notes, "tags": triage.tags}


def test_the_stored_ids_are_those_the_earlier_version_gave() -> None:
    """The documents written here hold the ids ``papers import`` gave before the change
    (the CSL-JSON file's papers, read from its ``papers.json``)."""
    assert paper_id("", RECORDS[0][0], AUTHORS) == "0160d150918a"
    assert paper_id(ABSTRACT, RECORDS[1][0], AUTHORS) == "eb65b5ab72ad"
    assert paper_id("", _rdf_stored(RECORDS[0][0]), AUTHORS) == "fe3535901092"  # Zotero RDF's


@pytest.mark.parametrize("reader", READERS)
def test_a_file_imported_again_finds_the_papers_stored_with_their_tags(
    tmp_path: Path, reader: str
) -> None:
    """Found on main: each paper known by its title alone came in a second time, in the
    Inbox (its title's key ``iinvivoistudy…`` no longer ``invivostudy…``), and a paper of a
    short title full of tags was kept apart from the one sharing its abstract ("not its
    title"), while the decision stayed on the copy stored before."""
    name, text, titles, authors = READERS[reader]
    source = tmp_path / name
    source.write_text(text(), encoding="utf-8")
    home = tmp_path / "home"
    docs = [
        _stored_doc(n, title, abstract, authors, source.stem)
        for n, (title, (_, abstract)) in enumerate(zip(titles, RECORDS, strict=True))
    ]
    _write_library(home, source, docs)
    ids = [d["id"] for d in docs]
    decided = _decide(Library(home), ids)
    queue = Library(home).queue()

    report = Library(home).import_file(source)

    library = Library(home)
    papers = library.papers()
    assert [p.id for p in papers] == ids, report
    expected = list(PLAIN)
    if reader == "Zotero RDF":  # CO2 and CO₂ read alike: the text the library holds is kept
        expected[0] = titles[0]
    assert [p.title for p in papers] == expected
    assert not report.added and not report.apart
    assert _decisions(library) == decided
    assert library.queue() == queue == [ids[-1], *ids[:-1]]
    # and once more: each paper is the record as read, no merge to report (but Zotero RDF's
    # CO2, which the library holds for the CO₂ read: another form of it, said so as before)
    again = library.import_file(source)
    assert (again.added, again.updated) == (0, 0)
    assert [m.paper_id for m in again.merged] == ([ids[0]] if reader == "Zotero RDF" else [])


def test_a_record_with_tags_finds_the_paper_stored_with_its_text(tmp_path: Path) -> None:
    """The other way round: a plain CSV list keeps its title as written (``<i>`` and all: a
    plain JSON list's HTML is read, ``tests/unit/test_json_rich_titles.py``), and is
    the paper a Zotero export brought, of the same title read as text."""
    home = tmp_path / "home"
    library = Library(home)
    zotero = tmp_path / "zotero.ris"
    zotero.write_text(_ris(), encoding="utf-8")
    library.import_file(zotero)
    known = library.papers()[0]
    library.set_status(known.id, Status.READ)
    plain_list = tmp_path / "reading.csv"
    plain_list.write_text(f'title,authors\n"{RECORDS[0][0]}",{"; ".join(AUTHORS)}\n')

    report = library.import_file(plain_list)

    assert not report.added and [p.id for p in library.papers()] == [
        p.id for p in Library(home).papers()
    ]
    assert len(library.papers()) == len(RECORDS) and library.status(known.id) is Status.READ


def test_a_paper_stored_with_tags_that_took_an_abstract_is_found_by_it(tmp_path: Path) -> None:
    """A paper first stored by its title alone, tags and all (its id from that title), takes
    its abstract from a later import of the title read as text; importing that file once more
    finds it by its abstract and title, not by a hash of the title it no longer has."""
    title = RECORDS[0][0]
    home = tmp_path / "home"
    old = tmp_path / "old.ris"
    _write_library(home, old, [_stored_doc(0, title, "", AUTHORS, old.stem)])
    pid = paper_id("", title, AUTHORS)
    Library(home).set_status(pid, Status.STARRED)
    fuller = tmp_path / "fuller.json"
    fuller.write_text(json.dumps([
        {"id": "a", "type": "article-journal", "title": title, "abstract": SECOND,
         "author": [{"family": "Dehghan", "given": "Mostafa"}]}
    ]))  # fmt: skip

    first = Library(home).import_file(fuller)
    again = Library(home).import_file(fuller)

    papers = Library(home).papers()
    assert [(p.id, p.title, p.abstract) for p in papers] == [(pid, PLAIN[0], SECOND)]
    assert not first.added and not again.added
    assert Library(home).status(pid) is Status.STARRED


#: Scopus's Authors column of before 2017 ("Surname, I., …") and of after ("Surname I., …"),
#: as the version before abf0e01 stored them (six authors of three; the family name first),
#: and as read now.
OLD_SPLITS = (
    (
        "Dehghan, M., Jiang, B., Seetharam, A.",
        ("Dehghan", "M.", "Jiang", "B.", "Seetharam", "A."),
        ("M. Dehghan", "B. Jiang", "A. Seetharam"),
    ),
    ("Yagai T., Kimura Y.", ("Yagai T.", "Kimura Y."), ("T. Yagai", "Y. Kimura")),
    ("Le Cun, Y., Bengio, Y.", ("Le Cun", "Y.", "Bengio", "Y."), ("Y. Le Cun", "Y. Bengio")),
    ("van der Berg, J., Li, X.", ("van der Berg", "J.", "Li", "X."), ("J. van der Berg", "X. Li")),
)


@pytest.mark.parametrize(("column", "stored", "now"), OLD_SPLITS)
def test_a_scopus_file_imported_again_finds_its_papers_stored_with_the_old_authors(
    tmp_path: Path, column: str, stored: tuple[str, ...], now: tuple[str, ...]
) -> None:
    """No duplicate on main, and none to come: a record without an abstract is looked up by
    its title's key (``_Known.by_title``), and its first author need only be one person with
    the stored one (``authors_compatible``: ``Dehghan`` and ``M. Dehghan``, ``Yagai T.`` and
    ``T. Yagai``); the id the authors as now read give is even the stored one (the family
    name is the same word: ``family_key``). The paper takes the authors as now read; its
    decision, note, tags and place stay."""
    title = "Strain distribution of complex-bending tape in a force-balanced coil"
    source = tmp_path / "scopus.csv"
    header = ("Authors", "Title", "Year", "Source title", "Abstract", "Document Type", "EID")
    rows = [header, (column, title, "2016", "J", "", "Article", "2-s2.0-1")]
    out = io.StringIO()
    csv.writer(out).writerows(rows)
    source.write_text(out.getvalue(), encoding="utf-8")
    home = tmp_path / "home"
    doc = _stored_doc(0, title, "", stored, source.stem)
    _write_library(home, source, [doc])
    decided = _decide(Library(home), [doc["id"]])

    report = Library(home).import_file(source)

    library = Library(home)
    (paper,) = library.papers()
    assert paper.id == doc["id"] == paper_id("", title, now) and not report.added
    assert paper.authors == now
    assert _decisions(library) == decided


def test_a_catalog_of_titles_read_as_text_gives_a_plain_lists_titles_their_links(
    tmp_path: Path,
) -> None:
    """A catalog is matched as the library is: a plain CSV list's ``<i>In vivo</i> study …``
    (kept as written) is the title-only catalog's ``In vivo study …`` (its rich text read),
    and takes its link and code (on main: no match, no link)."""
    catalog = tmp_path / "catalog.json"
    catalog.write_text(json.dumps([
        {"id": "a", "type": "article-journal", "title": RECORDS[0][0],
         "URL": "https://github.com/dehghan/leaves", "author": [{"family": "Dehghan"}]}
    ]))  # fmt: skip
    plain_list = tmp_path / "reading.csv"
    plain_list.write_text(f'title,authors\n"{RECORDS[0][0]}",Mostafa Dehghan\n')
    library = Library(tmp_path / "home")

    library.import_file(plain_list, catalog=catalog)

    (paper,) = library.papers()
    assert paper.title == RECORDS[0][0] and paper.github == ("https://github.com/dehghan/leaves",)
