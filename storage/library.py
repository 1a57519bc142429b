"""The library: imported papers and their triage, in files in HOME, each with one owner.

``Library`` is the Python API of DESIGN.md. It composes the owners of the files
(``storage.files``: ``papers.json`` by ``PapersFile``, ``triage.json`` by ``TriageFile``) and
what is derived from them (``storage.cache``: ``papers.cache`` read as far as asked), and runs
what takes both files: an import (``storage.importing``), a removal and its undo.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import replace
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

from storage.cache.content_key import Version, papers_version
from storage.cache.loaded_papers import LoadedPapers, cache_after_change, open_papers
from storage.cache.refresh import LARGE, refresh_derived
from storage.cache.triage_memo import TriageMemo
from storage.caps import list_named
from storage.errors import ImportInterrupted, LibraryError, SourceError, UnknownPaperError
from storage.files.atomic import FileContent, FileSignature
from storage.files.links import missing_link
from storage.files.locks import LOCK_FILE, TRIAGE_LOCK_FILE, HomeLock, LockPair
from storage.files.papers_file import PAPERS_FILE, ListInfo, PapersFile, lists_from
from storage.files.triage_file import TRIAGE_FILE, TriageChange, TriageFile
from storage.files.triage_model import (
    ORDER,
    REMOVE,
    DayCount,
    Move,
    Step,
    TriageState,
    now,
)
from storage.importing import Progress as Progress
from storage.locations import check_home, make_home
from storage.models import Change, ImportReport, Paper, Place, Removal, Status, StepDone
from storage.queue import QueueOrder, SortFacts, move_to, queue_ids, reordered, sort_named

if TYPE_CHECKING:  # the readers are imported when a list is: opening a library needs none
    from storage.cache.update_ahead import IndexUpdateAhead
    from storage.importing.replay import ImportKey
    from storage.sources.limits import InputStream, ReadLimits
    from storage.sources.papers import Catalog
    from storage.sources.records import ReadResult, RecordStream
    from storage.stats import LibraryStats


__all__ = ["Library", "ListInfo", "Progress"]


class Library:
    """A reading list library in HOME: the Python API of DESIGN.md."""

    def __init__(self, home: str | os.PathLike[str], *, make: bool = True) -> None:
        """``make``: HOME is made now if it is missing; else (the commands of the CLI) not
        until a change has something to store (its first write lock: ``HomeLock``, or an
        import's papers), so that a command that fails or only reads leaves no folder behind."""
        self.home = Path(home).expanduser()
        if make:
            make_home(self.home)  # (through a link to a folder not yet made: see there)
        else:
            check_home(self.home)
        #: ``papers.json`` and HOME's other files; ``triage.json`` has its own lock, so that a
        #: decision never waits for an import's or a sync's work on the papers; ``lock``
        #: holds both (in that order: whoever holds the triage lock alone never asks for it).
        self.papers_lock = HomeLock(self.home / LOCK_FILE, guards=self.home / PAPERS_FILE)
        self.triage_lock = HomeLock(self.home / TRIAGE_LOCK_FILE, guards=self.home / TRIAGE_FILE)
        self.lock = LockPair(self.papers_lock, self.triage_lock)
        self.papers_file = PapersFile(self.home, self.papers_lock)
        self.triage_file = TriageFile(
            self.home, self.triage_lock, self.papers_file.renamed_ids, TriageMemo(self.home)
        )
        self._loaded: LoadedPapers | None = None
        #: What ``put_received`` stored and ``derive_received`` has not brought along yet: the
        #: content of papers.json before the first of them, and the papers they changed.
        self._received: tuple[Version | None, set[str]] | None = None
        #: Where a newly starred paper joins the reading queue: its head (True) or its end
        #: (``config.toml``'s ``[queue] new = "top"``, set by the app and the CLI).
        self.queue_top = False
        self.short_lived = False

    @property
    def short_lived(self) -> bool:
        """Whether the process ends after what it does with the library (a command of the
        CLI, set there): a large library's derived files are then made in it rather than in a
        child process, whose point is to give the build's memory back to a process that lives
        on (``storage.cache.refresh``); and the triage it reads or writes is kept in
        ``triage.cache`` for the next command (``storage.cache.triage_memo``)."""
        return self._short_lived

    @short_lived.setter
    def short_lived(self, value: bool) -> None:
        self._short_lived = value
        self.triage_file.uses_memo = value

    def keep_triage_memo(self) -> None:
        """As a command ends: keep the triage it read or wrote in ``triage.cache``, for the
        next command (best effort)."""
        with contextlib.suppress(Exception):  # a memo not kept costs the next command 70 ms
            self.triage_file.keep_memo()

    # -- files ------------------------------------------------------------------------------
    @property
    def papers_path(self) -> Path:
        return self.home / PAPERS_FILE

    @property
    def triage_path(self) -> Path:
        return self.home / TRIAGE_FILE

    def missing_links(self) -> list[str]:
        """A line for each library file that is a symbolic link to a missing file (an
        unmounted drive): read through it the library looks empty (``storage.files.links``)."""
        found = (
            missing_link(self.papers_path, "no papers are shown", "an import"),
            missing_link(self.triage_path, "no decisions are shown", "a decision"),
        )
        return [line for line in found if line is not None]

    def check(self) -> None:
        """Read both files, raising ``DamagedFileError`` if either does not parse."""
        self.papers_file.load()
        self.triage_file.load()

    def triage_changed_on_disk(self) -> bool:
        """True when another process changed ``triage.json`` since this library last saw it."""
        return self.triage_file.changed_on_disk()

    @property
    def last_change_met_others(self) -> bool:
        """True when the last triage change found (and kept) another process's changes."""
        return self.triage_file.last_change_met_others

    def papers_changed_since(self, version: FileSignature | None) -> bool:
        """True when ``papers.json`` is no longer the ``version`` of ``versioned_papers``."""
        return self.papers_file.changed_since(version)

    # -- papers -----------------------------------------------------------------------------
    def papers(self) -> list[Paper]:
        """Every paper, in list order (lists in import order, then position in the list)."""
        return list(self.loaded_papers().all())

    def versioned_papers(self) -> tuple[list[Paper], FileSignature | None]:
        """``papers()``, and the version of ``papers.json`` they are, for
        ``papers_changed_since`` (a reader that shows papers asks whether *they* are stale)."""
        loaded = self.loaded_papers()
        return list(loaded.all()), loaded.sig

    def loaded_papers(self) -> LoadedPapers:
        """The papers of the current ``papers.json``, read only as far as asked: ids, a few
        papers by row, chunks in list order, one field of each
        (see ``storage.cache.loaded_papers``)."""
        sig = self.papers_file.signature()
        if self._loaded is None or self._loaded.sig != sig:
            self._loaded = open_papers(self.papers_file, self.home)
        return self._loaded

    def __len__(self) -> int:
        return len(self.loaded_papers())

    def paper(self, paper_id: str) -> Paper:
        """The paper with this id (or unique id prefix)."""
        return self.loaded_papers().paper(self.resolve_id(paper_id))

    def resolve_id(self, text: str) -> str:
        """The full id of the paper that ``text`` names: its id or a unique prefix (>= 4 chars)."""
        loaded = self.loaded_papers()
        key = text.strip().lower()
        if loaded.row_of(key) is not None:
            return key
        if len(key) >= 4:
            found = [pid for pid in loaded.ids() if pid.startswith(key)]
            if len(found) == 1:
                return found[0]
            if len(found) > 1:
                named = ", ".join(sorted(found)[:3]) + (", …" if len(found) > 3 else "")
                raise UnknownPaperError(
                    f"id {text!r} is ambiguous: {len(found)} papers start so ({named})"
                )
        elif key and any(pid.startswith(key) for pid in loaded.ids()):
            # a paper's id starts so: "no paper has the id" sent the user to look for one
            raise UnknownPaperError(
                f"id {text!r} is too short: give at least 4 characters of a paper's id"
            )
        raise UnknownPaperError(f"no paper has the id {text!r} (see `papers list`)")

    def lists(self) -> list[ListInfo]:
        """The imported lists, in import order."""
        return lists_from(self.loaded_papers().lists)

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
        paths: Sequence[str | os.PathLike[str] | InputStream],
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
        imported, and one that is a document of another kind (an SVG, a Maven POM: XML no
        reader takes) is passed over, named in ``ImportReport.passed``. Records that cannot be
        used are reported in ``ImportReport.errors``. Decisions a file carries (our own
        exports, a library) go to the papers still in the Inbox, or to every paper with
        ``take_theirs``; no other decision is touched.
        ``limits``: how much a file may hold, whether pipes and devices are read (regular
        files only, up to ``storage.sources.limits.DEFAULT_MAX_BYTES``, unless told).
        ``dry_run``: the report of what the import would do, nothing written. Files as they
        were at an import that changed nothing, into the same papers, give that import's report
        without being read again (``storage.importing.replay``: ``ImportReport.replayed``).
        An ``InputStream`` among ``paths`` (standard input) is read whole, its format found
        from its content (``storage.sources.registry.read_stream``).
        """
        from storage.importing.replay import keep, replayed
        from storage.sources.limits import InputStream
        from storage.sources.papers import Catalog
        from storage.sources.registry import import_files_of, list_files, open_files, read_source

        given = [p if isinstance(p, InputStream) else Path(p) for p in paths]
        files = import_files_of(given)
        key = None
        paths_only = [file for file, _ in files if isinstance(file, Path)]
        if catalog is None and not take_theirs and not dry_run and len(paths_only) == len(files):
            key = self._import_key(paths_only, list_name, limits)
            known = key and replayed(self.home, key)
            if known:
                if progress is not None:
                    progress(known.read, known.read)
                return known
        # a large JSON Lines list is checked here, and read line by line as it is cleaned
        opened = open_files(files, limits)
        found = None
        if catalog is not None:
            found = Catalog.from_results(read_source(f, limits) for f in list_files(Path(catalog)))
            if not len(found):
                raise SourceError(f"{catalog}: the catalog holds no papers")
        report = self.import_results(
            opened.results, found, list_name, progress, take_theirs=take_theirs, dry_run=dry_run
        )
        report.failed, report.passed = opened.failed, opened.passed
        if any(result.missing_files for result in opened.results):  # what they give may change
            key = None
        if key is not None and (after := self._papers_content()) is not None:
            keep(self.home, key, report, after)
        return report

    def _import_key(
        self, files: Sequence[Path], list_name: str | None, limits: ReadLimits | None
    ) -> ImportKey | None:
        """The key of an import of ``files`` into the papers as they are now, for a report
        kept from the last such import (``storage.importing.replay``); None for an empty
        library (no import can change nothing) or a file that is not a regular file."""
        from storage.importing.replay import ImportKey
        from storage.sources.limits import ReadLimits

        content = self._papers_content()
        if content is None:
            return None
        given = limits or ReadLimits()
        return ImportKey.of(content, files, list_name, (given.max_bytes, given.special_files))

    def _papers_content(self) -> FileContent | None:
        """What ``papers.json`` holds now (its size and SHA-256, mostly from ``papers.key``)."""
        try:
            found = papers_version(self.papers_file, self.home)
        except OSError:
            return None
        return None if found is None else found[0][1]

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
        ``progress(done, total)`` follows the records (``(n, n)`` once all are read, before they
        are stored and indexed); ``dry_run``: nothing is written."""
        from storage.cache.update_ahead import IndexUpdateAhead

        # a large library's index is updated by a child while this process does the rest of
        # what the import derives: started now, so that it is ready by then
        ahead = None if dry_run else IndexUpdateAhead.start(self.home)
        try:
            return self._import_results(
                results, catalog, list_name, progress, take_theirs, dry_run, ahead
            )
        finally:
            if ahead is not None:
                ahead.close()

    def _import_results(
        self,
        results: Sequence[ReadResult | RecordStream],
        catalog: Catalog | None,
        list_name: str | None,
        progress: Progress | None,
        take_theirs: bool,
        dry_run: bool,
        ahead: IndexUpdateAhead | None,
    ) -> ImportReport:
        from storage.importing.gather import gather
        from storage.importing.resolve import resolve
        from storage.importing.store import iter_decisions, store

        report = ImportReport(dry_run=dry_run)
        # papers.json read now (its parse peaks at several times its size), not once the new
        # papers are in memory too; the change reads it again only if it changed meanwhile
        with contextlib.suppress(LibraryError):  # said by the change, as it would be
            self.papers_file.read_before_change()
        candidates = gather(results, catalog, list_name, report, progress)  # says the end too
        if not dry_run:  # (HOME not made until now: ``make``)
            make_home(self.home)
        with self.papers_file.dry_change() if dry_run else self.papers_file.change() as papers:
            incoming = resolve(candidates, papers.stored, report)
            del candidates  # the papers are in ``incoming`` now
            whole = [
                (
                    r.source,
                    list_named(list_name or r.list_name),
                    bool(getattr(r, "every_submission", 0)),
                    str(getattr(r, "refused", "")),
                )
                for r in results
                if getattr(r, "every_accepted", 0)
            ]
            store(papers, incoming, report, whole)
        taken = False  # the decisions the list carries
        try:  # the papers are stored: Ctrl+C from now on says so, not only "interrupted"
            carried = list(iter_decisions(incoming))
            report.carried = len(carried)
            del incoming  # the stored documents hold the papers: reading them back needs no more
            if carried:
                with (
                    self.triage_file.dry_change() if dry_run else self.triage_file.change()
                ) as triage:
                    triage.take(carried, take_theirs, report)  # one undo step
            if not dry_run:
                taken = True
                before, changed = papers.before, papers.changed
                del papers  # both tables of papers.json: not held while the index is made
                # the papers cached, the index made: the next search finds them
                self._derive(before, changed, ahead=ahead)
        except KeyboardInterrupt:
            if dry_run:
                raise
            raise ImportInterrupted(report, decisions_taken=taken) from None
        return report

    # -- triage -----------------------------------------------------------------------------
    def triage(self) -> TriageState:
        """Statuses, notes and tags of every paper, read in one go."""
        return self.triage_file.state()

    def statuses(self) -> dict[str, Status]:
        """Paper id → status, for papers not in the Inbox."""
        return self.triage().statuses

    def status(self, paper_id: str) -> Status:
        """The status of one paper (``Status.INBOX`` until decided)."""
        return self.triage_file.status(self.resolve_id(paper_id))

    def set_status(self, paper_id: str, status: Status | str) -> list[Change]:
        """Decide one paper; durable when it returns. Returns the change made (none if same)."""
        return self.set_statuses([paper_id], status)

    def set_statuses(self, paper_ids: Iterable[str], status: Status | str) -> list[Change]:
        """Decide many papers in one write and one undo step; durable when it returns.
        Papers starred join the reading queue (at its end, or its head: ``queue_top``)."""
        new = Status.parse(status)
        ids = list(dict.fromkeys(self.resolve_id(p) for p in paper_ids))
        return self.triage_file.decide(ids, new, top=self.queue_top)

    # -- the reading queue ------------------------------------------------------------------
    def queue(self) -> list[str]:
        """The reading queue: the starred papers' ids, head first (``storage.queue``)."""
        state = self.triage()
        return queue_ids(state.statuses, state.positions, state.decided_at)

    def move_in_queue(self, paper_id: str, to: int | str) -> list[Move]:
        """Move a starred paper to place ``to`` of the queue (1: the head; "top", "bottom"),
        as one undo step; returns the moves made (none when it is there already).
        ``UnknownPaperError`` for a paper not in the queue."""
        pid = self.resolve_id(paper_id)
        with self.triage_file.change() as triage:
            state = triage.state()
            queue = QueueOrder.of(state.statuses, state.positions, state.decided_at)
            if pid not in queue.keys:
                raise UnknownPaperError(f"{pid} is not in the reading queue (star it first)")
            index = 0 if to == "top" else len(queue) if to == "bottom" else int(to) - 1
            return triage.place(move_to(queue, pid, index), chosen=(pid,))

    def place_in_queue(
        self, placement: Mapping[str, Place], chosen: Collection[str] | None = None, sort: str = ""
    ) -> list[Move]:
        """Give papers of the queue places worked out elsewhere (the app's session), as one
        undo step; papers no longer starred are left alone. ``chosen``: the papers moved (None:
        all), the others given places only to make room (``TriageChange.place``); ``sort``: the
        sort that worked them out, named in the step (its undo says it)."""
        with self.triage_file.change() as triage:
            return triage.place(placement, chosen, sort)

    def sort_queue(self, name: str) -> list[Move]:
        """Sort the queue once by one of ``storage.queue.SORTS`` (``ValueError`` for another
        name), as one undo step; returns the moves made."""
        sort = sort_named(name)
        with self.triage_file.change() as triage:
            state = triage.state()
            queue = QueueOrder.of(state.statuses, state.positions, state.decided_at)
            facts = self.sort_facts(list(queue.ids), state, likeness=sort.needs_likeness)
            return triage.place(reordered(queue, sort.order(queue.ids, facts)), sort=sort.name)

    def sort_facts(
        self, ids: Sequence[str], state: TriageState, *, likeness: bool = True
    ) -> SortFacts:
        """What the queue's sorts read of its papers ``ids``: the papers, when each was
        starred, likeness (from ``similar.index``; ``likeness`` False: none, which only the
        likeness sort reads), pages (from the PDFs' text)."""
        from storage.cache.pdf_text import PdfTexts
        from storage.cache.similar_index import similarity_for

        loaded = self.loaded_papers()
        papers = {pid: loaded.paper(pid) for pid in ids if loaded.row_of(pid) is not None}
        scores: dict[str, float] = {}
        if likeness and len(papers) > 1:
            index = similarity_for(self.home, loaded.sequence(), loaded.content)
            found = index.suggest(state.statuses, candidates=list(papers))
            scores = {s.paper_id: s.score for s in found}
        pages = PdfTexts.open(self.home).pages()
        return SortFacts(papers, state.decided_at, scores, pages)

    def set_note(
        self,
        paper_id: str,
        note: str,
        *,
        append: bool = False,
        before_saving: Callable[[str], object] | None = None,
    ) -> str:
        """Set (or, with "", clear) the note of a paper, or (``append``) add a line to it;
        returns the note it had. ``before_saving`` is given the note it had before the change
        is written (outside the lock, again if it changed meanwhile: ``copy_first``): what it
        raises leaves the note as it was (``papers note`` prints the note it replaces, its
        only copy, before it is gone)."""
        pid = self.resolve_id(paper_id)
        if before_saving is None:
            return self.triage_file.set_note(pid, note, append=append)
        from storage.files.copy_first import change_after_copy

        def change(triage: TriageChange) -> str:
            return triage.set_note(pid, note, append=append)

        return change_after_copy(self.triage_file, change, before_saving, f"the note of {pid}")

    def set_tags(
        self,
        paper_id: str,
        tags: Sequence[str],
        before_saving: Callable[[tuple[str, ...]], object] | None = None,
    ) -> tuple[str, ...]:
        """Replace the tags of a paper (stored normalised); returns the tags it had.
        ``before_saving``: as ``set_note``'s, given the tags it had."""
        pid = self.resolve_id(paper_id)
        if before_saving is None:
            return self.triage_file.set_tags(pid, tags)
        from storage.files.copy_first import change_after_copy

        def change(triage: TriageChange) -> tuple[str, ...]:
            return triage.set_tags(pid, tags)

        return change_after_copy(self.triage_file, change, before_saving, f"the tags of {pid}")

    def days(self) -> list[DayCount]:
        """Decisions per day, oldest first."""
        return self.triage_file.days()

    def stats(self, today: date | None = None) -> LibraryStats:
        """Counts per status, list and venue status; progress; rate and time to an empty Inbox."""
        from storage.stats import Counted, LibraryStats, QueueStats

        state, days = self.triage_file.state_and_days()  # read once: counts and days agree
        loaded = self.loaded_papers()  # four fields of each paper, not the papers
        counted = [loaded.column(f) for f in ("id", "list", "venue_status", "lists")]
        today = today or date.today()
        stats = LibraryStats.compute(list(map(Counted, *counted)), state.statuses, days, today)
        present = set(counted[0])
        statuses = {pid: s for pid, s in state.statuses.items() if pid in present}
        queue = QueueStats.compute(statuses, state.positions, state.decided_at, today)
        return replace(stats, queue=queue)

    # -- undo -------------------------------------------------------------------------------
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
        if not os.path.lexists(self.triage_path):  # no step yet: no lock (nor HOME) made
            return StepDone()
        with self.lock, self.triage_file.change() as triage:  # a removal's undo: both files
            steps = triage.steps()
            if undo:
                todo = [s for s in steps if not s.undone]
                step = todo[-1] if todo else None
            else:
                todo = [s for s in steps if s.undone and not s.void]
                step = todo[0] if todo else None
            if step is None:
                return StepDone()
            if step.kind != REMOVE:  # a decision's moves are its papers' queue places
                moves = list(step.moves) if step.kind == ORDER else []
                return StepDone(triage.replay(step, undo=undo), moves=moves, sort=step.sort)
            removal = triage.step_document(step).get("removal", {})
            token = str(removal.get("token"))
            with self.papers_file.change() as papers:
                if undo:
                    back = papers.put_back(token)
                    changes = triage.put_back(back.ids, removal.get("decisions", {}))
                    done = StepDone(changes, restored=back)
                else:
                    referenced = _removal_tokens(triage.steps())
                    ids, name = removal.get("ids", ()), removal.get("list")
                    again = papers.take_out(token, ids, name, referenced)
                    kept = triage.pop(again.ids)
                    done = StepDone(removed=again)
                    triage.mark(step, undone=False, removal={**removal, "decisions": kept})
            if undo:
                triage.mark(step, undone=True)
        # read (and cached, the index brought along) here, as after a removal: the app's
        # writer thread pays for it, not the screen that shows the papers next
        self._derive(papers.before, papers.changed, build=False)
        return done

    def put_received(self, documents: Mapping[str, Mapping[str, Any]]) -> None:
        """Store paper documents another device sent (by paper id: ``storage.sync.apply``).
        The files derived from papers.json are brought along by ``derive_received``, once
        the sync has let go of what it read."""
        with self.papers_file.change() as papers:
            papers.put_documents(documents)
        if self._received is None:
            self._received = (papers.before, set(papers.changed))
        else:
            self._received[1].update(papers.changed)

    def derive_received(self) -> None:
        """Bring the derived files along after ``put_received``, as an import does: the next
        search, ``similar`` and the app's first search find the papers without building. (A
        sync wrote ``papers.json`` alone: at 100,000 papers the next search then built the
        index, 14 s, and the next import of 3 papers made everything again, 23 s.)"""
        if self._received is not None:
            before, changed = self._received
            self._received = None
            self._derive(before, changed)

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
        list (they only leave this one). ``UnknownPaperError`` for a list not in the library.
        A name past the cap is the list an import named by it (``caps.list_named``), or one
        kept whole by an import from before the cap, named whole."""
        lists = self.lists()
        if name not in (found := {info.name for info in lists}):
            name = list_named(name)
        if name not in found:
            from storage.text.words import NAME_CHARACTERS, shortened

            # names cut: lists (and the one asked) of 100,000 characters made a line of a MB
            names = [shortened(i.name, NAME_CHARACTERS) for i in lists[:10]]
            known = ", ".join(map(repr, names)) or "none"
            asked = shortened(name, NAME_CHARACTERS)
            raise UnknownPaperError(f"no list is named {asked!r} (the lists: {known})")
        return self._remove([], name)

    def _remove(self, ids: Sequence[str], list_name: str | None) -> Removal:
        token = f"{now():.6f}"
        with self.lock, self.triage_file.change() as triage:  # both files, in lock order
            referenced = _removal_tokens(triage.steps()) | {token}
            with self.papers_file.change() as papers:
                removal = papers.take_out(token, ids, list_name, referenced)
            if removal:
                decisions = triage.pop(removal.ids)
                payload = {"token": token, "ids": list(removal.ids), "list": list_name}
                triage.record([], REMOVE, removal={**payload, "decisions": decisions})
        self._derive(papers.before, papers.changed, build=False)
        return removal

    def _derive(
        self,
        before: Version | None,
        changed: Collection[str],
        *,
        build: bool = True,
        ahead: IndexUpdateAhead | None = None,
    ) -> None:
        """After a change of ``papers.json`` from version ``before`` that changed the papers
        ``changed``: its papers cached and the files derived from them brought along
        (``storage.cache.refresh``; with ``build``, made if they must be made from nothing)."""
        content = before and before[1]
        cache_after_change(self.papers_file, self.home, content, changed, whole_from=LARGE)
        loaded = self.loaded_papers()
        if len(loaded) >= LARGE:
            from storage.cache.derived import give_back_memory

            if not loaded.from_cache:
                # read from the cache just written instead: the parse's papers are let go
                self._loaded = None
                loaded = self.loaded_papers()
            # so are the documents written: the index is brought along in their memory
            # (1,000 papers into 100,000 peaked at 622 MB, then at 450: the change itself)
            self.papers_file.forget()
            give_back_memory()
        refresh_derived(
            self.home, loaded, content, changed, build=build, here=self.short_lived, ahead=ahead
        )


def _removal_tokens(steps: Iterable[Step]) -> set[str]:
    """The tokens of the removals the undo log still refers to."""
    return {step.removal_token for step in steps if step.removal_token}
