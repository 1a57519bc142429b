"""What the pane shows of a paper (``TriageView.paper_view`` makes it; ``PaperPane`` draws it)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from storage.models import Paper, Status


@dataclass(frozen=True, slots=True)
class PaperView:
    """What the pane shows of a paper: the paper, its triage state, and why it is here."""

    paper: Paper
    status: Status = Status.INBOX
    note: str = ""
    tags: Sequence[str] = ()
    #: Search words the paper matched, to highlight.
    words: Collection[str] = ()
    #: Why the paper is where it is in a suggested order ("" when it is not).
    why: str = ""
    #: Its place in the reading queue ("#1 of 12 in the queue"), or when it was read from it.
    queue: str = ""
    #: Its PDF: the local copy, the address ``p`` opens, or none known.
    pdf: str = ""
    #: The line of its PDF a ``pdf:`` search matched ("" when none).
    pdf_line: str = ""
