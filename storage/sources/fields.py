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
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from storage.models import Decision, ExtraValue, Status

__all__ = [
    "EXTRA_FIELDS",
    "ExtraField",
    "decision_of",
    "extra_fields",
    "extra_value",
    "lists_of",
    "triage_status",
]


@dataclass(frozen=True, slots=True)
class ExtraField:
    """One extra fact of a paper: its name, its label, the field names sources use for it."""

    #: Our name, as stored and exported: ``rating``.
    name: str
    #: For people: ``Rating``.
    label: str
    #: Field names (lower case) real lists give it under.
    aliases: tuple[str, ...]
    #: ``float``, ``int`` or ``str``: numbers are read from text, lists of numbers averaged.
    kind: type


#: Every extra field, in the order papers keep and show them.
EXTRA_FIELDS: Final[tuple[ExtraField, ...]] = (
    ExtraField(
        "rating",
        "Rating",
        (
            "rating",
            "ratings",
            "avg_rating",
            "rating_avg",
            "average_rating",
            "mean_rating",
            "review_rating",
            "review_ratings",
            "score",
            "scores",
            "avg_score",
        ),
        float,
    ),  # fmt: skip
    ExtraField(
        "citations",
        "Citations",
        (
            "citations",
            "citation_count",
            "citationcount",
            "n_citations",
            "num_citations",
            "cited_by",
            "cited_by_count",
            "citedby",
            "is-referenced-by-count",
        ),
        int,
    ),  # fmt: skip
    ExtraField(
        "area",
        "Area",
        ("primary_area", "area", "research_area", "subject_area", "track"),
        str,
    ),
    ExtraField("doi", "DOI", ("doi",), str),
    ExtraField("tldr", "TL;DR", ("tldr", "tl;dr", "tl_dr"), str),
    # what a fetch brings (storage/fetch): the reviews' scores one by one, their mean
    # confidence, the PDF's full URL, arXiv's id and first date, Paper Copilot's extras
    ExtraField("ratings", "Ratings", ("ratings",), str),
    ExtraField("confidence", "Confidence", ("confidence", "confidences", "avg_confidence"), float),
    ExtraField("pdf", "PDF", ("pdf", "pdf_url", "pdfurl", "pdf_link"), str),
    ExtraField("arxiv", "arXiv", ("arxiv", "arxiv_id", "eprint"), str),
    ExtraField("published", "Published", ("published", "publication_date"), str),
    ExtraField("affiliations", "Affiliations", ("affiliations", "aff"), str),
    ExtraField("project", "Project page", ("project", "project_page", "project_url"), str),
)
_BY_NAME: Final = {f.name: f for f in EXTRA_FIELDS}
_NUMBER: Final = re.compile(r"[-+]?\d+(?:\.\d+)?")
#: A text field longer than this is not a short fact (an area, a DOI, a TL;DR).
_MAX_TEXT: Final = 1000


def _numbers(value: Any) -> list[float]:
    """The numbers a field holds: a number, a list of them, text such as "6; 8; 5" or
    "6: marginally above"."""
    if isinstance(value, bool):
        return []
    if isinstance(value, int | float):
        return [float(value)] if math.isfinite(value) else []
    if isinstance(value, str):
        return [float(n) for n in _NUMBER.findall(value[:_MAX_TEXT])[:100]]
    if isinstance(value, Mapping):
        return _numbers(value.get("value"))
    if isinstance(value, list | tuple):
        return [n for item in value[:100] for n in _numbers(item)[:1]]
    return []


def extra_value(field: ExtraField, value: Any) -> ExtraValue | None:
    """A source's value as the field's kind; None when it holds none."""
    if field.kind is str:
        if isinstance(value, list | tuple):
            value = ", ".join(str(v) for v in value if isinstance(v, str | int | float))
        if not isinstance(value, str | int | float) or isinstance(value, bool):
            return None
        text = " ".join(str(value)[:_MAX_TEXT].split())
        return text or None
    numbers = _numbers(value)
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
        for field in EXTRA_FIELDS:
            if field.name in found:
                continue
            for alias in field.aliases:
                if alias in source:
                    value = extra_value(field, source[alias])
                    if value is not None:
                        found[field.name] = value
                        break
    return tuple((f.name, found[f.name]) for f in EXTRA_FIELDS if f.name in found)


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


def decision_of(item: Mapping[str, Any]) -> Decision | None:
    """What a record says the user made of the paper: a triage ``status``, a ``note``,
    ``tags``, ``decided_at``; None when it says nothing of it."""
    status = triage_status(item.get("status"))
    note = item.get("note")
    note = note.strip() if isinstance(note, str) else ""
    tags = _tags(item.get("tags"))
    if status is None and not note and not tags:
        return None
    at = _time(item.get("decided_at")) if status not in (None, Status.INBOX) else None
    return Decision(status or Status.INBOX, note, tags, at)


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
