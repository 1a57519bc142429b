"""JSON: an array of paper objects, the records ``papers list --json`` prints."""

from __future__ import annotations

from collections.abc import Sequence

import orjson

from storage.export.exporter import DEFAULT_OPTIONS, Exporter, ExportOptions
from storage.export.selection import paper_record
from storage.files.triage_file import TriageState
from storage.models import Paper


def to_json(
    papers: Sequence[Paper], triage: TriageState, options: ExportOptions = DEFAULT_OPTIONS
) -> str:
    """A JSON array of paper objects (``paper_record``), in list order."""
    records = [paper_record(p, triage) for p in papers]
    return orjson.dumps(records, option=orjson.OPT_INDENT_2).decode("utf-8") + "\n"


JSON = Exporter(
    name="json",
    label="JSON",
    suffix=".json",
    description="an array of paper objects with status, note and tags",
    write=to_json,
)
