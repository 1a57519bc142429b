"""Paper lists as CSV or TSV (RFC 4180): a header row naming an abstract (or title) column,
one paper per row. Our own CSV export reads back whole: statuses, notes and tags too."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

from storage.errors import SourceError
from storage.sources.records import (
    ALIASES,
    MAX_ABSTRACT_CHARS,
    Fit,
    Reader,
    ReadResult,
    first_line,
)
from storage.text.sanitize import printable

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


def _delimiter(header: str, path: Path) -> str:
    """The delimiter of a header row: the candidate it holds most of, outside quotes.

    Only the delimiter is guessed: quoting is RFC 4180's, whatever the first rows hold
    (``csv.Sniffer`` guesses ``doublequote=False`` when no ``""`` appears early, and then
    splits every abstract that holds a quote).
    """
    outside = re.sub(r'"[^"]*"', "", header)
    counts = {d: outside.count(d) for d in ",\t;"}
    best = max(counts, key=lambda d: counts[d])
    if counts[best] == 0:
        return "\t" if path.suffix.lower() == ".tsv" else ","
    return best


#: Our CSV export writes a cell that a spreadsheet would run as a formula behind a "'":
#: what follows the quote is the cell.
_FORMULA_GUARD = re.compile(r"^'(?=[=+\-@\t\r\n])")


def read_csv(text: str, path: Path) -> ReadResult:
    """A CSV (or TSV) file (RFC 4180) with a header row that names an abstract or title column."""
    header_line = re.split(r"\r\n|\r|\n", text[:65536], maxsplit=1)[0]
    delimiter = _delimiter(header_line, path)
    csv.field_size_limit(max(MAX_ABSTRACT_CHARS * 50, 1 << 24))
    # newline="": rows end at CR, LF or CRLF alike, as the csv module reads them
    rows = io.StringIO(text, newline="")
    reader = csv.reader(rows, delimiter=delimiter, quotechar='"', doublequote=True)
    try:
        header = next(reader)
    except (StopIteration, csv.Error):
        raise SourceError(f"{path}: not a CSV file with a header row") from None
    names = [h.strip().lstrip("\ufeff").lower() for h in header]
    if not set(names) & (set(ALIASES["abstract"]) | set(ALIASES["title"])):
        shown = printable(", ".join(h for h in names[:8] if h)) or "none"  # one line, always
        raise SourceError(f"{path}: the CSV has no abstract or title column (its columns: {shown})")
    result = ReadResult(source=str(path), list_name=path.stem)
    number = 0
    while True:
        try:
            row = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:
            number += 1
            result.refuse(number, f"bad CSV row ({exc})")
            continue
        if not any(cell.strip() for cell in row):
            continue
        number += 1
        fields = {
            names[i]: _FORMULA_GUARD.sub("", cell)
            for i, cell in enumerate(row)
            if i < len(names) and names[i]
        }
        result.add(number, fields)
    return result


CSV_TSV = Reader(
    name="CSV/TSV",
    label="CSV",
    suffixes=CSV_SUFFIXES,
    sniff=sniff_csv,
    read=read_csv,
)
