"""Edges of the exports, as users meet them through ``papers import`` and ``papers export``:
titles with asterisks, books that name only their editors, Semantic Scholar's book chapters,
abstracts too short to be kept."""

from __future__ import annotations

import json
from pathlib import Path

import bibtexparser

from tests.cli import test_cli
from tests.cli.test_cli import listed, ok, run

# The fixture of test_cli: a clean environment, user folders inside the test's temp folder.
env = test_cli.env


def _export(home: Path, fmt: str, target: Path, environ: dict[str, str]) -> str:
    ok(run("--home", home, "export", "--status", "all", "--format", fmt, "-o", target, env=environ))
    return target.read_text(encoding="utf-8")


def test_a_title_with_asterisks_is_written_with_them_and_reads_back_the_same(
    env: dict[str, str], tmp_path: Path
) -> None:
    """A ``*`` is an ordinary character in a BibTeX field and in LaTeX's text: the export
    wrote ``\\textasteriskcentered{}`` (another glyph, raised, that Zotero and JabRef show as
    the command) for every ``*`` of a title holding two, though no reader of ours takes a
    title's asterisks for Markdown's emphasis."""
    title = "*Tools* and A*B: the *real* thing"
    source = tmp_path / "in.bib"
    source.write_text(f"@article{{a, title = {{{title}}}, author = {{Lee, Ann}}, year = 2020}}\n")
    home = tmp_path / "home"
    ok(run("--home", home, "import", source, env=env))
    text = _export(home, "bibtex", tmp_path / "out.bib", env)
    assert "textasteriskcentered" not in text
    [entry] = bibtexparser.parse_string(text).entries
    assert entry.fields_dict["title"].value == "{" + title + "}"
    fresh = tmp_path / "fresh"
    ok(run("--home", fresh, "import", tmp_path / "out.bib", env=env))
    assert [p["title"] for p in listed(fresh, env)] == [title]


def test_an_abstract_too_short_to_keep_is_said_and_a_placeholder_is_not(
    env: dict[str, str], tmp_path: Path
) -> None:
    """An abstract of fewer than 20 letters or digits is no abstract (a stray field: the
    paper is known by its title, as one with a placeholder is): it was left out without a
    word. The report now names the records whose text was left out for being short; a
    placeholder ("No abstract available") says itself that there is none, and stays unsaid."""
    source = tmp_path / "list.json"
    long = "We study the long abstracts of papers and find them long enough to be kept."
    source.write_text(
        json.dumps(
            [
                {"title": "A Paper With a Long Abstract", "abstract": long},
                {"title": "A Paper With a Short One", "abstract": "Keynote talk."},
                {"title": "A Paper With a Placeholder", "abstract": "No abstract available."},
                {"title": "Another Short One", "abstract": "See the PDF."},
            ]
        ),
        encoding="utf-8",
    )
    home = tmp_path / "home"
    result = run("--home", home, "import", source, env=env)
    assert "4 added" in ok(result)
    lines = [line for line in result.stderr.splitlines() if "too short" in line]
    assert len(lines) == 1, result.stderr
    assert "2 abstracts" in lines[0] and "records 2, 4" in lines[0], lines[0]
    assert "placeholder" not in result.stderr.casefold()
    assert [p["abstract"] for p in listed(home, env)] == [long, "", "", ""]


FOLDER = Path(__file__).resolve().parents[1] / "fixtures" / "real_exports"


def _s2_paper(paper_id: str, title: str, **fields: object) -> dict[str, object]:
    """A paper as Semantic Scholar's Graph API answers ``/graph/v1/paper/search`` asked for
    ``title,venue,year,publicationTypes,journal,publicationVenue,externalIds,authors``."""
    return {
        "paperId": paper_id, "title": title, "venue": "", "year": 2021,
        "publicationVenue": None, "publicationTypes": None, "journal": None,
        "externalIds": {"CorpusId": 1}, "authors": [{"authorId": "1", "name": "Ann Lee"}],
        **fields,
    }  # fmt: skip


def test_semantic_scholars_book_chapters_are_cited_in_their_books(
    env: dict[str, str], tmp_path: Path
) -> None:
    """Semantic Scholar gives a chapter its book's title as its ``journal`` (``{"name":
    "Raku Recipes"}``, no volume nor pages; ACM Books' chapters of ``Edsger Wybe Dijkstra``
    typed ``["Book"]``, as the fixtures keep them): they were exported as articles of a
    journal named after the book (``@article{journal = {Raku Recipes}}``, RIS ``JOUR``).
    A chapter is now ``@incollection{booktitle}``, RIS ``CHAP`` with its book in ``T2``,
    CSL ``chapter`` in its ``container-title``; a book typed ``Book`` whose journal is its
    own title is a ``@book``; a journal's article stays one."""
    answer = {
        "total": 4,
        "data": [
            _s2_paper("a1", "Attention in Chapters", publicationTypes=["BookSection"],
                      journal={"name": "Handbook of Attention", "pages": "11-40"}),
            _s2_paper("a2", "Deep Learning for Everyone", publicationTypes=["Book"],
                      journal={"name": "Deep Learning for Everyone"}),
            _s2_paper("a3", "Attention in Journals", publicationTypes=["JournalArticle"],
                      journal={"name": "Neural Computation", "volume": "33", "pages": "1-9"},
                      publicationVenue={"id": "x", "name": "Neural Computation",
                                        "type": "journal"}),
        ],
    }  # fmt: skip
    chapters = tmp_path / "s2.json"
    chapters.write_text(json.dumps(answer), encoding="utf-8")
    home = tmp_path / "home"
    ok(run("--home", home, "import", chapters, env=env))
    for fixture in ("s2_author_search.json", "s2_author_batch.json"):
        ok(run("--home", home, "import", FOLDER / fixture, env=env))
    bib = bibtexparser.parse_string(_export(home, "bibtex", tmp_path / "out.bib", env))
    kinds = {
        e.fields_dict["title"].value.strip("{}"): (
            e.entry_type,
            *(e.fields_dict[f].value for f in ("journal", "booktitle") if f in e.fields_dict),
        )
        for e in bib.entries
    }
    assert kinds["Attention in Chapters"] == ("incollection", "Handbook of Attention")
    assert kinds["Deep Learning for Everyone"] == ("book",)
    assert kinds["Attention in Journals"] == ("article", "Neural Computation")
    assert kinds["Text Processing"] == ("incollection", "Raku Recipes")
    assert kinds["The Humble Programmer"] == ("incollection", "Edsger Wybe Dijkstra")
    assert kinds["Review of two collections of essays about Alan Turing"] == (
        "article",
        "Cryptologia",
    )
    ris = _export(home, "ris", tmp_path / "out.ris", env)
    chapter = next(r for r in ris.split("ER  -") if "TI  - Text Processing" in r)
    assert "TY  - CHAP" in chapter and "T2  - Raku Recipes" in chapter, chapter
    assert "JO  -" not in chapter and "JF  -" not in chapter
    csl = json.loads(_export(home, "csl-json", tmp_path / "out.json", env))
    item = next(i for i in csl if i["title"] == "Attention in Chapters")
    assert (item["type"], item["container-title"], item["page"]) == (
        "chapter",
        "Handbook of Attention",
        "11–40",
    )
    # read back, each is what it was
    fresh = tmp_path / "fresh"
    ok(run("--home", fresh, "import", tmp_path / "out.bib", env=env))
    again = bibtexparser.parse_string(_export(fresh, "bibtex", tmp_path / "again.bib", env))
    assert sorted(e.entry_type for e in again.entries) == sorted(e.entry_type for e in bib.entries)


_EDITED_BIB = """@book{gaonkar2001,
  editor = {Gaonkar, Dilip Parameshwar},
  title = {Alternative Modernities},
  publisher = {Duke University Press},
  year = {2001},
}
@proceedings{spire2009,
  editor = {Crestani, Fabio and Ferragina, Paolo and Sanderson, Mark},
  title = {String Processing and Information Retrieval},
  year = {2009},
}
@book{westfahl2000,
  author = {Westfahl, Gary},
  editor = {Roe, Rob},
  title = {Space and Beyond},
  year = {2000},
}
"""
_EDITED_RIS = (
    "TY  - BOOK\nTI  - Edited Volumes in RIS\nA3  - Meyer, Roland\nA3  - Nestmann, Uwe\n"
    "PY  - 2017\nER  - \n"
)
_EDITED_CSL = [
    {"id": "x1", "type": "book", "title": "Edited Volumes in CSL",
     "editor": [{"family": "Lee", "given": "Ann"}], "issued": {"date-parts": [[2019]]}},
]  # fmt: skip
#: The ids these records had before editors were told from authors: they must not move.
_EDITED_IDS = {
    "Alternative Modernities": "98b7b127cfc8",
    "String Processing and Information Retrieval": "213de19f7613",
    "Space and Beyond": "e9d060a240d7",
    "Edited Volumes in RIS": "70c4936625eb",
    "Edited Volumes in CSL": "8dc4db2bf1c3",
}
_EDITED = {t for t in _EDITED_IDS if t != "Space and Beyond"}


def test_books_that_name_only_their_editors_export_them_as_editors(
    env: dict[str, str], tmp_path: Path
) -> None:
    """A book or proceedings volume read with editors and no author (BibTeX ``editor``, RIS
    ``A3``, CSL ``editor``) was exported with its editors as its authors (``author =``,
    ``AU``, CSL ``author``, Markdown's ``Authors:``). They stay the paper's people (its id,
    its search and its list as they were), and every export says they are editors; a book
    with an author keeps its author, and its editor as its editor (BibTeX ``editor``
    beside ``author``, RIS ``A3``, CSL ``editor``: it was dropped before)."""
    files = [tmp_path / "ed.bib", tmp_path / "ed.ris", tmp_path / "ed.json"]
    files[0].write_text(_EDITED_BIB, encoding="utf-8")
    files[1].write_text(_EDITED_RIS, encoding="utf-8")
    files[2].write_text(json.dumps(_EDITED_CSL), encoding="utf-8")
    home = tmp_path / "home"
    ok(run("--home", home, "import", *files, env=env))
    papers = {p["title"]: p for p in listed(home, env)}
    assert {title: p["id"] for title, p in papers.items()} == _EDITED_IDS
    assert papers["Alternative Modernities"]["authors"] == ["Dilip Parameshwar Gaonkar"]

    bib = bibtexparser.parse_string(_export(home, "bibtex", tmp_path / "out.bib", env))
    people = {
        e.fields_dict["title"].value.strip("{}"): {
            f: e.fields_dict[f].value for f in ("author", "editor") if f in e.fields_dict
        }
        for e in bib.entries
    }
    assert people["String Processing and Information Retrieval"] == {
        "editor": "Fabio Crestani and Paolo Ferragina and Mark Sanderson"
    }
    assert people["Edited Volumes in RIS"] == {"editor": "Roland Meyer and Uwe Nestmann"}
    assert people["Space and Beyond"] == {"author": "Gary Westfahl", "editor": "Rob Roe"}
    assert all(set(people[t]) == {"editor"} for t in _EDITED)

    ris = _export(home, "ris", tmp_path / "out.ris", env)
    records = {r.split("TI  - ")[1].split("\n")[0]: r for r in ris.split("ER  -") if "TI  - " in r}
    assert "ED  - Gaonkar, Dilip Parameshwar" in records["Alternative Modernities"]
    assert all("AU  -" not in records[t] and "ED  -" in records[t] for t in _EDITED)
    assert "AU  - Westfahl, Gary" in records["Space and Beyond"]
    assert "A3  - Roe, Rob" in records["Space and Beyond"]

    csl = {i["title"]: i for i in json.loads(_export(home, "csl-json", tmp_path / "o.json", env))}
    assert csl["Edited Volumes in CSL"]["editor"] == [{"family": "Lee", "given": "Ann"}]
    assert all("author" not in csl[t] and csl[t]["editor"] for t in _EDITED)
    assert csl["Space and Beyond"]["editor"] == [{"family": "Roe", "given": "Rob"}]
    assert csl["Space and Beyond"]["author"] == [{"family": "Westfahl", "given": "Gary"}]

    markdown = _export(home, "markdown", tmp_path / "out.md", env)
    assert "  - Editors: Dilip Parameshwar Gaonkar\n" in markdown
    assert "  - Authors: Gary Westfahl\n  - Edited by: Rob Roe\n" in markdown

    # each export read into an empty HOME: the same papers, ids, people, and editors still
    for name in ("out.bib", "out.ris", "o.json", "out.md"):
        fresh = tmp_path / f"fresh-{name}"
        ok(run("--home", fresh, "import", tmp_path / name, env=env))
        again = {p["title"]: p for p in listed(fresh, env)}
        assert {t: (p["id"], p["authors"]) for t, p in again.items()} == {
            t: (p["id"], p["authors"]) for t, p in papers.items()
        }, name
        text = _export(fresh, "bibtex", tmp_path / f"again-{name}.bib", env)
        entries = bibtexparser.parse_string(text).entries
        edited = {e.fields_dict["title"].value.strip("{}") for e in entries if "editor" in e}
        # (Markdown names a book's editor beside its authors too: ``Edited by:``)
        assert edited == _EDITED | {"Space and Beyond"}, name
