"""How to write a paper's fields in each format papers-tui reads: one writer per reader.

``FORMATS`` is keyed by ``Reader.name`` (``storage.sources.registry.READERS``): a new reader is
covered by every test of this folder once its name and a writer are added here (a test fails,
naming it, until they are). Each writer keeps the hostile text inside its field the way the
format allows: escaped where it can be (JSON, CSV, BibTeX), on one line where the format is
made of lines (plain text, RIS, arXiv mail).
"""

from __future__ import annotations

import csv
import io
import json
import re
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from storage.errors import SourceError
from tests.hostile.hostile import FIELDS

Papers = list[Mapping[str, str]]


@dataclass(frozen=True, slots=True)
class Format:
    """How to write papers in one reader's format, and which of ``FIELDS`` it carries."""

    #: The file's name; ``{stem}`` stands for a name the test chooses (the list's, for some).
    file_name: str
    fields: tuple[str, ...]
    #: Papers' fields (each with the same ``list``) → the file's text.
    write: Callable[[Papers], str]
    #: Examples hypothesis tries per field (fewer where writing one costs a library).
    examples: int = 100


def flat(text: str) -> str:
    """``text`` on one line: for formats made of lines, where a line break ends a field."""
    return re.sub(r"\s*[\n\r\x0b\x0c\x1c-\x1e\x85\u2028\u2029]\s*", " ", text)


def _record(paper: Mapping[str, str]) -> dict[str, str]:
    return {
        "title": paper["title"],
        "abstract": paper["abstract"],
        "authors": paper["authors"],
        "url": paper["url"],
        "code": paper["github"],
        "decision": paper["venue_status"],
        "keywords": paper["keywords"],
    }


def _json(papers: Papers) -> str:
    return json.dumps({"name": papers[0]["list"], "papers": [_record(p) for p in papers]})


def _json_lines(papers: Papers) -> str:
    return "\n".join(json.dumps(_record(p)) for p in papers) + "\n"


def _csv(papers: Papers) -> str:
    out = io.StringIO()
    writer = csv.writer(out)  # RFC 4180: CRLF, so that a lone CR in a field is quoted
    rows = [_record(p) for p in papers]
    writer.writerow(rows[0].keys())
    writer.writerows(row.values() for row in rows)
    return out.getvalue()


def _plain_text(papers: Papers) -> str:
    body = "\n\n".join(f"{flat(p['title'])}\n{flat(p['abstract'])}" for p in papers)
    return f"{flat(papers[0]['list'])}\n\n{body}\n"


_BIB_SPECIAL = {"\\": r"\textbackslash{}", "{": r"\{", "}": r"\}"}


def _bibtex(papers: Papers) -> str:
    def value(text: str) -> str:
        return "{" + "".join(_BIB_SPECIAL.get(ch, ch) for ch in text) + "}"

    entries = []
    for i, p in enumerate(papers):
        fields = {
            "title": p["title"],
            "abstract": p["abstract"],
            "author": " and ".join(p["authors"].split(";")),
            "url": p["url"],
            "note": p["github"],
            "keywords": p["keywords"],
        }
        body = ",\n".join(f"  {name} = {value(text)}" for name, text in fields.items())
        entries.append(f"@article{{paper{i},\n{body}\n}}\n")
    return "\n".join(entries)


def _ris(papers: Papers) -> str:
    records = []
    for p in papers:
        lines = ["TY  - CONF", f"TI  - {flat(p['title'])}", f"AB  - {flat(p['abstract'])}"]
        lines += [f"AU  - {flat(a)}" for a in p["authors"].split(";")]
        lines += [f"UR  - {flat(p['url'])}", f"N1  - {flat(p['github'])}"]
        lines += [f"KW  - {flat(k)}" for k in p["keywords"].split(",")]
        records.append("\n".join([*lines, "ER  - "]))
    return "\n\n".join(records) + "\n"


def _endnote(papers: Papers) -> str:
    records = []
    for p in papers:
        lines = ["%0 Conference Proceedings", f"%T {flat(p['title'])}", f"%X {flat(p['abstract'])}"]
        lines += [f"%A {flat(a)}" for a in p["authors"].split(";")]
        lines += [f"%U {flat(p['url'])}", f"%Z {flat(p['github'])}"]
        lines += [f"%K {flat(k)}" for k in p["keywords"].split(",")]
        records.append("\n".join(lines))
    return "\n\n".join(records) + "\n"


def _web_of_science(papers: Papers) -> str:
    records = ["FN Clarivate Analytics Web of Science", "VR 1.0"]
    for p in papers:
        authors = [flat(a) for a in p["authors"].split(";")]
        lines = ["PT J", f"AF {authors[0]}", *(f"   {a}" for a in authors[1:])]
        lines += [f"TI {flat(p['title'])}", f"AB {flat(p['abstract'])}"]
        lines += [f"DE {'; '.join(flat(k) for k in p['keywords'].split(','))}", "ER", ""]
        records.append("\n".join(lines))
    return "\n".join([*records, "EF"]) + "\n"


def _medline(papers: Papers) -> str:
    records = []
    for number, p in enumerate(papers, 1):
        lines = [f"PMID- {number}", f"TI  - {flat(p['title'])}", f"AB  - {flat(p['abstract'])}"]
        lines += [f"FAU - {flat(a)}" for a in p["authors"].split(";")]
        lines += [f"OT  - {flat(k)}" for k in p["keywords"].split(",")]
        records.append("\n".join(lines))
    return "\n\n".join(records) + "\n"


def _csl_json(papers: Papers) -> str:
    items = [
        {
            "type": "paper-conference",
            "title": p["title"],
            "abstract": p["abstract"],
            "author": [{"family": a, "given": ""} for a in p["authors"].split(";")],
            "URL": p["url"],
            "note": p["github"],
            "keyword": p["keywords"],
            "container-title": "A conference",
        }
        for p in papers
    ]
    return json.dumps(items)


def _arxiv_email(papers: Papers) -> str:
    rule = "-" * 78
    entries = []
    for i, p in enumerate(papers):
        number = f"2501.{i + 1:05d}"
        entries.append(
            f"{rule}\n\\\\\narXiv:{number}\nDate: Mon, 6 Jan 2025 00:00:00 GMT   (10kb)\n\n"
            f"Title: {flat(p['title'])}\nAuthors: {flat(p['authors'])}\n"
            f"Categories: {flat(p['keywords'])}\nComments: {flat(p['github'])}\n\\\\\n"
            f"  {flat(p['abstract'])}\n\\\\ ( https://arxiv.org/abs/{number} ,  10kb)\n"
        )
    return "".join(entries) + rule + "\n"


def _ieee_text(papers: Papers) -> str:
    """IEEE Xplore's plain-text citations, a paragraph each (a download opens with its first
    author's name: text that opens with ``[`` or ``{`` is JSON's, whatever follows)."""
    entries = []
    for i, p in enumerate(papers):
        authors = " and ".join(["A. Writer", *(flat(a) for a in p["authors"].split(";"))])
        entries.append(
            f'{authors}, "{flat(p["title"])}," in IEEE Access, vol. {i + 1}, no. 2, pp. 1-9, '
            f"Jan. 2024, doi: 10.1109/ACCESS.2024.{i + 1}.\nAbstract: {flat(p['abstract'])}\n"
            f"keywords: {{{';'.join(flat(k) for k in p['keywords'].split(','))}}},\n"
            f"URL: {flat(p['url'])}"
        )
    return "\n\n\n".join(entries) + "\n"


def _sciencedirect_text(papers: Papers) -> str:
    """ScienceDirect's plain-text citations, a field a line (opening with the first author's
    name, as ``_ieee_text``)."""
    entries = []
    for i, p in enumerate(papers):
        authors = ", ".join(["Ann Writer", *(flat(a) for a in p["authors"].split(";"))])
        entries.append(
            f"{authors},\n{flat(p['title'])},\nJournal of Things,\nVolume {i + 1},\n2024,\n"
            f"Pages 1-9,\nISSN 1234-5678,\nhttps://doi.org/10.1016/j.things.2024.{i + 1}.\n"
            f"({flat(p['url'])})\nAbstract: {flat(p['abstract'])}\n"
            f"Keywords: {'; '.join(flat(k) for k in p['keywords'].split(','))}"
        )
    return "\n\n".join(entries) + "\n"


#: What XML 1.0 cannot hold even escaped: C0 controls but tab, LF, CR; U+FFFE/U+FFFF.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")


def _xml(text: str) -> str:
    from xml.sax.saxutils import escape

    return escape(_NOT_XML.sub("", text))


def _arxiv_atom(papers: Papers) -> str:
    """An arXiv API answer (XML keeps what it can: control characters it cannot hold go)."""
    entries = []
    for i, p in enumerate(papers):
        number = f"2501.{i + 1:05d}"
        names = p["authors"].split(";")
        people = "".join(f"<author><name>{_xml(a)}</name></author>" for a in names)
        cats = "".join(
            f'<category term="{_xml(k).replace(chr(34), "&quot;")}"/>'
            for k in p["keywords"].split(",")
        )
        entries.append(
            f"<entry><id>http://arxiv.org/abs/{number}v1</id>"
            f"<title>{_xml(p['title'])}</title><summary>{_xml(p['abstract'])}</summary>"
            f"{people}<arxiv:comment>{_xml(p['github'])}</arxiv:comment>{cats}"
            "<published>2025-01-06T00:00:00Z</published></entry>"
        )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom" '
        'xmlns:arxiv="http://arxiv.org/schemas/atom">' + "".join(entries) + "</feed>"
    )


def _zotero_rdf(papers: Papers) -> str:
    """A Zotero RDF export: Zotero writes a field's characters as they are, even those XML
    cannot hold (a NUL, which no text file holds, aside)."""
    from xml.sax.saxutils import escape

    def text(value: str) -> str:
        return escape(value.replace("\x00", ""))

    items = []
    for i, p in enumerate(papers):
        people = "".join(
            f"<rdf:li><foaf:Person><foaf:surname>{text(a)}</foaf:surname></foaf:Person></rdf:li>"
            for a in p["authors"].split(";")
        )
        tags = "".join(f"<dc:subject>{text(k)}</dc:subject>" for k in p["keywords"].split(","))
        items.append(
            f'<bib:Article rdf:about="#item_{i}"><z:itemType>journalArticle</z:itemType>'
            f"<dc:title>{text(p['title'])}</dc:title>"
            f"<dcterms:abstract>{text(p['abstract'])}</dcterms:abstract>"
            f"<bib:authors><rdf:Seq>{people}</rdf:Seq></bib:authors>{tags}<dc:identifier>"
            f"<dcterms:URI><rdf:value>{text(p['url'])}</rdf:value></dcterms:URI></dc:identifier>"
            "</bib:Article>"
        )
    return (
        '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" '
        'xmlns:z="http://www.zotero.org/namespaces/export#" '
        'xmlns:dcterms="http://purl.org/dc/terms/" xmlns:bib="http://purl.org/net/biblio#" '
        'xmlns:foaf="http://xmlns.com/foaf/0.1/" xmlns:dc="http://purl.org/dc/elements/1.1/">'
        + "".join(items)
        + "</rdf:RDF>\n"
    )


def _endnote_xml(papers: Papers) -> str:
    """An EndNote XML export, as Zotero's serializer writes it: ``&``, ``<``, ``>`` escaped,
    control characters raw (XML cannot hold them: the reader reads them back), the title and
    the abstract in EndNote's ``<style>`` runs."""
    from xml.sax.saxutils import escape

    style = '<style face="normal" font="default" size="100%">'
    records = []
    for p in papers:
        authors = "".join(f"<author>{escape(a)}</author>" for a in p["authors"].split(";"))
        words = "".join(f"<keyword>{escape(k)}</keyword>" for k in p["keywords"].split(","))
        records.append(
            '<record><ref-type name="Conference Proceedings">10</ref-type>'
            f"<contributors><authors>{authors}</authors></contributors>"
            f"<titles><title>{style}{escape(p['title'])}</style></title></titles>"
            f"<abstract>{style}{escape(p['abstract'])}</style></abstract>"
            f"<keywords>{words}</keywords><notes>{escape(p['github'])}</notes>"
            f"<urls><related-urls><url>{escape(p['url'])}</url></related-urls></urls></record>"
        )
    return (
        '<?xml version="1.0" encoding="UTF-8"?><xml><records>'
        + "".join(records)
        + ("</records></xml>")
    )


def _dblp_xml(papers: Papers) -> str:
    """A DBLP person page (``https://dblp.org/pid/….xml``): the person named by the list,
    each paper an ``<r><inproceedings>`` (``&``, ``<``, ``>`` and quotes escaped, control
    characters raw: the reader reads them back), its link an ``<ee>``."""
    from xml.sax.saxutils import escape, quoteattr

    records = []
    for i, p in enumerate(papers):
        authors = "".join(f"<author>{escape(a)}</author>" for a in p["authors"].split(";"))
        records.append(
            f'<r><inproceedings key="conf/x/Paper{i}" mdate="2024-01-01">{authors}'
            f"<title>{escape(p['title'])}</title><year>2024</year><booktitle>X</booktitle>"
            f"<ee>{escape(p['url'])}</ee></inproceedings></r>"
        )
    name = quoteattr(papers[0]["list"])
    return (
        f'<?xml version="1.0"?>\n<dblpperson name={name} pid="1/1">{"".join(records)}</dblpperson>'
    )


def _markdown(papers: Papers) -> str:
    """Our own Markdown export of the papers (its reader reads only ours)."""
    from storage.export import export
    from storage.files.triage_model import TriageState
    from storage.models import Paper
    from storage.sources.links import web_url

    made = [
        Paper(
            id=f"{i:012d}", title=p["title"], abstract=p["abstract"],
            authors=tuple(p["authors"].split(";")), url=web_url(p["url"]),  # as readers keep it
            github=tuple(u for u in p["github"].split() if u.startswith("https://github.com/")),
            venue_status=p["venue_status"], list=p["list"], lists=(p["list"],),
        )
        for i, p in enumerate(papers)
    ]  # fmt: skip
    return export(made, TriageState(), "markdown", abstracts=True)


def _library(papers: Papers) -> str:
    """The ``papers.json`` of a library that imported the papers (none when it refused them)."""
    from storage import Library

    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "list.json"
        source.write_text(_json(papers), encoding="utf-8")
        library = Library(Path(folder) / "home")
        try:
            library.import_file(source)
        except SourceError:
            return '{"meta": {"1": {"schema": 1, "kind": "papers"}}}'
        return library.papers_path.read_text(encoding="utf-8")


#: Reader name (``Reader.name``) → how to write its files. One line per reader; a writer
#: whose reader is not registered yet waits here (the tests take registered readers only).
FORMATS: dict[str, Format] = {
    "JSON": Format("{stem}.json", FIELDS, _json),
    "JSON Lines": Format("{stem}.jsonl", FIELDS[:-1], _json_lines),
    "CSV/TSV": Format("{stem}.csv", FIELDS[:-1], _csv),
    "plain text": Format("{stem}.txt", ("title", "abstract", "list"), _plain_text),
    "BibTeX": Format("{stem}.bib", (*FIELDS[:5], "keywords"), _bibtex),
    "RIS": Format("{stem}.ris", (*FIELDS[:5], "keywords"), _ris),
    "EndNote tagged": Format("{stem}.enw", (*FIELDS[:5], "keywords"), _endnote),
    "EndNote XML": Format("{stem}.xml", (*FIELDS[:5], "keywords"), _endnote_xml),
    "Web of Science": Format(
        "{stem}.txt", ("title", "abstract", "authors", "keywords"), _web_of_science
    ),
    "PubMed (MEDLINE)": Format(
        "{stem}.nbib", ("title", "abstract", "authors", "keywords"), _medline
    ),
    "CSL-JSON": Format("{stem}.csl-json", (*FIELDS[:5], "keywords"), _csl_json),
    "arXiv listing email": Format(
        "{stem}.eml", ("title", "abstract", "authors", "github", "keywords"), _arxiv_email
    ),
    "arXiv API Atom feed": Format(
        "{stem}.atom", ("title", "abstract", "authors", "github", "keywords"), _arxiv_atom
    ),
    "IEEE Xplore plain text": Format(
        "{stem}.txt", ("title", "abstract", "authors", "url", "keywords"), _ieee_text
    ),
    "ScienceDirect plain text": Format(
        "{stem}.txt", ("title", "abstract", "authors", "url", "keywords"), _sciencedirect_text
    ),
    "papers-tui library": Format("papers.json", FIELDS, _library, examples=15),
    "Markdown (papers-tui)": Format(
        "{stem}.md", ("title", "abstract", "authors", "url", "venue_status", "list"), _markdown
    ),
    "Zotero RDF": Format(
        "{stem}.rdf", ("title", "abstract", "authors", "url", "keywords"), _zotero_rdf
    ),
    "DBLP XML": Format("{stem}.xml", ("title", "authors", "url", "list"), _dblp_xml),
}


def registered_formats() -> dict[str, Format]:
    """The formats of ``FORMATS`` whose reader is in the registry now."""
    from storage.sources.registry import READERS

    names = {reader.name for reader in READERS}
    return {name: fmt for name, fmt in FORMATS.items() if name in names}
