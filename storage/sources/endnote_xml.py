"""EndNote XML (``.xml``): what EndNote's own XML export, Mendeley Desktop's and Mendeley
Reference Manager's "EndNote XML" and Zotero's "Endnote XML" write.

The document is ``<xml><records><record>…</record>…</records></xml>`` (an XML declaration, a
byte order mark, a ``DOCTYPE`` before it or not). A field's text is all the text inside its
element: plain (Zotero, Mendeley), in one ``<style face="normal" font="default"
size="100%">`` run (EndNote), or split over several runs (italics in a title), joined;
whitespace that only indents the runs is not text.

Elements read, within a ``<record>``: ``ref-type`` (its ``name``: ``Journal Article``,
``Conference Proceedings``…, or its number), ``contributors/authors/author`` (``Last, First``,
in order; an ``Edited Book``'s editors; when none, the editors: ``secondary-authors``, a book's
``tertiary-authors``, ``storage.sources.endnote.editors_of``), ``titles/title``
(``short-title`` when it has none), ``secondary-title``
(the journal, proceedings or book), ``periodical/full-title`` (the journal; ``alt-title``,
``abbr-1`` its abbreviation when nothing else names it), ``dates/year``,
``dates/pub-dates/date`` (``May 7``: read with the year), the series (``tertiary-title``; a
book's or a report's ``secondary-title``), ``work-type`` (a thesis's type: a master's),
``abstract`` (its lines kept),
``keywords/keyword``, ``urls`` (``related-urls``, Zotero's ``web-urls``: the paper's page; a
web address ending in ``.pdf`` its PDF link), ``urls/pdf-urls/url`` (a ``file://`` address or
a path: the local PDF; ``internal-pdf://…`` when the file is in the folder exported beside
the XML: Zotero's ``PDF/``, EndNote's ``LIBRARY.Data/PDF/``), ``electronic-resource-num`` (the
DOI), ``notes`` (the reference's note: code links in it kept), ``research-notes`` (the
user's own notes, Zotero's in HTML: the paper's note), ``pages``, ``volume``, ``number`` or
``issue``, ``isbn`` (an ISBN or ISSN), ``publisher`` (a thesis's school, a report's
institution). An arXiv id comes from an arXiv link or a DOI ``10.48550/arXiv.…``. Not kept:
``label`` (EndNote's citation key), ``language``. Beside the authors, the editors of the
book or proceedings, or a book's own (its tertiary author: ``storage.sources.endnote.
book_editors``), and the series' editors (a book's, an edited book's or a report's secondary
author, a chapter's or a paper's tertiary, an edited book's tertiary too), as the tagged
reader reads the same fields (``storage.sources.endnote.people_of``).

The standard library's expat parses it, safely: nothing outside the file is fetched (no
DTD, no external entity), and a document that declares entities (an expansion bomb's way)
is refused in one line; a file cut short, or not well-formed, is refused naming the line
and column. A ``.xml`` file whose root is not ``<xml>`` (or whose ``DOCTYPE`` declaring
entities names another root) is XML of another kind, an SVG or a Maven POM
(``OtherDocument``), which a folder import passes over. Control characters XML cannot hold,
raw or as references (``&#27;``), are read as the characters they are, as every reader keeps
them (the borders show them).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Final
from urllib.parse import unquote

from storage.caps import MAX_NOTE_CHARS
from storage.errors import OtherDocument, SourceError
from storage.sources import xml_text
from storage.sources.attachments import is_local, looks_like_pdf
from storage.sources.authors import last_first
from storage.sources.citation import arxiv_id_of_url, doi_of, entry_type
from storage.sources.dates import no_year, stated_date, typed_date
from storage.sources.endnote import ENDNOTE_TYPES, people_of
from storage.sources.links import web_url
from storage.sources.records import (
    ARXIV_ID,
    SNIFF_CHARS,
    Fit,
    Reader,
    ReadResult,
    folder_of,
    note_and_code,
)
from storage.sources.xml_text import element_text, first_text
from storage.sources.zotero_api import note_text
from storage.text.rich_text import plain_title

SUFFIXES: Final = (".xml",)
#: Where a field's text is, from its ``<record>``: the fields read, one value per element.
_FIELDS: Final = frozenset(
    {
        "ref-type", "database", "contributors/authors/author",
        "contributors/secondary-authors/author", "contributors/tertiary-authors/author",
        "titles/title",
        "titles/secondary-title", "titles/tertiary-title", "titles/alt-title",
        "titles/short-title", "work-type",
        "periodical/full-title", "periodical/abbr-1", "alt-periodical/full-title",
        "dates/year", "dates/pub-dates/date", "abstract", "keywords/keyword",
        "urls/related-urls/url", "urls/web-urls/url", "urls/text-urls/url",
        "urls/pdf-urls/url", "electronic-resource-num", "notes", "research-notes",
        "pages", "volume", "number", "issue", "isbn", "publisher",
    }
)  # fmt: skip
#: How deep a field's element is in its record, at most (``contributors/authors/author``).
_FIELD_DEPTH: Final = max(field.count("/") + 1 for field in _FIELDS)
#: EndNote's reference types by number, for an export that names none (its ``ref-type``'s
#: text; the names as ``ENDNOTE_TYPES`` knows them).
_TYPE_NUMBERS: Final = {
    "5": "book section", "6": "book", "9": "computer program", "10": "conference proceedings",
    "12": "web page", "17": "journal article", "19": "magazine article",
    "23": "newspaper article", "27": "report", "28": "edited book", "32": "thesis",
    "34": "manuscript", "36": "manuscript", "43": "electronic article",
    "47": "conference paper", "59": "dataset",
}  # fmt: skip
#: The most text one element of a record may hold (an abstract is refused past 20,000).
MAX_VALUE_CHARS: Final = 200_000
#: Values a record keeps of one repeated element (authors, keywords, links).
MAX_VALUES: Final = 10_000
_ISSN: Final = re.compile(r"\d{4}-?\d{3}[\dXx]")
#: Where a text starts: past its whitespace and a byte order mark.
_VISIBLE: Final = re.compile(r"[^\s\ufeff]")


def sniff_endnote_xml(text: str, path: Path) -> Fit:
    """An XML document whose root is ``<xml>`` opening with ``<records>``; or a ``.xml``
    file that is XML (read as EndNote's, or told to be XML of another kind)."""
    first = _VISIBLE.search(text)
    head = text[first.start() : first.start() + SNIFF_CHARS] if first else ""
    if not head.startswith("<"):
        return Fit.NO
    start = xml_text.root_start(head)
    if start >= 0 and re.match(r"<xml(?:\s[^<>]*)?>\s*<records[\s/>]", head[start:]):
        return Fit.OPENS
    return Fit.NAMED if path.suffix.lower() in SUFFIXES else Fit.NO


class _OtherRoot(Exception):
    """The document's root element (or the one its ``DOCTYPE`` names, when it declares
    entities) says it is no EndNote export but XML of another kind."""

    def __init__(self, root: str) -> None:
        super().__init__(root)
        self.root = root[:40]


#: What is done with each record as it ends: its fields' texts, the attributes read, and what
#: made it unreadable ("" for nothing).
_OnRecord = Callable[[dict[str, list[str]], dict[str, str], str], None]


class _Records:
    """The records of a document, element by element as expat reads it: for each
    ``<record>`` under ``<xml><records>``, the text of each field (``_FIELDS``) in order, the
    attributes read (``ref-type``'s and ``database``'s ``name``), and what made it unreadable
    ("" for nothing), handed to ``on_record`` as it ends."""

    def __init__(self, on_record: _OnRecord) -> None:
        self.path: list[str] = []  # the elements open, from the root
        self.count = 0  # records read
        self._on_record = on_record
        #: Where the text held characters XML cannot hold (``xml_text``), if it held any.
        self.held: xml_text.Held | None = None
        self.declared = ""  # the root its ``DOCTYPE`` names ("" for none)
        self._values: dict[str, list[str]] = {}
        self._attributes: dict[str, str] = {}
        self._problem = ""
        self._field = ""  # the field whose text is being read ("" for none)
        self._depth = 0  # elements open inside it
        self._pieces: list[str] = []
        self._spaces: list[int] = []  # its pieces of whitespace alone, outside its elements
        self._runs = False  # it holds elements (``<style>`` runs)
        self._size = 0

    def start(self, name: str, attributes: dict[str, str]) -> None:
        self.path.append(name)
        if self._field:
            self._depth += 1
            self._runs = True
            return
        depth = len(self.path)
        if depth == 1 and name != "xml":
            raise _OtherRoot(name)
        if depth == 3 and self.path == ["xml", "records", "record"]:
            self._values, self._attributes, self._problem = {}, {}, ""
        elif 3 < depth <= 3 + _FIELD_DEPTH and self.path[:3] == ["xml", "records", "record"]:
            # only as deep as a field is: elements nested a million deep inside a record were
            # each joined into a name, in quadratic time
            field = "/".join(self.path[3:])
            if field in _FIELDS:
                self._field, self._depth, self._size = field, 0, 0
                self._pieces, self._spaces, self._runs = [], [], False
                if field in ("ref-type", "database"):
                    self._attributes[field] = attributes.get("name", "")

    def text(self, data: str) -> None:
        if not self._field:
            return
        if self._depth == 0 and not data.strip():
            self._spaces.append(len(self._pieces))
        self._size += len(data)
        if self._size <= MAX_VALUE_CHARS:
            self._pieces.append(data)

    def end(self, name: str) -> None:
        self.path.pop()
        if self._field and self._depth:
            self._depth -= 1
            return
        if self._field:
            self._end_field()
        elif len(self.path) == 2 and name == "record" and self.path == ["xml", "records"]:
            self.count += 1
            self._on_record(self._values, self._attributes, self._problem)

    def _end_field(self) -> None:
        field, self._field = self._field, ""
        if self._size > MAX_VALUE_CHARS:
            name = field.rpartition("/")[2]
            self._problem = self._problem or f"<{name}> holds {self._size:,} characters, too long"
        if self._runs:  # text in runs: the whitespace between them indents them
            for at in self._spaces:
                if at < len(self._pieces):
                    self._pieces[at] = " "
        values = self._values.setdefault(field, [])
        if len(values) < MAX_VALUES:
            text = "".join(self._pieces)
            values.append(self.held.restore(text) if self.held is not None else text)

    def doctype(self, name: str, *_: object) -> None:
        self.declared = name

    def refuse_entity(self, name: str, *_: object) -> None:
        if self.declared not in ("", "xml"):  # ``<!DOCTYPE book [<!ENTITY …``: DocBook's
            raise _OtherRoot(self.declared)
        raise xml_text.Refused(
            f"it declares an entity ({name[:40]!r}); an EndNote export declares none"
        )


def _people(values: dict[str, list[str]], field: str) -> list[str]:
    """The names of a contributors' element, ``Last, First`` each, as the library keeps them."""
    return [last_first(name) for value in values.get(field, ()) if (name := element_text(value))]


def _paragraphs(value: str) -> str:
    """An abstract's text: its lines kept, each one's spaces made one, no blank line twice."""
    lines = (" ".join(line.split()) for line in value.splitlines())
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()


def _keywords(values: list[str]) -> list[str]:
    """A keyword an element, or several in one (``a; b``, a line each); all of them in one
    element, apart by commas only, as several (``graph neural networks, recommendation``)."""
    words = [element_text(w) for v in values for line in v.splitlines() for w in line.split(";")]
    words = [w for w in words if w]
    if len(words) == 1 and len(values) == 1:
        return [w.strip() for w in words[0].split(",") if w.strip()]
    return words


def _links(values: dict[str, list[str]], *fields: str, lines: bool = False) -> Iterator[str]:
    """Every link of ``fields``: an element may hold several, a space or a line apart (a line
    only, with ``lines``: a file's path may hold spaces)."""
    for field in fields:
        for value in values.get(field, ()):
            parts = value.splitlines() if lines else value.split()
            yield from (part.strip() for part in parts if part.strip())


def _internal_pdf(link: str, base: Path | None, database: str) -> str:
    """The file EndNote's ``internal-pdf://ID/name.pdf`` names, when it is in a folder
    exported beside the XML (Zotero's ``PDF/``, EndNote's ``LIBRARY.Data/PDF/``); ""
    otherwise (EndNote's own folder, somewhere else)."""
    relative = link.strip()[len("internal-pdf://") :]
    if base is None or not looks_like_pdf(relative) or len(relative) > 1000:
        return ""
    folders = [base / "PDF"]
    if database:  # ``My Library.enl``: its files in ``My Library.Data/PDF``
        folders.append(base / f"{Path(database).stem}.Data" / "PDF")
    for name in dict.fromkeys((relative, unquote(relative))):
        parts = Path(name).parts
        if not parts or ".." in parts or Path(name).is_absolute() or "\x00" in name:
            continue
        for folder in folders:
            try:
                if (folder / name).is_file():
                    return str(folder / name)
            except (OSError, ValueError):
                continue
    return ""


def _fields(
    values: dict[str, list[str]], attributes: dict[str, str], source: str
) -> tuple[dict[str, Any], str, bool]:
    """A record's fields under the names the readers' records use; its date as written when
    it gives no year ("" when it does, or there is none); whether its notes were cut."""
    # a title Zotero kept in rich text, its ``<i>`` escaped by its export: the text
    title = plain_title(first_text(values, "titles/title", "titles/short-title"))
    fields: dict[str, Any] = {"title": title}
    fields["authors"] = _people(values, "contributors/authors/author")
    fields["abstract"] = next(
        (text for v in values.get("abstract", ()) if (text := _paragraphs(v))), ""
    )
    fields["keywords"] = _keywords(values.get("keywords/keyword", []))
    kind = element_text(attributes.get("ref-type", "")).casefold()
    kind = kind or _TYPE_NUMBERS.get(first_text(values, "ref-type"), "")
    secondary = _people(values, "contributors/secondary-authors/author")
    tertiary = _people(values, "contributors/tertiary-authors/author")
    # its editors and its series' as EndNote's reference types place them (a book's editor
    # its tertiary author, Zotero's too; an edited book's tertiary author its series' level)
    fields.update(people_of(kind, fields["authors"], secondary, tertiary))
    entry = entry_type(ENDNOTE_TYPES.get(kind, "misc"))
    if entry == "phdthesis" and "master" in first_text(values, "work-type").casefold():
        entry = "mastersthesis"  # its type of work (Zotero's ``thesisType``), as ``%9`` says
    fields["entry_type"] = entry
    stated, date = first_text(values, "dates/year"), first_text(values, "dates/pub-dates/date")
    if date and stated and typed_date(date)[0] is None:  # EndNote's date: ``May 7``
        date = f"{date} {stated}"
    year, month, day = stated_date(stated, date)
    unread = "" if year else stated or date
    fields["year"] = str(year or "")
    if year and month:
        fields["month"] = month
        fields["date"] = f"{year:04d}-{month:02d}-{day:02d}" if day else ""
    container = first_text(values, "titles/secondary-title")
    journal = first_text(values, "periodical/full-title", "alt-periodical/full-title")
    short = first_text(values, "titles/alt-title", "periodical/abbr-1")
    if entry in ("inproceedings", "incollection"):
        fields["booktitle"] = journal or container  # Zotero's proceedings, its conference
    elif entry == "article" or journal:
        fields["journal"] = container or journal or short
    fields["venue"] = fields.get("journal") or fields.get("booktitle") or container
    # its series: a chapter's, a paper's ``tertiary-title``; a book's, a report's
    # ``secondary-title`` (EndNote's "Series Title" of each type, where Zotero writes it)
    series = first_text(values, "titles/tertiary-title")
    fields["series"] = series or (container if entry in ("book", "techreport") else "")
    fields["volume"] = first_text(values, "volume")
    fields["publisher"] = first_text(values, "publisher")
    fields["issue"] = first_text(values, "number", "issue")
    fields["pages"] = re.sub(r"\s*-{1,2}\s*", "–", first_text(values, "pages"), count=1)
    serial = first_text(values, "isbn")
    if serial:
        bare = " ".join(re.sub(r"\([^()]*\)", " ", serial).split()) or serial
        fields["issn" if _ISSN.fullmatch(bare) else "isbn"] = bare
    if entry == "phdthesis":
        fields["school"] = fields.pop("publisher", "")
    elif entry == "techreport":
        fields["institution"] = fields.pop("publisher", "")
    dois = (doi_of(d) for d in _links(values, "electronic-resource-num"))
    fields["doi"] = next((d for d in dois if d), "")
    _add_links(fields, values, attributes, source)
    notes = [element_text(n) for n in values.get("notes", ())]
    fields["bib_note"], fields["code"] = note_and_code("; ".join(n for n in notes if n))
    own = "\n\n".join(t for n in values.get("research-notes", ()) if (t := note_text(n)))
    cut = len(own) > MAX_NOTE_CHARS
    fields["note"] = own[: MAX_NOTE_CHARS - 1] + "…" if cut else own
    return {k: v for k, v in fields.items() if v}, unread, cut


def _add_links(
    fields: dict[str, Any], values: dict[str, list[str]], attributes: dict[str, str], source: str
) -> None:
    """The record's page, its PDF's web address, its local PDF and its arXiv id."""
    given = _links(values, "urls/related-urls/url", "urls/web-urls/url", "urls/text-urls/url")
    pages = [page for u in given if (page := web_url(u))]
    attached = list(_links(values, "urls/pdf-urls/url", lines=True))
    on_web = [u for u in pages if looks_like_pdf(u)]
    on_web += [link for u in attached if looks_like_pdf(u) and (link := web_url(u))]
    fields["pdf"] = on_web[0] if on_web else ""
    fields["url"] = [u for u in pages if not looks_like_pdf(u)]
    local = [u for u in attached if is_local(u) and looks_like_pdf(u)]
    if local:
        fields["file"] = local[0]
    else:
        database = element_text(attributes.get("database", "")) or first_text(values, "database")
        inside = (u for u in attached if u.lower().startswith("internal-pdf://"))
        found = (f for u in inside if (f := _internal_pdf(u, folder_of(source), database)))
        fields["file"] = next(found, "")
    arxiv = next(filter(None, map(arxiv_id_of_url, (*fields["url"], *on_web))), "")
    doi = re.match(r"10\.48550/arxiv\.(.+)$", fields.get("doi", ""), re.IGNORECASE)
    arxiv = arxiv or (doi.group(1) if doi and ARXIV_ID.fullmatch(doi.group(1)) else "")
    if arxiv:
        fields["eprint"], fields["archiveprefix"] = arxiv, "arXiv"


def _parse(text: str, source: str, on_record: _OnRecord) -> int:
    """Read the document's records (see ``_Records``), and say how many there are;
    ``SourceError`` for a document that is not well-formed, cut short, not EndNote's, or
    declares entities."""
    records = _Records(on_record)
    try:
        xml_text.parse_events(text, records)
    except xml_text.Refused as exc:
        said = f"{source}: not an EndNote XML export: {exc} (line {exc.line})"
        raise SourceError(said) from None
    except _OtherRoot as exc:
        said = f"{source}: not an EndNote XML export: its root is <{exc.root}>, not <xml>"
        raise OtherDocument(said, exc.root) from None
    except xml_text.NotWellFormed as exc:
        if exc.ended and records.path:
            inside = f"record {records.count + 1}, " if len(records.path) > 2 else ""
            raise SourceError(
                f"{source}: the XML is cut short: it ends at {exc.where}, inside {inside}"
                f"<{records.path[-1][:40]}>; nothing imported (export it again)"
            ) from None
        said = f"not well-formed XML at {exc.where} ({exc.reason})"
        raise SourceError(f"{source}: {said}") from None
    return records.count


def read_endnote_xml(text: str, path: Path) -> ReadResult:
    """Every ``<record>`` of an EndNote XML export (see the module)."""
    source = str(path)
    result = ReadResult(source=source, list_name=path.stem)
    unread: list[tuple[int, str]] = []

    def add(values: dict[str, list[str]], attributes: dict[str, str], problem: str) -> None:
        number = len(result.records) + len(result.errors) + result.unlisted + 1
        if problem:
            result.refuse(number, problem)
            return
        fields, year, cut = _fields(values, attributes, source)
        if year:
            unread.append((number, year))
        if cut:
            result.warnings.append(
                f"{source}: record {number}: its research notes are over {MAX_NOTE_CHARS:,} "
                "characters: the first ones kept as its note"
            )
        result.add(number, fields)

    if _parse(text.lstrip("\ufeff"), source, add) == 0:
        raise SourceError(
            f"{source}: an EndNote XML export of no records (no <record> in <records>); "
            "nothing to import"
        )
    if unread:
        result.warnings.append(no_year(source, unread))
    return result


ENDNOTE_XML = Reader(
    name="EndNote XML",
    label="EndNote XML",
    suffixes=SUFFIXES,
    sniff=sniff_endnote_xml,
    read=read_endnote_xml,
)
