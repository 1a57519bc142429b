"""Phrase search benchmark: quoted phrases at 100,000 papers, as ``papers search`` runs them.

Run from the repository root::

    python -m benchmarks.phrases [--quick] [--workdir DIR | --home HOME] [--before CHECKOUT]

A phrase's words are found by the index; whether they are in a row is read from the papers'
text, which a command reads from ``papers.cache``. Figures, on the 100,000-paper library of
``benchmarks.app`` (built in ``--workdir`` when absent, or ``--home``):

- CPU ms of the search alone (``SearchIndex.rank`` and reading the hits' papers, in a fresh
  process: nothing decoded yet), median over the rounds, for each query at ``--limit 20`` (the
  default) and for every paper (``--limit 100000``); with ``--before``, the same code of another
  checkout in the same run, before and now alternated (the machine is shared: CPU time, not the
  clock);
- ``papers search QUERY``, spawned as a user runs it: seconds and CPU seconds, medians (target:
  <= 0.3 s at 100,000 papers, issue 23), before and now alternated;
- the naive phrase search beside them: every paper read, the phrase looked for in each text.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.app import build_libraries, papers_command
from benchmarks.cli import child_env, run_command
from benchmarks.corpus import DATA_DIR, REAL_LIST

REPO = Path(__file__).resolve().parents[1]
#: Phrases as typed: common ones, one beside a word, and ones whose best papers mostly have
#: the words apart (each of those read before a page is full).
QUERIES = (
    '"flow matching"',
    '"large language models" safety',
    '"state space"',
    '"reinforcement learning from human feedback"',
    '"learning to"',
    '"diffusion models" "image generation"',
    'transformer "attention is"',
    "state-space",
)
TARGET_S = 0.3

#: What a child process runs (with the code of the checkout on its path): each query's CPU ms
#: in a fresh index, as ``papers search`` does it (only APIs both checkouts have).
_MEASURE = """
import json, sys, time
from pathlib import Path
from storage.library import Library
from storage.cache.search_index import index_for
home, limit, queries = Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
found = {}
for query in queries:
    library = Library(home)
    library.short_lived = True
    loaded = library.loaded_papers()
    index = index_for(library.home, loaded.sequence(), loaded.content)
    start = time.process_time()
    ranking = index.rank(query, limit=limit)
    index.papers_of(ranking.ids)
    found[query] = [1000 * (time.process_time() - start), len(ranking.ids)]
print(json.dumps(found))
"""


def measure(code: Path, home: Path, limit: int, queries: Sequence[str]) -> dict[str, list[float]]:
    """Each query's CPU ms and hits, searched by the code of checkout ``code``."""
    env = {**child_env(), "PYTHONPATH": str(code)}
    out = subprocess.run(
        [sys.executable, "-c", _MEASURE, str(home), str(limit), *queries],
        env=env,
        cwd=code,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout)


def naive(home: Path, queries: Sequence[str]) -> dict[str, float]:
    """CPU ms of the naive phrase search: every paper read, each phrase looked for in its title,
    abstract and keywords (lower case, words apart by anything but letters and digits)."""
    import re

    from storage.library import Library

    found = {}
    for query in queries:
        phrases = re.findall(r'"([^"]*)"', query) or [query.replace("-", " ")]
        start = time.process_time()
        papers = Library(home).loaded_papers().all()
        patterns = [re.compile(r"\b" + r"\W+".join(p.lower().split()) + r"\b") for p in phrases]
        hits = 0
        for paper in papers:
            text = " ".join((paper.title, paper.abstract, *paper.keywords)).lower()
            hits += all(pattern.search(text) for pattern in patterns)
        found[query] = 1000 * (time.process_time() - start)
    return found


def command(code: Path, home: Path, query: str) -> tuple[float, float]:
    """``papers search QUERY`` spawned with the code of ``code``: seconds, CPU seconds."""
    os.environ["PYTHONPATH"] = str(code)  # the spawned command's (``run_command`` passes it)
    run = run_command([*papers_command(home), "search", query])
    return run.seconds, run.cpu


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer rounds")
    parser.add_argument("--workdir", type=Path, help="build (and reuse) the library here")
    parser.add_argument("--home", type=Path, help="a library of 100,000 papers to search")
    parser.add_argument("--before", type=Path, help="a checkout of the code to compare with")
    args = parser.parse_args(argv)
    if not (DATA_DIR / REAL_LIST).is_file() and args.home is None:
        print("benchmarks.phrases: the real data is absent; skipped")
        return 0
    rounds = 3 if args.quick else 7
    with tempfile.TemporaryDirectory(prefix="papers-phrases-") as folder:
        home = args.home
        if home is None:
            workdir = args.workdir or Path(folder)
            home = build_libraries(workdir, (100_000,), True).sizes[100_000]
        codes = {"now": REPO} | ({"before": args.before.resolve()} if args.before else {})
        print(f"phrase benchmark: {home} ({rounds} rounds, alternated: {', '.join(codes)})")
        for limit in (20, 100_000):
            times: dict[str, dict[str, list[float]]] = {name: {} for name in codes}
            hits: dict[str, dict[str, int]] = {name: {} for name in codes}
            for _ in range(rounds):
                for name, code in codes.items():
                    for query, (ms, count) in measure(code, home, limit, QUERIES).items():
                        times[name].setdefault(query, []).append(ms)
                        hits[name][query] = int(count)
            header = f"{'query':<46} | {'hits':>6} | {'now ms':>8}"
            header += f" | {'before ms':>9} | {'ratio':>6}" if args.before else ""
            print(f"\n## search alone, limit {limit:,} (CPU ms, median of {rounds})\n{header}")
            for query in QUERIES:
                now = statistics.median(times["now"][query])
                row = f"{query:<46} | {hits['now'][query]:>6,} | {now:>8.1f}"
                if args.before:
                    before = statistics.median(times["before"][query])
                    same = "" if hits["before"][query] == hits["now"][query] else " (hits differ)"
                    row += f" | {before:>9.1f} | {before / now:>5.1f}x{same}"
                print(row)
        spent = naive(home, QUERIES)
        print("\n## the naive phrase search (every paper read, the phrase looked for in each)")
        for query in QUERIES:
            print(f"{query:<46} | {spent[query]:>8.0f} ms")
        print(f"\n## papers search QUERY, spawned (median of {rounds}; target <= {TARGET_S} s)")
        print(f"{'query':<46} | {'code':<6} | {'s':>6} | {'CPU s':>6} | target")
        for query in QUERIES[:3] + QUERIES[-2:]:
            runs: dict[str, list[tuple[float, float]]] = {name: [] for name in codes}
            for _ in range(rounds):
                for name, code in codes.items():
                    runs[name].append(command(code, home, query))
            for name in codes:
                wall = statistics.median(r[0] for r in runs[name])
                cpu = statistics.median(r[1] for r in runs[name])
                met = "met" if wall <= TARGET_S else "MISSED"
                print(f"{query:<46} | {name:<6} | {wall:>6.2f} | {cpu:>6.2f} | {met}")
        print(f"load {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
