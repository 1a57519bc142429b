"""IEEE Xplore's plain-text citations ("Export → Citations → Plain Text", with or without the
abstract): one entry per paragraph, its first line the citation as IEEE prints it,

    A. Author, B. -G. Author and C. Author, "Title," in IEEE Transactions on X, vol. 45,
    no. 3, pp. 1234-1245, 1 March 2023, doi: 10.1109/TPAMI.2022.1234567.

(a conference paper's without ``in``: ``"Title," 2017 IEEE Winter Conference on Applications
of Computer Vision (WACV), Santa Rosa, CA, USA, 2017, pp. 464-472, doi: …``; seven authors or
more as ``A. Author et al.``), then the lines ``Abstract: …``, ``keywords: {a;b;c},`` and
``URL: https://ieeexplore.ieee.org/stamp/stamp.jsp?tp=&arnumber=N…``, each when exported.

Told from a list of abstracts by its structure (``looks_like_ieee``): the citation line (a
quoted title ending in a comma, a DOI or a year after it) followed by IEEE's own lines, in most
of the file's first paragraphs; a list whose abstracts quote a title or name a DOI is not one.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Final

from storage.sources.citation import doi_of
from storage.sources.paragraphs import mostly_entries, read_entries
from storage.sources.records import Fit, Reader, ReadResult

__all__ = ["IEEE_TEXT", "looks_like_ieee", "read_ieee"]

#: How an IEEE citation ends: its DOI, or a year with the pages or date before it.
_ENDING: Final = re.compile(
    r"(?:,\s+doi:\s*10\.\d{3,9}/\S+|(?:19|20)\d\d(?:,\s+(?:pp?\.|Art\b)[^,]*)?)\.?\s*$"
)
#: IEEE's own lines after the citation.
_OWN_LINE: Final = re.compile(r"^(?:Abstract:|keywords:\s*\{|URL:\s*https?://)", re.I | re.M)
_DOI: Final = re.compile(r",?\s*doi:\s*(10\.\d{3,9}/\S+?)\.?\s*$", re.I)
_ARNUMBER: Final = re.compile(r"^https?://ieeexplore\.ieee\.org/\S*?[?&]arnumber=(\d+)", re.I)
_VOLUME: Final = re.compile(r"^vol\.\s*(.*)$", re.I)
_ISSUE: Final = re.compile(r"^no\.\s*(.*)$", re.I)
_PAGES: Final = re.compile(r"^(?:pp?\.|Art\.?\s*no\.)\s*(.*)$", re.I)
_YEAR: Final = re.compile(r"(?<!\d)((?:19|20)\d\d)(?!\d)")
_MONTH: Final = re.compile(r"\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b", re.I)
_MONTHS: Final = (
    "jan",
    "feb",
    "mar",
    "apr",
    "may",
    "jun",
    "jul",
    "aug",
    "sep",
    "oct",
    "nov",
    "dec",
)
#: A date as IEEE writes it: ``1 March 2023``, ``Feb. 2020``, ``Summer 2019``, ``1 Jan.1,``.
_DATE_WORDS: Final = re.compile(
    r"^(?:\d{1,2}\s+)?(?:[A-Za-z]+\.?(?:\s*\d{1,2})?(?:\s*[-–]\s*[A-Za-z]+\.?)?\s+)?"
    r"(?:(?:19|20)\d\d)?$"
)
_JOURNAL_WORDS: Final = re.compile(r"transactions|journal|letters|magazine|access\b|review", re.I)
_MEETING_WORDS: Final = re.compile(r"conference|symposium|workshop|congress|proceedings", re.I)
#: ``B. -G. Lee`` as IEEE prints a hyphenated given name: ``B.-G. Lee``.
_HYPHEN_INITIAL: Final = re.compile(r"\.\s+-\s*(?=\w)")
_AUTHOR_SPLIT: Final = re.compile(r",\s+(?:and\s+)?|\s+and\s+")


def _split(line: str) -> tuple[str, str, str] | None:
    """The citation line's authors (none for a standard), its title (quoted, IEEE's comma
    inside the quotes) and the rest after it, which holds no quote (the venue, volume, pages,
    date, DOI); None for a line of another shape. Linear in the line."""
    line = line.strip()
    if line.startswith('"'):
        authors, start = "", 1
    else:
        comma = line.find(', "')
        if comma < 0:
            return None
        authors, start = line[:comma], comma + 3
    end = line.rfind('"')
    if end < start or not line[end + 1 : end + 2].isspace():
        return None
    return authors, line[start:end].strip().removesuffix(",").strip(), line[end + 1 :].strip()


def _is_entry(paragraph: str) -> bool:
    """Whether a paragraph is an IEEE entry: the citation line, ending as IEEE ends it, and a
    DOI in it or IEEE's own lines after it."""
    first, _, after = paragraph.partition("\n")
    if _split(first) is None or not _ENDING.search(first[-300:]):
        return False
    return _DOI.search(first[-1000:]) is not None or _OWN_LINE.search(after) is not None


def looks_like_ieee(text: str) -> bool:
    """Whether most of the first paragraphs (a heading line aside) are IEEE entries."""
    return mostly_entries(text, _is_entry)


def sniff_ieee(text: str, path: Path) -> Fit:
    return Fit.HINTED if looks_like_ieee(text) else Fit.NO


def _authors(text: str) -> list[str]:
    text = _HYPHEN_INITIAL.sub(".-", text.strip())
    etal = re.search(r"\s+et\s+al\.?$", text)
    names = [n.strip() for n in _AUTHOR_SPLIT.split(text[: etal.start()] if etal else text)]
    return [n for n in names if n] + (["et al."] if etal else [])


def _date(segment: str) -> tuple[str, int | None]:
    year = _YEAR.search(segment)
    month = _MONTH.search(segment)
    number = _MONTHS.index(month.group(1).casefold()) + 1 if month else None
    return (year.group(1) if year else ""), number


def _citation(fields: dict[str, Any], line: str) -> None:
    """The fields of the citation line (``_split``)."""
    found = _split(line)
    if found is None:
        return
    authors, fields["title"], rest = found
    fields["authors"] = _authors(authors)
    doi = _DOI.search(rest, max(0, len(rest) - 1000))
    if doi:
        fields["doi"] = doi_of(doi.group(1)) or doi.group(1)
        rest = rest[: doi.start()]
    rest = rest.rstrip(" .,")
    journal = rest[:3].casefold() == "in "
    segments = [s.strip() for s in (rest[3:] if journal else rest).split(",")]
    venue: list[str] = []
    known = False
    for index, segment in enumerate(segments):
        if index == 0:  # the venue's name, whatever it holds (``ICASSP 2023``)
            venue.append(segment)
        elif m := _VOLUME.match(segment):
            fields["volume"], known = m.group(1), True
        elif m := _ISSUE.match(segment):
            fields["issue"], known = m.group(1), True
        elif m := _PAGES.match(segment):
            fields.setdefault("pages", m.group(1))
            known = True
        elif segment and _DATE_WORDS.match(segment) and _YEAR.search(segment):
            year, month = _date(segment)
            fields["year"] = year
            if month and journal:
                fields["month"] = month
            known = True
        elif not known:
            venue.append(segment)
    if not journal:  # a conference's name, then where it was: up to its ``(ACRONYM)``
        ends = [i for i, s in enumerate(venue) if s.endswith(")")]
        venue = venue[: ends[0] + 1] if ends else venue[:1]
    name = ", ".join(s for s in venue if s)
    if journal and (fields.get("volume") or _JOURNAL_WORDS.search(name)):
        fields["entry_type"], fields["journal"] = "article", name
    elif not journal or _MEETING_WORDS.search(name):
        fields["entry_type"], fields["booktitle"] = "inproceedings", name
    else:
        fields["entry_type"], fields["booktitle"] = "incollection", name


def _entry(paragraph: str) -> dict[str, Any]:
    """An entry's fields under the names ``record_from_fields`` reads."""
    lines = [line.strip() for line in paragraph.split("\n")]
    fields: dict[str, Any] = {}
    _citation(fields, lines[0])
    abstract: list[str] = []
    for line in lines[1:]:
        low = line[:12].casefold()
        if low.startswith("abstract:"):
            abstract = [line[9:].strip()]
        elif low.startswith("keywords:"):
            words = line[9:].strip().rstrip(",").strip().removeprefix("{").removesuffix("}")
            fields["keywords"] = [w.strip() for w in words.split(";") if w.strip()]
            abstract.append("\0")  # the abstract has ended
        elif low.startswith("url:"):
            url = line[4:].strip()
            number = _ARNUMBER.match(url)
            fields["url"] = (
                f"https://ieeexplore.ieee.org/document/{number.group(1)}" if number else url
            )
        elif abstract and abstract[-1] != "\0":
            abstract.append(line)
    fields["abstract"] = " ".join(a for a in abstract if a != "\0")
    return {k: v for k, v in fields.items() if v not in ("", [], None)}


def read_ieee(text: str, path: Path) -> ReadResult:
    """Every entry of an IEEE Xplore plain-text download (see the module)."""
    return read_entries(text, path, _is_entry, _entry, "IEEE Xplore")


IEEE_TEXT = Reader(
    name="IEEE Xplore plain text",
    label="IEEE Xplore text",
    suffixes=(),
    sniff=sniff_ieee,
    read=read_ieee,
)
