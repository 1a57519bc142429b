"""DBLP's XML (``.xml``): a person's publication list as dblp.org gives it
(``https://dblp.org/pid/….xml``), the answer of its search API
(``https://dblp.org/search/publ/api?q=…&format=xml``) and records of its dump (``dblp.xml``),
each told by its root element.

- A person's list: ``<dblpperson name="Wei Wang 0001" pid=…>``, the person's own record
  (``<person>``), ``<homonyms>``, then each publication in an ``<r>``: ``<article>``,
  ``<inproceedings>``, ``<proceedings>``, ``<incollection>``, ``<book>``, ``<phdthesis>``,
  ``<mastersthesis>``, ``<data>``; a ``<www>`` (a homepage) or ``<person>`` there is no paper;
  ``<coauthors>`` last. The list is named after the person (without DBLP's number).
- The dump: the same records as the children of ``<dblp>``, after ``<!DOCTYPE dblp SYSTEM
  "dblp.dtd">``, whose entities (ISO Latin-1's ``&ouml;``, ``&reg;``, ``&times;``) are read
  as HTML's: the DTD is never read. An excerpt without that line reads them alike.
- The search API: ``<result>`` with its ``<query>``, ``<status>`` … ``<hits>``, each
  ``<hit>``'s ``<info>`` (``<authors><author>``, ``<title>``, ``<venue>``, ``<volume>``,
  ``<year>``, ``<type>``, ``<key>``, ``<doi>``, ``<ee>``, ``<url>``) read as its JSON answer's
  (``storage.sources.json_lists.dblp_record``). The API before 2017 (``/search/api/?q=…``)
  put the link in the ``<title>``'s ``ee``, the venue's parts in the ``<venue>``'s
  attributes (before September 2012 in its text: ``APBC 2007:153-164``), the record's
  element name in ``<type>`` and its page (``/rec/bibtex/KEY``) in the hit's ``<url>``;
  before 2012 the whole record was markup (``dblp:``-prefixed) in the CDATA of the hit's
  ``<title>``, read as the hit's ``<info>``.

A record's fields: ``author`` (or ``editor``, for a volume that names no author; beside
authors, its ``editors``), without the
number DBLP tells people of one name apart by (``Wei Wang 0001``); ``title``, in DBLP's markup
(``<i>``, ``<sub>``, ``<sup>``, ``<tt>``; scripts as ``plain_title`` reads them: ``CO₂``),
without the full stop DBLP ends it with; ``year``, ``month``; ``journal`` or ``booktitle``
(the venue, a short name as DBLP writes it, its full stop kept: ``IEEE Trans. Vis. Comput.
Graph.``); ``volume``, ``number``, ``pages``, ``publisher``, ``school``, ``series``, ``isbn``;
each ``ee``
(electronic edition): the first web page the paper's link, one ending in ``.pdf`` its PDF, a
``doi.org`` one its DOI, an arXiv one (``arxiv.org/abs/…``, DOI ``10.48550/arXiv.…``)
its arXiv id (a CoRR paper's volume, ``abs/2106.09685``, gives it too); the record's page at
DBLP (``https://dblp.org/rec/KEY``) its link when no ``ee`` is one. ``publtype="informal"``
(a preprint, a report) is cited as ``misc``; ``publtype="withdrawn"`` says so.

Parsed by the expat parser every element-by-element XML reader shares
(``storage.sources.xml_text.parse_events``): nothing outside the file is fetched, a document
that declares entities is refused in one line, a file cut short or not well-formed is
refused naming the line and column.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Final
from urllib.parse import quote

from storage.errors import OtherDocument, SourceError
from storage.sources import xml_text
from storage.sources.attachments import looks_like_pdf
from storage.sources.citation import arxiv_id_of_url, doi_of
from storage.sources.json_lists import DBLP_HOMONYM, dblp_record, without_full_stop
from storage.sources.links import web_url
from storage.sources.records import (
    ARXIV_ID,
    MAX_HEADER_CHARS,
    SNIFF_CHARS,
    Fit,
    Reader,
    ReadResult,
)
from storage.sources.xml_text import element_text, first_text
from storage.text.rich_text import script_text
from storage.text.words import count

#: The root elements read, by the shape of document each opens.
_SHAPES: Final = {"dblpperson": "person", "dblp": "dump", "result": "search"}
#: The records that are publications, by their BibTeX entry type.
_KINDS: Final = {
    "article": "article", "inproceedings": "inproceedings", "proceedings": "proceedings",
    "book": "book", "incollection": "incollection", "phdthesis": "phdthesis",
    "mastersthesis": "mastersthesis", "data": "dataset",
}  # fmt: skip
#: The search API's record, from the root: a hit (its fields in its ``<info>``; before 2012,
#: in the CDATA of its ``<title>``).
_HIT: Final = ["result", "hits", "hit"]
#: Where a field's text is, from its record: the fields read, one value per element.
_FIELDS: Final = frozenset(
    {
        "author", "editor", "title", "booktitle", "journal", "year", "month", "volume",
        "number", "pages", "ee", "url", "publisher", "school", "isbn", "doi", "venue", "type",
        "series",
        "key", "authors/author", "hit/title", "hit/url",
    }
)  # fmt: skip
#: The most text one element of a record may hold.
MAX_VALUE_CHARS: Final = 200_000
#: Values a record keeps of one repeated element (authors, links).
MAX_VALUES: Final = 10_000
#: The most pieces and characters of text a ``<sub>`` or ``<sup>`` is read in script for.
_SCRIPT_PIECES: Final = 16
_SCRIPT_CHARS: Final = 200
_VISIBLE: Final = re.compile(r"[^\s\ufeff]")
_ROOT_NAME: Final = re.compile(r"<([A-Za-z_][\w.-]*)")
#: A record's key, as DBLP makes them (``conf/iclr/HuSWALWWC22``): its page's address.
_KEY: Final = re.compile(r"[A-Za-z0-9][\w'./+-]{0,300}")
_ARXIV_DOI: Final = re.compile(r"10\.48550/arxiv\.(.+)$", re.IGNORECASE)


def sniff_dblp_xml(text: str, path: Path) -> Fit:
    """An XML document whose root is ``<dblpperson>`` or ``<dblp>``, or the search API's
    ``<result>`` with its ``<status>`` and ``<hits>``."""
    first = _VISIBLE.search(text)
    head = text[first.start() : first.start() + SNIFF_CHARS] if first else ""
    if not head.startswith("<"):
        return Fit.NO
    start = xml_text.root_start(head)
    root = _ROOT_NAME.match(head, start) if start >= 0 else None
    shape = _SHAPES.get(root.group(1)) if root is not None else None
    if shape is None or (shape == "search" and not ("<status" in head and "<hits" in head)):
        return Fit.NO
    return Fit.OPENS


class _OtherRoot(Exception):
    """The document's root says it is XML of another kind."""

    def __init__(self, root: str) -> None:
        super().__init__(root)
        self.root = root[:40]


#: What is done with each publication as it ends: its kind (``hit`` for the search API's),
#: its attributes, its fields' texts, and what made it unreadable ("" for nothing).
_OnRecord = Callable[[str, dict[str, str], dict[str, list[str]], str], None]


class _Records:
    """The publications of a document, element by element as expat reads it (see the module),
    handed to ``on_record`` as each ends; the records that are none (homepages) counted."""

    def __init__(self, on_record: _OnRecord) -> None:
        self.path: list[str] = []  # the elements open, from the root
        self.held: xml_text.Held | None = None
        self.count = 0  # publications read
        self.passed = 0  # records that are no publications
        self.shape = ""
        self.person = ""  # the name a person's list is of
        self._on_record = on_record
        self._kind = ""  # the publication being read ("" for none)
        self._depth = 0  # how deep it is
        self._attributes: dict[str, str] = {}
        self._values: dict[str, list[str]] = {}
        self._problem = ""
        self._field = ""  # the field whose text is being read ("" for none)
        self._pieces: list[str] = []
        self._inline: list[tuple[str, int]] = []  # elements open in it, where their text starts
        self._size = 0

    @property
    def in_record(self) -> bool:
        """Whether a publication is being read."""
        return bool(self._kind)

    def _restored(self, text: str) -> str:
        return self.held.restore(text) if self.held is not None else text

    def _record_at(self, depth: int) -> bool:
        """Whether the element just opened, ``depth`` deep, is a record of the document."""
        if self.shape == "person":
            return depth == 3 and self.path[1] == "r"
        if self.shape == "dump":
            return depth == 2
        return self.path == _HIT

    def _field_at(self, depth: int) -> str:
        """The field the element just opened, ``depth`` deep in a record, is ("" for none):
        its path from the record, a hit's ``<info>`` left out, what a hit holds outside it
        ``hit/…``. A field is at most two elements deep: deeper ones are no field, and are
        not joined into a name (elements nested a million deep would take quadratic time)."""
        inside = depth - self._depth
        if self._kind != "hit":
            return "/".join(self.path[self._depth :]) if inside <= 2 else ""
        if self.path[self._depth] == "info":
            return "/".join(self.path[self._depth + 1 :]) if inside <= 3 else ""
        return "hit/" + "/".join(self.path[self._depth :]) if inside <= 2 else ""

    def start(self, name: str, attributes: dict[str, str]) -> None:
        self.path.append(name)
        depth = len(self.path)
        if self._field:
            self._inline.append((name, len(self._pieces)))
        elif self._kind:
            field = self._field_at(depth)
            if field in _FIELDS:
                self._field, self._pieces, self._inline, self._size = field, [], [], 0
                if self._kind == "hit":  # the search API's before 2017: ``<title ee=…>``
                    for key, value in attributes.items():
                        self._attributes.setdefault(f"{field}@{key}", self._restored(value))
        elif depth == 1:
            self.shape = _SHAPES.get(name, "")
            if not self.shape:
                raise _OtherRoot(name)
            self.person = self._restored(attributes.get("name", ""))
        elif self._record_at(depth):
            kind = "hit" if self.shape == "search" else name
            if kind != "hit" and kind not in _KINDS:
                self.passed += 1  # a homepage (``<www>``), a person
                return
            self._kind, self._depth = kind, depth
            self._values, self._problem = {}, ""
            self._attributes = {k: self._restored(v) for k, v in attributes.items()}

    def text(self, data: str) -> None:
        if not self._field:
            return
        self._size += len(data)
        if self._size <= MAX_VALUE_CHARS:
            self._pieces.append(data)

    def end(self, name: str) -> None:
        self.path.pop()
        if self._inline:
            inline, at = self._inline.pop()
            # a script is a few characters (``2``, ``-1``); a long text nested under many
            # ``<sub>`` is left as it is rather than joined again at each
            if inline in ("sub", "sup") and len(self._pieces) - at <= _SCRIPT_PIECES:
                text = "".join(self._pieces[at:])
                if len(text) <= _SCRIPT_CHARS:
                    self._pieces[at:] = [script_text(inline, text)]
        elif self._field:
            self._end_field()
        elif self._kind and len(self.path) < self._depth:
            self.count += 1
            kind, self._kind = self._kind, ""
            self._on_record(kind, self._attributes, self._values, self._problem)

    def _end_field(self) -> None:
        field, self._field = self._field, ""
        if self._size > MAX_VALUE_CHARS:
            name = field.rpartition("/")[2]
            self._problem = self._problem or f"<{name}> holds {self._size:,} characters, too long"
        values = self._values.setdefault(field, [])
        if len(values) < MAX_VALUES:
            values.append(self._restored("".join(self._pieces)))

    def doctype(self, name: str, *_: object) -> None:
        """``<!DOCTYPE dblp SYSTEM "dblp.dtd">``: its DTD is never read."""

    def refuse_entity(self, name: str, *_: object) -> None:
        raise xml_text.Refused(
            f"it declares an entity ({name[:40]!r}); DBLP declares its entities in dblp.dtd, "
            "never in the file"
        )


def _all(values: dict[str, list[str]], field: str) -> list[str]:
    return [text for value in values.get(field, ()) if (text := element_text(value))]


#: A record's fields taken as DBLP writes them (journal and booktitle its short names, whose
#: full stop is an abbreviation's: ``IEEE Trans. Vis. Comput. Graph.``, kept).
_AS_WRITTEN: Final = (
    "journal", "booktitle", "year", "month", "volume", "pages", "publisher", "school", "isbn",
    "series",
)  # fmt: skip


def _person(name: str) -> str:
    """A name without the number DBLP tells people of one name apart by (``Wei Wang 0001``)."""
    return DBLP_HOMONYM.sub("", name)


def _record_fields(
    kind: str, attributes: dict[str, str], values: dict[str, list[str]]
) -> dict[str, Any]:
    """A publication's fields under the names the readers' records use (see the module)."""
    fields: dict[str, Any] = {"title": without_full_stop(first_text(values, "title"))}
    authors, editors = _all(values, "author"), _all(values, "editor")
    fields["edited_by"] = not authors  # (its people, when any, are its editors)
    fields["authors"] = [_person(name) for name in authors or editors]
    fields["editors"] = [_person(name) for name in editors] if authors else []
    publtype = attributes.get("publtype", "").split()
    fields["entry_type"] = "misc" if "informal" in publtype else _KINDS[kind]
    if "withdrawn" in publtype:
        fields["venue_status"] = "Withdrawn"
    for name in _AS_WRITTEN:
        fields[name] = first_text(values, name)
    fields["issue"] = first_text(values, "number")
    pages = [_dblp_page(attributes.get("key", ""))]
    # its table of contents at DBLP (``db/conf/icip/icip2009.html#XuN09``), or a web page
    pages += [
        web_url(f"https://dblp.org/{u}" if u.startswith("db/") else u) for u in _all(values, "url")
    ]
    _add_links(fields, _all(values, "ee"), pages)
    return fields


def _hit_fields(values: dict[str, list[str]], attributes: dict[str, str]) -> dict[str, Any]:
    """A hit of the search API as its JSON answer's (``dblp_record``), with what its links
    say; one of the API before 2017 (``_OLD_TYPES``) read as one of today's."""
    info: dict[str, Any] = {"authors": {"author": _all(values, "authors/author")}}
    for name in ("title", "venue", "volume", "pages", "year", "type", "key", "doi", "publisher"):
        info[name] = first_text(values, name)
    info["issue"] = first_text(values, "number")
    # the page the API before 2017 gave each hit: ``http://www.dblp.org/rec/bibtex/KEY``
    page = _OLD_PAGE.match(first_text(values, "hit/url"))
    info["key"] = info["key"] or (page.group(1) if page else "")
    if info["type"] in _OLD_TYPES:
        info.update(_old_venue(info, attributes))
    fields = dblp_record(info)
    pages = [web_url(u) for u in _all(values, "url")]
    ees = [*_all(values, "ee"), element_text(attributes.get("title@ee", ""))]
    _add_links(fields, [e for e in ees if e], [*pages, _dblp_page(info["key"])])
    return fields


def json_hit_fields(hit: Mapping[str, Any]) -> dict[str, Any]:
    """A hit of the search API's JSON answer (``{"@score", "@id", "info", "url"}``) read as
    its XML answer's hit is (``_hit_fields``): an element given as ``{"text": …, "@ee": …}``
    its text and attributes (the API before 2017: ``"title": {"@ee": …, "text": …}``,
    ``"venue": {"@journal": …, "@volume": …, "text": …}``), an author a name or ``{"@pid": …,
    "text": …}``, one of them an object where several are an array."""
    values: dict[str, list[str]] = {}
    attributes: dict[str, str] = {}

    def add(field: str, given: Any) -> None:
        for value in (given if isinstance(given, list) else [given])[:MAX_VALUES]:
            if isinstance(value, Mapping):
                for key, attribute in value.items():
                    if str(key).startswith("@") and isinstance(attribute, str | int):
                        attributes.setdefault(f"{field}@{str(key)[1:]}", str(attribute))
                value = value.get("text")
            if isinstance(value, str | int) and not isinstance(value, bool):
                values.setdefault(field, []).append(str(value)[:MAX_VALUE_CHARS])

    info = hit.get("info")
    for key, value in (info if isinstance(info, Mapping) else {}).items():
        if key == "authors":
            add("authors/author", value.get("author") if isinstance(value, Mapping) else None)
        elif key in _FIELDS:
            add(str(key), value)
    add("hit/url", hit.get("url"))
    return _hit_fields(values, attributes)


#: The API before 2017's ``<type>`` (the record's element) → today's.
_OLD_TYPES: Final = {
    "inproceedings": "Conference and Workshop Papers", "proceedings": "Editorship",
    "incollection": "Parts in Books or Collections", "article": "Journal Articles",
    "book": "Books and Theses", "phdthesis": "Books and Theses",
}  # fmt: skip
_OLD_PAGE: Final = re.compile(
    r"https?://(?:www\.)?dblp\.(?:org|uni-trier\.de)/rec/(?:bibtex/)?(\S+)$"
)
#: A venue as the API before September 2012 wrote it, by the record's kind: a conference's
#: ``IEEE Symposium on Security and Privacy 2010:433-446``, a journal's ``Discrete
#: Mathematics (DM) 296(2-3):263-270 (2005)``, a book's publisher ``Universität Trier 2003``.
_OLD_VENUE: Final = {
    "article": re.compile(
        r"(?P<venue>.+?)(?: (?P<volume>[^\s(:]+))?(?:\((?P<number>[^)]*)\))?"
        r"(?::(?P<pages>\S+))? \((?P<year>\d{4})\)"
    ),
    "book": re.compile(r"(?P<publisher>.+?) (?P<year>\d{4})"),
    "": re.compile(r"(?P<venue>.+?) (?P<year>\d{4})(?::(?P<pages>\S+))?"),
}
#: The venue's attributes after September 2012, by the field each gives.
_OLD_ATTRIBUTES: Final = {
    "venue": ("conference", "journal"), "volume": ("volume",), "issue": ("number",),
    "pages": ("pages",), "publisher": ("publisher",), "school": ("school",),
}  # fmt: skip


def _old_venue(info: dict[str, Any], attributes: dict[str, str]) -> dict[str, str]:
    """A hit's venue, volume, issue, pages and publisher from its ``<venue>``'s attributes or,
    before they were written, its text; a journal's name without the ``(DM)`` DBLP added
    (its key's)."""
    kind = info["type"] if info["type"] in ("article", "book", "phdthesis") else ""
    found: dict[str, str] = {}
    for field, names in _OLD_ATTRIBUTES.items():
        given = (element_text(attributes.get(f"venue@{n}", "")) for n in names)
        found[field] = next((v for v in given if v), "")
    if not any(found.values()):
        written = _OLD_VENUE["book" if kind == "phdthesis" else kind].fullmatch(info["venue"])
        if written is not None:
            named = {k: v for k, v in written.groupdict().items() if v and k != "year"}
            found = {"issue" if k == "number" else k: v for k, v in named.items()}
            found["venue"] = found.get("venue", "")
    if kind in ("book", "phdthesis"):
        found["venue"] = ""
    parts = info["key"].split("/")
    added = f" ({parts[1].upper()})" if len(parts) > 2 else ""
    if added and found.get("venue", "").endswith(added):
        found["venue"] = found["venue"][: -len(added)]
    found["type"] = _OLD_TYPES[info["type"]]
    return {k: v for k, v in found.items() if v or k == "venue"}


def _dblp_page(key: str) -> str:
    """The record's page at DBLP (``https://dblp.org/rec/conf/iclr/HuSWALWWC22``); "" for a
    key DBLP would not make."""
    key = key.strip()
    return f"https://dblp.org/rec/{quote(key, safe='/')}" if _KEY.fullmatch(key) else ""


def _add_links(fields: dict[str, Any], ees: list[str], pages: list[str]) -> None:
    """The paper's page, PDF, DOI and arXiv id, from its electronic editions (``ee``) before
    its ``pages`` at DBLP."""
    links = [link for ee in ees if (link := web_url(ee))]
    fields["url"] = [u for u in links if not looks_like_pdf(u)] + [u for u in pages if u]
    fields["pdf"] = next((u for u in links if looks_like_pdf(u)), "")
    dois = (doi_of(ee) for ee in ees)
    fields["doi"] = fields.get("doi") or next((d for d in dois if d), "")
    if fields.get("eprint"):
        return
    arxiv = next(filter(None, map(arxiv_id_of_url, links)), "")
    doi = _ARXIV_DOI.match(fields["doi"])
    arxiv = arxiv or (doi.group(1) if doi and ARXIV_ID.fullmatch(doi.group(1)) else "")
    if arxiv:
        fields["eprint"], fields["archiveprefix"] = arxiv, "arXiv"
        if str(fields.get("journal")).casefold() in ("corr", "arxiv"):
            fields["journal"] = fields["volume"] = None  # DBLP's name for arXiv: no venue


def _parse(text: str, source: str, on_record: _OnRecord) -> _Records:
    """Read the document's publications (see ``_Records``); ``SourceError`` for a document
    that is not well-formed, cut short, or declares entities, ``OtherDocument`` for XML of
    another kind."""
    records = _Records(on_record)
    try:
        xml_text.parse_events(text, records, named_entities=True)
    except xml_text.Refused as exc:
        raise SourceError(f"{source}: not DBLP's XML: {exc} (line {exc.line})") from None
    except _OtherRoot as exc:
        said = f"{source}: not DBLP's XML: its root is <{exc.root}>"
        raise OtherDocument(said, exc.root) from None
    except xml_text.NotWellFormed as exc:
        if exc.ended and records.path:
            inside = f"record {records.count + 1}, " if records.in_record else ""
            raise SourceError(
                f"{source}: the XML is cut short: it ends at {exc.where}, inside {inside}"
                f"<{records.path[-1][:40]}>; nothing imported (download it again)"
            ) from None
        said = f"not well-formed XML at {exc.where} ({exc.reason})"
        raise SourceError(f"{source}: {said}") from None
    return records


#: What the markup of a hit's record in CDATA may hold that XML does not: an ``&`` that
#: begins no reference.
_BARE_AMPERSAND: Final = re.compile(r"&(?!#[0-9]+;|#x[0-9A-Fa-f]+;|[A-Za-z][\w.-]*;)")


def _cdata_hit(markup: str) -> tuple[dict[str, str], dict[str, list[str]], str] | None:
    """The attributes, fields and problem ("" for none) of a hit of the search API before
    2012, whose record is markup in the CDATA of its ``<title>`` (``<dblp:authors>…<dblp:title
    ee=…>…``), read as a hit of the API after it; None when that markup is not XML."""
    inner = _BARE_AMPERSAND.sub("&amp;", re.sub(r"<(/?)dblp:", r"<\1", markup))
    document = f"<result><hits><hit><info>{inner}</info></hit></hits></result>"
    found: list[tuple[dict[str, str], dict[str, list[str]], str]] = []

    def keep(
        _: str, attributes: dict[str, str], values: dict[str, list[str]], problem: str
    ) -> None:
        found.append((attributes, values, problem))

    try:
        _parse(document, "", keep)
    except SourceError:
        return None
    return found[0] if found else None


#: What a document of no publications is, by its shape.
_NONE: Final = {
    "person": "a DBLP publication list of no publications",
    "dump": "a DBLP XML document of no publications",
    "search": "a DBLP search answer of no hits",
}


def read_dblp_xml(text: str, path: Path) -> ReadResult:
    """Every publication of DBLP's XML (see the module)."""
    source = str(path)
    result = ReadResult(source=source, list_name=path.stem)

    def add(
        kind: str, attributes: dict[str, str], values: dict[str, list[str]], problem: str
    ) -> None:
        number = len(result.records) + len(result.errors) + result.unlisted + 1
        if problem:
            result.refuse(number, problem)
        elif kind == "hit" and not first_text(values, "title") and values.get("hit/title"):
            found = _cdata_hit(values["hit/title"][0])  # the search API's before 2012
            if found is None or found[2]:
                result.refuse(number, found[2] if found else "its CDATA <title> is not XML")
            else:
                found[1].setdefault("hit/url", values.get("hit/url", []))
                result.add(number, _hit_fields(found[1], found[0]))
        elif kind == "hit":
            result.add(number, _hit_fields(values, attributes))
        else:
            result.add(number, _record_fields(kind, attributes, values))

    records = _parse(text.lstrip("\ufeff"), source, add)
    if records.count == 0:
        passed = count(records.passed, "record")
        passed = f" ({passed} of homepages or people passed over)" if records.passed else ""
        raise SourceError(f"{source}: {_NONE[records.shape]}{passed}; nothing to import")
    person = element_text(_person(records.person))
    if records.shape == "person" and 0 < len(person) <= MAX_HEADER_CHARS:
        result.list_name = person
    return result


DBLP_XML = Reader(
    name="DBLP XML",
    label="DBLP XML",
    suffixes=(),
    sniff=sniff_dblp_xml,
    read=read_dblp_xml,
)
