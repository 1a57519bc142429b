"""A name its source writes whole is a ``literal_names`` fact, as BibTeX's braced names and
CSL-JSON's ``literal`` are, so that every export writes it whole: a JSON list whose people
are CSL's (``{"literal": "Acme Widgets"}`` among ``{"family", "given"}``, no CSL ``type``),
and a RIS record's name without a comma among names written ``Last, First`` (the
specification's form: Zotero's RIS import keeps such a name in one field), or one ending in
EndNote's comma (``Acme Widgets,``). Both were split by the exports as a person's
(``Widgets, Acme``). RIS names that all lack a comma (``Jane Smith``: some exporters write
people first name first) stay persons (real processes, temporary HOMEs)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from tests.cli.test_bad_input import PAPERS, make_env

JSON_LIST = [
    {
        "title": "A report on widgets",
        "abstract": "We count the widgets a consortium made over twelve years of work.",
        "author": [{"literal": "Acme Widgets"}, {"family": "Lee", "given": "Ann"}],
    }
]

RIS = """TY  - RPRT
TI  - Widgets counted again
AU  - Lee, Ann
AU  - Acme Widgets
PY  - 2021
ER  - 

TY  - RPRT
TI  - Gadgets counted
AU  - Gadget Makers,
PY  - 2022
ER  - 

TY  - JOUR
TI  - Sprockets written first name first
AU  - Jane Smith
AU  - Bo Park
PY  - 2020
ER  - 

TY  - JOUR
TI  - Cogs with a suffix
AU  - John Smith, Jr.
AU  - Bo Park
PY  - 2019
ER  - 
"""


def papers(tmp_path: Path, home: str, *args: str) -> str:
    done = subprocess.run(
        [*PAPERS, *args],
        env=make_env(tmp_path, PAPERS_HOME=str(tmp_path / home)),
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_a_json_lists_csl_literal_is_written_whole(tmp_path: Path) -> None:
    source = tmp_path / "list.json"
    source.write_text(json.dumps(JSON_LIST), encoding="utf-8")
    papers(tmp_path, "home", "import", str(source))
    (paper,) = json.loads(papers(tmp_path, "home", "list", "--json"))
    assert paper["authors"] == ["Acme Widgets", "Ann Lee"]
    assert paper["extra"]["literal_names"] == "Acme Widgets"
    ris = papers(tmp_path, "home", "export", "--status", "all", "--format", "ris")
    assert "AU  - Acme Widgets\nAU  - Lee, Ann\n" in ris, ris


def test_a_ris_name_written_whole_is_written_whole(tmp_path: Path) -> None:
    source = tmp_path / "list.ris"
    source.write_text(RIS, encoding="utf-8")
    papers(tmp_path, "home", "import", str(source))
    listed = {p["title"]: p for p in json.loads(papers(tmp_path, "home", "list", "--json"))}
    assert listed["Widgets counted again"]["extra"]["literal_names"] == "Acme Widgets"
    assert listed["Gadgets counted"]["extra"]["literal_names"] == "Gadget Makers"
    people = listed["Sprockets written first name first"]
    assert people["authors"] == ["Jane Smith", "Bo Park"]
    assert "literal_names" not in people.get("extra", {})
    assert "literal_names" not in listed["Cogs with a suffix"].get("extra", {})
    bibtex = papers(tmp_path, "home", "export", "--status", "all", "--format", "bibtex")
    assert "author = {Ann Lee and {Acme Widgets}}" in bibtex, bibtex
    assert "author = {{Gadget Makers}}" in bibtex, bibtex
    assert "author = {Jane Smith and Bo Park}" in bibtex, bibtex
