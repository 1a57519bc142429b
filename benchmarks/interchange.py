"""Papers in and out, whole: the figures of issue 11 on the real ICLR 2025 list.

Run from the repository root: ``python -m benchmarks.interchange [--no-tex]``.

Prints, each against the JSONL import of ``../shared/data/iclr2025.jsonl`` (3,703 papers):

* CSV written by Python's ``csv`` module, and our own CSV export: papers imported, bogus
  (not in the JSONL), lost, titles/abstracts/authors that differ, statuses restored, time;
* JSON export → import into a fresh HOME: statuses, notes, tags and lists restored;
* BibTeX export of all papers: entries bibtexparser reads, with ``year`` and ``booktitle``,
  pure ASCII, braces balanced, keys unique; titles and authors read back the same; and, when
  TeX is installed (not with ``--no-tex``), pdflatex + bibtex and ``biber --tool`` on it;
* identity: papers of the real list merged with another; the seed lists + the real list;
* the title-only catalog of code links: papers it gives a link they lacked.

Skips cleanly (exit code 0, with a message) where the data folder is absent.
"""

from __future__ import annotations

import csv
import json
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from storage import Library, Status
from storage.export import export
from storage.models import Paper

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"
REAL = DATA / "iclr2025.jsonl"
CODE_LINKS = DATA / "iclr2025_code_links.jsonl"
SEEDS = ROOT / "storage" / "sample"


def timed(work: Callable[[], Any]) -> tuple[Any, float]:
    start = time.perf_counter()
    result = work()
    return result, time.perf_counter() - start


def fields(paper: Paper) -> tuple[str, str, tuple[str, ...]]:
    return paper.title, paper.abstract, paper.authors


def compare(name: str, reference: list[Paper], papers: list[Paper], seconds: float) -> bool:
    """One line: how ``papers`` read against ``reference`` (by title, abstract, authors)."""
    wanted = {fields(p) for p in reference}
    got = {fields(p) for p in papers}
    by_abstract = {p.abstract: p for p in reference}
    differ = sum(
        1
        for p in papers
        if p.abstract in by_abstract and fields(by_abstract[p.abstract]) != fields(p)
    )
    bogus = sum(1 for p in papers if p.abstract not in by_abstract)
    lost = len(wanted - got) - differ
    print(
        f"{name:<34} {len(papers):>5} papers  {bogus} bogus  {max(lost, 0)} lost  "
        f"{differ} differ  {seconds:.2f} s"
    )
    return bogus == 0 and lost <= 0 and differ == 0 and len(papers) == len(reference)


def python_csv(path: Path) -> None:
    """The real list as Python's ``csv`` module writes it (210 abstracts hold a quote)."""
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["title", "abstract", "authors", "url", "github", "status"])
        for line in REAL.read_text(encoding="utf-8").splitlines():
            r = json.loads(line)
            writer.writerow(
                [r["title"], r["abstract"], "; ".join(r["authors"]), r["url"],
                 " ".join(r["github"]), r["status"]]
            )  # fmt: skip


def decide(library: Library, papers: list[Paper]) -> None:
    """Random statuses, notes (some huge, some Unicode) and tags on a third of the papers."""
    rng = random.Random(11)
    chosen = rng.sample(papers, len(papers) // 3)
    for status in (Status.READ, Status.SKIPPED, Status.STARRED):
        library.set_statuses([p.id for p in chosen if rng.random() < 0.5], status)
    for i, paper in enumerate(chosen[:300]):
        library.set_note(paper.id, "note ✓ τ-bench " * (1 + (i % 7) * 500) if i % 2 else f"n{i}")
        library.set_tags(paper.id, [f"tag{i % 5}", "to read"])


def restored(source: Library, target: Library) -> str:
    a, b = source.triage(), target.triage()
    ids = {p.id for p in source.papers()}
    parts = []
    for name, mine, theirs in (
        ("statuses", a.statuses, b.statuses),
        ("notes", a.notes, b.notes),
        ("tags", a.tags, b.tags),
    ):
        same = sum(1 for pid in ids if mine.get(pid) == theirs.get(pid) and pid in mine)
        parts.append(f"{name} {same}/{len(mine)}")
    lists = sum(
        1 for p, q in zip(source.papers(), target.papers(), strict=False) if p.lists == q.lists
    )
    return ", ".join(parts) + f", lists {lists}/{len(ids)}"


def bibtex_checks(text: str, papers: list[Paper]) -> None:
    import bibtexparser

    from storage.sources.bibtex import read_bibtex

    library = bibtexparser.parse_string(text, parse_stack=[])
    entries = library.entries
    keys = [e.key for e in entries]
    with_year = sum(1 for e in entries if "year" in e.fields_dict)
    with_booktitle = sum(1 for e in entries if "booktitle" in e.fields_dict)
    depth_ok = all(e.raw.count("{") == e.raw.count("}") for e in entries)
    print(
        f"BibTeX of {len(papers)}: bibtexparser reads {len(entries)} entries, year {with_year}, "
        f"booktitle {with_booktitle}, ASCII {text.isascii()}, braces balanced {depth_ok}, "
        f"keys unique {len(set(keys)) == len(keys)}, {len(library.failed_blocks)} failed blocks"
    )
    back = read_bibtex(text, Path("back.bib")).records
    titles = sum(1 for p, r in zip(papers, back, strict=True) if p.display_title == r.title)
    authors = sum(1 for p, r in zip(papers, back, strict=True) if p.authors == r.authors)
    print(f"  read back: titles the same {titles}/{len(papers)}, authors {authors}/{len(papers)}")


def tex_checks(text: str) -> None:
    if not (shutil.which("pdflatex") and shutil.which("bibtex") and shutil.which("biber")):
        print("  TeX: pdflatex, bibtex or biber not installed (skipped)")
        return
    with tempfile.TemporaryDirectory() as folder:
        where = Path(folder)
        (where / "refs.bib").write_text(text, encoding="ascii")
        (where / "doc.tex").write_text(
            "\\documentclass{article}\\begin{document}\\nocite{*}"
            "\\bibliographystyle{plain}\\bibliography{refs}\\end{document}\n"
        )
        run = lambda *cmd: subprocess.run(  # noqa: E731
            cmd, cwd=where, capture_output=True, text=True, timeout=600
        )
        start = time.perf_counter()
        codes = [
            run("pdflatex", "-interaction=nonstopmode", "-halt-on-error", "doc.tex").returncode,
            run("bibtex", "doc").returncode,
            run("pdflatex", "-interaction=nonstopmode", "-halt-on-error", "doc.tex").returncode,
        ]
        took = time.perf_counter() - start
        print(f"  pdflatex + bibtex + pdflatex: exit codes {codes}, {took:.1f} s")
        start = time.perf_counter()
        biber = run("biber", "--tool", "--output-file", "out.bib", "refs.bib")
        errors = biber.stdout.count("ERROR -") + biber.stdout.count("WARN -")
        print(
            f"  biber --tool: exit code {biber.returncode}, {errors} errors or warnings, "
            f"{time.perf_counter() - start:.1f} s"
        )


def main(argv: list[str]) -> int:
    if not REAL.is_file():
        print(f"real data absent: {REAL} (skipped)")
        return 0
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        reference_lib = Library(root / "jsonl")
        report, seconds = timed(lambda: reference_lib.import_file(REAL))
        reference = reference_lib.papers()
        print(
            f"{'JSONL import':<34} {len(reference):>5} papers  {seconds:.2f} s; merged: "
            f"{len(report.merged)}, kept apart: {len(report.apart)}"
        )

        python_csv(root / "python.csv")
        lib = Library(root / "csv-python")
        _, seconds = timed(lambda: lib.import_file(root / "python.csv"))
        ok = compare("CSV (Python's csv module)", reference, lib.papers(), seconds)

        decide(reference_lib, reference)
        triage = reference_lib.triage()
        (root / "ours.csv").write_text(export(reference, triage, "csv"), encoding="utf-8")
        lib = Library(root / "csv-ours")
        _, seconds = timed(lambda: lib.import_file(root / "ours.csv"))
        ok &= compare("CSV (our export, all statuses)", reference, lib.papers(), seconds)
        print(f"  restored: {restored(reference_lib, lib)}")

        (root / "backup.json").write_text(export(reference, triage, "json"), encoding="utf-8")
        lib = Library(root / "json")
        _, seconds = timed(lambda: lib.import_file(root / "backup.json"))
        ok &= compare("JSON (our export) → empty home", reference, lib.papers(), seconds)
        print(f"  restored: {restored(reference_lib, lib)}")

        text, seconds = timed(lambda: export(reference, triage, "bibtex"))
        print(f"BibTeX export: {len(text) / 1e6:.1f} MB in {seconds:.2f} s")
        bibtex_checks(text, reference)
        if "--no-tex" not in argv:
            tex_checks(text)

        lib = Library(root / "seeds")
        report = lib.import_files([SEEDS, REAL])
        print(
            f"identity: seeds + JSONL → {len(lib)} papers ({report.summary()}); real list alone:"
            f" {len(reference)} papers from 3,703 records, {len(reference_lib.lists())} list"
        )
        before = {p.id: {g.casefold() for g in p.github} for p in reference}
        catalog = Library(root / "catalog")
        catalog.import_file(REAL)
        catalog.import_file(REAL, catalog=CODE_LINKS)
        gained = sum(1 for p in catalog.papers() if {g.casefold() for g in p.github} - before[p.id])
        print(f"code links catalog: {gained} papers gain a link their abstract lacks")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
