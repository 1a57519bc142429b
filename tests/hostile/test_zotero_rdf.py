"""Hostile Zotero RDF files through the real ``papers import`` (a subprocess, a HOME of its
own): entity bombs and external entities refused in one line, a cut-short file one line, the
user's library untouched by a refused file; control characters, markup, references to nodes
that are not there and cycles of references read as far as they go."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from storage.sources.registry import read_source
from tests.cli.test_bad_input import PAPERS, make_env
from tests.helpers import home_files
from tests.hostile.hostile import leaks
from tests.unit.test_zotero_rdf import EXPORT, items

SECONDS = 60

LAUGHS = (
    '<?xml version="1.0"?>\n<!DOCTYPE rdf:RDF [\n <!ENTITY lol "lol">\n'
    + "".join(
        f' <!ENTITY lol{n} "{f"&lol{n - 1};" * 10 if n > 1 else "&lol;" * 10}">\n'
        for n in range(1, 10)
    )
    + "]>\n"
)


def papers(tmp_path: Path, *args: str | Path) -> subprocess.CompletedProcess[str]:
    """``papers --home HOME ARGS`` as a user runs it."""
    return subprocess.run(
        [*PAPERS, "--home", str(tmp_path / "home"), *map(str, args)],
        capture_output=True, text=True, timeout=SECONDS, check=False,
        env=make_env(tmp_path), stdin=subprocess.DEVNULL,
    )  # fmt: skip


def write(tmp_path: Path, text: str, name: str = "export.rdf") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def refused(tmp_path: Path, text: str) -> str:
    """The one line ``papers import`` says of ``text``; the library it had is as it was."""
    papers(tmp_path, "import", write(tmp_path, EXPORT, "good.rdf"))
    before = home_files(tmp_path / "home")
    done = papers(tmp_path, "import", write(tmp_path, text))
    assert done.returncode == 1, done
    assert "Traceback" not in done.stderr and done.stderr.count("\n") == 1, done.stderr
    assert home_files(tmp_path / "home") == before
    return done.stderr


def test_a_cli_import_of_an_export_gives_its_papers(tmp_path: Path) -> None:
    done = papers(tmp_path, "import", write(tmp_path, EXPORT, "Reading.rdf"))
    assert done.returncode == 0, done.stderr
    assert "7 added" in done.stdout
    assert "1 note with no item in the file: left out" in done.stderr
    listed = json.loads(papers(tmp_path, "list", "--json").stdout)
    article = next(p for p in listed if p["title"] == "Sparse Attention at Scale")
    assert article["authors"] == ["Ann Lee", "Jan van der Berg"]
    assert (
        article["list"] == "Reading" and article["url"] == "http://127.0.0.1/papers/v25/lee24a.html"
    )
    bibtex = papers(tmp_path, "export", "--status", "all", "--format", "bibtex").stdout
    assert "eprint = {2401.01234}" in bibtex and "doi = {10.5555/jmlr.2024.1}" in bibtex
    assert "year = {2024}" in bibtex and "school = {MIT}" in bibtex


@pytest.mark.parametrize(
    "prolog",
    [
        LAUGHS,  # a billion laughs
        '<!DOCTYPE rdf:RDF [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n',  # an external entity
        '<!DOCTYPE rdf:RDF SYSTEM "http://127.0.0.1:9/zotero.dtd">\n',  # a DTD to fetch
        '<?xml version="1.0"?>\n<!--' + "x" * 200_000 + "-->\n<!DOCTYPE rdf:RDF>\n",
    ],
    ids=["laughs", "external-entity", "external-dtd", "doctype-after-a-long-comment"],
)
def test_a_dtd_is_refused_in_one_line(tmp_path: Path, prolog: str) -> None:
    body = items('<bib:Article rdf:about="#a"><z:itemType>book</z:itemType><dc:title>&lol9;'
                 "</dc:title></bib:Article>")  # fmt: skip
    said = refused(tmp_path, prolog + body)
    assert "declares a DTD (<!DOCTYPE>)" in said and "passwd" not in said


def test_a_cut_short_export_is_one_line(tmp_path: Path) -> None:
    said = refused(tmp_path, EXPORT[: EXPORT.index("<bib:Thesis")])
    assert "not well-formed XML, cut short or damaged (no element found" in said


def test_an_export_of_notes_alone_is_one_line(tmp_path: Path) -> None:
    note = '<bib:Memo rdf:about="#n{n}"><z:itemType>note</z:itemType><rdf:value>x</rdf:value>'
    said = refused(tmp_path, items("".join(note.format(n=n) + "</bib:Memo>" for n in range(3))))
    assert "a Zotero RDF export of no papers (3 notes and attachments, no items)" in said


def test_past_the_size_cap_is_one_line(tmp_path: Path) -> None:
    path = write(tmp_path, EXPORT)
    done = papers(tmp_path, "import", path, "--max-size", "1KB")
    assert done.returncode == 1 and done.stderr.count("\n") == 1 and "Traceback" not in done.stderr


def test_control_characters_and_markup_in_fields_are_data(tmp_path: Path) -> None:
    body = items(
        '<bib:Article rdf:about="#a"><z:itemType>journalArticle</z:itemType>'
        "<dc:title>Red \x1b[31m title &#27;]0;owned&#7; &lt;script&gt;x&lt;/script&gt;"
        " &lt;i&gt;in&lt;/i&gt; \u202egpj</dc:title>"
        "<dcterms:abstract>An abstract with a \x07 bell and \x0c a form feed that is long "
        "enough to be one.</dcterms:abstract>"
        "<bib:authors><rdf:Seq><rdf:li><foaf:Person><foaf:surname>Lee\x1b[2J</foaf:surname>"
        "<foaf:givenName>Ann</foaf:givenName></foaf:Person></rdf:li></rdf:Seq></bib:authors>"
        "<dc:identifier><dcterms:URI><rdf:value>http://127.0.0.1/x\x1b[2J</rdf:value>"
        "</dcterms:URI></dc:identifier><dc:date>2024</dc:date></bib:Article>"
    )
    done = papers(tmp_path, "import", write(tmp_path, body))
    assert done.returncode == 0, done.stderr
    listed = papers(tmp_path, "list")
    assert "x\x1b" not in listed.stdout and not leaks(listed.stdout.replace("\n", ""))
    [paper] = json.loads(papers(tmp_path, "list", "--json").stdout)
    assert "<script>x</script>" in paper["title"] and "<i>" not in paper["title"]
    assert "\x1b" not in json.dumps(paper, ensure_ascii=False)
    # a link holding a control character is no link, as in every reader (``web_url``): it
    # was kept with U+FFFD in its place, a link to a page that is not there
    assert paper["url"] == ""


def test_references_to_nodes_not_there_and_cycles_are_read_as_far_as_they_go(
    tmp_path: Path,
) -> None:
    body = items(
        # a journal, an author list, an attachment, a note the file does not hold
        '<bib:Article rdf:about="#a"><z:itemType>journalArticle</z:itemType>'
        '<dcterms:isPartOf rdf:resource="urn:issn:0000-0000"/>'
        '<bib:authors rdf:resource="#no-seq"/><link:link rdf:resource="#item_404"/>'
        '<dcterms:isReferencedBy rdf:nodeID="gone"/>'
        "<dc:title>Pointing Nowhere</dc:title><dc:date>2020</dc:date></bib:Article>"
        # cycles: an item part of itself, of a section part of it, its own author and link
        '<bib:Article rdf:about="#b"><z:itemType>journalArticle</z:itemType>'
        '<dcterms:isPartOf rdf:resource="#b"/><dcterms:isPartOf rdf:resource="#part"/>'
        '<bib:authors rdf:resource="#b"/><link:link rdf:resource="#b"/>'
        '<dcterms:isReferencedBy rdf:resource="#b"/>'
        "<dc:title>Going Round</dc:title><dc:date>2021</dc:date></bib:Article>"
        '<bib:Part rdf:about="#part"><dcterms:isPartOf rdf:resource="#b"/>'
        '<dcterms:isPartOf rdf:resource="#part"/></bib:Part>'
        '<bib:Journal rdf:about="#j1"><dcterms:isPartOf rdf:resource="#j2"/>'
        "<dc:title>J1</dc:title></bib:Journal>"
        '<bib:Journal rdf:about="#j2"><dcterms:isPartOf rdf:resource="#j1"/></bib:Journal>'
        '<bib:Article rdf:about="#c"><z:itemType>journalArticle</z:itemType>'
        '<dcterms:isPartOf rdf:resource="#j1"/>'
        "<dc:title>In a Journal of Loops</dc:title><dc:date>2022</dc:date></bib:Article>"
    )
    path = write(tmp_path, body)
    result = read_source(path)
    nowhere, around, loops = result.records
    assert (nowhere.title, nowhere.venue, nowhere.authors) == ("Pointing Nowhere", "", ())
    assert (around.title, around.venue, around.authors) == ("Going Round", "", ())
    assert loops.venue == "J1 2022"
    assert result.warnings == [f"{path}: 4 references to nodes not in the file: left out"]


def test_deep_nesting_and_many_items_stay_within_bounds(tmp_path: Path) -> None:
    item = (
        '<bib:Article rdf:about="#i{n}"><z:itemType>journalArticle</z:itemType>'
        "<dc:title>Paper number {n}</dc:title><dc:date>2024</dc:date>"
        + "<dc:subject>tag</dc:subject>" * 20
        + "</bib:Article>"
    )
    deep = "<dc:relation><bib:Article>" * 20_000 + "</bib:Article></dc:relation>" * 20_000
    body = items(
        "".join(item.format(n=n) for n in range(5000))
        + f'<bib:Article rdf:about="#deep"><z:itemType>book</z:itemType>'
        f"<dc:title>Deep</dc:title>{deep}</bib:Article>"
    )
    done = papers(tmp_path, "import", write(tmp_path, body))
    assert done.returncode == 0, done.stderr
    assert "5001 added" in done.stdout.replace(",", "")
