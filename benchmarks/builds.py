"""The derived files' builds with a second process and in one process, in the same run.

Run from the repository root: ``python -m benchmarks.builds [--quick] [--rounds R]``.

A library of 100,000 papers (20,000 with ``--quick``: a build splits from 16,384; the real
list recombined, ``benchmarks.corpus.scaled_corpus``) is imported once into a temporary
HOME; then each round builds its search index (``SearchIndex.lazily`` over ``papers.cache``,
as the import's child does) and its similarity (``build_similarity``, as the background build
does) in a child process, once as shipped (a second process finds some chunks' words,
``storage.second_process``) and once with the second process turned off (the builds as they
were), alternately, so that both meet the same machine. Prints each build's seconds (wall
and CPU of the process and its children), the medians' ratio, and whether both ways made the
same file, byte for byte (they must; the exit code is 1 otherwise).

Measured on this project's 2-core machine (100,000 papers, 3 rounds, load 0.9-1.1): search
index 8.94 s against 10.90 s (1.22x), similarity 7.65 s against 9.36 s (1.22x), the same
files both ways. Not 2x: run side by side, the two processes slow each other (a chunk takes
0.30 s there and 0.22 s here, 0.17 s alone), and this one numbers every chunk and builds the
postings alone.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_BUILD = """
import hashlib, os, sys, time
from pathlib import Path
from storage import Library
import storage.search.build as search_build
import storage.similar.matrix as matrix
home, what, way, out = sys.argv[1:]
if way == "one":
    search_build.SECOND_PROCESS_PAPERS = matrix.SECOND_PROCESS_PAPERS = 10**12
loaded = Library(home).loaded_papers()
papers = loaded.sequence()
start, before = time.perf_counter(), os.times()
if what == "search":
    from storage.cache.search_index import save_index
    from storage.search import SearchIndex
    built = SearchIndex.lazily(papers)
    seconds, after = time.perf_counter() - start, os.times()
    save_index(Path(out), loaded.content, built)
else:
    from storage.cache.similar_index import build_similarity, save_similarity
    built = build_similarity(papers)
    seconds, after = time.perf_counter() - start, os.times()
    save_similarity(Path(out), loaded.content, built)
cpu = sum(after[:4]) - sum(before[:4])
print(f"{seconds:.3f} {cpu:.3f} {hashlib.sha256(Path(out).read_bytes()).hexdigest()}")
"""


def build_once(home: Path, what: str, way: str, out: Path) -> tuple[float, float, str]:
    """One build in a child process: seconds, CPU seconds (with its second process), the
    saved file's SHA-256."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    done = subprocess.run(
        [sys.executable, "-c", _BUILD, str(home), what, way, str(out)],
        capture_output=True, text=True, check=True, cwd=ROOT,
        env={**env, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    seconds, cpu, digest = done.stdout.split()
    return float(seconds), float(cpu), digest


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="20,000 papers, two rounds")
    parser.add_argument("--rounds", type=int, help="rounds (default 3, 2 with --quick)")
    args = parser.parse_args(argv)
    n = 20_000 if args.quick else 100_000
    rounds = args.rounds or (2 if args.quick else 3)
    from benchmarks.corpus import DATA_DIR, REAL_LIST, scaled_corpus
    from benchmarks.storage import paper_record, write_jsonl

    if not (DATA_DIR / REAL_LIST).is_file():
        print(f"the real data ({DATA_DIR / REAL_LIST}) is absent: nothing to measure")
        return 0
    with tempfile.TemporaryDirectory(prefix="papers-builds-") as folder:
        work = Path(folder)
        source, home = work / "list.jsonl", work / "home"
        write_jsonl([paper_record(p) for p in scaled_corpus(n)], source)
        from storage import Library

        Library(home).import_file(source)
        print(f"builds of {n:,} papers, {rounds} rounds, {os.cpu_count()} CPUs, load "
              "{:.1f}/{:.1f}/{:.1f}".format(*os.getloadavg()))  # fmt: skip
        print(f"{'build':<10} | {'way':<14} | {'median s':>8} | {'best s':>6} | {'CPU s':>6}")
        print("-" * 56)
        same = True
        for what in ("search", "similar"):
            found: dict[str, list[tuple[float, float, str]]] = {"two": [], "one": []}
            for _ in range(rounds):
                for way, runs in found.items():
                    runs.append(build_once(home, what, way, work / f"{what}-{way}"))
            for way, runs in found.items():
                name = "two processes" if way == "two" else "one (before)"
                median = statistics.median(r[0] for r in runs)
                cpu = statistics.median(r[1] for r in runs)
                best = min(r[0] for r in runs)
                print(f"{what:<10} | {name:<14} | {median:>8.2f} | {best:>6.2f} | {cpu:>6.2f}")
            ratio = statistics.median(r[0] for r in found["one"]) / statistics.median(
                r[0] for r in found["two"]
            )
            digests = {r[2] for runs in found.values() for r in runs}
            same &= len(digests) == 1
            print(f"{what:<10} | {'speedup':<14} | {ratio:>7.2f}x | same file both ways: "
                  f"{'yes' if len(digests) == 1 else 'NO'}")  # fmt: skip
        print(f"load at the end {os.getloadavg()[0]:.1f}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
