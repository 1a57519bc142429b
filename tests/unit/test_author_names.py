"""Authors' names through import and export: particles, suffixes, organizations and "and
others" as each format writes them, from files shaped as the real tools write them."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from storage import Library
from storage.export import export
from storage.files.triage_file import TriageState
from storage.models import Paper
from storage.sources.papers import build_paper
from storage.sources.registry import read_text_content

#: A family name braced with its particles (Better BibTeX), a suffix in BibTeX's middle
#: place, an organization braced whole, initials, and the authors left out.
BIBTEX = """@article{berg2024names,
  title = {Names Across Formats},
  author = {{van der Berg}, Jan and Smith, Jr., John and {Google DeepMind} and Smith, J and others},
  journal = {Journal of Names},
  year = {2024}
}
"""
NAMES = ("Jan van der Berg", "John Smith Jr.", "Google DeepMind", "J Smith", "et al.")


def _paper() -> Paper:
    [record] = read_text_content(BIBTEX, Path("names.bib")).records
    return build_paper(record, "names", 0)


def test_bibtex_names_read_as_the_library_keeps_them() -> None:
    assert _paper().authors == NAMES


def test_bibtex_export_writes_each_name_as_bibtex_reads_its_parts() -> None:
    bib = export([_paper()], TriageState(), "bibtex")
    assert (
        "author = {Jan van der Berg and Smith, Jr., John and {Google DeepMind} and J Smith "
        "and others}"
    ) in bib
    assert "@article{berg2024names," in bib  # the family name, not the suffix ("jr2024")


def test_ris_export_writes_last_first_suffix_and_an_organization_whole() -> None:
    ris = export([_paper()], TriageState(), "ris")
    authors = [line for line in ris.splitlines() if line.startswith("AU  - ")]
    assert authors == [
        "AU  - van der Berg, Jan",
        "AU  - Smith, John, Jr.",
        "AU  - Google DeepMind",
        "AU  - Smith, J",
    ]  # RIS has no "and others": its readers would take one for a person


def test_csl_json_export_writes_particles_suffixes_literals_and_others() -> None:
    [item] = json.loads(export([_paper()], TriageState(), "csl-json"))
    assert item["author"] == [
        {"family": "Berg", "given": "Jan", "non-dropping-particle": "van der"},
        {"family": "Smith", "given": "John", "suffix": "Jr."},
        {"literal": "Google DeepMind"},
        {"family": "Smith", "given": "J"},
        {"literal": "others"},  # last: citeproc (pandoc's) writes "et al."
    ]


@pytest.mark.parametrize(("fmt", "name"), [("bibtex", "x.bib"), ("csl-json", "x.csl.json")])
def test_exported_names_read_back_as_they_were(fmt: str, name: str) -> None:
    [record] = read_text_content(export([_paper()], TriageState(), fmt), Path(name)).records
    assert record.authors == NAMES


def test_a_ris_export_reimported_keeps_the_authors_it_cannot_say(tmp_path: Path) -> None:
    """RIS cannot say "and others": re-importing our RIS export into the same library keeps
    the list as it was, and into an empty one reads every name it holds."""
    library = Library(tmp_path / "home")
    (tmp_path / "names.bib").write_text(BIBTEX, encoding="utf-8")
    library.import_file(tmp_path / "names.bib")
    ris = tmp_path / "names.ris"
    ris.write_text(export(library.papers(), library.triage(), "ris"), encoding="utf-8")
    report = library.import_file(ris)
    assert report.added == 0 and library.papers()[0].authors == NAMES
    [record] = read_text_content(ris.read_text(encoding="utf-8"), ris).records
    assert record.authors == NAMES[:-1]


#: Names a JSON list wrote ``Last, First``: stored as written (a list item is one name, and
#: a title-only paper's id takes its family name as written: ``García López`` whole).
COMMA_NAMES = ["O'Brien, {Zoë}", "O'Brien, Zoë", "García López, José", "Ann Lee"]


@pytest.mark.parametrize(("fmt", "name"), [("ris", "x.ris"), ("csv", "x.csv")])
def test_names_written_last_first_come_back_from_an_export_as_they_were(
    tmp_path: Path, fmt: str, name: str
) -> None:
    """RIS reads every ``AU`` as ``Last, First`` and our CSV reader a column of such names
    so: a name stored ``O'Brien, Zoë`` came back ``Zoë O'Brien``, and re-importing the
    export said '1 updated' (where a re-import changes nothing). The same names in the
    library's form are the same authors: the stored ones are kept. A CSV cell of one such
    name (no ";") was read as names parted by commas (``O'Brien`` and ``{Zoë}``), or by
    "and" (``Smith and Sons``)."""
    source = tmp_path / "list.json"
    rows = [
        {"title": "Names written last first", "authors": COMMA_NAMES},
        {"title": "Names with an abstract", "authors": COMMA_NAMES[2:0:-1],
         "abstract": "An abstract long enough to key the paper by, about names as written."},
        {"title": "One name written last first", "authors": COMMA_NAMES[:1]},
        {"title": "One name with a suffix", "authors": ["Smith, John, Jr."]},
        {"title": "One name of a company", "authors": ["Smith and Sons"]},
    ]  # fmt: skip
    source.write_text(json.dumps(rows, ensure_ascii=False), encoding="utf-8")
    library = Library(tmp_path / "home")
    library.import_file(source)
    before = library.papers()
    exported = tmp_path / name
    exported.write_text(export(before, library.triage(), fmt), encoding="utf-8")
    report = library.import_file(exported)
    assert (report.added, report.updated) == (0, 0)
    assert [p.authors for p in library.papers()] == [p.authors for p in before]
    assert before[0].authors == tuple(COMMA_NAMES)


@pytest.mark.skipif(shutil.which("biber") is None, reason="biber is not installed")
def test_biber_reads_each_exported_name_in_its_parts(tmp_path: Path) -> None:
    """biber's own reading of the export (``--tool`` writes each name back as ``von Last,
    Jr, First``): no ``Jr., John Smith`` nor ``DeepMind, Google``."""
    (tmp_path / "refs.bib").write_text(export([_paper()], TriageState(), "bibtex"), "ascii")
    done = subprocess.run(
        ["biber", "--tool", "--output-file", "out.bib", "refs.bib"],
        cwd=tmp_path, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-2000:]
    written = (tmp_path / "out.bib").read_text(encoding="utf-8")
    assert (
        "AUTHOR = {van der Berg, Jan and Smith, Jr., John and {Google DeepMind} and Smith, J "
        "and others}"
    ) in written


def test_ris_and_endnote_read_a_suffix_after_the_first_name(tmp_path: Path) -> None:
    """``Last, First, Suffix``: RIS as EndNote writes it (CRLF), EndNote's tagged format as
    Google Scholar's "EndNote" link writes it."""
    ris = (
        "TY  - JOUR\r\nAU  - Smith, John, Jr.\r\nAU  - van der Berg, Jan\r\n"
        "TI  - Names Across Formats\r\nPY  - 2024\r\nER  - \r\n"
    )
    enw = (
        "%0 Journal Article\n%T Names Across Formats\n%A Smith, John, Jr.\n"
        "%A van der Berg, Jan\n%D 2024\n"
    )
    for text, name in ((ris, "names.ris"), (enw, "names.enw")):
        [record] = read_text_content(text, tmp_path / name).records
        assert record.authors == ("John Smith Jr.", "Jan van der Berg"), name


def test_csl_json_names_read_with_their_particles_and_others() -> None:
    """CSL as Zotero writes it (particles apart) and as pandoc writes BibTeX's
    ``and others``."""
    item = {
        "id": "x", "type": "book", "title": "Symphonies",
        "author": [
            {"family": "Beethoven", "given": "Ludwig", "dropping-particle": "van"},
            {"family": "Berg", "given": "Jan", "non-dropping-particle": "van der"},
            {"literal": "others"},
        ],
    }  # fmt: skip
    [record] = read_text_content(json.dumps([item]), Path("x.csl.json")).records
    assert record.authors == ("Ludwig van Beethoven", "Jan van der Berg", "et al.")


@pytest.mark.parametrize(
    ("person", "name"),
    [
        ({"family": "毛", "given": "泽东"}, "毛泽东"),  # CSL: family first, no space (citeproc)
        ({"family": "韓", "given": "愈"}, "韓愈"),  # the CSL test suite's, as Zotero exports it
        ({"family": "김", "given": "민수"}, "김민수"),
        ({"family": "毛", "given": "Zedong"}, "毛 Zedong"),  # a romanised given name: a space
        ({"family": "Mao", "given": "Zedong", "static-ordering": True}, "Mao Zedong"),
        ({"family": "Kossuth", "given": "Lajos", "static-ordering": True}, "Kossuth Lajos"),
        (
            {
                "family": "Berg",
                "given": "Jan",
                "non-dropping-particle": "van der",
                "static-ordering": True,
            },
            "van der Berg Jan",
        ),
        ({"family": "Mao", "given": "Zedong", "static-ordering": False}, "Zedong Mao"),
        ({"family": "Чайковский", "given": "Пётр Ильич"}, "Пётр Ильич Чайковский"),
        # no letters in the family name is no CJK name (a generated list's "Author 0")
        ({"family": "0", "given": "Author"}, "Author 0"),
        ({"family": "—", "given": "Anonymous"}, "Anonymous —"),
    ],
)
def test_csl_json_names_are_in_the_order_csl_gives_them(
    person: dict[str, object], name: str
) -> None:
    """CSL's name-part order: a name in a script without Latin's letters (Chinese,
    Japanese, Korean) family first, its parts joined; ``static-ordering`` family first,
    spaced; others given name first. Found on main: ``泽东 毛``, ``Zedong Mao``."""
    item = {"id": "x", "type": "book", "title": "Works", "author": [person]}
    [record] = read_text_content(json.dumps([item]), Path("x.csl.json")).records
    assert record.authors == (name,)


def test_a_google_scholar_csv_list_cut_short_ends_in_et_al(tmp_path: Path) -> None:
    """Google Scholar cuts a long author list with an ellipsis (``J Uszkoreit…``): the name is
    the name, and the list says there are more, so that exports do not cite six authors of
    eight as all of them."""
    text = (
        '"Authors","Title","Publication","Volume","Number","Pages","Year","Publisher"\n'
        '"A Vaswani, N Shazeer, N Parmar, J Uszkoreit…","Attention is all you need",'
        '"Advances in neural information processing systems","30","","","2017",""\n'
    )
    [record] = read_text_content(text, tmp_path / "citations.csv").records
    assert record.authors == ("A Vaswani", "N Shazeer", "N Parmar", "J Uszkoreit", "et al.")
    paper = build_paper(record, "citations", 0)
    assert "author = {A Vaswani and N Shazeer and N Parmar and J Uszkoreit and others}" in (
        export([paper], TriageState(), "bibtex")
    )


#: A JSON list whose authors are written ``Last, First`` one per item, as some scrapers and
#: hand-kept lists write them: the library keeps each name as the list wrote it.
_COMMA_NAMES_JSON = [
    {
        "title": "Deep Things About Learning",
        "abstract": "We study deep things about learning in many settings and report on them.",
        "authors": ["García López, José", "Smith, John, Jr.", "van der Berg, Jan"],
        "year": 2024,
    }
]


def test_names_a_json_list_wrote_last_comma_first_export_in_their_parts(tmp_path: Path) -> None:
    """``García López, José`` is one person (family name first), not an organization named
    so: BibTeX gets ``Last, First`` (its family name of two words kept whole, not read as a
    middle name) and a key from the family name, RIS and CSL-JSON the parts."""
    source = tmp_path / "list.json"
    source.write_text(json.dumps(_COMMA_NAMES_JSON), encoding="utf-8")
    library = Library(tmp_path / "home")
    library.import_file(source)
    papers = library.papers()
    bib = export(papers, TriageState(), "bibtex")
    assert "@misc{garcialopez2024deep," in bib  # was ``jose2024deep``
    assert (
        "author = {Garc{\\'i}a L{\\'o}pez, Jos{\\'e} and Smith, Jr., John and Jan van der Berg}"
    ) in bib  # was each one braced whole, as an organization
    ris = [line for line in export(papers, TriageState(), "ris").splitlines() if "AU  -" in line]
    assert ris == ["AU  - García López, José", "AU  - Smith, John, Jr.", "AU  - van der Berg, Jan"]
    [item] = json.loads(export(papers, TriageState(), "csl-json"))
    assert item["author"] == [
        {"family": "García López", "given": "José"},
        {"family": "Smith", "given": "John", "suffix": "Jr."},
        {"family": "Berg", "given": "Jan", "non-dropping-particle": "van der"},
    ]
    [back] = read_text_content(bib, Path("back.bib")).records
    assert back.authors == ("José García\u00a0López", "John Smith Jr.", "Jan van der Berg")


@pytest.mark.parametrize(
    "name",
    ["University of California, Berkeley", "Lee, 42", "Ann Lee, Bo Park, Cy Doe", "Lee, ann"],
)
def test_a_name_with_a_comma_that_is_no_person_written_last_first_stays_whole(name: str) -> None:
    from storage.sources.authors import name_parts

    assert name_parts(name).literal == name
