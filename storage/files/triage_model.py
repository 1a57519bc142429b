"""What ``triage.json`` holds, as values: decisions, notes, tags, the undo log, daily counts.

Pure (no file is read or written here: ``storage.files.triage_file`` owns the file). Its
TinyDB tables:

``decisions``  one document per paper that is not plain Inbox (a status, a note or tags);
               the document id is the paper id read as hexadecimal (so lookups are direct
               and the id need not be stored again).
``history``    the undo log: one document per step (a whole bulk decision is one step), each a
               list of ``[paper_id, old_status, new_status]``; undone steps stay for redo until
               a new decision is made. Capped at ``HISTORY_LIMIT`` steps and
               ``HISTORY_CHANGES_LIMIT`` changes; a new step voids the undone decisions
               (``void``: never redone, kept so that sync knows when they were undone). A
               step's ``kind`` says what made it:
               ``decide`` (the user; counted in ``days``), ``restore`` (an import giving the
               decisions its file carries) or ``remove`` (papers taken out: their decisions
               wait in the step's ``removal`` for an undo, see ``storage.files.removed_papers``)
               or ``order`` (the reading queue reordered: its ``moves``, each
               ``[paper_id, old_position, new_position]``, a position ``None`` when it had none;
               ``sort``: the name of the sort that made it, ``storage.queue.SORTS``, if one did).
               A ``decide`` or ``restore`` step keeps ``moves`` too, of the papers it starred or
               took out of the queue: where each stood before and after, so that its undo and
               its redo put each back in its place; and ``was``, paper → when the status it
               replaced was given (those not in the Inbox), so that an undo gives each paper
               back its status as of then (a ``restore``'s ``set``: the times its file gave;
               a redo's time is else the step's ``at``), not as a decision of now.
``days``       decisions made per day and per resulting status: progress without an ever
               growing log (a 100,000-paper triage keeps one small document per day).

A decision document may hold ``q``, the paper's position in the reading queue (a number, or
a path as a list: ``storage.queue.order``): given when the paper is starred, kept when it
leaves the queue (an undo puts it back in its place; a paper read from the queue is told from
one read from the Inbox by it); and ``qa``, when it was given (seconds: sync orders two
devices' moves of one paper by it; a place given only to make room for another paper's keeps
the time its place was last chosen). ``na`` and ``ga``: when its note and its tags were last
written here (by the user or an import; one a sync wrote has none), so that sync can tell them
from a copy's older ones when ``triage.json`` is put back from a backup.
"""

from __future__ import annotations

import re
import time
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any, Final

from storage.caps import MAX_TAGS
from storage.models import Change, Place, Status
from storage.queue.order import place_of
from storage.text.sanitize import printable

SCHEMA = 3
#: Undo reaches back this many steps…
HISTORY_LIMIT = 1000
#: …and this many single changes in all, so bulk steps cannot make the file grow without end.
HISTORY_CHANGES_LIMIT = 50_000

#: The kinds of undo steps (see the module).
DECIDE, RESTORE, REMOVE, ORDER = "decide", "restore", "remove", "order"

#: One paper's move in the queue: (paper id, place before, place after).
Move = tuple[str, Place | None, Place | None]

#: What an undo step may hold besides its changes and still be dropped once they are gone.
_PLAIN_STEP: Final = frozenset(
    {"at", "changes", "undone", "kind", "marked", "void", "sort", "was", "set"}
)


def leave_steps(history: dict[str, Any], pids: Collection[str], part: str = "changes") -> None:
    """Take ``pids`` out of the undo log's steps ``history`` (a decision, or with ``part``
    "moves" a position in the queue, from another device replaced theirs); a step left with
    nothing to undo goes."""
    for key, doc in list(history.items()):
        changes = doc.get(part) or []
        kept = [c for c in changes if not (isinstance(c, list) and c and c[0] in pids)]
        if len(kept) == len(changes):
            continue
        # a decision whose queue places went elsewhere is still a decision to undo
        has_changes = part != "changes" and bool(doc.get("changes"))
        if kept or has_changes or not set(doc) - {part} <= _PLAIN_STEP:
            history[key] = {**doc, part: kept}
        else:
            del history[key]


def leave_removals(history: dict[str, Any], pids: Collection[str]) -> None:
    """Take ``pids``, papers back in the library by another device's doing (a sync), out of
    the removals of the undo log ``history`` that are not undone: a removal all of whose
    papers are back goes (its undo would put back nothing, and its redo would take them out
    again on every device); one with some left keeps those, as papers (its list is no longer
    taken out by its redo: the papers back are in it)."""
    for key, doc in list(history.items()):
        removal = doc.get("removal")
        if doc.get("kind") != REMOVE or doc.get("undone") or not isinstance(removal, dict):
            continue
        ids = removal.get("ids") or []
        kept = [pid for pid in ids if pid not in pids]
        if len(kept) == len(ids):
            continue
        if not kept:
            del history[key]
            continue
        decisions = removal.get("decisions") or {}
        left = {pid: d for pid, d in decisions.items() if pid not in pids}
        history[key] = {**doc, "removal": {**removal, "ids": kept, "decisions": left, "list": None}}


def doc_id(paper_id: str) -> int:
    """The TinyDB document id of a paper: its hex id as a number."""
    return int(paper_id, 16)


def day_id(day: date) -> int:
    """The TinyDB document id of a day: 20261129."""
    return day.year * 10000 + day.month * 100 + day.day


@dataclass(frozen=True, slots=True)
class Step:
    """One undoable step: the changes one action made, together."""

    seq: int
    at: float
    changes: tuple[Change, ...]
    undone: bool = False
    #: ``decide``, ``restore`` or ``remove`` (see the module).
    kind: str = DECIDE
    #: A removal's token: its papers wait under it in ``papers.json``'s ``removed`` table.
    removal_token: str = ""
    #: An ``order`` step's moves.
    moves: tuple[Move, ...] = ()
    #: When it was last undone or redone (seconds; 0 when never): what sync stamps an undo
    #: with, as a decision is stamped with when it was made.
    marked_at: float = 0.0
    #: An undone step a later decision took the redo of: kept (within the limits) only so
    #: that sync knows when its papers went back, never redone.
    void: bool = False
    #: A removal's papers (their decisions wait in the step): what its undo brings back.
    removed: tuple[str, ...] = ()
    #: The sort that made an ``order`` step (its name in ``storage.queue.SORTS``; "": a move).
    sort: str = ""

    @property
    def counted(self) -> bool:
        """Whether the step counts in the per-day figures (the user's own decisions do)."""
        return self.kind == DECIDE

    def to_doc(self) -> dict[str, Any]:
        doc: dict[str, Any] = {
            "at": self.at,
            "changes": [[pid, old.value, new.value] for pid, old, new in self.changes],
            "undone": self.undone,
        }
        if self.kind != DECIDE:
            doc["kind"] = self.kind
        if self.moves:
            doc["moves"] = [list(move) for move in self.moves]
        return doc

    @classmethod
    def from_doc(cls, seq: int, doc: Mapping[str, Any]) -> Step:
        changes = tuple(
            (str(pid), Status(old), Status(new)) for pid, old, new in doc.get("changes", ())
        )
        kind = str(doc.get("kind", DECIDE))
        removal = doc.get("removal")
        token = removal.get("token") if isinstance(removal, dict) else None
        ids = removal.get("ids") if isinstance(removal, dict) else None
        removed = (
            tuple(str(pid) for pid in ids if isinstance(pid, str)) if isinstance(ids, list) else ()
        )
        moves = tuple(
            (str(pid), _position(old), _position(new)) for pid, old, new in doc.get("moves", ())
        )
        return cls(
            seq,
            float(doc.get("at", 0.0)),
            changes,
            bool(doc.get("undone", False)),
            kind,
            "" if token is None else str(token),
            moves,
            float(doc.get("marked", 0.0)),
            bool(doc.get("void", False)),
            removed,
            str(doc.get("sort") or ""),
        )


def times_given(
    changes: Iterable[Change], docs: Mapping[str, Mapping[str, Any]]
) -> dict[str, float]:
    """When the papers about to change got the status they have (those not in the Inbox),
    from their decision documents: what a step keeps (``was``) for its undo."""
    found = {}
    for pid, old, _new in changes:
        at = docs[pid].get("at")
        if old is not Status.INBOX and isinstance(at, int | float) and not isinstance(at, bool):
            found[pid] = float(at)
    return found


def step_times(doc: Mapping[str, Any], step: Step, *, undo: bool) -> dict[str, float]:
    """When each paper of a step (its document ``doc``) got the status its undo, or redo,
    gives it back: an undo, the times the step kept of the statuses it replaced (``was``; a
    step of an older version kept none: now); a redo, those it gave (``set``: an import's,
    from its file), else the step's own time, a millisecond apart in the step's order as
    ``decision_times`` gave them. So the sort by when starred, the day a paper was read from
    the queue and the exports' times stay the decision's, not the undo's."""
    kept = doc.get("was" if undo else "set")
    found = {
        str(pid): float(at)
        for pid, at in (kept.items() if isinstance(kept, dict) else ())
        if isinstance(at, int | float) and not isinstance(at, bool)
    }
    if undo:
        return found
    given = decision_times((pid for pid, _old, _new in step.changes), step.at)  # as it did
    return {pid: found.get(pid, given[pid]) for pid, _old, _new in step.changes}


def _position(value: Any) -> Place | None:
    """A stored queue place (None for none; ``ValueError`` for what is none: neither a
    number nor a path, ``storage.queue.order.place_of``)."""
    if value is None:
        return None
    place = place_of(value)
    if place is None:
        raise ValueError(f"not a queue position: {str(value)[:40]!r}")
    return place


def position_of(doc: Mapping[str, Any]) -> Place | None:
    """The queue position a decision document holds (None: none, or none readable)."""
    try:
        return _position(doc.get("q"))
    except ValueError:
        return None


def give_status(doc: dict[str, Any], status: Status) -> None:
    """Give a decision document ``status``: a paper sent to the Inbox keeps no place in the
    queue (read later, it is read from the Inbox; an undo puts it back by its step's places),
    whoever sends it there: a decision, its undo or redo, an import that takes the file's."""
    if status is Status.INBOX:
        doc.pop("q", None)
        doc.pop("qa", None)
    doc["status"] = status.value


def standing(doc: Mapping[str, Any]) -> Place | None:
    """Where a paper stands in the reading queue: its position, else (starred without one)
    when it was starred, as ``storage.queue.order`` orders them; for a paper not starred,
    its position if it kept one."""
    position = position_of(doc)
    if position is None and doc.get("status") == Status.STARRED.value:
        at = doc.get("at")  # as ``state_from_tables`` reads it: what is no time, none
        return float(at) if isinstance(at, int | float) else 0.0
    return position


@dataclass(slots=True)
class TriageState:
    """The whole triage state as plain dictionaries, read in one go."""

    statuses: dict[str, Status] = field(default_factory=dict)
    notes: dict[str, str] = field(default_factory=dict)
    tags: dict[str, tuple[str, ...]] = field(default_factory=dict)
    #: When each decided paper got its status (seconds since the epoch).
    decided_at: dict[str, float] = field(default_factory=dict)
    #: Positions in the reading queue (``storage.queue``), of the papers that have one: the
    #: starred ones, and those that left the queue (kept for an undo).
    positions: dict[str, Place] = field(default_factory=dict)
    #: When each position was given (seconds since the epoch), where it is known.
    positioned_at: dict[str, float] = field(default_factory=dict)

    def status(self, paper_id: str) -> Status:
        return self.statuses.get(paper_id, Status.INBOX)

    def copy(self) -> TriageState:
        """A state of the same values in dictionaries of its own."""
        return TriageState(
            dict(self.statuses),
            dict(self.notes),
            dict(self.tags),
            dict(self.decided_at),
            dict(self.positions),
            dict(self.positioned_at),
        )


@dataclass(frozen=True, slots=True)
class DayCount:
    """Decisions made on one day, by the status they gave, and how many papers they took out
    of the Inbox (less those put back)."""

    day: date
    counts: Mapping[Status, int]
    #: Papers taken out of the Inbox, less those put back (None: a day counted before it was
    #: kept, whose decisions stand for it).
    out: int | None = None

    @property
    def total(self) -> int:
        """Papers the day took out of the Inbox, less those put back: a paper read, then
        skipped, then starred is one (it was three decisions, and the pace, and the day the
        Inbox is empty, took a change of mind for progress)."""
        if self.out is not None:
            return self.out
        return sum(n for s, n in self.counts.items() if s is not Status.INBOX)


def state_from_tables(tables: Mapping[str, Mapping[str, Any]]) -> TriageState:
    """Read the triage tables of a parsed ``triage.json``.

    Every command reads it first (20,000 decisions: 31 ms, against 50 ms before the loop
    looked statuses up by value and bound what it calls once).
    """
    snap = TriageState()
    statuses, decided_at, notes, tags = snap.statuses, snap.decided_at, snap.notes, snap.tags
    positions, positioned_at = snap.positions, snap.positioned_at
    by_value, inbox, times = _STATUS_BY_VALUE, Status.INBOX, (int, float)
    for key, doc in tables.get("decisions", {}).items():
        get = doc.get
        pid = get("id") or f"{int(key):012x}"
        value = get("status", "inbox")
        status = by_value.get(value) if isinstance(value, str) else None
        if status is None:
            status = Status(value)  # what it says of a status that is none
        if status is not inbox:
            statuses[pid] = status
            at = get("at")
            if isinstance(at, times):
                decided_at[pid] = float(at)
        note = get("note")
        if note:  # text; what a hand's edit left (a number) as it reads
            notes[pid] = note if isinstance(note, str) else str(note)
        tagged = get("tags")
        if tagged:
            tags[pid] = tuple(t if isinstance(t, str) else str(t) for t in tagged)
        if "q" in doc:
            position = position_of(doc)
            if position is not None:
                positions[pid] = position
                placed_at = get("qa")
                if isinstance(placed_at, times):
                    positioned_at[pid] = float(placed_at)
    for seq in tables.get("history", {}):  # the undo log's steps, numbered (read on an undo)
        if not seq.isdigit():
            raise ValueError(f"a step of the undo log is numbered {seq[:20]!r}")
    return snap


#: Each status by its stored value.
_STATUS_BY_VALUE: Final = {status.value: status for status in Status}


def steps_from_tables(tables: Mapping[str, Mapping[str, Any]]) -> list[Step]:
    """The undo log's steps, oldest first; a step this version cannot read is left out (and
    left as it is in the file)."""
    steps: list[Step] = []
    for key, doc in tables.get("history", {}).items():
        try:
            steps.append(Step.from_doc(int(key), doc))
        except (KeyError, TypeError, ValueError, AttributeError):
            continue
    return sorted(steps, key=lambda s: s.seq)


def days_from_tables(tables: Mapping[str, Mapping[str, Any]]) -> list[DayCount]:
    """The per-day decision counts, oldest first."""
    days = []
    for doc in tables.get("days", {}).values():
        counts = {s: int(doc.get(s.value, 0)) for s in Status}
        out = doc.get("out")
        out = out if isinstance(out, int) and not isinstance(out, bool) else None
        days.append(DayCount(date.fromisoformat(doc["day"]), counts, out))
    return sorted(days, key=lambda d: d.day)


def count_day(
    days: dict[int, dict[str, Any]], changes: Iterable[Change], at: float, sign: int
) -> None:
    """Add (``sign`` 1) or take back (``sign`` -1) the changes in the day table (in place)."""
    day = datetime.fromtimestamp(at).date()
    key = day_id(day)
    doc = dict(days.get(key) or {"day": day.isoformat()})
    if not isinstance(doc.get("out"), int):  # a day counted before: its decisions stand for it
        doc["out"] = sum(int(doc.get(s.value, 0)) for s in Status if s is not Status.INBOX)
    out = 0
    for _pid, old, new in changes:
        doc[new.value] = max(0, int(doc.get(new.value, 0)) + sign)
        if (old is Status.INBOX) != (new is Status.INBOX):  # out of the Inbox, or back in
            out += 1 if old is Status.INBOX else -1
    doc["out"] += sign * out
    days[key] = doc


def now() -> float:
    """Seconds since the epoch; one place so that tests can reason about it."""
    return time.time()


def decision_times(
    ids: Iterable[str], at: float, docs: Mapping[str, Mapping[str, Any]] | None = None
) -> dict[str, float]:
    """When each of papers decided together at ``at`` (seconds) is decided: ``at`` to the
    millisecond (as notes and tags are) for the first, a millisecond more for each next, so
    that the sort by when starred keeps the order they were given in (``papers mark A B C
    starred``, the app's marked papers starred with one key: they shared one time, and the sort
    left them as the queue had them). Sync stamps decisions by their times, in that order too.

    So a decision of many papers runs ahead of the clock (3,703 papers: 3.7 s). A paper decided
    again within that time, its ``docs`` given, is decided a millisecond after its last
    decision, not before it: the later decision is the later one on every device (sync keeps a
    paper's latest), not the star it undid. Only within ``_AHEAD_S``: a time further ahead
    is no spread of ours (a clock set wrong, a file's) and does not carry over."""
    at = round(at, 3)
    times = {pid: round(at + i / 1000, 3) for i, pid in enumerate(dict.fromkeys(ids))}
    for pid, given in times.items():
        last = (docs or {}).get(pid, {}).get("at")
        if isinstance(last, (int, float)) and 0 <= last - given <= _AHEAD_S:
            times[pid] = round(last + 0.001, 3)
    return times


def made_elsewhere(doc: dict[str, Any], name: str, stamp: int | None) -> None:
    """Keep when a note, tags or a place in the queue that arrived by sync was made (its
    record's stamp), as for one made here: sent on to another sync folder, or again by a sync
    cut short, it keeps that time. (Without it, it was stamped as made then, and an older
    note beat a newer one written elsewhere since.)"""
    if stamp:
        doc[name] = round(stamp / 1000, 3)
    else:
        doc.pop(name, None)


def written_at(doc: dict[str, Any], note: Any, tags: list[Any]) -> None:
    """Note in a decision document when its note and tags were written, where they changed."""
    at = round(now(), 3)
    if doc.get("note", "") != note:
        doc["na"] = at
    if list(doc.get("tags", ())) != tags:
        doc["ga"] = at


def moved(given: Mapping[str, float], at: float) -> dict[str, float]:
    """The times of papers decided at ``at`` (``given``) that ``decision_times`` of ``at``
    alone would not give them (each decided after its last decision): what a decision's step
    keeps (``set``) so that its redo gives them again (``step_times``)."""
    plain = decision_times(given, at)
    return {pid: when for pid, when in given.items() if when != plain[pid]}


#: How far ahead of the clock a decision of many papers may run (a millisecond a paper: a
#: library of 100,000 papers decided at once, 100 s), and a later decision of one follow it.
_AHEAD_S: Final = 120.0


def normalise_tags(tags: Sequence[str]) -> tuple[str, ...]:
    """Tags as stored: trimmed, lower case, spaces as dashes, no duplicates, in given order.

    A comma or semicolon separates tags (``"a, b"`` is two): exports list tags with them.
    """
    parts = (part for t in tags for part in t.replace(";", ",").split(","))
    clean = ("-".join(p.strip().casefold().split()) for p in parts)
    return tuple(dict.fromkeys(t for t in clean if t))


#: What an export may make of a tag's control characters: shown (Markdown's ``␛``, ``�``), left
#: out (BibTeX's ASCII: ``-\x7f-`` is then ``--``, a dash) or, a NUL, U+FFFD (CSV, RIS).
_UNREAD_IN_TAG: Final = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069␀-␡\ufffd]")
#: Hyphens a file may write for ``-``.
_HYPHENS: Final = str.maketrans("‐‑‒", "---")
#: What separates typed tags: a tag of these alone names none.
_SEPARATORS: Final = re.compile(r"[,;\s]+")


def _tag_as_read(tag: str) -> str:
    """A tag as an export may give it back: its control characters left out (``-\x7f-`` is
    ``--`` in BibTeX) and dashes run together read as TeX reads them (``--`` as ``–``, ``---``
    as ``—``), so that BibTeX's ``--`` is the tag it was written for, and ``a--b`` is still not
    ``a-b`` (they were folded into one, and an import dropped the second)."""
    plain = _UNREAD_IN_TAG.sub("", tag).translate(_HYPHENS)
    return plain.replace("---", "—").replace("--", "–")


def merged_tags(ours: Sequence[str], theirs: Sequence[str]) -> list[str]:
    """A paper's tags, then those of a file it lacks (at most ``MAX_TAGS``): a file's tag
    that is one of the paper's as an export wrote it, its control characters shown or left
    out, is not another (re-importing the Markdown export gave ``t\x1bx`` a twin, ``t␛x``)."""
    known = set(map(_tag_as_read, ours))
    new = [tag for tag in theirs if _tag_as_read(tag) not in known]
    return list(dict.fromkeys([*ours, *new]))[:MAX_TAGS]


def typed_tags(tags: Sequence[str]) -> tuple[str, ...]:
    """Tags as a user typed them (``papers tag``, the app's ``t``), as stored.

    The paper pane writes a tag ``#name``, so a tag typed so is ``name`` (``#c`` was stored
    as ``#c`` and shown ``##c``); one ``#`` is taken off, so ``##c`` shows as typed. A tag
    that is only ``#`` names none: ``ValueError`` (left out, it would have cleared the tags of
    a paper given no other), nor does one of commas alone (``,`` cleared them; no tag, or an
    empty one, is how to). So is a tag that holds a control character, or a symbol the app
    and ``papers tag`` show one as (``␛``, ``�``): typed back as shown, a tag with an ESC in it
    was stored with a ``␛`` instead, another tag. Tags that arrive otherwise (an import, a
    sync) are as they came.
    """
    parts = [part.strip() for t in tags for part in t.replace(";", ",").split(",")]
    lone = next((part for part in parts if part and not part.strip("#")), None)
    if lone is not None:
        raise ValueError(f"'{lone}' is not a tag: write its name after the # (#toread)")
    bare = next((t for t in tags if t.strip() and not _SEPARATORS.sub("", t)), None)
    if bare is not None:
        said = printable(bare.strip())
        raise ValueError(f"'{said}' is not a tag: write names between the commas (a,b)")
    unread = next((part for part in parts if _UNREAD_IN_TAG.search(part)), None)
    if unread is not None:
        raise ValueError(
            f"'{printable(unread)}' is not a tag: a tag holds no control character, nor a "
            "symbol shown for one (␛, �)"
        )
    return normalise_tags([part.removeprefix("#") for part in parts])
