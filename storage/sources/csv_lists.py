"""Paper lists as CSV or TSV (RFC 4180): a header row naming an abstract (or title) column,
one paper per row. Our own CSV export reads back whole: statuses, notes and tags too.

Column names are read in lower case, runs of spaces as one ``_`` (``Abstract Note`` is
``abstract_note``). The CSV exports of reference managers name their columns their own way,
read here as the fields they are: Zotero's (``Abstract Note``, ``Author`` as ``Last, First;
…`` and, for a book that names only its editors, ``Editor``, ``Publication Year``,
``Publication Title``, ``Item Type``, ``Manual Tags`` and ``Automatic Tags``; the arXiv id
and DOI it keeps in ``Extra`` lines, ``arXiv: 2401.01234``
and ``DOI: 10.1/x``, for item types without a field of their own), Scopus's (``Source
title``, ``Document Type``, ``Author Keywords``, ``Page start`` and ``Page end``, ``Cited
by``, ``Link``: its own record page, so the DOI's page instead when there is one), Google
Scholar's (``Publication``) and IEEE Xplore's (``Document Title``, ``Publication Title``,
``Start Page`` and ``End Page``, ``ISBNs``, ``Article Citation Count``, and ``Document
Identifier``, which says a conference paper from a journal's: ``IEEE Conferences``, ``IEEE
Journals``); Web of Science's Excel export saved as CSV (``Article Title``, ``Source
Title``, ``UT (Unique WOS ID)``) is read as its plain-text export is (``storage.sources.wos``).
Excel's first line ``sep=,`` (or ``sep=;``) names the delimiter.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Final

from storage.errors import SourceError
from storage.sources.authors import last_first, no_author
from storage.sources.citation import entry_type
from storage.sources.records import (
    ALIASES,
    MAX_ABSTRACT_CHARS,
    Fit,
    Reader,
    ReadResult,
    first_line,
)
from storage.sources.wos import is_wos_table, wos_row
from storage.sources.zotero_api import extra_ids
from storage.text.rich_text import plain_title
from storage.text.sanitize import printable

CSV_SUFFIXES = (".csv", ".tsv")
#: A first line longer than this is prose, not a header row (Zotero's has 87 columns).
_MAX_HEADER_ROW_CHARS = 4000
#: Reference managers' columns (see the module) by the field they are, when the row has none
#: of that name: a container's title is a proceedings' (``booktitle``) for a conference paper.
_FOREIGN_COLUMNS: Final = {
    "abstract_note": "abstract",
    "publication_year": "year",
    "item_type": "entry_type",
    "document_type": "entry_type",
    "author_keywords": "keywords",
    "publication": "venue",
    "document_title": "title",  # IEEE Xplore's
    "isbns": "isbn",
    "article_citation_count": "citations",
    "author_affiliations": "affiliations",
}
#: Columns that name a paper's title or abstract: a CSV needs one of them.
_TEXT_COLUMNS: Final = frozenset(
    {*ALIASES["abstract"], *ALIASES["title"]}
    | {c for c, name in _FOREIGN_COLUMNS.items() if name in ("abstract", "title")}
)
#: A paper's first and last page, in the columns of Scopus and of IEEE Xplore.
_PAGE_COLUMNS: Final = (("page_start", "page_end"), ("start_page", "end_page"))
_CONTAINER_COLUMNS: Final = ("publication_title", "source_title")
_TAG_COLUMNS: Final = ("manual_tags", "automatic_tags")
_SCOPUS_ID: Final = re.compile(r"\s*\(\d+\)\s*$")


def sniff_csv(text: str, path: Path) -> Fit:
    """The name says CSV or TSV, or the first line is a header row naming an abstract column."""
    if path.suffix.lower() in CSV_SUFFIXES or _looks_like_csv(text):
        return Fit.HINTED
    return Fit.NO


#: Excel's first line naming the delimiter (``sep=,``, ``sep=;``), above the header row.
_EXCEL_SEP: Final = re.compile(r'\A\ufeff?"?sep=([^\r\n"])"?[ \t]*(?:\r\n|\r|\n)', re.IGNORECASE)


def _excel_separator(text: str) -> tuple[str, str]:
    """The delimiter Excel's ``sep=`` line names ("" for none), and the text after that line."""
    found = _EXCEL_SEP.match(text)
    return (found.group(1), text[found.end() :]) if found else ("", text)


def _looks_like_csv(text: str) -> bool:
    text = _excel_separator(text)[1]
    # Case folding makes no character shorter and none more than three times longer.
    first = first_line(text, 3 * _MAX_HEADER_ROW_CHARS)
    if first is None:
        return False
    first = first.casefold()
    if len(first) > _MAX_HEADER_ROW_CHARS:
        return False
    cells = {_column(c.strip('"')) for c in re.split(r"[,\t;]", first)}
    return len(cells) > 1 and bool(cells & {*ALIASES["abstract"], "abstract_note"})


def _column(name: str) -> str:
    """A header cell as a field name: ``Abstract Note`` → ``abstract_note``."""
    return "_".join(name.strip().lstrip("\ufeff").lower().split())


def _last_first(names: Iterable[str]) -> list[str]:
    """``Lee, Ann`` → ``Ann Lee``, ``King, Martin Luther, Jr.`` → ``Martin Luther King Jr.``
    (``last_first``)."""
    return [p for p in map(last_first, names) if p]


#: Initials as Scopus writes them after a family name: ``T.``, ``W.T.``, ``J.-P.``.
_INITIALS: Final = re.compile(r"(?:[^\W\d_]\.-?)+")


def _scopus_authors(value: str) -> list[str]:
    """The people of Scopus's ``Authors`` column when no ``Author full names`` column gives
    them, each ``Surname Initials``: ``Lee A.; Park B.J.`` (since about 2020), ``Lee A., Park
    B.J.`` (before), ``Lee, A., Park, B.J.`` (before 2017), as the library keeps names
    (``A. Lee``, ``B.J. Park``); none for ``[No author name available]``."""
    if no_author(value):
        return []
    parts = [p.strip() for p in value.split(";" if ";" in value else ",") if p.strip()]
    surnames, initials = parts[0::2], parts[1::2]
    if (
        ";" not in value
        and len(surnames) == len(initials)
        and all(_INITIALS.fullmatch(i) for i in initials)
        and not any(_INITIALS.fullmatch(s) for s in surnames)
    ):
        return [f"{i} {s}" for s, i in zip(surnames, initials, strict=True)]
    return [_initials_first(p) for p in parts]


def _initials_first(name: str) -> str:
    """``Yagai T.`` → ``T. Yagai``; a name not ending in initials as it is."""
    words = name.split()
    if len(words) > 1 and _INITIALS.fullmatch(words[-1]) and not _INITIALS.fullmatch(words[0]):
        return " ".join([words[-1], *words[:-1]])
    return " ".join(words)


def _zotero_extra(fields: dict[str, Any]) -> None:
    """The arXiv id and DOI of a Zotero row that keeps them in ``Extra`` (or a preprint's
    ``Number``), where its own columns hold none (``storage.sources.zotero_api.extra_ids``)."""
    arxiv, doi = extra_ids(fields.get("extra", ""), fields.get("number", ""))
    if arxiv and not fields.get("eprint", "").strip():
        fields["eprint"], fields["archiveprefix"] = arxiv, "arXiv"
    if doi and not fields.get("doi", "").strip():
        fields["doi"] = doi


def _ieee_type(identifier: str) -> str:
    """The entry type IEEE Xplore's ``Document Identifier`` names ("" for none it names):
    ``IEEE Conferences`` (IET's, VDE's too), ``IEEE Journals``, ``IEEE Magazines``, ``IEEE
    Early Access Articles``, ``Wiley-IEEE Press eBook Chapters``, ``IEEE Standards``."""
    low = identifier.casefold()
    for word, kind in (("conference", "inproceedings"), ("book", "incollection"),
                       ("standard", "manual"), ("journal", "article"), ("magazine", "article"),
                       ("article", "article")):  # fmt: skip
        if word in low:
            return kind
    return ""


def _fields(fields: dict[str, Any]) -> dict[str, Any]:
    """A row's fields, with reference managers' columns (``_FOREIGN_COLUMNS``) as ours."""
    ieee = _ieee_type(fields.get("document_identifier", ""))
    if ieee and not fields.get("entry_type", "").strip():
        fields["entry_type"] = ieee
    for column, name in _FOREIGN_COLUMNS.items():
        if fields.get(column, "").strip() and not fields.get(name, "").strip():
            fields[name] = entry_type(fields[column]) if name == "entry_type" else fields[column]
    full_names = fields.get("author_full_names", "")  # Scopus: ``Lee, Ann (57190000001); …``
    if full_names.strip():
        people = (_SCOPUS_ID.sub("", n) for n in full_names.split(";") if not no_author(n))
        fields["authors"] = _last_first(people)
    elif "eid" in fields and fields.get("authors", "").strip():  # Scopus's, before full names
        fields["authors"] = _scopus_authors(fields["authors"])
    elif "item_type" in fields and fields.get("author", "").strip():  # Zotero: ``Lee, Ann; …``
        fields["author"] = _last_first(fields["author"].split(";"))
        if fields.get("editor", "").strip():  # a chapter's book's, a paper's volume's
            fields["editors"] = _last_first(fields["editor"].split(";"))
    elif "item_type" in fields and fields.get("editor", "").strip():  # a book of its editors'
        fields["author"] = _last_first(fields["editor"].split(";"))
        fields["edited_by"] = True
    if ("item_type" in fields or "eid" in fields) and "<" in fields.get("title", ""):
        fields["title"] = plain_title(fields["title"])  # Zotero's rich text, Scopus's ``<inf>``
    if "item_type" in fields:
        _zotero_extra(fields)
    elif "publication" in fields and not fields.get("issue", "").strip():
        # Google Scholar's citations: ``Volume``, ``Number`` (the issue), ``Pages``
        fields["issue"] = fields.get("number", "")
    if not fields.get("keywords", "").strip():
        tags = [fields[c] for c in _TAG_COLUMNS if fields.get(c, "").strip()]
        if tags:
            fields["keywords"] = "; ".join(tags)
    container = next((fields[c] for c in _CONTAINER_COLUMNS if fields.get(c, "").strip()), "")
    if container:
        kind = entry_type(fields.get("entry_type", ""))
        fields.setdefault("booktitle" if kind == "inproceedings" else "journal", container)
    if fields.get("eid", "").strip() and fields.get("doi", "").strip():
        fields.pop("link", None)  # Scopus's own record, behind its login: the DOI's page instead
    for first, last in _PAGE_COLUMNS:
        start, end = fields.get(first, "").strip(), fields.get(last, "").strip()
        if start and not fields.get("pages", "").strip():
            fields["pages"] = f"{start}–{end}" if end else start
    return fields


def _delimiter(header: str, path: Path) -> str:
    """The delimiter of a header row: the candidate it holds most of, outside quotes.

    Only the delimiter is guessed: quoting is RFC 4180's, whatever the first rows hold
    (``csv.Sniffer`` guesses ``doublequote=False`` when no ``""`` appears early, and then
    splits every abstract that holds a quote).
    """
    outside = re.sub(r'"[^"]*"', "", header)
    counts = {d: outside.count(d) for d in ",\t;"}
    best = max(counts, key=lambda d: counts[d])
    if counts[best] == 0:
        return "\t" if path.suffix.lower() == ".tsv" else ","
    return best


#: Our CSV export writes a cell that a spreadsheet would run as a formula behind a "'", and
#: one that starts with quotes before such a character too: what follows the first quote is
#: the cell.
_FORMULA_GUARD = re.compile(r"^'(?='*[=+\-@\t\r\n])")


def read_csv(text: str, path: Path) -> ReadResult:
    """A CSV (or TSV) file (RFC 4180) with a header row that names an abstract or title column;
    above it, Excel's ``sep=`` line may name the delimiter.

    Quotes are read strictly: a row whose quote is not closed where it should be is refused,
    naming its lines, not read on into the rows after it as one (see ``_bad_quotes``).
    """
    stated, text = _excel_separator(text)
    header_line = re.split(r"\r\n|\r|\n", text[:65536], maxsplit=1)[0]
    delimiter = stated or _delimiter(header_line, path)
    csv.field_size_limit(max(MAX_ABSTRACT_CHARS * 50, 1 << 24))
    # newline="": rows end at CR, LF or CRLF alike, as the csv module reads them
    lines = _Lines(text, 1 if stated else 0)
    reader = csv.reader(lines, delimiter=delimiter, quotechar='"', doublequote=True, strict=True)
    try:
        header = next(reader)
    except (StopIteration, csv.Error):
        raise SourceError(f"{path}: not a CSV file with a header row") from None
    names = [_column(h) for h in header]
    if _TEXT_COLUMNS.isdisjoint(names):
        shown = printable(", ".join(h for h in names[:8] if h)) or "none"  # one line, always
        raise SourceError(f"{path}: the CSV has no abstract or title column (its columns: {shown})")
    result = ReadResult(source=str(path), list_name=path.stem)
    fields_of = wos_row if is_wos_table(names) else _fields
    number = 0
    while True:
        lines.start_record()
        try:
            row: list[str] | None = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:
            row = _bad_quotes(lines, exc, delimiter, len(header), result, number + 1)
        if row is None:
            number += 1
            continue
        if not any(cell.strip() for cell in row):
            continue
        number += 1
        fields = {
            names[i]: _FORMULA_GUARD.sub("", cell)
            for i, cell in enumerate(row)
            if i < len(names) and names[i]
        }
        result.add(number, fields_of(fields))
    return result


class _Lines:
    """A CSV text's lines (ended by CR, LF or CRLF) as ``csv.reader`` takes them, counted,
    with where the record being read starts: a row whose quotes went wrong is read again."""

    def __init__(self, text: str, before: int) -> None:
        self._text = io.StringIO(text, newline="")
        #: The number of the last line handed out (the file's: an Excel ``sep=`` line counts).
        self.number = before
        #: The last line handed out.
        self.line = ""
        self.first = self.start = self.after_first = 0

    def __iter__(self) -> _Lines:
        return self

    def __next__(self) -> str:
        self.line = self._text.readline()
        if not self.line:
            raise StopIteration
        self.number += 1
        if self.number == self.first:
            self.after_first = self._text.tell()
        return self.line

    def start_record(self) -> None:
        """The next line handed out is the first of a record."""
        self.first, self.start = self.number + 1, self._text.tell()

    def record(self) -> str:
        """The text of the record's lines handed out so far."""
        return self._text.getvalue()[self.start : self._text.tell()]

    def since_first(self) -> str:
        """The text of the record's lines after its first, up to the last handed out."""
        return self._text.getvalue()[self.after_first : self._text.tell()]

    def back_to_second(self) -> None:
        """Hand out the record's lines again from its second."""
        self._text.seek(self.after_first)
        self.number = self.first


def _bad_quotes(
    lines: _Lines, exc: csv.Error, delimiter: str, width: int, result: ReadResult, number: int
) -> list[str] | None:
    """What becomes of a record whose quotes the strict reading refused (``exc``): its row, or
    None when it is refused as record ``number``.

    A row of one line is read leniently (``"x" ,y`` is ``x ``): nothing else is in it. A quote
    that opens a field and is not closed on its line (a hand's edit, a tool that did not double
    an inner quote) reads on into the rows below, to the next quote or to the end. When that
    next quote opens a field of its own (it follows a delimiter) and the lines after the
    record's first are whole rows of the header's width, the first line alone is refused and
    they are read again as rows; else (an abstract of several lines whose inner quotes are not
    doubled) all its lines are refused together.
    """
    first, last = lines.first, lines.number
    span = f"line {first}" if first == last else f"lines {first}–{last}"
    never = "end of data" in str(exc)
    if first >= last and not never and "expected after" in str(exc):
        try:
            return next(csv.reader([lines.record()], delimiter=delimiter), [])
        except csv.Error as lenient:  # a field past the limit, after the quote
            exc = lenient
    if not never and "expected after" not in str(exc):  # no quote's fault: a field too long
        result.refuse(number, f"{span}: bad CSV row ({exc})")
        return None
    closed = "never closed" if never else f"closed on line {last} ({exc})"
    if first < last and (never or _opens_a_field(lines.line, delimiter)):
        rows: list[list[str]] = []
        after_first = io.StringIO(lines.since_first(), newline="")
        try:  # the rows up to the first of them whose own quotes go wrong
            for row in csv.reader(after_first, delimiter=delimiter, strict=True):
                rows.extend([row] if row else [])
        except csv.Error:
            pass
        if rows and all(width <= len(r) <= width + 1 for r in rows):
            lines.back_to_second()
            result.refuse(number, f"line {first}: a quote opened on it is {closed}; the line "
                          "is skipped, the lines after it read as rows")  # fmt: skip
            return None
    result.refuse(number, f"{span}: a quote opened on line {first} is {closed}; "
                  f"{'it is' if first == last else 'these lines are'} skipped")  # fmt: skip
    return None


def _opens_a_field(line: str, delimiter: str) -> bool:
    """Whether the quote that a field quoted since an earlier line found wrong on ``line``
    (the first quote followed by neither a quote, a delimiter nor the line's end) stands
    where a field starts: after a delimiter, or first on the line."""
    quoted, at = True, 0
    while at < len(line):
        if line[at] == '"' and quoted:
            after = line[at + 1 : at + 2]
            if after == '"':
                at += 2
                continue
            if after not in (delimiter, "\r", "\n", ""):
                return at == 0 or line[at - 1] == delimiter
            quoted = False
        elif line[at] == '"' and (at == 0 or line[at - 1] == delimiter):
            quoted = True
        at += 1
    return False


CSV_TSV = Reader(
    name="CSV/TSV",
    label="CSV",
    suffixes=CSV_SUFFIXES,
    sniff=sniff_csv,
    read=read_csv,
)
