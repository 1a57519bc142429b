"""The Markdown export names a book's or a chapter's editors and series in the entry's line
style (``  - Edited by: …``, ``  - Series: …``): it showed neither, though the other exports
write both. Our Markdown reader reads them back; a paper in a journal or in proceedings shows
no such lines (its volume's editors would be every DBLP entry's noise)."""

from __future__ import annotations

from pathlib import Path

from storage import Library
from storage.export import export

ZOTERO_RIS = """TY  - CHAP
TI  - Output-Sensitive Autocompletion Search
AU  - Bast, H.
AU  - Weber, Ingmar
T2  - String Processing and Information Retrieval
A2  - Crestani, Fabio
A2  - Stender Clausen, Jørgen
T3  - Lecture Notes in Computer Science
PY  - 2006
ER  - 

TY  - BOOK
TI  - Selected Papers on Computer Science
AU  - Knuth, Donald E.
T2  - CSLI Lecture Notes
PY  - 1996
ER  - 

TY  - CONF
TI  - A paper in proceedings
AU  - Lee, Ann
A2  - Crestani, Fabio
T2  - String Processing and Information Retrieval
T3  - Lecture Notes in Computer Science
PY  - 2006
ER  - 

"""


def _library(tmp_path: Path, name: str, text: str) -> Library:
    source = tmp_path / name
    source.write_text(text, encoding="utf-8")
    library = Library(tmp_path / f"home-{name}")
    library.import_file(source)
    return library


def _entry(markdown: str, title: str) -> list[str]:
    lines = markdown.splitlines()
    start = next(i for i, line in enumerate(lines) if title in line)
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("- ")), len(lines))
    return lines[start + 1 : end]


def test_a_books_and_a_chapters_editors_and_series_are_shown(tmp_path: Path) -> None:
    library = _library(tmp_path, "zotero.ris", ZOTERO_RIS)
    markdown = export(library.papers(), library.triage(), "markdown")
    chapter = _entry(markdown, "Output-Sensitive Autocompletion Search")
    assert "  - Authors: H. Bast, Ingmar Weber" in chapter
    # (a family name's tie kept: it shows as a space, and is read back)
    assert "  - Edited by: Fabio Crestani, Jørgen Stender\u00a0Clausen" in chapter
    assert "  - Series: Lecture Notes in Computer Science" in chapter
    book = _entry(markdown, "Selected Papers on Computer Science")
    assert "  - Series: CSLI Lecture Notes" in book
    assert not any(line.startswith("  - Edited by") for line in book)
    paper = _entry(markdown, "A paper in proceedings")
    assert not any(line.startswith(("  - Edited by", "  - Series")) for line in paper)


def test_they_are_read_back_from_the_markdown(tmp_path: Path) -> None:
    library = _library(tmp_path, "zotero.ris", ZOTERO_RIS)
    papers = library.papers()
    markdown = export(papers, library.triage(), "markdown")
    again = {p.title: p for p in _library(tmp_path, "back.md", markdown).papers()}
    for paper in papers[:2]:
        assert again[paper.title].fact("series") == paper.fact("series")
        assert again[paper.title].fact("editors") == paper.fact("editors")


def test_markup_and_control_characters_in_them_are_shown_as_text(tmp_path: Path) -> None:
    hostile = ZOTERO_RIS.replace("Lecture Notes in Computer Science", "<script>x</script>\x1b[2J")
    hostile = hostile.replace("Crestani, Fabio", "Crestani, **Fabio**")
    library = _library(tmp_path, "hostile.ris", hostile)
    markdown = export(library.papers(), library.triage(), "markdown")
    chapter = "\n".join(_entry(markdown, "Output-Sensitive Autocompletion Search"))
    assert "<script>" not in chapter and "\x1b" not in chapter and "**Fabio**" not in chapter
