"""A CSL-JSON author written whole (``{"literal": "Acme Widgets"}``: an organization, a name
no person's parts fit) was kept as a flat name and split again by every export: BibTeX wrote
``{\\rm Org} "Q"`` as a person whose family name is ``"Q"``, RIS ``Widgets, Acme``, CSL-JSON
``{"family": "Widgets", "given": "Acme"}``. The names a source writes whole (CSL's
``literal``, BibTeX's ``{Acme Widgets}``) are now the paper's ``literal_names``, and every
export writes them whole: BibTeX in braces (escaped), RIS without a comma, CSL as a
``literal``; the BibTeX export read back keeps them so (real processes, temporary HOMEs).
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.test_ris_abstract_tags import papers_in as papers

CSL = [
    {
        "type": "report",
        "id": "acme2020",
        "title": "A report on widgets",
        "author": [
            {"literal": '{\\rm Org} "Q"'},
            {"literal": "Acme Widgets"},
            {"family": "Lee", "given": "Ann"},
        ],
        "issued": {"date-parts": [[2020]]},
    }
]


def test_a_literal_author_is_written_whole_by_every_export(tmp_path: Path) -> None:
    source = tmp_path / "report.json"
    source.write_text(json.dumps(CSL), encoding="utf-8")
    papers(tmp_path, tmp_path / "home", "import", str(source))
    bibtex = papers(tmp_path, tmp_path / "home", "export", "--status", "all", "--format", "bibtex")
    assert (
        'author = {{{$\\lbrace$}\\textbackslash{}rm Org{$\\rbrace$} "Q"} and {Acme Widgets} '
        "and Ann Lee}" in bibtex
    ), bibtex
    ris = papers(tmp_path, tmp_path / "home", "export", "--status", "all", "--format", "ris")
    assert 'AU  - {\\rm Org} "Q"\nAU  - Acme Widgets\nAU  - Lee, Ann\n' in ris, ris
    (item,) = json.loads(
        papers(tmp_path, tmp_path / "home", "export", "--status", "all", "--format", "csl-json")
    )
    assert item["author"] == CSL[0]["author"]
    # the BibTeX export read back: the names in braces are written whole still
    exported = tmp_path / "report.bib"
    exported.write_text(bibtex, encoding="utf-8")
    papers(tmp_path, tmp_path / "again", "import", str(exported))
    (again,) = json.loads(
        papers(tmp_path, tmp_path / "again", "export", "--status", "all", "--format", "csl-json")
    )
    assert again["author"] == CSL[0]["author"]
