"""``papers import`` of exports as reference managers and bibliographies write them, through
the real command: what a file's entries come without is said on stderr, in one line for them
all, and the papers are imported."""

from __future__ import annotations

from pathlib import Path

from tests.cli.test_cli import make_env, ok, run


def test_entries_whose_crossref_is_not_in_the_file_are_one_line(tmp_path: Path) -> None:
    """Chapters copied out of a JabRef library without their books came without a venue and
    a year, nothing said."""
    path = tmp_path / "chapters.bib"
    path.write_text(
        "@incollection{one, author = {Lee, Ann}, title = {One}, crossref = {book1}, pages = 1}\n"
        "@incollection{two, author = {Roe, Rob}, title = {Two}, crossref = {book1}, year = 2001}\n"
        "@incollection{three, author = {Moe, Max}, title = {Three}, crossref = {book2}}\n"
        "@incollection{four, author = {Poe, Pat}, title = {Four}, crossref = {here}}\n"
        "@book{here, editor = {Doe, Jane}, title = {Here}, year = 2002}\n",
        encoding="utf-8",
    )
    result = run("--home", tmp_path / "home", "import", path, env=make_env(tmp_path))
    assert ok(result).startswith("Imported chapters: 4 added")
    assert result.stderr == (
        f"  warning: {path}: 3 entries name a crossref the file does not hold (book1, book2; "
        "the first, record 1: @incollection{one} (line 1)): imported without the venue and "
        "year it would lend them\n"
    )
