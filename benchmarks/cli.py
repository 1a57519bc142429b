"""CLI benchmark: ``papers`` commands and the app's start at 12,000 and 100,000 papers, against
targets, beside the naive approach in the same run.

Run from the repository root::

    python -m benchmarks.cli [--quick] [--workdir DIR]

For each library size, in a scratch copy of the library (``papers.cache`` made as an import
leaves it, no ``search.index``), each command is spawned as a user runs it, timed from spawn
to exit, with its peak RSS (``wait4``):

- ``papers search diffusion sampler``, ``papers list | head -20`` (the reader closes the pipe
  after 20 lines), ``papers mark ID read`` (then ``skipped``, alternately), ``papers stats``,
  ``papers export`` (Markdown of the starred papers);
- the first call after the import (the search then builds its index and saves it), then the
  median of later calls;
- the naive approach beside it: the same work done by loading every paper
  (``Library.papers()``) and building the search index for each call
  (``benchmarks/cli_naive.py``).

Then the app in a 120x36 pseudo-terminal: seconds from spawn to the first paint and to the
first search results (``/diffusion`` typed as soon as it paints), without the index on disk
(it is built, then saved) and with it; and the app's peak RSS (VmHWM).

Then ``papers import`` of the library's list (``scaled-N.jsonl``, written in the work folder
when absent) into an empty HOME: seconds from spawn to exit and peak RSS, the process's own
(``wait4``) and its second process's (``storage.importing.abstract_ids``, sampled every
20 ms), the two added against the target; beside the naive import (the whole file read at
once, cleaned in one process: ``benchmarks/cli_naive.py``).

Targets at 100,000 papers (later calls): search <= 0.5 s, list | head <= 0.5 s,
mark <= 0.3 s; the app's search ready <= 2 s after start with the index on disk and its peak
RSS <= 600 MB; import <= 10 s with peak RSS <= 600 MB. ``--quick``: 12,000 papers only, fewer
runs. The libraries are those of ``benchmarks.app`` (built in ``--workdir`` when absent, else
reused).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import _pty
from benchmarks.app import (
    PAINTED,
    build_libraries,
    log,
    papers_command,
    scratch_copy,
    write_jsonl,
)
from benchmarks.corpus import DATA_DIR, REAL_LIST, scaled_corpus

#: Targets at 100,000 papers, seconds per later call.
TARGETS_100K = {"search": 0.5, "list | head": 0.5, "mark": 0.3}
APP_SEARCH_READY_S = 2.0
APP_PEAK_MB = 600.0
IMPORT_S = 10.0
IMPORT_PEAK_MB = 600.0
QUERY = ("diffusion", "sampler")
HEAD_LINES = 20
Target = tuple[str, str, bool]


@dataclass(frozen=True, slots=True)
class Run:
    """One command's run: seconds from spawn to exit, and its peak RSS in bytes."""

    seconds: float
    peak: int


def run_command(command: Sequence[str], head: int | None = None) -> Run:
    """Spawn ``command``, read its output (only ``head`` lines, then close the pipe), wait."""
    started = time.perf_counter()
    proc = subprocess.Popen(
        list(command), stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL
    )
    assert proc.stdout is not None and proc.stderr is not None
    if head is None:
        proc.stdout.read()
    else:
        for _ in range(head):
            if not proc.stdout.readline():
                break
    proc.stdout.close()  # `| head`: the reader leaves
    errors = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - started
    proc.returncode = os.waitstatus_to_exitcode(status)
    proc.stderr.close()
    if proc.returncode:
        raise RuntimeError(f"{command} failed ({proc.returncode}): {errors.decode()[-500:]}")
    return Run(seconds, usage.ru_maxrss * 1024)


def commands(home: Path, paper_id: str, naive: bool) -> dict[str, tuple[list[str], int | None]]:
    """The commands timed: name -> (command line, lines read before the pipe closes)."""
    if naive:
        base = [sys.executable, "-m", "benchmarks.cli_naive", str(home)]
    else:
        base = papers_command(home)
    return {
        "search": ([*base, "search", *QUERY], None),
        "list | head": ([*base, "list"], HEAD_LINES),
        "mark": ([*base, "mark", paper_id, "STATUS"], None),
        "stats": ([*base, "stats"], None),
        "export": ([*base, "export"], None),
    }


def time_commands(home: Path, paper_id: str, naive: bool, runs: int) -> dict[str, list[Run]]:
    """Each command ``runs`` times in turn (the first is the first call after the import)."""
    found: dict[str, list[Run]] = {}
    for i in range(runs + 1):
        for name, (command, head) in commands(home, paper_id, naive).items():
            status = ("read", "skipped")[i % 2]
            line = [status if part == "STATUS" else part for part in command]
            found.setdefault(name, []).append(run_command(line, head))
    return found


def prepare(home: Path, workdir: Path, name: str) -> tuple[Path, str]:
    """A scratch copy of ``home`` as an import leaves it (papers.cache made, no search index),
    and the id of a paper to mark."""
    copy = scratch_copy(home, workdir, name)
    for derived in ("papers.cache", "search.index", "similar.index"):
        (copy / derived).unlink(missing_ok=True)
    # one command first, untimed: it makes papers.cache, as the import would have, and does
    # whatever a first start of this version does once (a migration of the library's files)
    run_command([*papers_command(copy), "stats"])
    prime = (
        "import sys; from storage import Library; "
        "print(Library(sys.argv[1]).loaded_papers().ids()[-1])"
    )
    out = subprocess.run(
        [sys.executable, "-c", prime, str(copy)], capture_output=True, text=True, check=True
    )
    return copy, out.stdout.strip()


# --------------------------------------------------------------------------- import


def descendants_rss(pid: int) -> int:
    """The resident memory of a process's descendants, in bytes (0 when it has none)."""
    total, pending, first = 0, [pid], True
    while pending:
        current = pending.pop()
        try:
            if not first:
                status = Path(f"/proc/{current}/status").read_text()
                total += sum(
                    int(line.split()[1]) * 1024
                    for line in status.splitlines()
                    if line.startswith("VmRSS:")
                )
            first = False
            for task in os.listdir(f"/proc/{current}/task"):
                children = Path(f"/proc/{current}/task/{task}/children").read_text()
                pending.extend(int(child) for child in children.split())
        except (OSError, ValueError):
            continue  # ended meanwhile
    return total


@dataclass(frozen=True, slots=True)
class ImportRun:
    """One import: seconds from spawn to exit, the process's peak RSS, and the peak RSS of its
    descendants (its second process; sampled every 20 ms, 0 where /proc cannot be read)."""

    seconds: float
    peak: int
    second_peak: int


def run_import(command: Sequence[str]) -> ImportRun:
    """Spawn an import, sample its second process's memory until it exits."""
    started = time.perf_counter()
    proc = subprocess.Popen(
        list(command), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL
    )
    peak = [0]
    done = threading.Event()

    def sample() -> None:
        while not done.wait(0.02):
            peak[0] = max(peak[0], descendants_rss(proc.pid))

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    assert proc.stderr is not None
    errors = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - started
    done.set()
    sampler.join()
    proc.returncode = os.waitstatus_to_exitcode(status)
    proc.stderr.close()
    if proc.returncode:
        raise RuntimeError(f"{command} failed ({proc.returncode}): {errors.decode()[-500:]}")
    return ImportRun(seconds, usage.ru_maxrss * 1024, peak[0])


def import_section(workdir: Path, n: int, runs: int, targets: list[Target]) -> None:
    """``papers import`` of ``n`` papers into an empty HOME, ours and the naive one."""
    source = workdir / f"scaled-{n}.jsonl"
    if not source.exists():
        log(f"writing the {n:,}-paper list")
        write_jsonl(scaled_corpus(n, seed=0), source)
    found: dict[str, list[ImportRun]] = {"ours": [], "naive": []}
    for i in range(runs):  # alternately: both meet the machine as it is
        for approach, runs_of in found.items():
            log(f"{approach} import of {n:,} papers ({i + 1}/{runs})")
            home = workdir / "scratch" / f"import-{approach}-{n}"
            shutil.rmtree(home, ignore_errors=True)
            if approach == "ours":
                command = [*papers_command(home), "import", str(source)]
            else:
                command = [sys.executable, "-m", "benchmarks.cli_naive", str(home), "import"]
                command.append(str(source))
            runs_of.append(run_import(command))
            shutil.rmtree(home)
    rows = []
    for approach, runs_of in found.items():
        seconds = statistics.median(r.seconds for r in runs_of)
        peak = max(r.peak for r in runs_of)
        second = max(r.second_peak for r in runs_of)
        rows.append(
            f"{approach:<8} | {seconds:>7.2f} | {min(r.seconds for r in runs_of):>7.2f} | "
            f"{mb(peak):>7.0f} | {mb(second):>10.0f} | {mb(peak + second):>7.0f}"
        )
    print_table(
        f"papers import of {n:,} papers into an empty HOME (s from spawn to exit, median and "
        f"best of {runs}; peak RSS of the process, of its second process (sampled), and the two "
        "added: at least what they ever hold at once)",
        f"{'import':<8} | {'median':>7} | {'best':>7} | {'peak MB':>7} | {'second MB':>10} | "
        f"{'both MB':>7}",
        rows,
    )
    if n == 100_000:
        ours = found["ours"]
        seconds = statistics.median(r.seconds for r in ours)
        peak = mb(max(r.peak + r.second_peak for r in ours))
        targets.append(
            (
                f"papers import at {n:,}: <= {IMPORT_S:.0f} s",
                f"{seconds:.2f} s",
                seconds <= IMPORT_S,
            )
        )
        targets.append(
            (
                f"papers import peak RSS at {n:,}: <= {IMPORT_PEAK_MB:.0f} MB",
                f"{peak:.0f} MB",
                peak <= IMPORT_PEAK_MB,
            )
        )


# --------------------------------------------------------------------------- the app


@dataclass(frozen=True, slots=True)
class AppStart:
    """The app's start: first paint, first search results, and memory then."""

    paint_s: float
    search_s: float
    rss: int
    peak: int


def app_start(home: Path) -> AppStart:
    """Spawn the app, type ``/diffusion`` as soon as it paints, wait for its results."""
    terminal = _pty.spawn(papers_command(home))
    try:
        paint = terminal.wait_for(PAINTED, timeout=300)
        terminal.type(b"/")
        terminal.quiet(0.05, 10)
        mark = len(terminal.screen)
        terminal.type(QUERY[0].encode())
        answered = ("· search".encode(), "· best".encode())
        search = terminal.wait_for(answered, timeout=300, start=mark)
        _pty.wait_idle(terminal)  # a first start saves the index after it answers
        rss, peak = terminal.memory()
        return AppStart(paint, search, rss, peak)
    finally:
        terminal.close()


# --------------------------------------------------------------------------- report


def print_table(title: str, header: str, rows: Sequence[str]) -> None:
    print(f"\n{title}\n{header}\n{'-' * len(header)}")
    for row in rows:
        print(row)


def mb(size: int) -> float:
    return size / 1e6


def run(workdir: Path, quick: bool) -> int:
    """The benchmark proper, with its libraries in ``workdir``."""
    began = time.perf_counter()
    sizes = (12_000,) if quick else (12_000, 100_000)
    runs = 3 if quick else 5
    print(f"CLI benchmark{' (quick)' if quick else ''}: {os.cpu_count()} CPUs")
    libraries = build_libraries(workdir, sizes, real=True)
    targets: list[Target] = []
    for n in sizes:
        home = libraries.sizes[n]
        size_runs = runs if n <= 12_000 else 3
        results: dict[str, dict[str, list[Run]]] = {}
        for approach in ("ours", "naive"):
            log(f"{approach} commands at {n:,} papers")
            copy, paper_id = prepare(home, workdir, f"cli-{approach}-{n}")
            results[approach] = time_commands(copy, paper_id, approach == "naive", size_runs)
            shutil.rmtree(copy)
        rows = []
        for name in results["ours"]:
            ours, plain = results["ours"][name], results["naive"][name]
            later = statistics.median(r.seconds for r in ours[1:])
            naive_later = statistics.median(r.seconds for r in plain[1:])
            peak = max(r.peak for r in ours)
            rows.append(
                f"{name:<12} | {ours[0].seconds:>8.2f} | {later:>8.2f} | "
                f"{plain[0].seconds:>8.2f} | {naive_later:>8.2f} | "
                f"{naive_later / later:>6.1f}x | {mb(peak):>7.0f} | "
                f"{mb(max(r.peak for r in plain)):>7.0f}"
            )
            limit = TARGETS_100K.get(name)
            if n == 100_000 and limit is not None:
                targets.append(
                    (f"papers {name} at {n:,}: <= {limit:.1f} s", f"{later:.2f} s", later <= limit)
                )
        print_table(
            f"papers commands at {n:,} papers (s from spawn to exit; first: the first call "
            f"after an import; later: median of {size_runs}; naive: every paper loaded, "
            "the index built each call)",
            f"{'command':<12} | {'first s':>8} | {'later s':>8} | {'naive 1st':>8} | "
            f"{'naive s':>8} | {'speedup':>7} | {'peak MB':>7} | {'naive MB':>7}",
            rows,
        )
        app_section(home, workdir, n, targets)
        import_section(workdir, n, 3 if n <= 12_000 else 2, targets)
    print_table(
        "Targets",
        f"{'target':<52} | {'measured':<10} | verdict",
        [f"{name:<52} | {value:<10} | {'PASS' if ok else 'MISS'}" for name, value, ok in targets],
    )
    print(f"\nbenchmark took {time.perf_counter() - began:.0f} s")
    return 0


def app_section(home: Path, workdir: Path, n: int, targets: list[Target]) -> None:
    """The app's start without the index on disk (it builds and saves it), then with it."""
    log(f"the app at {n:,} papers (pty)")
    copy, _ = prepare(home, workdir, f"app-{n}")
    starts = {"no index on disk": app_start(copy), "index on disk": app_start(copy)}
    shutil.rmtree(copy)
    print_table(
        f"The app at {n:,} papers in a {_pty.COLUMNS}x{_pty.ROWS} pty (s from spawn)",
        f"{'start':<18} | {'paint s':>7} | {'search s':>8} | {'RSS MB':>6} | {'VmHWM MB':>8}",
        [
            f"{name:<18} | {s.paint_s:>7.2f} | {s.search_s:>8.2f} | {mb(s.rss):>6.0f} | "
            f"{mb(s.peak):>8.0f}"
            for name, s in starts.items()
        ],
    )
    if n == 100_000:
        ready = starts["index on disk"]
        targets.append(
            (
                f"app search ready at {n:,}, index on disk: <= {APP_SEARCH_READY_S:.0f} s",
                f"{ready.search_s:.2f} s",
                ready.search_s <= APP_SEARCH_READY_S,
            )
        )
        peak = max(mb(s.peak) for s in starts.values())
        targets.append(
            (
                f"app peak RSS at {n:,}: <= {APP_PEAK_MB:.0f} MB",
                f"{peak:.0f} MB",
                peak <= APP_PEAK_MB,
            )
        )


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print its tables."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="12,000 papers only, fewer runs")
    parser.add_argument(
        "--workdir", type=Path, help="build (and reuse) the libraries here, not in a temp folder"
    )
    args = parser.parse_args(argv)
    if not (DATA_DIR / REAL_LIST).is_file():
        print(f"the real data ({DATA_DIR / REAL_LIST}) is absent: nothing to measure")
        return 0
    if args.workdir is not None:
        args.workdir.mkdir(parents=True, exist_ok=True)
        return run(args.workdir.resolve(), args.quick)
    with tempfile.TemporaryDirectory(prefix="papers-cli-bench-") as folder:
        return run(Path(folder), args.quick)


if __name__ == "__main__":
    raise SystemExit(main())
