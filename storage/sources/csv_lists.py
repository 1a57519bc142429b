"""Paper lists as CSV or TSV: a header row that names an abstract column, one paper per row."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

from storage.errors import SourceError
from storage.models import RecordError
from storage.sources.records import (
    ALIASES,
    MAX_ABSTRACT_CHARS,
    Fit,
    Reader,
    ReadResult,
    first_line,
)

CSV_SUFFIXES = (".csv", ".tsv")
#: A first line longer than this is prose, not a header row.
_MAX_HEADER_ROW_CHARS = 500


def sniff_csv(text: str, path: Path) -> Fit:
    """The name says CSV or TSV, or the first line is a header row naming an abstract column."""
    if path.suffix.lower() in CSV_SUFFIXES or _looks_like_csv(text):
        return Fit.HINTED
    return Fit.NO


def _looks_like_csv(text: str) -> bool:
    # Case folding makes no character shorter and none more than three times longer.
    first = first_line(text, 3 * _MAX_HEADER_ROW_CHARS)
    if first is None:
        return False
    first = first.casefold()
    if len(first) > _MAX_HEADER_ROW_CHARS:
        return False
    cells = {c.strip().strip('"') for c in re.split(r"[,\t;]", first)}
    return len(cells) > 1 and bool(cells & set(ALIASES["abstract"]))


def read_csv(text: str, path: Path) -> ReadResult:
    """A CSV (or TSV) file with a header row that names an abstract column."""
    sample = text[:8192]
    try:
        dialect: type[csv.Dialect] | csv.Dialect = csv.Sniffer().sniff(sample, delimiters=",\t;")
    except csv.Error:
        dialect = csv.excel_tab if path.suffix.lower() == ".tsv" else csv.excel
    csv.field_size_limit(max(MAX_ABSTRACT_CHARS * 50, 1 << 24))
    reader = csv.reader(io.StringIO(text), dialect)
    try:
        header = next(reader)
    except (StopIteration, csv.Error):
        raise SourceError(f"{path}: not a CSV file with a header row") from None
    names = [h.strip().lstrip("\ufeff").lower() for h in header]
    if not set(names) & set(ALIASES["abstract"]):
        shown = ", ".join(h for h in names[:8] if h) or "none"
        raise SourceError(f"{path}: the CSV has no abstract column (its columns: {shown})")
    result = ReadResult(source=str(path), list_name=path.stem)
    number = 0
    try:
        for row in reader:
            if not any(cell.strip() for cell in row):
                continue
            number += 1
            result.add(
                number,
                {names[i]: cell for i, cell in enumerate(row) if i < len(names) and names[i]},
            )
    except csv.Error as exc:
        result.errors.append(RecordError(result.source, number + 1, f"bad CSV row ({exc})"))
    return result


CSV_TSV = Reader(
    name="CSV/TSV",
    label="CSV",
    suffixes=CSV_SUFFIXES,
    sniff=sniff_csv,
    read=read_csv,
)
