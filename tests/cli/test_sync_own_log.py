"""A device's own log damaged in the folder, run as users run it: real processes, one folder.

Only a device writes its log, so only it can tell what the log should say. A line damaged
anywhere but at the log's end was never written again: the other devices skipped it (said
once) and never got the decision or the paper it held, and ``--status`` said all was in sync.
"""

from __future__ import annotations

import json
from pathlib import Path

import orjson
import pytest

from tests.cli.test_cli import make_env
from tests.cli.test_sync import paper_list, papers, statuses


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return make_env(tmp_path)


def device_id(home: Path) -> str:
    return str(json.loads((home / "sync" / "device.json").read_bytes())["id"])


def log_of(folder: Path, home: Path, name: str = "triage.jsonl") -> Path:
    return folder / "papers-tui" / device_id(home) / name


def flip(log: Path, needle: bytes) -> None:
    """One byte of the line holding ``needle`` turned into one no UTF-8 text holds."""
    data = bytearray(log.read_bytes())
    at = data.index(needle)
    assert data.find(b"\n", at) < len(data) - 1, "the damage is meant for a line in the middle"
    data[at + len(needle) - 3] = 0xFF
    log.write_bytes(bytes(data))


def notes(env: dict[str, str], home: Path) -> dict[str, str]:
    out = papers(env, home, "export", "--status", "all", "--format", "json").stdout
    return {p["id"]: p.get("note", "") for p in json.loads(out)}


def two_homes(env: dict[str, str], tmp_path: Path) -> tuple[Path, Path, Path, list[str]]:
    folder = tmp_path / "synced"
    folder.mkdir()
    a, b = tmp_path / "a", tmp_path / "b"
    papers(env, a, "import", str(paper_list(tmp_path / "list.jsonl", 6)))
    papers(env, a, "sync", str(folder), "--name", "laptop")
    papers(env, b, "sync", str(folder), "--name", "desktop")
    return folder, a, b, sorted(statuses(env, a))


def test_a_decision_on_a_damaged_line_in_the_middle_of_a_log_reaches_the_other_device(
    env: dict[str, str], tmp_path: Path
) -> None:
    """The desktop's star, on line 2 of its 4-line log, damaged: the laptop got the note and
    the queue move but never the star, and every sync and ``--status`` said all was well."""
    folder, a, b, ids = two_homes(env, tmp_path)
    papers(env, b, "mark", ids[0], "starred")
    papers(env, b, "note", ids[0], "key paper for the survey")
    papers(env, b, "mark", ids[1], "read")
    papers(env, b, "sync", str(folder))
    flip(log_of(folder, b), f'"{ids[0]}","starred"'.encode())

    first = papers(env, a, "sync", str(folder))
    assert "triage.jsonl: 1 damaged line(s) skipped" in first.stderr
    status = papers(env, b, "sync", "--status", str(folder)).stdout
    assert "pending: 1 change to send" in status  # the star it has to write again
    mended = papers(env, b, "sync", str(folder))
    assert "sent 1 decision;" in mended.stdout
    said = (
        f"desktop ({device_id(b)[:8]}): triage.jsonl: this device's own log was changed since "
        "it wrote it (1 damaged line): written again at its end: 1 decision"
    )
    assert said in mended.stderr, mended.stderr
    papers(env, a, "sync", str(folder))

    assert statuses(env, a)[ids[0]] == statuses(env, b)[ids[0]] == "starred"
    assert notes(env, a)[ids[0]] == "key paper for the survey"
    for home in (a, b):  # once mended, nothing is said or sent again
        again = papers(env, home, "sync", str(folder))
        assert "sent nothing" in again.stdout and again.stderr == "", again.stderr
        status = papers(env, home, "sync", "--status", str(folder)).stdout
        assert "pending: 0 changes to send, 0 to receive" in status


def test_a_paper_on_a_damaged_line_reaches_the_other_device_with_its_decisions(
    env: dict[str, str], tmp_path: Path
) -> None:
    """A paper's line damaged in the laptop's papers.jsonl, then that paper starred and noted
    there: the desktop never got the paper, and its star and note waited for it for ever."""
    folder = tmp_path / "synced"
    folder.mkdir()
    a, b = tmp_path / "a", tmp_path / "b"
    papers(env, a, "import", str(paper_list(tmp_path / "list.jsonl", 6)))
    papers(env, a, "sync", str(folder), "--name", "laptop")
    ids = sorted(statuses(env, a))
    log = log_of(folder, a, "papers.jsonl")
    middle = next(pid for pid in ids if f'"{pid}",{{' in log.read_text().splitlines()[2])
    flip(log, f'"{middle}",{{"id":"{middle}'.encode())
    papers(env, b, "sync", str(folder), "--name", "desktop")
    assert middle not in statuses(env, b)
    papers(env, a, "mark", middle, "starred")
    papers(env, a, "note", middle, "read this first")

    mended = papers(env, a, "sync", str(folder))
    assert "papers.jsonl: this device's own log was changed since it wrote it" in mended.stderr
    assert "written again at its end: 1 paper" in mended.stderr
    papers(env, b, "sync", str(folder))

    assert statuses(env, b)[middle] == "starred"
    assert notes(env, b)[middle] == "read this first"
    assert statuses(env, a) == statuses(env, b)
    status = papers(env, b, "sync", "--status", str(folder)).stdout
    assert "waiting for their paper" not in status


def test_status_says_when_decisions_wait_for_their_paper(
    env: dict[str, str], tmp_path: Path
) -> None:
    """A device's decisions about a paper no log holds wait in HOME/sync/ (never in
    triage.json): ``--status`` said nothing of them, and "0 to receive" read as all done."""
    folder, a, _b, ids = two_homes(env, tmp_path)
    other = folder / "papers-tui" / "eeee000000000040"
    other.mkdir()
    rows = [
        ["s", 1_700_000_000_000, "eeee000000000040", "abcdef012345", "starred"],
        ["n", 1_700_000_000_001, "eeee000000000040", "abcdef012345", "a note"],
        ["s", 1_700_000_000_002, "eeee000000000040", ids[0], "read"],
    ]
    (other / "triage.jsonl").write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in rows))
    papers(env, a, "sync", str(folder))
    status = papers(env, a, "sync", "--status", str(folder)).stdout
    said = "waiting for their paper: the decisions of 1 paper no device has sent yet"
    assert said in status, status
    assert statuses(env, a)[ids[0]] == "read"


def test_three_devices_agree_once_an_old_line_of_one_is_damaged(
    env: dict[str, str], tmp_path: Path
) -> None:
    """The desktop starred a paper, then skipped it; its "skipped" line was damaged: a device
    that joined afterwards showed the paper starred, the other two skipped, for ever."""
    folder, a, b, ids = two_homes(env, tmp_path)
    papers(env, b, "mark", ids[0], "starred")
    papers(env, b, "sync", str(folder))
    papers(env, b, "mark", ids[0], "skipped")
    papers(env, b, "sync", str(folder))
    papers(env, b, "mark", ids[1], "read")
    papers(env, b, "sync", str(folder))
    papers(env, a, "sync", str(folder))
    flip(log_of(folder, b), f'"{ids[0]}","skipped"'.encode())
    c = tmp_path / "c"
    papers(env, c, "sync", str(folder), "--name", "tablet")

    for home in (b, c, a):
        papers(env, home, "sync", str(folder))

    assert statuses(env, a) == statuses(env, b) == statuses(env, c)
    assert statuses(env, c)[ids[0]] == "skipped"


@pytest.mark.parametrize("changed", ["eq 72", "eq 02"])
def test_a_record_of_its_own_changed_in_its_log_is_not_taken_as_a_change(
    env: dict[str, str], tmp_path: Path, changed: str
) -> None:
    """``sed -i 's/eq 12/eq 72/'`` on the desktop's log: its next sync replaced its own note
    with the altered text ("changed here: 1 note"), and the laptop took it too. Its own note
    stands, and is written again, after the altered copy (which the laptop had read)."""
    folder, a, b, ids = two_homes(env, tmp_path)
    papers(env, b, "note", ids[0], "see eq 12")
    papers(env, b, "mark", ids[1], "read")
    papers(env, b, "sync", str(folder))
    log = log_of(folder, b)
    log.write_bytes(log.read_bytes().replace(b"eq 12", changed.encode()))
    papers(env, a, "sync", str(folder))  # the laptop reads the altered copy first

    mended = papers(env, b, "sync", str(folder))
    assert "changed here: nothing" in mended.stdout, mended.stdout
    assert "1 record not as this device wrote it" in mended.stderr, mended.stderr
    assert "written again at its end: 1 note" in mended.stderr
    papers(env, a, "sync", str(folder))

    assert notes(env, b)[ids[0]] == notes(env, a)[ids[0]] == "see eq 12"


def test_a_device_whose_own_log_was_cut_short_says_so_and_what_it_sent(
    env: dict[str, str], tmp_path: Path
) -> None:
    """Its own log cut in its last record: it said that record "has not fully arrived (the
    rest next time)" of the file it alone writes, then "sent nothing" as it wrote it again."""
    folder, a, b, ids = two_homes(env, tmp_path)
    papers(env, b, "mark", ids[0], "read")
    papers(env, b, "mark", ids[1], "skipped")
    papers(env, b, "sync", str(folder))
    log = log_of(folder, b)
    log.write_bytes(log.read_bytes()[:-20])

    mended = papers(env, b, "sync", str(folder))

    assert "not fully arrived" not in mended.stderr and "next time" not in mended.stderr
    assert "sent 1 decision;" in mended.stdout, mended.stdout
    said = "this device's own log was changed since it wrote it (1 damaged line)"
    assert said in mended.stderr, mended.stderr
    papers(env, a, "sync", str(folder))
    assert statuses(env, a) == statuses(env, b)
    assert statuses(env, a)[ids[1]] == "skipped"
