"""The app on a library whose file links to a missing one (a drive not mounted): it says so
where it read an empty library without a word; with papers.json so linked it puts no sample
there (the first run's import went through the link, into the drive's empty mount point)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from storage import Library, Status
from tests.tui.helpers import make_app, messages, ready, wait_for

pytestmark = pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symbolic links")


async def test_a_triage_file_linked_to_a_missing_file_is_said(
    seeded_home: Path, tmp_path: Path
) -> None:
    library = Library(seeded_home)
    library.set_status(library.papers()[0].id, Status.STARRED)
    mount = tmp_path / "drive"
    mount.mkdir()  # an empty mount point: a decision would be written there
    os.replace(seeded_home / "triage.json", tmp_path / "kept.json")
    (seeded_home / "triage.json").symlink_to(mount / "triage.json")
    app = make_app(seeded_home)
    async with app.run_test(size=(120, 36)) as pilot:
        await ready(pilot)
        await wait_for(pilot, lambda: any("links to" in n for n in messages(app)))
        [said] = [n for n in messages(app) if "links to" in n]
    assert said == (
        f"{seeded_home}/triage.json links to {mount}/triage.json, which is missing (a drive "
        "not mounted?): no decisions are shown; a decision made now is written there (a new "
        "triage.json)"
    )


async def test_a_papers_file_linked_to_a_missing_file_gets_no_sample(
    home: Path, tmp_path: Path
) -> None:
    mount = tmp_path / "drive"
    mount.mkdir()
    home.mkdir()
    (home / "papers.json").symlink_to(mount / "papers.json")
    app = make_app(home)
    async with app.run_test(size=(120, 36)) as pilot:
        await ready(pilot)
        await wait_for(pilot, lambda: any("links to" in n for n in messages(app)))
        assert not app.first_run
        assert "no papers are shown; an import made now is written there" in "".join(messages(app))
    assert not (mount / "papers.json").exists()  # no sample put into the drive's place
    assert (home / "papers.json").is_symlink()
