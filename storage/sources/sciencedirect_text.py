"""ScienceDirect's plain-text citations ("Export citation → Export citation to text", with or
without the abstract): one entry per paragraph, a field a line, each line ending in a comma,

    Kaspars Sudars, Janis Jasko, Ivars Namatevs,
    Dataset of annotated food crops and weed images for robotic computer vision control,
    Data in Brief,
    Volume 31,
    2020,
    105833,
    ISSN 2352-3409,
    https://doi.org/10.1016/j.dib.2020.105833.
    (https://www.sciencedirect.com/science/article/pii/S2352340920307277)
    Abstract: Weed management technologies …
    Keywords: Machine vision; Weed detection

(a book chapter's with ``Editor(s): …``, the book's title and publisher, ``Pages 1-20`` and
an ``ISBN``; a journal's ``Volume 12, Issue 3,`` on one line). A chapter of no author (a
book's preface) has no line of authors before its title: its book's editors are its people.

Told from a list of abstracts by its structure (``looks_like_sciencedirect``): the article's
page in parentheses on a line of its own, or a ``https://doi.org/`` line after an ``ISSN`` or
``ISBN`` line, in most of the file's first paragraphs.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Final

from storage.sources.citation import doi_of
from storage.sources.paragraphs import mostly_entries, read_entries
from storage.sources.records import Fit, Reader, ReadResult

__all__ = ["SCIENCEDIRECT_TEXT", "looks_like_sciencedirect", "read_sciencedirect"]

#: The article's page, in parentheses on its own line.
_PAGE: Final = re.compile(r"^\((https?://\S+)\)$")
_OWN_PAGE: Final = re.compile(
    r"^\(https?://(?:www\.)?sciencedirect\.com/science/article/\S+\)\s*$", re.I | re.M
)
_DOI_LINE: Final = re.compile(r"^https?://(?:dx\.)?doi\.org/(10\.\S+?)\.?$", re.I)
_SERIAL: Final = re.compile(r"^IS[SB]N\s+\S", re.M)
_VOLUME: Final = re.compile(r"^Volume\s+([^,]+?)(?:,\s*(?:Issue|Part)\s+(.+))?$", re.I)
_ISSUE: Final = re.compile(r"^Issue\s+(.+)$", re.I)
_PAGES: Final = re.compile(r"^Pages?\s+(.+)$", re.I)
_YEAR: Final = re.compile(r"^(?:19|20)\d\d$")
_NUMBER: Final = re.compile(r"^[A-Z]?\d{1,12}$")
_ISSN: Final = re.compile(r"^ISSN\s+(.+)$", re.I)
_ISBN: Final = re.compile(r"^ISBN\s+(.+)$", re.I)
_EDITORS: Final = re.compile(r"^Editor\(s\):", re.I)


def _is_entry(paragraph: str) -> bool:
    """Whether a paragraph is a ScienceDirect entry (see the module)."""
    if _OWN_PAGE.search(paragraph):
        return True
    lines = paragraph.split("\n")
    doi = next((i for i, line in enumerate(lines) if _DOI_LINE.match(line.strip())), None)
    return doi is not None and doi >= 2 and _SERIAL.search("\n".join(lines[:doi])) is not None


def looks_like_sciencedirect(text: str) -> bool:
    """Whether most of the first paragraphs (a heading line aside) are ScienceDirect entries."""
    return mostly_entries(text, _is_entry)


def sniff_sciencedirect(text: str, path: Path) -> Fit:
    return Fit.HINTED if looks_like_sciencedirect(text) else Fit.NO


def _head(fields: dict[str, Any], lines: list[str]) -> None:
    """The lines before the DOI: the authors, the title, the journal (or the book and its
    publisher), and the volume, issue, year, pages, ISSN or ISBN, each known by its form."""
    named: list[str] = []
    book = False
    editors: list[str] = []
    before_editors = -1  # the lines named before the ``Editor(s):`` line: author(s), title
    for line in lines:
        if m := _VOLUME.match(line):
            fields["volume"] = m.group(1)
            if m.group(2):
                fields["issue"] = m.group(2)
        elif m := _ISSUE.match(line):
            fields["issue"] = m.group(1)
        elif m := _PAGES.match(line):
            fields["pages"] = m.group(1)
        elif _YEAR.match(line) and len(named) >= 2:
            fields["year"] = line
        elif m := _ISSN.match(line):
            fields["issn"] = m.group(1)
        elif m := _ISBN.match(line):
            fields["isbn"], book = m.group(1), True
        elif m := _EDITORS.match(line):
            book, before_editors = True, len(named)
            editors = [e.strip() for e in line[m.end() :].split(", ") if e.strip()]
        elif _NUMBER.match(line) and len(named) >= 2 and "pages" not in fields:
            fields["pages"] = line  # an article number (e-locator): 105833
        else:
            named.append(line)
    if len(named) == 1:
        fields["title"] = named[0]
        return
    if len(named) == 2:  # no authors (an editorial)
        title, venue, rest = named[0], named[1], []
    elif before_editors == 1:  # a chapter of no author (a preface): its book's editors'
        title, venue, rest = named[0], named[1], named[2:]
        fields["authors"], fields["edited_by"] = editors, True
    else:
        fields["authors"] = [a.strip() for a in named[0].split(", ") if a.strip()]
        title, venue, rest = named[1], named[2], named[3:]
    fields["title"] = title
    if book:
        fields["entry_type"], fields["booktitle"] = "incollection", venue
        if rest:
            fields["publisher"] = rest[0]
    else:
        fields["entry_type"], fields["journal"] = "article", venue


def _entry(paragraph: str) -> dict[str, Any]:
    """An entry's fields under the names ``record_from_fields`` reads."""
    lines = [line.strip() for line in paragraph.split("\n")]
    fields: dict[str, Any] = {}
    head: list[str] = []
    abstract: list[str] = []
    at_head = True
    for line in lines:
        doi = _DOI_LINE.match(line)
        page = _PAGE.match(line)
        if doi or page or line[:9].casefold() in ("abstract:", "keywords:"):
            at_head = False
        if at_head:
            head.append(line.removesuffix(",").strip())
        elif doi:
            fields["doi"] = doi_of(doi.group(1)) or doi.group(1)
        elif page:
            fields["url"] = page.group(1)
        elif line[:9].casefold() == "abstract:":
            abstract = [line[9:].strip()]
        elif line[:9].casefold() == "keywords:":
            fields["keywords"] = [k.strip() for k in line[9:].split(";") if k.strip()]
            abstract.append("\0")  # the abstract has ended
        elif abstract and abstract[-1] != "\0":
            abstract.append(line)
    _head(fields, head)
    fields["abstract"] = " ".join(a for a in abstract if a != "\0")
    return {k: v for k, v in fields.items() if v not in ("", [], None)}


def read_sciencedirect(text: str, path: Path) -> ReadResult:
    """Every entry of a ScienceDirect plain-text export (see the module)."""
    return read_entries(text, path, _is_entry, _entry, "ScienceDirect")


SCIENCEDIRECT_TEXT = Reader(
    name="ScienceDirect plain text",
    label="ScienceDirect text",
    suffixes=(),
    sniff=sniff_sciencedirect,
    read=read_sciencedirect,
)
