"""An export killed mid-write leaves its temporary file beside its target; the next export
into that folder, of any name, sweeps it, and never a file that is not an export's own.

The killed writer is a real process (``write_export`` given a text that stops coming after
its first megabyte, then SIGKILL); the sweep is the real ``papers export``.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from storage.export.destination import _where
from storage.files.atomic import STALE_TEMPORARY_S
from tests.cli.test_bad_input import SAMPLE, make_env, run

REPO = Path(__file__).resolve().parents[2]

#: A writer that writes the first megabyte of its export, then hangs until killed.
_HANGING_EXPORT = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from storage.export.destination import write_export

    def pieces():
        yield "x" * (2 << 20)
        print("written", flush=True)
        time.sleep(120)
        yield "never"

    write_export(Path(sys.argv[1]), pieces(), "unused.md")
    """
)


def _killed_export(target: Path) -> Path:
    """The temporary file a real export into ``target`` left when it was killed."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    writer = subprocess.Popen(
        [sys.executable, "-c", _HANGING_EXPORT, str(target)],
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert writer.stdout is not None
        assert writer.stdout.readline() == "written\n"
    finally:
        writer.send_signal(signal.SIGKILL)
        writer.wait(timeout=30)
    (leftover,) = target.parent.glob(f".{target.name}.papers-export.*.tmp")
    assert f".{writer.pid}." in leftover.name
    return leftover


def _old(path: Path) -> Path:
    long_ago = time.time() - STALE_TEMPORARY_S - 60
    os.utime(path, (long_ago, long_ago), follow_symlinks=False)
    return path


@pytest.fixture
def home(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    assert run("--home", home, "import", SAMPLE, env=make_env(tmp_path)).returncode == 0
    return home


def test_the_next_export_into_the_folder_sweeps_a_killed_exports_file(
    home: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    out.mkdir()
    leftover = _killed_export(out / "starred.md")
    assert leftover.stat().st_size >= 2 << 20
    done = run(
        "--home", home, "export", "--status", "all", "-o", out / "all.bib", env=make_env(tmp_path)
    )
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in out.iterdir()) == ["all.bib"]


def test_only_an_exports_own_leftovers_are_swept(home: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    here, alive = _where(), os.getpid()  # this test's process runs, and is on this machine
    kept = [
        out / ".starred.md.k1ll3d.tmp",  # another program's (the sweep of old took it)
        out / ".starred.md.papers-export.tmp",  # not named as an export names its own
        out / f".a.md.papers-export.{here}.{alive}.wr1t1ng.tmp",  # a writer at work
        out / ".a.md.papers-export.0badf00d.99999999.abc.tmp",  # another machine's, recent
        out / "notes.md",
    ]
    for path in kept:
        path.write_text("someone's")
    _old(kept[0])
    _old(kept[1])
    link = out / f".b.md.papers-export.{here}.99999999.lnk.tmp"  # a link, whatever it says
    link.symlink_to(kept[-1])
    _old(link)
    swept = [
        out / ".a.md.papers-export.0badf00d.99999999.old.tmp",  # silent for 10 minutes
        out / f".c.md.papers-export.{here}.{alive}.hung.tmp",  # silent, though it runs
    ]
    for path in swept:
        path.write_text("half")
        _old(path)
    done = run("--home", home, "export", "-o", out / "starred.md", env=make_env(tmp_path))
    assert done.returncode == 0, done.stderr
    left = {p.name for p in out.iterdir()}
    assert left == {p.name for p in kept} | {link.name, "starred.md"}
    assert all(p.read_text() == "someone's" for p in kept)


def test_a_long_file_name_is_written(home: Path, tmp_path: Path) -> None:
    """A name the file system takes is written, though its temporary's name is longer: 223
    characters, 80 Chinese ones (240 bytes) were refused as 'File name too long'."""
    out = tmp_path / "out"
    out.mkdir()
    for name in ("a" * 220 + ".md", "论文" * 40 + ".md"):
        done = run("--home", home, "export", "-o", out / name, env=make_env(tmp_path))
        assert done.returncode == 0, done.stderr
        assert (out / name).read_text(encoding="utf-8").startswith("# ")
    assert len(list(out.iterdir())) == 2  # no temporary left beside them


@pytest.mark.skipif(
    not Path("/proc/sys/kernel/random/boot_id").is_file(), reason="needs Linux's boot id"
)
def test_another_machine_of_the_same_host_name_keeps_its_live_temporary(
    home: Path, tmp_path: Path
) -> None:
    """Every Linux machine's first pid namespace has the same number: a machine of this host
    name sharing the folder (a synced one) writes under what this machine's name was made of
    without its boot, and its writer's PID, dead here, may run there."""
    import hashlib
    import socket

    namespace = os.readlink("/proc/self/ns/pid")
    place = f"{socket.gethostname()}|{namespace}".encode()
    there = hashlib.blake2s(place, digest_size=4).hexdigest()
    out = tmp_path / "out"
    out.mkdir()
    live = out / f".a.md.papers-export.{there}.99999999.wr1t1ng.tmp"
    live.write_text("being written there")
    done = run("--home", home, "export", "-o", out / "starred.md", env=make_env(tmp_path))
    assert done.returncode == 0, done.stderr
    assert live.read_text() == "being written there"
