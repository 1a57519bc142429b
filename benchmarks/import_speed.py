"""The streamed import of 100,000 papers, now and before: is every-record accounting free?

Run from the repository root: ``python -m benchmarks.import_speed [--before DIR] [--papers N]
[--rounds R]``.

The 100,000-paper list of ``benchmarks.storage`` (the real list recombined,
``benchmarks.corpus.scaled_corpus``) is written once as JSON Lines; each round imports it into
a fresh HOME in a child process with this checkout's code, and, with ``--before DIR`` (another
checkout, e.g. ``git worktree add /tmp/old <commit>``), with that one's too, alternately, so
that both meet the same machine. Prints each import's seconds (wall and CPU: on a shared
machine CPU time is the steadier) and peak memory, and the medians' ratio. CPU time is given
twice: the import's process's alone, and that of all its processes, which the import waits for
(the second process that works out abstracts' ids, the child that builds the indexes and its
own second process): most of the work is theirs. The import runs with the garbage collector
paused, as ``papers import`` and the app's import run it (``tui.memory.collector_paused``):
without that, passes over objects none of which are garbage add 1.8 s of CPU at 100,000.

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
_IMPORT = (
    "import resource, sys, time\n"
    "from storage import Library\n"
    "from tui.memory import collector_paused\n"
    "start = time.perf_counter()\n"
    "with collector_paused():  # as papers import and the app's import run it\n"
    "    report = Library(sys.argv[2]).import_file(sys.argv[1])\n"
    "seconds = time.perf_counter() - start\n"
    "usage = resource.getrusage(resource.RUSAGE_SELF)\n"
    "children = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
    "peak = usage.ru_maxrss / 1024\n"
    "cpu = usage.ru_utime + usage.ru_stime\n"
    "in_all = cpu + children.ru_utime + children.ru_stime\n"
    "print(f'{seconds:.3f} {peak:.0f} {report.added} {cpu:.3f} {in_all:.3f}')\n"
)


def write_list(path: Path, papers: int) -> None:
    from benchmarks.corpus import scaled_corpus
    from benchmarks.storage import paper_record, write_jsonl

    write_jsonl([paper_record(p) for p in scaled_corpus(papers)], path)


def import_once(code: Path, source: Path, home: Path) -> tuple[float, float, int, float, float]:
    done = subprocess.run(
        [sys.executable, "-c", _IMPORT, str(source), str(home)],
        capture_output=True, text=True, check=True, cwd=code,
        env={**os.environ, "PYTHONPATH": str(code)},
    )  # fmt: skip
    seconds, peak, added, cpu, in_all = done.stdout.split()
    return float(seconds), float(peak), int(added), float(cpu), float(in_all)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, help="another checkout to compare with")
    parser.add_argument("--papers", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="20,000 papers, 2 rounds")
    args = parser.parse_args(argv)
    if args.quick:
        args.papers, args.rounds = 20_000, 2
    codes = [("now", ROOT)] + ([("before", args.before.resolve())] if args.before else [])
    times: dict[str, list[float]] = {name: [] for name, _ in codes}
    cpus: dict[str, list[float]] = {name: [] for name, _ in codes}
    all_cpus: dict[str, list[float]] = {name: [] for name, _ in codes}
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        source = folder / "list.jsonl"
        try:
            write_list(source, args.papers)
        except FileNotFoundError as exc:
            print(f"benchmarks.import_speed: the real data ({exc}) is absent; skipped")
            return 0
        print(f"{args.papers:,} papers, {source.stat().st_size / 1e6:.0f} MB of JSON Lines")
        for round_ in range(args.rounds):
            for which, code in codes if round_ % 2 == 0 else reversed(codes):
                home = folder / f"home-{which}-{round_}"
                seconds, peak, added, cpu, in_all = import_once(code, source, home)
                times[which].append(seconds)
                cpus[which].append(cpu)
                all_cpus[which].append(in_all)
                print(f"  {which:6} round {round_ + 1}: {seconds:6.2f} s ({cpu:6.2f} s of CPU, "
                      f"{in_all:6.2f} s in all processes), peak {peak:5.0f} MB, "
                      f"{added:,} added")  # fmt: skip
    for label, figures in (("wall", times), ("CPU", cpus), ("CPU in all processes", all_cpus)):
        medians = {which: statistics.median(values) for which, values in figures.items()}
        line = ", ".join(f"{which} {m:.2f} s" for which, m in medians.items())
        if "before" in medians:
            line += f" (now / before: {medians['now'] / medians['before']:.2f})"
        print(f"median {label}: {line}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
