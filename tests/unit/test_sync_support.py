"""What the sync tests share: devices with their own HOME, what a library shows, the logs."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from storage import Library
from storage.files.papers_file import paper_to_doc
from storage.sync import SyncReport, sync_library
from storage.sync.device import load_device
from storage.sync.folder import SyncFolder
from storage.sync.records import Record

SAMPLE = Path(__file__).resolve().parents[2] / "storage" / "sample"

#: What a library shows: its papers, and the statuses, notes and tags of those papers.
Shown = tuple[dict[str, Any], dict[str, str], dict[str, str], dict[str, tuple[str, ...]]]


def shown(library: Library) -> Shown:
    """Everything a library shows of its papers (decisions of papers it no longer has are
    kept in undo steps, and not shown)."""
    papers = {p.id: paper_to_doc(p) for p in library.papers()}
    triage = library.triage()
    return (
        papers,
        {pid: s.value for pid, s in triage.statuses.items() if pid in papers},
        {pid: n for pid, n in triage.notes.items() if pid in papers},
        {pid: t for pid, t in triage.tags.items() if pid in papers},
    )


@dataclass
class Machine:
    """A device: its own HOME, its own copy of the synced folder, its own clock."""

    home: Path
    folder: Path
    skew: float = 0.0
    base: Callable[[], float] | None = None

    def __post_init__(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        self.library = Library(self.home)
        self._device = ""

    @property
    def device_id(self) -> str:
        if not self._device:
            self._device = load_device(self.home)[0].id
        return self._device

    def wall(self) -> float:
        import time

        return (self.base or time.time)() + self.skew

    def seed(self) -> None:
        """Import the 38 sample papers (as ``seeded`` does)."""
        self.library.import_files(sorted(SAMPLE.glob("*.txt")))

    def sync(self, name: str | None = None) -> SyncReport:
        report = sync_library(self.library, self.folder, name=name, wall=self.wall)
        self._device = report.device.id
        return report


def seeded(home: Path) -> Library:
    """A library holding the 38 sample papers."""
    library = Library(home)
    library.import_files(sorted(SAMPLE.glob("*.txt")))
    return library


def all_records(folder: Path) -> list[Record]:
    """Every record in every log of the folder."""
    place = SyncFolder(folder)
    found: list[Record] = []
    for log in place.log_files():
        found.extend(place.read(log, None).records)
    return found


def told_two_ways(folder: Path) -> list[tuple[str, int, str, str]]:
    """The records of the folder's logs found with two values at one stamp, device and paper
    (kind, stamp, device, paper): a device writes one value there, and every copy passed on
    or written again is that one."""
    written: dict[tuple[str, int, str, str], Any] = {}
    return [
        key
        for record in all_records(folder)
        if written.setdefault(
            key := (record.kind, record.stamp, record.device, record.paper), record.value
        )
        != record.value
    ]


def damage(log: Path, at: int) -> None:
    """The byte at ``at`` of a log turned into one no UTF-8 text holds (a disk's or a sync
    tool's damage, a line end too: two lines then one damaged line), later than its writer's
    last append: its modification time moves on, as any later write's does (a file system
    whose clock ticks coarsely may not have ticked yet in a test)."""
    before = log.stat()
    body = bytearray(log.read_bytes())
    body[at] = 0xFF
    log.write_bytes(bytes(body))
    if log.stat().st_mtime_ns == before.st_mtime_ns:
        os.utime(log, ns=(before.st_atime_ns, before.st_mtime_ns + 1_000_000))


def copy_folder(source: Path, target: Path) -> None:
    """What a sync tool does, all at once: the target holds the source's files."""
    for path in sorted(source.rglob("*")):
        if path.is_file():
            dest = target / path.relative_to(source)
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, dest)


def one_list_on_each(home: Path) -> tuple[Library, Library, dict[str, set[str]]]:
    """Two devices, the first sample file imported into list A on one, both files into list
    B on the other; and each paper's lists after both imports on one device."""
    first, *rest = sorted(SAMPLE.glob("*.txt"))
    one, other, both = Library(home / "a"), Library(home / "b"), Library(home / "c")
    one.import_files([first], list_name="A")
    other.import_files([first, *rest], list_name="B")
    both.import_files([first], list_name="A")
    both.import_files([first, *rest], list_name="B")
    return one, other, {p.id: set(p.lists) for p in both.papers()}
