"""``triage.json``: every decision, note and tag, the queue's order, the undo log, the days, the
sync marks.

This module alone reads and writes the file (its tables are described in ``triage_model``,
which holds their values). It is written on every decision, so it stays small: a plain Inbox
paper with no note and no tags takes no room in it. Every change is one ``TriageChange``
(``TriageFile.change()``): under the HOME lock, the file read again first, written once,
atomically (``atomic.AtomicJSONStorage``). Decisions are written straight into the tables
rather than through TinyDB's table calls, which convert every document id of a table on each
call: a decision costs the same with 100 papers decided as with 100,000.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from storage.caps import check_note, check_tags
from storage.files.atomic import (
    AtomicJSONStorage,
    ChangingTables,
    FileContent,
    FileSignature,
    ScratchTables,
    Tables,
    signature,
)
from storage.files.locks import HomeLock
from storage.files.migrations import migrate_triage
from storage.files.triage_model import (
    DECIDE,
    HISTORY_CHANGES_LIMIT,
    HISTORY_LIMIT,
    ORDER,
    REMOVE,
    RESTORE,
    SCHEMA,
    DayCount,
    Move,
    Step,
    TriageState,
    count_day,
    days_from_tables,
    decision_times,
    doc_id,
    give_status,
    leave_removals,
    leave_steps,
    made_elsewhere,
    merged_tags,
    moved,
    normalise_tags,
    now,
    position_of,
    standing,
    state_from_tables,
    step_times,
    steps_from_tables,
    times_given,
    written_at,
)
from storage.models import Change, Decision, ImportReport, Place, Status
from storage.queue.order import after_queue, end_position, file_places

TRIAGE_FILE = "triage.json"
#: The table that marks the last merge written from each sync folder.
SYNC_TABLE = "sync"


class StateMemo(Protocol):
    """Where the state a parse of ``triage.json`` gave is kept between processes
    (``storage.cache.triage_memo``): read for the file as it is now, written for a version."""

    def read(
        self, source: Path, schema: int
    ) -> tuple[FileSignature, TriageState, list[DayCount]] | None: ...

    def write(
        self, content: FileContent, schema: int, state: TriageState, days: list[DayCount]
    ) -> None: ...


@dataclass(frozen=True, slots=True)
class Received:
    """A paper's triage as another device made it (sync): the parts it changed."""

    status: Status | None = None
    #: When the status was given, in milliseconds since the epoch.
    at_ms: int = 0
    note: str | None = None
    tags: tuple[str, ...] | None = None
    #: Whether ``position`` arrived (a position may arrive as None: the paper has none).
    has_position: bool = False
    #: Its place in the reading queue.
    position: Place | None = None
    #: When its note, tags and position were made elsewhere, by register (``"n"``, ``"g"``,
    #: ``"q"``; milliseconds since the epoch, the records' stamps).
    made_ms: Mapping[str, int] = field(default_factory=dict)


class TriageFile:
    """``triage.json`` in a HOME: read it, or change it in one ``TriageChange``.

    ``renamed`` gives the ids ``papers.json`` renamed, for the migration of an older file;
    ``memo`` keeps the state between commands (``uses_memo``).
    """

    def __init__(
        self,
        home: Path,
        lock: HomeLock,
        renamed: Callable[[], Mapping[str, str]],
        memo: StateMemo | None = None,
    ):
        self.path = home / TRIAGE_FILE
        self._memo = memo
        #: Whether this process changed the file since it last kept the memo.
        self._changed = False
        #: Set when the file was read in an older schema: it is then written once, migrated.
        self._migrated = False

        def migrate(tables: Tables, version: int) -> Tables:
            self._migrated = True
            return migrate_triage(tables, version, renamed())

        self._store = AtomicJSONStorage(
            self.path, lock=lock, kind="triage", schema=SCHEMA, migrate=migrate
        )
        #: The version last read, its state and days (a command reads them twice).
        self._read: tuple[FileSignature, TriageState, list[DayCount]] | None = None
        #: The bytes of that version when it came from a parse (hashed: ``uses_memo``) and
        #: the memo does not hold it yet.
        self._unkept: FileContent | None = None

    @property
    def uses_memo(self) -> bool:
        """Whether the state is read from the memo when it holds the file as it is, and the
        state read from a parse or written here is kept in it (``keep_memo``): set for a
        command of the CLI. Not for the app: its keys write the file, and a state read from
        the memo would leave the file's parse to its first decision, in the thread that
        writes it beside the screen's. The versions read and written are then hashed as they
        are (the memo names the very bytes its state is of)."""
        return self._store.digest

    @uses_memo.setter
    def uses_memo(self, value: bool) -> None:
        self._store.digest = value and self._memo is not None

    # -- reading ------------------------------------------------------------------------
    def load(self) -> Tables:
        """The parsed tables (the last parse when the file has not changed); an older file is
        written once, migrated."""
        return self._load_signed()[0]

    def _load_signed(self) -> tuple[Tables, FileSignature | None]:
        """``load``, and the version of the file the tables are."""
        tables, version = self._store.load_signed()
        if self._migrated:
            self._migrated = False
            with self._store.transaction():
                self._store.writable_table("decisions")
            tables, version = self._store.load_signed()
        return tables or {}, version

    def state(self) -> TriageState:
        """Statuses, notes, tags and decision times of every paper, read in one go (a copy:
        the caller may change it)."""
        return self._state_and_days()[0].copy()

    def status(self, paper_id: str) -> Status:
        """One paper's status (``Status.INBOX`` until decided)."""
        doc = self.load().get("decisions", {}).get(str(doc_id(paper_id)))
        return Status(doc["status"]) if doc and "status" in doc else Status.INBOX

    def days(self) -> list[DayCount]:
        """Decisions per day, oldest first."""
        return list(self._state_and_days()[1])

    def state_and_days(self) -> tuple[TriageState, list[DayCount]]:
        """``state()`` and ``days()`` of one reading of the file (they agree)."""
        state, days = self._state_and_days()
        return state.copy(), list(days)

    def _state_and_days(self) -> tuple[TriageState, list[DayCount]]:
        """The state and days of the file as it is now (not to be changed): those last read
        while the file is that version, else those of its tables when this process holds them
        (it wrote them), else the memo's, else those of a parse."""
        now = signature(self.path)
        read = self._read
        if read is not None and now is not None and read[0] == now:
            return read[1], read[2]
        if self._memo and self.uses_memo and now is not None and not self._store.holds(now):
            found = self._memo.read(self.path, SCHEMA)
            if found is not None and found[0] == now:
                self._read, self._unkept = found, None
                self._store.seen(now)  # not changed on disk for this process
                return found[1], found[2]
        tables, version = self._load_signed()
        state, days = state_from_tables(tables), days_from_tables(tables)
        if version is not None:
            known = self._store.known_content()
            self._read = (version, state, days)
            self._unkept = known[1] if known and known[0].signature == version else None
        return state, days

    def keep_memo(self) -> None:
        """With ``uses_memo``, keep in the memo the state this process read from a parse or
        wrote, so that the next command reads it at once. For a command, once its output is
        out; best effort."""
        if self._memo is None or not self.uses_memo:
            return
        if self._changed:
            self._changed = False
            if not self._store.holds(signature(self.path)):
                return  # changed by another process since: its next reader parses it
            self._state_and_days()  # the version written: in memory, not parsed again
        content, self._unkept = self._unkept, None
        if content is not None and self._read is not None:
            self._memo.write(content, SCHEMA, self._read[1], self._read[2])

    def steps(self) -> list[Step]:
        """The undo log, oldest first."""
        return steps_from_tables(self.load())

    def removed_ids(self) -> set[str]:
        """The papers the undo log's removals took out (and that no undo put back)."""
        found: set[str] = set()
        for doc in self.load().get("history", {}).values():
            removal = doc.get("removal") if isinstance(doc, dict) else None
            if doc.get("kind") == REMOVE and not doc.get("undone") and isinstance(removal, dict):
                found.update(str(pid) for pid in removal.get("ids") or () if isinstance(pid, str))
        return found

    def synced_generation(self, folder_key: str) -> int | None:
        """The generation of the last merge from a sync folder that the file holds."""
        found = self._sync_mark(folder_key).get("generation")
        return found if isinstance(found, int) and not isinstance(found, bool) else None

    def written_at(self) -> tuple[dict[str, float], dict[str, float]]:
        """When each paper's note, and its tags, were last written here (seconds; by the
        user or an import, not by a sync): papers by id."""
        notes: dict[str, float] = {}
        tags: dict[str, float] = {}
        for key, doc in self.load().get("decisions", {}).items():
            if not isinstance(doc, dict) or not key.isdigit():
                continue
            pid = doc.get("id") or f"{int(key):012x}"
            for name, found in (("na", notes), ("ga", tags)):
                at = doc.get(name)
                if isinstance(at, int | float) and not isinstance(at, bool):
                    found[str(pid)] = float(at)
        return notes, tags

    def synced_time(self, folder_key: str) -> float | None:
        """When the file got its mark from a sync folder (seconds, as decisions' times)."""
        found = self._sync_mark(folder_key).get("at")
        if isinstance(found, bool) or not isinstance(found, int | float):
            return None
        return float(found)

    def _sync_mark(self, folder_key: str) -> dict[str, Any]:
        table = self.load().get(SYNC_TABLE)
        mark = table.get(folder_key) if isinstance(table, dict) else None
        return mark if isinstance(mark, dict) else {}

    def changed_on_disk(self) -> bool:
        """True when another process changed the file since this one last read or wrote it."""
        return self._store.changed_on_disk()

    @property
    def last_change_met_others(self) -> bool:
        """True when the last change found (and kept) another process's changes."""
        return self._store.saw_outside_change

    # -- changing -----------------------------------------------------------------------
    @contextmanager
    def change(self) -> Iterator[TriageChange]:
        """One change of the file: locked, read again first, written once at the end (not at
        all if nothing changed, nor if the block raises)."""
        with self._store.transaction():
            self._changed = True
            yield TriageChange(self._store)

    @contextmanager
    def dry_change(self) -> Iterator[TriageChange]:
        """A change made on a copy of the tables in memory: nothing is written (a dry run)."""
        yield TriageChange(ScratchTables(self.load()))

    def decide(self, ids: Sequence[str], status: Status, *, top: bool = False) -> list[Change]:
        """Give papers a status, one undo step; returns the changes made (none if the same).
        Papers starred join the reading queue at its end (``top``: at its head)."""
        with self.change() as change:
            return change.decide(ids, status, top=top)

    def set_note(self, paper_id: str, note: str, *, append: bool = False) -> str:
        """Set (or, with "", clear) a paper's note, or add to it; returns the note it had
        (see ``TriageChange.set_note``); ``TooBigError`` past its cap."""
        with self.change() as change:
            return change.set_note(paper_id, note, append=append)

    def set_tags(self, paper_id: str, tags: Sequence[str]) -> tuple[str, ...]:
        """Replace a paper's tags; returns those it had; ``TooBigError`` past their caps."""
        with self.change() as change:
            return change.set_tags(paper_id, tags)


class TriageChange:
    """The tables of ``triage.json`` inside one transaction, changed through paper-level
    calls: decisions, undo steps, notes and tags, what sync and imports bring."""

    def __init__(self, store: ChangingTables) -> None:
        self._store = store
        found = store.read()  # the transaction's own tables (not a copy when they are empty:
        # a second call in the same change must see what the first one wrote)
        self._found: Tables = found if found is not None else {}

    # -- decisions ----------------------------------------------------------------------
    def documents(self, ids: Iterable[str]) -> dict[str, dict[str, Any]]:
        """The decision documents of papers (copies, by paper id; {} for a plain Inbox one)."""
        raw = self._found.get("decisions", {})
        return {pid: dict(raw.get(str(doc_id(pid))) or {}) for pid in ids}

    def save(self, docs: Mapping[str, Mapping[str, Any]]) -> None:
        """Write decision documents (by paper id); a plain Inbox paper takes no room, but for
        when its note or tags were cleared here (``na``, ``ga``): sync sends that clearing by
        its time, which a restored older file would otherwise take for its own old note."""
        table = self._store.writable_table("decisions")
        for pid, doc in docs.items():
            key = str(doc_id(pid))
            if (
                doc.get("status", "inbox") != "inbox"
                or doc.get("note")
                or doc.get("tags")
                or "na" in doc
                or "ga" in doc
            ):
                # (a cleared note or tags: only when they were cleared is kept)
                table[key] = {
                    k: v for k, v in doc.items() if k != "id" and (v or k not in ("note", "tags"))
                }
            else:
                table.pop(key, None)

    def decide(self, ids: Sequence[str], status: Status, *, top: bool = False) -> list[Change]:
        """Give papers a status as one undo step (see ``TriageFile.decide``)."""
        docs = self.documents(ids)
        changes: list[Change] = []
        for pid in ids:
            old = Status(docs[pid].get("status", "inbox"))
            if old is not status:
                changes.append((pid, old, status))
        if changes:
            # where the papers joining or leaving the queue stood, and stand after: the step
            # keeps it, so that its undo puts each back in its place (and its redo again)
            queued = [pid for pid, old, new in changes if Status.STARRED in (old, new)]
            before = {pid: position_of(docs[pid]) for pid in queued}
            if status is Status.STARRED:  # a new star joins the queue (a position of its own)
                self._join_queue([c[0] for c in changes], docs, top=top, keep=False)
            moves = [[pid, before[pid], position_of(docs[pid])] for pid in queued]
            was = times_given(changes, docs)  # what an undo gives back with each status
            # the step keeps the decision's time, and any moved past a last decision: the
            # times its redo gives again (``step_times``)
            given = self._apply(changes, docs, at=(at := now()))
            self.record(changes, DECIDE, moves=moves, was=was, set=moved(given, at), at=at)
        return changes

    def state(self) -> TriageState:
        """The triage as the transaction found it."""
        return state_from_tables(self._found)

    def _queue_keys(self) -> list[Place]:
        """Where the starred papers stand in the queue, as the transaction found them."""
        found = self._found.get("decisions", {}).values()
        return [standing(d) or 0.0 for d in found if d.get("status") == Status.STARRED.value]

    def _join_queue(
        self, ids: Sequence[str], docs: dict[str, dict[str, Any]], *, top: bool, keep: bool
    ) -> None:
        """Give papers that are being starred a position after the queue's last (``top``:
        before its first), in the order given; ``keep``: a paper with one keeps it (an undo
        puts a paper back where it was)."""
        if keep:
            ids = [pid for pid in ids if position_of(docs[pid]) is None]
        if not ids:
            return
        start = end_position(self._queue_keys(), top=top)
        step = -1.0 if top else 1.0
        at = round(now(), 3)
        for i, pid in enumerate(reversed(ids) if top else ids):
            docs[pid]["q"], docs[pid]["qa"] = start + i * step, at

    def place(
        self, placement: Mapping[str, Place], chosen: Collection[str] | None = None, sort: str = ""
    ) -> list[Move]:
        """Give papers of the queue new places, as one undo step (``order``, named by ``sort``
        when a sort made them); returns the moves made (none when every paper is where it was).
        ``chosen``: the papers whose places the user chose (None: all); the others only make
        room, and keep when theirs was chosen (``qa``): sync stamps them before a move of theirs
        made elsewhere, which wins."""
        docs = self.documents(placement)
        moves: list[Move] = []
        at = round(now(), 3)
        for pid, new in placement.items():
            old = position_of(docs[pid])
            if old != new and docs[pid].get("status") == Status.STARRED.value:
                moves.append((pid, old, new))
                made = at if chosen is None or pid in chosen else docs[pid].get("qa", 0.0)
                docs[pid]["q"], docs[pid]["qa"] = new, made
        if moves:
            self.save(docs)
            self.record([], ORDER, moves=[list(move) for move in moves], sort=sort)
        return moves

    def set_note(self, paper_id: str, note: str, *, append: bool = False) -> str:
        """Set (or, with "", clear) a paper's note, or (``append``) add ``note`` on a line of its
        own; returns the note it had (read in this transaction). ``TooBigError`` past its cap."""
        before = str(self.documents([paper_id])[paper_id].get("note") or "")
        text = note.strip()
        if append:
            text = "\n".join(part for part in (before, text) if part)
        self.update(paper_id, note=check_note(text), na=round(now(), 3))
        return before

    def set_tags(self, paper_id: str, tags: Sequence[str]) -> tuple[str, ...]:
        """Replace a paper's tags (normalised); returns the tags it had (read in this
        transaction: what ``papers tag`` prints, as no undo brings tags back)."""
        before = tuple(self.documents([paper_id])[paper_id].get("tags") or ())
        clean = check_tags(normalise_tags(tags))  # (``TooBigError`` past the caps)
        self.update(paper_id, tags=list(clean), ga=round(now(), 3))
        return before

    def update(self, paper_id: str, **values: Any) -> None:
        """Set parts of a paper's document other than its status (``note``, ``tags``)."""
        docs = self.documents([paper_id])
        docs[paper_id].update(values)
        self.save(docs)

    def _apply(
        self,
        changes: Sequence[Change],
        docs: dict[str, Any],
        times: Mapping[str, float] | None = None,
        at: float | None = None,
    ) -> dict[str, float]:
        """The new statuses given at ``at`` (else now), or (an undo's, a redo's) at ``times``,
        by paper; returns their times."""
        # a millisecond apart in the order given: papers starred together keep their order
        # in the sort by when they were starred
        given = decision_times(
            (pid for pid, _old, _new in changes), now() if at is None else at, docs
        )
        for pid, old, new in changes:
            if old is Status.STARRED and new is not old and position_of(docs[pid]) is None:
                docs[pid]["q"] = float(docs[pid].get("at", 0.0))  # its place, for an undo
            give_status(docs[pid], new)  # (to the Inbox: out of the queue)
            docs[pid]["at"] = given[pid] = (times or {}).get(pid, given[pid])
        self.save(docs)
        return given

    def pop(self, ids: Collection[str]) -> dict[str, Any]:
        """The decision documents of ``ids``, taken out (a removal keeps them in its step)."""
        table = self._store.writable_table("decisions")
        found = {pid: table.pop(str(doc_id(pid)), None) for pid in ids}
        return {pid: doc for pid, doc in found.items() if doc}

    def put_back(self, ids: Iterable[str], kept: Mapping[str, Any]) -> list[Change]:
        """Give papers put back their decision documents ``kept`` (by paper id) unless they
        have one again; returns each paper's change from the Inbox."""
        table = self._store.writable_table("decisions")
        changes: list[Change] = []
        for pid in ids:
            doc = kept.get(pid)
            if doc and str(doc_id(pid)) not in table:
                table[str(doc_id(pid))] = doc
            changes.append((pid, Status.INBOX, Status((doc or {}).get("status", "inbox"))))
        return changes

    # -- the undo log -------------------------------------------------------------------
    def steps(self) -> list[Step]:
        """The undo log as the transaction found it, oldest first."""
        return steps_from_tables(self._found)

    def step_document(self, step: Step) -> dict[str, Any]:
        """What a step keeps besides its changes (a removal's papers, say)."""
        return dict(self._found.get("history", {}).get(str(step.seq), {}))

    def record(
        self, changes: Sequence[Change], kind: str = DECIDE, at: float | None = None, **more: Any
    ) -> None:
        """Log a new step of ``kind``, at ``at`` (else now; ``more``: what else it keeps, those
        that hold anything):
        it drops the redo steps, and the oldest beyond the limits. Only the user's decisions
        count in the days."""
        history = self._store.writable_table("history")
        seqs = sorted(int(k) for k in history)
        for seq in seqs:
            doc = history[str(seq)]
            if not doc.get("undone") or doc.get("void"):
                continue
            if doc.get("changes") and doc.get("kind", DECIDE) in (DECIDE, RESTORE):
                history[str(seq)] = {**doc, "void": True}  # no redo; sync reads its time
            else:
                del history[str(seq)]
        kept = [s for s in seqs if str(s) in history]
        total = sum(len(history[str(s)].get("changes", ())) for s in kept) + len(changes)
        while kept and (len(kept) >= HISTORY_LIMIT or total > HISTORY_CHANGES_LIMIT):
            total -= len(history.pop(str(kept.pop(0))).get("changes", ()))
        seq = (seqs[-1] + 1) if seqs else 1
        at = round(now() if at is None else at, 3)
        step = Step(seq=seq, at=at, changes=tuple(changes), kind=kind)
        history[str(step.seq)] = {**step.to_doc(), **{k: v for k, v in more.items() if v}}
        if step.counted:
            self._count(changes, step.at, 1)

    def replay(self, step: Step, *, undo: bool) -> list[Change]:
        """Undo (or redo) a step of decisions, or of the queue's order: its changes (or
        moves), reversed (or again), and the step marked; returns the changes made."""
        if step.kind == ORDER:
            self._replay_moves(step, undo=undo)
            return []
        if undo:
            changes = [(pid, new, old) for pid, old, new in reversed(step.changes)]
        else:
            changes = list(step.changes)
        docs = self.documents(c[0] for c in changes)
        starred = [pid for pid, _old, new in changes if new is Status.STARRED]
        at = round(now(), 3)
        for pid, before, after in step.moves:  # where the step found it (or left it)
            place = before if undo else after
            if place is not None and pid in docs and pid in starred:
                docs[pid]["q"], docs[pid]["qa"] = place, at
        self._join_queue(starred, docs, top=False, keep=True)  # back in place, else at the end
        self._apply(changes, docs, step_times(self.step_document(step), step, undo=undo))
        self.mark(step, undone=undo)
        if step.counted:
            self._count(step.changes, step.at, -1 if undo else 1)
        return changes

    def _replay_moves(self, step: Step, *, undo: bool) -> None:
        """Put the papers an ``order`` step moved back where they were (or moved again)."""
        docs = self.documents(move[0] for move in step.moves)
        at = round(now(), 3)
        for pid, old, new in step.moves:
            value = old if undo else new
            if value is None:
                docs[pid].pop("q", None)
                docs[pid].pop("qa", None)
            else:
                docs[pid]["q"], docs[pid]["qa"] = value, at
        self.save(docs)
        self.mark(step, undone=undo)

    def mark(self, step: Step, *, undone: bool, **more: Any) -> None:
        """Mark a step undone (or done again), keeping ``more`` in it."""
        history = self._store.writable_table("history")
        marked = round(now(), 3)
        history[str(step.seq)] = {
            **history[str(step.seq)],
            "undone": undone,
            "marked": marked,
            **more,
        }

    def _count(self, changes: Iterable[Change], at: float, sign: int) -> None:
        days = self._store.writable_table("days")
        raw = {int(k): v for k, v in days.items()}
        count_day(raw, changes, at, sign)
        for key, doc in raw.items():
            days[str(key)] = doc

    # -- what imports and other devices bring -------------------------------------------
    def take(
        self,
        carried: Sequence[tuple[str, Decision]],
        take_theirs: bool,
        report: ImportReport,
    ) -> list[Change]:
        """Give the decisions a file carries to the papers still in the Inbox (``take_theirs``:
        to all), as one ``restore`` undo step; returns the status changes made. A paper
        decided otherwise here keeps its decision and counts in ``report.differing``; a note or
        tags fill what a paper's are missing when the file names its status or none (BibTeX,
        RIS, CSL-JSON name none)."""
        docs = self.documents(pid for pid, _ in carried)
        changes: list[Change] = []
        was, given = dict[str, float](), dict[str, float]()  # the times replaced, and given
        moves: list[list[Any]] = []  # the queue's places, as a decision's step keeps them
        # the file's queue order, behind this library's queue
        stars = [(pid, d.position, d.at) for pid, d in carried if d.status is Status.STARRED]
        places = after_queue(file_places(stars), self._queue_keys())
        for pid, theirs in carried:
            doc = docs[pid]
            ours = Status(doc.get("status", "inbox"))
            status = theirs.status or ours
            note, tags = doc.get("note", ""), list(doc.get("tags", ()))
            if status is ours and note == theirs.note and tuple(tags) == theirs.tags:
                continue
            if ours is not Status.INBOX and not take_theirs and status is not ours:
                report.differing += 1
                continue
            if status is not ours:
                changes.append((pid, ours, status))
                was.update(times_given([(pid, ours, status)], docs))
                before = standing(doc)
                give_status(doc, status)  # (to the Inbox: out of the queue, as a decision)
                doc["at"] = round(theirs.at, 3) if theirs.at is not None else round(now(), 3)
                if theirs.at is not None:  # (else its redo's time is the step's)
                    given[pid] = doc["at"]
                if pid in places:  # its place in the queue the file was made of
                    doc["q"], doc["qa"] = places[pid], round(now(), 3)
                if Status.STARRED in (ours, status):  # for the undo, and its redo
                    moves.append([pid, before, standing(doc)])
            if take_theirs:
                doc["note"], doc["tags"] = theirs.note, list(theirs.tags)
            else:  # a note or tags of the library are kept; the file fills what is empty
                doc["note"] = note or theirs.note
                doc["tags"] = merged_tags(tags, theirs.tags)
            if status is ours and (doc["note"], doc["tags"]) == (note, tags):
                report.differing += 1  # the file's note and tags differ: the library's kept
                continue
            written_at(doc, note, tags)
            if status is ours:
                report.filled += 1
            else:
                report.restored += 1
        self.save(docs)
        if changes:
            self.record(changes, RESTORE, moves=moves, was=was, set=given)
        return changes

    def receive(self, received: Mapping[str, Received]) -> Counter[str]:
        """Write what other devices decided (sync): statuses, notes, tags. A status that
        arrives takes its paper out of this device's undo steps (undo here undoes what was
        decided here) and counts in the day it was made. Returns what changed."""
        done: Counter[str] = Counter()
        docs = self.documents(received)
        decided: list[tuple[str, Status, Status, int]] = []
        for pid, values in received.items():
            doc = docs[pid]
            if values.status is not None:
                old = Status(doc.get("status", Status.INBOX.value))
                decided.append((pid, old, values.status, values.at_ms))
                doc["status"] = values.status.value
                doc["at"] = round(values.at_ms / 1000, 3)  # (as a decision made here)
                done["statuses"] += 1
            if values.note is not None:
                doc["note"] = values.note
                made_elsewhere(doc, "na", values.made_ms.get("n"))
                done["notes"] += 1
            if values.tags is not None:
                doc["tags"] = list(values.tags)
                made_elsewhere(doc, "ga", values.made_ms.get("g"))
                done["tags"] += 1
            if values.has_position:
                made_elsewhere(doc, "qa", values.made_ms.get("q"))
                if values.position is None:
                    doc.pop("q", None)
                else:
                    doc["q"] = values.position
                done["queue moves"] += 1
        self.save(docs)
        moved = {pid for pid, values in received.items() if values.has_position}
        if moved:
            self._leave_undo_steps(moved, "moves")
        if decided:
            self._leave_undo_steps({d[0] for d in decided})
            days = self._store.writable_table("days")
            raw = {int(k): v for k, v in days.items()}
            for pid, old, new, stamp in decided:
                count_day(raw, [(pid, old, new)], stamp / 1000, 1)
            for key, doc in raw.items():
                days[str(key)] = doc
        return done

    def _leave_undo_steps(self, pids: Collection[str], part: str = "changes") -> None:
        """Take ``pids`` out of this device's undo steps (``leave_steps``)."""
        leave_steps(self._store.writable_table("history"), pids, part)

    def leave_removals(self, pids: Collection[str]) -> None:
        """Papers another device brought back (its undo of a removal, or an import) leave
        this device's removals of them (``leave_removals``): undo here then undoes what was
        done here, not a removal the others have undone."""
        if pids:
            leave_removals(self._store.writable_table("history"), pids)

    def mark_synced(self, folder_key: str, generation: int) -> None:
        """Note the merge ``generation`` from a sync folder as written, and when: a decision
        made after the mark is one the sync has not seen, even in a file put back from an
        older copy."""
        mark = {"generation": generation, "at": round(now(), 3)}
        self._store.writable_table(SYNC_TABLE)[folder_key] = mark
