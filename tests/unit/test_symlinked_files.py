"""Symlinked library files (dotfile managers): writes go to the link's target, atomically."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from storage import Library, Status
from storage.files.atomic import atomic_write, backup_path, link_target

pytestmark = pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symbolic links")


def linked_library(seeded_home: Path, tmp_path: Path) -> tuple[Path, Path]:
    """The seeded library with papers.json and triage.json moved to a "dotfiles" folder and
    linked back (relative links, as stow makes them)."""
    dotfiles = tmp_path / "dotfiles"
    dotfiles.mkdir()
    Library(seeded_home).set_status(Library(seeded_home).papers()[0].id, "read")
    for name in ("papers.json", "triage.json"):
        shutil.move(seeded_home / name, dotfiles / name)
        (seeded_home / name).symlink_to(os.path.relpath(dotfiles / name, seeded_home))
    return seeded_home, dotfiles


def test_decisions_go_through_the_links(seeded_home: Path, tmp_path: Path) -> None:
    home, dotfiles = linked_library(seeded_home, tmp_path)
    lib = Library(home)
    ids = [p.id for p in lib.papers()]
    lib.set_status(ids[1], Status.STARRED)
    lib.set_note(ids[1], "through the link")
    for name in ("papers.json", "triage.json"):
        assert (home / name).is_symlink(), name
        assert (home / name).resolve() == dotfiles / name
    assert not list(home.glob(".triage.json.*.tmp")) and not list(dotfiles.glob(".*.tmp"))
    again = Library(home)
    assert again.status(ids[1]) is Status.STARRED and again.status(ids[0]) is Status.READ
    assert again.triage().notes[ids[1]] == "through the link"
    # the target holds the new version; the backup beside the link holds the one before
    assert b"through the link" in (dotfiles / "triage.json").read_bytes()
    assert backup_path(home / "triage.json").is_file()
    assert b"through the link" not in backup_path(home / "triage.json").read_bytes()


def test_an_import_goes_through_the_link(
    seeded_home: Path, tmp_path: Path, sample_files: list[Path]
) -> None:
    home, dotfiles = linked_library(seeded_home, tmp_path)
    extra = tmp_path / "extra.jsonl"
    extra.write_text(
        '{"title": "Linked", "abstract": "A paper imported into a library whose files are '
        'symbolic links into a dotfiles folder, to check the links survive."}\n'
    )
    report = Library(home).import_file(extra)
    assert report.added == 1
    assert (home / "papers.json").is_symlink()
    assert b"Linked" in (dotfiles / "papers.json").read_bytes()
    assert len(Library(home).papers()) == 39


def test_atomic_write_through_a_chain_of_links_keeps_the_mode(tmp_path: Path) -> None:
    real = tmp_path / "real.txt"
    real.write_text("old")
    real.chmod(0o640)
    middle = tmp_path / "middle"
    middle.symlink_to(real)
    link = tmp_path / "link"
    link.symlink_to(middle)
    atomic_write(link, b"new", backup=False)
    assert link.is_symlink() and middle.is_symlink()
    assert real.read_bytes() == b"new"
    assert real.stat().st_mode & 0o777 == 0o640
    assert link_target(link) == real


def test_a_dangling_link_creates_its_target(tmp_path: Path) -> None:
    link = tmp_path / "link"
    link.symlink_to(tmp_path / "later.json")
    atomic_write(link, b"{}", backup=False)
    assert link.is_symlink() and (tmp_path / "later.json").read_bytes() == b"{}"


def test_a_loop_of_links_is_refused_and_nothing_is_written(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    a.symlink_to(b)
    b.symlink_to(a)
    with pytest.raises(OSError):
        atomic_write(a, b"x")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a", "b"]


def test_a_missing_link_target_is_named_as_the_file_a_write_makes(tmp_path: Path) -> None:
    """A link to a file of another name (through a chain of links too) says that name: a
    decision makes decisions.json there, not a triage.json."""
    home = tmp_path / "home"
    home.mkdir()
    dotfiles = tmp_path / "dotfiles"
    dotfiles.mkdir()
    (home / "triage.json").symlink_to(home / "middle")
    (home / "middle").symlink_to(dotfiles / "decisions.json")
    (line,) = Library(home).missing_links()
    assert f"links to {dotfiles / 'decisions.json'}, which is missing" in line
    assert line.endswith("a decision made now is written there (a new decisions.json)")
