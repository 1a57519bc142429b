"""EndNote XML (``storage.sources.endnote_xml``): the exports of EndNote, Mendeley and Zotero
as each writes them, read into the fields the other readers give; and the hostile border
(entities, a file cut short, encodings, control characters, markup, no records)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from storage import Library
from storage.errors import SourceError
from storage.sources.citation import arxiv_id
from storage.sources.endnote_xml import ENDNOTE_XML, MAX_VALUE_CHARS
from storage.sources.papers import build_paper
from storage.sources.records import Fit, SourceRecord
from storage.sources.registry import read_source, reader_for

ABSTRACT = (
    "We propose ParaSolver, a hierarchical parallel sampling technique for diffusion models "
    "that cuts latency by an order of magnitude on standard image benchmarks."
)
SECOND = (
    "HELMET is a benchmark of long-context language models across seven application-centric "
    "categories, with controllable lengths up to 128k tokens and model-based evaluation."
)
THIRD = (
    "CollabEdit is a non-destructive collaborative knowledge editing framework that merges "
    "the edits of many parties while keeping each party's knowledge intact and private."
)
_STYLE = '<style face="normal" font="default" size="100%">'


def _styled(text: str) -> str:
    """A value as EndNote writes it: one normal run."""
    return f"{_STYLE}{text}</style>"


def endnote_export(pdf_name: str = "Lee-2024-ParaSolver.pdf") -> str:
    """EndNote 21's File → Export → XML: every value in ``<style>`` runs, a title split over
    three (its italic word), the date without its year, the PDF inside the library's folder."""
    return (
        '<?xml version="1.0" encoding="UTF-8" ?><xml><records>'
        '<record><database name="My EndNote Library.enl" path="C:\\Users\\ann\\Documents\\'
        'My EndNote Library.enl">My EndNote Library.enl</database>'
        '<source-app name="EndNote" version="21.0">EndNote</source-app><rec-number>7</rec-number>'
        '<foreign-keys><key app="EN" db-id="x2d" timestamp="1700000000">7</key></foreign-keys>'
        '<ref-type name="Journal Article">17</ref-type>'
        "<contributors><authors>"
        f"<author>{_styled('Lee, Ann')}</author><author>{_styled('van der Berg, Jan')}</author>"
        f"<author>{_styled('Smith, John, Jr.')}</author></authors>"
        f"<secondary-authors><author>{_styled('Editor, Ed')}</author></secondary-authors>"
        "</contributors>"
        f"<titles><title>{_styled('Fast ')}"
        '<style face="italic" font="default" size="100%">parallel</style>'
        f"{_styled(' sampling of diffusion models')}</title>"
        f"<secondary-title>{_styled('Journal of Machine Learning Research')}</secondary-title>"
        f"<alt-title>{_styled('J. Mach. Learn. Res.')}</alt-title></titles>"
        f"<periodical><full-title>{_styled('Journal of Machine Learning Research')}"
        "</full-title></periodical>"
        f"<pages>{_styled('101-130')}</pages><volume>{_styled('25')}</volume>"
        f"<number>{_styled('3')}</number>"
        f"<keywords><keyword>{_styled('diffusion models')}</keyword>"
        f"<keyword>{_styled('Neural Networks, Computer')}</keyword>"
        f"<keyword>{_styled('sampling')}</keyword></keywords>"
        f"<dates><year>{_styled('2024')}</year><pub-dates><date>{_styled('May 7')}</date>"
        "</pub-dates></dates>"
        f"<isbn>{_styled('1532-4435')}</isbn>"
        f"<label>{_styled('Lee2024')}</label>"
        f"<electronic-resource-num>{_styled('10.5555/jmlr.2024.101')}</electronic-resource-num>"
        f"<abstract>{_styled(ABSTRACT + '&#xD;Code and models are released.')}</abstract>"
        f"<notes>{_styled('Accepted; code: https://github.com/lee/parasolver')}</notes>"
        f"<research-notes>{_styled('Read section 3 first.')}</research-notes>"
        f"<urls><related-urls><url>{_styled('http://127.0.0.1/papers/v25/lee24a.html')}</url>"
        f"</related-urls><pdf-urls><url>internal-pdf://0123456789/{pdf_name}</url></pdf-urls>"
        "</urls><language>eng</language></record>"
        # a conference paper: the proceedings in secondary-title, the date with its year
        '<record><database name="My EndNote Library.enl">My EndNote Library.enl</database>'
        '<ref-type name="Conference Proceedings">10</ref-type>'
        f"<contributors><authors><author>{_styled('Yen, Howard')}</author></authors>"
        "</contributors>"
        f"<titles><title>{_styled('HELMET: How to Evaluate Long-Context Models')}</title>"
        f"<secondary-title>{_styled('International Conference on Learning Representations')}"
        "</secondary-title></titles>"
        f"<dates><year>{_styled('2025')}</year><pub-dates><date>{_styled('2025-04-24')}</date>"
        "</pub-dates></dates>"
        f"<abstract>{_styled(SECOND)}</abstract>"
        f"<urls><related-urls><url>{_styled('https://openreview.net/forum?id=293V3bJbmE')}"
        "</url></related-urls></urls></record>"
        "</records></xml>"
    )


def zotero_export(pdf: Path) -> str:
    """Zotero 7's "Endnote XML" export: plain values (one normal run is written bare), the
    item's page in ``web-urls``, a linked PDF's local path, the notes in HTML."""
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        "<xml><records>"
        '<record><database name="MyLibrary">MyLibrary</database>'
        '<source-app name="Zotero">Zotero</source-app>'
        '<ref-type name="Conference Proceedings">10</ref-type>'
        "<contributors><authors><author>Li, Wei</author><author>Zhang, Yu</author></authors>"
        "</contributors>"
        "<titles><title>CollabEdit: Towards Non-destructive Collaborative Knowledge Editing"
        "</title><secondary-title>International Conference on Learning Representations"
        "</secondary-title></titles>"
        "<periodical><full-title>Proceedings of ICLR 2025</full-title></periodical>"
        "<keywords><keyword>knowledge editing</keyword><keyword>LLM</keyword></keywords>"
        "<dates><year>2025</year><pub-dates><date>2025</date></pub-dates></dates>"
        "<electronic-resource-num>10.48550/arXiv.2410.09508</electronic-resource-num>"
        f"<abstract>{THIRD}\n\nWe release the code.</abstract>"
        "<research-notes>&lt;p&gt;Compare with &lt;b&gt;MEMIT&lt;/b&gt;.&lt;/p&gt;"
        "&lt;p&gt;Second note.&lt;/p&gt;</research-notes>"
        "<urls><web-urls><url>http://arxiv.org/abs/2410.09508</url></web-urls>"
        f"<pdf-urls><url>{pdf}</url></pdf-urls></urls>"
        "<language>en</language></record>"
        '<record><database name="MyLibrary">MyLibrary</database>'
        '<source-app name="Zotero">Zotero</source-app>'
        '<ref-type name="Journal Article">17</ref-type>'
        "<contributors><authors><author>Park, Bo</author></authors></contributors>"
        "<titles><title>A Journal Paper Without an Abstract</title>"
        "<secondary-title>Nature Machine Intelligence</secondary-title></titles>"
        "<periodical><full-title>Nature Machine Intelligence</full-title></periodical>"
        "<dates><year>2023</year><pub-dates><date>03/15/2023</date></pub-dates></dates>"
        "<electronic-resource-num>10.1038/s42256-023-00001-x</electronic-resource-num>"
        "</record></records></xml>\n"
    )


def mendeley_export(pdf_url: str) -> str:
    """Mendeley Desktop's File → Export → EndNote XML: pretty-printed, plain values,
    ``rec-number``s, the PDF as a ``file://`` address, an arXiv page as the link."""
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<xml>
  <records>
    <record>
      <rec-number>1</rec-number>
      <ref-type name="Journal Article">17</ref-type>
      <contributors>
        <authors>
          <author>Doe, Jane</author>
          <author>Roe, Richard</author>
        </authors>
      </contributors>
      <titles>
        <title>Sparse Mixtures of Experts at Scale</title>
        <secondary-title>arXiv preprint</secondary-title>
      </titles>
      <dates>
        <year>2024</year>
      </dates>
      <abstract>{ABSTRACT} Experts are routed sparsely.</abstract>
      <keywords>
        <keyword>mixture of experts; sparsity</keyword>
      </keywords>
      <urls>
        <related-urls>
          <url>https://arxiv.org/abs/2401.04088</url>
        </related-urls>
        <pdf-urls>
          <url>{pdf_url}</url>
        </pdf-urls>
      </urls>
      <notes>Oral</notes>
    </record>
    <record>
      <rec-number>2</rec-number>
      <ref-type name="Generic">13</ref-type>
      <contributors><authors><author>Solo, Han</author></authors></contributors>
      <titles><title>A Generic Record With Only a Title</title></titles>
      <dates><year>2022</year></dates>
    </record>
  </records>
</xml>
"""


def _write(folder: Path, name: str, text: str, encoding: str = "utf-8") -> Path:
    path = folder / name
    path.write_text(text, encoding=encoding)
    return path


def _records(path: Path) -> list[SourceRecord]:
    return read_source(path).records


def _extra(record: SourceRecord) -> dict[str, object]:
    return dict(record.extra)


# -- the three exports -----------------------------------------------------------------------


def test_an_endnote_export_reads_every_field(tmp_path: Path) -> None:
    pdf = tmp_path / "My EndNote Library.Data" / "PDF" / "0123456789" / "Lee-2024-ParaSolver.pdf"
    pdf.parent.mkdir(parents=True)
    pdf.write_bytes(b"%PDF-1.4\n")
    path = _write(tmp_path, "My EndNote Library.xml", endnote_export())
    result = read_source(path)
    assert not result.errors and not result.warnings
    first, second = result.records
    assert first.title == "Fast parallel sampling of diffusion models"  # three runs, joined
    assert first.authors == ("Ann Lee", "Jan van der Berg", "John Smith Jr.")  # no editor
    assert first.abstract == f"{ABSTRACT}\nCode and models are released."
    assert first.keywords == ("diffusion models", "Neural Networks, Computer", "sampling")
    assert first.venue == "Journal of Machine Learning Research 2024"
    assert first.url == "http://127.0.0.1/papers/v25/lee24a.html"
    assert first.github == ("https://github.com/lee/parasolver",)
    assert first.decision is not None and first.decision.note == "Read section 3 first."
    extra = _extra(first)
    assert extra["entry_type"] == "article" and extra["year"] == 2024 and extra["month"] == 5
    assert extra["date"] == "2024-05-07"  # "May 7" read with its year
    assert extra["journal"] == "Journal of Machine Learning Research"
    assert (extra["volume"], extra["issue"], extra["pages"]) == ("25", "3", "101–130")
    assert extra["issn"] == "1532-4435" and extra["doi"] == "10.5555/jmlr.2024.101"
    assert extra["bib_note"] == "Accepted; code: https://github.com/lee/parasolver"
    assert extra["file"] == str(pdf)  # the PDF in the library's folder, exported beside it
    assert second.title.startswith("HELMET") and second.authors == ("Howard Yen",)
    assert second.abstract == SECOND and second.url == "https://openreview.net/forum?id=293V3bJbmE"
    assert _extra(second)["booktitle"] == "International Conference on Learning Representations"
    assert _extra(second)["entry_type"] == "inproceedings"
    assert _extra(second)["date"] == "2025-04-24"


def test_an_internal_pdf_not_beside_the_export_is_no_attachment(tmp_path: Path) -> None:
    path = _write(tmp_path, "export.xml", endnote_export())
    first = _records(path)[0]
    assert "file" not in _extra(first) and "pdf" not in _extra(first)


def test_a_zotero_export_reads_every_field(tmp_path: Path) -> None:
    pdf = tmp_path / "Zotero" / "storage" / "AB12CD34" / "Li et al. - 2025 - CollabEdit.pdf"
    pdf.parent.mkdir(parents=True)
    pdf.write_bytes(b"%PDF-1.4\n")
    path = _write(tmp_path, "Exported Items.xml", zotero_export(pdf))
    first, second = _records(path)
    assert first.title.startswith("CollabEdit: Towards") and first.authors == ("Wei Li", "Yu Zhang")
    assert first.abstract == f"{THIRD}\n\nWe release the code."
    assert first.keywords == ("knowledge editing", "LLM")
    assert first.url == "http://arxiv.org/abs/2410.09508"
    assert first.venue == "Proceedings of ICLR 2025"
    assert first.decision is not None
    assert first.decision.note == "Compare with MEMIT.\nSecond note."  # the HTML as text
    extra = _extra(first)
    assert extra["booktitle"] == "Proceedings of ICLR 2025" and extra["year"] == 2025
    assert extra["file"] == str(pdf) and extra["doi"] == "10.48550/arXiv.2410.09508"
    paper = build_paper(first, "Exported Items", 0)
    assert arxiv_id(paper) == "2410.09508"
    assert second.title == "A Journal Paper Without an Abstract" and second.abstract == ""
    assert second.url == "https://doi.org/10.1038/s42256-023-00001-x"  # the DOI's page
    assert _extra(second)["date"] == "2023-03-15" and _extra(second)["journal"] == (
        "Nature Machine Intelligence"
    )


def test_a_zotero_export_with_its_files_links_the_pdf_folder_beside_it(tmp_path: Path) -> None:
    pdf = tmp_path / "PDF" / "AB12CD34" / "CollabEdit.pdf"  # "Export Files": PDF/ beside it
    pdf.parent.mkdir(parents=True)
    pdf.write_bytes(b"%PDF-1.4\n")
    text = zotero_export(Path("x")).replace(
        "<url>x</url>", "<url>internal-pdf://AB12CD34/CollabEdit.pdf</url>"
    )
    first = _records(_write(tmp_path, "Exported Items.xml", text))[0]
    assert _extra(first)["file"] == str(pdf)


def test_a_mendeley_export_reads_every_field(tmp_path: Path) -> None:
    pdf = tmp_path / "Mendeley Desktop" / "Doe, Roe - 2024 - Sparse Mixtures.pdf"
    pdf.parent.mkdir(parents=True)
    pdf.write_bytes(b"%PDF-1.4\n")
    url = pdf.as_uri()
    path = _write(tmp_path, "library.xml", mendeley_export(url))
    first, second = _records(path)
    assert first.title == "Sparse Mixtures of Experts at Scale"
    assert first.authors == ("Jane Doe", "Richard Roe")
    assert first.abstract == f"{ABSTRACT} Experts are routed sparsely."  # no indentation
    assert first.keywords == ("mixture of experts", "sparsity")
    assert first.url == "https://arxiv.org/abs/2401.04088"
    extra = _extra(first)
    assert extra["file"] == str(pdf) and extra["year"] == 2024
    assert extra["bib_note"] == "Oral"
    assert arxiv_id(build_paper(first, "library", 0)) == "2401.04088"
    assert second.title == "A Generic Record With Only a Title"
    assert second.authors == ("Han Solo",) and _extra(second)["entry_type"] == "misc"


def test_the_same_references_as_ris_and_as_endnote_xml_are_the_same_papers(
    tmp_path: Path,
) -> None:
    """What Zotero exports of one library in RIS and in EndNote XML imports as the same."""
    ris = _write(
        tmp_path,
        "refs.ris",
        "TY  - CONF\nTI  - HELMET: How to Evaluate Long-Context Models\nAU  - Yen, Howard\n"
        "T2  - International Conference on Learning Representations\nPY  - 2025\n"
        f"DA  - 2025-04-24\nAB  - {SECOND}\nUR  - https://openreview.net/forum?id=293V3bJbmE\n"
        "ER  - \n",
    )
    xml = _write(tmp_path, "refs.xml", endnote_export())
    from_ris = [build_paper(r, "refs", 0) for r in _records(ris)]
    from_xml = [build_paper(r, "refs", 0) for r in _records(xml)[1:]]
    assert from_ris == from_xml


# -- how it is told ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "opening",
    [
        "",
        '<?xml version="1.0" encoding="UTF-8" ?>\n',
        "\ufeff",
        '\ufeff<?xml version="1.0"?>\n<!-- exported -->\n',
        '<?xml version="1.0"?><!DOCTYPE xml SYSTEM "endnote.dtd">\n',
        "<!DOCTYPE xml [\n<!ELEMENT xml (records)>\n]>\n",
    ],
    ids=["bare", "declared", "bom", "comment", "doctype", "internal-subset"],
)
def test_it_is_told_by_its_content_whatever_its_name(tmp_path: Path, opening: str) -> None:
    text = opening + endnote_export().split("?>", 1)[1]
    path = _write(tmp_path, "references.txt", text)
    assert reader_for(text, path) is ENDNOTE_XML
    assert ENDNOTE_XML.sniff(text, path) is Fit.OPENS
    assert len(_records(path)) == 2


def test_an_xml_file_of_another_kind_is_refused_in_one_line(tmp_path: Path) -> None:
    path = _write(tmp_path, "settings.xml", '<?xml version="1.0"?><config><a>1</a></config>')
    with pytest.raises(SourceError) as caught:
        read_source(path)
    assert str(caught.value) == (
        f"{path}: an XML document whose root is <config>, not a paper list in a format "
        "papers-tui reads (its XML formats: EndNote XML, Zotero RDF, arXiv Atom, DBLP XML)"
    )
    assert "\n" not in str(caught.value)
    # text that is no XML, named .xml, is not claimed
    assert ENDNOTE_XML.sniff(ABSTRACT, tmp_path / "list.xml") is Fit.NO


# -- the hostile border ----------------------------------------------------------------------


def _refusal(path: Path) -> str:
    with pytest.raises(SourceError) as caught:
        read_source(path)
    message = str(caught.value)
    assert "\n" not in message and str(path) in message
    return message


def test_an_entity_expansion_bomb_is_refused_at_once(tmp_path: Path) -> None:
    entities = ['<!ENTITY a0 "ha">'] + [
        f'<!ENTITY a{i} "{f"&a{i - 1};" * 10}">' for i in range(1, 10)
    ]
    text = (
        f'<?xml version="1.0"?><!DOCTYPE xml [{"".join(entities)}]>'
        "<xml><records><record><titles><title>&a9;</title></titles></record></records></xml>"
    )
    path = _write(tmp_path, "bomb.xml", text)
    began = time.process_time()  # CPU time: a guard against a bomb, not the clock's figure
    message = _refusal(path)
    assert time.process_time() - began < 2
    assert "declares an entity" in message


def test_an_external_entity_is_never_read(tmp_path: Path) -> None:
    secret = _write(tmp_path, "secret.txt", "the contents of a private file")
    text = (
        f'<?xml version="1.0"?><!DOCTYPE xml [<!ENTITY leak SYSTEM "{secret.as_uri()}">]>'
        "<xml><records><record><titles><title>&leak;</title></titles></record></records></xml>"
    )
    message = _refusal(_write(tmp_path, "leak.xml", text))
    assert "declares an entity ('leak'" in message and "private" not in message


def test_an_external_dtd_is_not_fetched_and_its_entities_read_as_html(tmp_path: Path) -> None:
    dtd = _write(tmp_path, "x.dtd", '<!ENTITY title "from the DTD">')
    text = (
        f'<?xml version="1.0"?><!DOCTYPE xml SYSTEM "{dtd.as_uri()}">'
        "<xml><records><record><titles><title>Caf&eacute; &title; models</title></titles>"
        "</record></records></xml>"
    )
    (record,) = _records(_write(tmp_path, "dtd.xml", text))
    assert record.title == "Café &title; models"  # HTML's entity read, the DTD's never


@pytest.mark.parametrize("records", ["<records/>", "<records>\n</records>", ""])
def test_an_export_of_no_records_says_so(tmp_path: Path, records: str) -> None:
    text = f'<?xml version="1.0" encoding="UTF-8"?><xml>{records}</xml>'
    message = _refusal(_write(tmp_path, "empty.xml", text))
    assert "no records" in message


def test_elements_nested_deep_inside_a_record_are_read_in_linear_time(tmp_path: Path) -> None:
    """Each element inside a record had its path joined into a field's name, however deep:
    100,000 nested elements took a minute (quadratic); no field is that deep."""
    nested = "<x>" * 100_000 + "</x>" * 100_000
    text = (
        f"<xml><records><record><titles><title>Deep</title></titles>{nested}"
        f"<abstract>{ABSTRACT}</abstract></record></records></xml>"
    )
    path = _write(tmp_path, "deep.xml", text)
    began = time.process_time()  # CPU time: a guard against quadratic reading
    (record,) = _records(path)
    assert time.process_time() - began < 5
    assert (record.title, record.abstract) == ("Deep", ABSTRACT)


def test_a_file_cut_short_says_where_and_imports_nothing(tmp_path: Path) -> None:
    whole = endnote_export()
    cut = whole[: whole.index("HELMET") + 3]
    path = _write(tmp_path, "cut.xml", cut)
    message = _refusal(path)
    assert "cut short" in message and "line 1, column" in message
    assert "record 2" in message and "<style>" in message
    library = Library(tmp_path / "home")
    with pytest.raises(SourceError):
        library.import_file(path)
    assert library.papers() == []


def test_a_file_not_well_formed_says_where(tmp_path: Path) -> None:
    text = endnote_export().replace("</title>", "</titel>", 1)
    message = _refusal(_write(tmp_path, "bad.xml", text))
    assert "not well-formed XML at line 1, column" in message and "mismatched tag" in message


@pytest.mark.parametrize("encoding", ["ISO-8859-1", "windows-1252"])
def test_an_encoding_the_declaration_names_is_read(tmp_path: Path, encoding: str) -> None:
    text = (
        f'<?xml version="1.0" encoding="{encoding}"?><xml><records><record>'
        "<contributors><authors><author>Müller, Jörg</author></authors></contributors>"
        "<titles><title>Über café models</title></titles><dates><year>2021</year></dates>"
        f"<abstract>{ABSTRACT}</abstract></record></records></xml>"
    )
    (record,) = _records(_write(tmp_path, "latin.xml", text, encoding=encoding))
    assert record.title == "Über café models" and record.authors == ("Jörg Müller",)


def test_an_undeclared_encoding_that_is_not_utf8_is_refused_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "latin.xml"
    path.write_bytes(
        b"<xml><records><record><titles><title>caf\xe9</title></titles></record></records></xml>"
    )
    assert "not UTF-8 text" in _refusal(path)


def test_control_characters_raw_or_referenced_are_kept_as_every_reader_keeps_them(
    tmp_path: Path,
) -> None:
    text = (
        "<xml><records><record><titles><title>Escape\x1b[2J sequences&#27;]0;t&#x7;"
        "</title></titles><abstract>"
        f"{ABSTRACT}\x07 More\x0btext.</abstract></record></records></xml>"
    )
    (record,) = _records(_write(tmp_path, "controls.xml", text))
    assert record.title == "Escape\x1b[2J sequences\x1b]0;t\x07"
    # a vertical tab ends a line, as the line-based readers (RIS, EndNote's tagged) read it
    assert record.abstract == f"{ABSTRACT}\x07 More\ntext."


def test_markup_in_a_field_is_its_text(tmp_path: Path) -> None:
    text = (
        '<xml><records><record><titles><title>\n   <style face="bold">Deep</style>\n'
        '   <style face="normal"> nets &lt;i&gt;in&lt;/i&gt; </style><b>unknown</b>'
        "<sup>2</sup></title></titles>"
        f"<abstract><style>{ABSTRACT}</style></abstract></record></records></xml>"
    )
    (record,) = _records(_write(tmp_path, "markup.xml", text))
    # an escaped <i> is Zotero's rich text (its EndNote XML export escapes it): its text, as
    # in every reader (storage.text.rich_text)
    assert record.title == "Deep nets in unknown2"


def test_a_field_past_its_cap_refuses_its_record_alone(tmp_path: Path) -> None:
    huge = "word " * (MAX_VALUE_CHARS // 4)
    text = (
        "<xml><records>"
        f"<record><titles><title>Huge</title></titles><abstract>{huge}</abstract></record>"
        f"<record><titles><title>Sound</title></titles><abstract>{ABSTRACT}</abstract></record>"
        "</records></xml>"
    )
    result = read_source(_write(tmp_path, "huge.xml", text))
    assert [r.title for r in result.records] == ["Sound"]
    (error,) = result.errors
    assert error.record == 1 and "<abstract> holds" in error.reason


def test_a_year_that_cannot_be_read_is_said(tmp_path: Path) -> None:
    text = (
        "<xml><records>"
        "<record><titles><title>In Press</title></titles><dates><year>in press</year></dates>"
        "</record>"
        "<record><titles><title>Dated</title></titles><dates><year>2019a</year></dates></record>"
        "</records></xml>"
    )
    result = read_source(_write(tmp_path, "years.xml", text))
    assert [_extra(r).get("year") for r in result.records] == [None, 2019]
    (warning,) = result.warnings
    assert "record 1: 'in press'" in warning and "without one" in warning
