"""A chapter, a conference paper or an authored book that names its authors and the editors of
its book or proceedings keeps both: the authors are its people, the editors its ``editors``
fact, written back as editors by every citation export (BibTeX ``editor``, RIS ``A2`` for a
chapter or a paper and ``A3`` for a book, as Zotero writes them, CSL-JSON ``editor``) and
read back from each. Before, the editors were dropped whenever there were authors.

The records keep the shapes their tools write: Zotero's RIS of a book section (``T2`` its
book, ``A2`` its book's editors, ``T3`` its series) and of a book of an author with an editor
(``A3``, its ``A2`` its series' editor); RIS's ``ED``, an editor whatever the type; DBLP's
BibTeX of a paper in an LNCS volume (its ``editor`` beside its ``author``, as DBLP writes
every entry it got from a ``crossref``); a PubMed Bookshelf chapter in MEDLINE (``FAU`` its
authors, ``FED`` its book's editors, ``BTI`` its book: zotero/translators ``MEDLINEnbib.js``'s
test case, trimmed); EndNote's ``%E`` of a book section; Zotero's CSV ``Editor`` column.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from storage.export import export
from storage.files.triage_file import TriageState
from storage.models import Paper
from storage.sources.citation import citation_of, editors_only
from storage.sources.papers import build_paper
from storage.sources.registry import read_source

AUTHORS = ("H. Bast", "Christian Worm Mortensen", "Ingmar Weber")
EDITORS = ("Fabio Crestani", "Paolo Ferragina", "Mark Sanderson")

ZOTERO_CHAPTER = """TY  - CHAP
TI  - Output-Sensitive Autocompletion Search
AU  - Bast, H.
AU  - Mortensen, Christian Worm
AU  - Weber, Ingmar
T2  - String Processing and Information Retrieval
A2  - Crestani, Fabio
A2  - Ferragina, Paolo
A2  - Sanderson, Mark
T3  - Lecture Notes in Computer Science
CY  - Berlin, Heidelberg
DA  - 2006///
PY  - 2006
SP  - 150
EP  - 162
VL  - 4209
PB  - Springer
SN  - 978-3-540-45774-9
ER  - 

TY  - BOOK
TI  - Usynlige byer
AU  - Calvino, Italo
A2  - Goos, Gerhard
A3  - Lund, Kari Ø.
PY  - 1982
PB  - Aschehoug
ER  - 

TY  - CHAP
A1  - Bast, H.
A1  - Weber, Ingmar
ED  - Crestani, Fabio
T1  - Type Less, Find More
BT  - String Processing and Information Retrieval
PY  - 2006
ER  - 
"""

DBLP_PAPER = """@inproceedings{DBLP:conf/spire/BastMW06,
  author       = {Holger Bast and
                  Christian Worm Mortensen and
                  Ingmar Weber},
  editor       = {Fabio Crestani and
                  Paolo Ferragina and
                  Mark Sanderson},
  title        = {Output-Sensitive Autocompletion Search},
  booktitle    = {String Processing and Information Retrieval, 13th International Conference,
                  {SPIRE} 2006, Glasgow, UK, October 11-13, 2006, Proceedings},
  series       = {Lecture Notes in Computer Science},
  volume       = {4209},
  pages        = {150--162},
  publisher    = {Springer},
  year         = {2006},
  url          = {https://doi.org/10.1007/11880561\\_17},
  doi          = {10.1007/11880561\\_17},
  timestamp    = {Tue, 14 May 2019 10:00:35 +0200},
  biburl       = {https://dblp.org/rec/conf/spire/BastMW06.bib},
  bibsource    = {dblp computer science bibliography, https://dblp.org}
}

@incollection{chapter,
  author    = {Smith, John and Lee, Ann},
  editor    = {van der Berg, Jan and Roe, Rob},
  title     = {A Chapter of an Edited Book},
  booktitle = {The Edited Book},
  publisher = {Press},
  year      = {2019},
  pages     = {1--20}
}
"""

PUBMED_CHAPTER = """PMID- 21249755
STAT- Publisher
PB  - National Center for Biotechnology Information (US)
DP  - 2009
TI  - Peutz-Jeghers Syndrome
BTI - Cancer Syndromes
AB  - A rare disease, and what is known of how often it occurs and in whom, in a few
      sentences of our own.
FED - Riegert-Johnson, Douglas L
ED  - Riegert-Johnson DL
FED - Boardman, Lisa A
ED  - Boardman LA
FAU - Westra, Wytske
AU  - Westra W
FAU - Wong Kee Song, Louis M.
AU  - Wong Kee Song LM
LA  - eng
PT  - Book Chapter
PL  - Bethesda (MD)
AID - NBK1826 [bookaccession]
"""

ENDNOTE_CHAPTER = """%0 Book Section
%T Output-Sensitive Autocompletion Search
%A Bast, H.
%A Weber, Ingmar
%E Crestani, Fabio
%E Ferragina, Paolo
%B String Processing and Information Retrieval
%S Lecture Notes in Computer Science
%D 2006
%I Springer
"""


def _papers(path: Path) -> dict[str, Paper]:
    result = read_source(path)
    assert not result.errors and not result.warnings
    return {r.title: build_paper(r, "l", n) for n, r in enumerate(result.records)}


def _editors(paper: Paper) -> tuple[str, ...]:
    value = paper.fact("editors")
    return tuple(value.split("; ")) if isinstance(value, str) else ()


def _write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_zotero_ris_chapter_keeps_its_books_editors(tmp_path: Path) -> None:
    papers = _papers(_write(tmp_path, "zotero.ris", ZOTERO_CHAPTER))
    chapter = papers["Output-Sensitive Autocompletion Search"]
    assert chapter.authors == AUTHORS and _editors(chapter) == EDITORS
    assert not editors_only(chapter)
    assert chapter.fact("booktitle") == "String Processing and Information Retrieval"
    assert chapter.fact("series") == "Lecture Notes in Computer Science"
    # a book's editor is its A3, not its series' editor (A2)
    book = papers["Usynlige byer"]
    assert book.authors == ("Italo Calvino",) and _editors(book) == ("Kari Ø. Lund",)
    # RIS's ED beside A1
    typed = papers["Type Less, Find More"]
    assert typed.authors == ("H. Bast", "Ingmar Weber")
    assert _editors(typed) == ("Fabio Crestani",)


def test_the_exports_write_the_editors_where_each_format_wants_them(tmp_path: Path) -> None:
    papers = _papers(_write(tmp_path, "zotero.ris", ZOTERO_CHAPTER))
    chapter, book = papers["Output-Sensitive Autocompletion Search"], papers["Usynlige byer"]
    bib = export([chapter, book], TriageState(), "bibtex")
    assert "author = {H. Bast and Christian Worm Mortensen and Ingmar Weber}" in bib
    assert "editor = {Fabio Crestani and Paolo Ferragina and Mark Sanderson}" in bib
    assert "series = {Lecture Notes in Computer Science}" in bib
    assert "editor = {Kari {\\O}. Lund}" in bib
    ris = export([chapter, book], TriageState(), "ris").splitlines()
    assert [line for line in ris if line.startswith("A2")] == [
        "A2  - Crestani, Fabio",
        "A2  - Ferragina, Paolo",
        "A2  - Sanderson, Mark",
        "A2  - Goos, Gerhard",  # the book's series' editor, where Zotero writes a book's
    ]
    assert "A3  - Lund, Kari Ø." in ris and "T3  - Lecture Notes in Computer Science" in ris
    assert not any(line.startswith("ED") for line in ris)  # (ED: a volume of its editors alone)
    items = json.loads(export([chapter, book], TriageState(), "csl-json"))
    assert [p["family"] for p in items[0]["editor"]] == ["Crestani", "Ferragina", "Sanderson"]
    assert items[0]["collection-title"] == "Lecture Notes in Computer Science"
    assert [p["family"] for p in items[1]["editor"]] == ["Lund"]
    assert [p["family"] for p in items[1]["author"]] == ["Calvino"]


FORMATS = {"bibtex": ".bib", "ris": ".ris", "csl-json": ".csl.json", "json": ".json", "csv": ".csv"}


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_a_bibtex_paper_with_author_and_editor_round_trips(fmt: str, tmp_path: Path) -> None:
    """DBLP's @inproceedings and an @incollection, each with its authors and its volume's
    editors: every export reads back as the same authors and editors."""
    papers = list(_papers(_write(tmp_path, "dblp.bib", DBLP_PAPER)).values())
    dblp, chapter = papers
    assert dblp.authors == ("Holger Bast", "Christian Worm Mortensen", "Ingmar Weber")
    assert _editors(dblp) == EDITORS and dblp.fact("series") == "Lecture Notes in Computer Science"
    assert chapter.authors == ("John Smith", "Ann Lee")
    assert _editors(chapter) == ("Jan van der Berg", "Rob Roe")
    path = _write(tmp_path, f"back{FORMATS[fmt]}", export(papers, TriageState(), fmt))
    back = list(_papers(path).values())
    assert [(p.title, p.authors, _editors(p)) for p in back] == [
        (p.title, p.authors, _editors(p)) for p in papers
    ]
    assert [citation_of(p).kind for p in back] == ["inproceedings", "incollection"]


def test_a_pubmed_bookshelf_chapter_is_a_chapter_of_its_edited_book(tmp_path: Path) -> None:
    (chapter,) = _papers(_write(tmp_path, "pubmed.nbib", PUBMED_CHAPTER)).values()
    assert chapter.title == "Peutz-Jeghers Syndrome"
    # its family name of three words tied (``storage.sources.authors.FAMILY_TIE``)
    assert chapter.authors == ("Wytske Westra", "Louis M. Wong\u00a0Kee\u00a0Song")
    assert _editors(chapter) == ("Douglas L Riegert-Johnson", "Lisa A Boardman")
    assert chapter.fact("entry_type") == "incollection"
    assert chapter.fact("booktitle") == "Cancer Syndromes"
    bib = export([chapter], TriageState(), "bibtex")
    assert bib.split("{")[0].endswith("@incollection")
    assert "booktitle = {Cancer Syndromes}" in bib
    assert "editor = {Douglas L Riegert-Johnson and Lisa A Boardman}" in bib


def test_an_endnote_book_section_keeps_its_books_editors(tmp_path: Path) -> None:
    (chapter,) = _papers(_write(tmp_path, "endnote.enw", ENDNOTE_CHAPTER)).values()
    assert chapter.authors == ("H. Bast", "Ingmar Weber")
    assert _editors(chapter) == ("Fabio Crestani", "Paolo Ferragina")
    assert chapter.fact("series") == "Lecture Notes in Computer Science"


def test_a_zotero_csv_chapter_keeps_its_books_editors(tmp_path: Path) -> None:
    """Zotero's CSV export (its header row as ``tests/fixtures/real_shapes/zotero.csv``)."""
    header = Path(__file__).resolve().parents[1] / "fixtures" / "real_shapes" / "zotero.csv"
    columns = header.read_text(encoding="utf-8-sig").splitlines()[0]
    names = [c.strip('"') for c in columns.split('","')]
    row = dict.fromkeys(names, "")
    row.update(
        {
            "Key": "ZK000010",
            "Item Type": "bookSection",
            "Publication Year": "2006",
            "Author": "Bast, H.; Weber, Ingmar",
            "Title": "Output-Sensitive Autocompletion Search",
            "Publication Title": "String Processing and Information Retrieval",
            "Editor": "Crestani, Fabio; Ferragina, Paolo",
        }
    )
    cells = ",".join(f'"{row[name]}"' for name in names)
    (chapter,) = _papers(_write(tmp_path, "zotero.csv", f"{columns}\n{cells}\n")).values()
    assert chapter.authors == ("H. Bast", "Ingmar Weber")
    assert _editors(chapter) == ("Fabio Crestani", "Paolo Ferragina")


def test_a_volume_of_its_editors_alone_names_no_editors_twice(tmp_path: Path) -> None:
    """A book that names only its editors: they are its people (``edited_by``), and no
    ``editors`` fact repeats them; its exports write them once, as editors."""
    path = _write(
        tmp_path,
        "volume.bib",
        "@book{v, editor = {Crestani, Fabio and Ferragina, Paolo}, title = {Proc.}, year = 2006}\n",
    )
    (volume,) = _papers(path).values()
    assert volume.authors == ("Fabio Crestani", "Paolo Ferragina") and editors_only(volume)
    assert volume.fact("editors") is None
    bib = export([volume], TriageState(), "bibtex")
    assert bib.count("editor = ") == 1 and "author = " not in bib


FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "real_exports"


def _fixture(name: str) -> Callable[[Path], Path]:
    return lambda _: FIXTURES / name


def _zotero_rdf(folder: Path) -> Path:
    from tests.unit.test_editors_only import _zotero_rdf as made

    return made(folder)


def _zotero_api(folder: Path) -> Path:
    from tests.unit.test_editors_only import _zotero_api as made

    return made(folder)


#: Files in the shapes ``tests/unit/test_editors_only.py`` gives each format (its fixtures and
#: the records it makes), and the editors each record that names its authors keeps.
OTHERS: dict[str, tuple[Callable[[Path], Path], dict[str, tuple[str, ...]]]] = {
    "web of science": (
        _fixture("wos_book_editors.txt"),
        {"Nucleic Acid Induced Interferon": ("C VanpouilleBox", "L Galluzzi")},
    ),
    "endnote xml": (_fixture("editors_only.xml"), {"Output-Sensitive": ("Fabio Crestani",)}),
    "zotero rdf": (
        _zotero_rdf,
        {"A Chapter": ("Gary Westfahl",), "Authored Book": ("Gary Westfahl",)},
    ),
    "zotero api": (_zotero_api, {"Sparse Attention": ("Ed Itor",)}),
}


@pytest.mark.parametrize("name", sorted(OTHERS))
def test_the_other_readers_keep_a_books_editors_beside_its_authors(
    name: str, tmp_path: Path
) -> None:
    make, expected = OTHERS[name]
    papers = _papers(make(tmp_path))
    found = {
        start: _editors(paper)
        for start in expected
        for title, paper in papers.items()
        if title.startswith(start)
    }
    assert found == expected
    # the others name none (a volume of its editors alone names them as its people)
    kept = {t for t, p in papers.items() if p.fact("editors")}
    assert all(any(t.startswith(s) for s in expected) for t in kept)


def test_a_json_lists_editors_of_any_shape_import(tmp_path: Path) -> None:
    """A list's ``editors`` of objects, numbers and nulls among names: no traceback (the
    first version of this change met one): the names among them kept, a text read as names,
    an object alone no list of names."""
    items = [
        {"title": "A paper", "authors": ["Dee Eff"], "editors": [{"a": 1}, None, "Ann Lee"]},
        {"title": "B paper", "authors": ["Dee Eff"], "editors": "Bo Park; Cy Doe"},
        {"title": "C paper", "authors": ["Dee Eff"], "editors": {"name": "Ed Itor"}},
    ]
    papers = _papers(_write(tmp_path, "list.json", json.dumps(items)))
    assert [_editors(p) for p in papers.values()] == [
        ("Ann Lee",),
        ("Bo Park", "Cy Doe"),
        (),
    ]
