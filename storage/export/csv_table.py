"""CSV (RFC 4180): a header row, then one row per paper, safe to open in a spreadsheet."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

from storage.export.exporter import DEFAULT_OPTIONS, Exporter, ExportOptions
from storage.export.selection import paper_record
from storage.models import Paper
from storage.triage import TriageSnapshot

CSV_COLUMNS = (
    "id", "title", "status", "authors", "url", "github", "list",
    "venue_status", "tags", "note", "abstract",
)  # fmt: skip


def to_csv(
    papers: Sequence[Paper], triage: TriageSnapshot, options: ExportOptions = DEFAULT_OPTIONS
) -> str:
    """One row per paper; several authors joined by "; ", several links by spaces."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for paper in papers:
        record = paper_record(paper, triage)
        record["authors"] = "; ".join(paper.authors)
        record["github"] = " ".join(paper.github)
        record["tags"] = "; ".join(record["tags"])
        writer.writerow([_csv_safe(str(record[c])) for c in CSV_COLUMNS])
    return out.getvalue()


def _csv_safe(value: str) -> str:
    """Keep spreadsheets from running a cell as a formula (a title starting with "=")."""
    return "'" + value if value[:1] in ("=", "+", "@") or value.startswith("-=") else value


CSV = Exporter(
    name="csv",
    label="CSV",
    suffix=".csv",
    description="one row per paper: id, title, status, authors, links, tags, note, abstract",
    write=to_csv,
)
