"""A title's underscores, asterisks and backticks are its characters: the display converter
read them as Markdown emphasis and code (``__init__ considered harmful`` showed as "init
considered harmful" in the list, the pane, the queue, toasts and every export), while the
abstract's Markdown and a title's LaTeX are still read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from storage import Library
from storage.export import EXPORTERS, SUFFIXES, export

#: Titles as a list gives them, each shown as it is written.
TITLES = [
    "__init__ considered harmful",
    "Using *args and **kwargs in _Python_",
    "snake_case_names and **bold** claims",
    "The `yield` statement and [links](https://example.org)",
]


def _library(tmp_path: Path) -> Library:
    rows = [
        {"title": title, "abstract": f"Abstract {i}: a **bold** claim about `code`, long enough."}
        for i, title in enumerate(TITLES)
    ]
    rows.append({"title": r"$\ell_{2}$ regularization, \emph{revisited}", "abstract": "LaTeX."})
    source = tmp_path / "list.json"
    source.write_text(json.dumps(rows), encoding="utf-8")
    library = Library(tmp_path / "home")
    library.import_file(source)
    return library


def test_a_titles_characters_show_as_written_and_its_latex_as_read(tmp_path: Path) -> None:
    papers = _library(tmp_path).papers()
    assert [p.display_title for p in papers] == [*TITLES, "ℓ₂ regularization, revisited"]
    # the abstract is still read as Markdown
    assert papers[0].display_abstract == "Abstract 0: a bold claim about code, long enough."


def test_the_markdown_export_escapes_a_titles_characters(tmp_path: Path) -> None:
    library = _library(tmp_path)
    written = export(library.papers(), library.triage(), "markdown")
    tokens = MarkdownIt("commonmark").parse(written)
    shown = "".join(
        child.content
        for token in tokens
        if token.type == "inline"
        for child in token.children or ()
        if child.type == "text"
    )
    for title in TITLES[:3]:
        assert title in shown, (title, written)
    assert "The `yield` statement and [links](https://example.org)" in shown


@pytest.mark.parametrize("fmt", ["csl-json", "ris", "json", "csv", "bibtex"])
def test_the_file_exports_keep_a_titles_characters(tmp_path: Path, fmt: str) -> None:
    library = _library(tmp_path)
    written = export(library.papers(), library.triage(), fmt)
    target = Library(tmp_path / "target")
    path = tmp_path / f"export{SUFFIXES[fmt]}"
    path.write_text(written, encoding="utf-8")
    target.import_file(path)
    titles = sorted(p.display_title for p in target.papers())
    assert titles == sorted([*TITLES, "ℓ₂ regularization, revisited"])


@pytest.mark.parametrize("fmt", [e.name for e in EXPORTERS])
def test_an_export_of_such_titles_reimported_changes_nothing(tmp_path: Path, fmt: str) -> None:
    library = _library(tmp_path)
    papers = library.papers()
    path = tmp_path / f"export{SUFFIXES[fmt]}"
    written = export(papers, library.triage(), fmt, abstracts=True)
    path.write_text(written, encoding="utf-8")
    report = library.import_file(path)
    assert (report.added, report.updated, report.refused) == (0, 0, 0), report.summary()
    assert library.papers() == papers
