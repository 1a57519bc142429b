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
