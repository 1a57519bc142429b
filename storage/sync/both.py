"""A note edited on two devices at once: both texts kept, never one dropped without a trace.

Each note record is sent after a ``BASIS`` record saying what it was written over: the note
its device last saw (``with_bases``). A sync that finds this device's own note replaced by one
written without seeing it (its basis older than ours, and so on back through the notes read
now: ``_seen``) writes the other's text, then ours in a block marked with this device's name
and when ours was written (``MARK``), as one new note record stamped after the other's: every
device then takes that one, and converges on the same text. Only the device whose note lost
does it (the winner's device sees nothing lost), and a note written after seeing ours, one
that takes text out included, is a plain edit: nothing is put back. A note whose writer's
basis is not known (a version before this one, a record passed on) is taken as before, the
later one holding.

Tags stay last-writer-wins: a record holds the whole list, and a set merge needs what each
side added and took out since their common tags, which the records do not carry.
"""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path
from typing import Any

from storage.caps import note_problem
from storage.sync.device import SYNC_DIR
from storage.sync.local import Base
from storage.sync.merge import Folded
from storage.sync.records import BASIS, NOTE, Clock, Record
from storage.sync.report import SyncReport
from storage.sync.state import SyncState

#: The line above the text a device kept of its own (``MARK.format(name=…, day=…)``).
MARK = "--- also written on {name}, {day}: kept by sync ---"
_MARKED = re.compile(r"^--- also written on .+: kept by sync ---$", re.MULTILINE)


def with_bases(records: list[Record], base: Base, state: SyncState) -> list[Record]:
    """``records`` with each note record after its ``BASIS``: the note this device showed
    when it was written (the register's holder after the last sync, or the note a merge cut
    short wrote: ``Base.seen``)."""
    found: list[Record] = []
    for record in records:
        if record.kind == NOTE:
            held = base.holder(NOTE, record.paper)
            if base.seen(NOTE, record.paper, state.registers) != (held[0] if held else 0):
                held = state.registers[NOTE].get(record.paper)
            seen = [NOTE, held[0], held[1]] if held else [NOTE, 0, ""]
            found.append(Record(BASIS, record.stamp, record.device, record.paper, seen))
        found.append(record)
    return found


def keep_both(
    state: SyncState,
    base: Base,
    made: list[Record],
    folded: Folded,
    clock: Clock,
    report: SyncReport,
    home: Path,
) -> list[Record]:
    """The note records (with their bases) that keep this device's notes another device's
    replaced without seeing them: ``made`` (sent now), or the ones it held (``base``), once
    ``folded`` is in the registers. Counted in ``report.kept_both``. Two that together are too
    long for one note: this device's is written to a file in ``HOME/sync/notes-kept``."""
    device = state.device
    ours = {record.paper: record for record in made if record.kind == NOTE}
    found: list[Record] = []
    for pid in sorted(folded.changed[NOTE] | ours.keys()):
        winner = state.registers[NOTE].get(pid)
        if winner is None or winner[1] == device:
            continue
        mine = ours.get(pid)
        if mine is not None:  # written here since the last sync: nobody has seen it
            seen, lost = None, (mine.stamp, str(mine.value))
        else:
            held = base.holder(NOTE, pid)
            if held is None or held[1] != device:
                continue
            seen, lost = (held[0], held[1]), (held[0], str(held[2]))
        if _seen(folded, pid, winner, seen, lost[1]):
            continue
        text = both_texts(str(winner[2]), lost[1], report.device.name, lost[0])
        if text is None:
            continue
        if note_problem(text):
            kept = _set_aside(home / SYNC_DIR / "notes-kept", pid, lost)
            report.problems.append(
                f"the note of {pid} was edited on both devices: the two together are too long "
                f"for one note, and the other device's is kept ({kept})"
            )
            continue
        stamp = clock.after(None, winner[0])
        found.append(Record(BASIS, stamp, device, pid, [NOTE, winner[0], winner[1]]))
        found.append(Record(NOTE, stamp, device, pid, text))
        report.kept_both += 1
    return found


def _set_aside(aside: Path, pid: str, lost: tuple[int, str]) -> str:
    """Write this device's note that no note holds to ``aside`` (a file of its own, kept:
    triage.json.bak, which held it, is replaced by the next write); where it is, said."""
    from storage.files.atomic import atomic_write

    path = aside / f"{pid}-{lost[0]}.txt"
    try:
        aside.mkdir(parents=True, exist_ok=True)
        atomic_write(path, lost[1].encode("utf-8", "surrogatepass"), backup=False)
    except OSError as exc:
        return f"this one's could not be kept in {path}: {exc.strerror or exc}"
    return f"this one's is in {path}"


def _seen(
    folded: Folded, pid: str, winner: list[Any], mine: tuple[int, str] | None, text: str
) -> bool:
    """True when the note ``winner`` was written after seeing ours: the note ``mine`` (None:
    one written here since the last sync) or its ``text`` (sent again: a merge cut short, a
    note from another folder). Gone back through what each note read now was written over:
    False once that is older than ours, or nothing (``BASIS`` 0); when a basis is not known,
    True for a note sent before (taken as before: the later holds), False for one of now."""
    at = (int(winner[0]), str(winner[1]))
    while True:
        if folded.notes.get((pid, *at)) == text:
            return True
        basis = folded.bases.get((pid, *at))
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
    pieces = [f"{MARK.format(name=name, day=day)}\n{first.strip()}"] if first.strip() else []
    ends = [*starts[1:], len(lost)] if starts else []
    pieces += [lost[a:b].strip() for a, b in zip(starts, ends, strict=True)]
    held = _lines(winner)
    kept = [piece for piece in pieces if not _lines(piece.split("\n", 1)[-1]) <= held]
    if not kept:
        return None
    return "\n\n".join([winner.strip(), *kept]).strip()


def _lines(text: str) -> set[str]:
    """A note's lines, as compared: a text is held by another that has each of its lines (a
    short note is not held by a longer one that only contains its words: "important" in
    "not important")."""
    return {line.strip() for line in text.splitlines() if line.strip()}
