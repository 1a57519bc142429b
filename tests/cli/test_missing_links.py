"""A library file linked to a file that is missing (a dotfile manager's link into a drive not
mounted): read through, the library looked empty without a word, every decision seemingly
gone. Each command now says so in one line on stderr, naming the link, its target and where
a write would go; a write through the link still creates its target (dotfile managers make
the link before the file)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from storage import Library, Status
from tests.cli.test_cli import PAPERS, make_env

pytestmark = pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symbolic links")


def papers(env: dict[str, str], home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*PAPERS, "--home", str(home), *args], env=env, capture_output=True, text=True, timeout=60
    )


def test_a_triage_file_linked_to_a_missing_file_is_said_not_read_as_no_decisions(
    seeded_home: Path, tmp_path: Path
) -> None:
    library = Library(seeded_home)
    first, second = (p.id for p in library.papers()[:2])
    library.set_status(first, Status.STARRED)
    drive = tmp_path / "drive"  # the drive, not mounted: its folder is not there
    os.replace(seeded_home / "triage.json", tmp_path / "kept.json")
    (seeded_home / "triage.json").symlink_to(drive / "triage.json")
    env = make_env(tmp_path)

    listed = papers(env, seeded_home, "list", "--status", "starred")
    assert listed.returncode == 0 and listed.stdout == ""
    assert listed.stderr == (
        f"papers: warning: {seeded_home}/triage.json links to {drive}/triage.json, which is "
        "missing (a drive not mounted?): no decisions are shown; a decision cannot be written "
        f"until it is back ({drive} is missing too)\n"
    )
    refused = papers(env, seeded_home, "mark", second, "read")
    assert refused.returncode == 1 and "Traceback" not in refused.stderr
    assert refused.stderr.splitlines()[0].startswith("papers: warning: ")

    # the mount point is there, empty: a decision goes through the link (dotfile managers)
    drive.mkdir()
    stats = papers(env, seeded_home, "stats")
    assert "a decision made now is written there (a new triage.json)" in stats.stderr
    assert papers(env, seeded_home, "mark", second, "read").returncode == 0
    assert (seeded_home / "triage.json").is_symlink()
    assert (drive / "triage.json").is_file()
    assert Library(seeded_home).status(second) is Status.READ
    assert papers(env, seeded_home, "stats").stderr == ""  # its target is there now


def test_a_papers_file_linked_to_a_missing_file_is_said(home: Path, tmp_path: Path) -> None:
    home.mkdir()
    (home / "papers.json").symlink_to(tmp_path / "elsewhere" / "papers.json")
    listed = papers(make_env(tmp_path), home, "list")
    assert listed.returncode == 0 and listed.stdout == ""
    assert listed.stderr.count("\n") == 1
    assert f"{home}/papers.json links to {tmp_path}/elsewhere/papers.json, which is" in (
        listed.stderr
    )
    assert "no papers are shown; an import cannot be written until it is back" in listed.stderr
