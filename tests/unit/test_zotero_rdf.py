"""Zotero RDF exports (``storage.sources.zotero_rdf``), written as Zotero writes them: items of
several types, a journal referenced by ``rdf:resource`` from elsewhere in the file, a PDF in the
``files/`` folder beside the export, notes, tags, Zotero's ``extra`` lines."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from storage import Library
from storage.errors import SourceError
from storage.pdfs.attached import link_attachments
from storage.pdfs.folder import PdfFolder
from storage.sources.records import Fit, SourceRecord
from storage.sources.registry import read_source, reader_for
from storage.sources.zotero_rdf import ZOTERO_RDF
from tests.pdf_files import paper_pdf

ABSTRACT = "We study sparse attention at scale and show it keeps accuracy on long inputs."
HEAD = """<rdf:RDF
 xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"
 xmlns:z="http://www.zotero.org/namespaces/export#"
 xmlns:dcterms="http://purl.org/dc/terms/"
 xmlns:bib="http://purl.org/net/biblio#"
 xmlns:foaf="http://xmlns.com/foaf/0.1/"
 xmlns:link="http://purl.org/rss/1.0/modules/link/"
 xmlns:dc="http://purl.org/dc/elements/1.1/"
 xmlns:vcard="http://nwalsh.com/rdf/vCard#"
 xmlns:prism="http://prismstandard.org/namespaces/1.2/basic/">
"""
PDF_NAME = "files/12/Lee et al. - 2024 - Sparse Attention at Scale.pdf"

#: A collection exported by Zotero 7 (Export Collection… → Zotero RDF, notes and files kept).
EXPORT = f"""{HEAD}    <bib:Article rdf:about="https://doi.org/10.5555/jmlr.2024.1">
        <z:itemType>journalArticle</z:itemType>
        <dcterms:isPartOf rdf:resource="urn:issn:1532-4435"/>
        <bib:authors>
            <rdf:Seq>
                <rdf:li>
                    <foaf:Person>
                        <foaf:surname>Lee</foaf:surname>
                        <foaf:givenName>Ann</foaf:givenName>
                    </foaf:Person>
                </rdf:li>
                <rdf:li>
                    <foaf:Person>
                        <foaf:surname>van der Berg</foaf:surname>
                        <foaf:givenName>Jan</foaf:givenName>
                    </foaf:Person>
                </rdf:li>
            </rdf:Seq>
        </bib:authors>
        <dcterms:isReferencedBy rdf:resource="#item_13"/>
        <link:link rdf:resource="#item_11"/>
        <link:link rdf:resource="#item_12"/>
        <dc:subject>attention</dc:subject>
        <dc:subject>
           <z:AutomaticTag>
              <rdf:value>Computer Science - Machine Learning</rdf:value>
           </z:AutomaticTag>
        </dc:subject>
        <dc:subject>
            <dcterms:LCC><rdf:value>QA76.9</rdf:value></dcterms:LCC>
        </dc:subject>
        <dc:title>Sparse Attention at &lt;i&gt;Scale&lt;/i&gt;</dc:title>
        <dcterms:abstract>{ABSTRACT}</dcterms:abstract>
        <dc:date>2024-05</dc:date>
        <z:language>en</z:language>
        <z:libraryCatalog>DOI.org (Crossref)</z:libraryCatalog>
        <dc:identifier>
            <dcterms:URI>
                <rdf:value>http://127.0.0.1/papers/v25/lee24a.html</rdf:value>
            </dcterms:URI>
        </dc:identifier>
        <dcterms:dateSubmitted>2025-01-05 10:00:00</dcterms:dateSubmitted>
        <dc:description>arXiv: 2401.01234</dc:description>
        <bib:pages>1-20</bib:pages>
    </bib:Article>
    <z:Attachment rdf:about="#item_11">
        <z:itemType>attachment</z:itemType>
        <rdf:resource rdf:resource="files/11/lee24a.html"/>
        <dc:title>Snapshot</dc:title>
        <z:linkMode>1</z:linkMode>
        <link:type>text/html</link:type>
    </z:Attachment>
    <z:Attachment rdf:about="#item_12">
        <z:itemType>attachment</z:itemType>
        <rdf:resource rdf:resource="{PDF_NAME}"/>
        <dc:identifier>
            <dcterms:URI>
                <rdf:value>https://arxiv.org/pdf/2401.01234v1</rdf:value>
            </dcterms:URI>
        </dc:identifier>
        <dcterms:dateSubmitted>2025-01-05 10:00:05</dcterms:dateSubmitted>
        <dc:title>Full Text PDF</dc:title>
        <z:linkMode>1</z:linkMode>
        <link:type>application/pdf</link:type>
    </z:Attachment>
    <bib:Memo rdf:about="#item_13">
        <rdf:value>&lt;div data-schema-version="9"&gt;&lt;p&gt;Read &lt;b&gt;section 3&lt;/b&gt;
&lt;/p&gt;&lt;p&gt;Then 4 &amp;amp; 5&lt;/p&gt;&lt;/div&gt;</rdf:value>
    </bib:Memo>
    <rdf:Description rdf:about="http://arxiv.org/abs/2402.00002">
        <z:itemType>preprint</z:itemType>
        <dc:publisher>
            <foaf:Organization><foaf:name>arXiv</foaf:name></foaf:Organization>
        </dc:publisher>
        <bib:authors>
            <rdf:Seq>
                <rdf:li><foaf:Person>
                    <foaf:surname>Okafor</foaf:surname><foaf:givenName>Chidi</foaf:givenName>
                </foaf:Person></rdf:li>
                <rdf:li><foaf:Person><foaf:surname>Google DeepMind</foaf:surname></foaf:Person>
                </rdf:li>
            </rdf:Seq>
        </bib:authors>
        <dc:title>Graph Flows for Everyone</dc:title>
        <dcterms:abstract>We propose graph flows, a method that works on every graph we tried.
It scales.</dcterms:abstract>
        <dc:date>May 7, 2023</dc:date>
        <dc:identifier>
            <dcterms:URI><rdf:value>http://arxiv.org/abs/2402.00002</rdf:value></dcterms:URI>
        </dc:identifier>
        <dc:identifier>DOI 10.48550/arXiv.2402.00002</dc:identifier>
    </rdf:Description>
    <rdf:Description rdf:about="#item_20">
        <z:itemType>conferencePaper</z:itemType>
        <dcterms:isPartOf>
            <bib:Journal>
                <dc:title>Proceedings of the 41st International Conference on Machine
                Learning</dc:title>
            </bib:Journal>
        </dcterms:isPartOf>
        <bib:authors><rdf:Seq><rdf:li><foaf:Person>
            <foaf:surname>Park</foaf:surname><foaf:givenName>Bo</foaf:givenName>
        </foaf:Person></rdf:li></rdf:Seq></bib:authors>
        <bib:presentedAt><bib:Conference><dc:title>ICML 2024</dc:title></bib:Conference>
        </bib:presentedAt>
        <dc:title>Diffusion Samplers in Parallel</dc:title>
        <dc:date>2024</dc:date>
        <dc:description>DOI: 10.5555/icml.2024.7</dc:description>
    </rdf:Description>
    <bib:Thesis rdf:about="#item_21">
        <z:itemType>thesis</z:itemType>
        <dc:publisher><foaf:Organization><foaf:name>MIT</foaf:name></foaf:Organization>
        </dc:publisher>
        <bib:authors><rdf:Seq><rdf:li><foaf:Person>
            <foaf:surname>Diaz</foaf:surname><foaf:givenName>Eva</foaf:givenName>
        </foaf:Person></rdf:li></rdf:Seq></bib:authors>
        <dc:title>Learning to Plan</dc:title>
        <dc:date>2021</dc:date>
        <dc:type>PhD Thesis</dc:type>
    </bib:Thesis>
    <bib:Report rdf:about="#item_22">
        <z:itemType>report</z:itemType>
        <dc:publisher><foaf:Organization><foaf:name>OpenAI</foaf:name></foaf:Organization>
        </dc:publisher>
        <bib:authors><rdf:Seq><rdf:li><foaf:Person>
            <foaf:surname>Ng</foaf:surname><foaf:givenName>Kim</foaf:givenName>
        </foaf:Person></rdf:li></rdf:Seq></bib:authors>
        <dc:title>A Technical Report on Scaling</dc:title>
        <dc:date>03/15/2022</dc:date>
    </bib:Report>
    <bib:Document rdf:about="http://127.0.0.1/blog/flows">
        <z:itemType>webpage</z:itemType>
        <dcterms:isPartOf><z:Website><dc:title>Example Blog</dc:title></z:Website>
        </dcterms:isPartOf>
        <bib:authors><rdf:Seq><rdf:li><foaf:Person>
            <foaf:surname>Roe</foaf:surname><foaf:givenName>Max</foaf:givenName>
        </foaf:Person></rdf:li></rdf:Seq></bib:authors>
        <dc:title>Flows, Explained</dc:title>
        <dc:identifier>
            <dcterms:URI><rdf:value>http://127.0.0.1/blog/flows</rdf:value></dcterms:URI>
        </dc:identifier>
        <dc:date>2023-11-02</dc:date>
    </bib:Document>
    <bib:Book rdf:about="urn:isbn:978-0-262-03561-3">
        <z:itemType>book</z:itemType>
        <bib:editors><rdf:Seq><rdf:li><foaf:Person>
            <foaf:surname>Mohri</foaf:surname><foaf:givenname>Mehryar</foaf:givenname>
        </foaf:Person></rdf:li></rdf:Seq></bib:editors>
        <dc:title>Foundations of Machine Learning</dc:title>
        <dc:identifier>ISBN 978-0-262-03561-3</dc:identifier>
        <dc:date>2018</dc:date>
    </bib:Book>
    <bib:Journal rdf:about="urn:issn:1532-4435">
        <prism:volume>25</prism:volume>
        <dc:title>Journal of Machine Learning Research</dc:title>
        <dc:identifier>DOI 10.5555/jmlr.2024.1</dc:identifier>
        <prism:number>3</prism:number>
        <dc:identifier>ISSN 1532-4435</dc:identifier>
    </bib:Journal>
    <bib:Memo rdf:about="#item_30">
        <z:itemType>note</z:itemType>
        <rdf:value>&lt;p&gt;A standalone note&lt;/p&gt;</rdf:value>
    </bib:Memo>
    <z:Collection rdf:about="#collection_1">
        <dc:title>Reading</dc:title>
        <dcterms:hasPart rdf:resource="https://doi.org/10.5555/jmlr.2024.1"/>
        <dcterms:hasPart rdf:resource="#item_20"/>
    </z:Collection>
</rdf:RDF>
"""


def fact(record: SourceRecord, name: str) -> Any:
    return dict(record.extra).get(name)


def export(folder: Path, text: str = EXPORT, name: str = "Reading.rdf") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def elsewhere_pdfs(count: int) -> str:
    """Item nodes of ``count`` articles, each attached to a PDF on another machine's disk (an
    export made on a Windows computer)."""
    return "".join(
        f'<bib:Article rdf:about="#item_{n}"><z:itemType>journalArticle</z:itemType>'
        f"<dc:title>Paper {n}</dc:title><dcterms:abstract>{ABSTRACT} {n}</dcterms:abstract>"
        f'<link:link rdf:resource="#item_{n}0"/></bib:Article>'
        f'<z:Attachment rdf:about="#item_{n}0"><z:itemType>attachment</z:itemType>'
        f'<rdf:resource rdf:resource="C:\\Users\\ann\\Zotero\\storage\\AB{n}\\paper {n}.pdf"/>'
        "<z:linkMode>0</z:linkMode><link:type>application/pdf</link:type></z:Attachment>"
        for n in range(1, count + 1)
    )


def items(body: str) -> str:
    """An export of the given item nodes."""
    return f"{HEAD}{body}</rdf:RDF>\n"


def test_every_item_type_is_a_paper_with_zoteros_fields(tmp_path: Path) -> None:
    result = read_source(export(tmp_path))
    assert not result.errors
    assert result.warnings == [
        f"{tmp_path / 'Reading.rdf'}: 1 note with no item in the file: left out",
        f"{tmp_path / 'Reading.rdf'}: 1 attached PDF not found on this machine ({PDF_NAME!r}): "
        "its paper imported without it",  # the export's files/ folder is not here
    ]
    article, preprint, paper, thesis, report, page, book = result.records
    # the journal is a node of its own, referenced by rdf:resource; Zotero's rich text goes
    assert article.title == "Sparse Attention at Scale" and article.abstract == ABSTRACT
    assert article.authors == ("Ann Lee", "Jan van der Berg")
    assert article.venue == "Journal of Machine Learning Research 2024"
    assert article.url == "http://127.0.0.1/papers/v25/lee24a.html"
    assert article.keywords == ("attention", "Computer Science - Machine Learning")  # no LCC
    assert (fact(article, "year"), fact(article, "month")) == (2024, 5)
    assert fact(article, "doi") == "10.5555/jmlr.2024.1"  # written on its journal's node
    assert fact(article, "issn") == "1532-4435" and fact(article, "volume") == "25"
    assert fact(article, "issue") == "3" and fact(article, "pages") == "1–20"
    assert fact(article, "eprint") == "2401.01234" and fact(article, "entry_type") == "article"
    assert fact(article, "pdf") == "https://arxiv.org/pdf/2401.01234v1"  # no files/ here
    assert fact(article, "file") is None
    assert article.decision is not None and article.decision.note == "Read section 3\nThen 4 & 5"
    # a preprint: the arXiv id from its 10.48550 DOI, arXiv no publisher, a date as typed
    assert preprint.authors == ("Chidi Okafor", "Google DeepMind")
    assert fact(preprint, "eprint") == "2402.00002" and fact(preprint, "publisher") is None
    assert fact(preprint, "date") == "2023-05-07" and preprint.venue == ""
    assert preprint.abstract.startswith("We propose graph flows")
    assert (
        paper.venue == "Proceedings of the 41st International Conference on Machine Learning 2024"
    )
    assert fact(paper, "entry_type") == "inproceedings" and fact(paper, "year") == 2024
    assert fact(paper, "doi") == "10.5555/icml.2024.7"  # an ``extra`` line
    assert fact(thesis, "school") == "MIT" and fact(thesis, "year") == 2021
    assert fact(report, "institution") == "OpenAI" and fact(report, "date") == "2022-03-15"
    assert page.url == "http://127.0.0.1/blog/flows" and fact(page, "year") == 2023
    assert book.authors == ("Mehryar Mohri",)  # editors, when no authors; older givenname
    assert fact(book, "isbn") == "978-0-262-03561-3" and fact(book, "year") == 2018


def test_a_pdf_in_the_files_folder_beside_the_export_is_the_papers_pdf(tmp_path: Path) -> None:
    folder = tmp_path / "export"
    pdf = folder / PDF_NAME
    pdf.parent.mkdir(parents=True)
    paper_pdf(pdf, "Sparse Attention at Scale", 1)
    (folder / "files" / "11").mkdir()
    (folder / "files" / "11" / "lee24a.html").write_text("<html></html>")
    path = export(folder)
    article = read_source(path).records[0]
    assert fact(article, "file") == str(pdf.resolve())
    library = Library(tmp_path / "home")
    library.import_file(path)
    stored = next(p for p in library.papers() if p.title == "Sparse Attention at Scale")
    linked = link_attachments([stored], PdfFolder(tmp_path / "home" / "pdfs"))
    assert len(linked.done) == 1 and linked.done[0].resolve() == pdf.resolve()
    assert library.triage().notes[stored.id] == "Read section 3\nThen 4 & 5"


def test_a_pdf_named_outside_the_exports_folder_or_absent_is_no_pdf(tmp_path: Path) -> None:
    paper_pdf(tmp_path / "secret.pdf", "Secret", 1)
    body = EXPORT.replace(PDF_NAME, "../secret.pdf")
    article = read_source(export(tmp_path / "out", body)).records[0]
    assert fact(article, "file") is None  # ``..``: Zotero writes no such path
    absolute = EXPORT.replace(PDF_NAME, str(tmp_path / "secret.pdf"))  # a linked file
    assert fact(read_source(export(tmp_path, absolute)).records[0], "file") == str(
        tmp_path / "secret.pdf"
    )


def test_pdfs_of_an_export_made_on_another_machine_are_said_once_and_the_papers_kept(
    tmp_path: Path,
) -> None:
    """Attachments whose files are not here (an export made on another computer names them by
    its own paths; one made without its files/ folder copied beside it) were passed over in
    silence: the papers came without their PDFs and nothing said why."""
    elsewhere = "/Users/ann/Zotero/storage/AB12CD34/Lee et al. - 2024.pdf"
    here = tmp_path / "export" / "files" / "30" / "Park - 2024.pdf"
    here.parent.mkdir(parents=True)
    paper_pdf(here, "Diffusion Samplers in Parallel", 1)

    def attachment(n: int, path: str, kind: str = "application/pdf") -> str:
        return (
            f'<z:Attachment rdf:about="#item_{n}"><z:itemType>attachment</z:itemType>'
            f'<rdf:resource rdf:resource="{path}"/><z:linkMode>2</z:linkMode>'
            f"<link:type>{kind}</link:type></z:Attachment>"
        )

    def article(n: int, links: list[int]) -> str:
        linked = "".join(f'<link:link rdf:resource="#item_{k}"/>' for k in links)
        return (
            f'<bib:Article rdf:about="#item_{n}"><z:itemType>journalArticle</z:itemType>'
            f"<dc:title>Paper {n}</dc:title><dcterms:abstract>{ABSTRACT} {n}</dcterms:abstract>"
            f"{linked}</bib:Article>"
        )

    body = (
        article(1, [11, 12])  # its PDF elsewhere, and a snapshot (no PDF: not counted)
        + attachment(11, elsewhere)
        + attachment(12, "files/12/page.html", "text/html")
        + article(2, [21])
        + attachment(21, "file:///C:/Users/bo/Papers/b%20c.pdf", "")  # a PDF by its name
        + article(3, [31])
        + attachment(31, "files/30/Park - 2024.pdf")  # here: its paper's PDF
        + article(4, [41, 42])  # one PDF elsewhere, one here: not imported without a PDF
        + attachment(41, "C:\\Users\\bo\\Papers\\other.pdf")
        + attachment(42, "files/30/Park - 2024.pdf")
    )
    path = export(tmp_path / "export", items(body))
    report = Library(tmp_path / "home").import_file(path)
    assert report.added == 4 and not report.errors
    assert report.warnings == [
        f"{path}: 2 attached PDFs not found on this machine ({elsewhere!r}): their papers "
        "imported without them"
    ]
    assert sorted(p.title for p in report.attached) == ["Paper 3", "Paper 4"]


def test_known_by_its_content_whatever_its_name(tmp_path: Path) -> None:
    assert reader_for(EXPORT, tmp_path / "export.xml") is ZOTERO_RDF
    assert ZOTERO_RDF.sniff(EXPORT, tmp_path / "export.xml") == Fit.OPENS
    assert ZOTERO_RDF.sniff("title,abstract\n", tmp_path / "x.rdf") == Fit.NAMED
    assert ZOTERO_RDF.sniff("<feed/>", tmp_path / "x.xml") == Fit.NO
    result = read_source(export(tmp_path, name="My Library.xml"))
    assert len(result.records) == 7 and result.list_name == "My Library"


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (f"{HEAD}</rdf:RDF>", "a Zotero RDF export of no papers (no Zotero items)"),
        (
            items('<bib:Memo rdf:about="#item_1"><z:itemType>note</z:itemType></bib:Memo>'),
            "a Zotero RDF export of no papers (1 notes and attachments, no items)",
        ),
        (
            '<?xml version="1.0"?><html><body/></html>',
            "an XML document whose root is <html>, not a paper list in a format papers-tui "
            "reads (its XML formats: EndNote XML, Zotero RDF, arXiv Atom, DBLP XML)",
        ),
        ("title,abstract\nA,B\n", "not well-formed XML, cut short or damaged"),
        (EXPORT[: len(EXPORT) // 2], "not well-formed XML, cut short or damaged"),
    ],
)
def test_a_file_that_gives_no_papers_is_one_line(tmp_path: Path, text: str, said: str) -> None:
    with pytest.raises(SourceError) as caught:
        read_source(export(tmp_path, text))
    assert "\n" not in str(caught.value) and said in str(caught.value)


def test_a_journal_node_other_items_share_lends_its_title_not_its_doi(tmp_path: Path) -> None:
    article = """<bib:Article rdf:about="#item_{n}">
        <z:itemType>journalArticle</z:itemType>
        <dcterms:isPartOf rdf:resource="urn:issn:0028-0836"/>
        <dc:title>Paper {n}</dc:title><dc:date>2021</dc:date>{own}
    </bib:Article>"""
    body = (
        article.format(n=1, own="<dc:identifier>DOI 10.1038/own-1</dc:identifier>")
        + article.format(n=2, own="")
        + """<bib:Journal rdf:about="urn:issn:0028-0836"><dc:title>Nature</dc:title>
        <dc:identifier>DOI 10.1038/whose</dc:identifier></bib:Journal>"""
    )
    first, second = read_source(export(tmp_path, items(body))).records
    assert first.venue == second.venue == "Nature 2021"
    assert fact(first, "doi") == "10.1038/own-1" and fact(second, "doi") is None


def test_a_date_with_no_year_is_said(tmp_path: Path) -> None:
    body = """<bib:Article rdf:about="#item_1"><z:itemType>journalArticle</z:itemType>
        <dc:title>Undated</dc:title><dc:date>n.d.</dc:date></bib:Article>"""
    result = read_source(export(tmp_path, items(body)))
    assert fact(result.records[0], "year") is None
    assert result.warnings == [
        f"{tmp_path / 'Reading.rdf'}: 1 item dated with no year to be read ('n.d.'): "
        "imported without a year"
    ]


def test_control_characters_raw_or_referenced_are_read_as_the_endnote_reader_reads_them(
    tmp_path: Path,
) -> None:
    """Zotero RDF read them as U+FFFD, EndNote XML kept them, as every other reader does (the
    records are cleaned later, the same way whichever reader made them)."""
    title = "Escape\x1b[2J sequences&#27;]0;t&#x0007; &#xD800;&#1114112;"
    rdf = export(
        tmp_path,
        items(
            '<bib:Article rdf:about="#a"><z:itemType>journalArticle</z:itemType>'
            f"<dc:title>{title}</dc:title><dcterms:abstract>{ABSTRACT}\x07</dcterms:abstract>"
            '<dc:subject>tag\x01</dc:subject><link:link rdf:resource="#a\x02"/>'
            "</bib:Article>"
        ),
    )
    endnote = tmp_path / "same.xml"
    endnote.write_text(
        f"<xml><records><record><titles><title>{title}</title></titles>"
        f"<abstract>{ABSTRACT}\x07</abstract></record></records></xml>",
        encoding="utf-8",
    )
    (read,) = read_source(rdf).records
    (same,) = read_source(endnote).records
    assert read.title == same.title == "Escape\x1b[2J sequences\x1b]0;t\x07 \ufffd\ufffd"
    assert read.abstract == same.abstract == f"{ABSTRACT}\x07"
    assert read.keywords == ("tag\x01",)


def test_private_plane_characters_of_the_document_itself_are_kept_beside_held_ones(
    tmp_path: Path,
) -> None:
    """The characters XML cannot hold are held as characters of a private plane while the XML
    is parsed; those the document itself holds (an icon font's glyphs, raw or referenced)
    were turned into control characters with them, in both readers."""
    own = "\U000f0001\U000f001b&#xF0002;&#983070;"  # U+F0001, U+F001B, U+F0002, U+F001E
    title = f"Icons {own} and an escape\x1b."
    rdf = export(
        tmp_path,
        items(
            '<bib:Article rdf:about="#a"><z:itemType>journalArticle</z:itemType>'
            f"<dc:title>{title}</dc:title><dcterms:abstract>{ABSTRACT}</dcterms:abstract>"
            "</bib:Article>"
        ),
    )
    endnote = tmp_path / "same.xml"
    endnote.write_text(
        f"<xml><records><record><titles><title>{title}</title></titles>"
        f"<abstract>{ABSTRACT}</abstract></record></records></xml>",
        encoding="utf-8",
    )
    (read,) = read_source(rdf).records
    (same,) = read_source(endnote).records
    kept = "Icons \U000f0001\U000f001b\U000f0002\U000f001e and an escape\x1b."
    assert read.title == same.title == kept


def test_a_document_using_every_private_block_keeps_its_own_and_reads_controls_as_fffd(
    tmp_path: Path,
) -> None:
    """No block of the private planes left to hold them in: the control characters are read
    as U+FFFD (as Zotero RDF read them before), the document's own characters as they are."""
    own = "".join(chr(block << 8 | 0x41) for block in range(0xF00, 0x1100))
    endnote = tmp_path / "every.xml"
    endnote.write_text(
        f"<xml><records><record><titles><title>All {own}\x1b.</title></titles>"
        f"<abstract>{ABSTRACT}</abstract></record></records></xml>",
        encoding="utf-8",
    )
    (record,) = read_source(endnote).records
    assert record.title == f"All {own}\ufffd."


def test_a_titles_scripts_are_read_as_script_characters_and_stray_tags_dropped(
    tmp_path: Path,
) -> None:
    """Zotero keeps a title's subscripts as ``<sub>``: they read ``CO₂`` as in its other
    exports (its own strip of the tags ran first and left ``CO2``); a tag left unclosed is
    dropped still."""
    rdf = export(
        tmp_path,
        items(
            '<bib:Article rdf:about="#a"><z:itemType>journalArticle</z:itemType>'
            "<dc:title>&lt;i&gt;In vivo&lt;/i&gt; CO&lt;sub&gt;2&lt;/sub&gt; uptake "
            '&lt;span class="nocase"&gt;of mice</dc:title>'
            f"<dcterms:abstract>{ABSTRACT}</dcterms:abstract></bib:Article>"
        ),
    )
    (record,) = read_source(rdf).records
    assert record.title == "In vivo CO₂ uptake of mice"
