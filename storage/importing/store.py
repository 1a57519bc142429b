"""Step 3 of an import: the matched papers into ``papers.json``, carried decisions found."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from typing import Any

from storage.files.papers_file import PapersChange
from storage.files.triage_model import doc_id
from storage.importing.authority import SNAPSHOT, held_rank, overruled, said
from storage.importing.departed import mark_departed
from storage.importing.resolve import Incoming, merge_paper
from storage.models import Decision, ImportReport, Paper


def store(
    change: PapersChange,
    incoming: Mapping[str, Incoming],
    report: ImportReport,
    whole: Sequence[tuple[str, str, bool, str]] = (),
) -> None:
    """Write the matched papers in ``change`` (one change of ``papers.json``): new papers
    added, known ones merged (``merge_paper``), each file's papers placed after those of its
    list already there (``PapersChange.file_bases``).

    A paper whose only change is its place (``position``: its list's order) is not counted
    updated, as nothing of it changed: a fetch whose decisions moved 50 papers up among the
    accepted moves the 320 after them too. Its new place is stored when it changes the order
    of its list (the list stays in its source's order, no two papers sharing a place), not
    when every paper only shifts by the same amount (a library's own ``papers.json``
    imported into itself again: its file starts after the list's papers): nothing to write.

    ``whole``: ``(source, list name, every submission, parts refused)`` of the results that
    hold every accepted paper of their source (and every submission, ``--all``; the parts of
    it the source refused, ``ReadResult.refused``): a paper of it stored before as accepted
    and not brought now as such is marked (``departed``)."""
    known_files = change.list_files()  # before this import registers its own
    bases = change.file_bases(files_of(incoming))
    placed: dict[str, Paper] = {}  # stored by this import, by paper id
    moved: dict[str, Paper] = {}  # papers whose only change is their place
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
            placed[pid] = paper
            if paper.extra and paper.fact("file"):
                report.attached.append(paper)
            continue
        if entry.authority == SNAPSHOT:  # what a more authoritative record said is kept
            paper, differ = overruled(old, held_rank(old, known_files), paper, SNAPSHOT)
            if differ:
                entry.overruled.append((entry.source, differ))
        if entry.source not in known_files.get(old.list, ()):
            # a file new to the paper's list (an export of it, another list naming it): the
            # paper keeps its place; re-importing one of the list's own files reorders it
            paper = replace(paper, position=old.position)
        merged = merge_paper(old, paper)
        if merged.extra and merged.fact("file"):  # its copy made again if it went meanwhile
            report.attached.append(merged)
        if merged == old:
            report.skipped += counts
        elif replace(merged, position=old.position) == old:
            report.skipped += counts
            moved[pid] = merged
        else:
            report.updated += counts
            change.put(merged)
            placed[pid] = merged
    brought = {pid: entry.paper.venue_status for pid, entry in incoming.items()}
    mark_departed(change, brought, whole, known_files, report)
    report.warnings.extend(said([d for entry in incoming.values() for d in entry.overruled]))
    if moved and _reorders(change.stored, placed, moved):
        for paper in moved.values():
            change.put(paper)


def _reorders(
    stored: Mapping[str, Mapping[str, Any]], placed: Mapping[str, Paper], moved: Mapping[str, Paper]
) -> bool:
    """Whether the places of ``moved`` change the order of their lists, the papers ``placed``
    stored already: the lists ordered as ``papers.json`` orders them (by position, then as
    the file holds them)."""
    names = {paper.list for paper in moved.values()}
    places = {key: (doc["list"], doc["position"]) for key, doc in stored.items()}
    places.update({str(doc_id(pid)): (paper.list, paper.position) for pid, paper in placed.items()})
    after = dict(places)
    after.update({str(doc_id(pid)): (paper.list, paper.position) for pid, paper in moved.items()})

    def order(found: Mapping[str, tuple[str, int]]) -> list[str]:
        kept = [((name, place), key) for key, (name, place) in found.items() if name in names]
        return [key for _, key in sorted(kept, key=lambda item: item[0])]  # stable: file order

    return order(places) != order(after)


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
