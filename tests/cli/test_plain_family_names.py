"""A family name of two words (``García Márquez``) the library ties with a no-break space
(``storage.sources.authors.FAMILY_TIE``) reached ``papers list --json``, the JSON and CSV
exports and the CSL-JSON export as U+00A0: a script's ``"Gabriel García Márquez"`` or a
spreadsheet's filter found no one. Now those outputs carry plain spaces, the family name
stays one name where the format says so (BibTeX's ``Last, First``, RIS's, CSL's ``family``),
and our JSON and CSV exports say which names were tied (``family_names``), so that a
re-import into an empty HOME writes the same BibTeX (real processes, temporary HOMEs).
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from tests.cli.test_ris_abstract_tags import papers_in as papers

BIB = r"""@incollection{gm,
  title = {One Hundred Years of Solitude},
  author = {Garc{\'\i}a M{\'a}rquez, Gabriel and van der Berg, Jan and {Google Research}},
  editor = {Lloyd Webber, Andrew},
  booktitle = {Collected Novels},
  year = {1967},
}
"""
NBSP = "\u00a0"


def imported(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    source = tmp_path / "novel.bib"
    source.write_text(BIB, encoding="utf-8")
    papers(tmp_path, home, "import", str(source))
    return home


def test_list_json_and_every_export_write_plain_spaces(tmp_path: Path) -> None:
    home = imported(tmp_path)
    listed = json.loads(papers(tmp_path, home, "list", "--json"))
    assert listed[0]["authors"] == ["Gabriel García Márquez", "Jan van der Berg", "Google Research"]
    assert listed[0]["extra"]["editors"] == "Andrew Lloyd Webber"
    assert listed[0]["family_names"] == ["García Márquez", "Lloyd Webber"]
    for name in ("json", "csv", "csl-json", "ris", "bibtex"):
        written = papers(tmp_path, home, "export", "--status", "all", "--format", name)
        assert NBSP not in written, name
    row = next(
        csv.DictReader(
            io.StringIO(papers(tmp_path, home, "export", "--status", "all", "--format", "csv"))
        )
    )
    assert row["authors"] == "Gabriel García Márquez; Jan van der Berg; Google Research"
    assert row["editors"] == "Andrew Lloyd Webber"
    csl = json.loads(papers(tmp_path, home, "export", "--status", "all", "--format", "csl-json"))
    assert csl[0]["author"][0] == {"family": "García Márquez", "given": "Gabriel"}
    assert csl[0]["editor"][0] == {"family": "Lloyd Webber", "given": "Andrew"}
    ris = papers(tmp_path, home, "export", "--status", "all", "--format", "ris")
    assert "AU  - García Márquez, Gabriel\n" in ris
    assert "A2  - Lloyd Webber, Andrew\n" in ris


def test_json_and_csv_exports_reimported_keep_the_family_names_whole(tmp_path: Path) -> None:
    home = imported(tmp_path)
    bibtex = papers(tmp_path, home, "export", "--status", "all", "--format", "bibtex")
    assert r"author = {Garc{\'i}a M{\'a}rquez, Gabriel and" in bibtex
    assert "editor = {Lloyd Webber, Andrew}" in bibtex
    for name in ("json", "csv"):
        exported = tmp_path / f"export.{name}"
        papers(tmp_path, home, "export", "--status", "all", "--format", name, "-o", str(exported))
        again = tmp_path / f"again-{name}"
        papers(tmp_path, again, "import", str(exported))
        assert (
            papers(tmp_path, again, "export", "--status", "all", "--format", "bibtex") == bibtex
        ), name
