"""RIS (``.ris``): what Zotero, Mendeley, EndNote and Google Scholar export, one tag a line.

A small reader of our own rather than ``rispy``: RIS is a line format of two-letter tags, and
what a paper list needs of it fits here, read leniently the way files in the wild are written
(``TY  - `` or ``TY - ``, a last record without ``ER``, wrapped lines continuing a value),
in one pass over the lines: linear and total on any text (a value's wrapped lines are joined
once, at its end, however many there are). rispy reads ``TY - JOUR`` (one space) as nothing,
drops a last record without ``ER``, and would be one more dependency.

Tags read: ``TY`` (starts a record, its type: a ``CONF`` naming no authors and nothing it is in,
a volume of proceedings), ``ER`` (ends it), ``TI``/``T1``/``CT`` (title), ``AU``/``A1``
(authors, ``Last, First``; one without a comma among such names, or ending in one, written
whole: ``_written_whole``; an ``EDBOOK``'s editors; when none, the editors: ``ED``, or
``A2``/``A3`` as the type places them, ``_EDITORS``; beside them, the editors of a chapter's
book or a paper's proceedings, kept as its ``editors``; the series' editors, a book's ``A2``, a
chapter's or a paper's ``A3``, an edited book's ``A2`` and ``A3``, its ``series_editors``),
``AB``/``N2`` (abstract; both, when they differ, the one that reads as an abstract, the other
a note: ``_abstract_of``),
``UR``/``L2``/``LK`` (links), ``L1`` (a PDF link), ``DO`` (DOI; else one in ``M3``),
``PY``/``Y1`` (year), ``DA`` (date; one that names no year, ``In Press``, is said in one
line), ``JF`` (journal; an article's ``T2`` before ``JO``, then the abbreviations ``JA``/``J2``),
``T2``/``BT``/``C3`` (proceedings, book, or venue; for a conference paper or a chapter,
``JF``/``JO`` are its proceedings or book too; a book's ``T2`` is its series), ``T3``
(series), ``PB`` (publisher; a thesis's school, a report's institution; its ``M3``, type of
work, says a master's thesis), ``VL``, ``IS``, ``SP``/``EP``
(pages), ``SN`` (ISBN or ISSN), ``KW`` (keywords), ``N1`` (a note, Zotero's HTML read as
text: code links in it kept; Scopus's ``Cited By: 12`` in it the citations). Scopus's
``UR`` is its own record page, behind its login: a record with a DOI is linked by it
instead, as Scopus's CSV is. Our export's ``U3`` names the user's tags among the ``KW``
lines, and its ``U4`` says the first ``N1`` is the user's note (its lines as written): they
are read back as the note and tags.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Final

from storage.errors import SourceError
from storage.sources.attachments import is_local, looks_like_pdf
from storage.sources.authors import is_organization, is_suffix, last_first, parted
from storage.sources.citation import FROM_RIS
from storage.sources.dates import no_year, typed_date
from storage.sources.fields import keywords_before_tags
from storage.sources.links import web_url
from storage.sources.records import Fit, Reader, ReadResult, abstract_problem, note_and_code
from storage.text.rich_text import plain_title
from storage.text.source_text import literal

#: What our RIS export says in ``U2`` of a paper whose title was derived from its abstract.
TITLE_DERIVED: Final = "Title derived from the abstract"
#: What it says in ``U3`` before the user's tags (which its ``KW`` lines hold too), and in
#: ``U4`` of a record whose first ``N1`` is the user's note (the next one the reference's).
USERS_TAGS: Final = "Tags: "
USERS_NOTE: Final = "The first N1 is the user's note"

RIS_SUFFIXES: Final = (".ris",)
_TAG: Final = re.compile(r"([A-Z][A-Z0-9]) {0,2}-(?: (.*)|$)")
_FIELDS: Final = {
    "TI": "title", "T1": "title", "CT": "title",
    "AU": "authors", "A1": "authors",
    "AB": "abstract", "N2": "abstract_n2",
    "UR": "url", "L2": "url", "LK": "url", "L1": "pdf", "DO": "doi",
    "PY": "year", "Y1": "year", "DA": "date",
    "JF": "journal", "JO": "journal_name", "JA": "abbreviation", "J2": "abbreviation",
    "T2": "container", "BT": "container", "C3": "container",
    "PB": "publisher", "VL": "volume", "IS": "issue", "SP": "start", "EP": "end",
    "SN": "serial", "KW": "keywords", "N1": "note", "U1": "user", "U2": "user2",
    "M3": "work", "ED": "editors", "A2": "secondary", "A3": "tertiary", "T3": "series",
}  # fmt: skip
#: Where a record that names no author (``AU``, ``A1``) names its editors, by its type: ``ED``
#: (an editor whatever the type), then the secondary author a chapter's, a conference paper's,
#: a journal article's or an entry's editors are (``A2``), or the tertiary author a book's are
#: (``A3``; its ``A2`` is its series' editor, the last of its people), as EndNote's reference
#: types and Zotero's RIS (zotero/translators ``RIS.js``) write and read them.
_EDITORS: Final = {"BOOK": ("ED", "A3", "A2"), "EDBOOK": ("ED",)} | dict.fromkeys(
    ("JOUR", "EJOUR", "MGZN", "CHAP", "ECHAP", "CONF", "CPAPER", "DICT", "ENCYC", "EBOOK",
     "BLOG", "GEN"),
    ("ED", "A2"),
)  # fmt: skip
#: The type whose ``AU`` names its editors (an edited book: the specification's ``AU - Editor``,
#: ``A2 - Editor, Series``, as EndNote writes its "Edited Book").
_EDITED_BY_AU: Final = "EDBOOK"
_PEOPLE: Final = {"ED": "editors", "A2": "secondary", "A3": "tertiary"}
#: Where a record of a type names the editor of its series (Zotero's "Series Editor"): a
#: book's, a report's ``A2``, a chapter's, a paper's, an entry's ``A3`` (zotero/translators
#: ``RIS.js``).
_SERIES_EDITORS: Final = {"BOOK": "A2", "EDBOOK": "A2", "RPRT": "A2"} | dict.fromkeys(
    ("CHAP", "ECHAP", "CONF", "CPAPER", "DICT", "ENCYC"), "A3"
)


def series_editors_tag(kind: str) -> str:
    """The tag a record of RIS type ``kind`` names its series' editors by ("" for none)."""
    return _SERIES_EDITORS.get(kind, "")


#: Entry types whose ``T2`` names their series (a chapter's, a paper's names its book).
_SERIES_IN_T2: Final = frozenset({"book", "collection"})
#: A thesis's type of work (``M3``) that says it is a master's.
_MASTERS: Final = re.compile(r"\bmaster|\bM\.?\s?(?:Sc|A|S|Phil)\b", re.IGNORECASE)


def editors_tag(kind: str) -> str:
    """The tag a record of RIS type ``kind`` names its editors by, beside its authors: a
    chapter's, a paper's, an article's ``A2``, a book's ``A3`` (its ``A2`` is its series'
    editor), else ``ED``, as Zotero writes them and this reader reads them (``_EDITORS``)."""
    return _EDITORS.get(kind, ("ED",))[:2][-1]


#: A DOI in ``M3`` ("type of work"), where PubMed's, publishers' and older Zotero's RIS write
#: it (``M3  - 10.1172/JCI13505``, EndNote's ``doi: DOI: 10.1016/…``): Zotero's RIS import
#: reads it as the DOI too (zotero/translators ``RIS.js``). A type of work (``Article``) is none.
_DOI_IN: Final = re.compile(r"10\.\d{4,9}/\S+?(?=[.,;)\]]*(?:\s|$))")
_LISTS: Final = frozenset(
    {"authors", "url", "keywords", "note", "serial", "pdf", *_PEOPLE.values()}
)
_ISSN: Final = re.compile(r"\d{4}-?\d{3}[\dXx]")
#: The longest a value may grow by its wrapped lines (an abstract is refused past 20,000).
MAX_VALUE_CHARS: Final = 200_000


def sniff_ris(text: str, path: Path) -> Fit:
    """The name says RIS, or the first line is a ``TY  -`` tag."""
    if path.suffix.lower() in RIS_SUFFIXES:
        return Fit.NAMED
    start = text.lstrip()[:64]
    return Fit.OPENS if re.match(r"TY {0,2}- ", start) else Fit.NO


def _date(value: str) -> tuple[str, str, str]:
    """(year, month, ISO date) of RIS's ``2024/05/17/``, ``2024/05//``, ``2024``, and of a
    date as typed (EndNote's ``DA``: ``May 2024``; ``05/17/2024``; ``c2024``)."""
    year, month, day = typed_date(value)
    if year is None:
        return "", "", ""
    iso = f"{year:04d}-{month:02d}-{day:02d}" if month and day else ""
    return str(year), str(month or ""), iso


#: Scopus's record page (``UR``), which only its subscribers may open.
_SCOPUS_PAGE: Final = re.compile(r"https?://(?:[\w-]+\.)*scopus\.com/", re.IGNORECASE)
#: What Scopus writes in ``N1`` besides a note: ``Export Date: 15 January 2024; Cited By: 12``.
_SCOPUS_PART: Final = re.compile(r"(export date|cited by)\s*:\s*(.*)", re.IGNORECASE)


#: A note written in HTML, as Zotero writes its notes in ``N1`` (``<p>Comment: 12 pages</p>``,
#: Zotero 7's ``<div data-schema-version="9"><p>…``).
_HTML_NOTE: Final = re.compile(r"\s*<(?:p|div|h[1-6]|ul|ol|blockquote|pre)(?:\s[^<>]*)?>", re.I)


def _html_note(note: str) -> str:
    """An ``N1`` as text: one Zotero wrote in HTML without its markup, its paragraphs apart."""
    if _HTML_NOTE.match(note) is None or "</" not in note:
        return note
    from storage.sources.zotero_api import note_text

    return " ".join(note_text(note).splitlines())


def _scopus_note(fields: dict[str, Any], *, html: bool) -> str:
    """The record's note (its ``N1`` lines), without the export date and the citation count
    Scopus writes there: the count is the paper's ``citations``, as its CSV's ``Cited by``.
    Only in Scopus's note, which says when it was exported: a note reading ``Cited by: 3``
    alone is a note (our export's of a BibTeX note, whose paper's count may differ)."""
    notes = fields.pop("note", [])
    note = "; ".join(map(_html_note, notes) if html else notes)
    if not re.search(r"(?:^|; )\s*export date\s*:", note, re.IGNORECASE):
        return note
    kept = []
    for part in note.split("; "):
        scopus = _SCOPUS_PART.fullmatch(part.strip())
        if scopus is None:
            kept.append(part)
        elif scopus.group(1).casefold() == "cited by" and scopus.group(2).isdigit():
            fields["citations"] = scopus.group(2)
    return "; ".join(kept)


def _users_own(tags: list[tuple[str, list[str]]]) -> tuple[list[str] | None, str]:
    """The user's note (the pieces of its ``N1``) and tags of a record our export wrote
    (``U4``, ``U3``); (None, "") when the record says none."""
    said = {tag: " ".join(pieces[1:]).strip() for tag, pieces in tags if tag in ("U3", "U4")}
    first = next((pieces for tag, pieces in tags if tag == "N1"), None)
    note = first if said.get("U4") == USERS_NOTE else None
    named = said.get("U3", "")
    return note, named.removeprefix(USERS_TAGS) if named.startswith(USERS_TAGS) else ""


def _keywords(lines: list[str]) -> list[str]:
    """The keywords of a ``KW`` tag: several on a line are parted by ``;`` (Mendeley's,
    PubMed's), and a line that goes on with no indent is one more (EndNote writes a reference's
    keywords one a line after a single tag); an indented line goes on with the one before."""
    joined: list[str] = []
    for line in lines:
        if joined and line[:1].isspace():
            joined[-1] = f"{joined[-1]} {line}"
        else:
            joined.append(line)
    words = (" ".join(k.split()) for line in joined for k in line.split(";"))
    return [k for k in words if k]


def _without_full_stops(fields: dict[str, Any]) -> None:
    """A DBLP record's title and proceedings without the full stop DBLP ends each with (``A
    Framework for Consistency Algorithms.``), as its BibTeX writes them. A journal's is its
    abbreviation's (``IEEE Trans. Pattern Anal. Mach. Intell.``): kept."""
    journal = fields.get("journal")
    for name in ("title", "booktitle", "venue"):
        value = fields.get(name)
        if name == "venue" and value == journal:
            continue
        if isinstance(value, str) and value.endswith(".") and not value.endswith(".."):
            fields[name] = value[:-1]


def _abstract_of(fields: dict[str, Any]) -> None:
    """The record's abstract when it has an ``AB`` and an ``N2`` that differ, and the other
    one kept as a note (never lost). The tags do not say which is which: RIS's 2004
    specification (Reference Manager's) names ``N2`` the abstract and ``AB`` a note (a
    synonym of ``N1``), as the writers of its time do; the 2011 one, EndNote's, Zotero's and
    Mendeley's ``AB`` the abstract (Zotero reads ``N2`` only when there is no ``AB``:
    zotero/translators ``RIS.js``). So the text says: the one that can be an abstract
    (``abstract_problem``: not a line of a note), else the longer."""
    second = fields.pop("abstract_n2", "")
    first = fields.setdefault("abstract", second)
    if not second or " ".join(first.split()) == " ".join(second.split()):
        return
    rank = [(not abstract_problem(text), len(text)) for text in (first, second)]
    abstract, other = (second, first) if rank[1] > rank[0] else (first, second)
    fields["abstract"] = abstract
    fields.setdefault("note", []).append(" ".join(other.split()))


def _written_whole(names: list[str]) -> list[str]:
    """The names of a record's people (``AU``, ``ED``, ``A2``… as written) that it writes
    whole, as the library keeps them, that the exports would part (``parted``): one that ends
    in its comma (EndNote's way to write an organization, ``Acme Corporation,``), and one
    without a comma among names written ``Last, First``, the specification's form, in which a
    name with no first name has no comma (Zotero's RIS import keeps any such name in one
    field). Names that all lack a comma are taken as written ``First Last``, as some exporters
    write people (``Jane Smith``): persons, as they were read."""
    split = [name.split(",", 1) for name in names]
    listed = any(  # (not ``John Smith, Jr.``, nor ``University of California, Berkeley``)
        len(p) == 2 and p[1].strip(" ,") and not is_suffix(p[1]) and not is_organization(p[0])
        for p in split
    )
    whole = (
        first for first, *rest in split if (not rest and listed) or rest and not rest[0].strip(" ,")
    )
    return [name for name in map(last_first, whole) if parted(name)]


def _named(people: dict[str, list[str]], tags: tuple[str, ...]) -> list[str]:
    """The people of ``tags`` (``ED`` and ``A2``: both a chapter's editors, as Zotero's RIS
    import reads them), each once: a record that names its editors in both lost those of the
    second."""
    named = [people[tag] for tag in tags if people[tag]]
    if len(named) == 1:
        return named[0]
    return list(dict.fromkeys(p for group in named for p in group))


def _in_container(fields: dict[str, Any]) -> bool:
    """Whether a record names a journal, proceedings or book it is in (a paper's)."""
    return any(
        fields.get(name) for name in ("container", "journal", "journal_name", "abbreviation")
    )


def _record(kind: str, tags: list[tuple[str, list[str]]]) -> dict[str, Any] | str:
    """A record's fields, or why it is refused (a value wrapped past ``MAX_VALUE_CHARS``)."""
    fields: dict[str, Any] = {}
    note, users_tags = _users_own(tags)
    if note is not None:  # its lines as written, the indent of each after the first taken off
        head, *more = note[1:]
        fields["users_note"] = "\n".join([head, *(line.removeprefix("  ") for line in more)])
    written: list[str] = []  # its people's names as written (``_written_whole``)
    for tag, lines in tags:
        size, *pieces = lines
        if int(size) > MAX_VALUE_CHARS:
            return f"{tag} runs over {int(size):,} characters of wrapped lines, too long a value"
        if lines is note:
            continue
        name = _FIELDS.get(tag)
        if name in ("abstract", "abstract_n2"):  # its lines as lines, a blank line between
            value = "\n".join(" ".join(p.split()) for p in pieces).strip()
        else:
            value = " ".join(" ".join(pieces).split())
        if name is None or not value:
            continue
        if name == "keywords":  # one a line, or several on a line ("a; b": Mendeley, PubMed)
            fields.setdefault(name, []).extend(_keywords(pieces))
        elif name in _LISTS:
            named = name == "authors" or name in _PEOPLE.values()
            fields.setdefault(name, []).append(last_first(value) if named else value)
            written.extend([value] if named else [])
        else:
            fields.setdefault(name, value)
    fields["literal_names"] = _written_whole(written)
    _abstract_of(fields)
    work = _DOI_IN.search(fields.get("work", ""))
    if work and not fields.get("doi"):
        fields["doi"] = work.group()
    people = {tag: fields.pop(name, []) for tag, name in _PEOPLE.items()}
    roles = _EDITORS.get(kind.strip().upper(), ("ED",))
    if not fields.get("authors") or kind.strip().upper() == _EDITED_BY_AU:  # a volume that
        # names its editors (an edited book's ``AU`` are they, its ``ED`` too, each once)
        au = fields.get("authors") or []
        fields["authors"] = (
            [*au, *(p for p in people["ED"] if p not in au)]
            if au
            else _named(people, roles[:2]) or next((people[t] for t in roles if people[t]), [])
        )
        fields["edited_by"] = True  # (when there are any: ``records.record_from_fields``)
    else:  # a chapter's book's, a paper's proceedings' editors (not a book's series' ``A2``)
        fields["editors"] = _named(people, roles[:2])
    series_editors = people.get(_SERIES_EDITORS.get(kind.strip().upper(), ""), [])
    if kind.strip().upper() == _EDITED_BY_AU:  # its tertiary author too (``A3``), as EndNote's
        # tagged (``%Y``) and XML (``tertiary-authors``) readers read an edited book's
        both = dict.fromkeys([*series_editors, *people["A3"]])
        series_editors = [p for p in both if p not in fields["authors"]]
    if series_editors is not fields["authors"] and series_editors is not fields.get("editors"):
        fields["series_editors"] = series_editors  # (not when they are its people)
    entry = FROM_RIS.get(kind.strip().upper(), "misc")
    if kind.strip().upper() == "CONF" and fields.get("edited_by") and not _in_container(fields):
        entry = "proceedings"  # a volume, named by its editors or by no one (``RIS_TYPES``)
    if entry == "phdthesis" and _MASTERS.search(fields.get("work", "")):
        entry = "mastersthesis"  # its type of work (``M3``): Zotero's, EndNote's, ours
    fields["entry_type"] = entry
    fields.pop("work", None)
    typed = (fields.get("year", ""), fields.pop("date", ""))
    year, month, date = _date(typed[1])
    stated = _date(typed[0])
    if stated[0] and year != stated[0]:  # a date of another year (its access, its export)
        month = date = ""
    fields["year"] = stated[0] or year
    fields["month"], fields["date"] = stated[1] or month, stated[2] or date
    fields["year_unread"] = "" if fields["year"] else typed[0] or typed[1]  # ``In Press``: said
    container = fields.pop("container", "")
    if entry in _SERIES_IN_T2:  # a book's ``T2`` is its series (Zotero's, EndNote's)
        fields["series"] = fields.get("series") or container
    # the full name before an abbreviation: JF, then (Zotero, Scopus) T2, then JO, JA and J2
    # (``IEEE Trans. Pattern Anal. Mach. Intell.`` beside T2's full name)
    named = fields.pop("journal_name", "")
    abbreviation = fields.pop("abbreviation", "")
    if entry in ("inproceedings", "incollection"):
        # a conference's proceedings, in whichever tag: Google Scholar's CONF names them in
        # JO, others in JF (a journal's tag, which a paper in proceedings has none of)
        journal = fields.pop("journal", "")
        fields["booktitle"] = container or journal or named or abbreviation
    elif entry == "article" and not fields.get("journal"):  # Zotero: T2 is the journal
        fields["journal"] = container or named or abbreviation
    elif not fields.get("journal") and (named or abbreviation) and not container:
        fields["journal"] = named or abbreviation
    fields["venue"] = fields.get("journal") or container
    if any(tag == "ID" and " ".join(v[1:]).startswith("DBLP:") for tag, v in tags):
        _without_full_stops(fields)
    start, end = fields.pop("start", ""), fields.pop("end", "")
    fields["pages"] = f"{start}–{end}" if start and end else start
    for serial in fields.pop("serial", []):
        # PubMed's and Mendeley's "1476-4687 (Electronic)", "0028-0836 (Linking)": the first
        bare = " ".join(re.sub(r"\([^()]*\)", " ", serial).split()) or serial
        kind = "issn" if _ISSN.fullmatch(bare) else "isbn"
        fields.setdefault(kind, bare)
    if entry in ("phdthesis", "mastersthesis"):
        fields["school"] = fields.pop("publisher", "")
    elif entry == "techreport":
        fields["institution"] = fields.pop("publisher", "")
    ours = str(fields.get("user", "")).startswith("Lists: ")  # (our export: its note as typed)
    fields["bib_note"], fields["code"] = note_and_code(_scopus_note(fields, html=not ours))
    fields["note"], fields["tags"] = fields.pop("users_note", ""), users_tags
    if users_tags:  # ours: the user's tags end the keywords
        fields["keywords"] = keywords_before_tags(fields.get("keywords"), users_tags)
    if fields.get("doi"):  # Scopus's own record, behind its login: the DOI's page instead
        fields["url"] = [u for u in fields.get("url", []) if not _SCOPUS_PAGE.match(u)]
    # ``L1`` a line per attachment: a file here (Zotero's, Mendeley's; its PDF, not its
    # snapshot) or the PDF's address
    links = fields.pop("pdf", [])
    local = [link for link in links if is_local(link)]
    fields["file"] = next((link for link in local if looks_like_pdf(link)), "")
    # EndNote's ``internal-pdf://…`` names a file inside its own library: no address
    fields["pdf"] = next((link for link in links if not is_local(link) and web_url(link)), "")
    user = fields.pop("user", "")
    if fields.pop("user2", "") == TITLE_DERIVED and user.startswith("Lists: "):
        fields["title_derived"] = True  # ours: the title is derived again from the abstract
    if ours:  # its lists, and display text kept as such
        fields["lists"] = user.removeprefix("Lists: ")
        fields["links_given"] = True
        for name in ("title", "abstract"):
            if isinstance(fields.get(name), str):
                fields[name] = literal(fields[name], markdown=name != "title")
    elif isinstance(fields.get("title"), str):  # Zotero's rich text, Scopus's ``<inf>``
        fields["title"] = plain_title(fields["title"])
    return {k: v for k, v in fields.items() if v}


def _add(
    result: ReadResult, number: int, record: dict[str, Any] | str, unread: list[tuple[int, str]]
) -> None:
    """Record ``number`` added, or refused; a date that names no year noted in ``unread``."""
    if isinstance(record, str):
        result.refuse(number, record)
        return
    if typed := record.pop("year_unread", ""):
        unread.append((number, typed))
    result.add(number, record)


def read_ris(text: str, path: Path) -> ReadResult:
    """Every ``TY`` … ``ER`` record of a RIS file (see the module)."""
    result = ReadResult(source=str(path), list_name=path.stem)
    unread: list[tuple[int, str]] = []  # dates that name no year
    tags: list[tuple[str, list[str]]] | None = None
    kind = ""
    number = 0
    for line in text.splitlines():
        match = _TAG.fullmatch(line.rstrip())
        if match is None:
            if tags:  # a wrapped value goes on (kept up to a cap, counted on); a blank line
                pieces = tags[-1][1]  # in it parts its paragraphs
                pieces[0] = str(int(pieces[0]) + len(line) + 1)
                if int(pieces[0]) <= MAX_VALUE_CHARS:
                    pieces.append(line)
            continue
        tag, value = match.group(1), "" if match.group(2) is None else line[match.start(2) :]
        if tag == "TY":
            if tags is not None:  # the previous record had no ER
                number += 1
                _add(result, number, _record(kind, tags), unread)
            tags, kind = [], value
        elif tag == "ER":
            if tags is not None:
                number += 1
                _add(result, number, _record(kind, tags), unread)
            tags = None
        elif tags is not None:
            tags.append((tag, [str(len(value)), value]))  # its length so far, its lines
    if tags is not None:
        number += 1
        _add(result, number, _record(kind, tags), unread)
    if number == 0:
        raise SourceError(f"{path}: not a RIS file (no record starts with a TY line)")
    if unread:
        result.warnings.append(no_year(str(path), unread))
    return result


RIS = Reader(name="RIS", label="RIS", suffixes=RIS_SUFFIXES, sniff=sniff_ris, read=read_ris)
