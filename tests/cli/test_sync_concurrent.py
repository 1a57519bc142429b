"""``papers sync`` between two HOMEs whose users did things at the same time, as a reviewer
did them: real processes, one shared folder.

- a removal another device undid leaves the undo log here (undo then undoes this device's own
  last change, and its redo takes no paper out on every device);
"""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from tests.cli.test_cli import make_env
from tests.cli.test_sync import paper_list, papers, statuses


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return make_env(tmp_path)


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
