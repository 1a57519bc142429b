"""The library: imported papers and their triage, in two TinyDB files in HOME.

``papers.json`` is written on import only; ``triage.json`` on every decision, so that a
keystroke never rewrites the large file. Both go through ``AtomicJSONStorage``: atomic,
locked, re-read before every change.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from operator import attrgetter
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from tinydb import TinyDB
from tinydb.table import Table

from storage.derived import code_fingerprint, code_version
from storage.errors import LibraryError, SourceError, UnknownPaperError
from storage.files import AtomicJSONStorage, FileSignature, HomeLock, Tables, signature
from storage.gc_pause import collector_paused
from storage.importing import Progress as Progress
from storage.importing import gather, iter_decisions, resolve, take_decisions
from storage.importing import store as store_incoming
from storage.loaded_papers import LoadedPapers
from storage.migration import migrate_papers, triage_migration
from storage.models import FailedFile, ImportReport, Paper, Status
from storage.removal import (
    Removal,
    StepDone,
    pop_decisions,
    redo_removal,
    take_out_of,
    undo_removal,
)
from storage.snapshot import SNAPSHOT_FILE, Snapshot, SnapshotReader, write_snapshot
from storage.stats import Counted, LibraryStats
from storage.triage import (
    DECIDE,
    HISTORY_CHANGES_LIMIT,
    HISTORY_LIMIT,
    REMOVE,
    RESTORE,
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

if TYPE_CHECKING:  # the readers are imported when a list is: opening a library needs none
    from storage.sources.limits import ReadLimits
    from storage.sources.papers import Catalog
    from storage.sources.records import ReadResult, RecordStream

PAPERS_SCHEMA = 2
PAPERS_FILE = "papers.json"
TRIAGE_FILE = "triage.json"
LOCK_FILE = ".lock"

_PAPER_FIELDS = (
    "id", "title", "abstract", "authors", "github", "url", "keywords",
    "venue_status", "list", "position", "title_derived", "name", "lists", "venue", "extra",
)  # fmt: skip
_TUPLE_FIELDS = frozenset({"authors", "github", "keywords", "lists", "extra"})


def paper_to_doc(paper: Paper) -> dict[str, Any]:
    """A paper as stored in ``papers.json``."""
    return {
        name: list(value) if name in _TUPLE_FIELDS else value
        for name in _PAPER_FIELDS
        for value in (getattr(paper, name),)
    }


_paper_row = attrgetter(*_PAPER_FIELDS)  # a paper's fields, in order (what Paper(*row) takes)


def reading_code() -> int:
    """The version of the code that reads ``papers.json`` into papers (what files derived
    from the papers depend on besides the file itself)."""
    readers = (paper_from_doc, Library._parse_papers, Library._lists_from)
    return code_version("storage.snapshot", "storage.models") ^ code_fingerprint(*readers)


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
        get("venue", ""), tuple(map(tuple, get("extra", ()))),
    )  # fmt: skip


@dataclass(frozen=True, slots=True)
class ListInfo:
    """A list imported into the library."""

    name: str
    order: int
    sources: tuple[str, ...]
    size: int
    imported_at: float


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
            migrate=migrate_papers,
        )
        #: Set when triage.json was read in an older schema: it is written once, migrated.
        self._triage_migrated = False
        self._triage_db = TinyDB(
            self.home / TRIAGE_FILE,
            storage=AtomicJSONStorage,
            lock=self.lock,
            kind="triage",
            schema=TRIAGE_SCHEMA,
            migrate=triage_migration(self.home / PAPERS_FILE, self._note_triage_migrated),
        )
        self._loaded: LoadedPapers | None = None
        #: The last parse of triage.json read, and its triage (a command reads it twice).
        self._triage_read: tuple[Tables, TriageSnapshot] | None = None

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
        return list(self._load_papers().all())

    def versioned_papers(self) -> tuple[list[Paper], FileSignature | None]:
        """``papers()``, and the version of ``papers.json`` they are, for
        ``papers_changed_since`` (a reader that shows papers asks whether *they* are stale)."""
        loaded = self._load_papers()
        return list(loaded.all()), loaded.sig

    def loaded_papers(self) -> LoadedPapers:
        """The papers of the current ``papers.json``, read only as far as asked: ids, a few
        papers by row, chunks in list order, one field of each (see ``storage.loaded_papers``)."""
        return self._load_papers()

    def _load_papers(self) -> LoadedPapers:
        """The papers of the current ``papers.json``: as last loaded, from its snapshot (read
        as far as asked), or parsed (and then snapshotted for the next start)."""
        sig = signature(self.papers_path)
        if self._loaded is not None and self._loaded.sig == sig:
            return self._loaded
        reader = None
        if sig is not None:
            reader = SnapshotReader.open(
                self.home / SNAPSHOT_FILE, sig, PAPERS_SCHEMA, _PAPER_FIELDS, reading_code()
            )
        if reader is not None:
            self._loaded = LoadedPapers(sig, reader.lists, self._reparse, reader=reader)
        else:
            papers, sig, lists = self._parse_papers()
            self._loaded = LoadedPapers(sig, lists, self._reparse, papers=papers)
        return self._loaded

    def _reparse(self) -> tuple[list[Paper], FileSignature | None]:
        return self._parse_papers()[:2]

    def _parse_papers(self) -> tuple[list[Paper], FileSignature | None, dict[str, Any]]:
        """The papers of ``papers.json`` parsed, in list order (and snapshotted), its version
        and its lists table."""
        found, sig = self._papers_store.load_signed()
        tables = found or {}
        order = {info.name: info.order for info in self._lists_from(tables.get("lists", {}))}
        papers = [paper_from_doc(doc) for doc in tables.get("papers", {}).values()]
        last = len(order)
        papers.sort(key=lambda p: order.get(p.list, last) * 1_000_000_000 + p.position)
        lists: dict[str, Any] = tables.get("lists", {})
        if sig is not None:
            snapshot = Snapshot([_paper_row(p) for p in papers], lists)
            path = self.home / SNAPSHOT_FILE
            write_snapshot(path, sig, PAPERS_SCHEMA, _PAPER_FIELDS, snapshot, reading_code())
        # the papers hold what is needed: the parsed file would double the memory for as
        # long as the library is open (an import reads the file again)
        self._papers_store.forget()
        return papers, sig, lists

    def __len__(self) -> int:
        return len(self._load_papers())

    def paper(self, paper_id: str) -> Paper:
        """The paper with this id (or unique id prefix)."""
        return self._load_papers().paper(self.resolve_id(paper_id))

    def resolve_id(self, text: str) -> str:
        """The full id of the paper that ``text`` names: its id or a unique prefix (>= 4 chars)."""
        loaded = self._load_papers()
        key = text.strip().lower()
        if loaded.row_of(key) is not None:
            return key
        if len(key) >= 4:
            found = [pid for pid in loaded.ids() if pid.startswith(key)]
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
        *,
        take_theirs: bool = False,
    ) -> ImportReport:
        """Import one list file (or a folder of them); see ``import_files``."""
        return self.import_files(
            [path], catalog=catalog, list_name=list_name, take_theirs=take_theirs
        )

    def import_files(
        self,
        paths: Sequence[str | os.PathLike[str]],
        catalog: str | os.PathLike[str] | None = None,
        list_name: str | None = None,
        progress: Progress | None = None,
        limits: ReadLimits | None = None,
        *,
        take_theirs: bool = False,
        dry_run: bool = False,
    ) -> ImportReport:
        """Import list files as one all-or-nothing change of ``papers.json``.

        Every file is read before anything is written: a file named that cannot be read
        raises ``SourceError`` and leaves the library as it was; a file of a folder that
        cannot be read is named in ``ImportReport.failed`` and the folder's other files are
        imported. Records that cannot be used are reported in ``ImportReport.errors``.
        Decisions a file carries (our own exports, a library) go to the papers still in the
        Inbox, or to every paper with ``take_theirs``; no other decision is touched.
        ``limits``: how much a file may hold, whether pipes and devices are read (regular
        files only, up to ``storage.sources.limits.DEFAULT_MAX_BYTES``, unless told).
        ``dry_run``: the report of what the import would do, nothing written.
        """
        from storage.sources.papers import Catalog
        from storage.sources.registry import list_files, open_source, read_source

        # a large JSON Lines list is checked here, and read line by line as it is cleaned
        results: list[ReadResult | RecordStream] = []
        failed: list[FailedFile] = []
        for given in map(Path, paths):
            in_folder = given.is_dir()
            for file in list_files(given):
                try:
                    results.append(open_source(file, limits))
                except SourceError as exc:
                    if not in_folder:
                        raise
                    failed.append(FailedFile(str(file), str(exc)))
        if not results:
            raise SourceError(
                str(failed[0])
                if len(failed) == 1
                else f"no file could be read ({len(failed)} tried): {failed[0]}"
            )
        found = None
        if catalog is not None:
            files = list_files(Path(catalog))
            found = Catalog.from_results(read_source(f, limits) for f in files)
            if not len(found):
                raise SourceError(f"{catalog}: the catalog holds no papers")
        report = self.import_results(
            results, found, list_name, progress, take_theirs=take_theirs, dry_run=dry_run
        )
        report.failed = failed
        return report

    def import_results(
        self,
        results: Sequence[ReadResult | RecordStream],
        catalog: Catalog | None = None,
        list_name: str | None = None,
        progress: Progress | None = None,
        *,
        take_theirs: bool = False,
        dry_run: bool = False,
    ) -> ImportReport:
        """Clean, match and store what readers read (``storage.importing``);
        ``progress(done, total)`` follows the records; ``dry_run``: nothing is written."""
        report = ImportReport(dry_run=dry_run)
        with collector_paused():  # 100,000 papers make millions of objects, none of them garbage
            if dry_run:
                self._import_dry(results, catalog, list_name, take_theirs, report)
            else:
                self._import(results, catalog, list_name, progress, take_theirs, report)
        return report

    def _import_dry(
        self,
        results: Sequence[ReadResult | RecordStream],
        catalog: Catalog | None,
        list_name: str | None,
        take_theirs: bool,
        report: ImportReport,
    ) -> None:
        """``_import``'s steps on copies of the tables: the report, nothing written."""
        candidates = gather(results, catalog, list_name, report)
        stored = self._raw(self._papers_db, "papers")
        incoming = resolve(candidates, stored, report)
        lists_table = {k: dict(v) for k, v in self._raw(self._papers_db, "lists").items()}
        converters = (paper_to_doc, paper_from_doc)
        store_incoming(stored, dict(stored), lists_table, incoming, report, converters)
        carried = list(iter_decisions(incoming))
        if carried:
            docs = self._decision_docs([pid for pid, _ in carried])
            take_decisions(docs, carried, take_theirs, report)

    def _import(
        self,
        results: Sequence[ReadResult | RecordStream],
        catalog: Catalog | None,
        list_name: str | None,
        progress: Progress | None,
        take_theirs: bool,
        report: ImportReport,
    ) -> None:
        # papers.json read now (its parse peaks at several times its size), not once the new
        # papers are in memory too; the transaction reads it again only if it changed meanwhile
        with contextlib.suppress(LibraryError):  # said by the transaction, as it would be
            self._papers_store.load()
        candidates = gather(results, catalog, list_name, report, progress)
        total = len(candidates)
        with self._papers_store.transaction():
            stored = self._raw(self._papers_db, "papers")
            incoming = resolve(candidates, stored, report)
            del candidates  # the papers are in ``incoming`` now
            papers = self._papers_store.writable_table("papers")
            lists_table = self._papers_store.writable_table("lists")
            converters = (paper_to_doc, paper_from_doc)
            store_incoming(stored, papers, lists_table, incoming, report, converters)
        carried = list(iter_decisions(incoming))
        del incoming  # the stored documents hold the papers: reading them back needs no more
        if carried:
            with self._triage_store.transaction():
                docs = self._decision_docs([pid for pid, _ in carried])
                changes = take_decisions(docs, carried, take_theirs, report)
                self._save_decisions(docs)
                if changes:
                    self._record(changes, RESTORE)
        self._load_papers()  # snapshots the new papers now, not at the next start
        if progress is not None:
            progress(total, total)

    # -- triage -----------------------------------------------------------------------------
    def triage(self) -> TriageSnapshot:
        """Statuses, notes and tags of every paper, read in one go."""
        tables = self._triage_store.load() or {}
        read = self._triage_read
        if read is None or read[0] is not tables:  # the file changed (or was never read)
            read = self._triage_read = (tables, snapshot_from_tables(tables))
        found = read[1]  # a copy: callers may change theirs
        if self._triage_migrated:
            self._save_migrated_triage()
        return TriageSnapshot(
            dict(found.statuses), dict(found.notes), dict(found.tags), dict(found.decided_at)
        )

    def _note_triage_migrated(self) -> None:
        self._triage_migrated = True

    def _save_migrated_triage(self) -> None:
        """Write ``triage.json`` migrated (``storage.migration``), once: the next read is plain."""
        self._triage_migrated = False
        with self._triage_store.transaction():
            self._triage_store.writable_table("decisions")

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
        """Undo the latest step (of any process); returns the changes it reverted, [] if none.

        Undoing a removal gives ``(id, inbox, status)`` for each paper put back (see
        ``undo_step`` for what a step did in full).
        """
        return self.undo_step().changes

    def redo(self) -> list[Change]:
        """Redo the latest undone step; returns the changes it made again, [] if none."""
        return self.redo_step().changes

    def undo_step(self) -> StepDone:
        """Undo the latest step: its changes, and the papers a removal's undo put back."""
        return self._undo_redo(undo=True)

    def redo_step(self) -> StepDone:
        """Redo the latest undone step: its changes, and the papers a removal took out again."""
        return self._undo_redo(undo=False)

    def _undo_redo(self, undo: bool) -> StepDone:
        done = self._undo_redo_in_files(undo)
        if done.restored is not None or done.removed is not None:
            # read (and snapshotted) here, as after a removal: the app's writer thread pays
            # for it, not the screen that shows the papers next
            self._load_papers()
        return done

    def _undo_redo_in_files(self, undo: bool) -> StepDone:
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
                return StepDone()
            history = self._triage_store.writable_table("history")
            doc = history[str(step.seq)]
            if step.kind == REMOVE:  # papers.json changes too
                with self._papers_store.transaction():
                    if undo:
                        done = undo_removal(self._papers_store, self._triage_store, doc)
                    else:
                        done = redo_removal(self._papers_store, self._triage_store, history, doc)
                history[str(step.seq)] = {**history[str(step.seq)], "undone": undo}
                self._loaded = None
                return done
            if undo:
                changes = [(pid, new, old) for pid, old, new in reversed(step.changes)]
            else:
                changes = list(step.changes)
            self._apply(changes, self._decision_docs([c[0] for c in changes]))
            history[str(step.seq)] = {**doc, "undone": undo}
            if step.counted:
                self._count(step.changes, step.at, -1 if undo else 1)
        return StepDone(changes)

    # -- remove -----------------------------------------------------------------------------
    def remove(self, paper_ids: Iterable[str]) -> Removal:
        """Take papers out (ids or unique prefixes), as one undo step; returns what went.

        Their decisions, notes and tags are kept in the undo step: ``undo`` puts the papers
        back with them.
        """
        ids = list(dict.fromkeys(self.resolve_id(p) for p in paper_ids))
        return self._remove(ids, None)

    def remove_list(self, name: str) -> Removal:
        """Take a list out, as one undo step: its papers go, except those also in another
        list (they only leave this one). ``UnknownPaperError`` for a list not in the library."""
        if name not in {info.name for info in self.lists()}:
            known = ", ".join(repr(i.name) for i in self.lists()[:10]) or "none"
            raise UnknownPaperError(f"no list is named {name!r} (the lists: {known})")
        return self._remove([], name)

    def _remove(self, ids: Sequence[str], list_name: str | None) -> Removal:
        token = f"{now():.6f}"
        with self._triage_store.transaction():
            history = self._raw(self._triage_db, "history")
            with self._papers_store.transaction():
                removal = take_out_of(self._papers_store, history, token, ids, list_name)
            if removal:
                decisions = pop_decisions(self._triage_store, removal.ids)
                payload = {"token": token, "ids": list(removal.ids), "list": list_name}
                self._record([], REMOVE, {"removal": {**payload, "decisions": decisions}})
        self._load_papers()
        return removal

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

    def _record(
        self, changes: Sequence[Change], kind: str = DECIDE, more: Mapping[str, Any] | None = None
    ) -> None:
        """Log a new step of ``kind`` (``more``: what else it keeps): it drops the redo steps,
        and the oldest beyond the limits. Only the user's decisions count in the days."""
        history = self._triage_store.writable_table("history")
        seqs = sorted(int(k) for k in history)
        for seq in seqs:
            if history[str(seq)].get("undone"):
                del history[str(seq)]
        kept = [s for s in seqs if str(s) in history]
        total = sum(len(history[str(s)].get("changes", ())) for s in kept) + len(changes)
        while kept and (len(kept) >= HISTORY_LIMIT or total > HISTORY_CHANGES_LIMIT):
            total -= len(history.pop(str(kept.pop(0))).get("changes", ()))
        seq = (seqs[-1] + 1) if seqs else 1
        step = Step(seq=seq, at=round(now()), changes=tuple(changes), kind=kind)
        history[str(step.seq)] = {**step.to_doc(), **(more or {})}
        if step.counted:
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
        loaded = self._load_papers()  # three fields of each paper, not the papers
        counted = [loaded.column(f) for f in ("id", "list", "venue_status", "lists")]
        return LibraryStats.compute(
            list(map(Counted, *counted)), statuses, days_from_tables(tables), today or date.today()
        )

    # -- sync: how storage.sync reads and changes the files --------------------------------
    def sync_store(self, name: str) -> AtomicJSONStorage:
        """The storage of ``papers.json`` ("papers") or ``triage.json`` ("triage"): storage.sync
        reads it and changes it in its own ``transaction()``s, as the library does."""
        return self._papers_store if name == "papers" else self._triage_store

    def save_synced_decisions(self, docs: Mapping[str, dict[str, Any]]) -> None:
        """Inside a ``sync_store("triage")`` transaction: write decision documents (by paper
        id) as the library writes its own."""
        self._save_decisions(docs)
