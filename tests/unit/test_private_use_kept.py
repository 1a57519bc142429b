"""Characters of Unicode's private use are text: Powerline's and Nerd Fonts' glyphs (U+E0B0
, U+E0B1 , U+E0B2 ) are in shell prompts, notes and tags. The converter marked two quotes
set apart (``'{}'``) and ``\\textasciigrave`` with those very three while it read the quotes,
so a title, a note or a tag holding one lost it (U+E0B0) or had a quote in its place."""

from __future__ import annotations

import json
from pathlib import Path

from storage import Library
from storage.export import export
from storage.text.latex import to_unicode

GLYPHS = "\ue0b0 \ue0b1 \ue0b2"


def test_powerline_glyphs_are_shown_as_they_are() -> None:
    for text in (f"Prompt {GLYPHS} segments", f"\\emph{{Prompt}} {GLYPHS} it''s"):
        assert GLYPHS in to_unicode(text), text
    # the quotes set apart are still read as TeX sets them
    assert to_unicode("a'{}'b \\textasciigrave{}x") == "a''b `x"
    # what marks them now is a noncharacter, which a file's text does not bring in
    assert to_unicode("a\ufdd1b \ufdd0 c'\ufdd0'd") == "ab c''d".replace("''", "”")


def test_a_tag_of_a_glyph_comes_back_from_bibtex(tmp_path: Path) -> None:
    source = tmp_path / "list.json"
    row = {"title": f"Prompt {GLYPHS} segments", "abstract": "An abstract of some length."}
    source.write_text(json.dumps([row]), encoding="utf-8")
    library = Library(tmp_path / "home")
    library.import_file(source)
    (paper,) = library.papers()
    assert paper.display_title == f"Prompt {GLYPHS} segments"
    library.set_tags(paper.id, ["\ue0b0", "a\ue0b1b"])
    path = tmp_path / "export.bib"
    path.write_text(export(library.papers(), library.triage(), "bibtex"), encoding="utf-8")
    report = library.import_file(path)
    assert (report.added, report.updated, report.refused) == (0, 0, 0), report.summary()
    assert library.triage().tags[paper.id] == ("\ue0b0", "a\ue0b1b")
