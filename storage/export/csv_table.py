"""CSV (RFC 4180): a header row, then one row per paper, safe to open in a spreadsheet.

It carries what ``papers import`` needs to restore the papers and their decisions (status,
note, tags, keywords, lists, venue, extra fields, decision time): our CSV reader reads it
back whole.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterator, Sequence

from storage.export.exporter import DEFAULT_OPTIONS, Exporter, ExportOptions
from storage.export.selection import paper_record
from storage.files.triage_file import TriageState
from storage.models import Paper
from storage.queue.order import place_text
from storage.sources.fields import EXTRA_FIELDS

CSV_COLUMNS = (
    "id", "title", "status", "authors", "url", "github", "list",
    "venue_status", "tags", "note", "abstract", "keywords", "lists", "venue", "decided_at",
    "title_derived", "queue_position",
    *(f.name for f in EXTRA_FIELDS),
    # last, so that the columns of an export written before it keep their places
    "family_names",
)  # fmt: skip

#: A cell starting with one of these is a formula to a spreadsheet (OWASP's list).
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
#: A cell that reads as a guarded one: quotes, then what a guard stands before.
_QUOTED = re.compile(r"'+[=+\-@\t\r\n]")


def to_csv(
    papers: Sequence[Paper], triage: TriageState, options: ExportOptions = DEFAULT_OPTIONS
) -> str:
    """One row per paper; several authors, tags and lists joined by "; ", links by spaces."""
    return "".join(csv_pieces(papers, triage, options))


#: Rows made before they are given as one piece.
_ROWS_AT_ONCE = 256


class _Rows:
    """Where the CSV writer puts its rows: kept until they are taken (``csv.writer`` writes to
    anything with a ``write``)."""

    def __init__(self) -> None:
        self.written: list[str] = []
        self.write = self.written.append

    def taken(self) -> str:
        text = "".join(self.written)
        self.written.clear()
        return text


def csv_pieces(
    papers: Sequence[Paper], triage: TriageState, options: ExportOptions = DEFAULT_OPTIONS
) -> Iterator[str]:
    """``to_csv`` in pieces: the header row, then a few hundred rows at a time."""
    rows = _Rows()
    writer = csv.writer(rows, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for number, paper in enumerate(papers, 1):
        record = paper_record(paper, triage)
        record["authors"] = names_cell(record["authors"])  # (plain: ``paper_record``)
        record["family_names"] = "; ".join(record["family_names"])
        record["keywords"] = "; ".join(paper.keywords)
        record["github"] = " ".join(paper.github)
        record["tags"] = "; ".join(record["tags"])
        record["lists"] = "; ".join(record["lists"])
        at = record["decided_at"]
        # seconds, with the milliseconds a decision has (stars a second apart keep their order)
        record["decided_at"] = "" if at is None else f"{at:.3f}".rstrip("0").rstrip(".")
        record["title_derived"] = "true" if paper.title_derived else ""
        place = record["queue_position"]
        record["queue_position"] = "" if place is None else place_text(place)
        record.update(record.pop("extra"))  # (its year is the year's: the same, or none)
        record["year"] = record["year"] or ""
        writer.writerow([csv_safe(str(record.get(c, ""))) for c in CSV_COLUMNS])
        if number % _ROWS_AT_ONCE == 0:
            yield rows.taken()
    yield rows.taken()


def names_cell(authors: Sequence[str]) -> str:
    """The authors' cell: names parted by "; ", and a lone name that holds a comma or an
    " and " ended by one (``O'Brien, Zoë;``): our reader, as others, reads a cell without one
    as names parted by commas or "and" (``O'Brien`` and ``Zoë``)."""
    cell = "; ".join(authors)
    lone = len(authors) == 1 and ("," in cell or " and " in cell)
    return f"{cell};" if lone else cell


def csv_safe(value: str) -> str:
    """A cell no spreadsheet runs as a formula: one starting with ``=``, ``+``, ``-``, ``@``,
    a tab or a carriage return gets a leading ``'`` (our reader takes it off again), and so
    does one that starts with quotes before such a character or a line break (the reader
    takes one off those: ``'=`` is written ``''=``). A carriage return is a line break (the
    writer quotes a cell with "\\n", not one with "\\r")."""
    guarded = "'" + value if value.startswith(_FORMULA_STARTS) or _QUOTED.match(value) else value
    # NUL makes a file binary to every reader: it is written as U+FFFD
    return guarded.replace("\r\n", "\n").replace("\r", "\n").replace("\x00", "\ufffd")


CSV = Exporter(
    name="csv",
    label="CSV",
    suffix=".csv",
    description="one row per paper: id, title, status, authors, links, tags, note, abstract…",
    pieces=csv_pieces,
)
