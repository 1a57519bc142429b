"""The hostile files of issue 24 through the real ``papers import``: time and peak memory each.

Run from the repository root: ``python -m benchmarks.hostile_readers [--before DIR]``.

Each file of ``tests/hostile/bombs.py`` (doubling ``@string`` macros, RIS values wrapped over
10 and 20 MB, citation counts of 1e308 and 400 digits, a library folder with a hostile
``triage.json``, a 500-entry ``crossref`` cycle, a bare-CR CSV) is imported into a fresh HOME
by ``python -m tui import`` in a child process; its seconds, peak memory (the child's
``ru_maxrss``), exit code and the papers it added are printed. With ``--before DIR`` (another
checkout of papers-tui, e.g. ``git worktree add /tmp/old <commit>``) the same files go through
that code too, side by side. The goal (issue 24): each ≤ 2 s and ≤ 200 MB, a one-line message,
the rest of the file imported.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_MEASURED = (
    "import resource, subprocess, sys\n"
    "code = subprocess.run(sys.argv[1:]).returncode\n"
    "peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss\n"
    "print(f'peak-kb={peak}', file=sys.stderr)\n"
    "sys.exit(code)\n"
)
TIMEOUT = 120


def cases(folder: Path) -> list[tuple[str, Path]]:
    sys.path.insert(0, str(ROOT))
    from tests.hostile import bombs

    library = folder / "library-5000-digit-key"
    library.mkdir()
    triage = (
        '{"decisions": {"' + "1" * 5000 + '": {"status": "starred"}}, '
        '"meta": {"1": {"schema": 3, "kind": "triage"}}}'
    )
    broken = folder / "library-unparsable"
    broken.mkdir()
    return [
        ("@string doubling macros (725 bytes)", bombs.macro_bomb(folder).path),
        ("RIS wrapped over 10 MB", bombs.ris_wrapped(folder, 10).path),
        ("RIS wrapped over 20 MB", bombs.ris_wrapped(folder, 20).path),
        ("citations 1e308 and 400 digits", bombs.huge_numbers(folder).path),
        ("library, triage.json key of 5,000 digits", bombs.hostile_library(library, triage).path),
        ("library, triage.json unparsable", bombs.hostile_library(broken, '{"x": [').path),
        ("crossref cycle of 500 entries", bombs.crossref_cycle(folder).path),
        ("CSV rows ending in a bare CR", bombs.bare_cr_csv(folder).path),
    ]


def run(code: Path, file: Path, home: Path) -> tuple[float, float, int, str]:
    """(seconds, peak MB, exit code, last line of output) of importing ``file``."""
    env = {**os.environ, "PYTHONPATH": str(code), "NO_COLOR": "1"}
    command = [sys.executable, "-c", _MEASURED, sys.executable, "-m", "tui"]
    start = time.perf_counter()
    try:
        done = subprocess.run(
            [*command, "--home", str(home), "import", str(file)],
            capture_output=True, text=True, timeout=TIMEOUT, env=env, cwd=code, check=False,
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        return TIMEOUT, float("nan"), -1, f"not done in {TIMEOUT} s"
    seconds = time.perf_counter() - start
    *lines, last = done.stderr.rstrip("\n").split("\n")
    peak = int(last.removeprefix("peak-kb=")) / 1024 if last.startswith("peak-kb=") else 0.0
    said = [line for line in (done.stdout.splitlines() + lines) if line.strip()]
    return seconds, peak, done.returncode, (said[-1] if said else "")[:110]


def added(home: Path) -> int:
    try:
        return len(json.loads((home / "papers.json").read_text()).get("papers", {}))
    except (OSError, ValueError):
        return 0


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, help="another checkout to run the files through")
    parser.add_argument("--quick", action="store_true", help="(every case is quick)")
    args = parser.parse_args(argv)
    codes = [("now", ROOT)] + ([("before", args.before.resolve())] if args.before else [])
    worst = 0.0, 0.0
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        for label, file in cases(folder):
            print(label)
            for which, code in codes:
                home = folder / f"home-{which}-{file.stem}"
                seconds, peak, exit_code, said = run(code, file, home)
                print(
                    f"  {which:6} {seconds:6.2f} s {peak:7.0f} MB  exit {exit_code}  "
                    f"{added(home):4} papers  {said}"
                )
                if which == "now":
                    worst = max(worst[0], seconds), max(worst[1], peak)
    print(f"worst now: {worst[0]:.2f} s, {worst[1]:.0f} MB (goal: ≤ 2 s and ≤ 200 MB each)")
    return 0 if worst[0] <= 2 and worst[1] <= 200 else 1


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
