"""A HOME whose folder the user may not write (``chmod 0555`` after an import, the files in
it too or not): reading needs no writing, so ``papers list`` (and ``--json``, ``stats``) show
the papers imported, and each command that would write says so in one line, exit 1, HOME
left as it was.

``tests/cli/test_read_only_home.py`` makes HOME read-only by a read-only mount for root
(``EROFS``); this is the folder's permission (``EACCES``, which the lock files meet in other
ways: a lock file refused is said as the library file it guards). Root writes through
permissions: for root, ``papers`` runs in a user namespace of its own as an ordinary user
who owns the files (``unshare --user --map-user``), for whom the permissions hold; anyone
else takes the write permission away itself. Where the permission does not deny a write
(checked), the test skips, saying why; permissions are restored in a ``finally``.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.cli.test_bad_input import PAPERS, SAMPLE, make_env, run
from tests.helpers import home_files

#: The user a root test runs ``papers`` as, in a user namespace where it owns root's files.
_USER = ["--user", "--map-user=1000", "--map-group=1000"]


def _write_bit(paths: list[Path], on: bool) -> None:
    for path in paths:
        mode = stat.S_IMODE(path.stat().st_mode)
        path.chmod(mode | stat.S_IWUSR if on else mode & ~0o222)


@pytest.fixture(params=["folder", "folder-and-files"])
def unwritable(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Path, list[str]]]:
    """A HOME with the sample imported and a paper starred, then made unwritable: the folder
    (``chmod 0555 HOME``) or everything in it too; and the words that run ``papers`` as a
    user the permissions hold for."""
    home, env = tmp_path / "home", make_env(tmp_path)
    assert run("--home", home, "import", SAMPLE, env=env).returncode == 0
    first = run("--home", home, "list", env=env).stdout.split()[0]
    assert run("--home", home, "mark", first, "starred", env=env).returncode == 0
    prefix: list[str] = []
    if os.geteuid() == 0:
        unshare = shutil.which("unshare")
        if unshare is None:
            pytest.skip("root writes through permissions, and unshare is not here")
        prefix = [unshare, *_USER]
    paths = [home, *home.iterdir()] if request.param == "folder-and-files" else [home]
    _write_bit(paths, False)
    try:
        probe = subprocess.run(
            [*prefix, "sh", "-c", 'echo x > "$1/probe"', "sh", str(home)],
            capture_output=True,
            text=True,
        )
        if probe.returncode == 0 or "denied" not in probe.stderr:
            pytest.skip(f"the folder's permission does not deny this user: {probe.stderr}")
        yield home, prefix
    finally:
        _write_bit(paths, True)


def test_an_unwritable_home_lists_its_papers_and_refuses_changes_in_one_line(
    unwritable: tuple[Path, list[str]], tmp_path: Path
) -> None:
    home, prefix = unwritable
    env = make_env(tmp_path)

    def papers(*args: str | Path) -> subprocess.CompletedProcess[str]:
        words = [*prefix, *PAPERS, "--home", str(home), *map(str, args)]
        return subprocess.run(words, env=env, capture_output=True, text=True, timeout=60)

    before = home_files(home)
    listed = papers("list")
    assert listed.returncode == 0, listed.stderr
    rows = listed.stdout.splitlines()
    assert len(rows) == 38, listed.stdout
    assert rows[0].split()[1] == "starred"
    assert listed.stderr == ""
    shown = json.loads(papers("list", "--json").stdout)
    assert len(shown) == 38
    assert "38" in papers("stats").stdout.splitlines()[0]
    first = rows[0].split()[0]
    new = tmp_path / "new.bib"
    new.write_text("@article{k, title = {A paper not imported yet}, year = {2024}}\n")
    # each names the file of the library it could not change: not the lock file beside it
    # (``.lock-triage``, ``.lock``), which the user never made nor asked to change
    changes = {
        ("mark", first, "read"): "triage.json",
        ("remove", first): "papers.json",
        ("import", new): "papers.json",
        ("search", "diffusion", "--save", "mine"): "searches.json",
    }
    for change, file in changes.items():
        done = papers(*change)
        assert done.returncode == 1, (change, done.stdout, done.stderr)
        (line,) = done.stderr.splitlines()
        assert line == f"papers: error: {home}/{file}: Permission denied", line
    assert home_files(home) == before
