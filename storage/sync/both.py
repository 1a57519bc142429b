"""A note, or a paper's tags, edited on two devices at once: neither edit dropped without a
trace, and every device the same.

Each note and tags record is sent after a ``BASIS`` record saying what it was written over: the
note or tags its device last saw (``with_bases``). A sync that finds this device's own record
replaced by one written without seeing it (its basis older than ours, and so on back through
the records read now: ``_seen``) writes one new record stamped after the other's, which every
device then takes, and so converges on:

- a note: the other's text, then ours in a block marked with this device's name and when ours
  was written (``MARK``);
- tags: the two lists merged as sets over the tags both were written over (``merged_tags``): a
  tag either side added is kept, one either side took out stays out unless the other added it;
  a tag both put in or took out since, by records one after the other, is as the later record
  that did left it (taken out on both, then put back on one: back).
  This device keeps the chain of its tags records one after the other, each with what it
  showed when it was written (``SyncState.tag_bases``: the registers keep only their holders);
  the basis is the tags of the last of them the other's saw (gone back as ``_seen`` goes), or
  when it saw none, what the first was written over: two lists sent before the other's, which
  saw neither, do not make the first one's tags look taken out. Not known (no state of it):
  none, and both lists are kept whole. The other's records gone back through are those read
  now and those read while the chain held the paper (``SyncState.tags_read``): its #t out
  read in one sync, its #t back in the next, is a change of #t, not the basis again.

Only the device whose record lost does it (the winner's device sees nothing lost), and a note or
tags written after seeing ours, one that takes text or a tag out included, is a plain edit:
nothing is put back. A record whose writer's basis is not known (a version before this one, a
record passed on) is taken as before, the later one holding. Past the caps (``storage.caps``)
the other's is kept and the sync says so: a note too long with ours beside it sets ours aside
in a file of its own; tags too many for one paper are named in the line.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from datetime import datetime
from difflib import SequenceMatcher
from pathlib import Path
from typing import Any

from storage.caps import note_problem, tags_problem
from storage.sync.device import SYNC_DIR
from storage.sync.local import Base
from storage.sync.merge import Folded
from storage.sync.records import BASES, BASIS, NOTE, TAGS, Clock, Record, valid_value
from storage.sync.report import SyncReport
from storage.sync.state import SyncState

#: The line above the text a device kept of its own (``MARK.format(name=…, day=…)``).
MARK = "--- also written on {name}, {day}: kept by sync ---"
_MARKED = re.compile(r"^--- also written on .+: kept by sync ---$", re.MULTILINE)
#: The tags a line names at the most (a paper holds up to 200 of up to 100 characters).
_NAMED_TAGS = 5
#: This device's tags records one after the other a sync state keeps, at the most, for a paper.
_CHAIN = 32

#: A tag -> the (stamp, device) of the last record of one side that put it in or took it out.
Changes = dict[str, tuple[int, str]]
#: What two tags records were both written over, and each side's changes since (ours, theirs).
TagsBasis = tuple[list[str], Changes, Changes]


def with_bases(
    records: list[Record],
    base: Base,
    state: SyncState,
    report: SyncReport,
    home: Path,
    *,
    dry: bool = False,
) -> list[Record]:
    """``records`` with each note and tags record after its ``BASIS``: the note or tags this
    device showed when it was written (the register's holder after the last sync, or the
    value a merge cut short wrote: ``Base.seen``). The tags shown then are kept too
    (``SyncState.tag_bases``). An edit made over what the library showed before a merge cut
    short was written into it (``Base.edited``) is sent merged with that merge, over it
    (``_over_merge``; ``home``: where a merged note too long is set aside, but for a ``dry``
    run, which only says where it would be)."""
    found: list[Record] = []
    for record in records:
        if record.kind in BASES:
            kind, pid = record.kind, record.paper
            if pid in base.edited.get(kind, {}):
                aside = home / SYNC_DIR / "notes-kept"
                record = _over_merge(record, base, report, aside, dry=dry)
            held = base.holder(kind, pid)
            if base.seen(kind, pid, state.registers) != (held[0] if held else 0):
                held = state.registers[kind].get(pid)
            seen = [kind, held[0], held[1]] if held else [kind, 0, ""]
            found.append(Record(BASIS, record.stamp, record.device, pid, seen))
            if kind == TAGS:
                _chain_on(state, pid, base.holder(TAGS, pid), record.stamp, base.value(TAGS, pid))
        found.append(record)
    return found


def _over_merge(
    record: Record, base: Base, report: SyncReport, aside: Path, *, dry: bool
) -> Record:
    """``record``, an edit made here over what the library showed before a merge cut short
    was written into it (``Base.edited``), merged with that merge (``over_merge``). The
    library's value is noted as shown (``Base.shown``) where that merge's was: the merged
    record is not written into triage.json yet either, and a sync cut short again before it
    is, then finished by the next, does not take the edit for one made over it.

    Merged past the caps, the edit is sent as written (it is the later: the merge loses to
    it, as ``keep_both`` keeps the later and sets the other aside), and the sync says so:
    the other device's tags it lacks named, or the merge's note set aside in ``aside``."""
    kind, pid = record.kind, record.paper
    merged, shown = base.value(kind, pid), base.edited[kind][pid]
    value = over_merge(kind, merged, record.value, shown, (report.device.name, record.stamp))
    if valid_value(kind, value):
        base.shown.setdefault(kind, {})[pid] = record.value
        return Record(kind, record.stamp, record.device, pid, value)
    edited = "edited here before a merge with another device's was written into the library"
    if kind == TAGS:
        left = [tag for tag in value if tag not in record.value]
        report.problems.append(
            f"the tags of {pid} were {edited}: together {tags_problem(value)}, so this one's "
            f"are kept, without the other device's {_named(left)}"
        )
    else:
        held = base.holder(kind, pid)
        kept = _set_aside(aside, pid, (held[0] if held else 0, str(merged)), "the merge's", dry)
        report.problems.append(
            f"the note of {pid} was {edited}: the two together are too long for one note, and "
            f"this one's is kept ({kept})"
        )
    return record


def over_merge(kind: str, merged: Any, edited: Any, shown: Any, written: tuple[str, int]) -> Any:
    """What an edit made here over ``shown`` (the library's note or tags before a merge cut
    short was written into it) becomes over that merge, ``merged``: tags merged as sets over
    ``shown`` (what either took out stays out); a note whose own block ends the merge gets the
    edit in its place (none: the block and its mark go), else the edit kept beside it, marked
    as ``written`` (this device's name, the edit's stamp)."""
    if kind == TAGS:
        return merged_tags(merged, edited, shown)
    text, before, after = str(merged), str(shown).strip(), str(edited).strip()
    if before and text.endswith(f"\n{before}"):
        # the lines before the block as written: the spaces and the CRLF's ``\r`` that end
        # the last of them stay (``rstrip`` took them: a Markdown line break, a CRLF note)
        head = _trimmed(text[: len(text) - len(before) - 1])
        if after:
            return f"{head}\n{after}"
        top, _, last = head.rpartition("\n")
        return top.strip() if _MARKED.fullmatch(last) else head.rstrip()
    if before:  # its blocks in the merge, not as one piece at its end (some held by theirs)
        return _edited_over(text, before, after)
    return both_texts(text, after, *written) or text


def _edited_over(merged: str, shown: str, edited: str) -> str:
    """``merged`` with the edit made here (``shown`` made ``edited``) made in it: each line
    the edit took out of ``shown`` taken out wherever ``merged`` holds it (the other's note
    holds it as ``shown`` did: what both saw), each line it added put in after the line of
    ``shown`` it follows (before the first when none does), unless ``merged`` holds it; a
    mark left with no text under it goes too."""
    were, now, text = shown.split("\n"), edited.split("\n"), merged.split("\n")
    gone = _lines(shown) - _lines(edited)
    held = _lines(merged)
    where: dict[int, int] = {}  # a line of ``shown`` -> the same line in ``merged``
    for a, b, size in SequenceMatcher(None, were, text, autojunk=False).get_matching_blocks():
        where.update((a + k, b + k) for k in range(size))
    added: dict[int, list[str]] = {}  # after a line of ``merged`` (-1: before the first)
    for op, i1, _i2, j1, j2 in SequenceMatcher(None, were, now, autojunk=False).get_opcodes():
        new = [line for line in now[j1:j2] if line.strip() not in held or not line.strip()]
        if op in ("insert", "replace") and new:
            after = next((where[i] for i in range(i1 - 1, -1, -1) if i in where), None)
            if after is None:
                after = min((where[i] for i in where if i >= i1), default=len(text)) - 1
            added.setdefault(after, []).extend(new)
    lines = list(added.get(-1, []))
    for n, line in enumerate(text):
        if line.strip() not in gone:
            lines.append(line)
        lines.extend(added.get(n, []))
    return _without_empty_marks(lines)


def _without_empty_marks(lines: list[str]) -> str:
    """Lines as one note: a mark with no text after it before the next mark goes, and blank
    lines in a row are one."""
    kept: list[str] = []
    for n, line in enumerate(lines):
        if _MARKED.fullmatch(line.strip()):
            rest = next((x for x in lines[n + 1 :] if x.strip()), "")
            if not rest or _MARKED.fullmatch(rest.strip()):
                continue
        if line.strip() or (kept and kept[-1].strip()):
            kept.append(line)
    return "\n".join(kept).strip()


def _chain_on(
    state: SyncState, pid: str, held: list[Any] | None, stamp: int, over: Sequence[str]
) -> None:
    """Keep that this device's tags record of ``stamp`` was written over ``over``: after the
    chain of its records before it when the last of them is ``held`` (the register's holder
    it follows), else as the first of a new chain. Past ``_CHAIN`` records the two oldest
    become one, written over the tags both were (a tag one of them added counts as added)."""
    chain = state.tag_bases.get(pid) or []
    if not (chain and held and held[1] == state.device and chain[-1][0] == held[0]):
        chain = []
        state.tags_read.pop(pid, None)  # (read while another chain held it)
    chain = [*chain, [stamp, list(over)]]
    if len(chain) > _CHAIN:
        first, second = chain[0], chain[1]
        chain = [[second[0], [tag for tag in second[1] if tag in first[1]]], *chain[2:]]
    state.tag_bases[pid] = chain


def keep_both(
    state: SyncState,
    base: Base,
    made: list[Record],
    folded: Folded,
    clock: Clock,
    report: SyncReport,
    home: Path,
    *,
    dry: bool = False,
) -> list[Record]:
    """The note and tags records (with their bases) that keep this device's notes and tags
    another device replaced without seeing them: ``made`` (sent now, as ``with_bases`` sends
    them: an edit over a merge cut short merged with it), or the ones it held (``base``),
    once ``folded`` is in the registers. Counted in ``report.kept_both`` and
    ``report.tags_merged``. Two notes that together are too long for one note: this device's
    is written to a file in ``HOME/sync/notes-kept``; tags too many for one paper: the other
    device's are kept, and this one's it lacks named."""
    found: list[Record] = []
    merged: set[str] = set()
    for kind, pid, winner, lost, basis in _lost_unseen(state, base, made, folded):
        value: Any
        if kind == NOTE:
            aside = home / SYNC_DIR / "notes-kept"
            value = _both_notes(pid, str(winner[2]), lost, report, aside, dry)
        else:
            value = _both_tags(pid, winner[2], lost[1], basis, report)
        if value is None:
            continue
        stamp = clock.after(None, winner[0])
        found.append(Record(BASIS, stamp, state.device, pid, [kind, winner[0], winner[1]]))
        found.append(Record(kind, stamp, state.device, pid, value))
        if kind == TAGS:
            state.tag_bases[pid] = [[stamp, list(winner[2])]]
            merged.add(pid)
    _forget_tag_bases(state, merged)
    _keep_read(state, folded, merged)
    return found


def _lost_unseen(
    state: SyncState, base: Base, made: list[Record], folded: Folded
) -> Iterator[tuple[str, str, list[Any], tuple[int, Any], TagsBasis | None]]:
    """(kind, paper, the holder, ours, what ours was written over) for each note and tags
    register that another device's record holds, written without seeing this device's that
    it replaced: ours as (stamp, value), made now or held since the last sync. What ours was
    written over: the tags both were, and when each side last put each tag in or took it
    out since (None for a note, or when not known)."""
    device = state.device
    for kind in BASES:
        ours = {record.paper: record for record in made if record.kind == kind}
        for pid in sorted(folded.changed[kind] | ours.keys()):
            winner = state.registers[kind].get(pid)
            if winner is None or winner[1] == device:
                continue
            mine = ours.get(pid)
            if mine is not None:  # written here since the last sync: nobody has seen it
                seen, lost = None, (mine.stamp, mine.value)
            else:
                held = base.holder(kind, pid)
                if held is None or held[1] != device:
                    continue
                seen, lost = (held[0], held[1]), (held[0], held[2])
            if not _seen(folded, kind, pid, winner, seen, lost[1]):
                basis = _tags_seen(state, folded, pid, winner, lost) if kind == TAGS else None
                yield kind, pid, winner, lost, basis


def _tags_seen(
    state: SyncState, folded: Folded, pid: str, winner: list[Any], lost: tuple[int, Any]
) -> TagsBasis | None:
    """What ``winner`` and this device's tags ``lost`` were both written over: the tags of the
    last record of the chain of ours that ends in ``lost`` (``SyncState.tag_bases``) that
    ``winner`` saw, gone back through what each record read now was written over; when it saw
    none, what the first of the chain was written over, or none when it was written over no
    tags at all (by way of other devices' records only: ``BASIS`` 0). None when not known (no
    chain kept, one that ends elsewhere, or ``winner`` written over one of ours from before
    the chain: the first's basis is then no basis of the two).

    With it, when each side last put each tag in or took it out since (``_changes``): ours by
    the records of the chain after that basis, theirs by the records gone back through (those
    read now): a tag taken out on both and put back on one is a change of that one's, not
    the basis again. Those read in an earlier sync while the chain held the paper are gone
    back through too (``SyncState.tags_read``)."""
    chain = state.tag_bases.get(pid)
    if not chain or chain[-1][0] != lost[0]:
        return None
    earlier = {(int(row[0]), str(row[1])): row for row in state.tags_read.get(pid, ())}

    def basis_of(at: tuple[int, str]) -> tuple[int, str] | None:
        basis = folded.bases.get((TAGS, pid, *at))
        if basis is None and at in earlier and earlier[at][3] is not None:
            basis = (int(earlier[at][3][0]), str(earlier[at][3][1]))
        return basis

    values = [*(over for _stamp, over in chain[1:]), lost[1]]  # each record's own tags
    where = {(int(stamp), state.device): at for at, (stamp, _over) in enumerate(chain)}
    at = (int(winner[0]), str(winner[1]))
    theirs: list[tuple[tuple[int, str], Sequence[str]]] = [(at, winner[2])]
    first = 0  # the first record of the chain the other did not see
    basis_tags: list[str] = list(chain[0][1])
    for _step in range(len(folded.bases) + len(earlier) + 1):
        basis = basis_of(at)
        if basis in where:
            first = where[basis] + 1
            basis_tags = list(values[where[basis]])
            break
        if basis is None or basis >= at:
            break  # (a basis is older than its record)
        if basis[1] == state.device:  # one of ours before the chain (a merge started it anew)
            if (TAGS, pid, *at) not in folded.bases:
                break  # reached through a record read earlier: the basis as without those
            return None  # its tags are not known
        if basis[0] == 0:
            basis_tags = []
            break
        at = basis
        value = folded.values.get((TAGS, pid, *at))
        if value is None and at in earlier:
            value = earlier[at][2]
        if isinstance(value, list):
            theirs.append((at, value))
    ours = [((int(chain[n][0]), state.device), values[n]) for n in range(first, len(chain))]
    return basis_tags, _changes(basis_tags, ours), _changes(basis_tags, theirs[::-1])


def _changes(
    basis: Sequence[str], steps: Sequence[tuple[tuple[int, str], Sequence[str]]]
) -> Changes:
    """Each tag -> the (stamp, device) of the last of ``steps`` (records one after the
    other, from ``basis``) that put it in or took it out."""
    found: Changes = {}
    before = set(basis)
    for at, tags in steps:
        now = set(tags)
        for tag in now ^ before:
            found[tag] = at
        before = now
    return found


def _both_notes(
    pid: str, winner: str, lost: tuple[int, Any], report: SyncReport, aside: Path, dry: bool
) -> str | None:
    """The note that keeps both (``both_texts``), counted in ``report``; None when there is
    nothing to keep, or when the two are too long for one note (ours then set aside in a file
    in ``aside``, and said)."""
    text = both_texts(winner, str(lost[1]), report.device.name, lost[0])
    if text is None:
        return None
    if note_problem(text):
        kept = _set_aside(aside, pid, (lost[0], str(lost[1])), dry=dry)
        report.problems.append(
            f"the note of {pid} was edited on both devices: the two together are too long "
            f"for one note, and the other device's is kept ({kept})"
        )
        return None
    report.kept_both += 1
    return text


def _both_tags(
    pid: str,
    theirs: Sequence[str],
    ours: Sequence[str],
    basis: TagsBasis | None,
    report: SyncReport,
) -> list[str] | None:
    """The tags that merge ``ours`` into ``theirs`` (``merged_tags``, over ``basis``: none
    when not known), counted in ``report``; None when ``theirs`` holds them already, or when
    they would be too many for one paper (``theirs`` then kept, and said, with the tags of
    ours left out)."""
    tags = merged_tags(theirs, ours, *basis) if basis else merged_tags(theirs, ours, ())
    if tags == list(theirs):
        return None
    problem = tags_problem(tags)
    if problem:
        left = [tag for tag in tags if tag not in theirs]
        report.problems.append(
            f"the tags of {pid} were edited on both devices: together {problem}, so the other "
            f"device's are kept, without this one's {_named(left)}"
        )
        return None
    report.tags_merged += 1
    return tags


def _named(tags: Sequence[str]) -> str:
    """Tags as a line names them: the first few, and how many more."""
    more = f" and {len(tags) - _NAMED_TAGS:,} more" if len(tags) > _NAMED_TAGS else ""
    return ", ".join(f"#{tag}" for tag in tags[:_NAMED_TAGS]) + more


def merged_tags(
    theirs: Sequence[str],
    ours: Sequence[str],
    basis: Sequence[str],
    ours_changed: Changes | None = None,
    theirs_changed: Changes | None = None,
) -> list[str]:
    """Two lists of tags written over ``basis`` merged as sets: those both hold, and those
    either added since ``basis`` (a tag one took out stays out, unless the other added it).
    A tag both put in or took out since (``ours_changed``, ``theirs_changed``: when each last
    did, ``_changes``; by default, ``basis`` to the list in one step) is as the later left
    it: taken out on both and put back on one, it is back. In ``theirs``' order, then the
    ones only ``ours`` holds in its own."""
    mine, other = set(ours), set(theirs)
    if ours_changed is None:
        ours_changed = dict.fromkeys(mine ^ set(basis), (0, ""))
    if theirs_changed is None:
        theirs_changed = dict.fromkeys(other ^ set(basis), (0, ""))

    def kept(tag: str) -> bool:
        by_us, by_them = ours_changed.get(tag), theirs_changed.get(tag)
        if by_us is not None and (by_them is None or by_us > by_them):
            return tag in mine
        if by_them is not None:
            return tag in other
        return tag in mine and tag in other

    return [tag for tag in theirs if kept(tag)] + [
        tag for tag in ours if kept(tag) and tag not in other
    ]


def _forget_tag_bases(state: SyncState, keep: set[str]) -> None:
    """Forget what this device's tags records were written over once they no longer hold
    their registers (but for those of ``keep``, written now: in the registers once sent)."""
    registers, device = state.registers[TAGS], state.device
    for pid, chain in list(state.tag_bases.items()):
        held = registers.get(pid)
        if pid not in keep and (held is None or held[0] != chain[-1][0] or held[1] != device):
            del state.tag_bases[pid]


def _keep_read(state: SyncState, folded: Folded, merged: set[str]) -> None:
    """Keep the other devices' tags records read now (``folded``) of each paper a chain of
    this device's holds (``SyncState.tag_bases``), with what each was written over, the
    newest ``_CHAIN`` of them (``SyncState.tags_read``); forget those of papers no chain
    holds any more, or whose chain a merge made now starts (``merged``: that merge's record
    is written over the other's it lost to, the basis of any record after it)."""
    chains, kept = state.tag_bases, state.tags_read
    for pid in [pid for pid in kept if pid not in chains or pid in merged]:
        del kept[pid]
    read: dict[str, dict[tuple[int, str], list[Any]]] = {}
    for (kind, pid, stamp, device), value in folded.values.items():
        if kind != TAGS or device == state.device or pid not in chains or pid in merged:
            continue
        basis = folded.bases.get((kind, pid, stamp, device))
        row = [stamp, device, list(value), list(basis) if basis else None]
        read.setdefault(pid, {})[(stamp, device)] = row
    for pid, rows in read.items():
        known = {(int(row[0]), str(row[1])): row for row in kept.get(pid, ())}
        known.update(rows)
        kept[pid] = [known[at] for at in sorted(known)][-_CHAIN:]


def _set_aside(
    aside: Path, pid: str, lost: tuple[int, str], whose: str = "this one's", dry: bool = False
) -> str:
    """Write a note that no note holds (``whose``: this device's) to ``aside`` (a file of its
    own, kept: triage.json.bak, which held it, is replaced by the next write); where it is,
    said. ``dry``: a preview, which writes nothing: where it would be, said."""
    from storage.files.atomic import atomic_write

    path = aside / f"{pid}-{lost[0]}.txt"
    if dry:
        return f"{whose} would be kept in {path}"
    try:
        aside.mkdir(parents=True, exist_ok=True)
        atomic_write(path, lost[1].encode("utf-8", "surrogatepass"), backup=False)
    except OSError as exc:
        return f"{whose} could not be kept in {path}: {exc.strerror or exc}"
    return f"{whose} is in {path}"


def _seen(
    folded: Folded, kind: str, pid: str, winner: list[Any], mine: tuple[int, str] | None, value: Any
) -> bool:
    """True when the note or tags ``winner`` (of ``kind``) were written after seeing ours: the
    record ``mine`` (None: one written here since the last sync) or its ``value`` (sent
    again: a merge cut short, a record from another folder). Gone back through what each
    record read now was written over: False once that is older than ours, or nothing
    (``BASIS`` 0); when a basis is not known, True for a record sent before (taken as before:
    the later holds), False for one of now."""
    at = (int(winner[0]), str(winner[1]))
    while True:
        if folded.values.get((kind, pid, *at)) == value:
            return True
        basis = folded.bases.get((kind, pid, *at))
        if basis is None or basis >= at:  # (a basis is older than its note)
            return mine is not None
        if basis == mine:
            return True
        if basis[0] == 0 or (mine is not None and basis < mine):
            return False  # whoever had seen ours wrote over it, or over a later one
        at = basis


def both_texts(winner: str, lost: str, name: str, stamp: int) -> str | None:
    """The note that keeps both: ``winner``, then what of ``lost`` it does not hold, marked as
    written on ``name`` at ``stamp``. A note kept so before is taken by its marked blocks, and
    its first part (another device's note, maybe edited here since) as one more block of
    ``name``'s. None when ``winner`` holds all of ``lost``, line by line."""
    starts = [m.start() for m in _MARKED.finditer(lost)]
    day = datetime.fromtimestamp(stamp / 1000).strftime("%Y-%m-%d %H:%M")
    first = lost[: starts[0]] if starts else lost
    pieces = [f"{MARK.format(name=name, day=day)}\n{_trimmed(first)}"] if first.strip() else []
    ends = [*starts[1:], len(lost)] if starts else []
    pieces += [_trimmed(lost[a:b]) for a, b in zip(starts, ends, strict=True)]
    held = _lines(winner)
    kept = [piece for piece in pieces if not _lines(piece.split("\n", 1)[-1]) <= held]
    if not kept:
        return None
    return "\n\n".join([winner.strip(), *kept]).strip()


def _trimmed(text: str) -> str:
    """``text`` without the blank lines and spaces before it and the blank lines after it:
    the spaces and the CRLF's ``\r`` that end its last line stay, as they are the user's
    (a Markdown line break, a CRLF note) where a line follows it in the note (``strip`` took
    them)."""
    lines = text.lstrip().split("\n")
    while len(lines) > 1 and not lines[-1].strip():
        lines.pop()
    return "\n".join(lines)


def _lines(text: str) -> set[str]:
    """A note's lines, as compared: a text is held by another that has each of its lines (a
    short note is not held by a longer one that only contains its words: "important" in
    "not important")."""
    return {line.strip() for line in text.splitlines() if line.strip()}
