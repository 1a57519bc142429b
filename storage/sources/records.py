"""What every reader shares: the text it reads, the record it makes, and how it declares itself.

A reader (one module per format beside this one) turns a file's text into ``SourceRecord``s (the
fields a source gave, under our names) plus a ``RecordError`` for every record it could not
use, gathered in a ``ReadResult``; a file that cannot be read at all raises ``SourceError`` with
a one-line message. Each format declares itself once as a ``Reader``; ``registry.py`` lists them.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from enum import IntEnum
from functools import lru_cache
from pathlib import Path
from typing import Any

from storage.caps import MAX_ABSTRACT_CHARS, MAX_TITLE_CHARS, note_problem, tags_problem
from storage.errors import SourceError
from storage.importing.identity import is_placeholder, is_placeholder_title, says_no_abstract
from storage.models import Decision, ExtraValue, RecordError
from storage.sources.attachments import FILE_FIELDS, attachment
from storage.sources.authors import names_of
from storage.sources.citation import doi_of
from storage.sources.decisions import SUBMITTED
from storage.sources.fields import (
    BadField,
    decision_of,
    edited_by,
    extra_fields,
    lists_of,
    merge_extra,
    tied_again,
    triage_status,
    year_in,
    year_text,
)
from storage.sources.links import extract_github_links, github_from_code_field, web_url
from storage.sources.status_words import status_word, venue_status
from storage.sources.venues import cased_venue, find_year, status_of_venueid

#: Shorter than this, a paragraph is a stray line (a page number, a rule), not an abstract.
MIN_ABSTRACT_CHARS = 40
#: A first line (or a name field) this short names the list.
MAX_HEADER_CHARS = 150
#: The most of a file's text a reader's ``sniff`` looks at.
SNIFF_CHARS = 65536
#: Record errors a file lists; past them they are counted (``ReadResult.unlisted``).
MAX_LISTED_ERRORS = 10_000

# Field names real exports use, by the name we give the field.
ALIASES: dict[str, tuple[str, ...]] = {
    "title": ("title", "paper_title", "name_of_paper"),
    "abstract": ("abstract", "summary", "paper_abstract", "abstract_text", "tldr_abstract"),
    "authors": ("authors", "author", "author_names", "authors_list", "creators"),
    "url": (
        "url",
        "site",
        "forum",
        "openreview",
        "paper_url",
        "link",
        "html_url",
        "pdf_url",
        "pdf",
    ),
    "github": (
        "github",
        "code",
        "code_url",
        "github_url",
        "repo",
        "repository",
        "code_link",
        "repo_url",  # Papers with Code's links between papers and code
    ),
    "venue_status": ("venue_status", "status", "decision", "presentation"),
    "keywords": ("keywords", "keyword", "topics", "subjects"),
    # OpenReview API v2 says "ICLR 2025 Oral" in ``venue``, ``ICLR.cc/2025/Conference`` in
    # ``venueid``; BibTeX-like sources say ``booktitle`` or ``journal``, and ``year``.
    "venue": (
        "venue",
        "venueid",
        "conference",
        "booktitle",
        "journal",
        "container-title",
        "proceeding",  # Papers with Code ("NeurIPS 2017 12")
    ),
}


@dataclass(frozen=True, slots=True)
class SourceRecord:
    """One paper as a source gave it, under our field names; not yet cleaned.

    ``abstract`` is "" for a record without one (BibTeX, RIS, a title-only catalog): it then
    has a title, by which it is known.
    """

    abstract: str
    title: str = ""
    authors: tuple[str, ...] = ()
    url: str = ""
    github: tuple[str, ...] = ()
    venue_status: str = ""
    keywords: tuple[str, ...] = ()
    #: The venue as the source says it (``ICLR 2025 Oral``, a booktitle and its year).
    venue: str = ""
    extra: tuple[tuple[str, ExtraValue], ...] = ()
    #: The lists the source says the paper is in (our exports, a library); () for none.
    lists: tuple[str, ...] = ()
    #: What the user made of the paper, when the source says (our exports, a library).
    decision: Decision | None = None
    #: Where the record is in its file (1 for the first; 0 when not known): for the report.
    number: int = 0
    #: Its code links are all in ``github`` (our own exports): none are looked for in the
    #: abstract, whose display form may join a link to the text after it.
    links_given: bool = False
    #: Its abstract was left out as too short to be one (fewer than 20 letters or digits, a
    #: stray field), not saying there is none as a placeholder does: the report says so.
    short_abstract: bool = False


@dataclass(slots=True)
class ReadResult:
    """What a reader made of one file: the list's name, its records and the records it skipped."""

    source: str
    list_name: str
    records: list[SourceRecord] = field(default_factory=list)
    errors: list[RecordError] = field(default_factory=list)
    #: Records refused past the errors a reader lists (a file of a million bad rows).
    unlisted: int = 0
    #: Entries that are no papers but lend their fields to others (BibTeX ``crossref``).
    containers: int = 0
    #: What the reader left out or could not follow, one line each (a macro past its budget,
    #: a ``crossref`` cycle, a library's damaged ``triage.json``).
    warnings: list[str] = field(default_factory=list)
    #: It names files beside it that are not there (attachments): what it gives changes when
    #: they come, so an import of it is never answered again (``storage.importing.replay``).
    missing_files: bool = False
    #: It holds every accepted paper its source lists (a fetch of a venue's accepted papers,
    #: whole): a paper it brought before and not now has left the list
    #: (``storage.importing.departed``).
    every_accepted: bool = False
    #: With ``every_accepted``: it holds every public submission too, each with its decision
    #: (``--all``): a paper accepted before that it does not bring is no longer listed at all.
    every_submission: bool = False
    #: With ``every_accepted``: the parts of every submission its source refused (``--all``
    #: asked for them; OpenReview's 403 on its withdrawn ones, "withdrawn and desk rejected"),
    #: "" for none: the decision of a paper that left the accepted papers could not be read.
    refused: str = ""

    def add(self, number: int, fields: Mapping[str, Any]) -> None:
        """Shape record ``number``'s fields (lower-cased names) into a record, or note why not."""
        try:
            if not _FILE_NAMES.isdisjoint(fields) or _local_link(fields.get("pdf")):
                fields = with_attachment(fields, folder_of(self.source))
            record, problem = record_from_fields(fields, number)
        except BadField as exc:
            record, problem = None, str(exc)
        except (ValueError, TypeError, OverflowError, RecursionError, MemoryError) as exc:
            # a field no rule foresaw (a number of 400 digits, nesting past the limit): the
            # record is refused, the file goes on
            record, problem = None, f"a field cannot be read ({type(exc).__name__})"
        if record is None:
            self.refuse(number, problem)
        else:
            self.records.append(record)

    def refuse(self, number: int, reason: str) -> None:
        """Record ``number`` cannot be used, for ``reason``."""
        if len(self.errors) < MAX_LISTED_ERRORS:
            self.errors.append(RecordError(self.source, number, reason))
        else:
            self.unlisted += 1

    def expected(self) -> int:
        """How many records it holds (as ``RecordStream.expected`` says for a stream)."""
        return len(self.records)


@dataclass(slots=True)
class RecordStream:
    """What a reader makes of one file, record by record as it reads it (a large JSON Lines
    list, line by line): the records of a ``ReadResult`` without holding them all at once.

    ``records`` reads the file when iterated, once; ``errors`` fills as it goes, and a file
    found unreadable part way raises ``SourceError`` then.
    """

    source: str
    list_name: str
    records: Iterable[SourceRecord]
    errors: list[RecordError]
    #: How many records the file may hold (its lines: the records and the errors), for progress.
    expected: Callable[[], int]
    #: The file's size in bytes.
    size: int
    unlisted: int = 0
    containers: int = 0
    warnings: list[str] = field(default_factory=list)
    missing_files: bool = False


class Fit(IntEnum):
    """How strongly a file looks like a reader's format: the strongest fit reads the file."""

    NO = 0
    #: The reader takes any text: the last resort (the plain-text list).
    ANY = 1
    #: A hint: the file name, or a first line that reads like the format's header.
    HINTED = 2
    #: The file name names a strict format: the file is read as it, or refused saying why.
    NAMED = 3
    #: The text opens the way only this format opens (``[`` or ``{`` for JSON).
    OPENS = 4


@dataclass(frozen=True, slots=True)
class Reader:
    """One input format, declared once: its names, the files it owns, how to spot and read it."""

    #: What people call the format: "JSON Lines".
    name: str
    #: Its short form in a list of formats: "JSONL".
    label: str
    #: File name suffixes (lower case, with the dot) a folder's files are picked by; () for a
    #: format told by its content alone, whose files carry another's suffix (IEEE Xplore's and
    #: ScienceDirect's ``.txt`` downloads, picked by the plain-text list's; DBLP's ``.xml``,
    #: picked by EndNote XML's).
    suffixes: tuple[str, ...]
    #: How strongly ``(text, path)`` looks like this format, told by the start of the text:
    #: its leading whitespace and ``SNIFF_CHARS`` characters after it at most (a library's own
    #: files, known by their names, aside), so that a large file is known by its start.
    sniff: Callable[[str, Path], Fit]
    #: The file's records; ``SourceError`` when the file cannot be read as this format at all.
    read: Callable[[str, Path], ReadResult]


def decode(raw: bytes, path: Path) -> str:
    """Bytes to text: UTF-8 (with or without BOM) or BOM-marked UTF-16; anything else is refused."""
    if not raw.strip():
        raise SourceError(f"{path}: the file is empty, nothing to import")
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return raw.decode("utf-16")
        except UnicodeDecodeError:
            raise SourceError(f"{path}: not a text file (bad UTF-16)") from None
    if b"\x00" in raw[:65536]:
        raise SourceError(f"{path}: not a text file (it holds binary data)")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        declared = _DECLARED.search(raw[:1024])
        if declared is not None:  # a Windows install's JabRef, an XML export's declaration
            try:
                return raw.decode(declared.group(declared.lastindex or 1).decode("ascii"))
            except (LookupError, UnicodeDecodeError):
                pass
        raise not_utf8(path, exc.start) from None


#: The encoding a file declares at its top: JabRef's ``% Encoding: Cp1252`` (Java's names,
#: which Python's codecs also know), XML's ``<?xml version="1.0" encoding="ISO-8859-1"?>``.
_DECLARED = re.compile(
    rb"^%\s*Encoding:\s*([A-Za-z0-9_.-]{2,40})\s*$"
    rb"|\A\s*<\?xml\s[^>]{0,200}?\bencoding\s*=\s*[\"']([A-Za-z0-9_.-]{2,40})[\"']",
    re.MULTILINE,
)


def not_utf8(path: Path, at: int) -> SourceError:
    """The error for a file that is not UTF-8 text from byte ``at`` (after a BOM) on."""
    return SourceError(f"{path}: not UTF-8 text (byte {at} cannot be decoded); save it as UTF-8")


_NOT_SPACE = re.compile(r"\S")


def first_line(text: str, limit: int) -> str | None:
    """The first line that holds more than whitespace, from its first visible character.

    None when it is longer than ``limit``. Found without copying ``text``, so that every
    reader may sniff a large file.
    """
    start = _NOT_SPACE.search(text)
    if start is None:
        return ""
    window = start.start() + limit + 1
    end = text.find("\n", start.start(), window)
    line = text[start.start() : end if end >= 0 else window]
    return line if len(line) <= limit else None


def opening(text: str) -> str:
    """The first visible character of ``text`` ("" for none): ``[`` or ``{`` opens JSON."""
    start = _NOT_SPACE.search(text)
    return start.group() if start else ""


_ASCII_NOT_ALNUM = bytes(c for c in range(128) if not chr(c).isalnum())


def _alnum_count(text: str) -> int:
    """How many letters and digits ``text`` holds (ASCII counted in C: every record asks)."""
    if text.isascii():
        return len(text.encode("ascii").translate(None, _ASCII_NOT_ALNUM))
    return sum(map(str.isalnum, text))


def abstract_problem(text: str) -> str:
    """Why ``text`` cannot be an abstract, or "" when it can."""
    if len(text) > MAX_ABSTRACT_CHARS:
        return f"is {len(text):,} characters long, too long for an abstract"
    if _alnum_count(text[: MIN_ABSTRACT_CHARS * 4]) < MIN_ABSTRACT_CHARS // 2:
        return "is too short to be an abstract"
    return ""


def field_value(item: Mapping[str, Any], name: str) -> Any:
    """The first non-empty value of our field ``name`` under any of its ``ALIASES``, or None."""
    for alias in ALIASES[name]:
        value = item.get(alias)
        if value not in (None, "", [], {}):
            return value
    return None


def record_from_fields(item: Mapping[str, Any], number: int = 0) -> tuple[SourceRecord | None, str]:
    """Map a source's fields (lower-cased names) onto a ``SourceRecord``, or say what is missing.

    A record needs an abstract or a title; one with only a title is known by it. A ``status``
    that is a triage state ("starred") is the user's decision (our own exports), not the
    venue's; ``title_derived`` (ours too) drops the title, which is derived again.
    """
    item = _entities_decoded(item)
    nested = item.get("extra")
    if isinstance(nested, Mapping) and nested:  # our JSON export: reference fields read as flat
        flat = {k: v for k, v in nested.items() if k in _FLAT_EXTRA and k not in item}
        item = {**item, **flat} if flat else item
    item = _year_of_date(_arxiv_journal(item))
    abstract = field_value(item, "abstract")
    if abstract is not None and not isinstance(abstract, str):
        return None, "the abstract is not text"
    abstract = (abstract or "").strip()
    if len(abstract) > MAX_ABSTRACT_CHARS:
        return None, f"the abstract {abstract_problem(abstract)}"
    derived = item.get("title_derived") in (True, "true", "True")  # ours: derived again
    title = "" if derived else _one_line(field_value(item, "title"))
    if not abstract and not title:
        return None, "no abstract and no title"
    if abstract and (abstract_problem(abstract) or is_placeholder(abstract)):
        # a stray value or a placeholder: no abstract, the paper is known by its title
        if not title:
            problem = abstract_problem(abstract) or "is a placeholder"
            return None, f"the abstract {problem}, and there is no title"
        short = bool(abstract_problem(abstract)) and _alnum_count(abstract) > 0
        short_abstract = short and not says_no_abstract(abstract)
        abstract = ""
    else:
        short_abstract = False
    if title and is_placeholder_title(title):
        if abstract:  # "Untitled": a title is derived from the abstract
            title = ""
        elif not (_url(item) or field_value(item, "authors")):
            return None, f"the title is a placeholder ({title[:40]}) and there is no abstract"
    github: list[str] = []
    for value in _strings(field_value(item, "github")):
        github.extend(github_from_code_field(value))
    if item.get("links_given") is not True:  # a repository given as a link of the paper's
        github.extend(
            extract_github_links(*(u for n in ALIASES["url"] for u in _strings(item.get(n))))
        )
    decision = decision_of(item)
    if decision is not None:  # the caps a note or tags typed here keep (``storage.caps``)
        problem = note_problem(decision.note) or tags_problem(decision.tags)
        if problem:
            return None, problem
    venue_field = {**item, "status": None} if triage_status(item.get("status")) else item
    venue = _venue(item)
    stated = _one_line(field_value(venue_field, "venue_status"))
    venueid = item.get("venueid")  # OpenReview: …/Rejected_Submission
    decided = status_of_venueid(venueid) if isinstance(venueid, str) else ""
    word = status_word(venue)
    if word == SUBMITTED and isinstance(venueid, str) and venueid.strip() and not decided:
        word = ""  # a venue left "Submitted to …" after the decision its venueid says
    people = field_value(item, "authors")
    authors = names_of(_people(people))
    if item.get("literal_names") is None and _csl_people(people):  # CSL's, without its type:
        from storage.sources.csl_json import literal_people  # its ``literal`` names, whole

        item = {**item, "literal_names": literal_people(people)}
    edited = edited_by(authors) if item.get("edited_by") is True else None
    editors: dict[str, ExtraValue] = {}
    for role in ("editors", "series_editors", "literal_names"):  # a reader's names of its
        if isinstance(item.get(role), list):  # book's, its series', written whole (texts)
            named = edited_by(names_of(_people(item[role])))
            named = None if edited and role == "editors" else named  # (its people's)
            item = {**item, role: named}
            if named:
                editors[role] = named
    extra = extra_fields(item)
    if edited:  # a reader's word: its people are its editors
        extra = merge_extra(extra, (("edited_by", edited),))
    if editors:  # as ``edited_by`` names them: a family name's tie kept
        extra = merge_extra(extra, tuple(editors.items()))
    if item.get("family_names"):  # our export's names, written plain: their ties again
        authors, extra = tied_again(authors, extra, item["family_names"])
    return (
        SourceRecord(
            abstract=abstract,
            title=title[:MAX_TITLE_CHARS],
            authors=authors,
            url=_url(item),
            github=tuple(dict.fromkeys(github)),
            venue_status=venue_status(stated) if stated else decided or word,
            keywords=_keywords(field_value(item, "keywords")),
            venue=venue,
            extra=extra,
            lists=lists_of(item),
            decision=decision,
            number=number,
            links_given=item.get("links_given") is True,
            short_abstract=short_abstract,
        ),
        "",
    )


_FILE_NAMES = frozenset(FILE_FIELDS)


def _local_link(value: Any) -> bool:
    """A ``pdf`` field that is a ``file:`` address: a local file, not the PDF's web address
    (a path alone is not: OpenReview's ``/pdf/….pdf`` is read against the paper's page)."""
    return isinstance(value, str) and value[:5].lower() == "file:"


@lru_cache(maxsize=64)
def folder_of(source: str) -> Path | None:
    """The folder of the file a record came from: where its relative attachments are."""
    try:
        return Path(source).resolve().parent if source else None
    except (OSError, RuntimeError, ValueError):
        return None


def with_attachment(fields: Mapping[str, Any], base: Path | None) -> dict[str, Any]:
    """The record's fields with its local PDF as ``file``, an absolute path
    (``storage.sources.attachments``): read from a file field (``file``, Zotero's ``File
    Attachments``, what RIS's ``L1`` names on this machine) or a ``pdf`` field that is a
    ``file:`` address, which is then no web address of the PDF. No ``file`` when none names a
    PDF."""
    given = dict(fields)
    found = ""
    for name in FILE_FIELDS:
        value = given.pop(name, None)
        if isinstance(value, list | tuple):
            value = ";".join(v for v in value if isinstance(v, str))
        found = found or attachment(value, base)
    pdf = given.get("pdf")
    if _local_link(pdf):
        del given["pdf"]
        found = found or attachment(pdf, base)
    if found:
        given["file"] = found
    return given


_CODE_TAIL = re.compile(r"(?:^|; )Code: (https?://\S+?(?:, https?://\S+?)*)$")


def note_and_code(value: Any) -> tuple[str, str]:
    """A reference's note, and the code links at its end (our exports write ``Code: …``
    there): ``("Oral", "https://github.com/o/r")`` of ``Oral; Code: https://github.com/o/r``.
    Links elsewhere in the note stay in it, and are its code too (its full github.com links
    only: a note of ``0/0`` or ``pp. 1/2`` names no repository)."""
    note = " ".join(value.split()) if isinstance(value, str) else ""
    match = _CODE_TAIL.search(note)
    if match is None:
        return note, " ".join(extract_github_links(note)) if "github" in note.lower() else ""
    return note[: match.start()], match.group(1)


#: Extra fields our JSON export nests that other fields are made of (the venue, the link).
_FLAT_EXTRA = frozenset({"journal", "booktitle", "year", "doi", "eprint", "archiveprefix"})
_ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")


#: The user's own words (ours as written, never HTML): ``&lt`` and ``0``, tags joined by
#: ``; `` in our CSV, read as the entity ``&LT;`` and came back as one tag ``<-0``.
_USERS_OWN = frozenset({"tags", "note"})


def _decoded(value: Any) -> Any:
    if isinstance(value, str):
        return _ENTITY.sub(lambda m: html.unescape(m.group()), value) if "&" in value else value
    if isinstance(value, list) and any(isinstance(v, str) and "&" in v for v in value):
        return [_decoded(v) for v in value]
    if isinstance(value, dict):  # our JSON's ``extra``: its fields are fields as the flat ones
        return {k: _decoded(v) for k, v in value.items()}
    return value


def _entities_decoded(item: Mapping[str, Any]) -> Mapping[str, Any]:
    """The record with HTML entities decoded in every text field (``Shin&#x27;ya``), before
    any field is split at its ``;`` or ``,`` (asked of every record: most hold no ``&``)."""
    changed: dict[str, Any] | None = None
    for key, value in item.items():
        if key.lower() in _USERS_OWN:
            continue
        if type(value) is str:
            if "&" not in value:
                continue
        elif type(value) is dict:
            if not any(type(v) is str and "&" in v for v in value.values()):
                continue
        elif not (type(value) is list and any(type(v) is str and "&" in v for v in value)):
            continue
        decoded = _decoded(value)
        if decoded != value:
            changed = changed or {}
            changed[key] = decoded
    return {**item, **changed} if changed else item


def _venue(item: Mapping[str, Any]) -> str:
    """The venue a record names, with its year when a separate field gives it."""
    venue = cased_venue(_one_line(field_value(item, "venue"))[:MAX_HEADER_CHARS])
    year = year_text(_one_line(item.get("year")))[:10]
    if venue and year and year not in venue:
        venue = f"{venue} {year}"
    return venue


def _year_of_date(item: Mapping[str, Any]) -> Mapping[str, Any]:
    """``item`` with the year of its ``date`` (Papers with Code's ``"date": "2023-01-01"``)
    when it states none, as BibTeX's ``date`` gives its year; not when its venue names a year
    of its own: the date is then often the preprint's (Papers with Code's ``ICLR 2022``
    paper is dated 2021-06-17), and the venue's year is the citation's."""
    if item.get("year") not in (None, ""):
        return item
    date = item.get("date") or item.get("publication_date")
    year = year_in(date) if isinstance(date, str) else None
    if year is None and isinstance(item.get("issued"), Mapping | list):  # CSL's, no ``type``
        from storage.sources.csl_json import year_of

        year = year_in(year_of(item["issued"]))
    if year is None or find_year(_one_line(field_value(item, "venue"))) is not None:
        return item
    return {**item, "year": year}


def _strings(value: Any) -> Iterator[str]:
    if value is None:
        return
    if isinstance(value, str):
        yield value
    elif isinstance(value, list | tuple):  # what JSON gives, told apart before the ABCs below
        for item in value:
            if isinstance(item, str):
                yield item
            else:
                yield from _strings(item)
    elif isinstance(value, Mapping):
        for key in ("url", "href", "name", "value"):
            if isinstance(value.get(key), str):
                yield value[key]
                return
    elif isinstance(value, Iterable):
        for item in value:
            yield from _strings(item)
    else:
        yield str(value)


def _one_line(value: Any) -> str:
    if value is None:
        return ""
    text = value if isinstance(value, str) else " ".join(_strings(value))
    return " ".join(text.split())


def _people(value: Any) -> str | Iterable[str] | None:
    """An authors field as ``names_of`` reads it: a text, or the texts of a list; a list of
    people in CSL's parts (``{"family": "Lee", "given": "Ann"}``, ``{"literal": …}``) in a
    JSON list without CSL's ``type`` (a hand-made or converted file, not read as CSL-JSON) as
    CSL-JSON reads them: they were read as no one, in silence."""
    if value is None or isinstance(value, str):
        return value
    if _csl_people(value):
        from storage.sources.csl_json import people_of  # (it reads records: no cycle at import)

        return people_of(value)
    return _strings(value)


def _csl_people(value: Any) -> bool:
    """Whether an authors field is a list of people in CSL's parts (``_people``); a list of
    texts, most lists' authors, is told by its first: no look at each."""
    return (
        isinstance(value, list)
        and bool(value)
        and isinstance(value[0], dict)
        and any(isinstance(v, dict) and _CSL_PERSON & v.keys() for v in value)
    )


#: The parts of a person only CSL's names have (Semantic Scholar's are ``{"name": …}``).
_CSL_PERSON = frozenset({"family", "given", "literal"})


def _keywords(value: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    parts = re.split(r"\s*[;,]\s*", value) if isinstance(value, str) else _strings(value)
    return tuple(dict.fromkeys(" ".join(p.split()) for p in parts if p and p.strip()))


_OPENREVIEW_ID = re.compile(r"^[A-Za-z0-9_-]{6,20}$")


def _url(item: Mapping[str, Any]) -> str:
    """The paper's page: a link field, else an OpenReview id, else its DOI's or arXiv id's
    page (so that every reader gives the same link for the same fields)."""
    for alias in ALIASES["url"]:
        if item.get(alias) is None:
            continue
        for value in _strings(item[alias]):
            value = value.strip()
            if url := web_url(value):  # one line, http(s), a host: no newline reaches an export
                return url
            if alias in ("forum", "openreview") and _OPENREVIEW_ID.fullmatch(value):
                return f"https://openreview.net/forum?id={value}"
    doi = item.get("doi")
    if isinstance(doi, str) and (found := doi_of(doi)):
        return web_url(f"https://doi.org/{found}")
    eprint = item.get("eprint")
    if isinstance(eprint, str) and ARXIV_ID.fullmatch(eprint.strip().removeprefix("arXiv:")):
        prefix = item.get("archiveprefix")
        if not isinstance(prefix, str) or prefix.casefold() in ("", "arxiv"):
            return f"https://arxiv.org/abs/{eprint.strip().removeprefix('arXiv:')}"
    return ""


#: An arXiv identifier as an ``eprint`` field holds it (new and old style, a version or not).
ARXIV_ID = re.compile(r"\d{4}\.\d{4,5}(?:v\d+)?|[a-z][a-z-]+(?:\.[A-Za-z]{2})?/\d{7}(?:v\d+)?")
#: A preprint's venue as Google Scholar writes it (its BibTeX's ``journal``, its CSV's
#: ``Publication``): ``arXiv preprint arXiv:2305.12345``, ``arXiv preprint hep-th/9901001``,
#: ``ArXiv abs/2305.12345`` (Semantic Scholar; its BibTeX splits it into a ``journal`` and a
#: ``volume``), ``arXiv:2305.12345 [cs.LG]``.
_ARXIV_VENUE = re.compile(
    r"\s*(?:arxiv(?:\s+e-?prints?|\s+preprint)?\s*,?\s*(?:arxiv\s*:\s*|abs/)?|arxiv\s*:\s*)"
    rf"({ARXIV_ID.pattern})(?:\s*\[[\w.-]+\])?\s*\.?\s*",
    re.IGNORECASE,
)
#: The fields a preprint's venue is written in.
_VENUE_FIELDS = ("journal", "publication", "venue", "booktitle", "howpublished", "container-title")


def _arxiv_journal(item: Mapping[str, Any]) -> Mapping[str, Any]:
    """``item`` with the arXiv id its venue names (``_ARXIV_VENUE``) as its ``eprint``, when it
    has none: the venue is then no venue (a preprint's, which the id tells; every field that
    holds it, as a reader may give it as ``venue`` too), and an ``article`` without a
    journal the ``misc`` a preprint is cited as."""
    if item.get("eprint"):
        return item
    found: dict[str, Any] = {}
    volume = item.get("volume")
    for key in _VENUE_FIELDS:
        value = item.get(key)
        match = _ARXIV_VENUE.fullmatch(value) if isinstance(value, str) else None
        if match is None and str(value).strip().casefold() in ("arxiv", "corr"):
            # Semantic Scholar's BibTeX: journal={ArXiv}, volume={abs/2106.09685}; DBLP's CoRR
            match = _ARXIV_VENUE.fullmatch(f"arXiv {volume}") if isinstance(volume, str) else None
            found.update({"volume": None} if match else {})
        if match is not None:
            found.setdefault("eprint", match.group(1))
            found[key] = None
    if not found:
        return item
    found["archiveprefix"] = "arXiv"
    kind = item.get("entry_type")
    if "journal" in found and isinstance(kind, str) and kind.casefold() == "article":
        found["entry_type"] = "misc"
    return {**item, **found}
