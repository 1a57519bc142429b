"""``--home`` (or ``$PAPERS_HOME``) a symbolic link to a folder that is not there: it said
"is a file: the library is a folder". The folder it names is made, as a missing ``--home``
folder is, when the folder that holds it is there; else (a drive not mounted) one line names
the link and where it leads, and nothing is made (real processes, temporary homes)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.cli import test_bad_input
from tests.cli.test_bad_input import SAMPLE, one_line_error, run

# The fixture of test_bad_input: a clean environment, user folders inside the test's folder.
env = test_bad_input.env

pytestmark = pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symbolic links")


def test_a_home_linked_to_a_missing_folder_is_made_there(
    env: dict[str, str], tmp_path: Path
) -> None:
    """``ln -s ~/Sync/papers HOME`` before the folder came: the folder is made where the link
    leads, as a missing ``--home`` folder is made (it said "is a file: the library is a
    folder"); the library lives there, through the link. (Made by a command that stores
    something: one that only reads makes nothing.)"""
    link = tmp_path / "link"
    link.symlink_to(tmp_path / "synced" / "papers")
    (tmp_path / "synced").mkdir()
    done = run("--home", link, "list", env=env)
    assert done.returncode == 0, done.stderr
    assert "is a file" not in done.stderr
    assert not (tmp_path / "synced" / "papers").exists()
    done = run("--home", link, "import", SAMPLE / "002_729efa22d9503d43.txt", env=env)
    assert done.returncode == 0, done.stderr
    assert link.is_symlink() and (tmp_path / "synced" / "papers" / "papers.json").is_file()
    # and a folder of the library made through a link on its way
    other = tmp_path / "other"
    other.symlink_to(tmp_path / "synced" / "other")
    assert run("--home", other / "lib", "search", "--save", "s", "x", env=env).returncode == 0
    assert (tmp_path / "synced" / "other" / "lib" / "searches.json").is_file()


def test_a_home_linked_into_a_missing_folder_is_said_and_nothing_made(
    env: dict[str, str], tmp_path: Path
) -> None:
    """The link leads into a folder that is missing too (a drive not mounted): an empty
    library made there would hide the real one once the drive is back. One line naming the
    link and where it leads; nothing made."""
    link = tmp_path / "link"
    target = tmp_path / "drive" / "papers"
    link.symlink_to(target)
    for command in (["list"], ["mark", "0" * 12, "read"], ["import", "-"]):
        line = one_line_error(run("--home", link, *command, env=env), 1)
        assert line == (
            f"papers: error: {link}: is a symbolic link to {target}, which does not exist, nor "
            f"does {target.parent} (a drive not mounted?): mount it, or make the folder"
        )
    assert not (tmp_path / "drive").exists()


def test_a_home_linked_in_a_loop_or_to_a_file_is_said(env: dict[str, str], tmp_path: Path) -> None:
    one, two = tmp_path / "one", tmp_path / "two"
    one.symlink_to(two)
    two.symlink_to(one)
    line = one_line_error(run("--home", one, "list", env=env), 1)
    assert line == f"papers: error: {one}: is a symbolic link in a loop of links " + (
        "(one leads back to another)"
    )
    (tmp_path / "notes.txt").write_text("x", encoding="utf-8")
    (tmp_path / "to-file").symlink_to(tmp_path / "notes.txt")
    line = one_line_error(run("--home", tmp_path / "to-file", "list", env=env), 1)
    assert line.endswith(f"to {tmp_path / 'notes.txt'}, a file: the library is a folder")
