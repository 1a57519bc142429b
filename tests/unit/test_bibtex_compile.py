"""Our BibTeX export compiles both ways: pdflatex + bibtex, and biblatex + biber + pdflatex.

A document citing every entry (``\\nocite{*}``) is compiled from the export of the 3,703-paper
list (the entries that hold everything any of them holds, and a sample), of every file of
``tests/fixtures/real_shapes`` and of a paper holding every character
of ``tex_table.json`` and the ones it has no command for (CJK, emoji, marks, ``Ħ``): 0 errors,
every entry in the bibliography, never a ``?``. Skips, saying why, without TeX
(``.ci/run`` installs texlive-latex-base, texlive-latex-recommended, texlive-bibtex-extra
and biber).
"""

from __future__ import annotations

import re
from itertools import accumulate
from pathlib import Path

import pytest

from benchmarks.real_shapes import FOLDER, truth
from storage import Library
from storage.export import export
from storage.export.tex import _table
from storage.export.tex_table import compile_both, has_tex
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


def brace_depths(entry: str) -> list[int]:
    """How deep in braces each character of ``entry`` leaves it."""
    return list(accumulate((c == "{") - (c == "}") for c in entry))


def features(entry: str) -> set[str]:
    """What in one exported entry TeX could trip on: its commands, its punctuation, its type,
    its fields, how deep its braces go and the shapes of its author names."""
    found = set(re.findall(r"\\[A-Za-z]+|\\.", entry))
    found |= {c for c in entry if not c.isalnum() and c not in " \n"}
    found |= {f"field:{name}" for name in re.findall(r"(?m)^\s*(\w+)\s*=", entry)}
    found.add(f"type:{entry[1 : entry.index('{')]}")
    found.add(f"depth:{max(brace_depths(entry), default=0)}")
    authors = re.search(r"(?m)^\s*author\s*=\s*\{(.*)\},?$", entry)
    for name in authors.group(1).split(" and ") if authors else ():
        words = name.split()
        found.add("name:" + "".join("l" if w[:1].islower() else "w" for w in words[:6]))
    return found


def covering(entries: list[str], every: int = 25) -> list[str]:
    """Entries that between them hold every feature any entry holds (taken greedily), and
    every ``every``-th entry besides, in the list's order."""
    left = [features(e) for e in entries]
    wanted: set[str] = set().union(*left)
    chosen = set(range(0, len(entries), every))
    for i in chosen:
        wanted -= left[i]
    while wanted:
        best = max(range(len(entries)), key=lambda i: len(left[i] & wanted))
        chosen.add(best)
        wanted -= left[best]
    return [entries[i] for i in sorted(chosen)]


@pytest.mark.slow(40)
def test_the_real_list_compiles_both_ways(tmp_path: Path) -> None:
    """The real list's export: its keys unique and its braces balanced, entry by entry; then
    TeX compiles the entries that between them hold every command, character, field, brace
    depth and author-name shape of the 3,703 (55), and every 25th besides: 195 in all,
    each way (the whole list took TeX five minutes of the suite's time, for nothing more)."""
    if not REAL_LIST.is_file():
        pytest.skip(f"real data absent: {REAL_LIST} (only on machines with ../shared/data)")
    library = Library(tmp_path / "home")
    library.import_file(REAL_LIST)
    papers = library.papers()
    bib = export(papers, library.triage(), "bibtex")
    head, *entries = re.split(r"(?m)^(?=@\w+\{)", bib)
    assert "@" not in head and len(entries) == len(papers) == 3703
    keys = [e[e.index("{") + 1 : e.index(",")] for e in entries]
    assert len(set(keys)) == len(keys)  # (bibtex drops a repeated key with an error)
    for entry in entries:
        depths = brace_depths(entry)
        assert min(depths) >= 0 and depths[-1] == 0, entry
    chosen = covering(entries)
    assert 150 < len(chosen) < 400, len(chosen)  # (195 on the list of 2025)
    compiles(tmp_path, head + "".join(chosen))


def test_every_real_shape_compiles_both_ways(tmp_path: Path) -> None:
    library = Library(tmp_path / "home")
    library.import_files([FOLDER / name for name in truth()])
    compiles(tmp_path, export(library.papers(), library.triage(), "bibtex"))


def test_every_character_compiles_and_reads_back(tmp_path: Path) -> None:
    from storage.sources.registry import read_text_content

    table = "".join(c for c in _table() if c != "¿")  # the one command holding a "?"
    untabled = "中文 😀 Ħ ș ǘ ﬁ ḿ Ą ℝ «» \u0301x ꙮ Nguyễn ệ ầ ố ę ą ț Ș ǚ й"
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


def test_an_acl_anthology_entry_keeps_its_stacked_accents_and_compiles(tmp_path: Path) -> None:
    """ACL Anthology's BibTeX writes Vietnamese names with nested accents (``Nguy{\\~{\\^e}}n``):
    the export writes them as accents again, not as ``U+0302`` placeholders, and compiles."""
    from storage.sources.registry import read_text_content

    acl = (
        "@inproceedings{nguyen-etal-2023-names,\n"
        '    title = "Names of {V}ietnamese Authors",\n'
        '    author = "Nguy{\\~{\\^e}}n, Minh  and\n'
        '      Tr{\\`{\\^a}}n, Ho{\\`a}ng",\n'
        '    booktitle = "Proceedings of the 61st Annual Meeting of the Association for '
        'Computational Linguistics",\n'
        '    year = "2023",\n'
        "}\n"
    )
    [record] = read_text_content(acl, tmp_path / "acl.bib").records
    assert record.authors == ("Minh Nguyễn", "Hoàng Trần")
    paper = Paper(id="a" * 12, title=record.title, abstract="", authors=record.authors)
    bib = export([paper], TriageState(), "bibtex")
    assert r"author = {Minh Nguy{\~{{\^e}}}n and Ho{\`a}ng Tr{\`{{\^a}}}n}" in bib
    compiles(tmp_path, bib)


def test_notes_and_tags_compile_and_print_where_a_style_prints_them(tmp_path: Path) -> None:
    """The user's notes (``annote``) and tags (``keywords``, ``mendeley-tags``) at their most
    hostile compile both ways, and set where styles print them: chicago-annote's notes after
    each entry (bibtex), biblatex's ``reading`` style its annotations and keywords (biber,
    which warned of a runaway string at a note's line reading ``title = …``)."""
    import shutil

    from storage.export.tex_table import run
    from tests.unit.test_export_notes_tags import HOSTILE_NOTES, PAPER

    if run(tmp_path, "kpsewhich", "chicago-annote.bst", "natbib.sty").stdout.count("\n") != 2:
        pytest.skip("chicago-annote.bst or natbib is not installed (texlive-bibtex-extra)")
    # (biber's time grows with the square of a field's commands: 800 braces or CJK characters
    # in one note take it 20 s, 5,000 braces 100 s, any field alike; bibtex is quick)
    long = "a long note " * 2000 + "中文" * 50 + "{" * 300
    notes = [*HOSTILE_NOTES, "title = {x}\n  author = y\n@string{a = b}", long]
    papers = [
        Paper(id=f"{i:012d}", title=f"{PAPER.title} {i}", abstract=PAPER.abstract,
              authors=PAPER.authors, github=PAPER.github, list="ICLR 2025")
        for i in range(len(notes))
    ]  # fmt: skip
    tags = ("sae", "a-b", "c\\d", "x{y", "50%", "ü", "#x_y", "~")
    triage = TriageState(
        notes={p.id: n for p, n in zip(papers, notes, strict=True)},
        tags={p.id: tags for p in papers},
    )
    bib = export(papers, triage, "bibtex")
    compiles(tmp_path, bib)
    printed = tmp_path / "printed"
    printed.mkdir()
    shutil.copy(tmp_path / "refs.bib", printed / "refs.bib")
    (printed / "ca.tex").write_text(
        "\\documentclass{article}\\usepackage{natbib}\\begin{document}\\nocite{*}"
        "\\bibliographystyle{chicago-annote}\\bibliography{refs}\\end{document}\n"
    )
    (printed / "rd.tex").write_text(
        "\\documentclass{article}\\usepackage[backend=biber,style=reading]{biblatex}"
        "\\addbibresource{refs.bib}\\begin{document}\\nocite{*}\\printbibliography"
        "\\end{document}\n"
    )
    latex = ("pdflatex", "-interaction=nonstopmode")
    run(printed, *latex, "ca.tex")
    assert "error message" not in (bibtex := run(printed, "bibtex", "ca").stdout), bibtex
    run(printed, *latex, "rd.tex")
    biber = run(printed, "biber", "rd").stdout
    assert "ERROR" not in biber and "WARN" not in biber, biber[-2000:]
    for name in ("ca", "rd"):
        log = run(printed, *latex, f"{name}.tex").stdout
        assert not re.findall(r"^! .*", log, re.MULTILINE), (name, log[-2000:])
    assert (printed / "ca.bbl").read_text().count("\\begin{quotation}") == len(papers)
    rd = (printed / "rd.bbl").read_text()
    assert rd.count("\\field{annotation}") == len(papers) and rd.count("\\keyw{") == len(papers)
