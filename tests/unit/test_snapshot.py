"""The papers snapshot: a faster start, and never a stale or damaged view of papers.json."""

from __future__ import annotations

from pathlib import Path

import pytest

from storage import Library
from storage.errors import DamagedFileError
from storage.snapshot import SNAPSHOT_FILE


def opened(home: Path) -> tuple[Library, bool]:
    """A new Library on ``home`` with its papers read; whether it had to parse the JSON."""
    library = Library(home)
    library.papers()
    return library, library._papers_store.loaded_signature is not None


def test_the_next_open_reads_the_snapshot_and_sees_the_same(seeded_home: Path) -> None:
    (seeded_home / SNAPSHOT_FILE).unlink()  # made by the import
    first, parsed = opened(seeded_home)
    assert parsed and (seeded_home / SNAPSHOT_FILE).exists()
    second, parsed = opened(seeded_home)
    assert not parsed
    assert second.papers() == first.papers()
    assert second.lists() == first.lists()
    assert not second.papers_changed_on_disk()


def test_an_import_elsewhere_is_seen_not_the_old_snapshot(
    seeded_home: Path, tmp_path: Path
) -> None:
    reader, _ = opened(seeded_home)
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
    assert reader.papers_changed_on_disk()
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
