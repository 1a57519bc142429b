"""The most a note, a paper's tags, its lists and its abstract may hold: one set of caps.

Kept wherever a change is made, so that what one device holds every other one takes: the CLI
(``papers note``, ``papers tag``) and the app's dialogs refuse past them with one line
(``TooBigError``), an import refuses the record, a sync refuses the record another device
sent (``storage.sync.records``, ``storage.sync.merge``). A note of 100,000 characters is a
long essay; 200 tags, 100 lists, an abstract of 20,000 characters are each far beyond a real
paper's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from storage.errors import LibraryError

#: A note, in characters.
MAX_NOTE_CHARS: Final = 100_000
#: Tags of one paper, and characters of one tag.
MAX_TAGS: Final = 200
MAX_TAG_CHARS: Final = 100
#: Lists one paper is in, and characters of a list's name.
MAX_LISTS: Final = 100
MAX_LIST_NAME_CHARS: Final = 500
#: Abstracts are a few thousand characters; anything far longer is not one.
MAX_ABSTRACT_CHARS: Final = 20_000
#: Titles are a line; a longer "title" field is cut to this on import.
MAX_TITLE_CHARS: Final = 1000


class TooBigError(LibraryError, ValueError):
    """A note, tags or a list name past its cap (one line, naming the cap)."""


def note_problem(note: str) -> str:
    """Why ``note`` cannot be kept ("" when it can)."""
    if len(note) > MAX_NOTE_CHARS:
        return f"the note is {len(note):,} characters long (at most {MAX_NOTE_CHARS:,})"
    return ""


def notes_cut(notes: str) -> tuple[str, str]:
    """A record's notes joined (Zotero's, one per note) as its note: whole, or cut at
    ``MAX_NOTE_CHARS`` with "…"; and what the import's warning says of the cut ("" for none)."""
    if len(notes) <= MAX_NOTE_CHARS:
        return notes, ""
    said = f"its notes are {len(notes):,} characters long: the first {MAX_NOTE_CHARS:,} kept"
    return notes[: MAX_NOTE_CHARS - 1] + "…", f"{said} as its note"


def tags_problem(tags: Sequence[str]) -> str:
    """Why these (normalised) tags cannot be kept ("" when they can)."""
    if len(tags) > MAX_TAGS:
        return f"{len(tags):,} tags are too many (at most {MAX_TAGS:,} a paper)"
    long = next((t for t in tags if len(t) > MAX_TAG_CHARS), None)
    if long is not None:
        return f"a tag of {len(long):,} characters is too long (at most {MAX_TAG_CHARS:,})"
    return ""


def lists_problem(lists: Sequence[str]) -> str:
    """Why a paper cannot be in these lists ("" when it can)."""
    if len(lists) > MAX_LISTS:
        return f"it is in {len(lists):,} lists (at most {MAX_LISTS:,})"
    long = next((n for n in lists if len(n) > MAX_LIST_NAME_CHARS), None)
    if long is not None:
        return f"a list name of {len(long):,} characters (at most {MAX_LIST_NAME_CHARS:,})"
    return ""


def list_named(name: str) -> str:
    """A list's name as an import keeps it: cut at ``MAX_LIST_NAME_CHARS`` with "…" (a
    ``--list`` or a file's header of any length was kept whole, and every other device's
    sync refused the papers in it: ``lists_problem``)."""
    return name if len(name) <= MAX_LIST_NAME_CHARS else name[: MAX_LIST_NAME_CHARS - 1] + "…"


def abstract_size_problem(abstract: str) -> str:
    """Why ``abstract`` is too long to be one ("" when it is not)."""
    if len(abstract) > MAX_ABSTRACT_CHARS:
        return f"the abstract is {len(abstract):,} characters long (at most {MAX_ABSTRACT_CHARS:,})"
    return ""


def check_note(note: str) -> str:
    """``note`` when it is within its cap; ``TooBigError`` otherwise."""
    problem = note_problem(note)
    if problem:
        raise TooBigError(f"{problem}: not saved")
    return note


def check_tags(tags: Sequence[str]) -> Sequence[str]:
    """``tags`` (normalised) when within their caps; ``TooBigError`` otherwise."""
    problem = tags_problem(tags)
    if problem:
        raise TooBigError(f"{problem}: not saved")
    return tags
