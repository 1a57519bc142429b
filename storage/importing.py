"""Importing: what readers read, matched with the papers already in the library, and stored.

An import runs in three steps:

1. ``gather``: every record cleaned into a paper (links, a title, a venue, the id its text
   gives it), outside any lock: this is the slow part, and it does not depend on the library.
   Files are read as they are cleaned (a large JSON Lines list line by line), so that memory
   holds the papers, not the records and the text they came from as well;
2. ``resolve``: under the lock, each candidate matched with the papers known (the library's
   and the import's own), by the rules of ``storage.identity``: the same abstract and a
   compatible title, or, for a record without an abstract, the same title. A match merges
   into the paper; a paper sharing its abstract with a different one gets an id that also
   takes its title. The report says what was merged, and why;
3. ``store``: the papers written to ``papers.json`` in one transaction, and the decisions the
   file carries (our own exports, a library) given to the papers still in the Inbox
   (``take_theirs``: to every paper) in one transaction of ``triage.json``.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import islice
from typing import TYPE_CHECKING, Any, NamedTuple

from storage.errors import SourceError
from storage.identity import (
    abstract_identity,
    id_of_placeholder,
    id_of_title,
    id_with_title,
    is_placeholder_title,
    title_key,
    titles_compatible,
)
from storage.models import Decision, ImportReport, Merge, Paper, Status
from storage.sources.fields import merge_extra
from storage.triage import doc_id, now

if TYPE_CHECKING:  # the readers load when a list is read: opening a library needs none
    from storage.sources.papers import Catalog
    from storage.sources.records import ReadResult, RecordStream, SourceRecord

#: Called with (records done, records in all) while an import runs.
Progress = Callable[[int, int], None]


def unique_links(links: Iterable[str]) -> tuple[str, ...]:
    """Links without repeats, in order: GitHub names are case-insensitive, so ``Owner/Repo``
    and ``owner/repo`` are one repository (the first spelling is kept)."""
    seen: dict[str, str] = {}
    for link in links:
        seen.setdefault(link.casefold(), link)
    return tuple(seen.values())


def _reads_alike(old: str, new: str) -> bool:
    """Whether two texts of a field read the same (our exports write the display form of a
    title, LaTeX as Unicode, ``ﬁ`` as ``fi``): then the text the library holds is kept."""
    if old == new:
        return True
    from storage.text.latex import to_unicode  # only when the texts differ

    def shown(text: str) -> str:  # invisible format characters (U+200B) are not written
        return "".join(
            c for c in unicodedata.normalize("NFKC", to_unicode(text)) if c.isprintable()
        )

    return shown(old) == shown(new)


def merge_paper(old: Paper, new: Paper) -> Paper:
    """The stored paper after importing ``new`` over ``old``: metadata updated, place kept.

    A real title beats a derived one; empty fields never wipe known ones, nor does a text that
    reads the same (the display form our exports write: ``_reads_alike``); links, lists and
    extra fields are merged; the paper keeps its first list and, within that list, takes its
    new position; an abstract fills a paper known by its title alone.
    """
    keep_title = (
        (new.title_derived and not old.title_derived)
        or not new.title
        or (new.title_derived == old.title_derived and _reads_alike(old.title, new.title))
    )
    same_list = new.list == old.list
    same_abstract = not new.abstract or _reads_alike(old.abstract, new.abstract)
    same_authors = not new.authors or (
        len(new.authors) == len(old.authors) and all(map(_reads_alike, old.authors, new.authors))
    )
    return replace(
        old,
        title=old.title if keep_title else new.title,
        title_derived=old.title_derived if keep_title else new.title_derived,
        name=old.name if keep_title else (new.name or old.name),
        abstract=old.abstract if same_abstract else new.abstract,
        authors=old.authors if same_authors else new.authors,
        github=unique_links(old.github + new.github),
        url=new.url or old.url,
        keywords=new.keywords or old.keywords,
        venue_status=new.venue_status or old.venue_status,
        position=new.position if same_list else old.position,
        lists=tuple(dict.fromkeys(old.lists + new.lists)),
        venue=new.venue or old.venue,
        extra=merge_extra(old.extra, new.extra),
    )


@dataclass(frozen=True, slots=True)
class Candidate:
    """A record of the import, cleaned into a paper, before it is matched with the library.

    The paper has the id its text gives it (``id_of_abstract``, or ``id_of_title`` for a paper
    known by its title): the one it keeps unless matching says otherwise.
    """

    paper: Paper
    #: The file it came from (a list remembers where each of its files starts).
    source: str
    #: Whether its abstract has an identity (``abstract_identity``); else it is known by its
    #: title. The identity itself is made again in the rare case it is needed (a paper that
    #: shares its abstract with another): 100,000 of them would hold 100 MB.
    by_abstract: bool
    decision: Decision | None
    #: Where the record is in its file (``SourceRecord.number``), for the report.
    number: int = 0


@dataclass(slots=True)
class Incoming:
    """A paper of the import, matched: what is stored, where it came from, its decision."""

    paper: Paper
    source: str
    decision: Decision | None
    #: The record it came from is in the report already (merged into a stored paper under
    #: another form, or kept apart): ``store`` does not count it again.
    counted: bool = False


def _doc_key(pid: str) -> str:
    return str(doc_id(pid))


def _real_title(title: str, derived: bool) -> str:
    """The title a paper is matched by: none when derived, or a placeholder ("withdrawn")."""
    return "" if derived or is_placeholder_title(title) else title


class _Known:
    """The papers an import matches against: the library's (stored documents) and its own.

    Titles are indexed only when a lookup by title needs them (a record without an abstract,
    or an abstract new to a library holding papers without one): an import of new papers
    with abstracts computes no title key.
    """

    def __init__(self, stored: Mapping[str, Mapping[str, Any]]) -> None:
        self.stored = stored
        self.incoming: dict[str, Incoming] = {}
        self._titles: dict[str, str] = {}  # title key → id, every titled paper
        self._untitled: dict[str, str] = {}  # title key → id, papers without an abstract
        self._pending: list[tuple[str, str, bool]] = []  # (title, id, has abstract) to index
        self._stored_indexed = False
        self._without_abstract = sum(1 for doc in stored.values() if not doc["abstract"])

    def get(self, pid: str) -> tuple[str, str] | None:
        """(real title, abstract) of a known paper, or None."""
        found = self.incoming.get(pid)
        if found is not None:
            p = found.paper
            return _real_title(p.title, p.title_derived), p.abstract
        doc = self.stored.get(_doc_key(pid))
        if doc is None:
            return None
        return _real_title(doc["title"], doc.get("title_derived", False)), doc["abstract"]

    def _index(self) -> None:
        if not self._stored_indexed:
            self._stored_indexed = True
            for doc in self.stored.values():
                title = _real_title(doc["title"], doc.get("title_derived", False))
                if title:
                    self._pending.append((title, doc["id"], bool(doc["abstract"])))
        for title, pid, has_abstract in self._pending:
            tkey = title_key(title)
            self._titles.setdefault(tkey, pid)
            if not has_abstract:
                self._untitled.setdefault(tkey, pid)
        self._pending.clear()

    def by_title(self, title: str, *, without_abstract: bool) -> str | None:
        """A known paper of this title (only one known without an abstract, if asked)."""
        if without_abstract and not self._without_abstract:
            return None
        self._index()
        return (self._untitled if without_abstract else self._titles).get(title_key(title))

    def add(self, entry: Incoming) -> None:
        """Record a paper of the import (its title indexed for the records after it)."""
        paper = entry.paper
        self.incoming[paper.id] = entry
        title = _real_title(paper.title, paper.title_derived)
        if title:
            self._pending.append((title, paper.id, bool(paper.abstract)))
            self._without_abstract += not paper.abstract


#: ``_resolve_id``'s reason for a record kept apart (reported there).
_APART = "\x00apart"


def _resolve_id(known: _Known, cand: Candidate, report: ImportReport) -> tuple[str, str]:
    """The id a candidate takes, and why it joins a known paper ("" when nothing says;
    ``_APART`` for a record kept apart from a paper sharing its abstract)."""
    paper = cand.paper
    title = _real_title(paper.title, paper.title_derived)
    if cand.by_abstract:
        pid = paper.id
        found = known.get(pid)
        if found is not None and not titles_compatible(found[0], title):
            identity = abstract_identity(paper.abstract)
            assert identity is not None  # as when the candidate was made
            apart = id_with_title(identity, title)
            if known.get(apart) is None:  # said once, when the paper is first met
                why = f"shares its abstract with {pid} ({found[0][:60]}), not its title"
                report.apart.append(
                    Merge(apart, paper.display_title, why, found[0], cand.source, cand.number)
                )
                return apart, _APART
            return apart, ""
        if found is not None:
            same = _reads_alike(found[1], paper.abstract)  # an export's display form too
            return pid, "" if same else "the same abstract, written differently"
        if title:
            other = known.by_title(title, without_abstract=True)
            if other is not None:
                return other, "the same title; the paper had no abstract"
        return pid, ""
    other = known.by_title(title, without_abstract=False)
    if other is not None:
        return other, "the same title; the record has no abstract"
    return paper.id, ""


def resolve(
    candidates: Sequence[Candidate],
    stored: Mapping[str, Mapping[str, Any]],
    report: ImportReport,
) -> dict[str, Incoming]:
    """Match the candidates with the library's papers and with each other (see the module).

    Records with an abstract are matched first, then those known by their title alone, so
    that a paper's id is the same whichever of the import's files came first (a BibTeX file
    of titles before or after the list of abstracts); the papers keep the order the records
    came in.
    """
    known = _Known(stored)
    reordered = not all(c.by_abstract for c in candidates)
    first: dict[str, int] = {}  # paper id → the place of its first record (when reordered)
    order: Iterable[int] = range(len(candidates))
    if reordered:
        order = sorted(order, key=lambda i: not candidates[i].by_abstract)
    for place in order:
        cand = candidates[place]
        pid, reason = _resolve_id(known, cand, report)
        if reordered:
            first[pid] = min(first.get(pid, place), place)
        paper = cand.paper if cand.paper.id == pid else replace(cand.paper, id=pid)
        entry = known.incoming.get(pid)
        if entry is not None:  # twice in this import: one paper
            if reason or entry.paper.abstract != paper.abstract:
                why = reason or "the same abstract, written differently"
            else:
                why = "the same paper twice in the import"
            joined = entry.paper.display_title
            report.merged.append(
                Merge(pid, paper.display_title, why, joined, cand.source, cand.number)
            )
            entry.paper = merge_paper(entry.paper, replace(paper, position=entry.paper.position))
            entry.decision = cand.decision or entry.decision
            continue
        counted = bool(reason)
        if reason and reason != _APART:
            found = known.get(pid)
            joined = found[0] if found is not None else ""
            report.merged.append(
                Merge(pid, paper.display_title, reason, joined, cand.source, cand.number)
            )
        known.add(Incoming(paper, cand.source, cand.decision, counted))
    if not reordered:
        return known.incoming
    return dict(sorted(known.incoming.items(), key=lambda item: first[item[0]]))


def store(
    stored: Mapping[str, Mapping[str, Any]],
    papers: dict[str, Any],
    lists: dict[str, Any],
    incoming: Mapping[str, Incoming],
    report: ImportReport,
    converters: tuple[Callable[[Paper], dict[str, Any]], Callable[[Mapping[str, Any]], Paper]],
) -> None:
    """Write the matched papers into the transaction's ``papers`` and ``lists`` tables.

    ``stored`` is the papers table as it was; ``converters``, how a paper becomes a
    document of ``papers.json`` and back.
    """
    to_doc, from_doc = converters
    known_files = {
        doc["name"]: set(doc.get("sources") or ()) for doc in lists.values() if "name" in doc
    }
    bases = file_bases(stored, lists, files_of(incoming))
    for pid, entry in incoming.items():
        key = _doc_key(pid)
        base = bases[(entry.paper.list, entry.source)]
        paper = entry.paper
        if base:
            paper = replace(paper, position=base + paper.position)
        old_doc = stored.get(key)
        counts = not entry.counted  # else the report has it (merged, kept apart)
        if old_doc is None:
            report.added += counts
            papers[key] = to_doc(paper)
            continue
        old = from_doc(old_doc)
        if entry.source not in known_files.get(old.list, ()):
            # a file new to the paper's list (an export of it, another list naming it): the
            # paper keeps its place; re-importing one of the list's own files reorders it
            paper = replace(paper, position=old.position)
        merged = merge_paper(old, paper)
        if merged == old:
            report.skipped += counts
        else:
            report.updated += counts
            papers[key] = to_doc(merged)
    list_sizes(papers, lists)


def _next_positions(stored: Mapping[str, Mapping[str, Any]]) -> dict[str, int]:
    free: dict[str, int] = {}
    for doc in stored.values():
        free[doc["list"]] = max(free.get(doc["list"], 0), doc["position"] + 1)
    return free


def file_bases(
    stored: Mapping[str, Mapping[str, Any]],
    lists: dict[str, Any],
    files: Sequence[tuple[str, str, int]],
) -> dict[tuple[str, str], int]:
    """Where each imported file's papers start in each list, recording new lists and files.

    ``files`` holds ``(list name, file, papers of that list in it)``. A list remembers the
    position each of its files starts at: re-importing a file keeps its place, and a new file
    of a list already here goes after the papers already there. ``lists`` (the transaction's
    table) gains the new lists and files.
    """
    by_name = {doc["name"]: key for key, doc in lists.items()}
    next_free = _next_positions(stored)
    bases: dict[tuple[str, str], int] = {}
    for name, source, count in files:
        if name not in by_name:
            by_name[name] = str(max((int(k) for k in lists), default=0) + 1)
            lists[by_name[name]] = {"name": name, "sources": {}, "at": round(now())}
        key = by_name[name]
        sources = lists[key].get("sources")
        sources = dict(sources) if isinstance(sources, dict) else {}
        if source not in sources:
            sources[source] = next_free.get(name, 0)
            next_free[name] = sources[source] + count
        lists[key] = {**lists[key], "sources": sources, "at": round(now())}
        bases[(name, source)] = sources[source]
    return bases


def list_sizes(papers: Mapping[str, Mapping[str, Any]], lists: dict[str, Any]) -> None:
    """Set each list's ``size``: the papers in it (a paper counts in every list it is in)."""
    sizes: dict[str, int] = {}
    for doc in papers.values():
        for name in doc.get("lists") or (doc["list"],):
            sizes[name] = sizes.get(name, 0) + 1
    for key, doc in list(lists.items()):
        lists[key] = {**doc, "size": sizes.get(doc["name"], 0)}


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


def take_decisions(
    decisions: Mapping[str, dict[str, Any]],
    carried: Sequence[tuple[str, Decision]],
    take_theirs: bool,
    report: ImportReport,
) -> list[tuple[str, Status, Status]]:
    """Give the carried decisions to the papers still in the Inbox (``take_theirs``: to all).

    ``decisions`` (paper id → its document, as ``Library._decision_docs`` gives them) are
    changed in place; returns the status changes made. A paper decided otherwise in the
    library keeps its decision and counts in ``report.differing``.
    """
    changes: list[tuple[str, Status, Status]] = []
    for pid, theirs in carried:
        doc = decisions[pid]
        ours = Status(doc.get("status", "inbox"))
        same = (
            ours is theirs.status
            and doc.get("note", "") == theirs.note
            and tuple(doc.get("tags", ())) == theirs.tags
        )
        if same:
            continue
        if ours is not Status.INBOX and not take_theirs:
            report.differing += 1
            continue
        if theirs.status is not ours:
            changes.append((pid, ours, theirs.status))
            doc["status"] = theirs.status.value
            doc["at"] = round(theirs.at) if theirs.at is not None else round(now())
        if take_theirs:
            doc["note"], doc["tags"] = theirs.note, list(theirs.tags)
        else:  # a note or tags of the library are kept; the file fills what is empty
            doc["note"] = doc.get("note") or theirs.note
            doc["tags"] = list(dict.fromkeys([*doc.get("tags", ()), *theirs.tags]))
        report.restored += 1
    return changes


class _Placed(NamedTuple):
    """A record of the import and its place: its lists, its position, the file it came from."""

    record: SourceRecord
    lists: tuple[str, ...]
    position: int
    source: str


def candidate(
    record: SourceRecord,
    list_name: str,
    lists: tuple[str, ...],
    position: int,
    source: str,
    abstract_id: str | None,
) -> Candidate:
    """A record cleaned into a paper (its id still to be matched with the library's);
    ``abstract_id`` is that of its abstract (``storage.abstract_ids``), None for none."""
    from storage.sources.papers import build_paper  # the title deriver loads when used

    if abstract_id is not None:
        paper = build_paper(record, list_name, position, abstract_id, lists)
    else:
        paper = build_paper(record, list_name, position, "0" * 12, lists)
        title = _real_title(paper.title, paper.title_derived)
        if title:
            paper = replace(paper, id=id_of_title(title))
        else:  # a placeholder ("withdrawn"): known by its link and authors
            paper = replace(paper, id=id_of_placeholder(paper.title, paper.url, paper.authors))
    return Candidate(paper, source, abstract_id is not None, record.decision, record.number)


#: Streams of this many bytes in all (some 10,000 papers) are worth a second process for the
#: ids of their abstracts (``storage.abstract_ids``), which takes a fraction of a second to start.
SECOND_PROCESS_BYTES = 16 * 1024**2


def gather(
    sources: Sequence[ReadResult | RecordStream],
    catalog: Catalog | None,
    list_name: str | None,
    report: ImportReport,
    progress: Progress | None = None,
) -> list[Candidate]:
    """Every record of ``sources`` cleaned into a candidate, in order (step 1); the records
    that could not be used go to ``report.errors``, the lists met to ``report.lists``.

    A record takes the lists it names (our exports), else ``list_name``, else its file's list;
    its position counts within its file and first list. ``SourceError`` when no record is
    usable.
    """
    from storage.abstract_ids import BATCH, with_ids
    from storage.sources.records import RecordStream

    streamed = sum(s.size for s in sources if isinstance(s, RecordStream))
    placed = _placed(sources, catalog, list_name, report, progress)
    batches = iter(lambda: list(islice(placed, BATCH)), [])
    candidates: list[Candidate] = []
    found = with_ids(
        batches,
        lambda batch: [p.record.abstract for p in batch],
        second_process=streamed >= SECOND_PROCESS_BYTES,
    )
    for batch, ids in found:
        for (record, lists, position, source), pid in zip(batch, ids, strict=True):
            candidates.append(candidate(record, lists[0], lists, position, source, pid))
    if not candidates:
        first = f": {report.errors[0]}" if report.errors else ""
        raise SourceError(f"no papers found to import{first}")
    return candidates


def _placed(
    sources: Sequence[ReadResult | RecordStream],
    catalog: Catalog | None,
    list_name: str | None,
    report: ImportReport,
    progress: Progress | None,
) -> Iterator[_Placed]:
    """The records of ``sources`` (enriched from the catalog) in their places (see ``gather``)."""
    from storage.sources.papers import enrich

    total = sum(source.expected() for source in sources) if progress is not None else 0
    done = 0
    for result in sources:
        before = done
        positions: dict[str, int] = {}  # within the file, by list; the file's place is added
        for record in result.records:
            if progress is not None and done % 200 == 199:
                progress(done + 1, total)
            done += 1
            entry = catalog.find(record) if catalog else None
            record = record if entry is None else enrich(record, entry)
            lists = record.lists if record.lists and not list_name else ()
            lists = lists or (list_name or result.list_name,)
            for name in lists:
                if name not in report.lists:
                    report.lists.append(name)
            position = positions.get(lists[0], 0)
            positions[lists[0]] = position + 1
            yield _Placed(record, lists, position, result.source)
        report.errors.extend(result.errors)  # a stream's, once it is read
        report.unlisted += result.unlisted
        report.warnings.extend(result.warnings)
        report.containers += result.containers
        report.read += done - before + len(result.errors) + result.unlisted + result.containers
