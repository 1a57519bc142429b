"""What the screen says and redraws when the writer thread reports an operation."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from storage.files.triage_file import Change
from storage.models import Removal
from storage.queue import sort_said
from storage.text.sanitize import printable
from storage.text.words import count, plural
from tui.session import PAPER_KINDS, Outcome

Severity = Literal["information", "warning", "error"]
#: A list's name in a report is cut to this many characters, as the stats' table cuts it (a
#: name of 300 filled the toast; a plain count: this view model draws nothing, Rich unknown).
_NAME_CHARS = 40
#: A paper's title in a report (the paper an undo or a redo put back) is cut to this many: a
#: title of a thousand characters filled the toast, over the whole list.
_TITLE_CHARS = 100

#: The keys a report names, unless remapped.
DEFAULT_KEYS = {"undo": "u", "note_save": "ctrl+s"}


@dataclass(frozen=True, slots=True)
class Report:
    """The screen's answer to an outcome: a notification, and whether (and where) to redraw."""

    message: str = ""
    title: str = ""
    severity: Severity = "information"
    timeout: float = 3
    redraw: bool = False
    #: Papers left or came back (a removal, its undo or redo): read them again, then redraw.
    reload: bool = False
    #: The paper the cursor should land on when redrawing.
    keep: str | None = None


def report(
    outcome: Outcome,
    changes: Sequence[Change],
    title_of: Callable[[str], str],
    key: Callable[[str], str] = lambda command: DEFAULT_KEYS[command],
) -> Report:
    """What to tell the user about ``outcome``; ``changes`` are those the screen must show,
    ``key`` names a command's key as the user has it (``MainBase.key_shown``)."""
    kind = outcome.op.kind
    if outcome.error is not None:
        if kind == "reload":
            title = "Not read"
            message = f"{said(outcome.error)} The app goes on with what it loaded."
        else:
            shown = " Showing what is on disk." if outcome.triage is not None else ""
            if kind == "note":  # the editor opens again with it (``note_not_saved``)
                shown += f" The note is open again: {key('note_save')} tries again."
            title, message = "Not saved", f"Not saved: {said(outcome.error)}.{shown}"
        # a removal the screen hid at once, or an undo that may have got halfway: the papers
        # on disk are the ones to show
        reload = kind in PAPER_KINDS
        return Report(message, title, "error", timeout=20, redraw=True, reload=reload)
    if kind == "remove":
        if not outcome.removed:
            return Report("Nothing removed.", timeout=2, reload=True)
        undo = key("undo")
        return Report(f"Removed {_what(outcome.removed)}. {undo} brings it all back.", reload=True)
    if outcome.restored:
        first = outcome.restored.ids[0] if outcome.restored.ids else None
        message = f"Undid the removal: {_what(outcome.restored)} back."
        return Report(message, reload=True, keep=first)
    if outcome.removed:
        return Report(f"Redid the removal: {_what(outcome.removed)} out again.", reload=True)
    if kind in ("undo", "redo"):
        verb = "Undid" if kind == "undo" else "Redid"
        if outcome.moves and not changes:
            moved = outcome.moves[0][0]
            several = count(len(outcome.moves), "paper")
            what = _cut(title_of(moved), _TITLE_CHARS) if len(outcome.moves) == 1 else several
            step = f"the sort of the reading queue {sort_said(outcome.sort)}"
            message = f"{verb} {step if outcome.sort else 'a move in the reading queue'}: {what}"
            return Report(message, timeout=3, redraw=True, keep=moved)
        if not changes:
            return Report(f"Nothing to {kind}.", timeout=2)
        # an undo's changes come last paper first: the cursor goes to the step's first paper
        first = changes[-1][0] if kind == "undo" else changes[0][0]
        what = (
            count(len(changes), "paper")
            if len(changes) > 1
            else _cut(title_of(first), _TITLE_CHARS)
        )
        return Report(f"{verb}: {what} → {_states(changes)}", redraw=True, keep=first)
    if kind in ("note", "tags") and (outcome.kept or outcome.gone or outcome.dropped):
        return _merged(outcome)
    if kind == "reload" or outcome.triage is not None:
        # a reload, or a write that met another process's changes (and kept them): the
        # state now holds them, and the screen must show them too
        return Report("Updated with decisions made elsewhere.", redraw=True)
    return Report()


def _merged(outcome: Outcome) -> Report:
    """What a note (tags) saved over one changed elsewhere meanwhile was merged with: the
    lines (tags) added there and those taken out (``storage.files.three_way``)."""
    note = outcome.op.kind == "note"
    what, when = ("Note", "you edited it") if note else ("Tags", "the prompt was open")

    def shown(items: Sequence[str]) -> str:
        listed = "; ".join(f"“{printable(line)}”" for line in items) if note else None
        return _cut(listed or " ".join(f"#{printable(tag)}" for tag in items), _TITLE_CHARS)

    removed = f"removed {shown(outcome.gone)}" if outcome.gone else ""
    if outcome.dropped:  # the note (tags) with what was added there would pass its cap
        message = (
            f"{what} saved; what was added elsewhere while {when} would take "
            f"{'it' if note else 'them'} past {'its' if note else 'their'} cap, and is not "
            f"kept: {shown(outcome.dropped)}"
        )
        if removed:
            message += f" (also {removed} there, left out)"
        return Report(message, severity="warning", timeout=12, redraw=True)
    added = f"added {shown(outcome.kept)}" if outcome.kept else ""
    changes = "; ".join(part for part in (added, removed) if part)
    message = f"{what} saved, merged with what changed elsewhere while {when}: {changes}"
    return Report(message, timeout=8, redraw=True)


def _states(changes: Sequence[Change]) -> str:
    """The states papers went to: ``starred``, or (an undo of a bulk decision made in the All
    tab, each paper back to its own) ``2 starred, 1 read``, the most first."""
    tally = Counter(new.value for _pid, _old, new in changes)
    if len(tally) == 1:
        return next(iter(tally))
    return ", ".join(f"{n:,} {state}" for state, n in tally.most_common())


def said(error: Exception) -> str:
    """An error as one line: a refused write as the CLI says it (``PATH: No space left on
    device``), not as Python prints it (``[Errno 28] No space left on device: 'PATH'``)."""
    if isinstance(error, OSError) and error.strerror:
        return f"{error.filename}: {error.strerror}" if error.filename else error.strerror
    return str(error)


def _what(removal: Removal) -> str:
    """``3 papers``, ``the list “ICLR 2025” (19 papers)``: what a removal took out."""
    papers = count(len(removal.ids), "paper")
    if not removal.lists:
        return papers
    names = ", ".join(f"“{_cut(printable(name))}”" for name in removal.lists)
    if removal.kept:  # "(0 papers)" for a list whose 5 papers are all in another list too
        papers += f"; {count(len(removal.kept), 'paper')} kept, in another list too"
    return f"the {plural(len(removal.lists), 'list')} {names} ({papers})"


def _cut(name: str, most: int = _NAME_CHARS) -> str:
    """A list's name (a title) shown in a report: whole, or cut to ``most`` with an ellipsis."""
    return name if len(name) <= most else name[: most - 1].rstrip() + "…"
