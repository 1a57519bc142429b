"""What the screen says and redraws when the writer thread reports an operation."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from storage.session import Outcome
from storage.triage import Change

Severity = Literal["information", "warning", "error"]


@dataclass(frozen=True, slots=True)
class Report:
    """The screen's answer to an outcome: a notification, and whether (and where) to redraw."""

    message: str = ""
    title: str = ""
    severity: Severity = "information"
    timeout: float = 3
    redraw: bool = False
    #: The paper the cursor should land on when redrawing.
    keep: str | None = None


def report(outcome: Outcome, changes: Sequence[Change], title_of: Callable[[str], str]) -> Report:
    """What to tell the user about ``outcome``; ``changes`` are those the screen must show."""
    kind = outcome.op.kind
    if outcome.error is not None:
        if kind == "reload":
            title, message = "Not read", f"{outcome.error} The app goes on with what it loaded."
        else:
            shown = " Showing what is on disk." if outcome.snapshot is not None else ""
            title, message = "Not saved", f"Not saved: {outcome.error}.{shown}"
        return Report(message, title, "error", timeout=20, redraw=True)
    if kind in ("undo", "redo"):
        if not changes:
            return Report(f"Nothing to {kind}.", timeout=2)
        first = changes[0][0]
        verb = "Undid" if kind == "undo" else "Redid"
        what = f"{len(changes):,} papers" if len(changes) > 1 else title_of(first)
        return Report(f"{verb}: {what} → {changes[0][2].value}", redraw=True, keep=first)
    if kind == "reload":
        return Report("Updated with decisions made elsewhere.", redraw=True)
    return Report()
