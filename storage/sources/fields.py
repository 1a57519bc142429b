"""The fields of a record beyond title and abstract: extra facts (ratings, citations, area),
the venue, the lists, and the decisions our own exports carry.

Real lists carry review ratings, citation counts and the primary area; ``EXTRA_FIELDS``
declares each once (its name, the field names sources use, the kind of value) and
``extra_fields`` reads them from a record's fields. A record of our own export (JSON, CSV) or
of a library also says what the user made of the paper: ``decision_of`` reads it, telling the
triage ``status`` from a venue's ``status`` ("starred" is ours, "Accept (Oral)" the venue's).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from storage.models import Decision, ExtraValue, Place, Status
from storage.queue.order import place_from_text, place_of
from storage.sources.venues import cased_venue

__all__ = [
    "EXTRA_FIELDS",
    "BadField",
    "ExtraField",
    "decision_of",
    "edited_by",
    "extra_fields",
    "extra_value",
    "lists_of",
    "tied_again",
    "written_whole",
    "triage_status",
]


class BadField(ValueError):
    """A field whose value cannot be what the field says (a citation count of 1e308): the
    record holding it is refused, with this one-line reason, and the file goes on."""


@dataclass(frozen=True, slots=True)
class ExtraField:
    """One extra fact of a paper: its name, its label, the field names sources use for it."""

    #: Our name, as stored and exported: ``rating``.
    name: str
    #: For people: ``Rating``.
    label: str
    #: Field names (lower case) real lists give it under (our exports give it by ``name``).
    aliases: tuple[str, ...]
    #: ``float``, ``int`` or ``str``: numbers are read from text, lists of numbers averaged.
    kind: type
    #: The numbers a number field may hold (a rating, a count, a year, a month).
    low: float = 0.0
    high: float = 1e9
    #: How the value is read from text, when not as a number or a line (a month's name).
    parse: Callable[[str], ExtraValue | None] | None = None
    #: Text kept as given, not made one line (a path): at most this many characters (0: a
    #: line, cut at ``_MAX_TEXT``).
    verbatim: int = 0

    @property
    def names(self) -> tuple[str, ...]:
        """The field names it is read under: ours first, then the aliases."""
        return (self.name, *(a for a in self.aliases if a != self.name))


_MONTH_NAMES: Final = {
    name: number
    for number, names in enumerate(
        (
            ("jan", "january"), ("feb", "february"), ("mar", "march"), ("apr", "april"),
            ("may",), ("jun", "june"), ("jul", "july"), ("aug", "august"),
            ("sep", "sept", "september"), ("oct", "october"), ("nov", "november"),
            ("dec", "december"),
        ),
        start=1,
    )
    for name in names
}  # fmt: skip
_YEAR_IN_TEXT: Final = re.compile(r"(?<!\d)([12]\d{3})(?!\d)")


def _month(text: str) -> int | None:
    """``may``, ``May``, ``5``, ``05``, ``2024-05-17`` → 5; None for no month."""
    word = text.strip().casefold().rstrip(".")
    if word in _MONTH_NAMES:
        return _MONTH_NAMES[word]
    # a month and its day (BibTeX's ``jan # "~15"``, ``January 15``, ``15 Jan``)
    named = [_MONTH_NAMES[w] for w in re.findall(r"[a-z]+", word) if w in _MONTH_NAMES]
    if len(named) == 1 and re.fullmatch(r"[a-z]+[\s~.,]*\d{1,2}|\d{1,2}[\s~.,]*[a-z]+", word):
        return named[0]
    date = re.fullmatch(r"\d{4}-(\d{1,2})(?:-\d{1,2})?(?:[T ].*)?|(\d{1,2})~\d{1,2}", word)
    digits = (date.group(1) or date.group(2)) if date else word
    return int(digits) if digits.isdigit() and len(digits) <= 2 and 1 <= int(digits) <= 12 else None


_RANGE: Final = re.compile(r"^(\w+)\s*(?:-{1,3}|[‐‑‒–—−])\s*(\w+)$")


def _pages(text: str) -> str:
    """``1-10``, ``1--10``, ``1 – 10`` → ``1–10`` (one way of writing a range, whatever wrote
    it: a round trip through RIS's start and end pages changes nothing)."""
    match = _RANGE.match(text)
    return f"{match.group(1)}–{match.group(2)}" if match else text


def _area(text: str) -> str:
    """A research area in words: Paper Copilot's slug (``generative_models``,
    ``applications_to_computer_vision,_audio,_language,_and_other_modalities``) as OpenReview
    writes it, so that ``area:"generative models"`` finds it and a fetch of the venue from
    either source leaves it as it was."""
    return text.replace("_", " ") if "_" in text and " " not in text.strip() else text


def year_in(text: str) -> int | None:
    """The year a text gives: ``2025``, ``2025-01-31``, ``Spring 2024`` → the year."""
    match = _YEAR_IN_TEXT.search(text[:100])
    return int(match.group(1)) if match else None


#: A year as pandas writes a column of numbers with a gap in it: ``2021.0``.
_FLOAT_YEAR: Final = re.compile(r"(\d{1,4})(?:\.0+|[a-z])")


def year_text(text: str) -> str:
    """A year field's text without pandas' decimals, ``2021`` of ``2021.0``, or the letter a
    reference list tells two works of one year apart by, ``2023`` of BibTeX's ``2023a``."""
    found = _FLOAT_YEAR.fullmatch(text)
    return found.group(1) if found else text


#: A text field longer than this is not a short fact (an area, a DOI, a TL;DR).
_MAX_TEXT: Final = 1000

#: Every extra field, in the order papers keep and show them.
EXTRA_FIELDS: Final[tuple[ExtraField, ...]] = (
    ExtraField(
        "rating",
        "Rating",
        (
            "rating", "ratings", "avg_rating", "rating_avg", "average_rating", "mean_rating",
            "review_rating", "review_ratings", "score", "scores", "avg_score",
        ),
        float,
        low=-1e6,
        high=1e6,
    ),
    ExtraField(
        "citations",
        "Citations",
        (
            "citations", "citation_count", "citationcount", "n_citations", "num_citations",
            "cited_by", "cited_by_count", "citedby", "is-referenced-by-count",
        ),
        int,
    ),
    # Paper Copilot's ``track`` ("main") says which track, not the area.
    ExtraField(
        "area", "Area", ("primary_area", "area", "research_area", "subject_area"), str, parse=_area
    ),
    ExtraField("doi", "DOI", ("doi",), str),
    # OpenReview's notes name it ``TL;DR`` (API v1), ``TLDR`` (v2), ``one-sentence_summary``
    # (ICLR 2021's and other venues' of v1)
    ExtraField("tldr", "TL;DR", ("tldr", "tl;dr", "tl_dr", "one-sentence_summary"), str),
    # What a reference cites (BibTeX, RIS, CSL-JSON and lists that give them), written back.
    ExtraField("entry_type", "Type", ("entry_type",), str),
    ExtraField("year", "Year", ("year",), int, low=1000, high=2999, parse=year_in),
    ExtraField("month", "Month", ("month",), int, low=1, high=12, parse=_month),
    ExtraField("date", "Date", ("date", "publication_date"), str),
    # a venue all in lower case (Google Scholar's ``nature``) as people write it
    ExtraField(
        "journal", "Journal", ("journal", "journaltitle", "journal_name"), str, parse=cased_venue
    ),
    ExtraField("booktitle", "Book title", ("booktitle", "proceedings"), str, parse=cased_venue),
    ExtraField("publisher", "Publisher", ("publisher",), str),
    ExtraField("school", "School", ("school",), str),
    ExtraField("institution", "Institution", ("institution",), str),
    ExtraField("volume", "Volume", ("volume",), str),
    ExtraField("issue", "Number", ("issue", "issue_number"), str),
    ExtraField("pages", "Pages", ("pages", "page"), str, parse=_pages),
    ExtraField("bib_note", "Note (of the reference)", ("bib_note",), str),
    ExtraField("eprint", "arXiv id", ("eprint", "arxiv_id", "arxivid", "arxiv"), str),
    ExtraField("archiveprefix", "Archive", ("archiveprefix", "eprinttype"), str),
    ExtraField(
        "primaryclass", "Category", ("primaryclass", "primary_category", "eprintclass"), str
    ),
    ExtraField("pdf", "PDF", ("pdf", "pdf_url", "pdfurl", "pdf_link"), str),
    ExtraField("isbn", "ISBN", ("isbn",), str),
    ExtraField("issn", "ISSN", ("issn",), str),
    # what a fetch brings (storage/fetch): the reviews' scores one by one, their mean
    # confidence, Paper Copilot's extras
    ExtraField("ratings", "Ratings", ("ratings",), str),
    ExtraField("confidence", "Confidence", ("confidence", "confidences", "avg_confidence"), float),
    ExtraField("affiliations", "Affiliations", ("affiliations", "aff"), str),
    ExtraField("project", "Project page", ("project", "project_page", "project_url"), str),
    # a reference manager's copy of the PDF, an absolute path (``storage.sources.attachments``);
    # last, so that the columns of a CSV export written before it keep their places
    ExtraField("file", "Attachment", ("file",), str, verbatim=_MAX_TEXT),
    # the people of a book or proceedings volume that names only its editors, who are its
    # ``authors`` as its readers cite it (its id and search unchanged): ``edited_by`` names
    # them, so that the exports call them editors (``storage.sources.citation.editors_only``)
    ExtraField("edited_by", "Edited by", (), str),
    # the editors of the book or proceedings a paper that names its authors is in (a
    # chapter's book's: RIS's ``A2``, BibTeX's and CSL's ``editor`` beside ``author``,
    # PubMed's ``FED``), named as ``edited_by`` names them, written back as its editors
    ExtraField("editors", "Editors", (), str),
    # the series a book or a volume is in (BibTeX's ``series``, CSL's ``collection-title``,
    # RIS's ``T3``, a RIS book's ``T2``, DBLP's ``<series>``; ``volume`` its number in it)
    ExtraField("series", "Series", ("series", "collection-title"), str),
    # the editors of that series (Zotero's "Series Editor": RIS's ``A2`` of a book, ``A3`` of
    # a chapter or a paper; CSL's ``collection-editor``; EndNote's secondary author of a book,
    # tertiary of a chapter), named as ``editors`` names them
    ExtraField("series_editors", "Series editors", (), str),
    # a persistent identifier beside the DOI: DBLP's BibTeX of a Dagstuhl (LIPIcs, OASIcs)
    # paper, ``urn = {urn:nbn:de:0030-drops-62345}``, written back by the BibTeX export
    ExtraField("urn", "URN", ("urn",), str),
    # the people its source wrote whole, no person's parts (CSL's ``{"literal": …}``, BibTeX's
    # ``{Acme Widgets}``): an organization the exports write whole, named as ``edited_by``
    # names people (``storage.sources.authors.name_parts``'s ``whole``)
    ExtraField("literal_names", "Names written whole", (), str),
)  # fmt: skip
_BY_NAME: Final = {f.name: f for f in EXTRA_FIELDS}
_NAMES: Final = {f.name: f.names for f in EXTRA_FIELDS}
_ALL_NAMES: Final = frozenset(name for names in _NAMES.values() for name in names)
_NUMBER: Final = re.compile(r"[-+]?\d{1,30}(?:\.\d{1,30})?(?:[eE][-+]?\d{1,4})?")


def _numbers(value: Any) -> list[float]:
    """The numbers a field holds: a number, a list of them, text such as "6; 8; 5" or
    "6: marginally above". A number no float holds is infinite (``_checked`` refuses it)."""
    if isinstance(value, bool):
        return []
    if isinstance(value, int):
        return [float(value) if value.bit_length() < 1000 else math.inf]
    if isinstance(value, float):
        return [value]
    if isinstance(value, str):
        text = value[:_MAX_TEXT]
        if re.search(r"\d{31}", text):  # digits past what any count or rating holds
            return [math.inf]
        return [float(n) for n in _NUMBER.findall(text)[:100]]
    if isinstance(value, Mapping):
        return _numbers(value.get("value"))
    if isinstance(value, list | tuple):
        return [n for item in value[:100] for n in _numbers(item)[:1]]
    return []


def _shown(value: Any) -> str:
    text = value if isinstance(value, str) else repr(value)
    return " ".join(text[:40].split()) + ("…" if len(text) > 40 else "")


def _checked(field: ExtraField, number: float, value: Any) -> float:
    if not math.isfinite(number) or not field.low <= number <= field.high:
        raise BadField(
            f"{field.name} = {_shown(value)}: out of range ({field.low:,.0f} to {field.high:,.0f})"
        )
    return number


def extra_value(field: ExtraField, value: Any) -> ExtraValue | None:
    """A source's value as the field's kind; None when it holds none. ``BadField`` for a
    number out of the field's bounds (a count of 1e308, a rating of 400 digits)."""
    if field.kind is str:
        if isinstance(value, list | tuple):
            value = ", ".join(str(v) for v in value if isinstance(v, str | int | float))
        if not isinstance(value, str | int | float) or isinstance(value, bool):
            return None
        if field.verbatim:
            return value if isinstance(value, str) and 0 < len(value) <= field.verbatim else None
        text = " ".join(str(value)[:_MAX_TEXT].split())
        if text and field.parse is not None:
            found = field.parse(text)
            return found if found is not None else text
        return text or None
    if field.parse is not None:
        if isinstance(value, list | tuple) and value:
            value = value[0]
        if isinstance(value, float) and value.is_integer():  # pandas' year: 2021.0
            value = int(value)
        if isinstance(value, int) and not isinstance(value, bool):
            return int(
                _checked(field, float(value) if value.bit_length() < 64 else math.inf, value)
            )
        found = field.parse(value) if isinstance(value, str) else None
        return int(_checked(field, found, value)) if isinstance(found, int) else found
    numbers = [_checked(field, n, value) for n in _numbers(value)]
    if not numbers:
        return None
    mean = sum(numbers) / len(numbers)
    if field.kind is int:
        return max(0, round(mean))
    return round(mean, 2)


def extra_fields(item: Mapping[str, Any]) -> tuple[tuple[str, ExtraValue], ...]:
    """The extra fields of a record (names lower case), in ``EXTRA_FIELDS`` order.

    An ``extra`` object (our own exports) is read first; then each field's aliases.
    """
    found: dict[str, ExtraValue] = {}
    nested = item.get("extra")
    sources = [nested, item] if isinstance(nested, Mapping) else [item]
    for source in sources:
        present = _ALL_NAMES.intersection(source)  # a record holds few: most fields are skipped
        if not present:
            continue
        for field in EXTRA_FIELDS:
            names = _NAMES[field.name]
            if field.name in found or present.isdisjoint(names):
                continue
            for alias in names:
                if alias in source:
                    value = extra_value(field, source[alias])
                    if value is not None:
                        found[field.name] = value
                        break
    if not found:  # most records of a list (the order below runs over every field)
        return ()
    if "date" in found and "month" not in found and "year" in found:
        # a date beside a year (Zotero's CSV: ``Date`` 2024-05-01, ``Publication Year``):
        # its month is the citation's too, as a BibTeX date's is (not when the year differs:
        # an arXiv date of a paper its venue places a year later)
        date = str(found["date"])
        month = _month(date) if year_in(date) == found["year"] else None
        if month is not None:
            found["month"] = month
    return tuple((f.name, found[f.name]) for f in EXTRA_FIELDS if f.name in found)


def edited_by(authors: Sequence[str]) -> ExtraValue | None:
    """The ``edited_by`` fact of a paper whose people ``authors`` are its editors (and the
    ``editors`` fact of a paper whose book's editors they are: the same text). The names are
    as the library keeps them (``storage.sources.authors.names_of``): a family name's tie
    (``FAMILY_TIE``) is kept, so that the exports write each editor's family name whole."""
    text = "; ".join(authors)[:_MAX_TEXT].strip()
    return text or None


#: The extra fields that hold names, as ``edited_by`` writes them.
NAME_FIELDS: Final = ("edited_by", "editors", "series_editors", "literal_names")


def tied_again(
    authors: tuple[str, ...], extra: tuple[tuple[str, ExtraValue], ...], families: Any
) -> tuple[tuple[str, ...], tuple[tuple[str, ExtraValue], ...]]:
    """The authors and extra fields of a record of our JSON or CSV export, which writes names
    plain, with its ``family_names`` (a list, or a text parted by ";") tied again in them
    (``storage.sources.authors.retied``), as the library kept them."""
    from storage.sources.authors import retied

    if isinstance(families, str):
        families = families.split(";")
    if not isinstance(families, list):
        return authors, extra
    named = [" ".join(f.split()) for f in families[:MAX_FAMILY_NAMES] if isinstance(f, str)]
    named = [f for f in named if 1 < len(f.split()) <= 4]
    if not named:
        return authors, extra
    tied = tuple(retied(a, named) for a in authors)
    fields = tuple(
        (k, "; ".join(retied(n, named) for n in v.split("; ")))
        if k in NAME_FIELDS and isinstance(v, str)
        else (k, v)
        for k, v in extra
    )
    return tied, fields


def written_whole(value: ExtraValue | None) -> frozenset[str]:
    """The names a paper's source wrote whole (its ``literal_names`` fact), as its people are."""
    return frozenset(value.split("; ")) if isinstance(value, str) and value else frozenset()


#: The family names a record's ``family_names`` ties again, at most.
MAX_FAMILY_NAMES: Final = 1000


def merge_extra(
    old: Iterable[tuple[str, ExtraValue]], new: Iterable[tuple[str, ExtraValue]]
) -> tuple[tuple[str, ExtraValue], ...]:
    """Extra fields of two records of one paper: the newer value of each, in table order."""
    found = dict(old)
    found.update(new)
    return tuple((f.name, found[f.name]) for f in EXTRA_FIELDS if f.name in found)


#: The words a triage status is written as in our exports (and a few aliases).
_TRIAGE_WORDS: Final = {s.value: s for s in Status} | {"star": Status.STARRED}


def triage_status(value: Any) -> Status | None:
    """The triage status a ``status`` field names, or None (then it is a venue's status)."""
    if not isinstance(value, str):
        return None
    return _TRIAGE_WORDS.get(value.strip().casefold())


def _tags(value: Any) -> tuple[str, ...]:
    from storage.files.triage_file import normalise_tags

    if isinstance(value, str):
        return normalise_tags(re.split(r"[;,]", value[:_MAX_TEXT]))
    if isinstance(value, list | tuple):
        return normalise_tags([v for v in value[:100] if isinstance(v, str)])
    return ()


def _time(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        return None
    try:
        at = float(value)
    except ValueError:
        return None
    return at if math.isfinite(at) and 0 < at < 1e11 else None


def _position(value: Any) -> Place | None:
    """A queue place as our exports write it (a number, a path as a list; or its text in a
    CSV cell: ``storage.queue.order.place_text``)."""
    return place_from_text(value) if isinstance(value, str) else place_of(value)


def decision_of(item: Mapping[str, Any]) -> Decision | None:
    """What a record says the user made of the paper: a triage ``status`` (None when it names
    none), a ``note``, ``tags``, ``decided_at``, a starred paper's ``queue_position``; None
    when it says nothing of it."""
    status = triage_status(item.get("status"))
    note = item.get("note")
    note = note.strip() if isinstance(note, str) else ""
    tags = _tags(item.get("tags"))
    if status is None and not note and not tags:
        return None
    at = _time(item.get("decided_at")) if status not in (None, Status.INBOX) else None
    place = _position(item.get("queue_position")) if status is Status.STARRED else None
    return Decision(status, note, tags, at, place)


def without_tags(keywords: Any, tags: Any) -> list[str]:
    """The source's keywords of a list that holds the user's tags too (Mendeley's BibTeX:
    ``keywords``, and the tags among them in ``mendeley-tags``): each keyword a tag is, left
    out. Each is a list, or text of items parted by commas or semicolons."""
    named = set(_items(tags))
    return [k for k in _items(keywords) if k not in named]


def keywords_before_tags(keywords: Any, tags: Any) -> list[str]:
    """The source's keywords of our exports' list, which holds them and then the user's tags
    that are none of them (``storage.export.selection.keywords_and_tags``): what comes before
    the longest end of the list that is those tags. A tag that is a keyword too is so read,
    unless it ends the keywords: the list is written again as it was read either way."""
    found, named = _items(keywords), list(dict.fromkeys(_items(tags)))
    for start in range(max(0, len(found) - len(named)), len(found)):
        known = {k.casefold() for k in found[:start]}
        if found[start:] == [t for t in named if t.casefold() not in known]:
            return found[:start]
    return found


def _items(value: Any) -> list[str]:
    """A list of texts, or text of items parted by commas or semicolons, as its items."""
    parts = re.split(r"[;,]", value) if isinstance(value, str) else value or ()
    return [" ".join(p.split()) for p in parts if isinstance(p, str) and p.strip()]


def lists_of(item: Mapping[str, Any]) -> tuple[str, ...]:
    """The lists a record says the paper is in (``lists``, else ``list``), as our exports
    write them; () when it says none."""
    value = item.get("lists")
    if isinstance(value, str):  # a CSV cell: "first list; second list"
        value = value.split(";")
    value = value or item.get("list")
    names = [value] if isinstance(value, str) else value if isinstance(value, list) else []
    clean = (" ".join(n.split())[:200] for n in names[:100] if isinstance(n, str))
    return tuple(dict.fromkeys(n for n in clean if n))
