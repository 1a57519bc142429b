"""The library: imported papers and their triage, in two TinyDB files in HOME.

``papers.json`` is written on import only; ``triage.json`` on every decision, so that a
keystroke never rewrites the large file. Both go through ``AtomicJSONStorage``: atomic,
locked, re-read before every change.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date, timedelta
from operator import attrgetter
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, cast

from tinydb import TinyDB
from tinydb.table import Document, Table

from storage.errors import SourceError, UnknownPaperError
from storage.files import AtomicJSONStorage, FileSignature, HomeLock, Tables, signature
from storage.models import ImportReport, Paper, Status
from storage.snapshot import SNAPSHOT_FILE, Snapshot, read_snapshot, write_snapshot
from storage.triage import (
    HISTORY_CHANGES_LIMIT,
    HISTORY_LIMIT,
    Change,
    DayCount,
    Step,
    TriageSnapshot,
    count_day,
    days_from_tables,
    doc_id,
    normalise_tags,
    now,
    snapshot_from_tables,
)
from storage.triage import (
    SCHEMA as TRIAGE_SCHEMA,
)

#: Called with (records done, records in all) while an import runs.
Progress = Callable[[int, int], None]

if TYPE_CHECKING:  # the readers are imported when a list is: opening a library needs none
    from storage.sources.papers import Catalog
    from storage.sources.records import ReadResult

PAPERS_SCHEMA = 1
PAPERS_FILE = "papers.json"
TRIAGE_FILE = "triage.json"
LOCK_FILE = ".lock"

_PAPER_FIELDS = (
    "id", "title", "abstract", "authors", "github", "url", "keywords",
    "venue_status", "list", "position", "title_derived", "name", "lists",
)  # fmt: skip
_TUPLE_FIELDS = frozenset({"authors", "github", "keywords", "lists"})


def paper_to_doc(paper: Paper) -> dict[str, Any]:
    """A paper as stored in ``papers.json``."""
    return {
        name: list(value) if name in _TUPLE_FIELDS else value
        for name in _PAPER_FIELDS
        for value in (getattr(paper, name),)
    }


_paper_row = attrgetter(*_PAPER_FIELDS)  # a paper's fields, in order (what Paper(*row) takes)


class _Loaded(NamedTuple):
    """The papers of one version of ``papers.json``."""

    sig: FileSignature | None
    papers: list[Paper]
    by_id: dict[str, Paper]
    lists: dict[str, Any]


def paper_from_doc(doc: Mapping[str, Any]) -> Paper:
    """A paper read back from ``papers.json`` (fields it lacks take their defaults).

    Positional and without a dict of keywords: opening 12,000 papers runs this 12,000 times
    before the first paint (half the time of the keyword version).
    """
    get = doc.get
    return Paper(
        doc["id"], doc["title"], doc["abstract"], tuple(get("authors", ())),
        tuple(get("github", ())), get("url", ""), tuple(get("keywords", ())),
        get("venue_status", ""), get("list", ""), get("position", 0),
        get("title_derived", False), get("name", ""), tuple(get("lists", ())),
    )  # fmt: skip


def merge_paper(old: Paper, new: Paper) -> Paper:
    """The stored paper after importing ``new`` over ``old``: metadata updated, place kept.

    A real title beats a derived one; empty fields never wipe known ones; links are merged;
    the paper keeps its first list and, within that list, takes its new position.
    """
    keep_title = new.title_derived and not old.title_derived
    same_list = new.list == old.list
    return replace(
        old,
        title=old.title if keep_title else new.title,
        title_derived=old.title_derived if keep_title else new.title_derived,
        name=old.name if keep_title else (new.name or old.name),
        abstract=new.abstract,
        authors=new.authors or old.authors,
        github=tuple(dict.fromkeys(old.github + new.github)),
        url=new.url or old.url,
        keywords=new.keywords or old.keywords,
        venue_status=new.venue_status or old.venue_status,
        position=new.position if same_list else old.position,
        lists=tuple(dict.fromkeys(old.lists + new.lists)),
    )


@dataclass(frozen=True, slots=True)
class ListInfo:
    """A list imported into the library."""

    name: str
    order: int
    sources: tuple[str, ...]
    size: int
    imported_at: float


def _migrate_triage(tables: Tables, version: int) -> Tables:
    """Upgrade a ``triage.json`` of an older schema.

    Schema 1 kept one history document per single change (``{"id", "old", "new", "at"}``) with
    TinyDB's counter ids and decisions keyed the same way; schema 2 groups changes into steps
    and keys decisions by paper id.
    """
    if version >= 2:
        return tables
    decisions: dict[str, Any] = {}
    for doc in tables.get("decisions", {}).values():
        pid = str(doc.get("id") or doc.get("paper_id", ""))
        if pid:
            decisions[str(doc_id(pid))] = {
                k: v for k, v in doc.items() if k not in ("id", "paper_id")
            }
    history: dict[str, Any] = {}
    for seq, doc in enumerate(tables.get("history", {}).values(), start=1):
        if "changes" in doc:
            history[str(seq)] = doc
        else:
            change = [doc["id"], doc.get("old", "inbox"), doc["new"]]
            history[str(seq)] = {"at": doc.get("at", 0.0), "changes": [change], "undone": False}
    days: dict[int, dict[str, Any]] = {}
    for doc in history.values():
        step = Step.from_doc(0, doc)
        count_day(days, step.changes, step.at, 1)
    return {
        **tables,
        "decisions": decisions,
        "history": history,
        "days": {str(k): v for k, v in days.items()},
    }


def _file_bases(
    stored: Mapping[str, Mapping[str, Any]],
    lists: dict[str, Any],
    results: Sequence[ReadResult],
    list_name: str | None,
) -> dict[tuple[str, str], int]:
    """Where each imported file's papers start in its list, recording new lists and files.

    A list remembers the position its every file starts at: re-importing a file keeps its
    place, and a new file of a list already here goes after the papers already there.
    ``lists`` (the transaction's table) gains the new lists and files.
    """
    by_name = {doc["name"]: key for key, doc in lists.items()}
    next_free: dict[str, int] = {}
    for doc in stored.values():
        next_free[doc["list"]] = max(next_free.get(doc["list"], 0), doc["position"] + 1)
    bases: dict[tuple[str, str], int] = {}
    for result in results:
        name = list_name or result.list_name
        if name not in by_name:
            by_name[name] = str(max((int(k) for k in lists), default=0) + 1)
            lists[by_name[name]] = {"name": name, "sources": {}, "at": round(now())}
        key = by_name[name]
        sources = lists[key].get("sources")
        sources = dict(sources) if isinstance(sources, dict) else {}
        if result.source not in sources:
            sources[result.source] = next_free.get(name, 0)
            next_free[name] = sources[result.source] + len(result.records)
        lists[key] = {**lists[key], "sources": sources, "at": round(now())}
        bases[(name, result.source)] = sources[result.source]
    return bases


class Library:
    """A reading list library in HOME: the Python API of DESIGN.md."""

    def __init__(self, home: str | os.PathLike[str]) -> None:
        self.home = Path(home).expanduser()
        try:
            self.home.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise SourceError(f"{self.home}: cannot create the library folder ({exc})") from None
        self.lock = HomeLock(self.home / LOCK_FILE)
        self._papers_db = TinyDB(
            self.home / PAPERS_FILE,
            storage=AtomicJSONStorage,
            lock=self.lock,
            kind="papers",
            schema=PAPERS_SCHEMA,
        )
        self._triage_db = TinyDB(
            self.home / TRIAGE_FILE,
            storage=AtomicJSONStorage,
            lock=self.lock,
            kind="triage",
            schema=TRIAGE_SCHEMA,
            migrate=_migrate_triage,
        )
        self._loaded: _Loaded | None = None

    # -- files ------------------------------------------------------------------------------
    @property
    def papers_path(self) -> Path:
        return self.home / PAPERS_FILE

    @property
    def triage_path(self) -> Path:
        return self.home / TRIAGE_FILE

    @property
    def _papers_store(self) -> AtomicJSONStorage:
        return cast(AtomicJSONStorage, self._papers_db.storage)

    @property
    def _triage_store(self) -> AtomicJSONStorage:
        return cast(AtomicJSONStorage, self._triage_db.storage)

    def _table(self, db: TinyDB, name: str) -> Table:
        return db.table(name, cache_size=0)

    def _raw(self, db: TinyDB, name: str) -> dict[str, Any]:
        """A table's documents as stored (keys are document ids as text), without copying."""
        store = cast(AtomicJSONStorage, db.storage)
        table: dict[str, Any] = (store.read() or {}).get(name, {})
        return table

    def check(self) -> None:
        """Read both files, raising ``DamagedFileError`` if either does not parse."""
        self._papers_store.load()
        self._triage_store.load()

    def triage_changed_on_disk(self) -> bool:
        """True when another process changed ``triage.json`` since this library last saw it."""
        return self._triage_store.changed_on_disk()

    @property
    def last_change_met_others(self) -> bool:
        """True when the last triage change found (and kept) another process's changes."""
        return self._triage_store.saw_outside_change

    def papers_changed_since(self, version: FileSignature | None) -> bool:
        """True when ``papers.json`` is no longer the ``version`` of ``versioned_papers``."""
        return self._papers_store.changed_since(version)

    # -- papers -----------------------------------------------------------------------------
    def papers(self) -> list[Paper]:
        """Every paper, in list order (lists in import order, then position in the list)."""
        return list(self._papers()[0])

    def versioned_papers(self) -> tuple[list[Paper], FileSignature | None]:
        """``papers()``, and the version of ``papers.json`` they are, for
        ``papers_changed_since`` (a reader that shows papers asks whether *they* are stale)."""
        loaded = self._load_papers()
        return list(loaded.papers), loaded.sig

    def _papers(self) -> tuple[list[Paper], dict[str, Paper]]:
        loaded = self._load_papers()
        return loaded.papers, loaded.by_id

    def _load_papers(self) -> _Loaded:
        """The papers of the current ``papers.json``: as last loaded, from its snapshot, or
        parsed (and then snapshotted for the next start)."""
        sig = signature(self.papers_path)
        if self._loaded is not None and self._loaded.sig == sig:
            return self._loaded
        snapshot_path = self.home / SNAPSHOT_FILE
        snapshot = read_snapshot(snapshot_path, sig, PAPERS_SCHEMA, _PAPER_FIELDS) if sig else None
        if snapshot is not None:
            papers = [Paper(*row) for row in snapshot.rows]  # saved in list order
        else:
            found, sig = self._papers_store.load_signed()
            tables = found or {}
            order = {info.name: info.order for info in self._lists_from(tables.get("lists", {}))}
            papers = [paper_from_doc(doc) for doc in tables.get("papers", {}).values()]
            last = len(order)
            papers.sort(key=lambda p: order.get(p.list, last) * 1_000_000_000 + p.position)
            snapshot = Snapshot([_paper_row(p) for p in papers], tables.get("lists", {}))
            if sig is not None:
                write_snapshot(snapshot_path, sig, PAPERS_SCHEMA, _PAPER_FIELDS, snapshot)
            # the papers hold what is needed: the parsed file would double the memory for as
            # long as the library is open (an import reads the file again)
            self._papers_store.forget()
        self._loaded = _Loaded(sig, papers, {p.id: p for p in papers}, snapshot.lists)
        return self._loaded

    def __len__(self) -> int:
        return len(self._papers()[1])

    def paper(self, paper_id: str) -> Paper:
        """The paper with this id (or unique id prefix)."""
        return self._papers()[1][self.resolve_id(paper_id)]

    def resolve_id(self, text: str) -> str:
        """The full id of the paper that ``text`` names: its id or a unique prefix (>= 4 chars)."""
        by_id = self._papers()[1]
        key = text.strip().lower()
        if key in by_id:
            return key
        if len(key) >= 4:
            found = [pid for pid in by_id if pid.startswith(key)]
            if len(found) == 1:
                return found[0]
            if len(found) > 1:
                raise UnknownPaperError(f"id {text!r} is ambiguous: {len(found)} papers start so")
        raise UnknownPaperError(f"no paper has the id {text!r} (see `papers list`)")

    def lists(self) -> list[ListInfo]:
        """The imported lists, in import order."""
        return self._lists_from(self._load_papers().lists)

    @staticmethod
    def _lists_from(table: Mapping[str, Any]) -> list[ListInfo]:
        infos = [
            ListInfo(
                d["name"], int(k), tuple(d.get("sources", ())), d.get("size", 0), d.get("at", 0.0)
            )
            for k, d in table.items()
        ]
        return sorted(infos, key=lambda i: i.order)

    # -- import -----------------------------------------------------------------------------
    def import_file(
        self,
        path: str | os.PathLike[str],
        catalog: str | os.PathLike[str] | None = None,
        list_name: str | None = None,
    ) -> ImportReport:
        """Import one list file (or a folder of them); see ``import_files``."""
        return self.import_files([path], catalog=catalog, list_name=list_name)

    def import_files(
        self,
        paths: Sequence[str | os.PathLike[str]],
        catalog: str | os.PathLike[str] | None = None,
        list_name: str | None = None,
        progress: Progress | None = None,
    ) -> ImportReport:
        """Import list files as one all-or-nothing change of ``papers.json``.

        Every file is read before anything is written: a file that cannot be read raises
        ``SourceError`` and leaves the library as it was. Records that cannot be used are
        reported in ``ImportReport.errors``; triage decisions are never touched.
        """
        from storage.sources.papers import Catalog
        from storage.sources.registry import list_files, read_source

        results = [read_source(f) for p in paths for f in list_files(Path(p))]
        found = None
        if catalog is not None:
            found = Catalog.from_results(read_source(f) for f in list_files(Path(catalog)))
            if not len(found):
                raise SourceError(f"{catalog}: the catalog holds no papers")
        return self.import_results(results, found, list_name, progress)

    def import_results(
        self,
        results: Sequence[ReadResult],
        catalog: Catalog | None = None,
        list_name: str | None = None,
        progress: Progress | None = None,
    ) -> ImportReport:
        """Clean and store what readers read; ``progress(done, total)`` follows the records."""
        from storage.sources.papers import build_paper, enrich

        report = ImportReport()
        incoming: dict[str, tuple[Paper, str]] = {}  # paper, and the file it came from
        total = sum(len(r.records) for r in results)
        done = 0
        for result in results:
            name = list_name or result.list_name
            report.errors.extend(result.errors)
            if name not in report.lists:
                report.lists.append(name)
            position = 0  # within the file; the file's place in its list is added on storing
            for record in result.records:
                done += 1
                if progress is not None and done % 200 == 0:
                    progress(done, total)
                entry = catalog.find(record) if catalog else None
                paper = build_paper(
                    record if entry is None else enrich(record, entry), name, position
                )
                if paper.id in incoming:
                    report.skipped += 1
                    continue
                incoming[paper.id] = (paper, result.source)
                position += 1
        if not incoming:
            first = f": {report.errors[0]}" if report.errors else ""
            raise SourceError(f"no papers found to import{first}")
        self._store_papers(incoming, report, results, list_name)
        self._load_papers()  # snapshots the new papers now, not at the next start
        if progress is not None:
            progress(total, total)
        return report

    def _store_papers(
        self,
        incoming: Mapping[str, tuple[Paper, str]],
        report: ImportReport,
        results: Sequence[ReadResult],
        list_name: str | None,
    ) -> None:
        table = self._table(self._papers_db, "papers")
        with self._papers_store.transaction():
            stored = self._raw(self._papers_db, "papers")
            lists = self._papers_store.writable_table("lists")
            bases = _file_bases(stored, lists, results, list_name)
            changed: list[Document] = []
            for pid, (incoming_paper, source) in incoming.items():
                key = doc_id(pid)
                base = bases[(incoming_paper.list, source)]
                paper = replace(incoming_paper, position=base + incoming_paper.position)
                old_doc = stored.get(str(key))
                if old_doc is None:
                    report.added += 1
                    changed.append(Document(paper_to_doc(paper), doc_id=key))
                    continue
                old = paper_from_doc(old_doc)
                merged = merge_paper(old, paper)
                if merged == old:
                    report.skipped += 1
                else:
                    report.updated += 1
                    changed.append(Document(paper_to_doc(merged), doc_id=key))
            replaced = [d.doc_id for d in changed if str(d.doc_id) in stored]
            if replaced:
                table.remove(doc_ids=replaced)
            if changed:
                table.insert_multiple(changed)
            sizes: dict[str, int] = {}
            for doc in self._raw(self._papers_db, "papers").values():
                sizes[doc["list"]] = sizes.get(doc["list"], 0) + 1
            for list_key, doc in list(lists.items()):
                lists[list_key] = {**doc, "size": sizes.get(doc["name"], 0)}

    # -- triage -----------------------------------------------------------------------------
    def triage(self) -> TriageSnapshot:
        """Statuses, notes and tags of every paper, read in one go."""
        return snapshot_from_tables(self._triage_store.load() or {})

    def statuses(self) -> dict[str, Status]:
        """Paper id → status, for papers not in the Inbox."""
        return self.triage().statuses

    def status(self, paper_id: str) -> Status:
        """The status of one paper (``Status.INBOX`` until decided)."""
        pid = self.resolve_id(paper_id)
        doc = self._table(self._triage_db, "decisions").get(doc_id=doc_id(pid))
        return Status(doc["status"]) if doc else Status.INBOX

    def set_status(self, paper_id: str, status: Status | str) -> list[Change]:
        """Decide one paper; durable when it returns. Returns the change made (none if same)."""
        return self.set_statuses([paper_id], status)

    def set_statuses(self, paper_ids: Iterable[str], status: Status | str) -> list[Change]:
        """Decide many papers in one write and one undo step."""
        new = Status.parse(status)
        ids = list(dict.fromkeys(self.resolve_id(p) for p in paper_ids))
        with self._triage_store.transaction():
            decisions = self._decision_docs(ids)
            changes: list[Change] = []
            for pid in ids:
                old = Status(decisions[pid].get("status", "inbox"))
                if old is not new:
                    changes.append((pid, old, new))
            if changes:
                self._apply(changes, decisions)
                self._record(changes)
        return changes

    def undo(self) -> list[Change]:
        """Undo the latest step (of any process); returns the changes it reverted, [] if none."""
        return self._undo_redo(undo=True)

    def redo(self) -> list[Change]:
        """Redo the latest undone step; returns the changes it made again, [] if none."""
        return self._undo_redo(undo=False)

    def _undo_redo(self, undo: bool) -> list[Change]:
        with self._triage_store.transaction():
            steps = sorted(
                (
                    Step.from_doc(int(k), d)
                    for k, d in self._raw(self._triage_db, "history").items()
                ),
                key=lambda s: s.seq,
            )
            if undo:
                todo = [s for s in steps if not s.undone]
                step = todo[-1] if todo else None
            else:
                todo = [s for s in steps if s.undone]
                step = todo[0] if todo else None
            if step is None:
                return []
            if undo:
                changes = [(pid, new, old) for pid, old, new in reversed(step.changes)]
            else:
                changes = list(step.changes)
            self._apply(changes, self._decision_docs([c[0] for c in changes]))
            history = self._triage_store.writable_table("history")
            history[str(step.seq)] = {**history[str(step.seq)], "undone": undo}
            self._count(step.changes, step.at, -1 if undo else 1)
        return changes

    def set_note(self, paper_id: str, note: str) -> None:
        """Set (or, with "", clear) the note of a paper."""
        pid = self.resolve_id(paper_id)
        with self._triage_store.transaction():
            docs = self._decision_docs([pid])
            docs[pid]["note"] = note.strip()
            self._save_decisions(docs)

    def set_tags(self, paper_id: str, tags: Sequence[str]) -> tuple[str, ...]:
        """Replace the tags of a paper; returns them as stored (normalised)."""
        pid = self.resolve_id(paper_id)
        clean = normalise_tags(tags)
        with self._triage_store.transaction():
            docs = self._decision_docs([pid])
            docs[pid]["tags"] = list(clean)
            self._save_decisions(docs)
        return clean

    def _decision_docs(self, ids: Sequence[str]) -> dict[str, dict[str, Any]]:
        raw = self._raw(self._triage_db, "decisions")
        return {pid: dict(raw.get(str(doc_id(pid))) or {}) for pid in ids}

    def _apply(self, changes: Sequence[Change], docs: dict[str, dict[str, Any]]) -> None:
        at = round(now())
        for pid, _old, new in changes:
            docs[pid]["status"] = new.value
            docs[pid]["at"] = at
        self._save_decisions(docs)

    def _save_decisions(self, docs: Mapping[str, dict[str, Any]]) -> None:
        """Write decision documents; a plain Inbox paper with no note or tags takes no room.

        The triage tables are changed directly rather than through TinyDB's table calls,
        which convert every document id of the table on each call: a decision then costs
        the same with 100 papers decided as with 100,000.
        """
        table = self._triage_store.writable_table("decisions")
        for pid, doc in docs.items():
            key = str(doc_id(pid))
            if doc.get("status", "inbox") != "inbox" or doc.get("note") or doc.get("tags"):
                table[key] = {k: v for k, v in doc.items() if k != "id"}
            else:
                table.pop(key, None)

    def _record(self, changes: Sequence[Change]) -> None:
        """Log a new step: it drops the redo steps, and the oldest beyond the limits."""
        history = self._triage_store.writable_table("history")
        seqs = sorted(int(k) for k in history)
        for seq in seqs:
            if history[str(seq)].get("undone"):
                del history[str(seq)]
        kept = [s for s in seqs if str(s) in history]
        total = sum(len(history[str(s)].get("changes", ())) for s in kept) + len(changes)
        while kept and (len(kept) >= HISTORY_LIMIT or total > HISTORY_CHANGES_LIMIT):
            total -= len(history.pop(str(kept.pop(0))).get("changes", ()))
        step = Step(seq=(seqs[-1] + 1) if seqs else 1, at=round(now()), changes=tuple(changes))
        history[str(step.seq)] = step.to_doc()
        self._count(changes, step.at, 1)

    def _count(self, changes: Iterable[Change], at: float, sign: int) -> None:
        days = self._triage_store.writable_table("days")
        raw = {int(k): v for k, v in days.items()}
        count_day(raw, changes, at, sign)
        for key, doc in raw.items():
            days[str(key)] = doc

    def days(self) -> list[DayCount]:
        """Decisions per day, oldest first."""
        return days_from_tables(self._triage_store.load() or {})

    def stats(self, today: date | None = None) -> LibraryStats:
        """Counts per status, list and venue status; progress; rate and time to an empty Inbox."""
        tables = self._triage_store.load() or {}  # read once: counts and days agree
        statuses = snapshot_from_tables(tables).statuses
        return LibraryStats.compute(
            self.papers(), statuses, days_from_tables(tables), today or date.today()
        )


@dataclass(frozen=True, slots=True)
class LibraryStats:
    """Progress figures of a library, as shown by ``papers stats`` and the app's stats screen."""

    total: int
    by_status: Mapping[Status, int]
    by_list: Mapping[str, Mapping[Status, int]]
    by_venue: Mapping[str, Mapping[Status, int]]
    days: Sequence[DayCount]
    rate_per_day: float
    days_to_empty_inbox: float | None

    @property
    def triaged(self) -> int:
        return self.total - self.by_status.get(Status.INBOX, 0)

    def pace(self) -> str:
        """One sentence on the pace and when the Inbox will be empty at it."""
        if self.total and self.by_status.get(Status.INBOX, 0) == 0:
            return "The Inbox is empty."
        if self.rate_per_day > 0 and self.days_to_empty_inbox is not None:
            return (
                f"Pace: {self.rate_per_day:.0f} decisions a day (last 7 days); the Inbox is "
                f"empty in about {self.days_to_empty_inbox:.1f} days at this pace."
            )
        return "Pace: no decisions in the last 7 days."

    @classmethod
    def compute(
        cls,
        papers: Sequence[Paper],
        statuses: Mapping[str, Status],
        days: Sequence[DayCount],
        today: date,
    ) -> LibraryStats:
        """Figures from the papers, their statuses and the per-day counts."""
        by_status = dict.fromkeys(Status, 0)
        by_list: dict[str, dict[Status, int]] = {}
        by_venue: dict[str, dict[Status, int]] = {}
        for paper in papers:
            status = statuses.get(paper.id, Status.INBOX)
            by_status[status] += 1
            by_list.setdefault(paper.list, dict.fromkeys(Status, 0))[status] += 1
            venue = paper.venue_status or "unknown"
            by_venue.setdefault(venue, dict.fromkeys(Status, 0))[status] += 1
        recent = [d for d in days if d.day > today - timedelta(days=7)]
        active = [d for d in recent if d.total > 0]
        rate = sum(d.total for d in active) / len(active) if active else 0.0
        inbox = by_status[Status.INBOX]
        eta = inbox / rate if rate > 0 else (0.0 if inbox == 0 else None)
        return cls(len(papers), by_status, by_list, by_venue, list(days), rate, eta)

    def to_json(self) -> dict[str, Any]:
        """The figures as plain JSON values."""

        def plain(counts: Mapping[Status, int]) -> dict[str, int]:
            return {s.value: n for s, n in counts.items()}

        return {
            "total": self.total,
            "triaged": self.triaged,
            "progress": round(self.triaged / self.total, 4) if self.total else 0.0,
            "by_status": plain(self.by_status),
            "by_list": {k: plain(v) for k, v in self.by_list.items()},
            "by_venue_status": {k: plain(v) for k, v in self.by_venue.items()},
            "per_day": [{"day": d.day.isoformat(), **plain(d.counts)} for d in self.days],
            "rate_per_day": round(self.rate_per_day, 2),
            "days_to_empty_inbox": (
                None if self.days_to_empty_inbox is None else round(self.days_to_empty_inbox, 1)
            ),
        }
