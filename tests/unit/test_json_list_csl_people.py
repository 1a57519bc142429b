"""A JSON list whose records write people and dates as CSL does, without CSL's ``type`` (a
hand-made or converted file, so not read as CSL-JSON): its people and years were read as none,
in silence."""

from __future__ import annotations

import json
from pathlib import Path

from storage import Library


def test_csl_people_and_dates_in_a_json_list_are_read(tmp_path: Path) -> None:
    records = [
        {
            "title": "Cats and the Opera",
            "abstract": "We study how cats respond to musical theatre across many seasons.",
            "author": [
                {"family": "Lloyd Webber", "given": "Andrew"},
                {"literal": "The Opera Consortium"},
                {"family": "Lee", "given": "Ann"},
            ],
            "issued": {"date-parts": [[2017, 6, 12]]},
        },
        {
            "title": "Dogs and the Ballet",
            "abstract": "We study how dogs respond to ballet across several winters.",
            "authors": [{"name": "Bo Park"}, "Cy Doe"],  # Semantic Scholar's, and a text
            "issued": {"date-parts": [["2019"]]},
        },
    ]
    source = tmp_path / "list.json"
    source.write_text(json.dumps(records))
    library = Library(tmp_path / "home")
    report = library.import_file(source)
    assert report.added == 2
    papers = {paper.title: paper for paper in library.papers()}
    cats, dogs = papers["Cats and the Opera"], papers["Dogs and the Ballet"]
    assert cats.authors == ("Andrew Lloyd\u00a0Webber", "The Opera Consortium", "Ann Lee")
    assert cats.fact("year") == 2017
    assert dogs.authors == ("Bo Park", "Cy Doe")
    assert dogs.fact("year") == 2019
