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
