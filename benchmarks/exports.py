"""Export benchmark: every paper of a library written in each format by ``papers export
--status all --format F -o FILE``, and printed by ``papers list --status all --json``, beside
the naive approach in the same run.

Run from the repository root::

    python -m benchmarks.exports [--quick] [--workdir DIR]

Ours writes each format's text in pieces, a batch at a time (``storage.export``); the naive
export (``benchmarks/cli_naive.py export-all``, ``list-json``) makes the text whole, encodes
it and writes it, as ``papers export`` and ``list --json`` did before. Both are spawned as a
user runs them and timed from spawn to exit, with their CPU time and peak RSS (``wait4``), one
after the other per format, on the libraries of ``benchmarks.app`` (12,000 and 100,000
papers; built in ``--workdir`` when absent, else reused). Each pair of files is compared byte
for byte. The bar held to at 100,000 papers: a peak of at most 600 MB in every format, as an
import's. ``--quick``: 12,000 papers only.
"""

from __future__ import annotations

import filecmp
import os
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.app import build_libraries, log, papers_command
from benchmarks.cli import Run, load_now, main_in_workdir, mb, print_table, run_command
from storage.export import FORMATS, SUFFIXES

#: The peak held to by every export of 100,000 papers, MB.
PEAK_MB = 600.0


def export_runs(home: Path, out: Path, fmt: str) -> tuple[Run, Run]:
    """Ours and the naive export of every paper of ``home`` in ``fmt``, one after the other,
    their files compared (``RuntimeError`` when they differ)."""
    ours_file = out / f"ours{SUFFIXES[fmt]}"
    naive_file = out / f"naive{SUFFIXES[fmt]}"
    ours = run_command(
        [*papers_command(home), "export", "--status", "all", "--format", fmt, "-o", str(ours_file)]
    )
    naive_export = [sys.executable, "-m", "benchmarks.cli_naive", str(home), "export-all"]
    naive = run_command([*naive_export, fmt, str(naive_file)])
    if not filecmp.cmp(ours_file, naive_file, shallow=False):
        raise RuntimeError(f"{fmt}: our export differs from the naive one")
    ours_file.unlink()
    naive_file.unlink()
    return ours, naive


def list_json_runs(home: Path) -> tuple[Run, Run]:
    """``papers list --status all --json`` and the naive array made whole, read to the end."""
    ours = run_command([*papers_command(home), "list", "--status", "all", "--json"])
    naive = run_command([sys.executable, "-m", "benchmarks.cli_naive", str(home), "list-json"])
    return ours, naive


def section(home: Path, out: Path, n: int, targets: list[tuple[str, str, bool]]) -> None:
    load = load_now()
    rows = []
    for fmt in (*FORMATS, "list --json"):
        log(f"{fmt} of {n:,} papers")
        ours, naive = list_json_runs(home) if fmt == "list --json" else export_runs(home, out, fmt)
        rows.append(
            f"{fmt:<11} | {ours.seconds:>7.2f} | {ours.cpu:>6.2f} | {naive.seconds:>7.2f} | "
            f"{naive.seconds / ours.seconds:>6.2f}x | {mb(ours.peak):>7.0f} | "
            f"{mb(naive.peak):>8.0f} | {naive.peak / ours.peak:>5.1f}x"
        )
        if n == 100_000:
            name = f"{fmt} of {n:,} papers: peak <= {PEAK_MB:.0f} MB"
            targets.append((name, f"{mb(ours.peak):.0f} MB", mb(ours.peak) <= PEAK_MB))
    print_table(
        f"papers export --status all (and list --json) at {n:,} papers (s from spawn to exit, "
        "CPU s, peak RSS; "
        f"naive: the text made whole, then written; {load})",
        f"{'format':<11} | {'ours s':>7} | {'CPU s':>6} | {'naive s':>7} | {'speed':>7} | "
        f"{'peak MB':>7} | {'naive MB':>8} | {'less':>6}",
        rows,
    )


def run(workdir: Path, quick: bool) -> int:
    began = time.perf_counter()
    sizes = (12_000,) if quick else (12_000, 100_000)
    print(f"Export benchmark{' (quick)' if quick else ''}: {os.cpu_count()} CPUs, {load_now()}")
    libraries = build_libraries(workdir, sizes, real=True)
    targets: list[tuple[str, str, bool]] = []
    with tempfile.TemporaryDirectory(prefix="papers-exports-") as folder:
        for n in sizes:
            section(libraries.sizes[n], Path(folder), n, targets)
    if targets:
        rows = [f"{name:<52} | {shown:<9} | {('MISS', 'PASS')[ok]}" for name, shown, ok in targets]
        print_table("Targets", f"{'target':<52} | {'measured':<9} | verdict", rows)
    print(f"\nbenchmark took {time.perf_counter() - began:.0f} s ({load_now()})")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print its tables."""
    return main_in_workdir(__doc__, run, "12,000 papers only", argv)


if __name__ == "__main__":
    raise SystemExit(main())
