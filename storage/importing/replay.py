"""A re-import that would change nothing, answered without reading its files again.

Importing a list the library already holds as it is (the same file, unchanged, into the same
``papers.json``) reads, cleans and matches every record only to find nothing to do: 19 s and
700 MB for 100,000 papers on this project's machine. What such an import reports depends only
on what it was given: the files' names and contents, the list name and read limits, and the
papers it met (``papers.json``'s content). So when an import changed nothing (no paper added
or updated, no decision carried, no file of a folder failed, ``papers.json`` as it was), its
report is kept in ``imports.replay`` under a key of all of those, and an import of the same
key gives that report again, read from there: hashing the files is all it costs.

The key holds ``FORMAT`` (bumped by hand when what an import does with a file changes),
``papers.json``'s content (size and SHA-256), the list name given, the read limits, and each
file's path as given and as an absolute path with its content. Only regular files are known
(a pipe is read once); a file that changed while it was read (its stamp) is not recorded; a
file whose import carried decisions (a library, our exports) is never replayed, as what they
do depends on ``triage.json``. ``imports.replay`` is derived data: anything in it that is not
as written here is ignored, and deleting it costs one full re-import.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import orjson

from storage.cache.derived import write_derived
from storage.files.atomic import FileContent, FileStamp, file_content, open_regular, stamp
from storage.models import FailedFile, ImportReport, Merge, RecordError

REPLAY_FILE: Final = "imports.replay"
#: What an import does with a file, as far as a replayed report is concerned: bumped by hand
#: when a reader, the cleaning or the matching changes what a file gives (2: two title-only
#: records of one title and two first authors are two papers; 3: a reference keeps the type
#: that keeps its file's name from giving it a year; 4: a reference in CDATA is text, a
#: folder's XML of other kinds is passed over, attached PDFs not found are said; 5: RIS's and
#: EndNote's editors and series' editors as EndNote's reference types place them; a test
#: keeps each format's fingerprint of what the readers give: tests/unit/test_replay_format.py).
FORMAT: Final = 5
_MAGIC: Final = "papers-tui imports.replay"
#: The reports kept (of the current ``papers.json``: the others cannot match again).
_KEPT: Final = 16
#: A report larger than this (thousands of merges listed) is not kept; nor is a file read.
_MAX_BYTES: Final = 4 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class ImportKey:
    """What an import was given, as far as its report goes (see the module)."""

    papers: FileContent
    list_name: str | None
    limits: tuple[int, bool]
    #: Each file: as given, as an absolute path, its stamp when first looked at.
    files: tuple[tuple[str, str, FileStamp], ...]

    @classmethod
    def of(
        cls,
        papers: FileContent,
        files: Sequence[Path],
        list_name: str | None,
        limits: tuple[int, bool],
    ) -> ImportKey | None:
        """The key of an import of these files (None: one is not a regular file)."""
        found: list[tuple[str, str, FileStamp]] = []
        for file in files:
            try:
                now = stamp(file) if file.is_file() else None
            except OSError:
                return None
            if now is None:
                return None
            found.append((str(file), os.path.abspath(file), now))
        return cls(papers, list_name, limits, tuple(found))

    def digest(self) -> str | None:
        """The hash of the key with each file's content (None: a file changed since ``of``,
        or cannot be read)."""
        contents: list[list[Any]] = []
        for given, absolute, before in self.files:
            try:
                found = file_content(Path(absolute))
            except OSError:
                return None
            if found is None or found[0] != before:
                return None
            contents.append([given, absolute, *found[1]])
        text = orjson.dumps([FORMAT, [*self.papers], self.list_name, [*self.limits], contents])
        return hashlib.sha256(text).hexdigest()

    def unchanged(self) -> bool:
        """Whether every file still has the stamp it had when first looked at."""
        return all(stamp(Path(absolute)) == before for _, absolute, before in self.files)


def replayed(home: Path, key: ImportKey) -> ImportReport | None:
    """The report kept for an import of ``key``, if there is one (the files are hashed only
    when a report of the current ``papers.json`` is kept at all)."""
    entries = _entries(home / REPLAY_FILE)
    papers = list(key.papers)
    if not any(entry.get("papers") == papers for entry in entries.values()):
        return None
    digest = key.digest()
    entry = entries.get(digest) if digest is not None else None
    if entry is None or entry.get("papers") != papers:
        return None
    report = _report_from(entry.get("report"))
    if report is not None:
        report.replayed = True
    return report


def keep(home: Path, key: ImportKey, report: ImportReport, papers_after: FileContent) -> bool:
    """Keep ``report`` for the next import of ``key`` when it changed nothing (see the
    module); True when it was kept."""
    if not _changed_nothing(report) or papers_after != key.papers or not key.unchanged():
        return False
    digest = key.digest()
    if digest is None:
        return False
    papers = list(key.papers)
    entries = {
        name: entry
        for name, entry in _entries(home / REPLAY_FILE).items()
        if entry.get("papers") == papers and name != digest
    }
    entries[digest] = {"papers": papers, "report": _report_data(report)}
    kept = dict(list(entries.items())[-_KEPT:])
    data = orjson.dumps({"magic": _MAGIC, "format": FORMAT, "entries": kept})
    if len(data) > _MAX_BYTES:
        return False
    return write_derived(home / REPLAY_FILE, [data])


def _changed_nothing(report: ImportReport) -> bool:
    return (
        not report.dry_run
        and not report.replayed
        and report.added == 0
        and report.updated == 0
        and report.carried == 0  # none restored nor differing either
        and not report.failed
    )


def _entries(path: Path) -> dict[str, dict[str, Any]]:
    """The kept reports by key digest; {} for a file that is missing or not as written here."""
    data: Any = None
    with contextlib.suppress(OSError, orjson.JSONDecodeError), open_regular(path) as handle:
        raw = handle.read(_MAX_BYTES + 1)
        if len(raw) <= _MAX_BYTES:
            data = orjson.loads(raw)
    if not (
        isinstance(data, dict)
        and data.get("magic") == _MAGIC
        and data.get("format") == FORMAT
        and isinstance(data.get("entries"), dict)
    ):
        return {}
    return {
        name: entry
        for name, entry in data["entries"].items()
        if isinstance(entry, dict)
        and isinstance(entry.get("papers"), list)
        and len(entry["papers"]) == 2
    }


# What a report holds (its fields, in ``ImportReport``'s order) as JSON, and back.
_COUNTS: Final = ("added", "updated", "skipped", "restored", "differing", "read", "containers",
                  "unlisted", "carried")  # fmt: skip
_ITEMS: Final = {"errors": RecordError, "merged": Merge, "apart": Merge, "failed": FailedFile}


def _report_data(report: ImportReport) -> dict[str, Any]:
    data: dict[str, Any] = {name: getattr(report, name) for name in _COUNTS}
    for name in _ITEMS:
        data[name] = [dataclasses.astuple(item) for item in getattr(report, name)]
    data["lists"] = list(report.lists)
    data["warnings"] = list(report.warnings)
    data["passed"] = list(report.passed)
    return data


def _report_from(data: object) -> ImportReport | None:
    """The report ``_report_data`` wrote, or None when ``data`` is not one."""
    if not isinstance(data, dict):
        return None
    report = ImportReport()
    try:
        for name in _COUNTS:
            value = data[name]
            if type(value) is not int or value < 0:
                return None
            setattr(report, name, value)
        for name, kind in _ITEMS.items():
            items = [_item(kind, fields) for fields in data[name]]
            if None in items:
                return None
            setattr(report, name, items)
        for name in ("lists", "warnings", "passed"):
            texts = data[name]
            if not (isinstance(texts, list) and all(isinstance(t, str) for t in texts)):
                return None
            setattr(report, name, list(texts))
    except (KeyError, TypeError):
        return None
    return report if report.accounted == report.read else None


#: The types of the fields of ``_ITEMS``, as their annotations name them.
_TYPES: Final = {"str": str, "int": int}


def _item(kind: type[Any], fields: object) -> Any:
    """``kind`` of these field values, or None when they are not its fields' types."""
    if not isinstance(fields, list):
        return None
    item = kind(*fields)  # TypeError: not as many
    for spec in dataclasses.fields(item):
        if type(getattr(item, spec.name)) is not _TYPES.get(str(spec.type)):
            return None
    return item
