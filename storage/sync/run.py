"""One sync of a library with a folder: send what changed here, merge what the others sent.

Under the HOME lock, so that nothing in this HOME changes in between (an open app's writer
waits, as for any other process's change):

1. read the library's files, and send what changed since the last sync (``storage.sync.local``);
2. read every device's logs from where the last sync stopped, folding them into the registers
   (this device's own whole again if another hand changed it, and mended: ``storage.sync.own``);
3. pass on the records of a device whose log has gone (``merge.relay_records``);
4. note the merge as pending in the state, append this device's records to its own logs, then
   write the merge into the library (``storage.sync.apply``) and note it done.

A cut short sync (a crash, a full disk) leaves the state saying what it was writing, and the
next one finishes it; the folder missing, read-only or half-arrived never loses a change: what
cannot be sent waits in the state's outbox, what has not fully arrived is read next time.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson

from storage.errors import LibraryError
from storage.files.atomic import read_regular, signature
from storage.files.batches import in_batches
from storage.files.triage_model import TriageState
from storage.library import Library
from storage.sync.apply import apply_plan
from storage.sync.both import keep_both, with_bases
from storage.sync.device import Device, clean_name, load_device, renew_device
from storage.sync.folder import (
    PAPERS_LOG,
    TRIAGE_LOG,
    Cursor,
    Hole,
    LogFile,
    SyncFolder,
    check_folder,
    log_mark,
    record_digest,
    shown,
)
from storage.sync.joining import first_sync, joined
from storage.sync.local import (
    SHOWN,
    Base,
    OlderFile,
    local_papers,
    log_covers,
    paper_changes,
    redecided,
    stale_papers,
    step_marks,
    touched_papers,
    touched_since,
    triage_changes,
)
from storage.sync.merge import (
    DECIDED_AT,
    Folded,
    Plan,
    clocks_ahead,
    fold,
    lost_to_clocks_ahead,
    plan_merge,
    relay_records,
)
from storage.sync.own import check_own_log, drop_written
from storage.sync.records import KINDS, PAPER, TRIAGE_KINDS, Clock, Record, row_line, tie_value
from storage.sync.refill import (
    documents_from_logs,
    missing_here,
    records_of_rows,
    still_unavailable,
)
from storage.sync.report import SyncReport, changes_in, kinds_of
from storage.sync.state import MAX_HELD, SyncState, load_state, marker_key, save_state, state_path

#: A device's card is rewritten at least this often while it syncs (its "last seen").
CARD_EVERY_MS = 60 * 60 * 1000


def sync_library(
    library: Library,
    folder: str | os.PathLike[str],
    *,
    name: str | None = None,
    wall: Callable[[], float] = time.time,
) -> SyncReport:
    """Sync ``library`` with ``folder`` as this HOME's device (``name``: rename it). Raises
    ``SyncError`` when the folder cannot be used at all; everything else it meets is worked
    around and said in ``SyncReport.problems``."""
    return _sync(library, folder, name, wall, dry=False)


def preview_sync(library: Library, folder: str | os.PathLike[str]) -> SyncReport:
    """What ``sync_library`` would do now, writing nothing anywhere (the locks taken as a
    reader's: ``HomeLock.reading``): ``sent`` waits to be sent, ``received`` to be read."""
    with library.papers_lock.reading(), library.triage_lock.reading():
        return _sync(library, folder, None, time.time, dry=True)


def _sync(
    library: Library,
    folder: str | os.PathLike[str],
    name: str | None,
    wall: Callable[[], float],
    *,
    dry: bool,
) -> SyncReport:
    place = SyncFolder(folder)
    home_inside = check_folder(place.path, library.home)
    device, moved = load_device(library.home, name, save=not dry)
    report = SyncReport(place.path, device)
    if home_inside:
        report.problems.append(
            f"this library's folder ({library.home}) is inside the sync folder: the sync tool "
            "carries its files too, and two devices writing one triage.json lose changes; "
            "keep it outside"
        )
    if moved:  # copied from another machine, or its device file damaged
        report.problems.append(moved)
    try:
        with library.papers_lock:  # triage.json's lock too, for the merge only (``_Sync.run``)
            _Sync(library, place, report, wall, dry=dry).run()
    except Exception:  # cut short: what it stored is brought along all the same
        with contextlib.suppress(OSError, LibraryError):  # the sync's own error is the one said
            library.derive_received()
        raise
    # The files derived from the papers it stored, brought along outside the lock once what the
    # sync read is let go of, as an import's (both at once peaked near 1 GB at 100,000 papers).
    library.derive_received()
    return report


class _Sync:
    """The steps of one sync, sharing what they read."""

    def __init__(
        self, library: Library, place: SyncFolder, report: SyncReport,
        wall: Callable[[], float], *, dry: bool,
    ) -> None:  # fmt: skip
        self.dry = dry
        self.library = library
        self.place = place
        self.report = report
        self.path = state_path(library.home, place.path)
        self.marker = marker_key(place.path)
        state, problem = load_state(self.path, place.path, report.device.id)
        if problem:
            report.problems.append(problem)
        self.state = state
        self.lost, self.kept = bool(problem), self.path.is_file()  # (``joining.first_sync``)
        # The state as it was (what a merge's pending note keeps): the file's bytes, read when
        # first needed (only this sync writes it, not before its note), or as loaded if none.
        self._loaded: bytes | None = None
        if problem or state.fresh:
            self._loaded = orjson.dumps(state.to_json())
        self.clock = Clock(state.clock, wall)
        self.folded = Folded()
        self._papers: dict[str, dict[str, Any]] | None = None
        #: Whether the state changed (else not written: a sync with nothing to do writes none).
        self.dirty = state.fresh
        #: Whether papers.json changed since the last sync (its papers were compared); the
        #: papers of a copy older than the last sync that are as they were before then.
        self.papers_looked = False
        self.stale: set[str] = set()
        #: Whether this sync sent changes of triage.json (the file then gets its mark).
        self.triage_sent = False
        self.made: Counter[str] = Counter()  # records this sync made, by kind, not yet sent

    @property
    def device(self) -> Device:
        return self.report.device

    def run(self) -> None:
        """The papers and the folder first, holding the HOME lock (papers.json holds still);
        then what changed in triage.json and the merge, holding its lock too, as briefly as
        that takes (an open app's decisions wait only for this part)."""
        state = self.state
        clean_outbox = not state.outbox  # else our last sync was cut short after writing it
        #: This device's triage records the state file's registers lack: the outbox's as
        #: loaded, those this sync makes or passes on, written into the folder or not. A
        #: merge's pending note keeps them (one written, left out of the note, was sent again
        #: stamped anew, and beat a later decision made elsewhere); papers are sent again.
        self._unsaved: list[list[Any]] = [row for row in state.outbox if row[0] != PAPER]
        outbox, me = records_of_rows(state.outbox), self.device.id
        fold(state, [r for r in outbox if r.device == me], self.clock, Folded())  # ours
        drop_written(self.place, state)  # appended by a sync cut short before it saved this
        self.earlier = kinds_of(r for r in state.outbox if r[2] == self.device.id)  # unsent
        pending = state.pending or {}
        # What the files held after the last sync: the registers before the others' records
        # are folded in (the triage written by a merge cut short: ``triage_part``).
        before = {kind: dict(held) for kind, held in state.registers.items()}
        unsaved = [(row[0], row[3], row[1]) for row in self._unsaved if len(row) > 3]
        self.base = Base(before, {}, pending.get(PAPER) or {}, unsaved)
        # others' a sync cut short passed on: merged in, not what the files held (undone then)
        fold(state, [r for r in outbox if r.device != me], self.clock, self.folded)
        self.again = {kind: set(pending.get(kind) or ()) for kind in KINDS}  # left to write
        self.here = set(self.library.loaded_papers().ids())  # set work in C, not per paper
        self.present = self.here.__contains__
        candidates = self._paper_candidates(self.base)
        # Local triage changes are stamped as if made before this sync read the others' records
        # (they were): by a clock that has not seen them.
        self.local_clock = Clock(self.clock.last, self.clock.wall)
        self._read_cards()
        fold(state, records_of_rows(state.held), self.clock, self.folded)  # held: believed now?
        self._read_logs(check_clone=clean_outbox)
        self._send(self._stamp_papers(candidates))
        self._send_early()
        with self.library.triage_lock:
            plan = self._triage_part(pending)
            self._merge(plan)
        self._say_ahead()
        self._finish()

    def _triage_part(self, pending: dict[str, Any]) -> Plan:
        """What changed in triage.json since the last sync (sent), and the plan of the merge
        (the caller holds triage.json's lock)."""
        state, again, present = self.state, self.again, self.present
        triage = self.library.triage_file
        mark = triage.synced_generation(self.marker)
        triage_state = triage.state()
        written_here = self.base.cut_short(pending, mark, triage_state)
        since = self._file_older_since(mark)
        written = triage.written_at()  # when notes and tags were written here
        older = None if since is None else OlderFile(since, *written)
        waiting = set(state.waiting)
        touched, restored = self._touched(triage_state, pending, since, written_here=written_here)
        # a merge noted and cut short before it wrote the triage: what it was writing there
        unwritten = (
            set()
            if written_here
            else {pid for kind in TRIAGE_KINDS for pid in pending.get(kind) or ()}
        )
        records, kept = triage_changes(
            triage_state,
            touched,
            self.base,
            state,
            self.local_clock,
            present,
            waiting,
            restored,
            unwritten,
            older,
            written,
            self.report.problems,
        )
        self.clock.see(self.local_clock.last)
        home = self.library.home  # (where a note too long to keep both is set aside)
        sent = with_bases(records, self.base, state, self.report, home, dry=self.dry)
        self._send(sent)
        self.triage_sent = bool(records)
        both = keep_both(
            state, self.base, sent, self.folded, self.clock, self.report, home, dry=self.dry
        )
        self._send(self.base.merging(both, triage_state))  # (what they replace: noted)
        for kind in TRIAGE_KINDS:  # papers back after a removal: their triage from the merge
            again[kind].update((kept | waiting) & self.here)
        for kind in KINDS:
            again[kind].update(self.folded.changed[kind])
        if since is not None:  # an older triage.json: every value filled in from the registers
            for kind in TRIAGE_KINDS:
                again[kind].update(state.registers[kind], local_papers(triage_state))
        docs = self._missing_papers()
        for kind in TRIAGE_KINDS:  # a paper that arrives (again) gets its triage too
            again[kind].update(self.folded.changed[PAPER], docs)
        papers = self._load_papers() if again[PAPER] else None
        refill_at = None if since is None else int(since * 1000)
        plan = plan_merge(
            state, again, triage_state, papers, {**self.folded.docs, **docs}, present, refill_at
        )
        self._note_unusable(plan)
        self._hold_back()
        new_waiting = (waiting - self.here) | plan.waiting
        new_waiting.difference_update(pid for pid, doc in plan.papers.items() if doc is not None)
        self.report.awaiting = len(new_waiting)
        if new_waiting != waiting:
            state.waiting = sorted(new_waiting)
            self.dirty = True
        return plan

    def _file_older_since(self, mark: int | None) -> float | None:
        """When the last sync marked triage.json (seconds), if the file is older than that
        mark: a copy put back (``triage.json.bak``), or a file started afresh after damage.
        None when it is not (its mark is the last sync's, or a later merge's)."""
        state = self.state
        if state.fresh or state.generation == 0:
            return None
        if mark is not None and mark >= state.generation:
            return None
        return state.marked_at or state.synced_at / 1000

    def _touched(
        self,
        triage_state: TriageState,
        pending: dict[str, Any],
        since: float | None,
        *,
        written_here: bool,
    ) -> tuple[dict[str, float | None], dict[str, float | None]]:
        """Papers whose status was given since the last sync, by the undo log or the time it
        was given; and those an undo of a removal brought back since (``touched_papers``). In
        a triage.json older than the last sync (``since``): only those of the steps after it
        (a step's time or a decision's in an older file tells nothing of now)."""
        steps = self.library.triage_file.steps()
        if since is not None:
            return touched_since(steps, since), touched_since(steps, since, removed=True)
        seen = self.state.steps
        touched = touched_papers(steps, seen)
        # A merge cut short after it wrote triage.json gave its statuses their times: they
        # are the merge's, not decisions made here (sent as ours, they beat later ones).
        known = self.state.decided_at
        if written_here:
            known = {**known, **(pending.get(DECIDED_AT) or {})}
        for pid, at in redecided(triage_state, known).items():
            known_at = touched.get(pid, 0.0)
            touched[pid] = None if known_at is None else max(at, known_at)
        return touched, touched_papers(steps, seen, removed=True)

    def _missing_papers(self) -> dict[str, dict[str, Any]]:
        """The documents of the papers the registers hold that papers.json lacks (it was lost,
        or put back from an older copy), read again from the logs; those now in ``again``.
        Looked for only when papers.json changed since the last sync, and not again for one
        whose document was not found or not taken (``SyncState.unavailable``) until its
        register holds another."""
        if not self.papers_looked:
            return {}
        missing = missing_here(self.state, self.here, self.folded.changed[PAPER])
        missing |= self.stale - self.folded.changed[PAPER]  # as they were before: filled in
        if not missing:
            return {}
        docs = documents_from_logs(self.place, self.state, missing)
        self.again[PAPER].update(missing)
        return docs

    def _note_unusable(self, plan: Plan) -> None:
        """Say which paper records the merge could not take, and keep them as looked for
        (``SyncState.unavailable``: not read again until their registers change)."""
        unavailable = still_unavailable(self.state, plan.papers, plan.unusable, self.here)
        if unavailable != self.state.unavailable:
            self.state.unavailable = unavailable
            self.dirty = True
        self.report.unusable(plan.unusable)

    def _hold_back(self) -> None:
        """Keep the records stamped beyond the clock's bound for the next syncs (the nearest
        ``MAX_HELD``), and say whose they are."""
        held = sorted({r.line(): r for r in self.folded.held}.values(), key=lambda r: r.stamp)
        rows = [r.row() for r in held[:MAX_HELD]]
        if rows != self.state.held:
            self.state.held = rows
            self.dirty = True
        self.report.held_back(held, self.clock.now_ms(), self._name)

    # -- what changed here ----------------------------------------------------------------
    def _paper_candidates(self, base: Base) -> list[tuple[str, dict[str, Any] | None]]:
        """Papers changed here, when papers.json changed since the last sync."""
        version = signature(self.library.papers_path)
        known = self.state.papers_version
        if not self.state.fresh and known is not None and list(version or ()) == known:
            return []
        self.dirty = self.papers_looked = True
        papers = self._load_papers()
        older = self.library.papers_file.writes() < self.state.papers_writes  # a .bak put back
        self.stale = stale_papers(papers, base, self.state) if older else set()
        return paper_changes(papers, base, self.state, self._removed_here(), older=older)

    def _removed_here(self) -> set[str] | None:
        """The papers removals here took out since the last sync (and no undo put back): the
        undo log's steps the last sync did not see, or in a triage.json older than the last
        sync, those made after it. None when the log no longer holds every step made since
        the last sync (it keeps 1,000 steps and 50,000 changes: a removal, then a long
        triage): then every paper missing here is taken as removed here, as the log cannot
        tell otherwise; a removal the user made is never undone by a sync."""
        triage = self.library.triage_file
        since = self._file_older_since(triage.synced_generation(self.marker))
        steps = triage.steps()
        if since is None and not log_covers(steps, self.state.steps):
            return None
        if since is None:
            taken = touched_papers(steps, self.state.steps, removed=True)
        else:
            taken = touched_since(steps, since, removed=True)
        return triage.removed_ids() & taken.keys()

    def _load_papers(self) -> dict[str, dict[str, Any]]:
        if self._papers is None:
            self._papers = self.library.papers_file.documents()
        return self._papers

    def _stamp_papers(self, candidates: list[tuple[str, dict[str, Any] | None]]) -> list[Record]:
        """Records of the papers changed here (on a first sync joined to the folder's: ``joining``),
        but those the folder holds as they are here (two that imported one list send it once)."""
        records: list[Record] = []
        registers = self.state.registers[PAPER]
        if first_sync(self.state, self.device.id, kept=self.kept, lost=self.lost):
            candidates = joined(candidates, self.state, self.folded, self.library)
        for pid, doc in candidates:
            held = registers.get(pid)
            if held is not None and (tie_value(PAPER, doc) or None) in held[2:]:
                continue  # the folder holds it as it is here
            records.append(Record(PAPER, self.clock.tick(), self.device.id, pid, doc))
        return records

    def _send(self, records: list[Record]) -> None:
        """This device's records: into the registers and the outbox (written at the end)."""
        if records:
            lost = lost_to_clocks_ahead(self.state, records, self.clock.now_ms())
            self.folded.beaten.update(lost)
            fold(self.state, records, self.clock, Folded())
            self._to_send(records)
            self.made += kinds_of(r.row() for r in records)  # sent once written
            self.dirty = True

    def _to_send(self, records: list[Record]) -> None:
        rows = [r.row() for r in records]
        self.state.outbox.extend(rows)
        self._unsaved.extend(row for row in rows if row[0] != PAPER)

    # -- what the others sent ---------------------------------------------------------------
    def _read_cards(self) -> None:
        """The devices' names and last syncs, from their cards."""
        for device, card in self.place.cards().items():
            known = self.state.devices.setdefault(device, {})
            name = clean_name(card["name"]) if isinstance(card.get("name"), str) else ""
            seen = card.get("synced")
            if name and known.get("name") != name:
                known["name"] = name
                self.dirty = True
            if isinstance(seen, int) and not isinstance(seen, bool) and known.get("seen") != seen:
                known["seen"] = seen
                self.dirty = True

    def _where(self, path: Path) -> str:
        """A device's log (``DEVICE: NAME``) or folder in the sync folder, as people know it."""
        name = shown(path.name)
        return f"{self._name(shown(path.parent.name))}: {name}" if path.suffix else name

    def _name(self, folder: str) -> str:
        """A device folder as people know it: the device's name and short id."""
        name = self.state.devices.get(folder, {}).get("name")
        return f"{name} ({folder[:8]})" if name else folder

    def _read_logs(self, *, check_clone: bool) -> None:
        """Fold every log's new records; note what the folder made us skip or pass on."""
        state, report = self.state, self.report
        relay: set[str] = set()
        logs, links, away = self.place.scan()
        for link in links:  # a loop of links too: never followed, nor does it stop the sync
            report.problems.append(
                f"{self._where(link)}: not read (a symbolic link, never followed)"
            )
        for path in away:  # kept in iCloud Drive only: its cursor stays, no log disappeared
            report.problems.append(f"{self._where(path)}: not downloaded yet (iCloud Drive)")
        for log in logs:
            if check_clone and log.folder == self.device.id and not log.conflicted:
                self._check_clone(log)
            if log.folder == self.device.id and not log.conflicted:
                self._check_own(log, logs)
            relay.update(self._read(log))
        # a log that a link stands in for keeps its cursor: it is back once a file again
        present = {log.key for log in logs}
        present.update(f"{shown(p.parent.name)}/{shown(p.name)}" for p in [*links, *away])
        for key in [k for k in state.cursors if k not in present]:
            relay.update(state.cursors.pop(key)[2])  # a log that disappeared
            state.holes.pop(key, None)
            self.dirty = True
        if relay:
            records = relay_records(state, relay, self.folded.docs, self._load_papers())
            self._to_send(records)
            report.relayed += len(records)
            self.dirty = True
        conflicted = [f"{self._name(g.folder)}: {g.name}" for g in logs if g.conflicted]
        if conflicted:
            more = " …" if len(conflicted) > 3 else ""
            report.problems.append(
                f"read {len(conflicted)} conflicted copy(ies) a sync tool made (each device "
                f"writes only its own files; nothing is lost): {'; '.join(conflicted[:3])}{more}"
            )
        report.devices = len(set(state.devices) - {self.device.id})

    def _say_ahead(self) -> None:
        """Say which devices' clocks are ahead, once this device's changes met their records:
        every device still takes the same change, but theirs win over those made here in the
        time their clocks are ahead, and the user should know that, not only that the clock
        wants setting."""
        held = {record.device for record in self.folded.held}  # said by ``_hold_back``
        now = self.clock.now_ms()
        for device, (ahead, beaten) in clocks_ahead(self.folded, self.state.devices, now).items():
            if device in held:
                continue
            self.report.clock_ahead(self._name(device), ahead, beaten)

    def _read(self, log: LogFile) -> set[str]:
        """Read one log from its cursor; the devices to pass on (it restarted: replaced)."""
        state = self.state
        kept = state.cursors.get(log.key)
        cursor = Cursor.from_json(kept[:2]) if kept else None
        where = f"{self._name(log.folder)}: {log.name}"
        devices = set(kept[2]) if kept else set()
        others = log.folder != self.device.id or log.conflicted

        def take(records: list[Record]) -> None:  # a chunk's records at a time
            fold(state, records, self.clock, self.folded)
            devices.update(r.device for r in records)
            if others:
                self.report.took(records)

        hole = Hole.from_json(state.holes.get(log.key))
        try:
            now = self.clock.now_ms()
            read = self.place.read(log, cursor, take, hole=hole, own=not others, now=now)
        except OSError as exc:
            self.report.problems.append(f"{where}: not read ({exc.strerror or exc})")
            return set()
        self.report.log_read(where, read)
        new = [*read.cursor.to_json(), sorted(devices)]
        if kept != new or hole != read.hole:
            state.cursors[log.key] = new
            state.holes.pop(log.key, None)
            state.holes.update({log.key: read.hole.to_json()} if read.hole else {})
            self.dirty = True
        return set(kept[2]) if kept and read.restarted else set()

    def _check_clone(self, log: LogFile) -> None:
        """Another machine writing as this device (a copy of this HOME): take a new id. Not
        for a log that only grew by another program's doing (re-encoded, padded), still
        ending in the last record appended here: its size is then taken as it is now."""
        name, state = log.path.name, self.state
        known, last = state.own_sizes.get(name), state.own_last.get(name)
        if known is None or last is None or self.dry:  # (no last record kept by a version
            return  # before this one: known from the next append on)
        grown = self.place.grown(log, known, last)
        if grown is None or not grown[1]:
            if grown is not None:
                state.own_sizes[name], self.dirty = grown[0], True
            return
        old = self.device
        self.report.device = renew_device(self.library.home, old)
        state.device = self.report.device.id
        state.own_sizes, state.own_last, state.own_marks = {}, {}, {}
        self.dirty = True
        self.report.problems.append(
            f"another machine writes as this device ({old.short}): this library is a copy of "
            f"another; it syncs as a new device from now on ({self.report.device.short})"
        )

    def _check_own(self, log: LogFile, logs: list[LogFile]) -> None:
        """Read this device's own log again if another hand changed it, and write again at its
        end what it no longer holds (``storage.sync.own``)."""
        theirs = {g.folder for g in logs if g.path.name == log.path.name and not g.conflicted}
        papers = self._load_papers  # (papers.json read only when a paper is written again)
        check = check_own_log(self.place, log, self.state, self.clock, self.folded, papers, theirs)
        where = f"{self._name(log.folder)}: {log.name}"
        if check is not None:
            self.dirty = True
            self._send(check.lost)  # sent as this sync's: said so (it said "sent nothing")
            if check:
                self.report.mended(where, check, done=not self.dry)

    # -- writing ----------------------------------------------------------------------------
    def _send_early(self) -> None:
        """Write the records waiting so far (papers, records passed on) into the folder before
        triage.json is locked: a list's papers are the bulk of what a sync writes."""
        if self.dry or not self.state.outbox:
            return
        self._note_pending(Plan())
        self._append_outbox()

    def _merge(self, plan: Plan) -> None:
        """Send the triage records, write the merge into the library, and note what the files
        now hold (the caller holds triage.json's lock)."""
        state = self.state
        if self.dry:  # what would be sent
            self.report.sent_kinds = self.made
            self.report.waiting = changes_in(state.outbox) - self.report.sent - self.report.relayed
            return
        # past any merge triage.json holds: one written by a sync cut short before it saved
        # its state has the number this one would take, and a pending merge noted under that
        # number would read as written when it was not (its statuses then sent as decisions
        # made here, beating later ones)
        triage = self.library.triage_file
        written = triage.synced_generation(self.marker) or 0
        generation = max(state.generation, written) + 1
        if state.outbox or plan:
            self._note_pending(plan, generation)
        if state.outbox:
            self._append_outbox()
        # triage.json is marked whenever what it must hold moved on: a merge written, a change
        # sent (a copy of it from before then, put back, is then older than the mark, and
        # what it lacks is not sent as changes: ``local``), or a mark not the state's
        if plan or self.triage_sent or written != state.generation:
            self.report.applied.update(apply_plan(self.library, plan, (self.marker, generation)))
            state.generation = generation
            state.marked_at = triage.synced_time(self.marker) or 0.0
            self.dirty = True
        marks = step_marks(triage.steps())
        version = list(signature(self.library.papers_path) or ())
        decided = triage.state().decided_at
        if marks != state.steps or version != state.papers_version or decided != state.decided_at:
            if version != state.papers_version:  # (read only then: it is parsed already)
                state.papers_writes = self.library.papers_file.writes()
            state.steps, state.papers_version, state.decided_at = marks, version, decided
            self.dirty = True

    def _finish(self) -> None:
        """Save the state (after triage.json's lock is let go: a merge noted as pending is
        finished by the next sync should this one stop before)."""
        state = self.state
        if self.dry:
            return
        if state.pending is not None:
            state.pending = None
            self.dirty = True
        state.clock = self.clock.last
        self.report.waiting = changes_in(state.outbox)
        now = self.clock.now_ms()
        card_due = now - int(state.devices.get(self.device.id, {}).get("card", 0)) > CARD_EVERY_MS
        if self.dirty or card_due:
            state.synced_at = now
            state.fresh = False
            self._write_card(now)
            save_state(self.path, state)

    def _note_pending(self, plan: Plan, generation: int = 0) -> None:
        """Save the state as loaded, but for the outbox and what ``plan`` writes (as merge
        ``generation``): a sync cut short from here on is finished by the next one."""
        if self._loaded is None:
            try:
                self._loaded = read_regular(self.path)
            except OSError:  # gone meanwhile: nothing to keep but what this sync adds
                empty = SyncState(str(self.place.path), self.device.id)
                self._loaded = orjson.dumps(empty.to_json())
        noted = orjson.loads(self._loaded)
        if noted.get("fresh"):  # papers.json as a first sync's join found it (``joining``)
            noted["papers_writes"] = self.library.papers_file.writes()
        waiting = {orjson.dumps(row) for row in self.state.outbox if row[0] != PAPER}
        sent = [row for row in self._unsaved if orjson.dumps(row) not in waiting]
        noted.update(
            outbox=[*self.state.outbox, *sent],
            clock=self.clock.last,
            device=self.device.id,
            own_sizes=self.state.own_sizes,  # what this device appended already, as its own
            own_last=self.state.own_last,
            own_marks=self.state.own_marks,
            tag_bases=self.state.tag_bases,  # what the tags records in the outbox were over
            tags_read=self.state.tags_read,  # and the others' read while their chains hold
        )
        if plan:
            noted["pending"] = {"generation": generation, **plan.written(), SHOWN: self.base.shown}
        save_state(self.path, SyncState.from_json(noted))

    def _append_outbox(self) -> None:
        """Append the outbox to this device's logs; what cannot be written waits in it."""
        state = self.state
        try:
            for name, rows in (
                (TRIAGE_LOG, [r for r in state.outbox if r[0] != PAPER]),
                (PAPERS_LOG, [r for r in state.outbox if r[0] == PAPER]),
            ):
                if rows:
                    self._append(name, rows)
        except OSError as exc:
            where = exc.filename or self.place.path
            self.report.refused(where, exc.strerror or str(exc), changes_in(state.outbox))
            return
        state.outbox = []
        self.report.written(self.made + self.earlier)
        self.made, self.earlier = Counter(), Counter()

    def _append(self, name: str, rows: list[list[Any]]) -> None:
        state, device = self.state, self.device.id
        key = f"{device}/{name}"
        kept = state.cursors.get(key) or [0, "", []]
        read_to_end = kept[0] == self.place.size_of(device, name)
        state.own_sizes[name] = self.place.append(device, name, in_batches(map(row_line, rows)))
        state.own_last[name] = record_digest(row_line(rows[-1]))
        if mark := log_mark(self.place.device_folder(device) / name):
            state.own_marks[name] = mark  # as this device left it: not read again (``own``)
        if read_to_end:  # what was just written need not be read back
            devices = sorted({*kept[2], *(row[2] for row in rows)})
            state.cursors[key] = [*self.place.end_cursor(device, name).to_json(), devices]

    def _write_card(self, now: int) -> None:
        card = {"id": self.device.id, "name": self.device.name, "synced": now}
        try:
            self.place.write_card(self.device.id, card)
        except OSError:
            return  # said already, when the records could not be written
        known = self.state.devices.setdefault(self.device.id, {})
        known.update(card=now, name=self.device.name, seen=now)
