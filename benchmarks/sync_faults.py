"""Three syncing devices, real processes killed with SIGKILL or stopped by a full disk: how many
decisions are lost.

Run from the repository root::

    python -m benchmarks.sync_faults [--rounds N] [--quick] [--code DIR]

Three HOMEs (each imports the same 30-paper list) and one synced folder (each device writes
only its own files in it: a sync tool that carries everything at once). Each round: on random
devices, four decisions (``papers mark``), an undo or a redo, now and then a removal, and
syncs; one ``papers sync`` is killed with SIGKILL 0-600 ms after it starts, one runs with a
file-size limit of 100 bytes to 6 KB (``RLIMIT_FSIZE``: every write past it fails, as on a
full disk), one ``papers mark`` is killed 0-300 ms after it starts. A paper is decided at
most once every 1.1 s (``triage.json`` keeps a decision's time to the second). After the
last round every device syncs three times with nothing in the way, and then:

- **lost**: papers whose status is not the one given last, by whichever device (after its
  command ended: a killed ``papers mark`` counts when its decision reached the disk); a paper
  removed last is left out (it comes back with another device's copy);
- **apart**: the devices do not all show the same papers, statuses, notes and tags.

Target: 0 lost, 0 apart. ``--code DIR`` runs another checkout's code (``PYTHONPATH``), e.g. the
commit before issue 24.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import orjson

from storage import Library
from tests.unit.test_sync_support import shown

PAPERS_SCRIPT = Path(sys.executable).with_name("papers")
PAPERS = 30
DEVICES = 3
STATUSES = ("inbox", "read", "skipped", "starred")
REMOVED = "~removed"
#: A paper is decided again only this long after its last decision (times kept to the second).
SPACING_S = 1.1


class Devices:
    def __init__(self, work: Path, env: dict[str, str], rng: random.Random) -> None:
        self.work, self.env, self.rng = work, env, rng
        self.folder = work / "synced"
        self.folder.mkdir()
        self.homes = [work / f"home{n}" for n in range(DEVICES)]
        listed = work / "list.jsonl"
        rows = [
            {"title": f"Paper {n} of the pool", "abstract": f"We study problem {n} at length."}
            for n in range(PAPERS)
        ]
        listed.write_bytes(b"\n".join(orjson.dumps(r) for r in rows))
        for home in self.homes:
            self.run(home, "import", str(listed))
        #: Per paper: every status given, as (time, status), and when last given.
        self.given: dict[str, list[tuple[float, str]]] = {}
        self.kills = self.full_disks = 0

    # -- commands ------------------------------------------------------------------------
    def command(self, home: Path, *args: str) -> list[str]:
        return [str(PAPERS_SCRIPT), "--home", str(home), *args]

    def run(self, home: Path, *args: str, limit: int | None = None) -> int:
        def shrink() -> None:  # a full disk: every write past ``limit`` bytes fails
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            assert limit is not None
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

        done = subprocess.run(
            self.command(home, *args),
            env=self.env,
            capture_output=True,
            preexec_fn=shrink if limit is not None else None,
            timeout=120,
        )
        return done.returncode

    def killed(self, home: Path, after: float, *args: str) -> None:
        proc = subprocess.Popen(
            self.command(home, *args), env=self.env, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        time.sleep(after)
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
            self.kills += 1
        proc.wait(timeout=60)

    def view(self, n: int) -> list[Any]:
        """What device ``n`` shows (read here: the files' format is the same in every version
        compared): its papers, statuses, notes, tags."""
        papers, statuses, notes, tags = shown(Library(self.homes[n]))
        return [sorted(papers), statuses, notes, {k: list(v) for k, v in tags.items()}]

    # -- what users do -------------------------------------------------------------------
    def _note_changes(self, n: int, before: dict[str, str], at: float) -> None:
        papers, after = self.view(n)[:2]
        for pid in set(before) | set(after):
            if pid in papers and before.get(pid, "inbox") != after.get(pid, "inbox"):
                self.given.setdefault(pid, []).append((at, after.get(pid, "inbox")))

    def _free_paper(self, n: int) -> str | None:
        papers = self.view(n)[0]
        now = time.monotonic()
        free = [
            p for p in papers if not self.given.get(p) or now - max(self.given[p])[0] > SPACING_S
        ]
        return self.rng.choice(free) if free else None

    def decide(self, n: int, kill_after: float | None = None) -> None:
        pid = self._free_paper(n)
        if pid is None:
            return
        before = self.view(n)[1]
        at = time.monotonic()
        status = self.rng.choice(STATUSES)
        if kill_after is None:
            self.run(self.homes[n], "mark", pid, status)
        else:
            self.killed(self.homes[n], kill_after, "mark", pid, status)
        self._note_changes(n, before, at)

    def undo(self, n: int, redo: bool) -> None:
        papers, before = self.view(n)[:2]
        now = time.monotonic()
        if any(now - max(g)[0] <= SPACING_S for g in self.given.values() if g):
            time.sleep(SPACING_S)
        at = time.monotonic()
        self.run(self.homes[n], "redo" if redo else "undo")
        after_papers = self.view(n)[0]
        if set(after_papers) != set(papers):
            return  # the undo or redo of a removal: papers came back or went
        self._note_changes(n, before, at)

    def remove(self, n: int) -> None:
        pid = self._free_paper(n)
        if pid is not None:
            at = time.monotonic()
            if self.run(self.homes[n], "remove", pid) == 0:
                self.given.setdefault(pid, []).append((at, REMOVED))

    def sync(self, n: int, *, kill_after: float | None = None, limit: int | None = None) -> None:
        if kill_after is not None:
            self.killed(self.homes[n], kill_after, "sync", str(self.folder))
        else:
            code = self.run(self.homes[n], "sync", str(self.folder), limit=limit)
            self.full_disks += limit is not None and code != 0

    # -- the end -------------------------------------------------------------------------
    def settle(self) -> None:
        for _ in range(3):
            for n in range(DEVICES):
                self.sync(n)

    def judge(self) -> tuple[int, bool, list[str]]:
        views = [self.view(n) for n in range(DEVICES)]
        apart = not (views[0] == views[1] == views[2])
        papers, statuses = views[0][:2]
        lost = []
        for pid in papers:
            given = self.given.get(pid)
            if not given:
                continue
            last = max(given)[1]
            if last != REMOVED and statuses.get(pid, "inbox") != last:
                lost.append(f"{pid}: shows {statuses.get(pid, 'inbox')}, given {given}")
        return len(lost), apart, lost


def one_round(devices: Devices, rng: random.Random) -> None:
    steps: list[Any] = [("decide", None)] * 4 + [("undo", None), ("sync", None), ("sync", None)]
    steps += [("sync", "kill"), ("sync", "full"), ("decide", "kill")]
    if rng.random() < 0.3:
        steps.append(("remove", None))
    rng.shuffle(steps)
    for what, fault in steps:
        n = rng.randrange(DEVICES)
        if what == "decide":
            devices.decide(n, rng.uniform(0.0, 0.3) if fault else None)
        elif what == "undo":
            devices.undo(n, redo=rng.random() < 0.3)
        elif what == "remove":
            devices.remove(n)
        elif fault == "kill":
            devices.sync(n, kill_after=rng.uniform(0.0, 0.6))
        elif fault == "full":
            devices.sync(n, limit=rng.randint(100, 6_000))
        else:
            devices.sync(n)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=100)
    parser.add_argument("--quick", action="store_true", help="10 rounds")
    parser.add_argument("--code", type=Path, help="run this checkout's code instead")
    parser.add_argument("--seed", type=int, default=24)
    args = parser.parse_args(argv)
    rounds = 10 if args.quick else args.rounds
    env = {k: v for k, v in os.environ.items() if not k.startswith("PAPERS_")}
    root = Path(__file__).resolve().parents[1]
    env["PYTHONPATH"] = str(args.code.resolve() if args.code else root)
    rng = random.Random(args.seed)
    started = time.perf_counter()
    total_lost = total_apart = kills = full = 0
    batches = max(1, rounds // 10)  # ten rounds a batch share three devices, then afresh
    for batch in range(batches):
        with tempfile.TemporaryDirectory(prefix="papers-faults-") as work:
            devices = Devices(Path(work), env, rng)
            for _ in range(rounds // batches):
                one_round(devices, rng)
            devices.settle()
            lost, apart, said = devices.judge()
        total_lost += lost
        total_apart += apart
        kills += devices.kills
        full += devices.full_disks
        print(
            f"batch {batch + 1}/{batches}: {rounds // batches} rounds, lost {lost}, "
            f"{'apart' if apart else 'one library'}; {devices.kills} kills, "
            f"{devices.full_disks} syncs stopped by a full disk",
            flush=True,
        )
        for line in said[:5]:
            print(f"  {line}")
    print(
        f"{rounds} rounds in {time.perf_counter() - started:.0f} s: {kills} processes killed, "
        f"{full} syncs stopped by a full disk; decisions lost {total_lost}; batches apart "
        f"{total_apart}"
    )
    ok = total_lost == 0 and total_apart == 0
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
