"""``papers import`` of reference managers' exports as they come, through the real command: a
folder of exports that also holds XML of other kinds (an SVG, a Maven POM, a Word document's
parts, RSS feeds, DocBook), and a Zotero export made on another machine."""

from __future__ import annotations

from pathlib import Path

from tests.cli.test_cli import make_env, ok, run
from tests.unit.test_endnote_xml import endnote_export
from tests.unit.test_zotero_rdf import ABSTRACT, elsewhere_pdfs, items

#: XML files a folder of exports may hold beside them, each as the program that writes it does.
OTHER_KINDS = {
    # Illustrator's SVG, saved as .xml: a DOCTYPE declaring entities
    "logo.xml": '<?xml version="1.0" encoding="utf-8"?>\n'
    "<!-- Generator: Adobe Illustrator 27.0.0, SVG Export Plug-In . SVG Version: 6.00 -->\n"
    '<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" '
    '"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd" [\n'
    '\t<!ENTITY ns_extend "http://ns.adobe.com/Extensibility/1.0/">\n]>\n'
    '<svg version="1.1" xmlns="http://www.w3.org/2000/svg" width="10" height="10">'
    '<rect width="10" height="10"/></svg>\n',
    "pom.xml": '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<project xmlns="http://maven.apache.org/POM/4.0.0">\n'
    "  <modelVersion>4.0.0</modelVersion>\n  <groupId>org.example</groupId>\n"
    "  <artifactId>reader</artifactId>\n  <version>1.0</version>\n</project>\n",
    # a .docx unzipped: its parts
    "report/[Content_Types].xml": '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n'
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    '<Default Extension="xml" ContentType="application/xml"/></Types>',
    "report/word/document.xml": '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n'
    '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">'
    "<w:body><w:p><w:r><w:t>Related work</w:t></w:r></w:p></w:body></w:document>",
    "feed.xml": '<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0"><channel>'
    "<title>Lab blog</title><link>http://127.0.0.1/</link><description>News</description>"
    "<item><title>We moved</title><description><![CDATA[<p>To a new building.</p>]]>"
    "</description></item></channel></rss>\n",
    # RSS 1.0 is RDF: named .rdf, as Zotero RDF is
    "index.rdf": '<?xml version="1.0"?>\n'
    '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" '
    'xmlns="http://purl.org/rss/1.0/"><channel rdf:about="http://127.0.0.1/">'
    "<title>Lab blog</title><link>http://127.0.0.1/</link><description>News</description>"
    "</channel></rdf:RDF>\n",
    "manual.xml": '<?xml version="1.0"?>\n<!DOCTYPE book PUBLIC "-//OASIS//DTD DocBook XML '
    'V4.5//EN" "docbookx.dtd" '
    '[<!ENTITY product "Reader">]>\n<book><title>&product; manual</title></book>\n',
}


def _folder(root: Path) -> Path:
    """A folder of an EndNote and a Zotero export, and XML of other kinds beside them."""
    folder = root / "exports"
    for name, text in OTHER_KINDS.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
    (folder / "My Library.xml").write_text(endnote_export(), encoding="utf-8")
    article = (
        '<bib:Article rdf:about="#item_1"><z:itemType>journalArticle</z:itemType>'
        f"<dc:title>Sparse Attention at Scale</dc:title><dcterms:abstract>{ABSTRACT}"
        "</dcterms:abstract></bib:Article>"
    )
    (folder / "Reading.rdf").write_text(items(article), encoding="utf-8")
    return folder


def test_xml_of_other_kinds_in_a_folder_is_passed_over_in_one_line(tmp_path: Path) -> None:
    """Each was a 'file not read' error that failed the import (exit 1), seven lines long."""
    env = make_env(tmp_path)
    folder = _folder(tmp_path)
    result = run("--home", tmp_path / "home", "import", folder, env=env)
    out = ok(result)
    summary, *lines = out.splitlines()
    assert summary.startswith("Imported My Library, Reading: 3 added"), out
    assert summary.endswith(", 7 XML files of other kinds passed over")
    assert lines == [
        "  passed over (XML of other kinds): feed.xml, index.rdf, logo.xml, manual.xml, "
        "pom.xml and 2 more"
    ]
    assert result.stderr == ""


def test_an_export_of_ours_that_is_broken_is_still_an_error_among_them(tmp_path: Path) -> None:
    env = make_env(tmp_path)
    folder = _folder(tmp_path)
    (folder / "cut.xml").write_text(endnote_export()[:300], encoding="utf-8")
    zotero = (folder / "Reading.rdf").read_text(encoding="utf-8")
    (folder / "Old.rdf").write_text(zotero[: len(zotero) - 40], encoding="utf-8")
    result = run("--home", tmp_path / "home", "import", folder, env=env)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert "3 added" in result.stdout and "2 files not read" in result.stdout
    assert result.stdout.count("passed over") == 2  # the summary's count, the names' line
    not_read = result.stderr.splitlines()
    assert len(not_read) == 2, result.stderr
    assert not_read[0].startswith(f"  file not read: {folder / 'Old.rdf'}: not well-formed XML")
    assert not_read[1].startswith(f"  file not read: {folder / 'cut.xml'}: the XML is cut short")


def test_a_file_of_another_kind_named_alone_is_refused_in_one_line(tmp_path: Path) -> None:
    env = make_env(tmp_path)
    folder = _folder(tmp_path)
    for name, root in (("pom.xml", "project"), ("index.rdf", "rdf:RDF"), ("manual.xml", "book")):
        result = run("--home", tmp_path / "home", "import", folder / name, env=env)
        assert result.returncode == 1 and result.stdout == ""
        assert result.stderr == (
            f"papers: error: {folder / name}: an XML document whose root is <{root}>, not a "
            "paper list in a format papers-tui reads (its XML formats: EndNote XML, Zotero "
            "RDF, arXiv Atom, DBLP XML)\n"
        )
    only = tmp_path / "only"
    only.mkdir()
    for name in ("pom.xml", "feed.xml"):
        (only / name).write_text(OTHER_KINDS[name], encoding="utf-8")
    result = run("--home", tmp_path / "home", "import", only, env=env)
    assert result.returncode == 1 and result.stderr == (
        "papers: error: no paper list to import: 2 XML files of other kinds (feed.xml, pom.xml)\n"
    )


def test_pdfs_a_zotero_export_names_on_another_machine_are_one_warning(tmp_path: Path) -> None:
    """They were passed over in silence: the papers came without their PDFs, nothing said."""
    env = make_env(tmp_path)
    body = elsewhere_pdfs(3)
    export = tmp_path / "Reading.rdf"
    export.write_text(items(body), encoding="utf-8")
    result = run("--home", tmp_path / "home", "import", export, env=env)
    assert ok(result).startswith("Imported Reading: 3 added")
    assert result.stderr == (
        f"  warning: {export}: 3 attached PDFs not found on this machine "
        "('C:\\\\Users\\\\ann\\\\Zotero\\\\storage\\\\AB1\\\\paper 1.pdf'): their papers "
        "imported without them\n"
    )
