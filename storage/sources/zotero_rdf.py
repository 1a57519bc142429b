"""Zotero RDF (``.rdf``): Zotero's "Export Collection… → Zotero RDF", its full-fidelity export,
often written with a ``files/`` folder beside it that holds the attachments.

An ``rdf:RDF`` document whose top-level nodes are the items (``bib:Article``, ``bib:Book``,
``bib:Thesis``, ``bib:Report``, ``bib:Document``, ``rdf:Description``…), each saying its
Zotero type in ``z:itemType``; the rest are what items point to, written inside the item or
as a node of its own named by ``rdf:about`` and pointed to by ``rdf:resource``:

- ``dc:title``, ``dcterms:abstract``, ``dc:date`` (as typed: ``storage.sources.dates``),
  ``bib:pages``, ``dc:description`` (Zotero's ``extra``: ``arXiv: 2401.01234`` lines);
- creators by role, each an ``rdf:Seq`` of ``foaf:Person`` (``foaf:surname``,
  ``foaf:givenName``, older Zotero's ``foaf:givenname``; a name in one field ``foaf:name``):
  ``bib:authors`` and the other primary roles (``z:programmers``, ``z:presenters``…) are the
  authors, ``bib:editors`` only when there are none;
- ``dc:subject``: a tag (plain text, or ``z:AutomaticTag``'s ``rdf:value``; a
  ``dcterms:LCC`` there is a call number, no tag);
- ``dc:identifier``: ``DOI 10.…``, ``ISBN …``, ``ISSN …``, or a ``dcterms:URI`` (the link);
- ``dcterms:isPartOf``: the journal, proceedings, book or website (``dc:title``, with
  ``prism:volume`` and ``prism:number``); Zotero writes an article's DOI, ISSN and ISBN on
  that node, read there unless other items share it (whose DOI would it be?);
  ``bib:presentedAt`` a ``bib:Conference``; ``dc:publisher`` a ``foaf:Organization`` (a
  thesis's school, a report's institution; a preprint's arXiv is no publisher);
- ``link:link`` to ``z:Attachment`` nodes: one whose file (its ``rdf:resource``, relative to
  the export: ``files/12/x.pdf``) is a PDF that is there becomes the paper's local PDF (PDFs
  not there, as in an export made on another machine, are said in one warning); a PDF
  downloaded from the web (``z:linkMode`` 1) gives its address as the PDF link;
- ``dcterms:isReferencedBy`` to ``bib:Memo`` nodes: the notes (HTML in ``rdf:value``), the
  paper's note as text.

A document whose root is not ``rdf:RDF``, or RDF without Zotero's namespace (an RSS 1.0
feed), is XML of another kind (``OtherDocument``), which a folder import passes over.
Attachments, notes and collections are no papers; standalone notes and attachments are said
in one warning, and so are references to nodes the file does not hold. References are
followed a fixed number of steps from an item (never a chain), so a cycle of them is nothing.

The XML is parsed by the standard library (expat: no external entity is ever fetched); a
document that declares a DTD, where entities (and their expansion bombs) would be, is refused
in one line, as Zotero never writes one. Characters XML 1.0 cannot hold (C0 controls, raw or
as ``&#27;``), which would make a whole export unreadable for one field, are read as every
reader reads them (``storage.sources.xml_text``).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final
from urllib.parse import unquote

from storage.errors import OtherDocument, SourceError
from storage.sources import xml_text
from storage.sources.attachments import MAX_PATH_CHARS, file_url_path
from storage.sources.authors import MAX_AUTHORS, flat_name
from storage.sources.citation import arxiv_id_of_url, doi_of, entry_type
from storage.sources.dates import typed_date
from storage.sources.links import web_url
from storage.sources.records import (
    ARXIV_ID,
    SNIFF_CHARS,
    Fit,
    Reader,
    ReadResult,
    folder_of,
    opening,
)
from storage.sources.zotero_api import attach, extra_ids, left_out, note_text
from storage.text.rich_text import plain_title

if TYPE_CHECKING:  # the parser loads when a file is read: the command line starts without it
    from xml.etree.ElementTree import Element

__all__ = ["ZOTERO_RDF", "read_zotero_rdf", "sniff_zotero_rdf"]

RDF: Final = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
ZOTERO: Final = "http://www.zotero.org/namespaces/export#"
BIB: Final = "http://purl.org/net/biblio#"
DC: Final = "http://purl.org/dc/elements/1.1/"
DCTERMS: Final = "http://purl.org/dc/terms/"
FOAF: Final = "http://xmlns.com/foaf/0.1/"
PRISM: Final = "http://prismstandard.org/namespaces/1.2/basic/"
LINK: Final = "http://purl.org/rss/1.0/modules/link/"
SUFFIXES: Final = (".rdf",)

_ABOUT: Final = f"{{{RDF}}}about"
_RESOURCE: Final = f"{{{RDF}}}resource"
_NODE_ID: Final = f"{{{RDF}}}nodeID"
_PARSE_TYPE: Final = f"{{{RDF}}}parseType"
_VALUE: Final = f"{{{RDF}}}value"
_LI: Final = f"{{{RDF}}}li"
_ITEM_TYPE: Final = f"{{{ZOTERO}}}itemType"
_TITLE: Final = f"{{{DC}}}title"
_IS_PART_OF: Final = f"{{{DCTERMS}}}isPartOf"
_IDENTIFIER: Final = f"{{{DC}}}identifier"
_SERIES_OR_PART: Final = frozenset({f"{{{BIB}}}Series", f"{{{BIB}}}Part"})
#: Creator roles whose people are the authors, as Zotero names them in RDF (``bib:`` for the
#: roles of the biblio vocabulary, ``z:`` for its own), in the order they are looked for.
_PRIMARY: Final = tuple(
    f"{{{BIB if role in ('authors', 'contributors') else ZOTERO}}}{role}"
    for role in (
        "authors", "programmers", "inventors", "presenters", "directors", "artists",
        "podcasters", "cartographers", "performers", "composers", "interviewees",
        "sponsors", "contributors",
    )
)  # fmt: skip
_CONTAINERS: Final = frozenset(f"{{{RDF}}}{kind}" for kind in ("Seq", "Bag", "Alt"))
_EDITORS: Final = (f"{{{BIB}}}editors", f"{{{ZOTERO}}}seriesEditors")
#: Item types that are no papers.
_CHILD_TYPES: Final = frozenset({"note", "attachment", "annotation"})
#: The most of one kind of property an item is read for (tags, links, notes).
_MAX_EACH: Final = 1000

_RDF_ROOT: Final = re.compile(r"<(?:[A-Za-z_][\w.-]*:)?RDF[\s>/]")
#: Zotero's rich text in titles (``<i>Drosophila</i>``, ``<span class="nocase">``).
_RICH_TEXT: Final = re.compile(r"</?(?:i|b|sub|sup|sc|span)\b[^<>]{0,200}>", re.IGNORECASE)


def sniff_zotero_rdf(text: str, path: Path) -> Fit:
    """An XML document with an ``rdf:RDF`` root and Zotero's namespace; else the name."""
    named = Fit.NAMED if path.suffix.lower() in SUFFIXES else Fit.NO
    if opening(text) != "<":
        return named
    head = text[:SNIFF_CHARS]
    if RDF in head and ZOTERO in head and _RDF_ROOT.search(head):
        return Fit.OPENS
    return named


def _root(text: str, path: Path) -> Element:
    """The document's ``rdf:RDF`` element, or ``SourceError`` (one line) saying why not."""
    from xml.etree import ElementTree

    if xml_text.declares_dtd(text):
        raise SourceError(
            f"{path}: the XML declares a DTD (<!DOCTYPE>), which Zotero never writes: refused, "
            "its entities unread"
        )
    text, held = xml_text.hold(text)
    try:
        root = ElementTree.fromstring(text)
    except ElementTree.ParseError as exc:
        said = " ".join(str(exc).split())[:200]
        raise SourceError(f"{path}: not well-formed XML, cut short or damaged ({said})") from None
    xml_text.restore_tree(root, held)  # every text as the export wrote it
    if root.tag != f"{{{RDF}}}RDF":
        name = _local(root.tag)
        raise OtherDocument(f"{path}: not a Zotero RDF export (its root is <{name}>)", name)
    return root


def _local(tag: str) -> str:
    return " ".join(tag.rpartition("}")[2].split())[:40]


def _literal(prop: Element | None) -> str:
    """A property's text ("" when it holds a node rather than text)."""
    if prop is None:
        return ""
    if len(prop) == 0:
        return (prop.text or "").strip()
    if prop.get(_PARSE_TYPE) == "Literal":  # XML as its value: its text
        return "".join(prop.itertext()).strip()
    return ""


def _props(node: Element, tag: str) -> Iterator[Element]:
    """The node's properties ``tag``, the first ``_MAX_EACH``."""
    for count, prop in enumerate(node.iterfind(tag)):
        if count >= _MAX_EACH:
            return
        yield prop


def _first(node: Element | None, tag: str) -> str:
    """The text of the node's first property ``tag`` that has one."""
    if node is None:
        return ""
    return next((t for p in _props(node, tag) if (t := _literal(p))), "")


class _Graph:
    """The nodes of the document by their names, and how references to them are followed."""

    def __init__(self, root: Element) -> None:
        self.named: dict[str, Element] = {}
        self.missing = 0
        #: Each note's text, by its node: read once however many items point to it.
        self.note_texts: dict[int, str] = {}
        stack = [(child, True) for child in root]  # (element, whether a node or a property)
        while stack:
            element, is_node = stack.pop()
            if is_node:
                name = element.get(_ABOUT) or _blank(element.get(_NODE_ID))
                if name:
                    self.named.setdefault(name.strip(), element)
            stack.extend((child, not is_node) for child in element)

    def target(self, prop: Element) -> Element | None:
        """The node a property points to: by ``rdf:resource``, by ``rdf:nodeID``, or written
        inside it; None (counted when it names one) for a node the file does not hold."""
        name = prop.get(_RESOURCE) or _blank(prop.get(_NODE_ID))
        if name is None:
            return prop[0] if len(prop) else None
        found = self.named.get(name.strip())
        if found is None:
            self.missing += 1
        return found

    def targets(self, node: Element, tag: str, *, every: bool = False) -> Iterator[Element]:
        """The nodes the node's properties ``tag`` point to: the first ``_MAX_EACH``, or
        ``every`` one."""
        for prop in node.iterfind(tag) if every else _props(node, tag):
            if (found := self.target(prop)) is not None and found is not node:
                yield found


def _blank(node_id: str | None) -> str | None:
    return f"_:{node_id}" if node_id is not None else None


def _people(graph: _Graph, node: Element, roles: Sequence[str]) -> list[str]:
    """The names of the people in the node's first role of ``roles`` that has any, in order."""
    for role in roles:
        names: list[str] = []
        for group in graph.targets(node, role):
            # an ``rdf:Seq`` (``Bag``, ``Alt``) of ``rdf:li``, or one person alone
            members = list(group) if group.tag in _CONTAINERS else []
            people = (
                (graph.target(m) for m in members if m.tag == _LI or _local(m.tag)[:1] == "_")
                if members
                else iter((group,))
            )
            for person in people:
                if person is None or len(names) >= MAX_AUTHORS:
                    continue
                last = _first(person, f"{{{FOAF}}}surname")
                first = _first(person, f"{{{FOAF}}}givenName") or _first(
                    person, f"{{{FOAF}}}givenname"
                )
                name = flat_name(last, first) if last else _first(person, f"{{{FOAF}}}name")
                if name := name or first:
                    names.append(name)
        if names:
            return names
    return []


def _container(graph: _Graph, item: Element) -> Element | None:
    """The journal, proceedings, book or website an item is in (through a section, ``bib:Part``,
    when it is in one), not its series."""
    for node in graph.targets(item, _IS_PART_OF):
        if node.tag == f"{{{BIB}}}Part":  # a section of the container: one step on
            node = next((n for n in graph.targets(node, _IS_PART_OF) if n is not item), node)
        if node.tag not in _SERIES_OR_PART and node is not item:
            return node
    return None


def _identifiers(graph: _Graph, node: Element | None) -> tuple[dict[str, str], str]:
    """A node's ``DOI``, ``ISBN`` and ``ISSN`` identifiers, and its link (a ``dcterms:URI``)."""
    found: dict[str, str] = {}
    url = ""
    for prop in _props(node, _IDENTIFIER) if node is not None else ():
        text = _literal(prop)
        kind, _, value = text.partition(" ")
        if kind.upper() in ("DOI", "ISBN", "ISSN") and value.strip():
            found.setdefault(kind.lower(), value.strip())
        elif not text and (uri := graph.target(prop)) is not None:
            url = url or _first(uri, _VALUE)
    return found, url


#: Where an item type's container title goes (``entry_type``'s names): the rest are a
#: container-title.
_CONTAINER_FIELD: Final = {
    "article": "journal", "misc": "journal", "inproceedings": "booktitle",
    "incollection": "booktitle", "inbook": "booktitle", "inreference": "booktitle",
}  # fmt: skip
_PUBLISHER_FIELD: Final = {
    "phdthesis": "school", "mastersthesis": "school", "thesis": "school",
    "techreport": "institution", "report": "institution",
}  # fmt: skip
_ARXIV_DOI: Final = re.compile(rf"10\.48550/arxiv\.({ARXIV_ID.pattern})", re.IGNORECASE)


def _title(text: str) -> str:
    """A title in Zotero's rich text as its text: its elements read (``plain_title``: ``H₂O``),
    then any tag of them left alone (an unclosed ``<span class="nocase">``) dropped."""
    return _RICH_TEXT.sub("", plain_title(text)) if "<" in text else text


def _fields(graph: _Graph, item: Element, kind: str, shared: Counter[int]) -> dict[str, Any]:
    """An item's fields under the names ``record_from_fields`` reads."""
    entry = entry_type(kind)
    fields: dict[str, Any] = {
        "entry_type": entry,
        "title": _title(_first(item, _TITLE)),  # Zotero's rich text: its text
        "abstract": _first(item, f"{{{DCTERMS}}}abstract"),
        "authors": _people(graph, item, _PRIMARY),
        "pages": _first(item, f"{{{BIB}}}pages"),
    }
    editors = _people(graph, item, _EDITORS[:1])
    if not fields["authors"]:  # a volume of its editors' (``records.record_from_fields``)
        fields["authors"], fields["edited_by"] = _people(graph, item, _EDITORS), True
    else:  # a chapter's book's, a paper's proceedings'
        fields["editors"] = editors
    if fields["authors"] or editors:  # its series' editors, when they are not its people
        fields["series_editors"] = _people(graph, item, _EDITORS[1:])
    container = _container(graph, item)
    ids, url = _identifiers(graph, item)
    if container is not None:
        fields[_CONTAINER_FIELD.get(entry, "container-title")] = _title(_first(container, _TITLE))
        fields["volume"] = _first(container, f"{{{PRISM}}}volume")
        fields["issue"] = _first(container, f"{{{PRISM}}}number")
        if shared[id(container)] <= 1:  # its DOI is this item's (Zotero writes it there)
            for key, value in _identifiers(graph, container)[0].items():
                ids.setdefault(key, value)
    fields["volume"] = fields.get("volume") or _first(item, f"{{{PRISM}}}volume")
    fields["issue"] = fields.get("issue") or _first(item, f"{{{PRISM}}}number")
    if not fields.get("booktitle"):
        conference = next(graph.targets(item, f"{{{BIB}}}presentedAt"), None)
        if entry == "inproceedings" and (name := _title(_first(conference, _TITLE))):
            fields["booktitle"] = name
    publisher = next(
        (_first(org, f"{{{FOAF}}}name") for org in graph.targets(item, f"{{{DC}}}publisher")), ""
    )
    if publisher and publisher.casefold() != "arxiv":  # a preprint's server: no publisher
        fields[_PUBLISHER_FIELD.get(entry, "publisher")] = publisher
    fields["isbn"], fields["issn"] = ids.get("isbn", ""), ids.get("issn", "")
    fields["url"] = url
    arxiv, extra_doi = extra_ids(_first(item, f"{{{DC}}}description"))
    doi = doi_of(ids.get("doi", "")) or ids.get("doi", "") or extra_doi
    fields["doi"] = doi
    from_doi = _ARXIV_DOI.fullmatch(doi_of(doi))
    arxiv = arxiv or (from_doi.group(1) if from_doi else "") or arxiv_id_of_url(url)
    if arxiv:
        fields["eprint"], fields["archiveprefix"] = arxiv, "arXiv"
    fields["keywords"] = _tags(graph, item)
    year, month, day = typed_date(_first(item, f"{{{DC}}}date"))
    if year is not None:
        fields["year"] = str(year)
        if month is not None:
            fields["month"] = month
            if day is not None:
                fields["date"] = f"{year:04d}-{month:02d}-{day:02d}"
    return {k: v for k, v in fields.items() if v not in ("", [], None)}


def _tags(graph: _Graph, item: Element) -> list[str]:
    """The item's tags: ``dc:subject`` as text, or an automatic tag's ``rdf:value``."""
    tags: list[str] = []
    for prop in _props(item, f"{{{DC}}}subject"):
        if text := _literal(prop):
            tags.append(text)
        elif (node := graph.target(prop)) is not None and node.tag == f"{{{ZOTERO}}}AutomaticTag":
            tags.append(_first(node, _VALUE))
    return list(dict.fromkeys(t for t in tags if t))


def _notes(graph: _Graph, item: Element, used: set[int]) -> list[str]:
    """The texts of the notes an item points to (``dcterms:isReferencedBy``): every one, each
    once (past the first ``_MAX_EACH`` they were said as "notes with no item"; joined, they
    are cut at the note's cap, said: ``zotero_api.attach``)."""
    texts = []
    seen: set[int] = set()
    for memo in graph.targets(item, f"{{{DCTERMS}}}isReferencedBy", every=True):
        if id(memo) in seen:
            continue
        seen.add(id(memo))
        if memo.tag == f"{{{BIB}}}Memo" or _first(memo, _ITEM_TYPE) == "note":
            used.add(id(memo))
            # (read once a file: a note of 5 MB that 300 items point to took 40 s read anew)
            text = graph.note_texts.get(id(memo))
            if text is None:
                text = graph.note_texts[id(memo)] = note_text(_first(memo, _VALUE))
            if text:
                texts.append(text)
    return texts


def _attached(
    graph: _Graph, item: Element, base: Path | None, used: set[int], missing: list[str]
) -> tuple[str, str]:
    """(the local file, the web address) of the first PDF the item's attachments hold; the
    PDFs they name that are not there (an export made on another machine) go to ``missing``
    when none of them is (a paper whose other PDF is here is not imported without one)."""
    local = web = ""
    absent: list[str] = []
    for node in graph.targets(item, f"{{{LINK}}}link"):
        if node.tag != f"{{{ZOTERO}}}Attachment" and _first(node, _ITEM_TYPE) != "attachment":
            continue
        used.add(id(node))
        kind = _first(node, f"{{{LINK}}}type").lower()
        files = [(p.get(_RESOURCE) or "").strip() for p in _props(node, _RESOURCE)]
        for given in files:
            if given and (kind == "application/pdf" or given.lower().endswith(".pdf")):
                if found := _file_here(given, base):
                    local = local or found
                else:
                    absent.append(given)
        if kind == "application/pdf" and _first(node, f"{{{ZOTERO}}}linkMode") == "1":
            web = web or web_url(_identifiers(graph, node)[1])
    if not local:
        missing.extend(absent)
    return local, web


def _file_here(given: str, base: Path | None) -> str:
    """The path an attachment's ``rdf:resource`` names, when that file is there: relative to
    the export (``files/12/x.pdf``, never out of its folder), absolute, or a ``file:``
    address; "" otherwise (a path is never made up)."""
    given = given.strip()
    if not given or len(given) > MAX_PATH_CHARS or "\x00" in given:
        return ""
    candidates = [file_url_path(given)] if given[:5].lower() == "file:" else [given]
    if "%" in given and given[:5].lower() != "file:":
        candidates.append(unquote(given))
    for candidate in candidates:
        try:
            path = Path(candidate).expanduser()
            if not path.is_absolute():
                if base is None or ".." in path.parts:
                    continue
                path = base / path
            if path.is_file():
                return str(path)
        except (OSError, RuntimeError, ValueError):
            continue
    return ""


def read_zotero_rdf(text: str, path: Path) -> ReadResult:
    """Every item of a Zotero RDF export (see the module)."""
    root = _root(text, path)
    graph = _Graph(root)
    result = ReadResult(source=str(path), list_name=path.stem)
    base = folder_of(result.source)
    items: list[tuple[Element, str]] = []
    loose = Counter[str]()
    for node in root:
        kind = _first(node, _ITEM_TYPE)
        if kind in _CHILD_TYPES:
            loose[kind] += 1
        elif kind:
            items.append((node, kind))
    shared = Counter(id(c) for item, _ in items if (c := _container(graph, item)) is not None)
    graph.missing = 0  # counted once, as the items are read
    used: set[int] = set()
    undated: list[str] = []  # dates that give no year: said, not lost in silence
    missing: list[str] = []  # attached PDFs not here: said too
    for number, (item, kind) in enumerate(items, start=1):
        try:
            fields = _fields(graph, item, kind, shared)
            local, web = _attached(graph, item, base, used, missing)
            note = "\n\n".join(_notes(graph, item, used))
        except (ValueError, TypeError, OverflowError, RecursionError, MemoryError) as exc:
            result.refuse(number, f"the item cannot be read ({type(exc).__name__})")
            continue
        if "year" not in fields and (date := _first(item, f"{{{DC}}}date")):
            undated.append(date)
        attach(result, number, fields, (local, web), note)
        result.add(number, fields)
    _say_left_out(result, path, root, used, graph.missing)
    if undated:
        result.warnings.append(
            f"{path}: {len(undated):,} item{'s' if len(undated) > 1 else ''} dated with no year "
            f"to be read ({' '.join(undated[0].split())[:40]!r}): imported without a year"
        )
    if missing:
        result.missing_files = True  # their coming changes what the file gives
        many = len(missing) > 1
        result.warnings.append(
            f"{path}: {len(missing):,} attached PDF{'s' if many else ''} not found on this "
            f"machine ({' '.join(missing[0].split())[:200]!r}): "
            + ("their papers imported without them" if many else "its paper imported without it")
        )
    if not items and ZOTERO not in text:  # RDF of another kind: an RSS 1.0 feed, FOAF
        said = f"{path}: RDF of another kind (Zotero's namespace is not in it), no Zotero export"
        raise OtherDocument(said, "rdf:RDF")
    if not items:
        held = sum(loose.values())
        said = f"{held:,} notes and attachments, no items" if held else "no Zotero items"
        raise SourceError(f"{path}: a Zotero RDF export of no papers ({said})")
    return result


def _say_left_out(
    result: ReadResult, path: Path, root: Element, used: set[int], missing: int
) -> None:
    """One warning for the notes and attachments no item points to, and the references to
    nodes the file does not hold."""
    notes = files = 0
    for node in root:
        kind = _first(node, _ITEM_TYPE)
        if id(node) in used:
            continue
        if kind == "note" or (node.tag == f"{{{BIB}}}Memo" and not kind):
            notes += 1
        elif kind == "attachment" or (node.tag == f"{{{ZOTERO}}}Attachment" and not kind):
            files += 1
    missing_nodes = (
        missing,
        "reference to a node not in the file",
        "references to nodes not in the file",
    )
    left_out(result, path, notes, files, missing_nodes, said="left out")


ZOTERO_RDF = Reader(
    name="Zotero RDF",
    label="Zotero RDF",
    suffixes=SUFFIXES,
    sniff=sniff_zotero_rdf,
    read=read_zotero_rdf,
)
