"""The changes made on this device since its last sync, read from the library's files.

After a sync the library's files hold exactly the registers' values, so a value that differs
from its register now was changed here since: that is a record to send. Two subtleties:

- A paper decided and put back between two syncs looks unchanged, yet the user decided it
  after whatever another device did meanwhile; the undo log tells (a step made or undone since
  the last sync), and so does a decision's time (``redecided``): their papers' statuses are
  sent again.
- A removal (``Library.remove``) keeps the papers' decisions in its undo step, so the removed
  papers look put back in the Inbox; that is not a decision, and is not sent.

That holds while the files are those the last sync left, changed since. A file older than that
(``triage.json.bak`` copied over the file, a damaged file moved aside, ``papers.json`` put back
from a backup) differs from the registers by everything that happened since it was written:
none of that was done here. From such a ``triage.json`` only what was done after the last
sync's mark is sent (by the undo log's steps, and the times notes, tags and places in the
queue keep: ``triage_changes``' ``older``); the rest is filled in from the registers. A paper
missing from ``papers.json`` is sent as removed only when a removal here since the last sync
took it out (``paper_changes``); otherwise it is filled in again.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from storage.files.triage_model import Step, TriageState
from storage.models import Status
from storage.queue.order import place_json
from storage.sync.records import (
    NOTE,
    PAPER,
    QUEUE,
    STATUS,
    TAGS,
    TRIAGE_KINDS,
    Clock,
    Record,
    cap_problem,
    valid_value,
)
from storage.sync.records import paper_digest as digest_of
from storage.sync.state import SyncState

#: A register's value when nothing was ever recorded.
DEFAULTS: Mapping[str, Any] = {STATUS: Status.INBOX.value, NOTE: "", TAGS: [], QUEUE: None}


def triage_values(triage: TriageState, pid: str) -> dict[str, Any]:
    """A paper's triage as register values."""
    place = triage.positions.get(pid)
    return {
        STATUS: triage.status(pid).value,
        NOTE: triage.notes.get(pid, ""),
        TAGS: list(triage.tags.get(pid, ())),
        QUEUE: None if place is None else place_json(place),  # a path as the records hold it
    }


#: The key of a merge's pending note (``SyncState.pending``) under which are the notes and tags
#: the library held where that merge keeps both (``storage.sync.both``): register → paper → value.
SHOWN = "shown"


class Base:
    """What the library's files held after the last sync: the registers' values, except where
    a merge was cut short after writing them (``written``: what it wrote)."""

    def __init__(
        self,
        registers: Mapping[str, Mapping[str, list[Any]]],
        written: Mapping[str, Mapping[str, Any]],
        papers_written: Mapping[str, Any],
        unsaved: Collection[tuple[str, str, int]] = (),
    ) -> None:
        self._registers = registers
        self._written = {kind: dict(values) for kind, values in written.items()}
        #: Papers a merge cut short was writing (papers.json may or may not have them).
        self.papers_written = papers_written
        #: This device's records (kind, paper, stamp) that a sync cut short made (its outbox):
        #: in the registers, but not in those a finished sync saved.
        self.unsaved = frozenset(unsaved)
        #: The notes and tags the library holds where a merge not written into it yet keeps
        #: both (``storage.sync.both``): register → paper → value, noted with it (``SHOWN``).
        self.shown: dict[str, dict[str, Any]] = {}
        #: Those the library held there that were edited here since: the edit was made over
        #: them, not over the merge (``storage.sync.both.with_bases`` merges it with it).
        self.edited: dict[str, dict[str, Any]] = {}

    def cut_short(self, pending: Mapping[str, Any], mark: int | None, triage: TriageState) -> bool:
        """Take what a merge noted as ``pending`` (``SyncState.pending``) left in the library,
        ``triage.json`` marked ``mark`` and holding ``triage``; True when it wrote the triage.
        Written: the values it wrote. Not: the notes and tags it kept both of (``SHOWN``)
        that the library still holds as it found them, not edited here since: the merge in
        the registers, not written yet, is not taken for an edit made here over it (sent
        stamped after it, it took the other device's note or tag out everywhere); those edited
        since are noted too (``edited``)."""
        if mark == pending.get("generation"):
            self.triage_written({k: v for k, v in pending.items() if k in TRIAGE_KINDS})
            return True
        for kind, held in (pending.get(SHOWN) or {}).items():
            for pid, value in held.items():
                same = triage_values(triage, pid)[kind] == value
                (self.shown if same else self.edited).setdefault(kind, {})[pid] = value
        self.triage_written(self.shown)
        return False

    def merging(self, records: list[Record], triage: TriageState) -> list[Record]:
        """``records`` of a merge that keeps both (``storage.sync.both``), their notes and
        tags as the library holds them noted (``shown``) until it is written into it."""
        for record in records:
            if record.kind in (NOTE, TAGS):
                value = triage_values(triage, record.paper)[record.kind]
                self.shown.setdefault(record.kind, {})[record.paper] = value
        return records

    def holder(self, kind: str, pid: str) -> list[Any] | None:
        """The register's holder after the last sync (and this device's records waiting)."""
        return self._registers[kind].get(pid)

    def seen(self, kind: str, pid: str, now: Mapping[str, Mapping[str, list[Any]]]) -> int:
        """The stamp of the register's value this device last showed: its holder after the
        last sync, or, where a merge cut short wrote it, the record that merge wrote (read
        again now: the register's holder ``now`` when it holds that value). A change made
        here since was made after it."""
        held = self._registers[kind].get(pid)
        stamp = held[0] if held else 0
        written = self._written.get(kind, {})
        if pid in written:
            current = now[kind].get(pid)
            if current is not None and current[2] == written[pid]:
                stamp = max(stamp, current[0])
        return stamp

    def triage_written(self, written: Mapping[str, Mapping[str, Any]]) -> None:
        """The triage a merge cut short wrote into triage.json (it holds those values)."""
        for kind, values in written.items():  # (a copy: ``shown`` grows after)
            self._written.setdefault(kind, {}).update(values)

    def value(self, kind: str, pid: str) -> Any:
        written = self._written.get(kind, {})
        if pid in written:
            return written[pid]
        held = self._registers[kind].get(pid)
        if kind == PAPER:
            return None if held is None else (held[3] if len(held) > 3 else held[2])
        if kind == QUEUE and self.value(STATUS, pid) == DEFAULTS[STATUS]:
            # the library keeps no place for an Inbox paper: a place that arrived before its
            # star (a log cut between the two records) is not in it, and was not taken out here
            return None
        return DEFAULTS[kind] if held is None else held[2]

    def removed(self, pid: str) -> bool:
        """True when the paper was known, and removed, at the last sync."""
        written = self._written.get(PAPER, {})
        if pid in written:
            return written[pid] is None
        held = self._registers[PAPER].get(pid)
        return held is not None and held[2] is None


def step_marks(steps: Iterable[Step]) -> dict[str, list[Any]]:
    """The undo log's steps as remembered between syncs: number → [time, undone]."""
    return {str(step.seq): [step.at, step.undone] for step in steps}


def log_covers(steps: Sequence[Step], seen: Mapping[str, Any]) -> bool:
    """Whether the undo log still holds every step made since the steps ``seen`` (the last
    sync's): the log drops its oldest steps first, so it does when its oldest step is one the
    last sync saw, or the one right after (an empty log, or a sync that saw none, tells it
    by the first step's number: 1, none dropped yet)."""
    if not steps:
        return True
    oldest = min(step.seq for step in steps)
    newest_seen = max((int(seq) for seq in seen if str(seq).isdigit()), default=0)
    return oldest <= newest_seen + 1


def touched_papers(
    steps: Iterable[Step], seen: Mapping[str, Any], *, removed: bool = False
) -> dict[str, float | None]:
    """Papers in undo steps made, undone or redone since the steps ``seen``: paper → when
    (the step's time, or when it was undone or redone; None, meaning now, for an undo or
    redo of a version that did not keep its time). With ``removed``: the papers of the
    removals among them instead (an undo brings them back with their triage, as of then)."""
    touched: dict[str, float | None] = {}
    for step in steps:
        mark = [step.at, step.undone]
        before = seen.get(str(step.seq))
        if before == mark:
            continue
        made = before is None or before[0] != mark[0]
        at = max(step.at, step.marked_at) if made else (step.marked_at or None)
        pids = step.removed if removed else [change[0] for change in step.changes]
        for pid in pids:
            known = touched.get(pid, 0.0)
            touched[pid] = None if at is None or known is None else max(at, known)
    return touched


@dataclass(frozen=True, slots=True)
class OlderFile:
    """A ``triage.json`` older than the last sync: when that sync marked the file (seconds),
    and when notes and tags were written here (``TriageFile.written_at``), by paper: what was
    written after the mark is new; the rest is the file's old values."""

    since: float
    noted_at: Mapping[str, float] = field(default_factory=dict)
    tagged_at: Mapping[str, float] = field(default_factory=dict)

    def after(self, at: float | None) -> bool:
        """True for a time after the mark (times are kept to the second or finer; one within
        a second of the mark is taken as before it)."""
        return at is not None and at > self.since + 1


def touched_since(
    steps: Iterable[Step], since: float, *, removed: bool = False
) -> dict[str, float | None]:
    """``touched_papers`` of the steps made, undone or redone after ``since`` (seconds): in a
    file older than the last sync, the only ones that sync has not seen (a step's times are
    kept to the second: one of the same second as ``since`` is taken as older)."""
    older = OlderFile(since)
    recent = [step for step in steps if older.after(max(step.at, step.marked_at))]
    return touched_papers(recent, {}, removed=removed)


def redecided(triage: TriageState, known: Mapping[str, float]) -> dict[str, float]:
    """Papers whose status was set since the last sync (its time changed), even to the status
    they had then: an undo and a redo, or a decision taken back and made again."""
    return {pid: at for pid, at in triage.decided_at.items() if known.get(pid) != at}


def triage_changes(
    triage: TriageState,
    touched: Mapping[str, float | None],
    base: Base,
    state: SyncState,
    clock: Clock,
    present: Callable[[str], bool],
    waiting: Collection[str] = (),
    restored: Mapping[str, float | None] | None = None,
    unwritten: Collection[str] = (),
    older: OlderFile | None = None,
    written: tuple[Mapping[str, float], Mapping[str, float]] = ({}, {}),
    said: list[str] | None = None,
) -> tuple[list[Record], set[str]]:
    """Records of the statuses, notes and tags changed here since the last sync; and the
    papers whose triage a removal took out here (not sent: the merge puts it back when they
    are in the library again).

    ``older``: ``triage.json`` is older than the last sync. A value that differs from its
    register is then no change made here, but for a status the undo log shows was given after
    that sync's mark (``touched`` holds only those), and a place in the queue, a note or tags
    written after it: only those are sent (the registers' values fill in the rest).

    ``unwritten``: papers whose triage a merge cut short (noted, not written) was writing.
    ``waiting``: papers whose triage the registers hold but ``triage.json`` does not (the
    paper was not here: ``SyncState.waiting``). One that is here now takes the registers'
    triage, but for a status decided here after the register's (an import, or an undone
    removal, brings its paper back with what it had: not a decision of now).

    ``written``: when each paper's note, and its tags, were written here (``TriageFile.
    written_at``), as ``decided_at`` says when its status was given.

    ``said``: where a note or tags past the caps (written into ``triage.json`` by hand), not
    sent as no device would take it, is said in one line (``past_caps``).

    Stamped by ``clock`` at when each was made (a status's ``decided_at``, a note's or tags'
    ``written``, a place's ``positioned_at``), or just after what its register held at the
    last sync when that is later (it was changed after this device saw that: ``Clock.after``).
    Only its own register bounds it: a device whose clock is hours ahead, read once, does not
    push every change here past its stamps (two right clocks would lose their order for those
    hours), nor do this device's papers, stamped when sent; for a state made afresh, at when
    each was made, so that libraries synced for the first time merge by when their changes
    were made. So a note written here before another device wrote its own, and synced after
    it, does not beat it: the later writing wins, whichever device syncs first.
    """
    registers = state.registers
    restored = restored or {}
    noted_at, tagged_at = written
    made_times = {
        STATUS: triage.decided_at,
        QUEUE: triage.positioned_at,
        NOTE: noted_at,
        TAGS: tagged_at,
    }
    pids: set[str] = set(triage.statuses) | set(triage.notes) | set(triage.tags)
    pids.update(triage.positions)
    pids.update(touched, *(registers[kind] for kind in TRIAGE_KINDS))
    if waiting:  # papers not here whose triage waits: nothing of theirs changed here
        pids.difference_update([pid for pid in waiting if not present(pid)])
    records: list[Record] = []
    made: list[tuple[float | None, str, str, Any]] = []
    kept: set[str] = set()
    #: Papers back by an undo of a removal the others were told of: their triage is stamped
    #: after that removal (another register's, stamped when sent), so that a record of it says
    #: the paper is back (``_sent_already``).
    back_after: dict[str, int] = {}
    for pid in pids:
        removed_at = 0  # the stamp of the removal an undo took back, when it was told of
        local = triage_values(triage, pid)
        if pid in waiting:
            decided = (
                pid in touched
                if older is not None
                else _decided_after(triage, pid, registers[STATUS].get(pid))
            )
            if not present(pid) or not decided:
                continue
            changed = [STATUS]
        elif older is not None:
            changed = _made_since(triage, pid, local, base, touched, older)
        else:
            changed = [
                kind
                for kind in TRIAGE_KINDS
                if local[kind] != base.value(kind, pid) or (kind == STATUS and pid in touched)
            ]
            if pid in restored and base.removed(pid) and present(pid):
                # back by an undo of a removal the others were told of: its triage is given
                # again (a removal undone before any sync told nobody)
                changed = list(TRIAGE_KINDS)
                held = base.holder(PAPER, pid)
                removed_at = held[0] if held else -1
                back_after[pid] = removed_at
        if not changed:
            continue
        if local == DEFAULTS and (
            not present(pid)
            or (base.removed(pid) and pid not in touched)
            or (pid in unwritten and _removed_since_touched(pid, touched, restored))
        ):
            # A removal keeps its papers' triage in its undo step; a paper back since (an
            # import, an undo) brings none of its own: the merge gives it the registers'. One
            # decided here since (back to the Inbox) sends that decision. So does a paper a
            # merge cut short took out and put back before it wrote the triage back.
            kept.add(pid)
            continue
        for kind in changed:
            made_at = made_times[kind].get(pid)
            if kind == STATUS:
                # an undo or a redo since: the status given again then; a removal undone
                # brings its papers' statuses back with the times they were first given (the
                # clock stamps them after the removal all the same), not as decisions of now
                again = touched.get(pid, 0.0)
                if again is not None and again > (made_at or 0.0):
                    made_at = again
            if kind == STATUS and _sent_already(
                base, pid, local[kind], made_at, state.device, removed_at
            ):
                continue
            if not valid_value(kind, local[kind]):
                if said is not None:  # a hand's edit past the caps: no device would take it
                    said.append(past_caps(kind, pid, local[kind]))
                continue
            made.append((made_at, pid, kind, local[kind]))
    # Stamped in the order they were made (the clock only goes forward: a decision stamped
    # after a later one would be stamped later than it); those of unknown time last.
    made.sort(key=lambda m: (m[0] is None, m[0] or 0.0, m[1], m[2]))
    for made_at, pid, kind, value in made:
        if state.fresh:
            stamp = clock.at(made_at if made_at is not None else 0.001)
        else:
            seen = base.seen(kind, pid, registers)
            stamp = clock.after(made_at, max(seen, back_after.get(pid, 0)))
        records.append(Record(kind, stamp, state.device, pid, value))
    return records, kept


def past_caps(kind: str, pid: str, value: Any) -> str:
    """The line that says a paper's value in ``triage.json`` is not sent: past its cap."""
    what = {NOTE: "the note", TAGS: "the tags", QUEUE: "the place in the queue"}
    problem = cap_problem(kind, value)
    verb = "are" if kind == TAGS else "is"
    return (
        f"{what.get(kind, 'the status')} of {pid} in triage.json {verb} not sent: "
        f"{problem or 'not a value another device takes'}"
    )


def _made_since(
    triage: TriageState,
    pid: str,
    local: Mapping[str, Any],
    base: Base,
    touched: Mapping[str, float | None],
    older: OlderFile,
) -> list[str]:
    """The registers of a paper changed here after the last sync's mark, in a ``triage.json``
    older than it: its status when the undo log shows it given since (``touched``), its note,
    tags or place in the queue when written since; its other values are the file's old ones."""
    written = {
        NOTE: older.noted_at.get(pid),
        TAGS: older.tagged_at.get(pid),
        QUEUE: triage.positioned_at.get(pid),
    }
    changed = [STATUS] if pid in touched else []
    for kind, at in written.items():
        if local[kind] != base.value(kind, pid) and older.after(at):
            changed.append(kind)
    return changed


def _removed_since_touched(
    pid: str, touched: Mapping[str, float | None], restored: Mapping[str, float | None]
) -> bool:
    """True when a removal here since the last sync (a step of this device's) took the paper's
    triage into its undo step after the paper's last change here."""
    if pid not in restored:
        return False
    removed_at, changed_at = restored[pid], touched.get(pid, 0.0)
    if changed_at is None:  # changed at a time unknown: maybe after
        return False
    return removed_at is None or removed_at >= changed_at


#: How far a status's time (``decided_at``, to the nearest second in older files) may be past
#: when it was given: a record of it, stamped no later than the clock's now, may be stamped
#: this much before that time (a sync within half a second of the decision, cut short, sent
#: it again).
_ROUNDED_MS = 500


def _sent_already(
    base: Base, pid: str, value: Any, made_at: float | None, device: str, removed_at: int = 0
) -> bool:
    """True when this device's own record of this status, made by a sync cut short (its
    outbox: ``Base.unsaved``) and stamped no earlier than the status was given, holds the
    register already: sent again it would be stamped after everything seen since, and beat
    later decisions made elsewhere. A record a finished sync saved is older than any change
    made here since, however its stamp compares with the change's time (a clock ahead of
    this one's, seen since, stamps ahead). For a paper back by an undo of a removal the
    others were told of (stamped ``removed_at``; -1 when unknown), only a record stamped
    after the removal: one from before says nothing of the paper being back."""
    if made_at is None or removed_at < 0 or value != base.value(STATUS, pid):
        return False
    held = base.holder(STATUS, pid)
    return (
        held is not None
        and held[1] == device
        and (STATUS, pid, held[0]) in base.unsaved
        and held[0] >= made_at * 1000 - _ROUNDED_MS
        and held[0] > removed_at
    )


def _decided_after(triage: TriageState, pid: str, held: list[Any] | None) -> bool:
    """True when the paper's status here was given after the register's, even the same
    status: a decision made after the register's record beats whatever was stamped before
    it (a paper back by an undo, decided again as another device had, was not sent, and a
    third device's older change could then win over it)."""
    at = triage.decided_at.get(pid)
    if at is None:
        return False
    if held is None:
        return triage.status(pid).value != DEFAULTS[STATUS]
    return at * 1000 > held[0]


def local_papers(triage: TriageState) -> set[str]:
    """The papers triage.json holds anything of (a status, a note, tags, a place in the queue)."""
    return {*triage.statuses, *triage.notes, *triage.tags, *triage.positions}


def stale_papers(papers: Mapping[str, Mapping[str, Any]], base: Base, state: SyncState) -> set[str]:
    """In a papers.json older than the last sync, the papers the registers hold that differ
    from them (or that they hold as removed): as they were before, to be filled in."""
    registered = state.registers[PAPER]
    return {
        pid
        for pid, doc in papers.items()
        if pid in registered and digest_of(doc) != base.value(PAPER, pid)
    }


def paper_changes(
    papers: Mapping[str, Mapping[str, Any]],
    base: Base,
    state: SyncState,
    removed: Collection[str] | None = (),
    *,
    older: bool = False,
) -> list[tuple[str, dict[str, Any] | None]]:
    """Papers added, changed or removed here since the last sync, unstamped: (id, document,
    or None for a removal). A paper missing here is sent as removed only when the undo log
    shows a removal here since the last sync took it out (``removed``: one by one or as a
    list): a papers.json lost, or put back from an older copy, lacks the papers that arrived
    since; that is not the user taking them out (they are filled in again). ``removed`` None:
    the log cannot tell, and every paper missing here is removed, but for an empty papers.json
    (a lost file takes nothing out). ``older``: papers.json is a copy older than the last
    sync (``SyncState.papers_writes``): a paper the registers hold that differs from them is
    as it was before, not changed here (``stale_papers``: filled in from them); only papers
    they do not hold are sent."""
    found: list[tuple[str, dict[str, Any] | None]] = []
    written = base.papers_written
    registered = state.registers[PAPER]
    for pid, doc in papers.items():
        if older and pid in registered:
            continue
        digest = digest_of(doc)
        if digest != base.value(PAPER, pid) and (pid not in written or written[pid] != digest):
            found.append((pid, dict(doc)))
    if removed is None and not papers:
        return sorted(found, key=lambda item: item[0])
    for pid in state.registers[PAPER]:
        if pid in papers or (removed is not None and pid not in removed):
            continue
        being_removed = pid in written and written[pid] is None
        if base.value(PAPER, pid) is not None and not being_removed:
            found.append((pid, None))
    return sorted(found, key=lambda item: item[0])
