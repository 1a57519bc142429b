"""Exports in the shapes real tools write, read whole: the figures of issue 21.

Run from the repository root: ``python -m benchmarks.real_shapes [--real]``.

Each file of ``tests/fixtures/real_shapes`` (Better BibTeX and BibLaTeX, Zotero's BibTeX, RIS
and CSL-JSON, Mendeley, Google Scholar, arXiv's export, DBLP, EndNote-style RIS, Paper Copilot,
OpenReview notes keyed by URL) is imported into a fresh library and compared field by field
with ``truth.json``, written with the records independently of any reader. Printed per file:
the records read and the outcome of each (``accounted``: every one added, updated, merged,
kept apart, refused or a container), title / authors / year / link / abstract exact, false
merges (fewer papers than distinct records), and then the same for all files imported into
one library (the same paper met in several files is one paper). ``--real`` also times the
BibTeX export of the 3,703-paper list and its re-import.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from storage import Library
from storage.models import ImportReport, Paper
from storage.sources.citation import citation_of

ROOT = Path(__file__).resolve().parents[1]
FOLDER = ROOT / "tests" / "fixtures" / "real_shapes"
FIELDS = ("title", "authors", "year", "url", "abstract")


@dataclass
class Score:
    """How one import read its file against the truth."""

    name: str
    records: int = 0
    read: int = 0
    unaccounted: int = 0
    exact: dict[str, int] = field(default_factory=lambda: dict.fromkeys(FIELDS, 0))
    missing: list[str] = field(default_factory=list)
    wrong: list[str] = field(default_factory=list)
    false_merges: int = 0

    @property
    def exactness(self) -> float:
        total = self.records * len(FIELDS)
        return 100.0 * sum(self.exact.values()) / total if total else 100.0


def truth() -> dict[str, dict[str, object]]:
    loaded: dict[str, dict[str, object]] = json.loads((FOLDER / "truth.json").read_text("utf-8"))
    return loaded


def _values(paper: Paper) -> dict[str, object]:
    return {
        "title": paper.display_title,
        "authors": list(paper.authors),
        "year": citation_of(paper).year,
        "url": paper.url,
        "abstract": paper.display_abstract,
    }


def _find(papers: list[Paper], row: dict[str, object]) -> Paper | None:
    if row.get("url"):
        found = [p for p in papers if p.url == row["url"]]
        if len(found) == 1:
            return found[0]
    named = [p for p in papers if p.display_title == row["title"]]
    return named[0] if len(named) == 1 else None


def score(
    name: str, report: ImportReport, papers: list[Paper], rows: list[dict[str, object]]
) -> Score:
    """``papers`` (what an import of file ``name`` made) against the truth's ``rows``."""
    result = Score(name, records=len(rows), read=report.read)
    result.unaccounted = report.read - report.accounted
    for row in rows:
        paper = _find(papers, row)
        if paper is None:
            result.missing.append(str(row["title"]))
            continue
        got = _values(paper)
        for name_ in FIELDS:
            if got[name_] == row[name_]:
                result.exact[name_] += 1
            else:
                result.wrong.append(f"{row['title'][:40]}: {name_} {got[name_]!r} ≠ {row[name_]!r}")  # type: ignore[index]
        for extra in ("venue_status", "area"):
            if extra in row:
                value = paper.venue_status if extra == "venue_status" else paper.fact("area")
                if value != row[extra]:
                    result.wrong.append(f"{row['title'][:40]}: {extra} {value!r} ≠ {row[extra]!r}")  # type: ignore[index]
    distinct = len({(str(r["title"]), str(r.get("url", ""))) for r in rows})
    result.false_merges = max(0, distinct - len(papers))
    return result


def import_each(folder: Path) -> list[Score]:
    """Every fixture file into a library of its own."""
    scores = []
    for name, expected in truth().items():
        library = Library(folder / name)
        report = library.import_file(FOLDER / name)
        rows = expected["records"]
        assert isinstance(rows, list)
        scores.append(score(name, report, library.papers(), rows))
    return scores


def import_all(folder: Path) -> tuple[int, int, ImportReport]:
    """Every fixture file into one library: (papers, distinct papers of the truth, report).
    A paper met in several files is one paper: more papers are duplicates, fewer false merges."""
    distinct = {
        (str(r["title"]), str(r.get("url", "")) if r["title"] == "Withdrawn" else "")
        for expected in truth().values()
        for r in expected["records"]  # type: ignore[attr-defined]
    }
    library = Library(folder / "all")
    report = library.import_files([FOLDER / name for name in truth()])
    return len(library.papers()), len(distinct), report


def print_scores(scores: list[Score]) -> None:
    print(
        f"{'file':32} {'records':>7} {'read':>5} {'unaccounted':>11} {'exact %':>8} "
        f"{'false merges':>12}"
    )
    for s in scores:
        print(f"{s.name:32} {s.records:7} {s.read:5} {s.unaccounted:11} {s.exactness:8.1f} "
              f"{s.false_merges:12}")  # fmt: skip
        for line in (s.missing and [f"missing: {m}" for m in s.missing]) + s.wrong:
            print(f"    {line}")
    records = sum(s.records for s in scores)
    exact = sum(sum(s.exact.values()) for s in scores)
    per_field = {f: sum(s.exact[f] for s in scores) for f in FIELDS}
    print(
        f"all: {records} records, {sum(s.unaccounted for s in scores)} unaccounted, "
        f"{100.0 * exact / (records * len(FIELDS)):.1f}% of fields exact "
        f"({', '.join(f'{f} {100.0 * n / records:.1f}%' for f, n in per_field.items())}), "
        f"{sum(s.false_merges for s in scores)} false merges"
    )


def real_list(folder: Path) -> None:
    from storage.export import export

    data = ROOT.parent / "shared" / "data" / "iclr2025.jsonl"
    if not data.is_file():
        print(f"skipped: {data} is absent")
        return
    library = Library(folder / "real")
    library.import_file(data)
    papers = library.papers()
    start = time.perf_counter()
    text = export(papers, library.triage(), "bibtex")
    written = time.perf_counter() - start
    path = folder / "real.bib"
    path.write_text(text, encoding="ascii")
    start = time.perf_counter()
    report = library.import_file(path)
    asked = sum(
        " ".join((p.display_title, p.display_abstract, p.url, *p.authors, *p.keywords)).count("?")
        for p in papers
    )
    print(
        f"3,703-paper list: BibTeX export {written:.2f} s ({len(text) / 1e6:.1f} MB; "
        f"{text.count('?') - asked} '?' not in the papers' own text), re-import "
        f"{time.perf_counter() - start:.2f} s: {report.summary()}"
    )


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--real", action="store_true", help="the 3,703-paper list too")
    parser.add_argument("--quick", action="store_true", help="(the fixtures are small)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as name:
        scores = import_each(Path(name))
        print_scores(scores)
        papers, distinct, report = import_all(Path(name))
        print(f"all files in one library: {papers} papers for {distinct} distinct "
              f"({report.summary()}; {report.read - report.accounted} unaccounted)")  # fmt: skip
        if args.real:
            real_list(Path(name))
    bad = any(s.unaccounted or s.false_merges or s.exactness < 99.5 or s.missing for s in scores)
    bad = bad or papers != distinct
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
