"""Step 3 of an import: the matched papers into ``papers.json``, carried decisions found."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import replace

from storage.files.papers_file import PapersChange
from storage.importing.resolve import Incoming, merge_paper
from storage.models import Decision, ImportReport


def store(change: PapersChange, incoming: Mapping[str, Incoming], report: ImportReport) -> None:
    """Write the matched papers in ``change`` (one change of ``papers.json``): new papers
    added, known ones merged (``merge_paper``), each file's papers placed after those of its
    list already there (``PapersChange.file_bases``)."""
    known_files = change.list_files()  # before this import registers its own
    bases = change.file_bases(files_of(incoming))
    for pid, entry in incoming.items():
        base = bases[(entry.paper.list, entry.source)]
        paper = entry.paper
        if base:
            paper = replace(paper, position=base + paper.position)
        old = change.paper(pid)
        counts = not entry.counted  # else the report has it (merged, kept apart)
        if old is None:
            report.added += counts
            change.put(paper)
            if paper.extra and paper.fact("file"):
                report.attached.append(paper)
            continue
        if entry.source not in known_files.get(old.list, ()):
            # a file new to the paper's list (an export of it, another list naming it): the
            # paper keeps its place; re-importing one of the list's own files reorders it
            paper = replace(paper, position=old.position)
        merged = merge_paper(old, paper)
        if merged.extra and merged.fact("file"):  # its copy made again if it went meanwhile
            report.attached.append(merged)
        if merged == old:
            report.skipped += counts
        else:
            report.updated += counts
            change.put(merged)


def files_of(incoming: Mapping[str, Incoming]) -> list[tuple[str, str, int]]:
    """``(list, file, papers)`` of the import, in import order (see ``file_bases``); every list
    a paper is in is registered, the lists it only joins with no papers of their own."""
    counts: dict[tuple[str, str], int] = {}
    for entry in incoming.values():  # first lists first: the order papers are listed in
        pair = (entry.paper.list, entry.source)
        counts[pair] = counts.get(pair, 0) + 1
    for entry in incoming.values():
        for name in entry.paper.lists:
            counts.setdefault((name, entry.source), 0)
    return [(name, source, n) for (name, source), n in counts.items()]


def iter_decisions(
    incoming: Mapping[str, Incoming],
) -> Iterator[tuple[str, Decision]]:
    """The decisions the import carries, by paper id."""
    for pid, entry in incoming.items():
        if entry.decision is not None:
            yield pid, entry.decision
