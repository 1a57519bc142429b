"""JSON: an array of paper objects, the records ``papers list --json`` prints."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from itertools import islice
from typing import Any

import orjson

from storage.export.exporter import DEFAULT_OPTIONS, Exporter, ExportOptions
from storage.export.selection import paper_record
from storage.files.triage_file import TriageState
from storage.models import Paper


def to_json(
    papers: Sequence[Paper], triage: TriageState, options: ExportOptions = DEFAULT_OPTIONS
) -> str:
    """A JSON array of paper objects (``paper_record``), in list order."""
    return "".join(json_pieces(papers, triage, options))


def json_pieces(
    papers: Sequence[Paper], triage: TriageState, options: ExportOptions = DEFAULT_OPTIONS
) -> Iterator[str]:
    """``to_json`` in pieces."""
    return json_array_pieces(paper_record(p, triage) for p in papers)


#: Items of an array made and written at a time.
_ITEMS_AT_ONCE = 256


def json_array_pieces(items: Iterable[Any]) -> Iterator[str]:
    """The text of ``orjson.dumps(list(items), option=OPT_INDENT_2)`` and a line end, a few
    hundred items at a time: the array's items, indented, are those of each batch's array."""
    first = True
    left = iter(items)
    while batch := list(islice(left, _ITEMS_AT_ONCE)):
        text = orjson.dumps(batch, option=orjson.OPT_INDENT_2).decode("utf-8")
        # "[\n  {…},\n  {…}\n]": the items, each line indented as in the whole array
        yield ("[\n" if first else ",\n") + text[2:-2]
        first = False
    yield "[]\n" if first else "\n]\n"


JSON = Exporter(
    name="json",
    label="JSON",
    suffix=".json",
    description="an array of paper objects with status, note and tags",
    pieces=json_pieces,
)
