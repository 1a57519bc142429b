"""People whose family name holds a word of an organization's (``Center``, ``Academy``,
``Group``, ``Research``) are people: since an organization written with a comma
(``University of California, Berkeley``) is kept whole, a family name of particles and that
one word (``Du Center, Marie``) was kept as written too, instead of ``Marie Du Center``, and
a paper known by its title alone took another id than earlier versions gave it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from storage import Library
from storage.sources.authors import last_first, names_of
from storage.sources.registry import read_source


@pytest.mark.parametrize(
    ("written", "name"),
    [
        # (a family name of more words than its particles is kept tied, so that the exports
        # write it whole: ``storage.sources.authors.FAMILY_TIE``)
        ("Du Center, Marie", "Marie Du\u00a0Center"),
        ("De La Academy, Ana", "Ana De\u00a0La\u00a0Academy"),
        ("van Research, Piet", "Piet van Research"),
        ("Van Der Group, Jan", "Jan Van\u00a0Der\u00a0Group"),
        # one word before the comma was always a person's family name (a guard)
        ("Church, Alonzo", "Alonzo Church"),
        ("Institute, John", "John Institute"),
        ("Lab, Ann", "Ann Lab"),
        ("Center, Mary", "Mary Center"),
        ("Van Der Berg, Jan", "Jan Van\u00a0Der\u00a0Berg"),
        # organizations stay whole
        ("University of California, Berkeley", "University of California, Berkeley"),
        ("Hugging Face, Inc.", "Hugging Face, Inc."),
        ("The Research Group, Kyoto", "The Research Group, Kyoto"),
    ],
)
def test_a_family_name_of_particles_and_one_word_is_a_persons(written: str, name: str) -> None:
    assert last_first(written) == name


def test_a_lists_text_turns_such_a_person_beside_an_organization() -> None:
    assert names_of("Du Center, Marie; Google Research; Lee, Ann") == (
        "Marie Du\u00a0Center",  # tied, as ``last_first`` (RIS) reads it
        "Google Research",
        "Ann Lee",
    )


def test_ris_keeps_the_id_a_flat_name_gives(tmp_path: Path) -> None:
    """The RIS record and a list naming the author ``Marie Du Center`` are one paper: one id."""
    ris = tmp_path / "centers.ris"
    ris.write_text(
        "TY  - JOUR\nAU  - Du Center, Marie\nAU  - Lee, Ann\nTI  - Names like places\n"
        "PY  - 2001\nER  - \n",
        encoding="utf-8",
    )
    (record,) = read_source(ris).records
    assert record.authors == ("Marie Du\u00a0Center", "Ann Lee")  # its family name tied
    listed = tmp_path / "centers.json"
    listed.write_text(
        json.dumps([{"title": "Names like places", "authors": ["Marie Du Center", "Ann Lee"]}]),
        encoding="utf-8",
    )
    ids = []
    for path in (ris, listed):
        library = Library(tmp_path / path.stem)
        library.import_file(path)
        (paper,) = library.papers()
        ids.append(paper.id)
    assert ids[0] == ids[1]


def test_endnotes_trailing_comma_of_an_organization_is_not_kept(tmp_path: Path) -> None:
    """EndNote has a corporate author typed with a comma after it (``U.S. Department of
    Agriculture,``) and exports it so: one whose name holds a comma kept that last comma."""
    enw = tmp_path / "corporate.enw"
    enw.write_text(
        "%0 Report\n%A University of California, Berkeley,\n%A U.S. Department of Agriculture,\n"
        "%A Lee, Ann\n%T Campus computing\n%D 2019\n",
        encoding="utf-8",
    )
    ris = tmp_path / "corporate.ris"
    ris.write_text(
        "TY  - RPRT\nAU  - Research Council, Committee on Science,\nTI  - Science\nER  - \n",
        encoding="utf-8",
    )
    (report,) = read_source(enw).records
    assert report.authors == (
        "University of California, Berkeley",
        "U.S. Department of Agriculture",
        "Ann Lee",
    )
    (science,) = read_source(ris).records
    assert science.authors == ("Research Council, Committee on Science",)
