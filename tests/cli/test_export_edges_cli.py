"""Edges of the exports, as users meet them through ``papers import`` and ``papers export``:
titles with asterisks, books that name only their editors, Semantic Scholar's book chapters,
abstracts too short to be kept."""

from __future__ import annotations

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
