"""Never lose a decision: SIGKILL mid-write, two writer processes, atomic files."""

from __future__ import annotations

import errno
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from storage import Library, Status
from storage.files.atomic import STALE_TEMPORARY_S, atomic_write

WRITER = """
import sys
from storage import Library
home, status, first, count = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
lib = Library(home)
ids = [p.id for p in lib.papers()][first:first + count]
print("READY", flush=True)
for pid in ids:
    lib.set_status(pid, status)
    print("ACK", pid, flush=True)
"""


def make_library(home: Path, tmp_path: Path, n: int) -> Library:
    """A library of ``n`` generated papers (distinct abstracts)."""
    words = ("graph", "diffusion", "token", "sparse", "robust", "neural", "policy", "kernel")
    lines = []
    rng = random.Random(7)
    for i in range(n):
        body = " ".join(rng.choice(words) for _ in range(40))
        lines.append(json.dumps({"title": f"Paper {i}", "abstract": f"Paper number {i}: {body}."}))
    source = tmp_path / "many.jsonl"
    source.write_text("\n".join(lines))
    lib = Library(home)
    lib.import_file(source)
    return lib


def start_writer(home: Path, status: str, first: int, count: int) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", WRITER, str(home), status, str(first), str(count)],
        stdout=subprocess.PIPE,
        text=True,
        cwd=Path(__file__).resolve().parents[2],
    )


def test_sigkill_at_random_moments_loses_no_acknowledged_decision(
    home: Path, tmp_path: Path
) -> None:
    lib = make_library(home, tmp_path, 2000)
    rng = random.Random(2025)
    acknowledged: dict[str, Status] = {}
    kills = 0
    first = 0
    for round_ in range(30):
        status = ["read", "skipped", "starred"][round_ % 3]
        proc = start_writer(home, status, first, 60)
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "READY"
        early = [proc.stdout.readline() for _ in range(rng.randint(1, 8))]
        time.sleep(rng.uniform(0.0, 0.004))  # then die somewhere inside a later write
        os.kill(proc.pid, signal.SIGKILL)
        rest, _ = proc.communicate()
        out = "".join(early) + rest
        kills += proc.returncode == -signal.SIGKILL
        for line in out.splitlines(keepends=True):
            # a writer killed while printing leaves half a line: not an acknowledgement
            words = line.split()
            if line.endswith("\n") and len(words) == 2 and words[0] == "ACK":
                acknowledged[words[1]] = Status(status)
        first += 60
        # the library always opens, and holds every acknowledged decision
        statuses = Library(home).statuses()
        missing = {pid for pid, s in acknowledged.items() if statuses.get(pid) is not s}
        assert not missing, f"round {round_}: lost {len(missing)} acknowledged decisions"
    assert kills >= 25
    assert len(acknowledged) >= 30
    # a killed writer may leave its temporary file, and its backup's link when it died between
    # making the link and renaming it, never a torn file
    leftovers = [p.name for p in home.iterdir() if p.name.endswith(".tmp")]
    links = [name for name in leftovers if ".bak." in name]
    assert len(leftovers) - len(links) <= kills
    assert len(links) <= kills
    assert len(lib.papers()) == 2000


def test_two_writer_processes_lose_nothing(home: Path, tmp_path: Path) -> None:
    make_library(home, tmp_path, 500)
    writers = [start_writer(home, "starred", 0, 250), start_writer(home, "skipped", 250, 250)]
    outputs = [w.communicate(timeout=120)[0] for w in writers]
    assert [w.returncode for w in writers] == [0, 0]
    assert [o.count("ACK") for o in outputs] == [250, 250]
    statuses = Library(home).statuses()
    assert sum(1 for s in statuses.values() if s is Status.STARRED) == 250
    assert sum(1 for s in statuses.values() if s is Status.SKIPPED) == 250
    history = json.loads((home / "triage.json").read_text())["history"]
    assert len(history) == 500


def test_atomic_write_keeps_the_previous_version_as_backup(tmp_path: Path) -> None:
    target = tmp_path / "f.json"
    atomic_write(target, b"one")
    atomic_write(target, b"two")
    assert target.read_bytes() == b"two"
    assert (tmp_path / "f.json.bak").read_bytes() == b"one"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f.json", "f.json.bak"]


def test_a_failed_write_leaves_the_file_and_no_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "f.json"
    atomic_write(target, b"good")

    def broken_fsync(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", broken_fsync)
    with pytest.raises(OSError, match="No space"):
        atomic_write(target, b"new")
    assert target.read_bytes() == b"good"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f.json"]


def test_a_write_sweeps_what_killed_writers_left_once_they_are_old(tmp_path: Path) -> None:
    target = tmp_path / "f.json"
    atomic_write(target, b"one")
    old = [tmp_path / ".f.json.k1ll3d.tmp", tmp_path / ".f.json.bak.4242.tmp"]
    fresh = tmp_path / ".f.json.wr1t1ng.tmp"  # a writer at work now: not its to take
    other = tmp_path / ".g.json.k1ll3d.tmp"  # another file's
    for leftover in [*old, fresh, other]:
        leftover.write_bytes(b"half")
    long_ago = time.time() - STALE_TEMPORARY_S - 60
    for leftover in [*old, other]:
        os.utime(leftover, (long_ago, long_ago))
    atomic_write(target, b"two")
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["f.json", "f.json.bak", fresh.name, other.name]
    )
    assert target.read_bytes() == b"two"


def test_a_library_sees_another_process_decisions(library: Library) -> None:
    pid = library.papers()[0].id
    assert library.statuses() == {}
    other = Library(library.home)
    other.set_status(pid, "starred")
    assert library.triage_changed_on_disk()
    assert library.statuses() == {pid: Status.STARRED}
    assert not library.triage_changed_on_disk()


def test_a_failed_decision_is_not_taken_for_another_process_change(
    library: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A write the full disk refused changed nothing on disk: the app polls
    ``triage_changed_on_disk`` and, told True, said "Updated with decisions made elsewhere."
    after every "Not saved" (found by a hostile review on a full disk)."""
    a, b = (p.id for p in library.papers()[:2])
    library.set_status(a, "read")
    before = library.triage_path.read_bytes()

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    with monkeypatch.context() as patched:
        patched.setattr(os, "fsync", full)
        with pytest.raises(OSError, match="No space"):
            library.set_status(b, "starred")
    assert library.triage_path.read_bytes() == before
    assert not library.triage_changed_on_disk()
    assert library.statuses() == {a: Status.READ}
    library.set_status(b, "starred")  # space again: the next decision is written
    assert Library(library.home).statuses() == {a: Status.READ, b: Status.STARRED}
