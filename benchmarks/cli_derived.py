"""The CLI benchmark's parts about derived files: new papers into a large library, and a copied
HOME's first start (``python -m benchmarks.cli`` runs them; see its module for the rules).

- 1,000 new papers (``scaled_corpus`` with another seed) imported into a copy of the library:
  ours updates what it derives (the search index gets a segment; from 20,000 papers
  similar.index is made again apart, the added papers' rows folded into the one made before
  meanwhile: ``similar.added``), beside the naive way: the import, then every derived file
  made again from nothing (``benchmarks.cli_naive derive``); then the first search after
  each, and ours' first ``papers similar`` of a paper it had and of a paper it added.
- The first start on a copied HOME (``cp -r``: new inodes and times): the first ``papers
  search``, ``papers list | head`` and ``papers similar``, which derived files were made again
  (none, for ours), beside the naive way: a HOME whose derived files are not believed (as when
  they were named by inode), made again by that first search.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from benchmarks.app import log, papers_command, write_jsonl
from benchmarks.cli import (
    DERIVED,
    QUERY,
    Run,
    Target,
    child_env,
    copy_library,
    first_paper,
    load_now,
    mb,
    median,
    prime,
    print_table,
    run_command,
    target,
    wait_background,
)
from benchmarks.corpus import load_real_papers, scaled_corpus

NEW_PAPERS = 1_000
ADD_S = 3.0
ADD_PEAK_MB = 600.0
#: ``papers similar`` right after the import, of a paper it had or added (the issue's figure).
ADDED_SIMILAR_S = 0.5
COPY_PEAK_MB = 600.0


def new_papers(workdir: Path) -> Path:
    """``NEW_PAPERS`` papers none of the libraries holds, as a JSON Lines list (written once)."""
    source = workdir / f"new-{NEW_PAPERS}.jsonl"
    if not source.exists():
        real = len(load_real_papers() or ())  # synthetic papers come after the real ones
        write_jsonl(scaled_corpus(real + NEW_PAPERS, seed=7)[real:], source)
    return source


def added_section(home: Path, workdir: Path, n: int, runs: int, targets: list[Target]) -> None:
    """``NEW_PAPERS`` new papers into a copy of the ``n``-paper library, ours and naive."""
    source = new_papers(workdir)
    found: dict[str, list[Run]] = {}
    loads = []
    for i in range(runs):
        for approach in ("ours", "naive"):
            log(f"{approach}: {NEW_PAPERS:,} new papers into {n:,} ({i + 1}/{runs})")
            copy = copy_library(home, workdir, f"add-{approach}-{n}")
            prime(copy)  # the copy's papers.json hashed once, as its first start would
            loads.append(load_now())
            if approach == "ours":
                base = papers_command(copy)
                found.setdefault("ours: import", []).append(
                    run_command([*base, "import", str(source)], sample=True)
                )
                found.setdefault("ours: first search", []).append(
                    run_command([*base, "search", *QUERY])
                )
                # at 20,000 papers and more similar.index is made again apart: meanwhile the
                # added papers' rows, folded into the one made before, answer
                found.setdefault("ours: first similar", []).append(
                    run_command([*base, "similar", first_paper(base)])
                )
                found.setdefault("ours: similar, added", []).append(
                    run_command([*base, "similar", last_paper(base)])
                )
                wait_background(copy)
            else:
                naive = [sys.executable, "-m", "benchmarks.cli_naive", str(copy)]
                found.setdefault("naive: import", []).append(
                    run_command([*naive, "import", str(source)], sample=True)
                )
                found.setdefault("naive: derive all", []).append(
                    run_command([*naive, "derive"], sample=True)
                )
            shutil.rmtree(copy)
    rows = [
        f"{name:<20} | {median(runs_of):>7.2f} | {median(runs_of, 'cpu'):>6.2f} | "
        f"{mb(max(r.peak for r in runs_of)):>7.0f} | {mb(max(r.at_once for r in runs_of)):>10.0f}"
        for name, runs_of in found.items()
    ]
    naive_total = median(found["naive: import"]) + median(found["naive: derive all"])
    similar_made = (
        "apart, not waited for: the added papers' rows folded into the one made before answer "
        "meanwhile"
        if n >= 20_000
        else "in the import"
    )
    print_table(
        f"{NEW_PAPERS:,} new papers imported into a library of {n:,} (s from spawn to exit, "
        f"median of {runs}; CPU s; peak RSS, and of the process tree at once; {', '.join(loads)})."
        " Ours: the index updated, papers.cache written, similar.index made again "
        f"({similar_made}); naive: the import, "
        f"then the cache and both indexes made from nothing: {naive_total:.2f} s in all",
        f"{'step':<20} | {'median':>7} | {'CPU s':>6} | {'peak MB':>7} | {'at once MB':>10}",
        rows,
    )
    if n == 100_000:
        ours = found["ours: import"]
        name = f"{NEW_PAPERS:,} papers into {n:,}, what it derives included: <= {ADD_S:.0f} s"
        target(targets, name, median(ours), ADD_S, "s")
        peak = mb(max(r.at_once for r in ours))
        target(
            targets, f"{NEW_PAPERS:,} papers into {n:,}: peak <= 600 MB", peak, ADD_PEAK_MB, "MB"
        )
        first = max(median(found[name]) for name in ("ours: first similar", "ours: similar, added"))
        name = f"first similar after {NEW_PAPERS:,} into {n:,}: <= {ADDED_SIMILAR_S} s"
        target(targets, name, first, ADDED_SIMILAR_S, "s")


def last_paper(base: list[str]) -> str:
    """The id of the last paper of the list (``base``: the papers command): one the last
    import added."""
    listed = subprocess.run(
        [*base, "list", "--status", "all"], capture_output=True, text=True, env=child_env()
    )
    return listed.stdout.splitlines()[-1].split(maxsplit=1)[0]


def derived_state(home: Path) -> dict[str, tuple[int, int]]:
    """Each derived file's inode and modification time: a file made again has new ones."""
    found = {}
    for name in DERIVED:
        path = home / name
        if path.exists():
            st = path.stat()
            found[name] = (st.st_ino, st.st_mtime_ns)
    return found


def copied_section(home: Path, workdir: Path, n: int, targets: list[Target]) -> None:
    """The first start on a copied HOME, ours and the naive way."""
    rows = []
    rebuilt_ours: list[str] = []
    peaks = []
    for approach in ("ours", "naive"):
        log(f"{approach}: first start on a copied HOME of {n:,}")
        copy = copy_library(home, workdir, f"copied-{approach}-{n}", derived=approach == "ours")
        before = derived_state(copy)
        load = load_now()
        base = papers_command(copy)
        first = {"search": run_command([*base, "search", *QUERY], sample=True)}
        first["list | head"] = run_command([*base, "list"], head=20)
        paper = first_paper(base)
        first["similar"] = run_command([*base, "similar", paper], sample=True)
        wait_background(copy)
        after = derived_state(copy)
        rebuilt = [name for name in DERIVED if before.get(name) != after.get(name)]
        if approach == "ours":
            rebuilt_ours = rebuilt
            peaks = [max(r.peak, r.at_once) for r in first.values()]
        for name, run in first.items():
            rows.append(
                f"{approach:<6} | {name:<12} | {run.seconds:>7.2f} | {run.cpu:>6.2f} | "
                f"{mb(max(run.peak, run.at_once)):>7.0f} | {', '.join(rebuilt) or 'none':<36} | "
                f"{load}"
            )
        shutil.rmtree(copy)
    print_table(
        f"The first start on a copied HOME of {n:,} papers (cp -r: new inodes and times; s from "
        "spawn to exit, CPU s, peak RSS; which derived files the first commands made again). "
        "Naive: the copy's derived files not believed, as when they were named by inode",
        f"{'HOME':<6} | {'command':<12} | {'seconds':>7} | {'CPU s':>6} | {'peak MB':>7} | "
        f"{'made again':<36} | load",
        rows,
    )
    if n == 100_000:
        targets.append(
            (
                f"first start on a copied HOME of {n:,}: no derived file made",
                ", ".join(rebuilt_ours) or "none",
                not rebuilt_ours,
            )
        )
        name = f"first start on a copied HOME of {n:,}: peak <= 600 MB"
        target(targets, name, mb(max(peaks)), COPY_PEAK_MB, "MB")
