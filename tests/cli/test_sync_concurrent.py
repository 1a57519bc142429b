"""``papers sync`` between two HOMEs whose users did things at the same time, as a reviewer
did them: real processes, one shared folder.

- a note written on each device before either read the other's: both texts kept, and said;
- a tag added on each device before either read the other's: both tags on both, and said;
- a removal another device undid leaves the undo log here (undo then undoes this device's own
  last change, and its redo takes no paper out on every device);
- a device whose clock is ahead is the one named, not a device that only stamped its change
  just after that device's record (as every device does after what it saw).
"""

from __future__ import annotations

import time
from pathlib import Path

import orjson
import pytest

from storage.sync.folder import ROOT_NAME, TRIAGE_LOG
from tests.cli.test_cli import make_env
from tests.cli.test_sync import paper_list, papers, statuses


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return make_env(tmp_path)


def notes(env: dict[str, str], home: Path) -> dict[str, str]:
    listed = orjson.loads(papers(env, home, "list", "--json").stdout)
    return {p["id"]: p["note"] for p in listed if p.get("note")}


def test_notes_edited_on_both_devices_keep_both_texts(env: dict[str, str], tmp_path: Path) -> None:
    """The laptop's detailed note, then the desktop's short one: the sync kept the desktop's
    and said only "changed here: 1 note"; the laptop's text was left in triage.json.bak, which
    the next write replaced (``papers note`` prints a note it replaces, as no undo brings one
    back)."""
    folder = tmp_path / "synced"
    folder.mkdir()
    a, b = tmp_path / "a", tmp_path / "b"
    papers(env, a, "import", str(paper_list(tmp_path / "list.jsonl", 3)))
    papers(env, a, "sync", str(folder), "--name", "laptop")
    papers(env, b, "sync", str(folder), "--name", "desktop")
    pid = sorted(statuses(env, a))[0]
    papers(env, a, "note", pid, "Laptop: detailed notes on proof of Thm 2")
    papers(env, b, "note", pid, "desktop: skim later")
    papers(env, a, "sync", str(folder)), papers(env, b, "sync", str(folder))

    said = papers(env, a, "sync", str(folder)).stdout

    assert said.rstrip().endswith("; 1 note edited on both devices: both texts kept")
    kept = notes(env, a)[pid]
    assert "Laptop: detailed notes on proof of Thm 2" in kept and "desktop: skim later" in kept
    assert "--- also written on " in kept
    papers(env, b, "sync", str(folder))
    assert notes(env, b)[pid] == kept


def tags(env: dict[str, str], home: Path) -> dict[str, list[str]]:
    listed = orjson.loads(papers(env, home, "list", "--json").stdout)
    return {p["id"]: p["tags"] for p in listed if p.get("tags")}


def test_tags_added_on_both_devices_are_all_kept(env: dict[str, str], tmp_path: Path) -> None:
    """``papers tag`` replaces a paper's tags: #rl added on the laptop and #theory on the
    desktop, before either synced, left only the desktop's list on both, the laptop's #rl gone
    without a word (the sync said "changed here: 1 tag change")."""
    folder = tmp_path / "synced"
    folder.mkdir()
    a, b = tmp_path / "a", tmp_path / "b"
    papers(env, a, "import", str(paper_list(tmp_path / "list.jsonl", 3)))
    pid = sorted(statuses(env, a))[0]
    papers(env, a, "tag", pid, "#survey")
    papers(env, a, "sync", str(folder), "--name", "laptop")
    papers(env, b, "sync", str(folder), "--name", "desktop")
    papers(env, a, "tag", pid, "#survey", "#rl")
    papers(env, b, "tag", pid, "#survey", "#theory")
    papers(env, a, "sync", str(folder)), papers(env, b, "sync", str(folder))

    said = papers(env, a, "sync", str(folder)).stdout  # its list, written first, lost

    assert said.rstrip().endswith("; tags of 1 paper edited on both devices: merged")
    assert tags(env, a)[pid] == ["survey", "theory", "rl"]
    papers(env, b, "sync", str(folder))
    assert tags(env, b)[pid] == ["survey", "theory", "rl"]


def test_a_removal_undone_on_the_other_device_leaves_the_undo_log_here(
    env: dict[str, str], tmp_path: Path
) -> None:
    """The laptop took a list out, then put it back (undo): the desktop got the removals, then
    the papers back, yet kept the removal as its own last step: its first ``papers undo`` said
    "Put back 4 papers" and changed nothing, and a redo after it took the papers out on every
    device. Its first undo now undoes its own last change."""
    folder = tmp_path / "synced"
    folder.mkdir()
    a, b = tmp_path / "a", tmp_path / "b"
    papers(env, a, "import", str(paper_list(tmp_path / "main.jsonl", 5)))
    first = sorted(statuses(env, a))[0]  # of the list that stays
    extra = tmp_path / "extra.jsonl"
    rows = ({"title": f"Extra paper {n}", "abstract": f"About extra {n}."} for n in range(4))
    extra.write_bytes(b"\n".join(orjson.dumps(row) for row in rows) + b"\n")
    papers(env, a, "import", str(extra), "--list", "extra")
    papers(env, a, "sync", str(folder)), papers(env, b, "sync", str(folder))
    papers(env, b, "mark", first, "read")
    papers(env, a, "remove", "--list", "extra")
    papers(env, a, "sync", str(folder))
    assert "changed here: 4 removals" in papers(env, b, "sync", str(folder)).stdout
    papers(env, a, "undo")
    papers(env, a, "sync", str(folder))
    assert "changed here: 4 papers" in papers(env, b, "sync", str(folder)).stdout

    undone = papers(env, b, "undo")

    assert "Put back" not in undone.stdout, undone.stdout
    assert statuses(env, b)[first] == "inbox"  # its own "read" undone
    redone = papers(env, b, "redo")
    assert "Removed" not in redone.stdout and statuses(env, b)[first] == "read"
    assert len(statuses(env, b)) == 9
    papers(env, b, "sync", str(folder)), papers(env, a, "sync", str(folder))
    assert len(statuses(env, a)) == 9


def test_the_device_whose_clock_is_ahead_is_named_not_the_one_that_decided_after_it(
    env: dict[str, str], tmp_path: Path
) -> None:
    """A device whose clock is two hours fast starred a paper; the laptop, its clock right,
    then marked it read and skipped: its records are stamped just after the star (a change
    made after seeing a record beats it), two hours ahead too, and so are the papers it sends
    after (stamped after the last stamp its clock saw). The desktop, and a device that
    joined later, said at every sync "laptop (…): its clock is 120 min ahead", naming the
    laptop instead of the fast device, which nobody was told of."""
    folder = tmp_path / "synced"
    folder.mkdir()
    a, b, c = tmp_path / "a", tmp_path / "b", tmp_path / "c"
    papers(env, a, "import", str(paper_list(tmp_path / "list.jsonl", 3)))
    papers(env, a, "sync", str(folder), "--name", "laptop")
    papers(env, b, "sync", str(folder), "--name", "desktop")
    pid = sorted(statuses(env, a))[0]
    fast = "fa57c10cfa57c10c"
    log = folder / ROOT_NAME / fast / TRIAGE_LOG
    log.parent.mkdir()
    star = ["s", int(time.time() * 1000) + 2 * 3600 * 1000, fast, pid, "starred"]
    log.write_bytes(orjson.dumps(star) + b"\n")
    said = papers(env, b, "sync", str(folder)).stderr
    assert f"{fast}: its clock is 120 min ahead" in said
    papers(env, a, "sync", str(folder))
    papers(env, a, "mark", pid, "read")
    papers(env, a, "sync", str(folder))
    papers(env, a, "mark", pid, "skipped")
    more = tmp_path / "more.jsonl"  # papers, stamped just after the last stamp it saw
    more.write_bytes(orjson.dumps({"title": "One more", "abstract": "More of it."}) + b"\n")
    papers(env, a, "import", str(more))
    papers(env, a, "sync", str(folder))

    for home in (b, c):
        said = papers(env, home, "sync", str(folder)).stderr
        assert "laptop (" not in said and f"{fast}: its clock is 120 min ahead" in said, said
        assert statuses(env, home)[pid] == "skipped"
    said = papers(env, c, "sync", str(folder)).stderr  # (joined: it read the star just now)
    assert said == ""
