"""XML as the readers hold it before parsing (``storage.sources.xml_text``): a character
reference XML refuses is held, except where XML reads no references at all (a CDATA section,
a comment, a processing instruction), whose text is literal; and each XML reader reads a
CDATA section as the same text escaped."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from xml.etree import ElementTree
from xml.sax.saxutils import escape

import pytest

from storage.sources import xml_text
from storage.sources.registry import read_source
from tests.fetch import shapes
from tests.unit.test_zotero_rdf import items

ABSTRACT = "We study sparse attention at scale and show it keeps accuracy on long inputs."
#: What the sections below hold, as the text they are.
LITERAL = "&#27; &amp; x"
#: ``]]>`` inside CDATA: the section ended after ``]]`` and another opened for ``>``.
SPLIT = "<![CDATA[a]]]]><![CDATA[>b &#27;]]>"


def _parsed(document: str) -> ElementTree.Element:
    """The document parsed as the Zotero RDF reader parses it: held, then given back."""
    text, held = xml_text.hold(document)
    root = ElementTree.fromstring(text)
    for element in root.iter():
        if element.text and held is not None:
            element.text = held.restore(element.text)
    return root


def test_a_reference_in_a_cdata_section_is_its_characters_not_the_character() -> None:
    """``&#27;`` in CDATA was held as a control character like a reference outside one, so the
    field read ESC where the export wrote five characters."""
    root = _parsed(f"<r><a><![CDATA[{LITERAL}]]></a><b>{SPLIT}</b><c>&#27;x</c></r>")
    assert [e.text for e in root] == [LITERAL, "a]]>b &#27;", "\x1bx"]
    assert xml_text.hold(f"<a><![CDATA[{LITERAL}]]></a>") == (f"<a><![CDATA[{LITERAL}]]></a>", None)


def test_comments_and_instructions_are_left_as_they_are_and_end_where_they_end() -> None:
    """A ``<![CDATA[`` inside a comment opens nothing: the reference after the comment is one."""
    document = "<?pi &#1;?><r><!-- <![CDATA[ &#2; -->&#27;<?x ]]> ?>&#x7;</r>"
    text, held = xml_text.hold(document)
    assert text.startswith("<?pi &#1;?><r><!-- <![CDATA[ &#2; -->") and "&#27;" not in text
    assert "<?x ]]> ?>" in text and held is not None
    assert held.restore(ElementTree.fromstring(text).text or "") == "\x1b\x07"


def test_a_cdata_section_never_closed_is_left_as_it_is_for_the_parser_to_refuse() -> None:
    text, _ = xml_text.hold("<r>&#27;<![CDATA[&#27;</r>")
    assert text.endswith("<![CDATA[&#27;</r>")
    with pytest.raises(ElementTree.ParseError):
        ElementTree.fromstring(text)


def _zotero_rdf(title: str, abstract: str) -> str:
    return items(
        '<bib:Article rdf:about="#a"><z:itemType>journalArticle</z:itemType>'
        f"<dc:title>{title}</dc:title><dcterms:abstract>{abstract}</dcterms:abstract>"
        "</bib:Article>"
    )


def _endnote_xml(title: str, abstract: str) -> str:
    return (
        f"<xml><records><record><titles><title>{title}</title></titles>"
        f"<abstract>{abstract}</abstract></record></records></xml>"
    )


def _arxiv_atom(title: str, abstract: str) -> str:
    entry = shapes.atom_entry("2502.00001", "TITLE", "ABSTRACT", ["Ann Lee"])
    entry = entry.replace(">TITLE<", f">{title}<").replace(">ABSTRACT<", f">{abstract}<")
    return shapes.atom_feed([entry], total=1)


@pytest.mark.parametrize(
    ("write", "name"),
    [(_zotero_rdf, "export.rdf"), (_endnote_xml, "export.xml"), (_arxiv_atom, "feed.atom")],
    ids=["zotero-rdf", "endnote-xml", "arxiv-atom"],
)
def test_each_reader_reads_a_cdata_section_as_the_same_text_escaped(
    tmp_path: Path, write: Callable[[str, str], str], name: str
) -> None:
    """The Zotero RDF and EndNote XML readers gave the title of ``<![CDATA[&#27; …]]>`` an
    ESC that the same text escaped (``&amp;#27; …``) does not give; the arXiv reader read it
    right and is kept so."""
    (tmp_path / "cdata").mkdir()
    (tmp_path / "escaped").mkdir()
    cdata = tmp_path / "cdata" / name
    cdata.write_text(
        write(f"<![CDATA[{LITERAL}]]>", f"<![CDATA[{ABSTRACT} ]]>{SPLIT}"), encoding="utf-8"
    )
    escaped = tmp_path / "escaped" / name
    escaped.write_text(write(escape(LITERAL), f"{ABSTRACT} a]]&gt;b &amp;#27;"))
    (read,) = read_source(cdata).records
    (same,) = read_source(escaped).records
    assert (read.title, read.abstract) == (same.title, same.abstract)
    assert "\x1b" not in read.title + read.abstract and read.abstract.startswith(ABSTRACT)


@pytest.mark.parametrize(
    ("write", "name"),
    [(_zotero_rdf, "export.rdf"), (_endnote_xml, "export.xml"), (_arxiv_atom, "feed.atom")],
    ids=["zotero-rdf", "endnote-xml", "arxiv-atom"],
)
def test_each_reader_keeps_a_control_character_of_a_field(
    tmp_path: Path, write: Callable[[str, str], str], name: str
) -> None:
    """A title holding ESC (raw, or as ``&#27;``), which XML 1.0 refuses: the arXiv reader
    refused the whole feed as "not a well-formed Atom feed", as the others did before they
    held such characters; now each keeps the paper and the character (made printable where
    it is shown)."""
    path = tmp_path / name
    path.write_text(write("Red &#27;[31m title", f"{ABSTRACT} \x07 rang"), encoding="utf-8")
    (read,) = read_source(path).records
    assert read.title == "Red \x1b[31m title" and read.abstract == f"{ABSTRACT} \x07 rang"
