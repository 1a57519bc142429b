"""A place in the queue that arrives before its star (a log cut between the two records)."""

from __future__ import annotations

from pathlib import Path

from storage import Library
from storage.sync import sync_library
from storage.sync.records import QUEUE, parse_record
from tests.unit.test_sync_support import seeded


def test_a_place_that_arrives_before_its_star_is_kept_not_taken_back(tmp_path: Path) -> None:
    folder = tmp_path / "synced"
    folder.mkdir()
    laptop = seeded(tmp_path / "laptop")
    ids = [p.id for p in laptop.papers()]
    sync_library(laptop, folder)
    desktop = Library(tmp_path / "desktop")
    sync_library(desktop, folder)
    laptop.set_statuses(ids[:3], "starred")
    laptop.move_in_queue(ids[2], "top")
    sync_library(laptop, folder)
    order = laptop.queue()
    log = next(folder.rglob("triage.jsonl"))
    whole = log.read_bytes()
    lines = whole.splitlines(keepends=True)
    # the sync tool has delivered the log up to a star's place, not the star itself
    first_place = min(i for i, line in enumerate(lines) if line.startswith(b'["q"'))
    cut = len(b"".join(lines[: first_place + 1])) + 10
    log.write_bytes(whole[:cut])
    sync_library(desktop, folder)
    sync_library(desktop, folder)  # nothing decided on the desktop: nothing of its own to send
    log.write_bytes(whole)  # the rest arrives
    sync_library(desktop, folder)
    sync_library(desktop, folder)
    sync_library(laptop, folder)
    sent_by_desktop = [
        parse_record(line)
        for path in folder.rglob("triage.jsonl")
        if path.parent != log.parent
        for line in path.read_bytes().splitlines()
    ]
    assert [r for r in sent_by_desktop if r is not None and r.kind == QUEUE] == []
    assert laptop.queue() == order
    assert desktop.queue() == order
