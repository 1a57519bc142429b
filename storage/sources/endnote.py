"""EndNote's tagged format (``.enw``; Refer): what Google Scholar's "EndNote" link, publishers'
"Download citation" buttons (ACM, IEEE, Springer) and Zotero's "Refer/BibIX" export write.

A record is a run of ``%X value`` lines, records apart by a blank line (or by the next
``%0``, the reference type, which opens one); a line without a tag continues the value
before it (an abstract wrapped by the exporter), after a blank line too (an abstract's next
paragraph: the record goes on). Read in one pass, linear on any text.

Tags read: ``%0`` (the type: ``Journal Article``, ``Conference Proceedings``, ``Book
Section``…), ``%T`` (title), ``%A`` (an author, ``Last, First`` or ``First Last``; an ``Edited
Book``'s editors; when none, the editors: ``%E``, a book's ``%Y``, see ``editors_of``; beside
authors, a chapter's or a paper's ``%E``, its book's editors, and a book's ``%Y`` its editors
(EndNote's "Editor" of a Book, its tertiary author), or its ``%E`` when it has no ``%Y``
(Zotero's Refer export writes a book's editor there, and no ``%Y``); the series' editor,
EndNote's "Series Editor": a book's (beside its ``%Y``), an edited book's or a report's
``%E``, a chapter's or a paper's ``%Y``, see ``series_editors_of``, and an edited book's
``%Y``: the same roles as EndNote's XML, see ``people_of``), ``%D`` (year; one that names
none, ``in press``, is said in one line), ``%8`` (a date), ``%J`` (journal), ``%B`` (proceedings or
book), ``%I`` (publisher; a thesis's school, a report's institution), ``%V``, ``%N`` (issue),
``%P`` (pages), ``%S`` (series), ``%9`` (type of work: a master's thesis), ``%@`` (ISBN or
ISSN), ``%R`` (DOI: the first that is one), ``%U`` (a link; a
PDF's when it ends in ``.pdf``), ``%X`` (abstract), ``%K`` (keywords: one a line, a ``%K``'s
continued lines too, or several on a line apart by ``;``, or by ``,`` when they are all on one
line: a keyword of its own line keeps its commas, as PubMed's ``Neural Networks, Computer``),
``%Z`` (a note: code links in it kept).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Final

from storage.errors import SourceError
from storage.sources.attachments import is_local, looks_like_pdf
from storage.sources.authors import last_first
from storage.sources.citation import doi_of, entry_type
from storage.sources.dates import no_year, stated_date
from storage.sources.links import web_url
from storage.sources.records import Fit, Reader, ReadResult, note_and_code

ENDNOTE_SUFFIXES: Final = (".enw",)
_TAG: Final = re.compile(r"%([0-9A-Z@!#$&()*+^~>|<?\[\]])(?: (.*)|$)")
_FIELDS: Final = {
    "T": "title", "A": "authors", "D": "year", "8": "date", "J": "journal",
    "B": "container", "I": "publisher", "V": "volume", "N": "issue", "P": "pages",
    "@": "serial", "R": "doi", "U": "url", "X": "abstract", "K": "keywords", "Z": "note",
    ">": "file", "E": "secondary", "Y": "tertiary", "S": "series", "9": "work",
}  # fmt: skip
_LISTS: Final = frozenset(
    {"authors", "url", "keywords", "note", "file", "secondary", "tertiary", "doi"}
)
#: The reference types whose secondary author (``%E``, EndNote XML's ``secondary-authors``)
#: is its editors: of a chapter's book, a paper's proceedings or journal, an entry's
#: dictionary. A book's are its tertiary author (``%Y``, ``tertiary-authors``), its secondary
#: its series' editor; a thesis's secondary author is its advisor, a letter's its recipient.
_EDITED: Final = frozenset(
    {"journal article", "electronic article", "magazine article", "conference proceedings",
     "conference paper", "book section", "electronic book section", "electronic book",
     "generic", "dictionary", "encyclopedia"}
)  # fmt: skip


#: The reference type whose Author field EndNote labels Editor: the people its ``%A`` (EndNote
#: XML's ``authors``, RIS's ``EDBOOK`` ``AU``) names are the book's editors; its secondary
#: author is its series' editor (the RIS specification's table of EndNote's types).
EDITED_BOOK: Final = "edited book"


def editors_of(kind: str, secondary: list[str], tertiary: list[str]) -> list[str]:
    """The editors of a record of EndNote's reference type ``kind`` (``Book``, ``Book
    Section``…), its people when it names no author (a book or a proceedings volume that
    names only its editors): see ``_EDITED``. Zotero writes the same roles (its ``Refer/BibIX``
    export a book's editors as ``%E`` too, taken when there is no ``%Y``)."""
    kind = kind.casefold()
    if kind == "book":
        return tertiary or secondary
    return secondary if kind in _EDITED else []


#: EndNote's reference types whose secondary author (``%E``, ``secondary-authors``), or
#: tertiary (``%Y``, ``tertiary-authors``), is their series' editor ("Series Editor" in its
#: reference types: Zotero's ``seriesEditor``, RIS's ``A2`` of a book, ``A3`` of a chapter).
SERIES_SECONDARY: Final = frozenset({"book", "edited book", "report"})
SERIES_TERTIARY: Final = frozenset(
    {"book section", "electronic book section", "conference proceedings", "conference paper"}
)


def series_editors_of(
    kind: str, secondary: list[str], tertiary: list[str], people: list[str]
) -> list[str]:
    """The editors of the series a record of EndNote's type ``kind`` is in (``SERIES_…``);
    none when they are its ``people`` (a book that names only them: ``editors_of``)."""
    kind = kind.casefold()
    named = secondary if kind in SERIES_SECONDARY else tertiary if kind in SERIES_TERTIARY else []
    return [] if named is people else named


def book_editors(kind: str, secondary: list[str], tertiary: list[str]) -> list[str]:
    """The editors of a record of type ``kind`` that names its authors: of the book or
    proceedings it is in, its secondary author where that is its editors (``_EDITED``); a
    book's own, its tertiary author (EndNote's "Editor" of a Book, Zotero's ``editor`` of its
    EndNote XML's ``tertiary-authors``, RIS's ``A3``), its secondary being its series'."""
    kind = kind.casefold()
    if kind == "book":
        return tertiary
    return secondary if kind in _EDITED else []


def people_of(
    kind: str, authors: list[str], secondary: list[str], tertiary: list[str]
) -> dict[str, Any]:
    """A record's people by role, as EndNote's reference type ``kind`` places them in its
    Author, Secondary and Tertiary Author fields (the same in its tagged format, ``%A``
    ``%E`` ``%Y``, and in its XML, ``authors`` ``secondary-authors`` ``tertiary-authors``):
    ``authors`` (an edited book's, or a volume's that names only its editors, with
    ``edited_by``), ``editors`` beside named authors (``book_editors``), and
    ``series_editors``."""
    lowered = kind.casefold()
    fields: dict[str, Any] = {"authors": authors}
    if not authors or lowered == EDITED_BOOK:  # a volume that names its editors
        fields["authors"] = authors or editors_of(kind, secondary, tertiary)
        fields["edited_by"] = True  # (when there are any: ``records.record_from_fields``)
    else:  # a chapter's book's, a paper's proceedings', a book's own
        fields["editors"] = book_editors(kind, secondary, tertiary)
    series = series_editors_of(kind, secondary, tertiary, fields["authors"])
    if lowered == EDITED_BOOK:  # its tertiary author too: the series' level, as a chapter's,
        # a paper's is (EndNote's), as bibutils' Refer export writes a book's series' editors
        both = [*series, *tertiary]
        series = [p for p in dict.fromkeys(both) if p not in fields["authors"]]
    fields["series_editors"] = series
    return fields


#: EndNote's reference types (``%0``) by BibTeX entry type; any other is ``misc``.
ENDNOTE_TYPES: Final = {
    "journal article": "article", "electronic article": "article",
    "magazine article": "article", "newspaper article": "article",
    "conference proceedings": "inproceedings", "conference paper": "inproceedings",
    "book": "book", "edited book": "book", "book section": "incollection",
    "thesis": "phdthesis", "report": "techreport", "manuscript": "unpublished",
    "web page": "online", "computer program": "software", "dataset": "dataset",
}  # fmt: skip
_ISSN: Final = re.compile(r"\d{4}-?\d{3}[\dXx]")
#: The longest a value may grow by its continued lines (an abstract is refused past 20,000).
MAX_VALUE_CHARS: Final = 200_000


def sniff_endnote(text: str, path: Path) -> Fit:
    """The name says EndNote (``.enw``), or the text opens with a ``%0`` type line."""
    if path.suffix.lower() in ENDNOTE_SUFFIXES:
        return Fit.NAMED
    start = text.lstrip("\ufeff \t\r\n")[:64]
    return Fit.OPENS if re.match(r"%0 \S", start) else Fit.NO


def _record(tags: list[tuple[str, list[str]]]) -> dict[str, Any] | str:
    """A record's fields, or why it is refused (a value continued past ``MAX_VALUE_CHARS``)."""
    fields: dict[str, Any] = {}
    kind = ""
    for tag, (size, *pieces) in tags:
        if int(size) > MAX_VALUE_CHARS:
            return f"%{tag} runs over {int(size):,} characters of continued lines, too long"
        if tag == "0":
            kind = kind or " ".join(" ".join(pieces).split())
            continue
        name = _FIELDS.get(tag)
        if name is None:
            continue
        if name == "abstract":
            value = "\n".join(" ".join(p.split()) for p in pieces).strip()
        elif name == "keywords":  # one a line (a %K's continued lines too), or "a; b" a line
            words = (" ".join(w.split()) for p in pieces for w in p.split(";"))
            fields.setdefault(name, []).extend(w for w in words if w)
            continue
        else:
            value = " ".join(" ".join(pieces).split())
        if not value:
            continue
        if name in _LISTS:
            named = name in ("authors", "secondary", "tertiary")
            fields.setdefault(name, []).append(last_first(value) if named else value)
        else:
            fields.setdefault(name, value)
    words = fields.get("keywords", [])
    if len(words) == 1:  # one line of them: "graph neural networks, recommendation" (ACM)
        fields["keywords"] = [w.strip() for w in words[0].split(",") if w.strip()]
    secondary, tertiary = fields.pop("secondary", []), fields.pop("tertiary", [])
    if kind.casefold() == "book" and not tertiary:  # a book's editors in its %E: Zotero's
        # Refer export writes them there and writes no %Y (EndNote's own export writes a
        # Book's Editor, its Tertiary Author, in %Y, and its Series Editor in %E)
        secondary, tertiary = [], secondary
    fields.update(people_of(kind, fields.get("authors", []), secondary, tertiary))
    entry = entry_type(ENDNOTE_TYPES.get(kind.casefold(), "misc"))
    if "master" in fields.pop("work", "").casefold() and entry == "phdthesis":
        entry = "mastersthesis"  # its type of work (``%9``)
    fields["entry_type"] = entry
    # ``%D`` the year (``2024``, ``c2024``, ``2024/05/07``), ``%8`` a date as typed (``May 7,
    # 2024``): its month when the years agree
    typed = (fields.get("year", ""), fields.pop("date", ""))
    year, month, day = stated_date(*typed)
    fields["year"] = str(year or "")
    fields["year_unread"] = "" if year else typed[0] or typed[1]  # ``in press``: said
    if year and month:
        fields["month"] = month
        fields["date"] = f"{year:04d}-{month:02d}-{day:02d}" if day else ""
    container = fields.pop("container", "")
    if entry in ("inproceedings", "incollection"):
        fields["booktitle"] = container
    elif not fields.get("journal"):
        fields["journal"] = container
    fields["venue"] = fields.get("journal") or container
    if fields.get("pages"):
        fields["pages"] = re.sub(r"\s*-{1,2}\s*", "–", fields["pages"], count=1)
    serial = fields.pop("serial", "")
    if serial:
        fields["issn" if _ISSN.fullmatch(serial.strip()) else "isbn"] = serial
    if entry in ("phdthesis", "mastersthesis"):
        fields["school"] = fields.pop("publisher", "")
    elif entry == "techreport":
        fields["institution"] = fields.pop("publisher", "")
    # ``%R`` is the electronic resource number: the first that is a DOI (``10.1/x``,
    # ``doi: 10.1/x``, its link) is; an OAI id or a URN (a library's) is none
    fields["doi"] = next(filter(None, map(doi_of, fields.pop("doi", []))), "")
    links = fields.pop("url", [])
    fields["pdf"] = next((u for u in links if looks_like_pdf(u)), "")
    fields["url"] = [u for u in links if u != fields["pdf"]]
    fields["bib_note"], fields["code"] = note_and_code("; ".join(fields.pop("note", [])))
    # ``%>`` a line per attachment: its PDF, not a snapshot
    attached = fields.pop("file", [])
    local = [link for link in attached if is_local(link)]  # not EndNote's ``internal-pdf://``
    fields["file"] = next((link for link in local if looks_like_pdf(link)), "")
    if not fields.get("pdf"):
        fields["pdf"] = next((u for u in attached if web_url(u) and looks_like_pdf(u)), "")
    return {k: v for k, v in fields.items() if v}


def read_endnote(text: str, path: Path) -> ReadResult:
    """Every record of an EndNote tagged file (see the module)."""
    result = ReadResult(source=str(path), list_name=path.stem)
    tags: list[tuple[str, list[str]]] = []
    number = 0
    unread: list[tuple[int, str]] = []  # dates that name no year

    def end() -> None:
        nonlocal tags, number
        if any(tag != "0" for tag, _ in tags):
            number += 1
            record = _record(tags)
            if isinstance(record, str):
                result.refuse(number, record)
            else:
                if typed := record.pop("year_unread", ""):
                    unread.append((number, typed))
                result.add(number, record)
        tags = []

    blank = False  # a blank line met since the last line of the record
    for line in text.lstrip("\ufeff").splitlines():
        match = _TAG.fullmatch(line.rstrip())
        if match is None:
            if not line.strip():
                blank = True
            elif tags:  # a value continued (kept up to a cap, counted on)
                pieces = tags[-1][1]
                pieces[0] = str(int(pieces[0]) + len(line) + 1)
                if int(pieces[0]) <= MAX_VALUE_CHARS:
                    if blank:  # a paragraph of an abstract, not the end of the record
                        pieces.append("")
                    pieces.append(line.strip())
                blank = False
            continue
        tag, value = match.group(1), match.group(2) or ""
        if tags and (blank or tag == "0"):
            end()  # a blank line ends a record; a type line opens the next, blank line or not
        blank = False
        tags.append((tag, [str(len(value)), value]))
    end()
    if number == 0:
        raise SourceError(f"{path}: not an EndNote file (no record of %-tagged lines)")
    if unread:
        result.warnings.append(no_year(str(path), unread))
    return result


ENDNOTE = Reader(
    name="EndNote tagged",
    label="EndNote",
    suffixes=ENDNOTE_SUFFIXES,
    sniff=sniff_endnote,
    read=read_endnote,
)
