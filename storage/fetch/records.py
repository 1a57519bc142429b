"""Fetched items into the readers' records: the JSON lists reader maps them, as it maps a file.

A source shapes what a service answered into the objects a JSON list holds (an OpenReview
note, a Paper Copilot record) and hands them here a page at a time; the records go into the
source's ``ReadResult`` like a file's, so a fetch is cleaned, matched and stored as an import.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from storage.models import RecordError
from storage.sources.json_lists import read_json_data
from storage.sources.records import ReadResult
from storage.sources.venues import names_workshop


def add_items(
    result: ReadResult,
    items: Sequence[Any],
    first: int,
    statuses: Sequence[str | None] | None = None,
) -> int:
    """Read ``items`` (numbered from ``first``) into ``result``; ``statuses[i]``, when given and
    not None, is item i's venue status (a decision the fetch knows). Returns the records added."""
    before = len(result.records)
    objects = [(i, item) for i, item in enumerate(items) if isinstance(item, Mapping)]
    for i, item in enumerate(items):
        if not isinstance(item, Mapping):
            result.errors.append(RecordError(result.source, first + i, "not an object"))
    if not objects:
        return 0
    read = read_json_data([item for _, item in objects], Path(result.source))
    failed = {error.record for error in read.errors}
    for error in read.errors:
        result.errors.append(
            RecordError(result.source, first + objects[error.record - 1][0], error.reason)
        )
    records = iter(read.records)
    for number, (i, _) in enumerate(objects, start=1):
        if number in failed:
            continue
        record = next(records)
        status = statuses[i] if statuses is not None else None
        result.records.append(record if not status else replace(record, venue_status=status))
    return len(result.records) - before


def in_workshop(result: ReadResult, name: str) -> None:
    """The records of a workshop's papers (``ICLR.cc/2024/Workshop/ME-FoMo``), whose notes
    name their venue without the conference (``ME-FoMo 2024 Poster``), with the workshop's
    ``name`` for venue (``ICLR 2024 Workshop ME-FoMo``): with the list's name alone they were
    the conference's papers, cited in its proceedings. A venue that names a workshop stays."""
    result.records[:] = [
        record if names_workshop(record.venue) else replace(record, venue=name)
        for record in result.records
    ]


#: What a record says for authors it hides: OpenReview v1's withdrawn submissions, and Paper
#: Copilot's records of them ("author": "Anonymous", papercopilot/paperlists iclr/iclr2018.json).
HIDDEN_AUTHORS = frozenset({"anonymous", "anonymous authors"})


def names_no_one(authors: Any) -> bool:
    """Whether an author field hides its authors: "Anonymous", as a list or as the text of a
    list (``Anonymous;Anonymous``). Stored, it would be cited, searched and merged as a person."""
    if isinstance(authors, str):
        authors = re.split(r"[;,]", authors)
    if not isinstance(authors, list) or not authors:
        return False
    return all(isinstance(a, str) and a.strip().casefold() in HIDDEN_AUTHORS for a in authors)


def value_of(content: Mapping[str, Any], key: str) -> Any:
    """A field of an OpenReview note: API v2 wraps each value as ``{"value": x}``, v1 does not."""
    value = content.get(key)
    if isinstance(value, Mapping) and "value" in value:
        return value["value"]
    return value


def numbers(value: Any) -> list[float]:
    """The scores a review field holds: ``6``, ``"6: marginally above"``, ``"5;6;6;6"``."""
    if isinstance(value, Mapping):
        value = value.get("value")
    if isinstance(value, bool):
        return []
    if isinstance(value, int | float):
        return [float(value)] if math.isfinite(value) else []
    if isinstance(value, str):
        text = value[:1000]
        if ";" in text:
            return [n for part in text.split(";") for n in numbers(part)[:1]]
        match = re.match(r"\s*([-+]?\d+(?:\.\d+)?)", text)
        return [float(match[1])] if match else []
    if isinstance(value, list | tuple):
        return [n for item in value[:100] for n in numbers(item)[:1]]
    return []


def score_list(scores: Sequence[float]) -> list[int | float]:
    """Scores as a list kept in the paper (``6`` rather than ``6.0``)."""
    return [int(s) if s.is_integer() else s for s in scores]
