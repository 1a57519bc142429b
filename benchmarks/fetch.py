"""``python -m benchmarks.fetch [--quick]``: a conference fetched by name, from a local server.

11,672 OpenReview notes in API v2's shape (the real ICLR 2025 list's 3,703 accepted papers
from ``../shared/data/iclr2025.jsonl`` plus 7,969 made-up rejected, withdrawn and desk-rejected
submissions) are served on 127.0.0.1 by the tests' stand-in (``tests/fetch/services.py``), and
the real ``papers`` fetches them in a child process:

- ``papers fetch iclr2025 --all`` into an empty HOME: wall time and the child's peak memory;
- the same again (every page from HOME's cache), and with ``--refresh``;
- beside it, the naive way: the same notes saved to a file and ``papers import``-ed (the
  fetch's cost over an import of the same data is the network's and the cache's);
- ``--reviews`` too (the notes with their direct replies: 4 reviews, a comment, a decision);
- the two seed lists imported with ``--catalog iclr2025``: how many of the 38 get their real
  title, authors and URL.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DATA = REPO.parent / "shared" / "data" / "iclr2025.jsonl"
SEEDS = sorted((REPO / "storage" / "sample").glob("*.txt"))
sys.path.insert(0, str(REPO))

from tests.fetch import shapes  # noqa: E402 - the stand-in lives with the tests
from tests.fetch.services import PROXY_VARIABLES, Services, environment, serving  # noqa: E402

ICLR25 = "ICLR.cc/2025/Conference"
PAPERS = str(Path(sys.executable).with_name("papers"))


def venue(rows: list[dict]) -> Services:
    made = shapes.from_rows(rows)
    made += shapes.made_up(5_600, seed=11, fate="Rejected_Submission")
    made += shapes.made_up(2_200, seed=12, fate="Withdrawn_Submission")
    made += shapes.made_up(169, seed=13, fate="Desk_Rejected_Submission")
    found = Services()
    found.v2[ICLR25] = shapes.v2_venue(made, ICLR25)
    return found


def run(args: list[str], env: dict[str, str]) -> tuple[float, float, str]:
    """Seconds, peak memory (MB) of the child, and its output."""
    start = time.perf_counter()
    child = subprocess.Popen(
        [PAPERS, *args], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    out = child.stdout.read() if child.stdout else ""
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    seconds = time.perf_counter() - start
    if child.returncode:
        raise SystemExit(f"papers {' '.join(args)} failed:\n{out}")
    peak = usage.ru_maxrss / 1024  # KB on Linux
    return seconds, peak, out


def main(argv: list[str]) -> int:
    if not DATA.is_file():
        print(f"skipped: the real list is not here ({DATA})")
        return 0
    del argv  # one size: the figure is for the whole conference
    rows = [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines()]
    found = venue(rows)
    notes = len(found.v2[ICLR25].notes)
    with serving(found) as base, tempfile.TemporaryDirectory() as tmp:
        clean = {k: v for k, v in os.environ.items() if k not in PROXY_VARIABLES}
        env = {**clean, **environment(base)}

        def home(name: str) -> dict[str, str]:
            return {**env, "PAPERS_HOME": str(Path(tmp) / name)}

        run(["--version"], env)  # the interpreter and the script warm
        first = run(["fetch", "iclr2025", "--all"], home("a"))
        print(f"fetched and imported {notes:,} notes: {first[0]:.2f} s, peak {first[1]:.0f} MB")
        print("  " + first[2].strip().splitlines()[-1][:110])
        again = run(["fetch", "iclr2025", "--all"], home("a"))
        print(f"again, every page from the cache: {again[0]:.2f} s, peak {again[1]:.0f} MB")
        fresh = run(["fetch", "iclr2025", "--all", "--refresh"], home("a"))
        print(f"again with --refresh (downloaded, nothing new): {fresh[0]:.2f} s")

        saved = Path(tmp) / "notes.json"
        saved.write_bytes(json.dumps({"notes": found.v2[ICLR25].notes}).encode())
        naive = run(["import", str(saved)], home("b"))
        print(
            f"naive: the same notes saved to a file, papers import: {naive[0]:.2f} s, "
            f"peak {naive[1]:.0f} MB (fetch / import: {first[0] / naive[0]:.2f}×)"
        )

        reviews = run(["fetch", "iclr2025", "--all", "--reviews"], home("c"))
        print(f"with --reviews (direct replies): {reviews[0]:.2f} s, peak {reviews[1]:.0f} MB")

        run(["import", *map(str, SEEDS), "--catalog", "iclr2025"], home("d"))
        listed = subprocess.run(
            [PAPERS, "list", "--json"], env=home("d"), capture_output=True, text=True, check=True
        )
        papers = json.loads(listed.stdout)
        by_title = {r["title"]: r for r in rows}
        real = [p for p in papers if not p["title_derived"] and p["title"] in by_title]
        same = [
            p for p in real
            if p["authors"] == by_title[p["title"]]["authors"]
            and p["url"] == by_title[p["title"]]["url"]
        ]  # fmt: skip
        print(
            f"seed lists with --catalog iclr2025: {len(papers)} papers, {len(real)} of 38 real "
            f"titles, {len(same)} of 38 with the real authors and URL"
        )
        requests = len(found.log)
    print(f"requests served (all on 127.0.0.1): {requests:,}")
    ok = first[0] <= 5 and first[1] <= 400 and again[0] <= 2 and len(same) == 38
    print("targets (≤ 5 s, ≤ 400 MB, cache ≤ 2 s, 38 of 38):", "met" if ok else "NOT met")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
