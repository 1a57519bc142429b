"""CLI benchmark: ``papers`` commands, the import and the app's start at 12,000 and 100,000
papers, against targets, beside the naive approach in the same run.

Run from the repository root::

    python -m benchmarks.cli [--quick] [--workdir DIR]

Every command is spawned as a user runs it (bytecode cached, as on a user's machine), timed
from spawn to exit, with its CPU time (user + system, its children's included) and peak RSS
(``wait4``); where a command starts processes of its own, the RSS of the whole tree is sampled
every 20 ms (``at once``: what they hold together). The machine is shared: each table says the
load average it met, and the targets are judged on the medians.

- Commands, on a copy of the library as an import leaves it (``papers.cache``,
  ``search.index``, ``similar.index``): ``papers search diffusion sampler``, ``papers search
  '"flow matching"'`` (a phrase: its words in a row read from the text), ``papers list |
  head -20`` (the reader closes the pipe after 20 lines), ``papers mark ID read`` (then
  ``skipped``, alternately), ``papers similar ID``, ``papers stats``, ``papers export``;
  beside the naive approach: every paper loaded (``Library.papers()``), the indexes built each
  call (``benchmarks/cli_naive.py``).
- ``papers import`` of the library's list into an empty HOME, then at once the first ``papers
  search``, ``papers list | head`` and ``papers similar`` after it; beside the naive import
  (the whole file read at once, cleaned in one process, nothing derived) and its first search.
- The import of 1,000 new papers into the library, with what it derives, and the first start
  on a copied HOME (``benchmarks/cli_derived.py``).
- The app in a 120x36 pseudo-terminal on a copy of the library: seconds from spawn to the
  first paint and to the first search results (``/diffusion`` typed as soon as it paints),
  then from ``m`` to the similar papers on screen, and the app's peak RSS; beside it the
  in-memory similarity build the app made at ``m`` before it read ``similar.index``.

Targets at 100,000 papers (medians): search (a phrase too) <= 0.3 s, the first search after an
import <= 0.5 s, list | head <= 0.3 s, mark <= 0.25 s, similar <= 0.5 s; import <= 10 s with
peak RSS <= 600 MB; 1,000 papers into the library <= 3 s, <= 600 MB; a copied HOME's first start
rebuilds nothing, <= 600 MB; the app's search ready <= 2 s after start, similar papers <= 0.5 s
after ``m``, peak RSS <= 600 MB. ``--quick``: 12,000 papers only, fewer runs. The libraries are
those of ``benchmarks.app`` (built in ``--workdir`` when absent, else reused).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import _pty
from benchmarks.app import PAINTED, build_libraries, log, papers_command, write_jsonl
from benchmarks.corpus import DATA_DIR, REAL_LIST, scaled_corpus

#: Targets at 100,000 papers, seconds per call (median).
TARGETS_100K = {
    "search": 0.3,
    "search phrase": 0.3,
    "list | head": 0.3,
    "mark": 0.25,
    "similar": 0.5,
}
FIRST_SEARCH_S = 0.5
APP_SEARCH_READY_S = 2.0
APP_SIMILAR_S = 0.5
APP_PEAK_MB = 600.0
IMPORT_S = 10.0
IMPORT_PEAK_MB = 600.0
QUERY = ("diffusion", "sampler")
#: A quoted phrase: its words in a row are read from the papers' text (``benchmarks.phrases``).
PHRASE_QUERY = ('"flow matching"',)
HEAD_LINES = 20
Target = tuple[str, str, bool]
#: Derived files of a library: what a first start on a copy must not make again.
DERIVED = ("papers.cache", "search.index", "search.update", "similar.index")


@dataclass(frozen=True, slots=True)
class Run:
    """One command's run: seconds from spawn to exit, CPU seconds, peak RSS in bytes, and the
    peak RSS of it and its descendants at once (sampled; 0 when not sampled)."""

    seconds: float
    cpu: float
    peak: int
    at_once: int = 0


def child_env() -> dict[str, str]:
    """The environment a command runs in: bytecode cached, as on a user's machine (see
    ``_pty.terminal_env``)."""
    return {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def tree_rss(pid: int, *, own: bool = True) -> int:
    """The resident memory of a process and its descendants, in bytes (without ``own``, of
    its descendants alone)."""
    total, pending, root = 0, [pid], True
    while pending:
        current = pending.pop()
        try:
            if own or not root:
                status = Path(f"/proc/{current}/status").read_text()
                total += sum(
                    int(line.split()[1]) * 1024
                    for line in status.splitlines()
                    if line.startswith("VmRSS:")
                )
            root = False
            for task in os.listdir(f"/proc/{current}/task"):
                children = Path(f"/proc/{current}/task/{task}/children").read_text()
                pending.extend(int(child) for child in children.split())
        except (OSError, ValueError):
            continue  # ended meanwhile
    return total


def run_command(command: Sequence[str], head: int | None = None, sample: bool = False) -> Run:
    """Run ``command`` through ``benchmarks._run`` (a small process: a child's peak RSS starts
    at its parent's), reading its output (only ``head`` lines, then closing the pipe); with
    ``sample``, the RSS of its process tree every 20 ms."""
    runner = subprocess.Popen(
        [sys.executable, "-m", "benchmarks._run", str(head or 0), *command],
        stdout=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        env=child_env(),
        cwd=Path(__file__).resolve().parents[1],
    )
    at_once = [0]
    done = threading.Event()

    def watch() -> None:
        while not done.wait(0.02):
            at_once[0] = max(at_once[0], tree_rss(runner.pid, own=False))

    sampler = threading.Thread(target=watch, daemon=True)
    if sample:
        sampler.start()
    out, _ = runner.communicate()
    done.set()
    if sample:
        sampler.join()
    report = json.loads(out.decode().strip().splitlines()[-1])
    if runner.returncode or report["code"]:
        raise RuntimeError(f"{command} failed ({report['code']}): {report['errors']}")
    return Run(report["seconds"], report["cpu"], report["peak"], at_once[0])


def wait_background(home: Path, timeout: float = 600.0) -> float:
    """Wait until no background build of ``similar.index`` runs in ``home``; seconds waited."""
    import fcntl

    started = time.perf_counter()
    lock = home / ".similar.lock"
    if not lock.exists():
        return 0.0
    fd = os.open(lock, os.O_RDWR)
    try:
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return time.perf_counter() - started
            except BlockingIOError:
                if time.perf_counter() - started > timeout:
                    raise RuntimeError("a background build did not end") from None
                time.sleep(0.05)
    finally:
        os.close(fd)


def commands(home: Path, paper_id: str, naive: bool) -> dict[str, tuple[list[str], int | None]]:
    """The commands timed: name -> (command line, lines read before the pipe closes)."""
    if naive:
        base = [sys.executable, "-m", "benchmarks.cli_naive", str(home)]
    else:
        base = papers_command(home)
    return {
        "search": ([*base, "search", *QUERY], None),
        "search phrase": ([*base, "search", *PHRASE_QUERY], None),
        "list | head": ([*base, "list"], HEAD_LINES),
        "mark": ([*base, "mark", paper_id, "STATUS"], None),
        "similar": ([*base, "similar", paper_id], None),
        "stats": ([*base, "stats"], None),
        "export": ([*base, "export"], None),
    }


def time_commands(
    home: Path, paper_id: str, naive: bool, runs: int, skip: Sequence[str] = ()
) -> dict[str, list[Run]]:
    """Each command ``runs`` times in turn (``skip``: those not timed)."""
    found: dict[str, list[Run]] = {}
    for i in range(runs):
        for name, (command, head) in commands(home, paper_id, naive).items():
            if name in skip:
                continue
            status = ("read", "skipped")[i % 2]
            line = [status if part == "STATUS" else part for part in command]
            found.setdefault(name, []).append(run_command(line, head))
    return found


def copy_library(home: Path, workdir: Path, name: str, *, derived: bool = True) -> Path:
    """A scratch copy of a library (a copy: new inodes and times); without ``derived``, as a
    library without its derived files."""
    target = workdir / "scratch" / name
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(home, target, copy_function=shutil.copy)
    for leftover in target.glob(".*.lock"):
        leftover.unlink()
    if not derived:
        for file in (*DERIVED, "papers.key"):
            (target / file).unlink(missing_ok=True)
    return target


def prime(home: Path) -> str:
    """Run one command untimed (a copy's papers.json is hashed once and recorded; a library
    without derived files gets its papers.cache, as an import leaves it); a paper id to mark."""
    run_command([*papers_command(home), "stats"])
    out = subprocess.run(
        [*papers_command(home), "list"], capture_output=True, text=True, check=True, env=child_env()
    )
    return out.stdout.splitlines()[-1].split()[0]


def first_paper(base: Sequence[str]) -> str:
    """The id of the first paper ``papers list`` prints (``base``: the papers command)."""
    listed = subprocess.run([*base, "list"], capture_output=True, text=True, env=child_env())
    return listed.stdout.split(maxsplit=1)[0]


def list_file(workdir: Path, n: int) -> Path:
    """The library's list as a JSON Lines file (written once)."""
    source = workdir / f"scaled-{n}.jsonl"
    if not source.exists():
        log(f"writing the {n:,}-paper list")
        write_jsonl(scaled_corpus(n, seed=0), source)
    return source


def load_now() -> str:
    return "load {:.1f}/{:.1f}/{:.1f}".format(*os.getloadavg())


def mb(size: float) -> float:
    return size / 1e6


def median(runs: Sequence[Run], field: str = "seconds") -> float:
    return statistics.median(getattr(r, field) for r in runs)


def print_table(title: str, header: str, rows: Sequence[str]) -> None:
    print(f"\n{title}\n{header}\n{'-' * len(header)}")
    for row in rows:
        print(row)


def target(targets: list[Target], name: str, value: float, limit: float, unit: str) -> None:
    shown = f"{value:.2f} s" if unit == "s" else f"{value:.0f} MB"
    targets.append((name, shown, value <= limit))


# --------------------------------------------------------------------------- commands


def commands_section(home: Path, workdir: Path, n: int, runs: int, targets: list[Target]) -> None:
    results: dict[str, dict[str, list[Run]]] = {}
    loads = []
    for approach in ("ours", "naive"):
        log(f"{approach} commands at {n:,} papers")
        copy = copy_library(home, workdir, f"cli-{approach}-{n}", derived=approach == "ours")
        paper_id = prime(copy)
        loads.append(load_now())
        results[approach] = time_commands(copy, paper_id, approach == "naive", runs)
        shutil.rmtree(copy)
    rows = []
    for name in results["ours"]:
        ours, plain = results["ours"][name], results["naive"][name]
        later, naive_later = median(ours), median(plain)
        rows.append(
            f"{name:<13} | {later:>7.2f} | {min(r.seconds for r in ours):>6.2f} | "
            f"{median(ours, 'cpu'):>7.2f} | {naive_later:>7.2f} | {median(plain, 'cpu'):>9.2f} | "
            f"{naive_later / later:>6.1f}x | {mb(max(r.peak for r in ours)):>7.0f} | "
            f"{mb(max(r.peak for r in plain)):>8.0f}"
        )
        limit = TARGETS_100K.get(name)
        if n == 100_000 and limit is not None:
            target(targets, f"papers {name} at {n:,}: <= {limit} s", later, limit, "s")
    print_table(
        f"papers commands at {n:,} papers (s from spawn to exit, median and best of {runs}; CPU "
        "s, median; naive: every paper loaded, the indexes built each call; "
        f"{' / '.join(loads)})",
        f"{'command':<13} | {'median':>7} | {'best':>6} | {'CPU s':>7} | {'naive':>7} | "
        f"{'naive CPU':>9} | {'speedup':>7} | {'peak MB':>7} | {'naive MB':>8}",
        rows,
    )


# --------------------------------------------------------------------------- import


def import_section(workdir: Path, n: int, runs: int, targets: list[Target]) -> None:
    """``papers import`` of ``n`` papers into an empty HOME, ours and the naive one, and the
    first commands after it."""
    source = list_file(workdir, n)
    found: dict[str, list[Run]] = {"ours": [], "naive": []}
    after: dict[str, list[Run]] = {}
    loads = []
    for i in range(runs):  # alternately: both meet the machine as it is
        for approach, runs_of in found.items():
            log(f"{approach} import of {n:,} papers ({i + 1}/{runs})")
            home = workdir / "scratch" / f"import-{approach}-{n}"
            shutil.rmtree(home, ignore_errors=True)
            loads.append(load_now())
            if approach == "ours":
                base = papers_command(home)
                runs_of.append(run_command([*base, "import", str(source)], sample=True))
                paper = first_paper(base)
                first = {
                    "search": run_command([*base, "search", *QUERY]),
                    "list | head": run_command([*base, "list"], head=HEAD_LINES),
                    "similar": run_command([*base, "similar", paper]),
                }
                wait_background(home)
            else:
                naive = [sys.executable, "-m", "benchmarks.cli_naive", str(home)]
                runs_of.append(run_command([*naive, "import", str(source)], sample=True))
                first = {"naive search": run_command([*naive, "search", *QUERY])}
            for name, run in first.items():
                after.setdefault(name, []).append(run)
            shutil.rmtree(home)
    rows = [
        f"{approach:<8} | {median(runs_of):>7.2f} | {min(r.seconds for r in runs_of):>6.2f} | "
        f"{median(runs_of, 'cpu'):>6.2f} | {mb(max(r.peak for r in runs_of)):>7.0f} | "
        f"{mb(max(r.at_once for r in runs_of)):>10.0f}"
        for approach, runs_of in found.items()
    ]
    print_table(
        f"papers import of {n:,} papers into an empty HOME (s from spawn to exit, median and "
        f"best of {runs}; CPU s of the import and its children; peak RSS of the process, and of "
        f"its whole process tree at once, sampled; {', '.join(loads)}). Ours makes papers.cache, "
        "search.index and similar.index before it returns; the naive import makes "
        "papers.cache only",
        f"{'import':<8} | {'median':>7} | {'best':>6} | {'CPU s':>6} | {'peak MB':>7} | "
        f"{'at once MB':>10}",
        rows,
    )
    print_table(
        f"The first commands right after the import at {n:,} (s from spawn to exit, median of "
        f"{runs}; similar reads the similar.index the import made)",
        f"{'command':<13} | {'median':>7} | {'CPU s':>6} | {'peak MB':>7}",
        [
            f"{name:<13} | {median(runs):>7.2f} | {median(runs, 'cpu'):>6.2f} | "
            f"{mb(max(r.peak for r in runs)):>7.0f}"
            for name, runs in after.items()
        ],
    )
    if n == 100_000:
        ours = found["ours"]
        target(targets, f"papers import at {n:,}: <= {IMPORT_S:.0f} s", median(ours), IMPORT_S, "s")
        peak = mb(max(r.at_once for r in ours))
        target(targets, f"papers import peak at once at {n:,}: <= 600 MB", peak, 600, "MB")
        first = median(after["search"])
        name = f"first papers search after the import at {n:,}: <= {FIRST_SEARCH_S} s"
        target(targets, name, first, FIRST_SEARCH_S, "s")
        first = median(after["similar"])
        limit = TARGETS_100K["similar"]
        name = f"first papers similar after the import at {n:,}: <= {limit} s"
        target(targets, name, first, limit, "s")


# --------------------------------------------------------------------------- the app


@dataclass(frozen=True, slots=True)
class AppStart:
    """The app's start: first paint, first search results, similar papers after ``m``, and
    memory then."""

    paint_s: float
    search_s: float
    similar_s: float
    rss: int
    peak: int


def app_start(home: Path) -> AppStart:
    """Spawn the app, type ``/diffusion`` as soon as it paints, wait for its results; then
    ``m`` on the list's first paper, until the similar papers are on screen."""
    terminal = _pty.spawn(papers_command(home))
    try:
        paint = terminal.wait_for(PAINTED, timeout=300)
        terminal.type(b"/")
        terminal.quiet(0.05, 10)
        mark = len(terminal.screen)
        terminal.type(QUERY[0].encode())
        answered = ("· search".encode(), "· best".encode())
        search = terminal.wait_for(answered, timeout=300, start=mark)
        terminal.type(b"\x1b")  # leave the search box: the list has the keys again
        _pty.wait_idle(terminal)
        mark = len(terminal.screen)
        pressed = terminal.type(b"m")
        shown = terminal.wait_for(b"Most like", timeout=300, start=mark)
        similar = shown - (pressed - terminal.started)
        terminal.type(b"\x1b")
        _pty.wait_idle(terminal)
        rss, peak = terminal.memory()
        return AppStart(paint, search, similar, rss, peak)
    finally:
        terminal.close()


_NAIVE_SIMILAR = """
import resource, sys, time
from storage import Library
from storage.similar import SimilarityIndex
papers = Library(sys.argv[1]).papers()
start = time.perf_counter()
SimilarityIndex(papers).similar(papers[0].id, limit=20)
print(time.perf_counter() - start, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def app_section(home: Path, workdir: Path, n: int, targets: list[Target]) -> None:
    """The app's start on a copy of the library as an import leaves it, twice."""
    log(f"the app at {n:,} papers (pty)")
    copy = copy_library(home, workdir, f"app-{n}")
    prime(copy)
    load = load_now()
    starts = [app_start(copy), app_start(copy)]
    out = subprocess.run(
        [sys.executable, "-c", _NAIVE_SIMILAR, str(copy)],
        capture_output=True,
        text=True,
        check=True,
        env=child_env(),
    ).stdout.split()
    naive_s, naive_peak = float(out[0]), int(out[1]) * 1024
    shutil.rmtree(copy)
    print_table(
        f"The app at {n:,} papers in a {_pty.COLUMNS}x{_pty.ROWS} pty (s from spawn; similar: s "
        f"from the key m to the similar papers on screen; {load}). Naive similar: the "
        f"similarity index built in memory at m, as the app did before: {naive_s:.2f} s, "
        f"peak {mb(naive_peak):.0f} MB",
        f"{'start':<6} | {'paint s':>7} | {'search s':>8} | {'similar s':>9} | {'RSS MB':>6} | "
        f"{'VmHWM MB':>8}",
        [
            f"{i + 1:<6} | {s.paint_s:>7.2f} | {s.search_s:>8.2f} | {s.similar_s:>9.2f} | "
            f"{mb(s.rss):>6.0f} | {mb(s.peak):>8.0f}"
            for i, s in enumerate(starts)
        ],
    )
    if n == 100_000:
        search = statistics.median(s.search_s for s in starts)
        name = f"app search ready at {n:,}: <= {APP_SEARCH_READY_S:.0f} s"
        target(targets, name, search, APP_SEARCH_READY_S, "s")
        similar = statistics.median(s.similar_s for s in starts)
        name = f"app similar papers after m at {n:,}: <= {APP_SIMILAR_S} s"
        target(targets, name, similar, APP_SIMILAR_S, "s")
        peak = max(mb(s.peak) for s in starts)
        target(targets, f"app peak RSS at {n:,}: <= {APP_PEAK_MB:.0f} MB", peak, APP_PEAK_MB, "MB")


# --------------------------------------------------------------------------- report


def run(workdir: Path, quick: bool) -> int:
    """The benchmark proper, with its libraries in ``workdir``."""
    from benchmarks.cli_derived import added_section, copied_section

    began = time.perf_counter()
    sizes = (12_000,) if quick else (12_000, 100_000)
    print(f"CLI benchmark{' (quick)' if quick else ''}: {os.cpu_count()} CPUs, {load_now()}")
    libraries = build_libraries(workdir, sizes, real=True)
    targets: list[Target] = []
    for n in sizes:
        home = libraries.sizes[n]
        wait_background(home)  # the import's build of similar.index, when it runs apart
        commands_section(home, workdir, n, 5 if quick or n <= 12_000 else 3, targets)
        app_section(home, workdir, n, targets)
        import_section(workdir, n, 2, targets)
        added_section(home, workdir, n, 2 if quick else 3, targets)
        copied_section(home, workdir, n, targets)
    print_table(
        "Targets (judged on medians; see each table for the load average it met)",
        f"{'target':<62} | {'measured':<10} | verdict",
        [f"{name:<62} | {value:<10} | {'PASS' if ok else 'MISS'}" for name, value, ok in targets],
    )
    print(f"\nbenchmark took {time.perf_counter() - began:.0f} s ({load_now()})")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print its tables."""
    return main_in_workdir(__doc__, run, "12,000 papers only, fewer runs", argv)


def main_in_workdir(
    doc: str | None,
    run: Callable[[Path, bool], int],
    quick: str,
    argv: Sequence[str] | None = None,
) -> int:
    """A benchmark's ``main`` over the libraries of ``benchmarks.app``: ``run(workdir,
    quick)`` with ``--quick`` (said by ``quick``) and ``--workdir`` (a temporary folder when
    not given); nothing without the real data."""
    parser = argparse.ArgumentParser(description=(doc or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help=quick)
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
    with tempfile.TemporaryDirectory(prefix="papers-bench-") as folder:
        return run(Path(folder), args.quick)


if __name__ == "__main__":
    raise SystemExit(main())
