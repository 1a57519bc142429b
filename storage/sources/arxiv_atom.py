"""arXiv API answers: Atom feeds of papers (``<feed>`` of ``<entry>``), as saved to a file or
fetched (``storage.fetch.arxiv`` reads its pages with ``parse_feed``).

Each entry gives a paper: its title, the abstract (``summary``), the authors (and their
``arxiv:affiliation``), the abstract page as its link, the PDF link, the arXiv id (without its
version), the categories (the primary one first), the first version's date, the DOI, the
journal reference as its venue, and GitHub links found in the comment. An error feed (arXiv's
answer to a malformed query) is an ``ArxivError`` saying what arXiv said; a document whose
root is no Atom feed is XML of another kind (``OtherDocument``). Any other Atom feed is read
the same way, as far as it has these fields.

arXiv's RSS feeds in Atom (``rss.arxiv.org/atom/cs.LG``, the day's announcements) too: their
ids are ``oai:arXiv.org:2509.13338v1``, their authors one ``dc:creator`` (``Ann Lee, Bo
Park``), their abstracts start ``arXiv:2509.13338v1 Announce Type: new Abstract:``, their
DOI and journal reference are ``arxiv:DOI`` and ``arxiv:journal_reference``; a ``replace``
announcement is a paper of an earlier day's, as in the listing emails. Their RSS 2.0 twin
(``rss.arxiv.org/rss/cs.LG``) says the same under RSS's names (``item``, ``guid``,
``description``, ``category`` as text, ``pubDate``), and is read as the Atom feed it mirrors.

The XML is parsed by the standard library (expat: no external entity is fetched, entity
expansion is bounded); a document that declares a DTD or entities is refused.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from storage.errors import OtherDocument, SourceError
from storage.sources import xml_text
from storage.sources.links import extract_github_links
from storage.sources.records import SNIFF_CHARS, Fit, Reader, ReadResult, opening
from storage.sources.venues import find_year

if TYPE_CHECKING:  # the parser loads when a feed is read: the command line starts without it
    from xml.etree.ElementTree import Element

ATOM = "http://www.w3.org/2005/Atom"
ARXIV = "http://arxiv.org/schemas/atom"
OPENSEARCH = "http://a9.com/-/spec/opensearch/1.1/"
DUBLIN_CORE = "http://purl.org/dc/elements/1.1/"
_NS = {"a": ATOM, "arxiv": ARXIV, "os": OPENSEARCH, "dc": DUBLIN_CORE}
SUFFIXES = (".atom",)
_ID = re.compile(r"(?:arxiv\.org/abs/|^oai:arxiv\.org:)(.+?)(v\d+)?$", re.IGNORECASE)
#: What an RSS feed's abstract starts with: the id, the kind of announcement, a label.
_ANNOUNCED = re.compile(r"^arXiv:\S+\s+Announce Type:\s*\S+\s*(?:Abstract:\s*)?", re.I)
_CREATORS = re.compile(r"\s*,\s*(?:and\s+)?|\s+and\s+")
#: Where an entry says where the paper was published: the API's elements, then the RSS
#: feeds' (arXiv/arxiv-docs ``source/help/atom_specifications.md``).
_PUBLISHED = (
    ("doi", ("arxiv:doi", "arxiv:DOI")),
    ("journal", ("arxiv:journal_ref", "arxiv:journal_reference")),
)


class ArxivError(SourceError):
    """arXiv's error feed (its answer to a malformed query): what arXiv said, a feed read."""


@dataclass(slots=True)
class Feed:
    """One feed: its papers, and how many the query has in all, from where this page starts."""

    result: ReadResult
    total: int | None
    start: int
    per_page: int
    #: Entries in the page (records and errors).
    entries: int
    #: The arXiv ids of its entries, without their versions (``2501.01234``), in order.
    ids: tuple[str, ...] = ()


def sniff_atom(text: str, path: Path) -> Fit:
    """An XML document whose root is an Atom ``feed``."""
    if opening(text) != "<":
        return Fit.NO
    head = text[:SNIFF_CHARS]
    if ("<feed" in head and ATOM in head) or ("<rss" in head and ARXIV in head):
        return Fit.OPENS
    return Fit.NAMED if path.suffix.lower() in SUFFIXES else Fit.NO


def read_atom(text: str, path: Path) -> ReadResult:
    """A saved feed's papers (``papers import feed.atom``)."""
    feed = parse_feed(text, str(path), path.stem)
    return feed.result


def parse_feed(text: str, source: str, list_name: str) -> Feed:
    """The papers of an Atom feed; ``SourceError`` for text that is no feed, or arXiv's error."""
    from xml.etree import ElementTree

    if xml_text.declares_dtd(text):
        raise SourceError(f"{source}: the XML declares a DTD or entities; refused")
    # a control character in a field (raw, or as &#27;) made the whole feed "not well-formed"
    text, held = xml_text.hold(text)
    try:
        root = ElementTree.fromstring(text)
    except ElementTree.ParseError as exc:
        raise SourceError(f"{source}: not a well-formed Atom feed ({exc})") from None
    xml_text.restore_tree(root, held)
    if root.tag == "rss" and _is_arxiv_rss(root):
        entries = [_atom_entry(item) for item in root.iterfind("channel/item")]
    elif root.tag == f"{{{ATOM}}}feed":
        entries = root.findall("a:entry", _NS)
    else:
        said = f"{source}: not an Atom feed (its root is <{_local(root.tag)}>)"
        raise OtherDocument(said, _local(root.tag))
    result = ReadResult(source=source, list_name=list_name)
    ids: list[str] = []
    for number, entry in enumerate(entries, start=1):
        announced = _text(entry, "arxiv:announce_type")
        if announced.startswith("replace"):  # RSS: a new version of an earlier day's paper
            said = f"a replacement ({_text(entry, 'a:id').removeprefix('oai:arXiv.org:')})"
            result.refuse(number, f"{said}: the paper was in an earlier listing")
            continue
        fields = _fields(entry)
        if _is_error(fields):
            said = fields.get("summary") or fields.get("title") or "an error"
            raise ArxivError(f"{source}: arXiv answered with an error: {said[:200]}")
        if fields.get("eprint"):
            ids.append(fields["eprint"])
        result.add(number, fields)
    return Feed(
        result=result,
        total=_number(root, "os:totalResults"),
        start=_number(root, "os:startIndex") or 0,
        per_page=_number(root, "os:itemsPerPage") or 0,
        entries=len(entries),
        ids=tuple(ids),
    )


def _is_arxiv_rss(root: Element) -> bool:
    """Whether an RSS document is arXiv's feed: its channel's link (a weekend's feed has no
    items), or its items' announcements."""
    return "arxiv.org" in (root.findtext("channel/link") or "") or any(
        item.find("arxiv:announce_type", _NS) is not None for item in root.iter("item")
    )


def _atom_entry(item: Element) -> Element:
    """An RSS ``item`` of arXiv's as the Atom ``entry`` of its Atom feed: the same fields under
    Atom's names; its own ``arxiv:`` and ``dc:`` elements as they are."""
    from email.utils import parsedate_to_datetime
    from xml.etree.ElementTree import Element, SubElement

    entry = Element(f"{{{ATOM}}}entry")
    for tag, name in (("guid", "id"), ("title", "title"), ("description", "summary")):
        SubElement(entry, f"{{{ATOM}}}{name}").text = item.findtext(tag, "")
    SubElement(entry, f"{{{ATOM}}}link", href=(item.findtext("link") or "").strip())
    for category in item.iterfind("category"):
        SubElement(entry, f"{{{ATOM}}}category", term=(category.text or "").strip())
    try:  # RFC 822: ``Mon, 15 Jan 2024 00:00:00 -0500``
        published = parsedate_to_datetime(item.findtext("pubDate") or "").date().isoformat()
    except (TypeError, ValueError, IndexError, OverflowError):  # (a zone of 9,999… hours)
        published = ""
    SubElement(entry, f"{{{ATOM}}}published").text = published
    entry.extend(child for child in item if child.tag.startswith("{"))
    return entry


def _is_error(fields: dict[str, Any]) -> bool:
    """Whether an entry is arXiv's error (``<title>Error</title>``, its id under
    ``/api/errors``) rather than a paper."""
    if "/api/errors" in fields.get("id", ""):
        return True
    return fields.get("title") == "Error" and _ID.search(fields.get("id", "")) is None


def _local(tag: str) -> str:
    return tag.rpartition("}")[2][:40]


def _number(root: Element, path: str) -> int | None:
    text = (root.findtext(path, None, _NS) or "").strip()
    return int(text) if text.isdigit() and len(text) < 10 else None


def _text(element: Element | None, path: str) -> str:
    if element is None:
        return ""
    return " ".join((element.findtext(path, "", _NS) or "").split())


def _fields(entry: Element) -> dict[str, Any]:
    """An entry's fields, under the names the readers' records understand."""
    fields: dict[str, Any] = {"id": _text(entry, "a:id")}
    fields["title"] = _text(entry, "a:title")
    fields["summary"] = _ANNOUNCED.sub("", _text(entry, "a:summary"))
    authors, affiliations = [], []
    for author in entry.findall("a:author", _NS):
        name = _name(_text(author, "a:name"))
        if name:
            authors.append(name)
        affiliations += [_text(a, ".") for a in author.findall("arxiv:affiliation", _NS)]
    if not authors:  # RSS: ``<dc:creator>Ann Lee, Bo Park</dc:creator>``
        creators = _CREATORS.split(_text(entry, "dc:creator"))
        authors = [name for c in creators if (name := _name(c))]
    fields["authors"] = authors
    if any(affiliations):
        fields["affiliations"] = list(dict.fromkeys(a for a in affiliations if a))
    for link in entry.findall("a:link", _NS):
        href = (link.get("href") or "").strip()
        if link.get("title") == "pdf" or link.get("type") == "application/pdf":
            fields.setdefault("pdf", _https(href))
        elif link.get("rel", "alternate") == "alternate":
            fields.setdefault("url", _https(href))
    match = _ID.search(fields["id"])
    if match:  # the abstract page without a version: the latest
        fields["eprint"] = match[1]
        fields["archiveprefix"] = "arXiv"
        fields["url"] = f"https://arxiv.org/abs/{match[1]}"
    primary = entry.find("arxiv:primary_category", _NS)
    if primary is not None and primary.get("term", "").strip():
        fields["primaryclass"] = primary.get("term", "").strip()
    categories = [primary.get("term", "")] if primary is not None else []
    categories += [c.get("term", "") for c in entry.findall("a:category", _NS)]
    fields["keywords"] = list(dict.fromkeys(c.strip() for c in categories if c and c.strip()))
    # the API's names, then its RSS feeds' (``arxiv:DOI``, ``arxiv:journal_reference``)
    for key, paths in _PUBLISHED:
        if value := next(filter(None, (_text(entry, path) for path in paths)), ""):
            # a journal reference is typed as TeX, as names are (``Math\'ematiques``)
            fields[key] = _name(value) if key == "journal" else value
    published = _text(entry, "a:published")
    if re.match(r"\d{4}-\d\d-\d\d", published):
        fields["date"] = published[:10]
        if find_year(fields.get("journal", "")) is None:  # else the journal's year is the year
            fields["year"], fields["month"] = published[:4], published[5:7]
    comment = _text(entry, "arxiv:comment")
    if comment:
        fields["code"] = list(extract_github_links(comment))
    if _WITHDRAWN.search(comment) or _WITHDRAWN.match(fields.get("summary", "")[:300]):
        fields["status"] = "Withdrawn"  # its last version is only this line: not to be read
    return fields


#: What arXiv's comment (and the abstract of the version that replaced the paper) says of a
#: paper its authors withdrew: "This paper has been withdrawn by the author due to …".
_WITHDRAWN: Final = re.compile(
    r"\s*(?:this (?:paper|article|manuscript|submission|preprint|work) (?:has been|was|is) "
    r"withdrawn|withdrawn by (?:the )?authors?\b|paper withdrawn\b)",
    re.IGNORECASE,
)


def _name(text: str) -> str:
    """An author's name as the library keeps it, in Unicode: arXiv gives names as their
    authors typed them, TeX and all (``J{\\"o}rg M{\\"u}ller``)."""
    from storage.text.latex import to_unicode

    return to_unicode(text, markdown=False)


def _https(href: str) -> str:
    """arXiv writes its own links as http; they are served over https."""
    return re.sub(r"^http://(export\.)?arxiv\.org/", "https://arxiv.org/", href)


ARXIV_ATOM = Reader(
    name="arXiv API Atom feed",
    label="arXiv Atom",
    suffixes=SUFFIXES,
    sniff=sniff_atom,
    read=read_atom,
)
