"""A CSL-JSON ``issued`` that holds nothing a year can be read from (``{}``, ``{"date-parts":
[[null]]}`` as Crossref writes a work of no date, ``{"date-parts": []}``, ``{"literal": ""}``)
gave a paper without a year and no word of it; it is said now, in the line that says the dates
typed as text that name no year. No ``issued`` at all is no date to warn of. The forms
citeproc-js and Zotero write (date-parts of strings, ``raw``, ``literal``, a ``season``) still
give their years."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Final

from storage import Library
from storage.models import ImportReport
from storage.sources.citation import year_of

EMPTY: list[Any] = [{}, {"date-parts": [[None]]}, {"date-parts": []}, {"literal": ""}]
#: citeproc-js's older form with a year past any number orjson writes (``json_lists.loads``).
HUGE: Final = {"year": 10**25}
#: As citeproc-js reads them (its test suite's inputs) and Zotero writes them.
READ: list[tuple[Any, int]] = [
    ({"date-parts": [["2024", "5", "7"]]}, 2024),  # Zotero: the parts as strings
    ({"raw": "2023-05-07"}, 2023),
    ({"literal": "Spring 2022"}, 2022),
    ({"date-parts": [[2021]], "season": 2}, 2021),
    ({"date-parts": [[2019, 3]], "season": "Summer"}, 2019),
]


def _item(number: int, issued: Any) -> dict[str, Any]:
    item = {
        "id": f"item{number}",
        "type": "article-journal",
        "title": f"Sparse Attention at Scale, Part {number}",
        "author": [{"family": "Lee", "given": "Ann"}],
    }
    return item if issued is ... else {**item, "issued": issued}


def _imported(tmp_path: Path, items: list[Any]) -> tuple[ImportReport, list[int | None]]:
    source = tmp_path / "items.csl.json"
    source.write_text(json.dumps(items), encoding="utf-8")
    library = Library(tmp_path / "home")
    report = library.import_file(source)
    assert (report.added, report.errors) == (len(items), [])
    return report, [year_of(p) for p in library.papers()]


def test_an_issued_that_gives_nothing_is_said(tmp_path: Path) -> None:
    empty = [*EMPTY, HUGE]
    items = [_item(1, ...), _item(2, None)] + [_item(n, d) for n, d in enumerate(empty, 3)]
    report, years = _imported(tmp_path, items)
    assert years == [None] * 7
    [warning] = report.warnings
    assert "items.csl.json: 5 records' dates give no year (record 3: '{}')" in warning


def test_one_empty_issued_among_dates_is_named(tmp_path: Path) -> None:
    items = [_item(n, d) for n, (d, _) in enumerate(READ, 1)]
    items.append(_item(len(items) + 1, {"date-parts": [[None]]}))
    report, years = _imported(tmp_path, items)
    assert years == [year for _, year in READ] + [None]
    assert report.warnings == [
        f"{tmp_path / 'items.csl.json'}: a record's date gives no year (record 6: "
        """'{"date-parts":[[null]]}'); imported without one"""
    ]


def test_an_issued_nested_deep_is_said_not_an_internal_error(tmp_path: Path) -> None:
    """A date of lists in lists 995 deep (as deep as the parser reads): orjson writes 255
    levels, and ``repr`` reached Python's recursion limit: the import of the whole file
    stopped in an internal error (RecursionError)."""
    items = json.dumps([_item(1, "DEEP"), _item(2, {"date-parts": [[2024]]})])
    source = tmp_path / "items.csl.json"
    source.write_text(items.replace('"DEEP"', "[" * 995 + "]" * 995), encoding="utf-8")
    library = Library(tmp_path / "home")
    report = library.import_file(source)
    assert (report.added, report.errors) == (2, [])
    assert sorted(map(str, map(year_of, library.papers()))) == ["2024", "None"]
    [warning] = report.warnings
    assert "a record's date gives no year (record 1: '[[[[[[" in warning
