"""Web of Science exports: its "Plain text file" (``savedrecs.txt``: tagged lines) and its
"Tab delimited file" (a header row of the same tags), as Clarivate writes them (UTF-8 or
UTF-16, a BOM or none). Neither has a suffix of its own: each is told by how it opens
(``FN Clarivate Analytics Web of Science``, ``FN Thomson Reuters Web of Knowledge`` or ``FN
ISI Export Format``, then ``PT``; a header row starting ``PT\\t``),
so that a Web of Science file is never read as a plain-text list of abstracts.

Tagged: a record runs from ``PT`` to ``ER``; a line is a two-character tag, a space and a
value, and a line starting with three spaces goes on with the tag before it (one author a
line, a title or abstract wrapped). Tab delimited: one record a row, several values of a
field joined by ``"; "``.

Tags read: ``PT`` (J journal, B book, S series, P patent), ``DT`` (``Article``,
``Proceedings Paper``, ``Review``…), ``TI`` (title), ``AF`` (authors' full names, ``Last,
First``; else ``AU``, else the group's name ``CA``, else the book's editors ``BE``), ``AB``
(abstract), ``SO`` (journal or proceedings), ``CT``
(conference), ``PY`` (year), ``PD`` (``JUN 15``), ``EA`` and ``EY`` (an early-access
record's date, ``JAN 2024``, and year: its year when it has no ``PY``), ``VL``, ``IS``,
``BP``/``EP`` (pages), ``AR`` (article number), ``DI`` (DOI), ``SN``/``EI`` (ISSN), ``BN``
(ISBN), ``PU`` (publisher), ``DE`` (the authors' keywords), ``TC`` (times cited) and ``UT``
(the record's accession number).

Its Excel export, saved as CSV, names the same fields in words (``Article Title``, ``Source
Title``, ``Publication Date``): the CSV reader gives such rows to ``wos_row``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any, Final

from storage.errors import SourceError
from storage.sources.authors import last_first
from storage.sources.fields import year_in
from storage.sources.records import Fit, Reader, ReadResult

_TAG: Final = re.compile(r"([A-Z][A-Z0-9]) (.*)")
#: Its first line: Clarivate's (2017 on), Thomson Reuters' ("Web of Knowledge", 2008 to 2014,
#: or "Web of Science"), and ISI's "ISI Export Format" (before, INSPEC's records too).
_FIRST_LINE: Final = re.compile(
    r"FN (?:(?:Clarivate Analytics |Thomson Reuters )?Web of (?:Science|Knowledge)"
    r"|ISI Export Format)"
)
#: Tags whose lines (tagged) or ``;``-joined parts (tab delimited) are one value each.
_LISTS: Final = frozenset({"AU", "AF", "DE", "CA", "BE"})
_MONTHS: Final = {m: i for i, m in enumerate(
    ("JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"), 1
)}  # fmt: skip
#: The longest a value may grow by its continued lines (an abstract is refused past 20,000).
MAX_VALUE_CHARS: Final = 200_000


def sniff_wos(text: str, path: Path) -> Fit:
    """A Web of Science export opens with its ``FN`` line, or with a ``PT`` header column."""
    start = text.lstrip("\ufeff \t\r\n")[:200]
    if _FIRST_LINE.match(start) or start.startswith("PT\t"):
        return Fit.OPENS
    return Fit.NO


def _record(tags: Mapping[str, list[str]]) -> dict[str, Any]:
    """A record's fields, under the names ``record_from_fields`` reads."""

    def one(tag: str) -> str:
        return " ".join(" ".join(tags.get(tag, [])).split())

    kind = one("DT").casefold()
    publication = one("PT").upper()
    if "proceedings paper" in kind or (publication == "S" and one("CT")):
        entry = "inproceedings"
    elif publication == "B" or "book chapter" in kind:
        entry = "incollection" if one("SO") and one("TI") != one("SO") else "book"
    elif publication == "J" or "article" in kind or "review" in kind:
        entry = "article"
    else:
        entry = "misc"
    source = one("SO")
    start, end = one("BP"), one("EP")
    year, date = one("PY"), one("PD")
    if not year:  # early access, online before any issue: its year (EY), or its date's (EA)
        early = year_in(one("EA"))
        year, date = one("EY") or (str(early) if early else ""), date or one("EA")
    month = date.split(" ")[0][:3].upper()
    fields: dict[str, Any] = {
        "title": one("TI"),
        "abstract": "\n".join(tags.get("AB", [])).strip(),
        # a record that names no author: its group's name (``CA``), or its book's editors
        # (``BE``: a volume that names only its editors)
        "authors": [last_first(a) for a in next(_people(tags), []) if a.strip()],
        "edited_by": not any(n.strip() for t in ("AF", "AU", "CA") for n in tags.get(t, [])),
        # a chapter's book's editors (``BE``), beside its authors
        "editors": [last_first(n) for n in tags.get("BE", []) if n.strip()],
        "year": year,
        "month": str(_MONTHS[month]) if month in _MONTHS else "",
        "entry_type": entry,
        "journal": source if entry == "article" else "",
        "booktitle": (source or one("CT")) if entry in ("inproceedings", "incollection") else "",
        "venue": source or one("CT"),
        "volume": one("VL"),
        "issue": one("IS"),
        "pages": f"{start}–{end}" if start and end else start or one("AR"),
        "doi": one("DI"),
        "issn": one("SN") or one("EI"),
        "isbn": one("BN"),
        "publisher": one("PU"),
        "keywords": [k.strip() for kw in tags.get("DE", []) for k in kw.split(";") if k.strip()],
        "citations": one("TC"),
    }
    return {k: v for k, v in fields.items() if v}


def _people(tags: Mapping[str, list[str]]) -> Iterator[list[str]]:
    """A record's authors' names (``AF``, ``AU``), else its group authors' (``CA``), else its
    editors' (``BE``), whichever it gives first."""
    for tag in ("AF", "AU", "CA", "BE"):
        names = [n for n in tags.get(tag, []) if n.strip()]
        if names:
            yield names


def _tagged(text: str) -> Iterator[dict[str, list[str]]]:
    """The records of the tagged export, each its tags' values (a list's one per line)."""
    tags: dict[str, list[str]] | None = None
    last = ""
    size = 0
    for line in text.splitlines():
        if line.startswith("   ") and tags is not None and last:  # the tag before goes on
            size += len(line)
            if size <= MAX_VALUE_CHARS:
                values = tags[last]
                if last in _LISTS or last == "AB":
                    values.append(line.strip())
                else:
                    values[-1] = f"{values[-1]} {line.strip()}"
            continue
        match = _TAG.fullmatch(line.rstrip())
        tag = line.strip() if match is None else match.group(1)
        if tag == "PT" and match is not None:
            if tags is not None:  # the one before had no ER
                yield tags
            tags, last, size = {"PT": [match.group(2)]}, "PT", 0
        elif tag == "ER":
            if tags is not None:
                yield tags
            tags, last = None, ""
        elif tags is not None and match is not None:
            last, size = tag, len(match.group(2))
            tags.setdefault(tag, []).append(match.group(2).strip())
    if tags is not None:
        yield tags


def _delimited(text: str) -> Iterator[dict[str, list[str]]]:
    """The rows of the tab-delimited export, as ``_tagged`` gives records."""
    lines = text.lstrip("\ufeff").splitlines()
    header = [name.strip().lstrip("\ufeff") for name in lines[0].split("\t")] if lines else []
    for line in lines[1:]:
        if not line.strip():
            continue
        row: dict[str, list[str]] = {}
        for tag, value in zip(header, line.split("\t"), strict=False):
            value = value.strip()[:MAX_VALUE_CHARS]
            if value:
                row[tag] = value.split("; ") if tag in _LISTS else [value]
        yield row


#: The columns of Web of Science's Excel export (saved as CSV, its names as ``csv_lists``
#: reads them), by the tags of the plain-text export they hold.
_COLUMNS: Final = {
    "publication_type": "PT", "authors": "AU", "author_full_names": "AF",
    "group_authors": "CA", "book_editors": "BE",
    "article_title": "TI", "source_title": "SO", "document_type": "DT",
    "conference_title": "CT", "author_keywords": "DE", "abstract": "AB", "publisher": "PU",
    "issn": "SN", "eissn": "EI", "isbn": "BN", "publication_date": "PD",
    "publication_year": "PY", "volume": "VL", "issue": "IS", "start_page": "BP",
    "end_page": "EP", "article_number": "AR", "doi": "DI", "early_access_date": "EA",
    "times_cited,_wos_core": "TC", "ut_(unique_wos_id)": "UT",
}  # fmt: skip


def is_wos_table(columns: Iterable[str]) -> bool:
    """Whether a CSV's columns are those of Web of Science's Excel export: its accession
    number, or its own names for the title and the journal."""
    names = set(columns)
    return "ut_(unique_wos_id)" in names or {"article_title", "source_title"} <= names


def wos_row(row: Mapping[str, str]) -> dict[str, Any]:
    """A row of Web of Science's Excel export as the tagged export's record (``Article
    Title`` its title, ``Publication Date`` ``DEC`` its month, not a date)."""
    tags: dict[str, list[str]] = {}
    for column, value in row.items():
        tag, value = _COLUMNS.get(column), value.strip()[:MAX_VALUE_CHARS]
        if tag and value:
            tags[tag] = value.split("; ") if tag in _LISTS else [value]
    return _record(tags)


def read_wos(text: str, path: Path) -> ReadResult:
    """Every record of a Web of Science export (see the module)."""
    result = ReadResult(source=str(path), list_name=path.stem)
    start = text.lstrip("\ufeff \t\r\n")
    records = _delimited(start) if start.startswith("PT\t") else _tagged(start)
    number = 0
    for number, tags in enumerate(records, 1):
        result.add(number, _record(tags))
    if number == 0:
        raise SourceError(f"{path}: a Web of Science export with no record in it")
    return result


WEB_OF_SCIENCE = Reader(
    name="Web of Science",
    label="Web of Science",
    # what tools that read it name it (JabRef's ISI files .isi); Clarivate's own is savedrecs.txt
    suffixes=(".ciw", ".isi"),
    sniff=sniff_wos,
    read=read_wos,
)
