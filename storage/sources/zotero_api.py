"""Zotero's Web API JSON: what ``GET /users/N/items?format=json`` answers (an array of items) and
``GET /users/N/items/KEY?format=json`` (one item, an object), Zotero's local API too.

Each item is ``{"key", "version", "library", "links", "meta", "data": {…}}``; its fields are in
``data``: ``itemType``, ``title``, ``creators`` (``{"creatorType", "firstName", "lastName"}``
or ``{"creatorType", "name"}``), ``abstractNote``, the container's title under the item type's
name for it (``publicationTitle``, ``proceedingsTitle``, ``bookTitle``, …), ``date`` as typed
(``meta.parsedDate`` is Zotero's reading of it), ``DOI``, ``url``, ``tags``, and ``extra``,
whose lines keep what the item type has no field for (``arXiv: 2401.01234``, ``DOI: 10.1/x``).

Notes and attachments are items too (``itemType`` ``note``, ``attachment``, ``annotation``), no
papers: a note under an item of the file (``parentItem``) becomes that paper's note (as text);
the rest is left out, said in one warning when it is a note or a standalone attachment.
Items in Zotero's trash (``deleted``) are left out and counted in that warning.
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Final

from storage.caps import MAX_NOTE_CHARS
from storage.errors import SourceError
from storage.sources.citation import doi_of, entry_type
from storage.sources.records import ARXIV_ID, ReadResult

__all__ = ["extra_ids", "read_zotero_items", "zotero_items"]

#: Item types that are no papers: what hangs under an item.
_CHILD_TYPES: Final = frozenset({"note", "attachment", "annotation"})
#: The creator types that are a work's authors (the item type's primary creator).
_PRIMARY: Final = (
    "author", "programmer", "inventor", "presenter", "director", "artist", "podcaster",
    "cartographer", "performer", "composer", "interviewee", "sponsor", "contributor",
)  # fmt: skip
#: The container's title, by the field it is under and the reference field it becomes.
_CONTAINERS: Final = (
    ("publicationTitle", "journal"),  # journalArticle, magazineArticle, newspaperArticle
    ("proceedingsTitle", "booktitle"),
    ("conferenceName", "booktitle"),
    ("bookTitle", "booktitle"),
    ("encyclopediaTitle", "booktitle"),
    ("dictionaryTitle", "booktitle"),
    ("websiteTitle", "container-title"),
    ("blogTitle", "container-title"),
    ("forumTitle", "container-title"),
    ("programTitle", "container-title"),
)
#: Where an item's title is: ``title``, else a case's, a statute's, an email's name for it.
_TITLES: Final = ("title", "caseName", "nameOfAct", "subject")
#: Reference fields Zotero names its own way (by item type), as ours.
_PLAIN: Final = (
    ("volume", "volume"), ("issue", "issue"), ("pages", "pages"), ("ISBN", "isbn"),
    ("ISSN", "issn"), ("publisher", "publisher"), ("university", "school"),
    ("institution", "institution"),
)  # fmt: skip
#: ``extra`` lines that name a field Zotero has no field for (``arXiv:2401.01234 [cs]``,
#: ``DOI: 10.1/x``); a preprint's ``archiveID`` (or CSV ``Number``) is ``arXiv:2401.01234``.
_EXTRA_ARXIV: Final = re.compile(
    rf"^arxiv:\s*({ARXIV_ID.pattern})(?:\s+\[[^\]\n]*\])?\s*$", re.IGNORECASE | re.MULTILINE
)
_EXTRA_DOI: Final = re.compile(r"^doi:[ \t]*(\S+)[ \t]*$", re.IGNORECASE | re.MULTILINE)


def extra_ids(extra: str, archive_id: str = "") -> tuple[str, str]:
    """The arXiv id and the DOI that Zotero's ``extra`` lines give (the arXiv id also a
    preprint's archive id, its CSV's ``Number``); "" for none. Prose that mentions an id is
    no such line."""
    arxiv = next(
        (f.group(1) for t in (extra, archive_id) if (f := _EXTRA_ARXIV.search(t[:20_000]))), ""
    )
    line = _EXTRA_DOI.search(extra[:20_000])
    return arxiv, doi_of(line.group(1)) if line else ""


def _data(item: Any) -> Mapping[str, Any] | None:
    """A Zotero item's ``data``, or None for anything else."""
    if not isinstance(item, Mapping):
        return None
    data = item.get("data")
    if isinstance(data, Mapping) and isinstance(data.get("itemType"), str) and "key" in item:
        return data
    return None


def zotero_items(data: Any) -> list[Any] | None:
    """The items of a Zotero API answer: an array of them, or one item; None for no such
    answer (most of an array's first objects must be items)."""
    if _data(data) is not None:
        return [data]
    if isinstance(data, list) and data:
        sample = data[:20]
        if sum(_data(x) is not None for x in sample) * 2 > len(sample):
            return data
    return None


def _text(value: Any) -> str:
    return value.strip() if isinstance(value, str) else ""


def _people(creators: Any) -> list[str]:
    """The authors among an item's creators (the primary creator type, else every creator)."""
    if not isinstance(creators, list):
        return []
    named: list[tuple[str, str]] = []
    for person in creators[:5000]:
        if not isinstance(person, Mapping):
            continue
        name = _text(person.get("name")) or " ".join(
            p for p in (_text(person.get("firstName")), _text(person.get("lastName"))) if p
        )
        if name:
            named.append((_text(person.get("creatorType")), name))
    primary = [name for kind, name in named if kind in _PRIMARY]
    return primary or [name for _, name in named]


_MONTHS: Final = {
    name: number
    for number, name in enumerate(
        ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"), 1
    )
}
_ISO: Final = re.compile(r"(\d{4})(?:[-/.](\d{1,2})(?:[-/.](\d{1,2}))?)?(?!\d)")
_NUMERIC: Final = re.compile(r"(?<!\d)(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})(?!\d)")
_YEAR: Final = re.compile(r"(?<!\d)([12]\d{3})(?!\d)")
_MONTH_WORD: Final = re.compile(rf"\b({'|'.join(_MONTHS)})[a-z]*\.?", re.IGNORECASE)
_DAY: Final = re.compile(r"(?<![\d:])(\d{1,2})(?:st|nd|rd|th)?(?![\d:])")


def zotero_date(text: str) -> tuple[int | None, int | None, int | None]:
    """Year, month and day of a date as Zotero users type it: ``2024-05-07``, ``2024/5``,
    ``May 7, 2024``, ``7 May 2024``, ``05/07/2024`` (month first, as Zotero reads it, unless
    the first number cannot be a month), ``7.5.2024``, ``Spring 2024``, ``2024``; None for
    what it does not give."""
    text = text.strip()[:100]
    iso = _ISO.match(text)
    if iso and (dated := _checked(*(int(g) if g else None for g in iso.groups())))[0]:
        return dated
    numeric = _NUMERIC.search(text)
    if numeric:
        first, second, number = (int(g) for g in numeric.groups())
        if "." in numeric.group() or first > 12:  # 7.5.2024, 25/12/2024: the day first
            first, second = second, first
        return _checked(number, first, second)
    year = _YEAR.search(text)
    if year is None:
        return None, None, None
    word = _MONTH_WORD.search(text)
    month = _MONTHS[word.group(1).casefold()] if word else None
    day = _DAY.search(text.replace(year.group(), " ")) if word else None
    return _checked(int(year.group(1)), month, int(day.group(1)) if day else None)


def _checked(
    year: int | None, month: int | None, day: int | None
) -> tuple[int | None, int | None, int | None]:
    if year is None or not 1000 <= year <= 2999:
        return None, None, None
    if month is None or not 1 <= month <= 12:
        return year, None, None
    return year, month, day if day is not None and 1 <= day <= 31 else None


def _dated(fields: dict[str, Any], data: Mapping[str, Any], meta: Any) -> None:
    """``year``, ``month`` and a full ``date`` from Zotero's reading of the date, else ours."""
    parsed = _text(meta.get("parsedDate")) if isinstance(meta, Mapping) else ""
    year, month, day = zotero_date(parsed) if parsed else (None, None, None)
    if year is None:
        year, month, day = zotero_date(_text(data.get("date")))
    if year is None:
        return
    fields["year"] = str(year)
    if month is not None:
        fields["month"] = month
        if day is not None:
            fields["date"] = f"{year:04d}-{month:02d}-{day:02d}"


def _fields(data: Mapping[str, Any], meta: Any) -> dict[str, Any]:
    """An item's fields under the names ``record_from_fields`` reads."""
    kind = _text(data.get("itemType"))
    fields: dict[str, Any] = {
        # a legal case's, a statute's, an email's title is under its own name
        "title": next((_text(data[n]) for n in _TITLES if _text(data.get(n))), ""),
        "abstract": _text(data.get("abstractNote")),
        "authors": _people(data.get("creators")),
        "url": _text(data.get("url")),
        "entry_type": entry_type(kind),
    }
    for name, ours in _CONTAINERS:
        value = _text(data.get(name))
        if value and not fields.get(ours):
            if ours == "journal" and fields["entry_type"] not in ("article", "misc"):
                ours = "container-title"  # a magazine's, a newspaper's; not a proceedings'
            fields[ours] = value
    for name, ours in _PLAIN:
        if value := _text(data.get(name)):
            fields[ours] = value
    repository = _text(data.get("repository"))  # a preprint's server: arXiv is no venue
    if repository and repository.casefold() != "arxiv" and "publisher" not in fields:
        fields["publisher"] = repository
    arxiv, doi = extra_ids(_text(data.get("extra")), _text(data.get("archiveID")))
    fields["doi"] = doi_of(_text(data.get("DOI"))) or _text(data.get("DOI")) or doi
    if arxiv:
        fields["eprint"], fields["archiveprefix"] = arxiv, "arXiv"
    tags = data.get("tags")
    if isinstance(tags, list):
        words = (_text(t.get("tag")) if isinstance(t, Mapping) else _text(t) for t in tags[:1000])
        fields["keywords"] = list(dict.fromkeys(w for w in words if w))
    _dated(fields, data, meta)
    return {k: v for k, v in fields.items() if v not in ("", [], None)}


_BREAKS: Final = re.compile(r"<\s*(?:br\s*/?|/\s*(?:p|div|h[1-6]|li|blockquote|pre|tr)\s*)>", re.I)
_TAG: Final = re.compile(r"<[^<>]{0,2000}>")


def note_text(note: str) -> str:
    """A Zotero note (HTML) as text: its paragraphs on lines of their own, no markup."""
    text = _TAG.sub("", _BREAKS.sub("\n", note[: 4 * MAX_NOTE_CHARS]))
    lines = (" ".join(html.unescape(line).split()) for line in text.splitlines())
    return "\n".join(line for line in lines if line)


def read_zotero_items(items: Sequence[Any], path: Path) -> ReadResult:
    """Every paper of a Zotero API answer, its notes as its note (see the module)."""
    result = ReadResult(source=str(path), list_name=path.stem)
    notes: dict[str, list[str]] = {}
    papers: list[tuple[int, Mapping[str, Any], Any]] = []
    keys: set[str] = set()
    left_notes = left_files = trashed = 0
    number = 0
    for item in items:
        data = _data(item)
        kind = _text(data.get("itemType")) if data is not None else ""
        if data is not None and kind in _CHILD_TYPES:
            parent = _text(data.get("parentItem"))
            if kind == "note" and parent and isinstance(data.get("note"), str):
                notes.setdefault(parent, []).append(note_text(data["note"]))
            elif kind == "note":
                left_notes += 1
            elif not parent:
                left_files += 1
            continue
        number += 1
        if data is None:
            result.refuse(number, "not a Zotero item (no data with an itemType)")
        elif data.get("deleted") in (1, True, "1", "true"):
            trashed += 1
            number -= 1
        else:
            papers.append((number, data, item.get("meta")))
            keys.add(_text(data.get("key")) or _text(item.get("key")))
    left_notes += sum(len(texts) for key, texts in notes.items() if key not in keys)
    for number, data, meta in papers:
        fields = _fields(data, meta)
        key = _text(data.get("key"))
        note = "\n\n".join(t for t in notes.get(key, ()) if t)
        if len(note) > MAX_NOTE_CHARS:
            result.warnings.append(
                f"{path}: record {number}: its notes are {len(note):,} characters long: "
                f"the first {MAX_NOTE_CHARS:,} kept as its note"
            )
            note = note[: MAX_NOTE_CHARS - 1] + "…"
        if note:
            fields["note"] = note
        result.add(number, fields)
    _say_left_out(result, path, left_notes, left_files, trashed)
    if not result.records and not result.errors:
        raise SourceError(
            f"{path}: a Zotero export of no papers: {len(items):,} notes, attachments or "
            "trashed items"
        )
    return result


def _say_left_out(result: ReadResult, path: Path, notes: int, files: int, trashed: int) -> None:
    parts = [
        f"{n:,} {one if n == 1 else many}"
        for n, one, many in (
            (notes, "note with no item in the file", "notes with no item in the file"),
            (files, "standalone attachment", "standalone attachments"),
            (trashed, "item in the trash", "items in the trash"),
        )
        if n
    ]
    if parts:
        result.warnings.append(f"{path}: {', '.join(parts)}: no papers, left out")
