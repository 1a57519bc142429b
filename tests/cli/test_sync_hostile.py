"""``papers sync`` against what a shared folder may hold, run as users run it (real processes).

Whoever else writes in the synced folder (a shared Dropbox, a git remote, a broken clock)
chooses the names, times, links and bytes found there: none of it may crash a sync, reach the
terminal as escape codes, write outside the folder, or lose a decision.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import orjson
import pytest
from rich.cells import cell_len

from tests.cli.test_cli import make_env
from tests.cli.test_sync import paper_list, papers, statuses

#: A stamp (ms) in the year 9999 and after: no device's clock is believed that far ahead.
FAR_FUTURE = 2**53 - 2


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return make_env(tmp_path)


def device_id(home: Path) -> str:
    return str(json.loads((home / "sync" / "device.json").read_bytes())["id"])


def other_device(folder: Path, device: str, card: object = None, rows: list[object] = ()) -> Path:
    """A device folder written by hand, as a hostile or broken device would."""
    path = folder / "papers-tui" / device
    path.mkdir(parents=True, exist_ok=True)
    if card is not None:
        (path / "device.json").write_bytes(orjson.dumps(card))
    if rows:
        (path / "triage.jsonl").write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in rows))
    return path


def two_homes(env: dict[str, str], tmp_path: Path) -> tuple[Path, Path, Path, list[str]]:
    folder = tmp_path / "synced"
    folder.mkdir()
    a, b = tmp_path / "a", tmp_path / "b"
    papers(env, a, "import", str(paper_list(tmp_path / "list.jsonl", 6)))
    papers(env, a, "sync", str(folder), "--name", "a")
    papers(env, b, "sync", str(folder), "--name", "b")
    return folder, a, b, sorted(statuses(env, a))


def test_a_record_stamped_beyond_the_calendar_neither_crashes_nor_stops_later_decisions(
    env: dict[str, str], tmp_path: Path
) -> None:
    """A device whose clock says the year 287,000 once made every sync that read it fail
    ("year is out of range"), and the stamps after it unreadable: it is not believed now."""
    folder, a, b, ids = two_homes(env, tmp_path)
    other_device(
        folder, "eeee000000000001", rows=[["s", FAR_FUTURE, "eeee000000000001", ids[0], "read"]]
    )
    done = papers(env, a, "sync", str(folder))
    assert "damaged line" in done.stderr and "Traceback" not in done.stderr
    papers(env, a, "mark", ids[0], "starred")
    papers(env, a, "sync", str(folder))
    papers(env, b, "sync", str(folder))
    assert statuses(env, b)[ids[0]] == "starred"
    assert statuses(env, a) == statuses(env, b)


def test_a_clock_centuries_ahead_is_said_in_years_and_merging_goes_on(
    env: dict[str, str], tmp_path: Path
) -> None:
    folder, a, b, ids = two_homes(env, tmp_path)
    year_3000 = 32_503_680_000_000
    other_device(
        folder,
        "eeee000000000002",
        {"id": "eeee000000000002", "name": "broken"},
        [["s", year_3000, "eeee000000000002", ids[1], "skipped"]],
    )
    done = papers(env, a, "sync", str(folder))
    assert re.search(
        r"broken \(eeee0000\): 1 record stamped [\d,]+ years or more ahead of this clock: not "
        "believed until then",
        done.stderr,
    )
    papers(env, a, "mark", ids[1], "read")  # decided after seeing it: stamped after it
    papers(env, a, "sync", str(folder))
    papers(env, b, "sync", str(folder))
    assert statuses(env, a)[ids[1]] == statuses(env, b)[ids[1]] == "read"


def test_links_in_the_folder_are_never_written_through(env: dict[str, str], tmp_path: Path) -> None:
    """Someone who can write in the folder puts links where this device's log and card go:
    the sync writes neither file they lead to, says so in one line, and the decision waits
    (exit 1) until the log is a file again."""
    folder, a, b, ids = two_homes(env, tmp_path)
    own = folder / "papers-tui" / device_id(a)
    log_target, card_target = tmp_path / "precious.txt", tmp_path / "precious-card.txt"
    log_target.write_text("precious\n")
    card_target.write_text("precious\n")
    saved = (own / "triage.jsonl").read_bytes() if (own / "triage.jsonl").exists() else b""
    (own / "triage.jsonl").unlink(missing_ok=True)
    (own / "triage.jsonl").symlink_to(log_target)
    (own / "device.json").unlink()
    (own / "device.json").symlink_to(card_target)
    papers(env, a, "mark", ids[2], "starred")
    done = papers(env, a, "sync", str(folder), check=False)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "triage.jsonl: cannot write (a symbolic link, never followed)" in done.stderr
    # the star and its place in the reading queue
    assert "2 changes wait in this library to be sent" in done.stderr
    assert log_target.read_text() == card_target.read_text() == "precious\n"
    assert not (own / "device.json").is_symlink()  # its own card: the link is replaced

    (own / "triage.jsonl").unlink()
    (own / "triage.jsonl").write_bytes(saved)
    assert papers(env, a, "sync", str(folder)).returncode == 0
    papers(env, b, "sync", str(folder))
    assert statuses(env, b)[ids[2]] == "starred"


def test_another_devices_log_or_card_that_is_a_link_or_a_fifo_is_not_read(
    env: dict[str, str], tmp_path: Path
) -> None:
    """A card linked to /dev/zero once read until memory ran out; a FIFO would wait forever."""
    folder, a, _b, _ids = two_homes(env, tmp_path)
    secret = tmp_path / "secret.jsonl"
    secret.write_text("not for the folder\n")
    zero = other_device(folder, "eeee000000000003")
    (zero / "device.json").symlink_to("/dev/zero")
    (zero / "triage.jsonl").symlink_to(secret)
    if hasattr(os, "mkfifo"):
        fifo = other_device(folder, "eeee000000000004")
        os.mkfifo(fifo / "device.json")
        os.mkfifo(fifo / "triage.jsonl")
    done = papers(env, a, "sync", str(folder))
    assert "triage.jsonl: not read (a symbolic link, never followed)" in done.stderr
    status = papers(env, a, "sync", "--status", str(folder))
    assert "devices seen:" in status.stdout and "Traceback" not in status.stderr


def test_status_lines_up_cjk_names_and_survives_hostile_cards(
    env: dict[str, str], tmp_path: Path
) -> None:
    """Cards say what they like: a time no calendar holds, a time that is text, a name in
    escape codes, 5,000 characters long, in Chinese, or no text at all. The status shows
    each as one printable row, its columns where the terminal draws them."""
    folder, a, _b, _ids = two_homes(env, tmp_path)
    cards = [
        {"name": "研究室のデスクトップ", "synced": 1_700_000_000_000},
        {"name": "\x1b[31mred\x1b[0m\x07\x1b]52;c;aGk=\x07", "synced": 10**18},
        {"name": "x" * 5000, "synced": "yesterday"},
        {"name": ["not", "text"], "synced": True},
    ]
    for n, card in enumerate(cards):
        device = f"eeee00000000001{n}"
        other_device(folder, device, {"id": device, **card})
    done = papers(env, a, "sync", "--status", str(folder))
    assert "\x1b" not in done.stdout and "\x07" not in done.stdout
    lines = done.stdout.splitlines()
    rows = lines[3 : 3 + 6]
    assert lines[2] == "devices seen: 6" and len(rows) == 6
    ids = [device_id(a)[:8], *("eeee0000" for _card in cards)]
    starts = {cell_len(row[: row.index(i)]) for row in rows for i in ids if f" {i} " in row}
    assert len(starts) == 1  # the ids start in one column, whatever the names before them
    assert max(cell_len(row) for row in rows) < 140  # a name is cut at 60 characters
    assert "last seen unknown" in done.stdout and "研究室のデスクトップ" in done.stdout


def test_a_record_whose_bytes_have_not_arrived_is_read_when_they_have(
    env: dict[str, str], tmp_path: Path
) -> None:
    """A sync tool filling a file block by block leaves zeros where a block has yet to come:
    the lines across it were once skipped as damaged, their decisions never read, even once
    the block came."""
    folder = tmp_path / "synced"
    folder.mkdir()
    a, b = tmp_path / "a", tmp_path / "b"
    papers(env, a, "import", str(paper_list(tmp_path / "list.jsonl", 200)))
    papers(env, a, "sync", str(folder))
    papers(env, b, "sync", str(folder))
    ids = sorted(statuses(env, a))
    papers(env, a, "mark", *ids, "read")
    papers(env, a, "sync", str(folder))
    log = folder / "papers-tui" / device_id(a) / "triage.jsonl"
    whole = log.read_bytes()
    assert len(whole) > 2 * 4096
    log.write_bytes(whole[:4096] + b"\0" * 4096 + whole[8192:])
    done = papers(env, b, "sync", str(folder))
    assert "not fully arrived" in done.stderr and "damaged" not in done.stderr
    log.write_bytes(whole)
    papers(env, b, "sync", str(folder))
    assert statuses(env, a) == statuses(env, b)
    assert set(statuses(env, b).values()) == {"read"}


def hostile_papers(folder: Path, changes: dict[str, dict[str, object]]) -> None:
    """Papers another device sends: the first paper's record as sent, changed by ``changes``
    (each under its own paper id)."""
    log = next((folder / "papers-tui").glob("*/papers.jsonl"))
    base = orjson.loads(log.read_bytes().splitlines()[0])
    device = "eeee000000000030"
    rows = [
        ["P", base[1] + 1, device, pid, {**base[4], "id": pid, **change}]
        for pid, change in changes.items()
    ]
    path = other_device(folder, device)
    (path / "papers.jsonl").write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in rows))


def test_paper_records_with_lists_of_lists_are_refused(env: dict[str, str], tmp_path: Path) -> None:
    """One list of lists in a paper from another device (where a list of names goes) once
    stopped every sync on every device with an internal error (an unhashable list)."""
    folder, a, b, _ids = two_homes(env, tmp_path)
    nested = {
        "ffff00000000": {"lists": [["x"]]},
        "ffff00000001": {"authors": [["a", "b"]]},
        "ffff00000002": {"github": [["https://github.com/a/b"]]},
        "ffff00000003": {"keywords": [["k"]]},
    }
    hostile_papers(folder, nested)
    said = [papers(env, home, "sync", str(folder)).stderr for home in (a, b, a)]
    assert "4 paper records no paper this version takes: skipped" in said[0]
    assert "internal error" not in "".join(said)
    listed = {p["id"] for p in json.loads(papers(env, b, "list", "--json").stdout)}
    assert not set(nested) & listed
    papers(env, b, "export", "--status", "all", "--format", "json")


def test_links_an_import_refuses_are_not_taken_from_another_device(
    env: dict[str, str], tmp_path: Path
) -> None:
    """A ``javascript:`` or ``file:`` address, an option (``--help``) or two lines in one
    were stored from another device, and the Markdown export wrote them as links."""
    folder, a, b, _ids = two_homes(env, tmp_path)
    hostile_papers(
        folder,
        {
            "ffff00000010": {"url": "javascript:alert(1)"},
            "ffff00000011": {"url": "file:///etc/passwd"},
            "ffff00000012": {"url": "--help"},
            "ffff00000013": {"url": "http://127.0.0.1:9/a\nhttp://127.0.0.1:9/b"},
            "ffff00000014": {
                "url": "http://127.0.0.1:9/paper",
                "github": ["file:///etc/passwd", "--version", "https://github.com/ok/repo"],
            },
        },
    )
    for home in (a, b):
        papers(env, home, "sync", str(folder))
    listed = {p["id"]: p for p in json.loads(papers(env, b, "list", "--json").stdout)}
    assert [listed[f"ffff0000001{n}"]["url"] for n in range(4)] == ["", "", "", ""]
    assert listed["ffff00000014"]["url"] == "http://127.0.0.1:9/paper"
    assert listed["ffff00000014"]["github"] == ["https://github.com/ok/repo"]
    exported = papers(env, b, "export", "--status", "all").stdout
    for bad in ("javascript:", "file:", "--help", "--version", "b.example"):
        assert bad not in exported
    assert "(https://github.com/ok/repo)" in exported


def test_names_that_are_not_utf8_are_read_and_said_as_their_bytes(
    env: dict[str, str], tmp_path: Path
) -> None:
    """A NAS names a conflicted copy in Latin-1: every sync stopped with an internal error
    (such a name could not be written into the state), and this device's log grew by the
    same records at every run, the state never saved."""
    folder, a, b, ids = two_homes(env, tmp_path)
    other = other_device(folder, "eeee000000000020", {"id": "eeee000000000020", "name": "nas"})
    record = orjson.dumps(["s", 1_700_000_000_000, "eeee000000000020", ids[0], "skipped"])
    latin1 = os.path.join(os.fsencode(other), b"triage (conflicted copy \xe9).jsonl")
    with open(latin1, "wb") as copy:
        copy.write(record + b"\n")
    odd = os.path.join(os.fsencode(folder / "papers-tui"), b"bad\xfe")
    os.mkdir(odd)
    with open(os.path.join(odd, b"triage.jsonl"), "wb"):
        pass
    papers(env, a, "mark", ids[1], "read")
    own = folder / "papers-tui" / device_id(a) / "triage.jsonl"

    done = papers(env, a, "sync", str(folder))
    size = own.stat().st_size
    again = papers(env, a, "sync", str(folder))

    assert "internal error" not in done.stderr + again.stderr
    assert "nas (eeee0000): triage (conflicted copy \\xe9).jsonl" in done.stderr
    assert "sent nothing; received nothing" in again.stdout and own.stat().st_size == size
    papers(env, b, "sync", str(folder))
    assert statuses(env, b)[ids[0]] == "skipped" and statuses(env, b)[ids[1]] == "read"


def test_a_sync_state_of_wrong_types_starts_afresh(env: dict[str, str], tmp_path: Path) -> None:
    """A state that parses but holds ``outbox: [5]`` stopped every sync with an internal error."""
    folder, a, b, ids = two_homes(env, tmp_path)
    [state] = (a / "sync").glob("folder-*.json")
    state.write_bytes(orjson.dumps({**orjson.loads(state.read_bytes()), "outbox": [5]}))
    papers(env, a, "mark", ids[2], "skipped")
    done = papers(env, a, "sync", str(folder))
    assert "starting the sync afresh" in done.stderr and "internal error" not in done.stderr
    papers(env, b, "sync", str(folder))
    assert statuses(env, b)[ids[2]] == "skipped"
