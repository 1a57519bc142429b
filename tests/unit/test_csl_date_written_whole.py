"""A CSL-JSON date written whole inside its ``date-parts`` (``[["2017-06-12"]]``, as some
converters of other formats write it) gave no year: the import warned "a record's date gives
no year" and the paper came without one. It is read as the date it is."""

from __future__ import annotations

import json
from pathlib import Path

from storage import Library
from storage.sources.citation import year_of

ITEMS = [
    {
        "id": "vaswani2017",
        "type": "paper-conference",
        "title": "Attention Is All You Need",
        "container-title": "Advances in Neural Information Processing Systems",
        "author": [{"family": "Vaswani", "given": "Ashish"}],
        "issued": {"date-parts": [["2017-06-12"]]},
    },
    {
        "id": "he2016",
        "type": "paper-conference",
        "title": "Deep Residual Learning for Image Recognition",
        "author": [{"family": "He", "given": "Kaiming"}],
        "issued": {"date-parts": [["2016-06"]]},
    },
]


def test_a_date_written_whole_in_its_date_parts_gives_its_year(tmp_path: Path) -> None:
    source = tmp_path / "items.csl.json"
    source.write_text(json.dumps(ITEMS), encoding="utf-8")
    library = Library(tmp_path / "home")
    report = library.import_file(source)
    assert report.added == 2 and not report.warnings, report.warnings
    first, second = library.papers()
    assert (year_of(first), first.fact("date")) == (2017, "2017-06-12")
    assert (year_of(second), second.fact("month")) == (2016, 6)


def test_citeproc_js_older_date_object_gives_its_year(tmp_path: Path) -> None:
    """``{"year": "1965", "month": "6", "day": "1"}``: the date as the CSL test suite's input
    gives it (citeproc-js reads it, and scripts writing CSL-JSON still write it, numbers or
    text). Its year was lost in silence: no date-parts, no raw, no literal."""
    items = [
        {"id": "ID-1", "type": "book", "title": "His Anonymous Life",
         "author": [{"family": "Doe", "given": "John"}],
         "issued": {"year": "1965", "month": "6", "day": "1"}},
        {"id": "a", "type": "article-journal", "title": "Deep Learning",
         "container-title": "Nature", "author": [{"family": "LeCun", "given": "Yann"}],
         "issued": {"year": 2015}},
    ]  # fmt: skip
    source = tmp_path / "items.json"
    source.write_text(json.dumps(items), encoding="utf-8")
    library = Library(tmp_path / "home")
    report = library.import_file(source)
    assert report.added == 2 and not report.warnings, report.warnings
    book, article = library.papers()
    assert (year_of(book), book.fact("date")) == (1965, "1965-06-01")
    assert year_of(article) == 2015
