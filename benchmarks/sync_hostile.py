"""One hostile file in the sync folder: what a sync (and the next decision) costs with it.

Run from the repository root::

    python -m benchmarks.sync_hostile [--code DIR] [--quick]

A library of the 38 sample papers, synced once; then another "device" puts one file in the
folder, and ``papers sync`` runs twice (the second time shows whether the cost recurs), then
``papers mark`` once. Per case: each sync's wall and CPU time and peak memory (the child's
``ru_maxrss``), its exit code and first line of stderr, ``triage.json``'s size and the
``mark``'s time. Cases: a 2 GB sparse log (zeros), a symlink loop named ``x.jsonl``, 300,000
status records for papers no device has (``--quick``: 30,000), a record naming 20,000 lists,
a paper with a 5 MB abstract, a record stamped in the year 9998. Targets (issue 24): each sync
<= 2 s and <= 200 MB, a ``mark`` after it as fast as before, the sync not failed by the file.
``--code DIR`` runs another checkout's code, e.g. the commit before issue 24.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import orjson

PAPERS_SCRIPT = Path(sys.executable).with_name("papers")
SAMPLE = Path(__file__).resolve().parents[1] / "storage" / "sample"
DEVICE = "eeee0000000000ee"
STAMP = 1_700_000_000_000
MAX_STAMP = 253_370_764_800_000


def _log(folder: Path, name: str = "triage.jsonl") -> Path:
    path = folder / "papers-tui" / DEVICE / name
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


def sparse(folder: Path, _: int) -> None:
    with _log(folder).open("wb") as out:
        out.truncate(2 * 1024**3)


def loop(folder: Path, _: int) -> None:
    path = _log(folder, "x.jsonl")
    path.symlink_to(path)


def unknown(folder: Path, count: int) -> None:
    with _log(folder).open("wb") as out:
        for n in range(count):
            out.write(orjson.dumps(["s", STAMP + n, DEVICE, f"{n + 1:012x}", "read"]) + b"\n")


def _paper(abstract: str, lists: list[str]) -> bytes:
    doc = {"id": "0000000000cc", "title": "T", "abstract": abstract, "list": lists[0]}
    doc["lists"] = lists  # type: ignore[assignment]
    return orjson.dumps(["P", STAMP, DEVICE, "0000000000cc", doc]) + b"\n"


def lists(folder: Path, _: int) -> None:
    _log(folder, "papers.jsonl").write_bytes(
        _paper("A paper in many lists.", [f"l{n}" for n in range(20_000)])
    )


def abstract(folder: Path, _: int) -> None:
    _log(folder, "papers.jsonl").write_bytes(_paper("word " * 1_000_000, ["L"]))


def far_future(folder: Path, _: int) -> None:
    far = orjson.dumps(["s", MAX_STAMP - 10, DEVICE, "0123456789ab", "read"])
    _log(folder).write_bytes(far + b"\n")


CASES: dict[str, Callable[[Path, int], None]] = {
    "2 GB sparse log": sparse,
    "symlink loop x.jsonl": loop,
    "status records for unknown papers": unknown,
    "one record naming 20,000 lists": lists,
    "a 5 MB abstract": abstract,
    "a record of the year 9998": far_future,
}


def timed(command: list[str], env: dict[str, str]) -> tuple[float, float, float, int, str]:
    """Wall s, CPU s, peak MB of one child, its exit code and first stderr line."""
    started = time.perf_counter()
    # each command in its own waiting grandparent, so that ru_maxrss is this child's alone
    wrapper = (
        "import resource, subprocess, sys; d = subprocess.run(sys.argv[1:], capture_output=True,"
        " text=True); r = resource.getrusage(resource.RUSAGE_CHILDREN); "
        "print(r.ru_maxrss, r.ru_utime + r.ru_stime); print(d.returncode); "
        "print((d.stderr.splitlines() or [''])[0][:150])"
    )
    done = subprocess.run(
        [sys.executable, "-c", wrapper, *command], env=env, capture_output=True, text=True
    )
    wall = time.perf_counter() - started
    lines = done.stdout.splitlines()
    rss, cpu = lines[0].split()
    return wall, float(cpu), int(rss) / 1024, int(lines[1]), lines[2] if len(lines) > 2 else ""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--code", type=Path, help="run this checkout's code instead")
    parser.add_argument("--quick", action="store_true", help="30,000 unknown records")
    args = parser.parse_args(argv)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PAPERS_")}
    if args.code:
        env["PYTHONPATH"] = str(args.code.resolve())
    count = 30_000 if args.quick else 300_000
    print(f"code: {args.code or 'this checkout'}; load {os.getloadavg()[0]:.1f}")
    ok = True
    for name, make in CASES.items():
        with tempfile.TemporaryDirectory(prefix="papers-hostile-") as work:
            home, folder = Path(work) / "home", Path(work) / "synced"
            folder.mkdir()
            papers = [str(PAPERS_SCRIPT), "--home", str(home)]
            subprocess.run(
                [*papers, "import", *map(str, sorted(SAMPLE.glob("*.txt")))],
                env=env,
                check=True,
                capture_output=True,
            )
            subprocess.run([*papers, "sync", str(folder)], env=env, check=True, capture_output=True)
            pid = orjson.loads(
                subprocess.run(
                    [*papers, "list", "--json"], env=env, capture_output=True, check=True
                ).stdout
            )[0]["id"]
            before = timed([*papers, "mark", pid, "read"], env)[0]
            make(folder, count)
            runs = [timed([*papers, "sync", str(folder)], env) for _ in range(2)]
            mark = timed([*papers, "mark", pid, "skipped"], env)[0]
            size = (home / "triage.json").stat().st_size
            line = " / ".join(
                f"{w:.2f} s (CPU {c:.2f}), {m:.0f} MB, exit {e}" for w, c, m, e, _ in runs
            )
            print(f"{name}: sync {line}; triage.json {size:,} bytes")
            print(f"    mark {before:.2f} s before, {mark:.2f} s after")
            said = runs[0][4]
            if said:
                print(f"    {said}")
            ok &= all(w <= 2.0 and m <= 200 and e in (0,) for w, _c, m, e, _s in runs)
            ok &= mark <= before * 2 + 0.2
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
