"""Years and months as reference managers write dates people typed, one reading for every
reader (``storage.sources.dates``): RIS's ``DA`` written ``May 2024`` (EndNote), ``PY`` as
``c2024`` or ``[2024]`` (library catalogues), ``Y1`` month first; EndNote's ``%8`` date beside
its ``%D`` year; a BibLaTeX ``date`` JabRef let someone type as ``May 2013``; CSL-JSON whose
``date-parts`` hold floats or ``null`` beside a ``raw`` form. None of these may lose its year
in silence, nor take a month from a date of another year."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from storage.sources.records import SourceRecord
from storage.sources.registry import read_source


def _dates(record: SourceRecord) -> tuple[Any, Any, Any]:
    extra = dict(record.extra)
    return extra.get("year"), extra.get("month"), extra.get("date")


def _ris(tags: str, number: int) -> str:
    return (
        "TY  - JOUR\n"
        f"TI  - A Paper Dated Its Own Way Number {number}\n"
        "AU  - Lee, Ann\n"
        f"AB  - Abstract {number}: we study how reference managers write the dates of papers.\n"
        "JO  - Journal of Tests\n"
        f"{tags}\n"
        "ER  - \n"
    )


@pytest.mark.parametrize(
    ("tags", "expected"),
    [
        ("PY  - 2024\nDA  - 2024/05/07/", (2024, 5, "2024-05-07")),  # Zotero
        ("Y1  - 2014//", (2014, None, None)),  # EndNote
        ("DA  - May 2024", (2024, 5, None)),  # EndNote's date, no PY
        ("DA  - Spring 2023", (2023, None, None)),
        ("PY  - c2024", (2024, None, None)),  # library catalogues
        ("PY  - [2024]", (2024, None, None)),
        ("Y1  - 05/07/2024", (2024, 5, "2024-05-07")),  # month first, as typed
        ("PY  - 2024-05-07", (2024, 5, "2024-05-07")),
        ("DA  - 2024, May 5", (2024, 5, "2024-05-05")),  # the year first, then the month named
        ("DA  - 2024 Mar", (2024, 3, None)),
        ("PY  - 2024\nDA  - 2023/11/15/", (2024, None, None)),  # a date of another year
    ],
)
def test_ris_dates_as_the_tools_write_them_keep_their_year(
    tmp_path: Path, tags: str, expected: tuple[Any, Any, Any]
) -> None:
    path = tmp_path / "export.ris"
    path.write_text(_ris(tags, 1), encoding="utf-8")
    result = read_source(path)
    assert not result.errors
    [record] = result.records
    assert _dates(record) == expected


_ENW = """%0 Journal Article
%T Attention is all you need
%A Vaswani, Ashish
%A Shazeer, Noam
%J Advances in neural information processing systems
%V 30
%D 2017

%0 Conference Proceedings
%T Graph flows for everyone
%A Park, Bo
%B Proceedings of Graphs
%D c2023
%8 May 7, 2023

%0 Journal Article
%T A paper dated only by its date field
%A Okafor, Chidi
%8 June 2019

%0 Journal Article
%T A year and a date of another year
%A Tan, Mei
%D 2016
%8 2015-12-01
"""


def test_endnote_tagged_years_and_dates(tmp_path: Path) -> None:
    path = tmp_path / "scholar.enw"
    path.write_text(_ENW, encoding="utf-8")
    result = read_source(path)
    assert not result.errors
    assert [_dates(r) for r in result.records] == [
        (2017, None, None),  # Google Scholar's
        (2023, 5, "2023-05-07"),
        (2019, 6, None),
        (2016, None, None),
    ]


_BIB = """@inproceedings{lee2013typed,
  title = {A Date Typed in Words},
  author = {Lee, Ann},
  booktitle = {Proceedings of Tests},
  date = {May 2013},
  abstract = {We study how a typed date reads.},
}

@article{park2024iso,
  title = {An ISO Date},
  author = {Park, Bo},
  journaltitle = {Journal of Tests},
  date = {2024-05},
  abstract = {We study how an ISO date reads.},
}

@article{okafor2017range,
  title = {A Date Range},
  author = {Okafor, Chidi},
  journaltitle = {Journal of Tests},
  date = {2017-05-01/2017-05-04},
  abstract = {We study how a range of dates reads.},
}
"""


def test_a_biblatex_date_typed_in_words_keeps_its_year_and_month(tmp_path: Path) -> None:
    path = tmp_path / "jabref.bib"
    path.write_text(_BIB, encoding="utf-8")
    result = read_source(path)
    assert not result.errors
    typed, iso, ranged = result.records
    assert _dates(typed) == (2013, 5, None)  # not month 1 from "May 2013"[5:7]
    assert typed.venue == "Proceedings of Tests 2013"
    assert _dates(iso) == (2024, 5, None)
    assert _dates(ranged) == (2017, 5, "2017-05-01/2017-05-04")


@pytest.mark.parametrize(
    ("issued", "expected"),
    [
        ({"date-parts": [[2024.0, 5.0]]}, (2024, 5, None)),
        ({"date-parts": [[None]], "raw": "2022-03"}, (2022, 3, None)),
        ({"date-parts": [[2021, None, 7]]}, (2021, None, None)),
        ({"raw": "May 7, 2020"}, (2020, 5, "2020-05-07")),
        ({"literal": "Spring 2019"}, (2019, None, None)),
    ],
)
def test_csl_dates_as_other_writers_give_them(
    tmp_path: Path, issued: dict[str, Any], expected: tuple[Any, Any, Any]
) -> None:
    item = {
        "id": "x",
        "type": "article-journal",
        "title": "A Dated Paper",
        "author": [{"family": "Lee", "given": "Ann"}],
        "container-title": "Journal of Tests",
        "issued": issued,
    }
    path = tmp_path / "items.json"
    path.write_text(json.dumps([item]), encoding="utf-8")
    [record] = read_source(path).records
    assert _dates(record) == expected


@pytest.mark.parametrize(
    ("issued", "expected"),
    [
        # no month 13, no 45th day: the year alone, not a date that is none
        ({"date-parts": [["2024", "13", "45"]]}, (2024, None, None)),
        ({"date-parts": [[2023, 2, 29]]}, (2023, 2, None)),  # not a leap year
        ({"date-parts": [[2024, 2, 29]]}, (2024, 2, "2024-02-29")),
        ({"raw": "2024-02-31"}, (2024, 2, None)),
        ({"raw": "2/31/2024"}, (2024, 2, None)),
        # digits to str.isdigit that int() refuses: no year, and no internal error
        ({"date-parts": [["²⁰²⁴", "1", "2"]]}, (None, None, None)),
        ({"date-parts": [["①"]]}, (None, None, None)),
    ],
)
def test_csl_date_parts_that_make_no_date_give_no_date(
    tmp_path: Path, issued: dict[str, Any], expected: tuple[Any, Any, Any]
) -> None:
    item = {
        "id": "x",
        "type": "article-journal",
        "title": "A Paper Dated Past the Calendar",
        "author": [{"family": "Lee", "given": "Ann"}],
        "container-title": "Journal of Tests",
        "issued": issued,
    }
    path = tmp_path / "items.json"
    path.write_text(json.dumps([item]), encoding="utf-8")
    result = read_source(path)
    assert not result.errors
    [record] = result.records
    assert _dates(record) == expected


def test_a_typed_day_past_the_months_end_is_no_day(tmp_path: Path) -> None:
    """RIS and EndNote read dates the same way: 2023-02-29 is February 2023."""
    path = tmp_path / "export.ris"
    path.write_text(
        _ris("DA  - 2023/02/29/", 1) + _ris("Y1  - 04/31/2024", 2) + _ris("DA  - 2024/04/30/", 3),
        encoding="utf-8",
    )
    result = read_source(path)
    assert not result.errors
    assert [_dates(r) for r in result.records] == [
        (2023, 2, None),
        (2024, 4, None),
        (2024, 4, "2024-04-30"),
    ]


def test_a_word_that_begins_like_a_month_names_none(tmp_path: Path) -> None:
    """'Decided' is no December, 'Augmented' no August: the month is the one a name names."""
    path = tmp_path / "export.ris"
    path.write_text(
        _ris("DA  - Decided March 3, 2020", 1)
        + _ris("DA  - Augmented edition 2021", 2)
        + _ris("DA  - 7. Dezember 2021", 3),
        encoding="utf-8",
    )
    result = read_source(path)
    assert not result.errors
    assert [_dates(r) for r in result.records] == [
        (2020, 3, "2020-03-03"),
        (2021, None, None),
        (2021, 12, "2021-12-07"),
    ]
