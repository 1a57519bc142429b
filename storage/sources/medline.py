"""PubMed's MEDLINE format: "Send to → Citation manager" (``.nbib``) and "Save → PubMed"
(``pubmed-….txt``), one record per citation, told by how it opens (``PMID- ``), so that it is
never read as a plain-text list of abstracts (each record's tags a paragraph, its ``PMID``
line its title).

A line is a tag of up to four characters padded to four, ``- `` and a value (``PMID-
30501481``, ``TI  - Title.``, ``FAU - Woyach, Jennifer A``); a line starting with six spaces
goes on with the tag before it (titles, abstracts and affiliations wrapped, most lines with a
space at their end). A record runs from its ``PMID`` line to the next one; a blank line
parts them.

Tags read: ``TI`` (title; its closing full stop, which MEDLINE adds, off; a book's ``BTI``
when there is none), ``AB`` (abstract), ``FAU`` (authors' full names, ``Last, First``; else
``AU``, ``Woyach JA``; else the group's name ``CN``; else a book's editors ``FED``/``ED``,
which beside authors are a chapter's book's; a suffix, ``Jr`` or NLM's ``3rd``, kept apart),
``DP`` (``2018 Dec 27``, ``2019 Jan-Feb``: the year and month), ``JT`` (the journal; its
abbreviation ``TA`` when it is missing), ``VI``, ``IP``, ``PG`` (``2517-28``), ``LID`` and
``AID`` (the DOI, marked ``[doi]``), ``IS`` (the first ISSN), ``PB`` (a book's publisher),
``OT`` (the authors' keywords), ``PT`` (``Journal Article``, a ``Preprint``, a book; a chapter
of one, Bookshelf's, has its own ``TI`` beside its book's ``BTI``) and the
``PMID`` itself, whose PubMed page is the record's link.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, Final

from storage.errors import SourceError
from storage.sources.authors import flat_name, is_suffix, last_first
from storage.sources.records import Fit, Reader, ReadResult

#: A tagged line: the tag (letters, up to four, padded with spaces to four) and its value.
_TAG: Final = re.compile(r"([A-Z][A-Z0-9]{1,3}) {0,2}- ?(.*)")
#: How a MEDLINE file opens: its first record's PMID.
_OPENING: Final = re.compile(r"PMID- ?\d")
#: Tags whose lines are one value each (authors, keywords), not one value wrapped.
_LISTS: Final = frozenset({"FAU", "AU", "CN", "FED", "ED", "OT", "IS", "LID", "AID", "PT"})
#: A DOI as ``LID`` and ``AID`` mark it.
_DOI: Final = re.compile(r"(10\.\S+)\s*\[doi\]", re.IGNORECASE)
_MONTHS: Final = {m: i for i, m in enumerate(
    ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"), 1
)}  # fmt: skip
#: The longest a value may grow by its continued lines (an abstract is refused past 20,000).
MAX_VALUE_CHARS: Final = 200_000


def sniff_medline(text: str, path: Path) -> Fit:
    """A MEDLINE file opens with its first record's ``PMID-`` line."""
    return Fit.OPENS if _OPENING.match(text.lstrip("\ufeff \t\r\n")) else Fit.NO


def _records(text: str) -> Iterator[dict[str, list[str]]]:
    """Each record's tags and their values (a list tag's one per line), in order."""
    tags: dict[str, list[list[str]]] | None = None
    going: list[str] | None = None  # the pieces of the value its next lines go on
    size = 0
    for line in text.splitlines():
        if line.startswith("      ") and going is not None:  # the tag before goes on
            size += len(line)
            if size <= MAX_VALUE_CHARS:  # (past it, cut: an abstract is refused at 20,000)
                going.append(line.strip())
            continue
        match = _TAG.fullmatch(line.rstrip())
        if match is None:
            continue  # a blank line between records
        tag, value = match.group(1), match.group(2).strip()
        if tag == "PMID":
            if tags is not None:
                yield _joined(tags)
            tags = {}
        elif tags is None:
            continue
        going, size = None, len(value)
        values = tags.setdefault(tag, [])
        if tag in _LISTS or not values:  # else a tag given twice that holds one value: the first
            going = [value]
            values.append(going)
    if tags is not None:
        yield _joined(tags)


def _joined(tags: dict[str, list[list[str]]]) -> dict[str, list[str]]:
    """A record's values, each the pieces of its lines joined (once: not line by line, which
    made a value of many lines quadratic to read)."""
    return {tag: [" ".join(pieces) for pieces in values] for tag, values in tags.items()}


def _date(published: str) -> tuple[str, str]:
    """The year and month of a ``DP`` (``2018 Dec 27``, ``2019 Jan-Feb``, ``2020 Spring``)."""
    parts = published.split()
    year = parts[0] if parts and re.fullmatch(r"\d{4}", parts[0]) else ""
    month = _MONTHS.get(parts[1][:3].casefold(), 0) if year and len(parts) > 1 else 0
    return year, str(month) if month else ""


def _title(tags: Mapping[str, list[str]]) -> str:
    title = " ".join(" ".join(tags.get("TI") or tags.get("BTI") or [""]).split())
    # MEDLINE ends every title with a full stop (not a title's own ``?`` or ``...``)
    return title[:-1] if title.endswith(".") and not title.endswith("..") else title


#: A name as ``AU`` and ``ED`` write it: the family name, then the initials without dots
#: (``Woyach JA``, ``van der Berg J``), then a suffix (``Baker JR Jr``).
_FAMILY_INITIALS: Final = re.compile(r"(?P<family>.*\S)\s+(?P<initials>[A-Z]{1,4})")


def _initialed(name: str) -> str:
    """``Woyach JA`` as the library keeps a name, ``J.A. Woyach`` (as Scopus's are read), so
    that the exports find its family name: an older record names its authors by ``AU`` alone,
    read whole its family name was ``JA``. A suffix stays last (``Baker JR Jr``: J.R. Baker
    Jr, not the name ``JR`` of a ``Baker``)."""
    words = name.split()
    suffix = words.pop() if len(words) > 2 and is_suffix(words[-1]) else ""
    found = _FAMILY_INITIALS.fullmatch(" ".join(words))
    if found is None:
        return " ".join(name.split())
    return flat_name(found["family"], f"{'.'.join(found['initials'])}.", suffix)


def _person(name: str, tag: str) -> str:
    """A name as the library keeps it, from its ``tag``: ``AU``'s or ``ED``'s initials
    (``_initialed``), a group's name as it is, ``FAU``'s or ``FED``'s ``Last, First``."""
    return _initialed(name) if tag in ("AU", "ED") else last_first(name)


def _record(tags: Mapping[str, list[str]]) -> dict[str, Any]:
    """A record's fields, under the names ``record_from_fields`` reads."""

    def one(tag: str) -> str:
        return " ".join(" ".join(tags.get(tag, [""])[:1]).split())

    tag, people = next(
        ((t, tags[t]) for t in ("FAU", "AU", "CN", "FED", "ED") if tags.get(t)), ("", [])
    )
    role, editors = next(((t, tags[t]) for t in ("FED", "ED") if tags.get(t)), ("", []))
    year, month = _date(one("DP"))
    kinds = {kind.casefold() for kind in tags.get("PT", [])}
    book = bool(tags.get("BTI")) or "book" in " ".join(kinds)
    # a chapter of a book (PubMed's Bookshelf): its own title, its book's (``BTI``)
    chapter = book and (bool(tags.get("TI")) or "book chapter" in kinds)
    preprint = "misc" if "preprint" in kinds else ""
    journal = one("JT") or one("TA")
    doi = next((m.group(1) for v in tags.get("LID", []) + tags.get("AID", [])
                if (m := _DOI.search(v))), "")  # fmt: skip
    pmid = one("PMID")
    fields: dict[str, Any] = {
        "title": _title(tags),
        "abstract": " ".join(" ".join(tags.get("AB", [])).split()),
        "authors": [_person(name, tag) for name in people if name.strip()],
        "edited_by": tag in ("FED", "ED"),
        "editors": [] if tag == role else [_person(n, role) for n in editors if n.strip()],
        "year": year,
        "month": month,
        "entry_type": "incollection" if chapter else "book" if book else preprint or "article",
        "journal": "" if book else journal,
        "booktitle": one("BTI") if chapter else "",
        "venue": journal,
        "volume": one("VI"),
        "issue": one("IP"),
        "pages": one("PG").replace("-", "–"),
        "doi": doi,
        "issn": re.sub(r"\s*\(.*", "", one("IS")),
        "publisher": one("PB"),
        "keywords": [k.strip() for k in tags.get("OT", []) if k.strip()],
        "url": [f"https://pubmed.ncbi.nlm.nih.gov/{pmid}/"] if pmid.isdigit() else [],
    }
    return {k: v for k, v in fields.items() if v}


def read_medline(text: str, path: Path) -> ReadResult:
    """Every record of a MEDLINE file (see the module)."""
    result = ReadResult(source=str(path), list_name=path.stem)
    number = 0
    for number, tags in enumerate(_records(text.lstrip("\ufeff")), 1):
        result.add(number, _record(tags))
    if number == 0:
        raise SourceError(f"{path}: a PubMed (MEDLINE) file with no record in it")
    return result


MEDLINE = Reader(
    name="PubMed (MEDLINE)",
    label="PubMed MEDLINE",
    suffixes=(".nbib", ".medline"),
    sniff=sniff_medline,
    read=read_medline,
)
