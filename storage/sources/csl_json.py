"""CSL-JSON: the citation format of Zotero ("CSL JSON" export), pandoc and citeproc.

An array of items with ``type``, ``title``, ``author`` (``{"family", "given"}`` or
``{"literal"}``; when none, the ``editor``, as CSL styles cite a book of its editors; beside
them, the editors of its book or proceedings, kept as its ``editors``), ``collection-title``
(its series), ``genre`` (a thesis's type: a master's; a book's: a volume of proceedings),
``abstract``, ``URL``, ``DOI``, ``issued`` (``{"date-parts": [[2025]]}``; a date typed as
text that names no year, ``{"literal": "in press"}``, or none, ``{}``, is said in one line),
``container-title`` and ``keyword`` (and, in our export, ``custom``: the lists, the user's
tags among the keywords, and what of the ``note`` is the reference's: the user's note is
before it). Such files are named ``.json``: they are told from other
JSON by their content (the sniff looks for CSL's own field names at the start), and read
before the generic JSON reader would; one whose start holds none of them (a first abstract
longer than the sniff looks) is known when the JSON reader has parsed it (``is_csl_json``),
and read as CSL-JSON then.

Crossref's REST API answers too (``api.crossref.org/works?query=…``: ``{"message-type":
"work-list", "message": {"items": […]}}``; ``/works/DOI``: one ``work`` as the ``message``):
its works are nearly CSL items, their titles and container titles lists, their types
Crossref's (``journal-article``, ``proceedings-article``), their abstracts JATS XML
(``<jats:p>``), read as text.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

import orjson

from storage.errors import SourceError
from storage.importing.author_keys import cjk
from storage.models import RecordError
from storage.sources.authors import ended_with_et_al, is_et_al, parted, spaced, tied_family
from storage.sources.citation import FROM_CROSSREF, FROM_CSL, doi_of
from storage.sources.dates import checked_date, no_year, typed_date
from storage.sources.fields import keywords_before_tags
from storage.sources.json_lists import loads
from storage.sources.records import (
    ARXIV_ID,
    Fit,
    Reader,
    ReadResult,
    note_and_code,
    opening,
)
from storage.text.rich_text import plain_title
from storage.text.source_text import literal

CSL_SUFFIXES: Final = (".csl-json",)
#: How our export names its files (``storage.export.csl_json``): a name, not a suffix.
CSL_ENDINGS: Final = (".csl.json", *CSL_SUFFIXES)
#: CSL's own names: its container, dates, key, names, and ``custom`` (which ours fills).
_CSL_KEYS: Final = re.compile(r'"(?:container-title|date-parts|citation-key|family|custom)"\s*:')
_TYPE_KEY: Final = re.compile(r'"type"\s*:')
#: How Crossref's REST API answers with works (one, or a page of them).
_CROSSREF: Final = re.compile(r'"message-type"\s*:\s*"work(?:-list)?"')


def sniff_csl_json(text: str, path: Path) -> Fit:
    """JSON named as CSL-JSON (``.csl.json``, ``.csl-json``), or whose start holds CSL's
    ``type`` and one of its own names (``container-title``…)."""
    named = path.name.lower().endswith(CSL_ENDINGS)
    if opening(text) in ("[", "{"):  # JSON: CSL's by its name or its names (else JSON's)
        head = text[:8192]
        if named or (_TYPE_KEY.search(head) and _CSL_KEYS.search(head)) or _CROSSREF.search(head):
            return Fit.OPENS
    return Fit.NAMED if named else Fit.NO


def _names(value: Any, *, ours: bool = False) -> list[str]:
    """CSL's names as the library keeps them, in the order CSL prints them (``_name``), or
    a ``literal``; a last ``{"literal": "others"}`` (pandoc's "et al.") is ``ET_AL``. Our
    own export's (``ours``) as it wrote them, given name first: it took a kept name's last
    word as the family (``三 张`` is ``{"family": "张", "given": "三"}``), which CSL's order
    would read ``张三``, another first author and another id for a paper known by its title."""
    names: list[str] = []
    for person in value if isinstance(value, list) else []:
        if not isinstance(person, Mapping):
            continue
        name = _name(person, as_written=ours)
        literal = person.get("literal") or person.get("name")  # Crossref's organisations
        name = name or (literal if isinstance(literal, str) else "")
        if name.strip():
            names.append(spaced(name))
    return ended_with_et_al(names)


def _literals(value: Any) -> list[str]:
    """The names of CSL's people that are a ``literal`` (no ``family`` or ``given``), as
    ``_names`` keeps them, that the exports would part (``parted``; "others", pandoc's "et
    al.", is none)."""
    people = value if isinstance(value, list) else []
    literals = (
        spaced(p["literal"])
        for p in people
        if isinstance(p, Mapping)
        and isinstance(p.get("literal"), str)
        and not {"family", "given"} & p.keys()
        and not is_et_al(p["literal"])
    )
    return [name for name in literals if name and parted(name)]


#: The parts of a CSL name in the order they are read.
_NAME_PARTS: Final = ("given", "dropping-particle", "non-dropping-particle", "family", "suffix")
#: Those of a name printed family first (citeproc-js's: no dropping particle).
_FAMILY_FIRST: Final = ("non-dropping-particle", "family", "given", "suffix")


def _latin_like(text: str) -> bool:
    """Whether ``text`` has a letter of a script other than Chinese, Japanese or Korean:
    CSL's Latin and Cyrillic names, citeproc-js's "romanesque" ones."""
    return any(c.isalpha() and not cjk(c) for c in text)


def _name(person: Mapping[str, Any], *, as_written: bool = False) -> str:
    """A CSL name in the order CSL prints it (its specification's name-part order, as
    citeproc-js sets it): a family name of Chinese, Japanese or Korean letters first, joined
    to the given name (``毛泽东``; spaced when the given name is romanised: ``毛 Zedong``);
    with ``"static-ordering": true`` family first, spaced (``Mao Zedong``, Hungarian's
    ``Kossuth Lajos``); else ``given``, the particles, ``family`` and ``suffix`` (``Ludwig van
    Beethoven``), the order of them all ``as_written`` (our own export's)."""
    parts = {k: " ".join(v.split()) for k in _NAME_PARTS if isinstance(v := person.get(k), str)}
    if parts.get("given") and person.get("static-ordering") is not True:  # (its words tied)
        parts["family"] = tied_family(parts.get("family", ""))
    if as_written:
        return " ".join(parts[k] for k in _NAME_PARTS if parts.get(k))
    family, given = parts.get("family", ""), parts.get("given", "")
    # (a family name of no letters at all, "0", is no CJK name: given name first, as written)
    cjk_family = any(map(cjk, family)) and not _latin_like(family)
    if cjk_family and not _latin_like(given[:1]):
        return parts.get("non-dropping-particle", "") + family + given
    order: tuple[str, ...] = _NAME_PARTS
    if family and (person.get("static-ordering") is True or cjk_family):
        order = _FAMILY_FIRST
    return " ".join(parts[k] for k in order if parts.get(k))


def people_of(value: Any) -> list[str]:
    """CSL's names (``_names``) where another reader meets them: a JSON list's ``author``."""
    return _names(value)


def literal_people(value: Any) -> list[str]:
    """CSL's names written whole (``_literals``) where another reader meets them: a JSON
    list's ``author``, its ``literal_names``."""
    return _literals(value)


def year_of(issued: Any) -> str:
    """The year of a CSL date (``_date``), "" for none: a JSON list's ``issued``."""
    return _date(issued)[0]


def _part(value: Any) -> str:
    """A number of CSL's ``date-parts`` as digits: ``2024``, ``"2024"``, ``2024.0`` (a writer
    of floats); "" for anything else (``null``, ``""``, a word)."""
    if isinstance(value, float) and value.is_integer() and 0 < value < 10_000:
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int | str):
        return ""
    text = str(value).strip()
    # ASCII digits only: "²⁰²⁴" is digits to ``isdigit`` and no number to ``int``
    return text if text.isascii() and text.isdigit() and len(text) <= 4 else ""


def _date(value: Any) -> tuple[str, str, str]:
    """(year, month, ISO date when the day is known) of a CSL date."""
    if isinstance(value, list) and value:  # some writers give the date-parts list itself
        value = {"date-parts": value}
    elif isinstance(value, str | int) and not isinstance(value, bool):
        # EDTF, the form CSL's schema prefers: "2021-03-04", "2021-03", "2021", an interval's
        # start ("2021-03/2021-05"), a date qualified as uncertain or approximate ("2021?~")
        value = {"raw": str(value).split("/")[0].rstrip("?~%")}
    if not isinstance(value, Mapping):
        return "", "", ""
    parts = value.get("date-parts")
    if isinstance(parts, list) and parts and isinstance(parts[0], list) and parts[0]:
        numbers = [_part(p) for p in parts[0][:3]]
    else:  # citeproc-js's older form, which it still reads and writers still give:
        # ``{"year": "1965", "month": "6", "day": "1"}`` (the CSL test suite's input)
        numbers = [_part(value.get(name)) for name in ("year", "month", "day")]
    numbers = numbers[: numbers.index("")] if "" in numbers else numbers
    if numbers:  # else its raw or literal form, as a writer that could not split it gives
        # a month of the year and a day of the month, or none: [2024, 13, 45] is 2024
        dated = checked_date(*(int(n) for n in numbers), *(None,) * (3 - len(numbers)))
        return _as_text(*dated)
    raw = value.get("raw") or value.get("literal")
    if not raw and isinstance(parts, list) and parts and isinstance(parts[0], list) and parts[0]:
        raw = parts[0][0]  # a date written whole in its date-parts, ``[["2017-06-12"]]``
    if isinstance(raw, bool) or not isinstance(raw, str | int):
        return "", "", ""
    # EDTF ("2021-03-04", its seasons 21 to 24 no months) and dates as people type them
    # ("May 2023", "Spring 2022", "05/07/2024")
    return _as_text(*typed_date(" ".join(str(raw).split())[:100]))


def _as_text(year: int | None, month: int | None, day: int | None) -> tuple[str, str, str]:
    """(year, month, ISO date when the day is known) as text, "" for what is not known."""
    if year is None:
        return "", "", ""
    full = f"{year:04d}-{month:02d}-{day:02d}" if month and day else ""
    return str(year), str(month or ""), full


#: A preprint's number as Zotero's CSL-JSON gives it: its archive id, ``arXiv:2402.00002``.
_ARXIV_NUMBER: Final = re.compile(rf"arxiv:\s*({ARXIV_ID.pattern})", re.IGNORECASE)


def csl_fields(item: Mapping[str, Any]) -> dict[str, Any]:
    """A CSL item's fields under the names ``record_from_fields`` reads."""
    fields: dict[str, Any] = {str(k).lower(): v for k, v in item.items()}
    kind = str(item.get("type", "")).strip()
    kind = FROM_CSL.get(kind) or FROM_CROSSREF.get(kind, "misc")
    fields["entry_type"] = kind
    custom = item.get("custom")
    custom = custom if isinstance(custom, Mapping) else {}
    ours = "lists" in custom  # our own export
    # a book or proceedings volume that names only its editors is cited by them (as CSL
    # styles substitute them): they are its people, never added to its authors
    authors, editors = _names(item.get("author"), ours=ours), _names(item.get("editor"), ours=ours)
    fields["authors"] = authors or editors
    fields["edited_by"] = not authors  # (its people, when any, are its editors)
    fields["editors"] = editors if authors else []  # else its book's, its proceedings'
    fields["series_editors"] = _names(item.get("collection-editor"), ours=ours)
    literals = [  # an organization's, written whole as the exports write it
        n for key in ("author", "editor", "collection-editor") for n in _literals(item.get(key))
    ]
    if literals:
        fields["literal_names"] = literals
    genre = item.get("genre")  # a thesis's type (Zotero's ``thesisType``): a master's?
    if kind == "phdthesis" and isinstance(genre, str) and "master" in genre.casefold():
        kind = fields["entry_type"] = "mastersthesis"
    elif kind == "book" and isinstance(genre, str) and "proceedings" in genre.casefold():
        kind = fields["entry_type"] = "proceedings"  # (``PROCEEDINGS_GENRE``: ours)
    # a conference paper without proceedings names its conference: ``event-title``, or
    # ``event`` as CSL 1.0.1 and the writers that follow it name it
    container = item.get("container-title") or item.get("event-title") or ""
    container = container or (item["event"] if isinstance(item.get("event"), str) else "")
    if isinstance(container, list):  # CSL-JSON of some writers: a list of titles
        container = next((c for c in container if isinstance(c, str)), "")
    fields["venue"] = container
    fields["journal"] = container if kind == "article" else ""
    fields["booktitle"] = container if kind in ("inproceedings", "incollection") else ""
    fields["year"], fields["month"], fields["date"] = _date(item.get("issued"))
    publisher = item.get("publisher")
    if kind in ("phdthesis", "mastersthesis"):
        fields["school"], fields["publisher"] = publisher, None
    elif kind == "techreport":
        fields["institution"], fields["publisher"] = publisher, None
    archive, location = item.get("archive"), item.get("archive_location")
    if isinstance(archive, str) and isinstance(location, str):
        fields["archiveprefix"], fields["eprint"] = archive, location
    number = item.get("number")  # Zotero's preprint: its archive id, ``arXiv:2402.00002``
    arxiv = _ARXIV_NUMBER.fullmatch(number.strip()) if isinstance(number, str) else None
    if arxiv and not fields.get("eprint"):
        fields["archiveprefix"], fields["eprint"] = "arXiv", arxiv.group(1)
    url = item.get("URL")
    fields["url"] = url if isinstance(url, str) else ""
    fields["keywords"] = fields.pop("keyword", "")
    if isinstance(tags := custom.get("tags"), list):  # ours: the user's, among the keywords
        fields["keywords"], fields["tags"] = keywords_before_tags(fields["keywords"], tags), tags
    note = written if isinstance(written := item.get("note"), str) else ""
    fields.pop("note", None)  # CSL's note is the reference's (its code links are kept) …
    cited = custom.get("reference_note")
    if isinstance(cited, str):  # … but ours starts with the user's (``custom`` says)
        fields["note"] = note.removesuffix(cited).removesuffix("\n\n") if cited else note
        note = cited
    fields["bib_note"], fields["code"] = note_and_code(note)
    fields.pop("author", None)
    fields.pop("status", None)  # CSL's publication status is neither ours nor the venue's
    fields.pop("number", None)  # a report's number, not an issue
    fields.pop("type", None)
    if isinstance(fields.get("title"), str) and not ours:
        fields["title"] = plain_title(fields["title"])  # CSL's rich text: ``<i>``, ``<sub>``
    if ours:  # display text, kept as such
        fields["lists"] = custom.get("lists")
        fields["links_given"] = True
        fields["title_derived"] = custom.get("title_derived") is True
        for name in ("title", "abstract"):
            if isinstance(fields.get(name), str):
                fields[name] = literal(fields[name], markdown=name != "title")
    return fields


#: JATS (Crossref's abstracts) and HTML: the elements that part paragraphs, any element, and
#: an abstract's heading (``<jats:title>Abstract</jats:title>``), which is no text of it.
_PARAGRAPH_TAG: Final = re.compile(r"</?(?:jats:)?(?:p|sec|title|list|list-item)\b[^<>]*>", re.I)
_ANY_TAG: Final = re.compile(r"</?[A-Za-z][\w.:-]*(?:\s[^<>]*)?/?>")
_HEADING: Final = re.compile(
    r"<(?:jats:)?title\b[^<>]*>\s*(?:abstract|summary)\s*[.:]?\s*</(?:jats:)?title>", re.I
)


def markup_free(text: str) -> str:
    """JATS or HTML as text: ``<jats:p>We…</jats:p><jats:p>Then…</jats:p>`` as its paragraphs,
    a blank line between them; inline elements (``<jats:italic>``, ``<sub>``) their text."""
    if "<" not in text:
        return text
    parts = _PARAGRAPH_TAG.split(_HEADING.sub("", text))
    paragraphs = (" ".join(_ANY_TAG.sub("", part).split()) for part in parts)
    return "\n\n".join(p for p in paragraphs if p)


def _first_text(value: Any) -> str:
    """A Crossref title (a list of them: the first) or CSL's (a string)."""
    if isinstance(value, list):
        value = next((v for v in value if isinstance(v, str) and v.strip()), "")
    return value if isinstance(value, str) else ""


def crossref_item(work: Mapping[str, Any]) -> dict[str, Any]:
    """A Crossref work as the CSL item it nearly is (see the module)."""
    item = dict(work)
    title = markup_free(_first_text(work.get("title")))
    subtitle = markup_free(_first_text(work.get("subtitle")))
    if title and subtitle and subtitle.casefold() not in title.casefold():
        title = f"{title}: {subtitle}"
    item["title"] = title
    abstract = work.get("abstract")
    item["abstract"] = markup_free(abstract) if isinstance(abstract, str) else ""
    for name in ("container-title", "ISSN", "ISBN"):
        item[name] = markup_free(_first_text(work.get(name)))
    if not _date(work.get("issued"))[0]:  # ``issued`` of no year: when it was published
        dates = ("published", "published-print", "published-online")
        item["issued"] = next((work[d] for d in dates if _date(work.get(d))[0]), None)
    url = work.get("URL")
    doi = work.get("DOI")
    if isinstance(url, str) and isinstance(doi, str) and doi_of(url) == doi_of(doi):
        item["URL"] = ""  # ``http://dx.doi.org/…``: the DOI's page, as every reader gives it
    item.pop("link", None)  # full texts for text mining, by publisher
    return item


def _crossref_works(data: Any) -> list[Any] | None:
    """The works of a Crossref REST API answer; None for no such answer."""
    message = data.get("message") if isinstance(data, dict) else None
    if not isinstance(message, dict):
        return None
    if data.get("message-type") == "work":
        return [message]
    items = message.get("items") if data.get("message-type") == "work-list" else None
    return items if isinstance(items, list) else None


def _items(data: Any) -> Any:
    """The items of CSL-JSON: an array of them, an object holding one under ``items``, or one
    item alone."""
    items = data.get("items") if isinstance(data, dict) else data
    return [data] if isinstance(data, dict) and items is None else items


#: Names only CSL gives an item (besides its ``type``), as ``_CSL_KEYS`` looks for them.
_CSL_ITEM_KEYS: Final = ("container-title", "citation-key", "custom")


def _csl_item(item: Any) -> bool:
    """Whether ``item`` is a CSL item: a ``type``, and a name of CSL's own, a CSL date or a
    CSL name (``{"family": …}``)."""
    if not isinstance(item, Mapping) or not isinstance(item.get("type"), str):
        return False
    if any(key in item for key in _CSL_ITEM_KEYS):
        return True
    issued = item.get("issued")
    if isinstance(issued, Mapping) and "date-parts" in issued:
        return True
    people = item.get("author") or item.get("editor")
    return isinstance(people, list) and any(
        isinstance(p, Mapping) and "family" in p for p in people[:5]
    )


def is_csl_json(data: Any) -> bool:
    """Whether parsed JSON is CSL-JSON or a Crossref answer: what the sniff looks for in a
    file's start, asked of the whole (a Zotero export whose first abstract is longer than the
    sniff's window opens with no name of CSL's own)."""
    if _crossref_works(data) is not None:
        return True
    items = _items(data)
    sample = items[:20] if isinstance(items, list) else []
    return bool(sample) and sum(map(_csl_item, sample)) * 2 > len(sample)


def read_csl_json(text: str, path: Path) -> ReadResult:
    """A CSL-JSON array of items (or an object holding one under ``items``), or Crossref's
    works (see the module)."""
    try:
        data = loads(text)
    except orjson.JSONDecodeError as exc:
        raise SourceError(f"{path}: not valid JSON (line {exc.lineno}: {exc.msg})") from None
    return read_csl_data(data, path)


def read_csl_data(data: Any, path: Path) -> ReadResult:
    """Parsed CSL-JSON (or a Crossref answer) as ``read_csl_json`` reads its text; Zotero's
    API answers asked with ``include=csljson`` hold CSL-JSON in each item's envelope
    (``storage.sources.zotero_api``)."""
    from storage.sources.zotero_api import read_zotero_items, zotero_items

    zotero = zotero_items(data)
    if zotero is not None:
        return read_zotero_items(zotero, path)
    works = _crossref_works(data)
    items = works if works is not None else _items(data)
    if not isinstance(items, list):
        raise SourceError(f"{path}: not CSL-JSON (expected an array of items)")
    result = ReadResult(source=str(path), list_name=path.stem)
    unread: list[tuple[int, str]] = []  # dates that name no year (typed, or empty)
    for number, item in enumerate(items, start=1):
        if isinstance(item, Mapping):
            fields = csl_fields(crossref_item(item) if works is not None else item)
            if not fields.get("year") and (typed := _unread(item.get("issued"))):
                unread.append((number, typed))
            result.add(number, fields)
        else:
            result.errors.append(RecordError(result.source, number, "not an object"))
    if unread:
        result.warnings.append(no_year(str(path), unread))
    return result


def _unread(issued: Any) -> str:
    """What a CSL date that gives no year holds, as the warning shows it: its text as typed
    (``_typed``), else the date as written, empty (``{}``, ``{"date-parts": [[null]]}``,
    ``{"literal": ""}``); "" for no date (``issued`` absent, or ``null``), no warning's."""
    if issued is None:
        return ""
    try:
        written = orjson.dumps(issued).decode()
    except TypeError:  # a number past 64 bits (``json_lists.loads`` reads one), a date nested
        # past orjson's 255 levels (the parser reads 1,024: ``repr`` failed on it, and the
        # import stopped in an internal error)
        import reprlib

        written = reprlib.repr(issued)
    return _typed(issued) or written[:100]


def _typed(issued: Any) -> str:
    """A CSL date's text as typed (its ``literal`` or ``raw``; an EDTF string; its
    ``date-parts`` when they give no year the library keeps, ``[["795"]]``), "" for none."""
    text = issued.get("literal") or issued.get("raw") if isinstance(issued, Mapping) else issued
    if not text and isinstance(issued, Mapping):
        parts = issued.get("date-parts")
        first = parts[0] if isinstance(parts, list) and parts else None
        if isinstance(first, list) and first and first[0] not in (None, ""):
            return "-".join(str(part) for part in first[:3])
    return " ".join(text.split()) if isinstance(text, str) else ""


CSL_JSON = Reader(
    name="CSL-JSON",
    label="CSL-JSON",
    suffixes=CSL_SUFFIXES,
    sniff=sniff_csl_json,
    read=read_csl_json,
)
