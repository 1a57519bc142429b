"""A HOME the process cannot write (a read-only mount, another user's folder): commands that
only read work, and ``papers sync --status`` among them; a change fails naming its file.

A real read-only HOME: for root (who writes through permissions) a read-only bind mount in
a mount namespace of its own (``unshare -m``), for anyone else the folder's write permission
taken away. Where neither can be made the tests skip, saying why.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.cli.test_bad_input import PAPERS, SAMPLE, make_env, run
from tests.helpers import home_files

#: ``papers --home HOME ARGS…`` run with HOME read-only.
Papers = Callable[..., subprocess.CompletedProcess[str]]

#: A shell script run by ``unshare -m``: HOME ($1) mounted read-only, then the command.
_MOUNT_READ_ONLY = 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && shift && exec "$@"'


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return make_env(tmp_path)


@pytest.fixture
def synced(tmp_path: Path, env: dict[str, str]) -> tuple[Path, Path]:
    """A HOME (the sample imported, one paper starred) synced once with a folder."""
    home, folder = tmp_path / "home", tmp_path / "synced"
    folder.mkdir()
    assert run("--home", home, "import", SAMPLE, env=env).returncode == 0
    first = run("--home", home, "list", env=env).stdout.split()[0]
    assert run("--home", home, "mark", first, "starred", env=env).returncode == 0
    done = run("--home", home, "sync", folder, env=env)
    assert done.returncode == 0, done.stderr
    return home, folder


def _writable(home: Path, on: bool) -> None:
    for path in [home, *home.rglob("*")]:
        mode = path.stat().st_mode
        path.chmod(mode | stat.S_IWUSR if on else mode & ~0o222)


@pytest.fixture
def read_only(synced: tuple[Path, Path], env: dict[str, str]) -> Iterator[Papers]:
    """Run ``papers --home HOME ARGS…`` with HOME read-only."""
    home, _folder = synced
    root = os.geteuid() == 0
    if root:
        unshare = shutil.which("unshare")
        if unshare is None:
            pytest.skip("root writes through permissions, and unshare is not here to mount")
        probe = subprocess.run(
            [unshare, "-m", "sh", "-c", _MOUNT_READ_ONLY, "sh", str(home), "true"],
            capture_output=True,
            text=True,
        )
        if probe.returncode != 0:
            pytest.skip(f"no read-only mount for root here: {probe.stderr.strip()}")
    else:
        _writable(home, False)

    def papers(*args: str | Path) -> subprocess.CompletedProcess[str]:
        words = [*PAPERS, "--home", str(home), *map(str, args)]
        if root:
            words = ["unshare", "-m", "sh", "-c", _MOUNT_READ_ONLY, "sh", str(home), *words]
        return subprocess.run(words, env=env, capture_output=True, text=True, timeout=60)

    try:
        yield papers
    finally:
        if not root:
            _writable(home, True)


def test_sync_status_reads_a_read_only_home(synced: tuple[Path, Path], read_only: Papers) -> None:
    home, folder = synced
    before = home_files(home)
    done = read_only("sync", "--status", folder)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"folder: {folder}\n")
    assert "pending: 0 changes to send, 0 to receive" in done.stdout
    assert done.stderr == ""  # its lock files are there: taken through a read-only descriptor
    assert home_files(home) == before


def test_sync_status_without_lock_files_says_it_read_without_the_lock(
    synced: tuple[Path, Path], read_only: Papers
) -> None:
    """A read-only HOME that never had its lock files (copied without its dot files)."""
    home, folder = synced
    for lock in home.glob(".lock*"):
        lock.unlink()
    done = read_only("sync", "--status", folder)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"folder: {folder}\n")
    (note,) = done.stderr.splitlines()
    assert note.startswith(f"papers: note: the library's lock could not be taken ({home}/.lock")
    assert not list(home.glob(".lock*"))


def test_a_change_in_a_read_only_home_names_the_file_it_could_not_write(
    synced: tuple[Path, Path], read_only: Papers
) -> None:
    """It named the lock file (``.lock: Read-only file system``), which is no file of the
    user's: now the lock is taken, and the write that fails names ``triage.json``."""
    home, _folder = synced
    before = home_files(home)
    first = run("--home", home, "list", env=make_env(home.parent)).stdout.split()[0]
    done = read_only("mark", first, "read")
    assert done.returncode == 1
    assert done.stderr.startswith(f"papers: error: {home / 'triage.json'}: "), done.stderr
    assert len(done.stderr.splitlines()) == 1
    assert home_files(home) == before
