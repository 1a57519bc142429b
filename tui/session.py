"""The app's triage session: decisions show at once, reach the disk in order, off-thread.

A decision makes three promises, each kept by one method with a name of its own:

- **shown**: the main screen's ``decide`` (``tui/screens/main/base.py``) puts it on screen in
  the key's frame;
- **queued**: ``TriageSession.queue_status`` (here) puts it in the live state at once and
  hands it to one writer thread, which persists operations in the order they were made, never
  dropping one (every operation here is ``queue_…``);
- **durable**: ``Library.set_status`` returns once it is on disk (the CLI's, and the writer's).

Undo and redo are answered from the disk (they may undo another process's step), and
``queue_reload`` re-reads the file when another process changed it, re-applying the
operations still on their way.

Removals go through the same writer, in order with the decisions around them, and are steps of
the same undo log: undoing one puts its papers back (with their decisions, notes and tags), and
redoing it takes them out again. An operation that changed the papers says so in its
``Outcome`` (``removed``, ``restored``): the app then reads the papers again.
"""

from __future__ import annotations

import contextlib
import queue
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from storage.caps import check_note, check_tags, note_problem, tags_problem
from storage.files.three_way import merge_note, merge_tags
from storage.files.triage_file import Change, TriageChange, TriageState, normalise_tags
from storage.files.triage_model import decision_times, now
from storage.library import Library
from storage.models import Place, Removal, Status
from storage.queue import end_position, queue_ids, sort_key

#: The longest the writer waits for ``release_writes`` after ``hold_writes``: a UI that never
#: releases (it crashed mid-frame) delays a decision's write by this much, never loses it.
HOLD_LIMIT_S = 0.1
#: A decision shown is on disk within this (at the 95th percentile, with other processes
#: taking the HOME lock in loops beside the app); ``TriageSession.late`` says when the oldest
#: operation on its way has waited longer.
PROMISE_S = 1.0
#: Decisions, notes and tags waiting together are written in one transaction, up to this many
#: (one read and one write of ``triage.json`` for all, each decision still its own undo step).
BATCH_LIMIT = 256

OpKind = Literal["status", "note", "tags", "undo", "redo", "reload", "remove", "queue"]

#: Operations that may change the papers, not only their triage (removals and their undo).
PAPER_KINDS: frozenset[OpKind] = frozenset({"undo", "redo", "remove"})
#: Operations written together when several wait (``BATCH_LIMIT``).
BATCHED: frozenset[OpKind] = frozenset({"status", "note", "tags"})


@dataclass(slots=True)
class Operation:
    """One thing to persist, numbered in the order it was made."""

    seq: int
    kind: OpKind
    paper_ids: tuple[str, ...] = ()
    status: Status = Status.INBOX
    text: str = ""
    tags: tuple[str, ...] = ()
    #: The list a "remove" operation takes out (None: it removes ``paper_ids``).
    list_name: str | None = None
    #: The places a "queue" operation gives papers of the reading queue (its ``paper_ids``:
    #: the papers moved, the others making room; none: a sort, every paper moved).
    placement: dict[str, Place] = field(default_factory=dict)
    #: The sort that gave a "queue" operation's places (its name; "": a move by hand).
    sort: str = ""
    #: The note a "note" operation was written over (an editor's, as it opened; None: any).
    base: str | None = None
    #: The tags a "tags" operation was written over (a prompt's, as it opened; None: any).
    tags_base: tuple[str, ...] | None = None
    #: When it was made (``time.monotonic``).
    made: float = field(default_factory=time.monotonic)


@dataclass(slots=True)
class Outcome:
    """What the writer reports back for an operation (on the writer thread)."""

    op: Operation
    changes: list[Change] = field(default_factory=list)
    triage: TriageState | None = None
    error: Exception | None = None
    #: What a removal, or the redo of one, took out.
    removed: Removal | None = None
    #: What the undo of a removal put back.
    restored: Removal | None = None
    #: What the undo or redo of a move in the reading queue moved: (paper, before, after).
    moves: list[tuple[str, Place | None, Place | None]] = field(default_factory=list)
    #: The sort whose order that undo or redo took back or gave again ("": a move by hand).
    sort: str = ""
    #: A "note" ("tags") operation written over a note (tags) changed elsewhere meanwhile
    #: was merged with that change (``storage.files.three_way``): the lines (tags) another
    #: writer added, kept; those it took out that were saved here, left out.
    kept: list[str] = field(default_factory=list)
    gone: list[str] = field(default_factory=list)
    #: The lines (tags) added elsewhere when the note (tags) with them would pass a cap: not
    #: kept (those taken out elsewhere stay out all the same).
    dropped: list[str] = field(default_factory=list)
    #: What was written is not what the operation saved: the disk's, merged.
    merged: bool = False

    @property
    def papers_changed(self) -> bool:
        """Whether papers left or came back (the app must read them again)."""
        return bool(self.removed) or bool(self.restored)


class TriageSession:
    """Live triage state for the app, persisted in order by a background writer."""

    def __init__(self, library: Library, on_outcome: Callable[[Outcome], None]) -> None:
        self.library = library
        self.state = library.triage()
        self._on_outcome = on_outcome
        self._queue: queue.Queue[Operation | None] = queue.Queue()
        self._pending: deque[Operation] = deque()
        self._lock = threading.Lock()
        self._seq = 0
        self._done = 0
        #: Changes whenever the live state does (what a view may key its caches on).
        self.version = 0
        #: How many operations the user has made (every kind but a reload): whether anything
        #: was done since a moment (the screen's undo of a deleted saved search asks).
        self.steps = 0
        self._idle = threading.Event()
        self._idle.set()
        #: Cleared while the UI draws what an operation changed (see ``hold_writes``).
        self._go = threading.Event()
        self._go.set()
        self._thread = threading.Thread(target=self._run, name="papers-writer", daemon=True)
        self._thread.start()

    # -- reading ----------------------------------------------------------------------------
    def status(self, paper_id: str) -> Status:
        return self.state.statuses.get(paper_id, Status.INBOX)

    @property
    def busy(self) -> bool:
        """True while operations are still on their way to the disk."""
        return not self._idle.is_set()

    @property
    def absorbed(self) -> bool:
        """True once every operation queued is on disk and its outcome taken in by the UI
        (``absorb``): the writer is idle (``busy`` False) a moment before its last outcome
        reaches the UI's thread."""
        with self._lock:
            return not self._pending

    @property
    def waited(self) -> float:
        """Seconds the oldest operation still on its way to the disk has waited (0.0: none)."""
        with self._lock:  # pending until the UI absorbs it: on disk once ``_done`` passes it
            oldest = next((op.made for op in self._pending if op.seq > self._done), None)
        return 0.0 if oldest is None else time.monotonic() - oldest

    @property
    def late(self) -> bool:
        """True while the oldest operation on its way has waited longer than ``PROMISE_S``
        (another process holds the HOME lock: the screen may say that writes wait)."""
        return self.waited > PROMISE_S

    @property
    def changing_papers(self) -> bool:
        """True from the moment a removal, undo or redo is queued until its outcome is
        absorbed: ``papers.json`` may change meanwhile, and that change is the app's own."""
        with self._lock:
            return any(op.kind in PAPER_KINDS for op in self._pending)

    # -- operations (called on the UI thread) -----------------------------------------------
    def queue_status(self, paper_ids: Iterable[str], status: Status) -> list[Change]:
        """Decide papers now (in memory) and queue the decision; returns the changes shown."""
        changes = [(pid, self.status(pid), status) for pid in dict.fromkeys(paper_ids)]
        with self._lock:
            undo_queued = any(op.kind in ("undo", "redo") for op in self._pending)
        if not undo_queued:  # else the state shown is about to change: let the disk decide
            changes = [c for c in changes if c[1] is not c[2]]
        if changes:
            self._apply(changes)
            self._submit("status", paper_ids=tuple(c[0] for c in changes), status=status)
        return changes

    def queue_note(self, paper_id: str, note: str, base: str | None = None) -> None:
        """Set a note now and queue it; ``TooBigError`` (nothing changed) past its cap.
        ``base``: the note it was written over (the editor's): the note on disk, changed since
        elsewhere, is merged with the lines changed here (``storage.files.three_way``)."""
        check_note(note.strip())
        self._set_note_locally(paper_id, note.strip())
        self._submit("note", paper_ids=(paper_id,), text=note.strip(), base=base)

    def queue_tags(
        self, paper_id: str, tags: Sequence[str], base: Sequence[str] | None = None
    ) -> tuple[str, ...]:
        """Set tags now and queue them; returns them normalised; ``TooBigError`` (nothing
        changed) past their caps. ``base``: the tags they were written over (the prompt's):
        the tags on disk, changed since elsewhere, are merged with the tags added and taken
        out here (``storage.files.three_way``)."""
        clean = normalise_tags(tags)
        check_tags(clean)
        self._set_tags_locally(paper_id, clean)
        was = None if base is None else tuple(base)
        self._submit("tags", paper_ids=(paper_id,), tags=clean, tags_base=was)
        return clean

    def reading_queue(self) -> list[str]:
        """The reading queue as it shows now: the starred papers, head first."""
        state = self.state
        return queue_ids(state.statuses, state.positions, state.decided_at)

    def queue_placement(
        self, placement: Mapping[str, Place], moved: Iterable[str] = (), sort: str = ""
    ) -> None:
        """Move papers in the reading queue now (in memory) and queue the move (one undo
        step): ``placement`` gives each its new place (``storage.queue.move_to``); ``moved``:
        the papers moved, when the others only make room (none: a sort, all moved); ``sort``:
        the sort that gave the places (its name, kept in the step for its undo to say)."""
        if not placement:
            return
        self._place_locally(placement)
        self._submit("queue", placement=dict(placement), paper_ids=tuple(moved), sort=sort)

    def queue_removal(self, paper_ids: Iterable[str] = (), list_name: str | None = None) -> None:
        """Queue the removal of papers, or of the list ``list_name`` (one undo step); what
        went arrives in an ``Outcome``."""
        self._submit("remove", paper_ids=tuple(dict.fromkeys(paper_ids)), list_name=list_name)

    def queue_undo(self) -> None:
        """Queue an undo (of a decision or a removal); its changes arrive in an ``Outcome``."""
        self._submit("undo")

    def queue_redo(self) -> None:
        """Queue a redo; its changes arrive in an ``Outcome``."""
        self._submit("redo")

    def queue_reload(self) -> None:
        """Queue a re-read of the file (another process changed it)."""
        self._submit("reload")

    def hold_writes(self) -> None:
        """Keep the writer from starting an operation until ``release_writes`` (or
        ``HOLD_LIMIT_S``).

        The writer's work is Python (JSON, TinyDB) and takes the GIL: started while the UI
        thread draws the keystroke that queued it, it made that frame wait (2-3 ms a decision,
        more in bursts). The UI holds the writes for the frame, then releases them. What it
        buys (benchmarks.glass at 12,000 papers, the app with and without it side by side,
        key by key): r/x/s settle 4.5 / 3.9 ms sooner (p50 / p95; p50 1.5-3.6 ms in three
        earlier such runs).
        """
        self._go.clear()

    def release_writes(self) -> None:
        """Let the writer go on (see ``hold_writes``)."""
        self._go.set()

    def flush(self, timeout: float | None = None) -> bool:
        """Wait until every queued operation is on disk; False if ``timeout`` ran out."""
        self._go.set()
        return self._idle.wait(timeout)

    def close(self, timeout: float | None = 30.0) -> bool:
        """Persist what is queued, then stop the writer."""
        done = self.flush(timeout)
        self._queue.put(None)
        self._thread.join(timeout=1.0)
        return done

    # -- outcomes (called on the UI thread with what the writer reported) --------------------
    def absorb(self, outcome: Outcome) -> list[Change]:
        """Bring the live state in line with an outcome; returns changes the UI must show."""
        with self._lock:
            if self._pending and self._pending[0].seq == outcome.op.seq:
                self._pending.popleft()
            still_pending = list(self._pending)
        if outcome.triage is not None:
            self.state = outcome.triage
            self.version += 1
            for op in still_pending:  # made after the state was read: show them again
                self._replay(op)
            return outcome.changes if outcome.op.kind in ("undo", "redo") else []
        if outcome.op.kind in ("undo", "redo") and outcome.error is None:
            self._apply(outcome.changes)
            for op in still_pending:  # made after the undo: they win
                self._replay(op)
            return outcome.changes
        return []

    # -- internals --------------------------------------------------------------------------
    def _submit(self, kind: OpKind, **values: object) -> None:
        if kind != "reload":
            self.steps += 1
        with self._lock:
            self._seq += 1
            op = Operation(self._seq, kind, **values)  # type: ignore[arg-type]
            self._pending.append(op)
            self._idle.clear()
        self._queue.put(op)

    def _apply(self, changes: Iterable[Change]) -> None:
        """Statuses changed in memory as ``TriageChange.decide`` changes them on disk: a
        paper starred joins the queue (the same position the disk will give it), one that
        leaves keeps its place for an undo."""
        self.version += 1
        state = self.state
        changes = list(changes)  # a millisecond apart, as on disk (``decision_times``)
        at = decision_times((pid for pid, _old, _new in changes), now())
        joining: list[str] = []
        for pid, old, new in changes:
            if old is Status.STARRED and new is not old and pid not in state.positions:
                state.positions[pid] = state.decided_at.get(pid, 0.0)
            if new is Status.STARRED and old is not new:
                joining.append(pid)
            if new is Status.INBOX:
                state.statuses.pop(pid, None)
                state.positions.pop(pid, None)  # the disk keeps no room for an Inbox paper
            else:
                state.statuses[pid] = new
                state.decided_at[pid] = at[pid]
        if joining:
            top = self.library.queue_top
            keys = [
                sort_key(pid, state.positions, state.decided_at)
                for pid, status in state.statuses.items()
                if status is Status.STARRED and pid not in joining
            ]
            start, step = end_position(keys, top=top), -1.0 if top else 1.0
            for i, pid in enumerate(reversed(joining) if top else joining):
                state.positions[pid] = start + i * step

    def _place_locally(self, placement: Mapping[str, Place]) -> None:
        self.version += 1
        self.state.positions.update(placement)

    def _set_note_locally(self, paper_id: str, note: str) -> None:
        self.version += 1
        if note:
            self.state.notes[paper_id] = note
        else:
            self.state.notes.pop(paper_id, None)

    def _set_tags_locally(self, paper_id: str, tags: tuple[str, ...]) -> None:
        self.version += 1
        if tags:
            self.state.tags[paper_id] = tags
        else:
            self.state.tags.pop(paper_id, None)

    def _replay(self, op: Operation) -> None:
        if op.kind == "status":
            self._apply((pid, self.status(pid), op.status) for pid in op.paper_ids)
        elif op.kind == "note":
            self._set_note_locally(op.paper_ids[0], op.text)
        elif op.kind == "tags":
            self._set_tags_locally(op.paper_ids[0], op.tags)
        elif op.kind == "queue":
            self._place_locally(op.placement)

    def _run(self) -> None:
        while True:
            op = self._queue.get()
            if op is None:
                return
            self._go.wait(HOLD_LIMIT_S)
            batch, stop = self._gather(op)
            outcomes = self._persist_batch(batch) if len(batch) > 1 else [self._persist(op)]
            for outcome in outcomes:
                if outcome.error is not None and outcome.triage is None:
                    # The UI showed something the disk does not have: show the disk again.
                    with contextlib.suppress(Exception):  # the error above is the one to report
                        outcome.triage = self.library.triage()
            with self._lock:
                self._done = batch[-1].seq
                if self._done == self._seq:
                    self._idle.set()
            for outcome in outcomes:
                with contextlib.suppress(Exception):  # the app is closing: the disk counts
                    self._on_outcome(outcome)
            if stop:
                return

    def _gather(self, op: Operation) -> tuple[list[Operation], bool]:
        """``op`` and the decisions, notes and tags queued right after it (written together);
        True when the queue said to stop after them."""
        batch = [op]
        if op.kind not in BATCHED:
            return batch, False
        while len(batch) < BATCH_LIMIT:
            try:
                more = self._queue.get_nowait()
            except queue.Empty:
                break
            if more is None:
                return batch, True
            if more.kind not in BATCHED:
                self._queue_front(more)
                break
            batch.append(more)
        return batch, False

    def _queue_front(self, op: Operation) -> None:
        """Put back an operation taken from the queue, ahead of any that came after it."""
        with self._queue.mutex:  # still counted unfinished: it was never done
            self._queue.queue.appendleft(op)
            self._queue.not_empty.notify()

    def _persist_batch(self, ops: list[Operation]) -> list[Outcome]:
        """Decisions, notes and tags in one ``triage.json`` transaction (one lock, one read,
        one write); each decision is still its own undo step. Should one of them fail (a paper
        removed elsewhere meanwhile), each is written on its own, as it would have been."""
        lib = self.library
        outcomes = [Outcome(op) for op in ops]
        lib.loaded_papers()  # papers.json read again (if it changed) before the lock, not in it
        try:
            with lib.triage_lock:  # triage.json's alone: an import's papers do not hold it
                loaded = lib.loaded_papers()  # a removal takes both locks: checked after it
                if any(loaded.row_of(pid) is None for op in ops for pid in op.paper_ids):
                    return [self._persist(op) for op in ops]
                with lib.triage_file.change() as change:
                    for outcome in outcomes:
                        op = outcome.op
                        if op.kind == "status":
                            ids = list(dict.fromkeys(op.paper_ids))
                            outcome.changes = change.decide(ids, op.status)
                        elif op.kind == "note":
                            _write_note(change, outcome)
                        else:
                            _write_tags(change, outcome)
        except Exception:  # noqa: BLE001 - written one by one, each error reported
            return [self._persist(op) for op in ops]
        if lib.last_change_met_others or any(outcome.merged for outcome in outcomes):
            with contextlib.suppress(Exception):  # reported with the next outcome
                outcomes[-1].triage = lib.triage()
        return outcomes

    def _persist(self, op: Operation) -> Outcome:
        lib = self.library
        try:
            outcome = Outcome(op)
            if op.kind == "status":
                outcome.changes = lib.set_statuses(op.paper_ids, op.status)
            elif op.kind in ("note", "tags"):
                lib.resolve_id(op.paper_ids[0])  # a paper removed meanwhile: said as an error
                with lib.triage_file.change() as change:  # read, merged, written: one change
                    write = _write_note if op.kind == "note" else _write_tags
                    write(change, outcome)
            elif op.kind == "queue":
                lib.place_in_queue(op.placement, op.paper_ids or None, op.sort)
            elif op.kind in ("undo", "redo"):
                done = lib.undo_step() if op.kind == "undo" else lib.redo_step()
                outcome.changes = done.changes
                outcome.removed, outcome.restored = done.removed, done.restored
                outcome.moves, outcome.sort = done.moves, done.sort
                if done.moves or done.changes:  # the disk says where each paper stands in
                    # the queue, and since when it has its status (the undo gives it back as
                    # of then: the day it was read from the queue, the sort by when starred)
                    outcome.triage = lib.triage()
            elif op.kind == "remove":
                if op.list_name is not None:
                    outcome.removed = lib.remove_list(op.list_name)
                else:
                    outcome.removed = lib.remove(op.paper_ids)
            changed = lib.last_change_met_others or outcome.papers_changed or outcome.merged
            if op.kind == "reload" or changed:
                # Another process wrote since we last looked: our write kept its changes,
                # and the app must now see them too. Papers that left or came back took
                # their decisions, notes and tags with them: the disk says which.
                outcome.triage = lib.triage()
            return outcome
        except Exception as exc:  # noqa: BLE001 - reported to the user by the app
            return Outcome(op, error=exc)


def _write_note(change: TriageChange, outcome: Outcome) -> None:
    """Write a "note" operation in ``change``: over a note another writer changed since the
    operation's ``base`` was read, the two merged (``merge_note``), said in ``outcome``. (An
    editor's save replaced a line ``papers note --append`` wrote meanwhile, in silence; then it
    kept such lines, but brought back one deleted elsewhere.)"""
    op = outcome.op
    found = change.set_note(op.paper_ids[0], op.text)
    if op.base is None:
        return
    merged = merge_note(op.base, op.text, found)
    note = merged.note
    if merged.added and note_problem(note):
        note, outcome.dropped = merged.without_added, list(merged.added)
    else:
        outcome.kept = list(merged.added)
    outcome.gone = list(merged.removed)
    if note != op.text:
        change.set_note(op.paper_ids[0], note)
        outcome.merged = True


def _write_tags(change: TriageChange, outcome: Outcome) -> None:
    """Write a "tags" operation in ``change``: over tags another writer changed since the
    operation's ``tags_base`` was read, the two merged (``merge_tags``), said in ``outcome``.
    (The ``t`` prompt's save dropped a ``papers tag`` made while it was open, in silence; then
    it kept the tags added so, but brought back one taken out.)"""
    op = outcome.op
    found = change.set_tags(op.paper_ids[0], op.tags)
    if op.tags_base is None:
        return
    merged = merge_tags(op.tags_base, op.tags, found)
    tags = merged.tags
    if merged.added and tags_problem(tags):
        tags, outcome.dropped = merged.without_added, list(merged.added)
    else:
        outcome.kept = list(merged.added)
    outcome.gone = list(merged.removed)
    if tags != op.tags:
        change.set_tags(op.paper_ids[0], tags)
        outcome.merged = True
