"""``papers export -o LINK``: a symbolic link is checked as what it leads to would be.

A link to a regular file writes that file (the link stays a link); a link to a FIFO is refused
as the FIFO is; a link to a folder is that folder (its default file); a link to nothing makes
the file it names, as the shell's ``>`` does. Links and FIFOs are made in ``tmp_path``.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import threading
from pathlib import Path

import pytest

from tests.cli.test_bad_input import PAPERS, SAMPLE, make_env, one_line_error, run


@pytest.fixture(scope="module")
def seeded_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("seeded")
    env = make_env(root)
    home = root / "home"
    assert run("--home", home, "import", SAMPLE, env=env).returncode == 0
    ids = [r["id"] for r in json.loads(run("--home", home, "list", "--json", env=env).stdout)]
    assert run("--home", home, "mark", ids[0], "starred", env=env).returncode == 0
    return home


@pytest.fixture
def home(seeded_home: Path, tmp_path: Path) -> Path:
    target = tmp_path / "home"
    shutil.copytree(seeded_home, target)
    return target


def export(home: Path, tmp_path: Path, output: Path) -> tuple[int, str, str]:
    done = run("--home", home, "export", "-o", output, env=make_env(tmp_path))
    return done.returncode, done.stdout, done.stderr


def test_a_link_to_a_file_writes_the_file_and_stays_a_link(home: Path, tmp_path: Path) -> None:
    real = tmp_path / "out" / "real.md"
    real.parent.mkdir()
    real.write_text("old")
    link = tmp_path / "link.md"
    link.symlink_to(real)
    chain = tmp_path / "chain.md"
    chain.symlink_to(link)
    for name in (link, chain):
        real.write_text("old")
        code, _, err = export(home, tmp_path, name)
        assert code == 0, err
        assert name.is_symlink() and link.is_symlink() and os.readlink(link) == str(real)
        assert real.read_text().startswith("# Starred papers")
    assert sorted(p.name for p in real.parent.iterdir()) == ["real.md"]


def test_a_link_to_nothing_makes_the_file_it_names(home: Path, tmp_path: Path) -> None:
    """As the shell's ``>`` does: a link made ahead of its file (the hostile tests' too)."""
    later = tmp_path / "later.md"
    link = tmp_path / "starred.md"
    link.symlink_to(later)
    code, _, err = export(home, tmp_path, link)
    assert code == 0, err
    assert link.is_symlink() and os.readlink(link) == str(later)
    assert later.read_text().startswith("# Starred papers")
    # in a folder that is not there, it is refused in one line, and nothing is made
    gone = tmp_path / "unmounted" / "starred.md"
    away = tmp_path / "away.md"
    away.symlink_to(gone)
    line = one_line_error(run("--home", home, "export", "-o", away, env=make_env(tmp_path)), 1)
    assert "Traceback" not in line and not gone.parent.exists() and away.is_symlink()


def test_a_link_to_a_fifo_is_refused_as_the_fifo_is(home: Path, tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    link = tmp_path / "pipe.md"
    link.symlink_to(fifo)
    direct = one_line_error(run("--home", home, "export", "-o", fifo, env=make_env(tmp_path)), 1)
    assert direct.endswith(f"{fifo}: is a FIFO, not a regular file; exports write files only")
    linked = one_line_error(run("--home", home, "export", "-o", link, env=make_env(tmp_path)), 1)
    assert linked.endswith(
        f"{link}: links to {fifo}, a FIFO, not a regular file; exports write files only"
    )
    assert link.is_symlink() and fifo.is_fifo()


def test_a_link_to_a_folder_is_the_folder(home: Path, tmp_path: Path) -> None:
    folder = tmp_path / "exports"
    folder.mkdir()
    link = tmp_path / "linked"
    link.symlink_to(folder)
    code, _, err = export(home, tmp_path, link)
    assert code == 0, err
    assert err == f"Wrote 1 starred paper to {link / 'starred.md'}\n"
    assert link.is_symlink() and (folder / "starred.md").is_file()
    # as the folder itself: its default file is not replaced unasked
    again = one_line_error(run("--home", home, "export", "-o", link, env=make_env(tmp_path)), 1)
    assert again.endswith("already exists; give its full name to replace it")


def test_the_file_standard_output_is_open_on_is_written_as_standard_output(
    home: Path, tmp_path: Path
) -> None:
    """``papers export -o /dev/stdout >> log.md`` (a tool that wants ``-o``): the link led
    to log.md, a regular file, which was replaced whole: what the shell appended to went.
    Made here with the file itself as ``-o`` and as the output, the shell's ``>>``."""
    log = tmp_path / "log.md"
    log.write_text("# Monday\nkept lines\n")
    with log.open("a") as appended:
        done = subprocess.run(
            [*PAPERS, "--home", str(home), "export", "-o", str(log)],
            env=make_env(tmp_path), stdin=subprocess.DEVNULL, stdout=appended,
            stderr=subprocess.PIPE, text=True, timeout=60,
        )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""  # (no "Wrote … to": it went where the output goes)
    text = log.read_text()
    assert text.startswith("# Monday\nkept lines\n# Starred papers"), text[:200]


def test_standard_output_that_is_a_pipe_takes_the_export_named_by_o(
    home: Path, tmp_path: Path
) -> None:
    """``papers export -o /dev/stdout | less``: refused as a FIFO, though it is where the
    export would go without ``-o``. A FIFO made here is the output and the ``-o``."""
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    with fifo.open("wb") as into:
        done = subprocess.run(
            [*PAPERS, "--home", str(home), "export", "-o", str(fifo)],
            env=make_env(tmp_path), stdin=subprocess.DEVNULL, stdout=into,
            stderr=subprocess.PIPE, text=True, timeout=60,
        )  # fmt: skip
    reader.join(60)
    assert done.returncode == 0, done.stderr
    assert got and got[0].startswith(b"# Starred papers")
