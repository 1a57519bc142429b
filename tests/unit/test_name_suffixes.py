"""Generational suffixes as PubMed writes them (``2nd``, ``3rd``, ``4th``: NLM's for ``II``,
``III``, ``IV``) and as every other format does (``Jr``, ``Sr``, ``II``, ``III``, ``IV``),
in each place a suffix stands: after the initials (MEDLINE's ``AU``, ``Smith JA 3rd``), after
the given names with no comma (MEDLINE's ``FAU``, ``Kaelin, William G Jr``), after a comma
(RIS's ``Smith, John, 3rd``), in BibTeX's middle (``Smith, 3rd, John``), in CSL's
``suffix``, in a list's text (``Smith, John 3rd``). Each is the name's suffix, never its
family name nor a given name, in the library and in every export.

Before: ``3rd`` and ``2nd`` were no suffix anywhere (``John Smith 3rd``'s family name was
``3rd``: its BibTeX key ``3rd…``… ``rd2020…``, its RIS ``3rd, John Smith``); a suffix after
MEDLINE's given names stayed among them (``William G Jr Kaelin``).

Ids of papers known by their title and first author are left as they were: the suffixes their
family name was first read with are kept for them (``storage.importing.author_keys``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from storage.export import export
from storage.export.bibtex import bibtex_key
from storage.files.triage_file import TriageState
from storage.importing.identity import id_of_title
from storage.models import Paper
from storage.sources.authors import name_parts
from storage.sources.papers import build_paper
from storage.sources.registry import read_source

#: PubMed's MEDLINE ("Send to → Citation manager"): full names with their suffix after the
#: given names, ``AU`` with it after the initials; an older record of ``AU`` alone.
MEDLINE = """PMID- 30000001
TI  - A Paper of Three Authors With Suffixes.
AB  - What the paper found, in enough words of our own to be an abstract of one.
FAU - Kaelin, William G Jr
AU  - Kaelin WG Jr
FAU - Smith, John A 3rd
AU  - Smith JA 3rd
FAU - Doe, Jane
AU  - Doe J
DP  - 2018 Dec 27

PMID- 8000001
TI  - An Older Record Named by Its Initials.
AB  - What the older paper found, in enough words of our own to be an abstract.
AU  - Baker JR 2nd
AU  - Lee A 4th
DP  - 1994
"""


def _papers(path: Path) -> list[Paper]:
    result = read_source(path)
    assert not result.errors and not result.warnings
    return [build_paper(r, "l", n) for n, r in enumerate(result.records)]


def _write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def test_pubmed_names_keep_their_suffix_apart(tmp_path: Path) -> None:
    full, initials = _papers(_write(tmp_path, "pubmed.nbib", MEDLINE))
    assert full.authors == ("William G Kaelin Jr", "John A Smith 3rd", "Jane Doe")
    assert initials.authors == ("J.R. Baker 2nd", "A. Lee 4th")
    ris = [line for line in export([full, initials], TriageState(), "ris").splitlines()]
    assert [line for line in ris if line.startswith("AU")] == [
        "AU  - Kaelin, William G, Jr",
        "AU  - Smith, John A, 3rd",
        "AU  - Doe, Jane",
        "AU  - Baker, J.R., 2nd",
        "AU  - Lee, A., 4th",
    ]
    bib = export([full, initials], TriageState(), "bibtex")
    assert "author = {Kaelin, Jr, William G and Smith, 3rd, John A and Jane Doe}" in bib
    assert "author = {Baker, 2nd, J.R. and Lee, 4th, A.}" in bib
    assert "@article{kaelin2018paper," in bib and "baker1994older," in bib
    items = json.loads(export([full, initials], TriageState(), "csl-json"))
    assert items[0]["author"][1] == {"family": "Smith", "given": "John A", "suffix": "3rd"}
    assert items[1]["author"][0] == {"family": "Baker", "given": "J.R.", "suffix": "2nd"}


@pytest.mark.parametrize(
    ("name", "file", "text"),
    [
        ("ris", "a.ris", "TY  - JOUR\nTI  - T\nAU  - Smith, John, 3rd\nPY  - 2020\nER  - \n"),
        ("ris-jr", "a.ris", "TY  - JOUR\nTI  - T\nAU  - Smith, John, Jr.\nPY  - 2020\nER  - \n"),
        ("bibtex", "a.bib", "@article{a, title = {T}, author = {Smith, 3rd, John}, year = 2020}"),
        ("endnote", "a.enw", "%0 Journal Article\n%T T\n%A Smith, John, 3rd\n%D 2020\n"),
        (
            "csl-json",
            "a.json",
            '[{"type": "article-journal", "title": "T", "issued": {"date-parts": [[2020]]},'
            ' "author": [{"family": "Smith", "given": "John", "suffix": "3rd"}]}]',
        ),
        ("json text", "a.json", '[{"title": "T", "authors": "Smith, John 3rd", "year": 2020}]'),
        ("json comma", "a.json", '[{"title": "T", "authors": "Smith, John, IV", "year": 2020}]'),
    ],
)
def test_every_format_reads_the_suffix_and_writes_it_back(
    name: str, file: str, text: str, tmp_path: Path
) -> None:
    (paper,) = _papers(_write(tmp_path, file, text))
    (person,) = paper.authors
    parts = name_parts(person)
    assert (parts.family, parts.given) == ("Smith", "John"), name
    assert parts.suffix in ("3rd", "Jr.", "IV"), name
    assert bibtex_key(paper, set()) == "smith2020t"  # (its title: "T")
    ris = export([paper], TriageState(), "ris")
    assert f"AU  - Smith, John, {parts.suffix}\n" in ris
    bib = export([paper], TriageState(), "bibtex")
    assert f"author = {{Smith, {parts.suffix}, John}}" in bib
    (item,) = json.loads(export([paper], TriageState(), "csl-json"))
    assert item["author"] == [{"family": "Smith", "given": "John", "suffix": parts.suffix}]
    # each export reads back as the same name
    for fmt, suffix in (("ris", ".ris"), ("bibtex", ".bib"), ("csl-json", ".csl.json")):
        back = _papers(_write(tmp_path, f"back{suffix}", export([paper], TriageState(), fmt)))
        assert back[0].authors == paper.authors, (name, fmt)


@pytest.mark.parametrize(
    ("written", "parts"),
    [
        ("John Smith 3rd", ("Smith", "John", "3rd")),
        ("John A. Smith 2nd", ("Smith", "John A.", "2nd")),
        ("Ann van der Berg 4th", ("Berg", "Ann", "4th")),
        ("Smith, John 3rd", ("Smith", "John", "3rd")),
        ("Smith, John, 3rd", ("Smith", "John", "3rd")),
        ("Smith, John Jr.", ("Smith", "John", "Jr.")),
        ("John Smith III", ("Smith", "John", "III")),
        ("John Smith Sr", ("Smith", "John", "Sr")),
    ],
)
def test_name_parts_knows_the_suffixes(written: str, parts: tuple[str, str, str]) -> None:
    found = name_parts(written)
    assert (found.family, found.given, found.suffix) == parts


#: Ids of papers known by their title and first author, as they were before the suffixes
#: above were known (a library made then holds them; a list imported anew must give them).
IDS = {
    "John Smith 3rd": "c76cd007c84b",
    "J.A. Smith 3rd": "c76cd007c84b",
    "John Smith III": "f95f7a447e08",
    "William G Kaelin Jr": "4c2237bd49fe",
    "John Smith 2nd": "59880e7a7f8b",
}


@pytest.mark.parametrize("first", sorted(IDS))
def test_ids_of_papers_known_by_title_and_first_author_stay(first: str) -> None:
    assert id_of_title("A Title of a Paper", (first,)) == IDS[first]
