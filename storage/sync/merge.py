"""Merging: records folded into the registers, and what the library must change to match.

Folding is a maximum per register (``storage.sync.records``): the same records give the same
registers in any order, any number of times. What the library must change is then the
registers whose holder changed, compared with the library's files; papers arrive as documents,
checked and put in this version's shape before they are written.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from storage.caps import MAX_TITLE_CHARS, abstract_size_problem, lists_problem
from storage.files.papers_file import paper_from_doc, paper_to_doc
from storage.files.triage_file import TriageState
from storage.models import Paper
from storage.sources.fields import EXTRA_FIELDS
from storage.sources.links import web_url
from storage.sync.local import DEFAULTS, triage_values
from storage.sync.records import (
    BASES,
    BASIS,
    KINDS,
    PAPER,
    QUEUE,
    STATUS,
    TRIAGE_KINDS,
    Clock,
    Record,
    paper_digest,
)
from storage.sync.state import SyncState, beats, register_of

#: A stamp this far ahead of the wall clock is worth a word (milliseconds).
AHEAD_MS = 5 * 60 * 1000


@dataclass(slots=True)
class Folded:
    """What folding records did to the registers."""

    #: Registers whose holder changed, by kind.
    changed: dict[str, set[str]] = field(default_factory=lambda: {k: set() for k in KINDS})
    #: Documents of papers as their holders have them.
    docs: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: The records stamped ahead of this device's clock (``AHEAD_MS``), and the holders
    #: they took registers from that were: (stamp, device). Whose clock is ahead is traced
    #: from them (``clocks_ahead``).
    ahead: set[tuple[int, str]] = field(default_factory=set)
    #: Records stamped beyond the clock's bound (``Clock.believable``): not folded, kept to
    #: be read again once the clock gets near them.
    held: list[Record] = field(default_factory=list)
    #: How many of this device's changes lost a register to a record stamped ahead of this
    #: clock, by that record's (stamp, device).
    beaten: Counter[tuple[int, str]] = field(default_factory=Counter)
    #: What the note and tags records read were written over (``records.BASIS``): (kind,
    #: paper, stamp, device) of a record → (stamp, device) of the one its writer last saw.
    bases: dict[tuple[str, str, int, str], tuple[int, str]] = field(default_factory=dict)
    #: The values of the note and tags records read (texts, lists of tags), by (kind,
    #: paper, stamp, device).
    values: dict[tuple[str, str, int, str], Any] = field(default_factory=dict)


def fold(state: SyncState, records: Iterable[Record], clock: Clock, folded: Folded) -> int:
    """Fold records into the registers; returns how many were folded (the clock sees them
    all). A record stamped beyond the clock's bound goes to ``folded.held`` instead."""
    count = 0
    now = clock.now_ms()
    devices = state.devices
    for record in records:
        if record.stamp - now > AHEAD_MS:
            folded.ahead.add((record.stamp, record.device))
        if not clock.believable(record.stamp):
            folded.held.append(record)
            continue
        count += 1
        clock.see(record.stamp)
        if record.kind == BASIS:
            of, *seen = record.value
            folded.bases[(of, record.paper, record.stamp, record.device)] = (seen[0], seen[1])
            continue
        if record.kind in BASES:
            folded.values[(record.kind, record.paper, record.stamp, record.device)] = record.value
        registers = state.registers[record.kind]
        new = register_of(record)
        held = registers.get(record.paper)
        if beats(record.kind, new, held):
            if held is not None and record.stamp - now > AHEAD_MS:
                if held[1] == state.device:
                    folded.beaten[(record.stamp, record.device)] += 1
                if held[0] - now > AHEAD_MS:  # what it was stamped after, maybe
                    folded.ahead.add((held[0], held[1]))
            held = registers[record.paper] = new
            folded.changed[record.kind].add(record.paper)
        if record.kind == PAPER and record.value is not None and held and held[:3] == new:
            folded.docs[record.paper] = record.value
        known = devices.setdefault(record.device, {})
        known["last"] = max(int(known.get("last", 0)), record.stamp)
    return count


def lost_to_clocks_ahead(
    state: SyncState, records: Iterable[Record], now: int
) -> Counter[tuple[int, str]]:
    """How many of this device's new ``records`` will not hold their registers, by the record
    stamped ahead of this clock (``now``) that holds it instead: its (stamp, device)."""
    lost: Counter[tuple[int, str]] = Counter()
    for record in records:
        held = state.registers.get(record.kind, {}).get(record.paper)  # (a BASIS has none)
        if held is None or held[0] - now <= AHEAD_MS:
            continue
        if not beats(record.kind, register_of(record), held):
            lost[(held[0], held[1])] += 1
    return lost


#: A stamp at most this far after another device's is taken as made after seeing it: a
#: device stamps a change just after the stamp it saw (``Clock.after``), and its papers just
#: after the last stamp it made or saw (``Clock.tick``), whatever its own clock says.
STAMPED_AFTER_MS = 1000


def clocks_ahead(
    folded: Folded, devices: Mapping[str, Mapping[str, Any]], now: int
) -> dict[str, tuple[int, int]]:
    """The devices whose clocks are ahead of this one's (``now``): by how much (ms), and how
    many of this device's changes lost to records stamped ahead by them.

    A record stamped ahead is not always its device's doing: a device that saw a record
    stamped two hours ahead stamps a change made after it just after it, two hours ahead too,
    its own clock right. So each stamp ahead is traced to where it started: the stamps ahead
    (those folded, those they took registers from, each device's latest: ``devices``' "last")
    in order, one within ``STAMPED_AFTER_MS`` after the one before it comes from the same
    start; the device of the first of such a run is the one whose clock is ahead. Said only
    for the runs this sync folded records of (a device's latest stamp only traces them)."""
    fresh = set(folded.ahead) | set(folded.beaten)
    stamps = set(fresh)
    for device, known in devices.items():
        last = known.get("last")
        if isinstance(last, int) and last - now > AHEAD_MS:
            stamps.add((last, device))
    runs: list[tuple[str, int, int, bool]] = []  # origin, ahead, beaten, whether folded now
    before = -STAMPED_AFTER_MS - 1
    for stamp, device in sorted(stamps):
        if stamp - before > STAMPED_AFTER_MS:
            runs.append((device, 0, 0, False))
        before = stamp
        origin, ahead, beaten, said = runs[-1]
        if device == origin:
            ahead = max(ahead, stamp - now)
        beaten += folded.beaten[(stamp, device)]
        runs[-1] = (origin, ahead, beaten, said or (stamp, device) in fresh)
    found: dict[str, tuple[int, int]] = {}
    for origin, ahead, beaten, said in runs:
        if said:
            known_ahead, known_beaten = found.get(origin, (0, 0))
            found[origin] = (max(ahead, known_ahead), beaten + known_beaten)
    return {device: found[device] for device in sorted(found) if found[device][0] > AHEAD_MS}


def clean_paper(pid: str, doc: Mapping[str, Any]) -> tuple[dict[str, Any] | None, str]:
    """A paper document from another device in this version's shape, or None and why not
    when it is no paper this version takes: a field of the wrong type (a list of lists where
    a list of names goes), another paper's id, past the caps an import keeps
    (``storage.caps``: a 5 MB abstract, 20,000 lists).

    Its links are kept as an import keeps them (``storage.sources.links.web_url``): one line
    of ``http(s)://`` and a host, or none; a ``javascript:`` or ``file:`` address, an option
    (``--help``) or two lines in one would otherwise reach every export as a link."""
    for name, value in doc.items():  # as sent: a list is no text, an object no list
        like = _SHAPE.get(name)
        if like is not None and type(value) is not (list if isinstance(like, list) else type(like)):
            return None, f"its {name} is not what a paper holds"
    try:
        paper = paper_from_doc(doc)
        clean = _with_web_links(paper_to_doc(paper))
    except (KeyError, TypeError, ValueError):
        return None, "not a paper of this version"
    if paper.id != pid:
        return None, "it names another paper's id"
    for name, value in clean.items():
        fits = _extra_fits(value) if name == "extra" else _fits(value, _SHAPE[name])
        if not fits:
            return None, f"its {name} is not what a paper holds"
    if len(paper.title) > MAX_TITLE_CHARS:
        return None, f"the title is {len(paper.title):,} characters long"
    problem = abstract_size_problem(paper.abstract) or lists_problem(paper.lists or [paper.list])
    problem = problem or lists_problem([paper.list])
    if problem:
        return None, problem
    return clean, ""


_EXTRA_KINDS: Mapping[str, type] = {f.name: f.kind for f in EXTRA_FIELDS}
#: The longest text of an extra field (an area, a DOI, a TL;DR), as imports cut it.
_EXTRA_TEXT = 1000


def _extra_fits(value: Any) -> bool:
    """True for extra fields as a paper holds them: (name, value) pairs of known names, each
    value of its field's kind (a rating a number, an area a short text)."""
    if not isinstance(value, list) or len(value) > len(_EXTRA_KINDS):
        return False
    for pair in value:
        if not isinstance(pair, list | tuple) or len(pair) != 2:
            return False
        name, fact = pair
        kind = _EXTRA_KINDS.get(name) if isinstance(name, str) else None
        if kind is None or isinstance(fact, bool):
            return False
        if kind is str and not (isinstance(fact, str) and len(fact) <= _EXTRA_TEXT):
            return False
        if kind is int and not isinstance(fact, int):
            return False
        if kind is float and not isinstance(fact, int | float):
            return False
    return True


def _fits(value: Any, like: Any) -> bool:
    """True when ``value`` is of the type of a paper's field ``like``: a list is of texts
    (authors, links, keywords, lists: a list in one is unhashable, and stopped every sync)."""
    if isinstance(like, int):  # bool is an int: position, title_derived
        return type(value) is type(like)
    if isinstance(like, str):
        return isinstance(value, str)
    if isinstance(like, list):
        return isinstance(value, list) and all(isinstance(v, str) for v in value)
    return True


def _with_web_links(doc: dict[str, Any]) -> dict[str, Any]:
    """The document with only the links an import keeps: web addresses on one line."""
    url = doc.get("url")
    if isinstance(url, str):
        doc["url"] = web_url(url)
    github = doc.get("github")
    if isinstance(github, list):
        links = (web_url(link) if isinstance(link, str) else link for link in github)
        doc["github"] = [link for link in links if link != ""]
    return doc


#: The type of every field of a stored paper, from an empty paper.
_SHAPE: Mapping[str, Any] = paper_to_doc(Paper("0", "", ""))


@dataclass(slots=True)
class Plan:
    """What the library must change to hold the registers' values."""

    #: Paper → register → value, for statuses, notes and tags.
    triage: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: The stamps of the statuses in ``triage`` (they give the decision's time).
    stamps: dict[str, int] = field(default_factory=dict)
    #: Paper → register → the stamp of its value in ``triage``: when it was made elsewhere.
    times: dict[str, dict[str, int]] = field(default_factory=dict)
    #: Paper → its document to write, or None to take it out.
    papers: dict[str, dict[str, Any] | None] = field(default_factory=dict)
    #: Papers whose records could not be used, and why (reported).
    unusable: dict[str, str] = field(default_factory=dict)
    #: Papers this library does not have whose triage the registers hold: kept out of
    #: ``triage.json`` (``SyncState.waiting``) until the paper arrives.
    waiting: set[str] = field(default_factory=set)

    def __bool__(self) -> bool:
        return bool(self.triage or self.papers)

    def written(self) -> dict[str, dict[str, Any]]:
        """What the library holds once this plan is written: register → paper → value (for a
        paper, its digest, or None), and under ``at`` the decision times the statuses get
        (seconds, to the millisecond, as ``triage.json`` keeps them); kept until it is
        (``SyncState.pending``)."""
        found: dict[str, dict[str, Any]] = {kind: {} for kind in KINDS}
        for pid, values in self.triage.items():
            for kind, value in values.items():
                found[kind][pid] = value
        for pid, doc in self.papers.items():
            found[PAPER][pid] = None if doc is None else paper_digest(doc)
        found[DECIDED_AT] = {pid: decided_at(stamp) for pid, stamp in self.stamps.items()}
        return found


#: The key of ``Plan.written`` under which the statuses' decision times are.
DECIDED_AT = "at"


def decided_at(stamp: int) -> float:
    """The decision time ``triage.json`` keeps for a status stamped ``stamp`` (seconds, to
    the millisecond: ``TriageChange.receive``)."""
    return round(stamp / 1000, 3)


def plan_merge(
    state: SyncState,
    pids: Mapping[str, Iterable[str]],
    triage: TriageState,
    papers: Mapping[str, Mapping[str, Any]] | None,
    docs: Mapping[str, dict[str, Any]],
    present: Callable[[str], bool],
    refill_at: int | None = None,
) -> Plan:
    """The changes that bring the library to the registers, for the papers ``pids`` names
    (by kind): those whose holders changed, and those a merge cut short left to write.
    ``papers`` (papers.json's papers by id) is needed when papers changed; ``present``
    tells the papers this library has (the triage of others waits: ``Plan.waiting``).

    ``refill_at``: ``triage.json`` is older than the registers (put back from a copy), and
    a value no register holds goes back to what a paper has by default: the file's is from
    before the last sync, which had it so (a status then gets this stamp: that sync's mark).

    Work is linear in the papers named: each is looked up once per register."""
    plan = Plan()
    for pid in sorted(set(pids.get(PAPER, ()))):
        _plan_paper(state, pid, papers or {}, docs, plan)
    for kind in TRIAGE_KINDS:
        registers = state.registers[kind]
        for pid in sorted(_named(state, pids, kind)):
            held = registers.get(pid)
            if held is None and refill_at is not None:
                held = [refill_at, "", DEFAULTS[kind]]
            if held is None or triage_values(triage, pid)[kind] == held[2]:
                continue
            coming = plan.papers.get(pid)
            if coming is None and (pid in plan.papers or not present(pid)):
                plan.waiting.add(pid)  # no paper here to hold it (or it leaves now)
                continue
            plan.triage.setdefault(pid, {})[kind] = held[2]
            plan.times.setdefault(pid, {})[kind] = held[0]
            if kind == TRIAGE_KINDS[0]:
                plan.stamps[pid] = held[0]
    return plan


def _named(state: SyncState, pids: Mapping[str, Iterable[str]], kind: str) -> set[str]:
    """The papers whose ``kind`` to bring to the registers: those whose holders changed, and
    for the queue those given a status other than the Inbox too: a place that arrived before
    its star (a log delivered up to between the two records) was not written, as the library
    keeps no place for an Inbox paper, and comes with the star, not left out for good."""
    named = set(pids.get(kind, ()))
    if kind == QUEUE:
        statuses = state.registers[STATUS]
        for pid in pids.get(STATUS, ()):
            held = statuses.get(pid)
            if held is not None and held[2] != DEFAULTS[STATUS]:
                named.add(pid)
    return named


def _plan_paper(
    state: SyncState,
    pid: str,
    papers: Mapping[str, Mapping[str, Any]],
    docs: Mapping[str, dict[str, Any]],
    plan: Plan,
) -> None:
    held = state.registers[PAPER].get(pid)
    if held is None:
        return
    local = papers.get(pid)
    if held[2] is None:
        if local is not None:
            plan.papers[pid] = None
        return
    wanted = held[3] if len(held) > 3 else held[2]
    if local is not None and paper_digest(local) == wanted:
        return
    doc = docs.get(pid)
    clean, problem = clean_paper(pid, doc) if doc is not None else (None, "")
    if clean is None:
        plan.unusable[pid] = problem or "its document has not arrived"
        return
    digest = paper_digest(clean)
    state.registers[PAPER][pid] = held[:3] if digest == held[2] else [*held[:3], digest]
    if local is None or paper_digest(local) != digest:
        plan.papers[pid] = clean


def relay_records(
    state: SyncState,
    devices: set[str],
    *documents: Mapping[str, dict[str, Any]],
) -> list[Record]:
    """The records holding registers for ``devices``, to pass on in this device's log: their
    own log is gone (deleted, or replaced by an older copy), and a device that joins later
    must still get them. A paper's document is the first of ``documents`` (by paper) that is
    the one its register holds (``held_document``); none is: not passed on."""
    found: list[Record] = []
    for kind in KINDS:
        for pid, held in sorted(state.registers[kind].items()):
            if held[1] not in devices:
                continue
            value = held[2]
            if kind == PAPER and value is not None:
                value = held_document(held, (docs.get(pid) for docs in documents))
                if value is None:
                    continue
            found.append(Record(kind, held[0], held[1], pid, value))
    return found


def held_document(
    held: list[Any], documents: Iterable[dict[str, Any] | None]
) -> dict[str, Any] | None:
    """The first of ``documents`` that is the one the paper register ``held`` holds (its
    digest as sent, or as this version keeps it: ``_plan_paper``); None when none is.

    A record written with a holder's stamp and device (passed on, or written again in this
    device's own log) must carry that holder's document: the library's may be another (a
    merge this sync has read but not written yet, a change made here not sent yet), and two
    records of one stamp and device are then told apart by their digests, the greater taken
    by the devices that read both, while the writer, which does not read its own log back,
    keeps the one it read: the libraries part for good."""
    for doc in documents:
        if doc is not None and paper_digest(doc) in held[2:]:
            return doc
    return None
