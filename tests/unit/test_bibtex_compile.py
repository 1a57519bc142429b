"""Our BibTeX export compiles both ways: pdflatex + bibtex, and biblatex + biber + pdflatex.

A document citing every entry (``\\nocite{*}``) is compiled from the export of the 3,703-paper
list, of every file of ``tests/fixtures/real_shapes`` and of a paper holding every character
of ``tex_table.json`` and the ones it has no command for (CJK, emoji, marks, ``Ħ``): 0 errors,
every entry in the bibliography, never a ``?``. Skips, saying why, without TeX
(``.ci/run`` installs texlive-latex-base, texlive-latex-recommended, texlive-bibtex-extra
and biber).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from benchmarks.real_shapes import FOLDER, truth
from storage import Library
from storage.export import export
from storage.export.tex import _table
from storage.export.tex_table import LARGE_MEMORY, compile_both, has_tex
from storage.files.triage_model import TriageState
from storage.models import Paper
from tests.conftest import REAL_LIST

pytestmark = pytest.mark.skipif(
    not has_tex(),
    reason="pdflatex, bibtex, biber or biblatex is not installed (.ci/run installs them)",
)


def compiles(folder: Path, bib: str, env: dict[str, str] | None = None) -> None:
    """``bib`` compiles both ways with every entry cited and no error."""
    assert bib.isascii()
    entries = len(re.findall(r"^@\w+\{", bib, re.MULTILINE))
    logs = compile_both(folder, bib, env)
    assert "error message" not in logs["bibtex"], logs["bibtex"][-2000:]
    assert "ERROR" not in logs["biber"], logs["biber"][-2000:]
    for name in ("pdflatex+bibtex", "pdflatex+biber"):
        errors = [m.group() for m in re.finditer(r"^! .*", logs[name], re.MULTILINE)]
        assert not errors, (name, errors[:5])
    assert (folder / "bt.bbl").read_text(errors="replace").count("\\bibitem") == entries
    assert (folder / "bl.bbl").read_text(errors="replace").count("\\entry{") == entries
    assert (folder / "bt.pdf").is_file() and (folder / "bl.pdf").is_file()


@pytest.mark.parametrize("half", [0, 1])
def test_the_real_list_compiles_both_ways(tmp_path: Path, half: int) -> None:
    """Every paper of the real list, in two halves (two documents TeX compiles at once on
    two cores, where the suite runs on both: a minute of TeX each way for the whole)."""
    if not REAL_LIST.is_file():
        pytest.skip(f"real data absent: {REAL_LIST} (only on machines with ../shared/data)")
    library = Library(tmp_path / "home")
    library.import_file(REAL_LIST)
    papers = library.papers()
    middle = len(papers) // 2
    chosen = papers[:middle] if half == 0 else papers[middle:]
    # biblatex keeps every cited entry in TeX's memory: 1,850 need more than TeX Live's default
    compiles(tmp_path, export(chosen, library.triage(), "bibtex"), LARGE_MEMORY)


def test_every_real_shape_compiles_both_ways(tmp_path: Path) -> None:
    library = Library(tmp_path / "home")
    library.import_files([FOLDER / name for name in truth()])
    compiles(tmp_path, export(library.papers(), library.triage(), "bibtex"))


def test_every_character_compiles_and_reads_back(tmp_path: Path) -> None:
    from storage.sources.registry import read_text_content

    table = "".join(c for c in _table() if c != "¿")  # the one command holding a "?"
    untabled = "中文 😀 Ħ ș ǘ ﬁ ḿ Ą ℝ «» \u0301x ꙮ"
    chunks = [*(table[n : n + 60] for n in range(0, len(table), 60)), untabled]
    papers = [
        Paper(id=f"{i:012d}", title=f"Characters {i}: {chunk}", abstract=f"All of them: {chunk}.",
              authors=(f"Ann {chunk[:3]} Lee",), list="Characters 2025")
        for i, chunk in enumerate(chunks)
    ]  # fmt: skip
    bib = export(papers, TriageState(), "bibtex")
    assert "?" not in bib  # no character is lost to one
    compiles(tmp_path, bib)
    records = read_text_content(bib, tmp_path / "chars.bib").records
    import unicodedata

    def shown(text: str) -> str:
        return unicodedata.normalize("NFKC", " ".join(text.split()))

    assert [shown(r.title) for r in records] == [shown(p.title) for p in papers]
