"""The papers snapshot: a faster start, and never a stale or damaged view of papers.json."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from storage import Library
from storage.errors import DamagedFileError, NewerFileError
from storage.files import signature
from storage.library import _PAPER_FIELDS, PAPERS_SCHEMA, _paper_row
from storage.snapshot import SNAPSHOT_FILE, Snapshot, write_snapshot


def opened(home: Path) -> tuple[Library, bool]:
    """A new Library on ``home`` with its papers read; whether it had to parse the JSON."""
    library = Library(home)
    library.papers()
    return library, not library._papers_store.changed_on_disk()  # it read papers.json


def test_the_next_open_reads_the_snapshot_and_sees_the_same(seeded_home: Path) -> None:
    (seeded_home / SNAPSHOT_FILE).unlink()  # made by the import
    first, parsed = opened(seeded_home)
    assert parsed and (seeded_home / SNAPSHOT_FILE).exists()
    second, parsed = opened(seeded_home)
    assert not parsed
    assert second.papers() == first.papers()
    assert second.lists() == first.lists()
    papers, version = second.versioned_papers()
    assert papers == first.papers() and not second.papers_changed_since(version)


def test_an_import_elsewhere_is_seen_not_the_old_snapshot(
    seeded_home: Path, tmp_path: Path
) -> None:
    reader, _ = opened(seeded_home)
    _, version = reader.versioned_papers()
    extra = tmp_path / "more.txt"
    extra.write_text(
        "More papers\n\nWe study a new problem in depth and propose a method that solves it "
        "well; experiments on many benchmarks show large gains over strong baselines.\n",
        encoding="utf-8",
    )
    snapshot = (seeded_home / SNAPSHOT_FILE).read_bytes()
    Library(seeded_home).import_file(extra)
    assert (seeded_home / SNAPSHOT_FILE).read_bytes() != snapshot  # the import made a new one
    (seeded_home / SNAPSHOT_FILE).write_bytes(snapshot)  # as if made by an older version
    after, parsed = opened(seeded_home)
    assert parsed and len(after.papers()) == 39
    assert [info.name for info in after.lists()][-1] == "More papers"
    assert reader.papers_changed_since(version)
    assert len(reader.papers()) == 39
    assert not opened(seeded_home)[1]  # and the snapshot was made again


@pytest.mark.parametrize(
    "damage",
    [b"", b"papers-tui snapshot\n", b"papers-tui snapshot\n\0\0\0\0garbage", b"\x80" * 64],
)
def test_a_damaged_snapshot_is_ignored_and_made_again(seeded_home: Path, damage: bytes) -> None:
    expected = opened(seeded_home)[0].papers()
    (seeded_home / SNAPSHOT_FILE).write_bytes(damage)
    library, parsed = opened(seeded_home)
    assert parsed and library.papers() == expected
    assert not opened(seeded_home)[1]


def test_a_torn_snapshot_is_ignored(seeded_home: Path) -> None:
    expected = opened(seeded_home)[0].papers()
    path = seeded_home / SNAPSHOT_FILE
    path.write_bytes(path.read_bytes()[:-100])
    library, parsed = opened(seeded_home)
    assert parsed and library.papers() == expected


def test_a_damaged_papers_file_is_reported_despite_a_snapshot(seeded_home: Path) -> None:
    opened(seeded_home)
    (seeded_home / "papers.json").write_bytes(b'{"papers": {"1": ')
    with pytest.raises(DamagedFileError):
        Library(seeded_home).papers()


def test_no_snapshot_where_it_cannot_be_written(seeded_home: Path) -> None:
    (seeded_home / SNAPSHOT_FILE).unlink()
    (seeded_home / SNAPSHOT_FILE).mkdir()  # a folder in its place: writing it fails
    library, parsed = opened(seeded_home)
    assert parsed and len(library.papers()) == 38
    assert not list(seeded_home.glob(f".{SNAPSHOT_FILE}*"))  # no temporary file left


def test_a_snapshot_by_a_newer_reader_does_not_open_a_newer_file(seeded_home: Path) -> None:
    """A newer papers-tui's papers.json (and its snapshot) is refused, not read."""
    library, _ = opened(seeded_home)
    rows = [_paper_row(p) for p in library.papers()]
    papers_path = seeded_home / "papers.json"
    tables = json.loads(papers_path.read_text(encoding="utf-8"))
    tables["meta"]["1"]["schema"] = PAPERS_SCHEMA + 1
    papers_path.write_text(json.dumps(tables), encoding="utf-8")
    sig = signature(papers_path)
    assert sig is not None
    write_snapshot(
        seeded_home / SNAPSHOT_FILE,
        sig,
        PAPERS_SCHEMA + 1,
        _PAPER_FIELDS,
        Snapshot(rows, tables["lists"]),
    )
    with pytest.raises(NewerFileError):
        Library(seeded_home).papers()


def test_temporaries_of_killed_writers_are_swept(seeded_home: Path) -> None:
    old = seeded_home / f".{SNAPSHOT_FILE}.dead.tmp"
    fresh = seeded_home / f".{SNAPSHOT_FILE}.busy.tmp"
    for leftover in (old, fresh):
        leftover.write_bytes(b"half a snapshot")
    os.utime(old, (time.time() - 3600, time.time() - 3600))
    (seeded_home / SNAPSHOT_FILE).unlink()
    opened(seeded_home)  # writes the snapshot
    assert not old.exists()
    assert fresh.exists()  # may be another process writing right now
