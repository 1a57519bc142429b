"""What OpenReview's two APIs share: the API asked (``Api``), a stream of notes asked of it
(``Query``), and one page of its answer to ``/notes`` (``{"notes": [...], "count": N}``),
read by ``notes_of``; a page is kept in the cache only when it holds notes (``holds_notes``).
An answer of another shape (no list of notes; a list none of whose entries is a note) is not
understood, and said so (``AnswerError``): no page without papers, which before the decisions
says the venue has no accepted paper yet. Nor is a first page that counts notes and sends none
(``first_notes``): the server's paging or permissions failed (``InconsistentAnswer``).

``openreview.py`` fetches a venue through them; ``openreview_v1.py`` holds what a venue of API
v1 needs besides.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from storage.fetch.errors import AnswerError, InconsistentAnswer
from storage.fetch.replies import ReplyNames


@dataclass(frozen=True, slots=True)
class Api:
    """One of OpenReview's two APIs."""

    version: int
    base: str

    @property
    def site(self) -> str:
        """Where the site serves what notes link to (``/pdf/…``): openreview.net for the real
        API, the server itself for any other."""
        host = urlsplit(self.base).hostname or ""
        for prefix in ("api2.", "api."):
            if host.startswith(prefix) and host.endswith("openreview.net"):
                return f"https://{host.removeprefix(prefix)}"
        return self.base


@dataclass(frozen=True, slots=True)
class Query:
    """One stream of notes: its parameters, what it is for people, the status it gives."""

    params: Mapping[str, str]
    what: str
    #: The venue status of every paper it brings; None: the paper's own (its venue, decision).
    status: str | None = None
    #: v1: keep only the notes whose decision accepts them.
    accepted_only: bool = False
    #: What the venue calls the replies read (its reviews, decisions, meta reviews).
    names: ReplyNames = ReplyNames()
    #: Its papers' place in the list, whatever the order it is read in (``SHOWN_ORDER``).
    shown: int = 0
    #: The venue a note of it that names none is at (v2's, ``--all``'s parts too: ``ICLR 2025``).
    venue: str = ""


def is_note(value: Any) -> bool:
    """Whether an entry of a page is a note: an object with its ``content``."""
    return isinstance(value, Mapping) and isinstance(value.get("content"), Mapping)


def holds_notes(data: Any) -> bool:
    """Whether a page of notes is worth keeping in the cache: an empty one (no accepted papers
    before the decisions are out) may be full by the afternoon, and a fetch then must see it;
    one not understood (``notes_of``) is asked again."""
    notes = data.get("notes") if isinstance(data, Mapping) else None
    return isinstance(notes, list) and any(is_note(note) for note in notes)


def notes_of(data: Any, host: str) -> tuple[Sequence[Any], int | None]:
    """The notes of one answer, and the count it says there are in all; ``AnswerError`` for an
    answer of another shape: no list of notes (an error body: what it says), or a list none
    of whose entries is a note (one odd entry among notes is the record error it makes)."""
    notes = data.get("notes") if isinstance(data, Mapping) else None
    if not isinstance(notes, list):
        raise AnswerError(host, f"no list of notes{api_error(data)}", "/notes")
    if notes and not any(is_note(note) for note in notes):
        raise AnswerError(
            host, f"none of its {len(notes):,} notes is a note (an object with content)", "/notes"
        )
    count = data.get("count")
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        count = None
    return notes, count


def first_notes(data: Any, host: str, what: str) -> tuple[Sequence[Any], int | None]:
    """``notes_of`` a query's first page; ``InconsistentAnswer`` for one that counts notes and
    sends none (``{"notes": [], "count": 5}``): taken for an empty page, it said the venue had
    no accepted papers yet. (A later page so is the end of pages before the count: what came
    is kept, with a warning.)"""
    notes, count = notes_of(data, host)
    if not notes and count:
        raise InconsistentAnswer(
            host,
            f"it counts {count:,} {what} but sends none of them "
            "(a paging or permission problem of the server's); fetch again later",
            "/notes",
        )
    return notes, count


def api_error(data: Any) -> str:
    """What an OpenReview error body says (``{"name": "ForbiddenError", "message": …}``), when
    one came where a list was expected, as ``: ForbiddenError: message``; else ""."""
    if not isinstance(data, Mapping):
        return ""
    said = [data.get(key) for key in ("name", "message")]
    words = [" ".join(w.split())[:160] for w in said if isinstance(w, str) and w.strip()]
    return f": {': '.join(words)}" if words else ""
