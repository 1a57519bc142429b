"""The user's notes in a BibTeX entry: every ``annote`` and ``annotation``, read as one note.

Zotero's BibTeX writes an ``annote`` a note (arXiv's ``Comment: …`` first, then the user's);
its BibLaTeX an ``annotation`` a note (``zotero/translators`` ``BibLaTeX.js``); JabRef,
Mendeley and our export one ``annote``; some tools write both fields, with one text or two.
Each text is kept once, in the order written, a blank line between them, and read from its
TeX escapes (``storage.text.source_text.tex_text``); past ``MAX_NOTE_CHARS`` the note is cut
at the cap and the import says so (``storage.caps.notes_cut``), as Zotero's other exports'
notes are. The notes are never refused for their length: a note is no macro bomb, and what a
file holds the import's size cap bounds.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Final, NamedTuple

from storage.caps import MAX_NOTE_CHARS, notes_cut

__all__ = [
    "MAX_NOTES_READ",
    "UsersNote",
    "joined_notes",
    "notes_read_once",
    "read_notes",
    "users_note",
]

#: The most of an entry's notes, as written, read from their TeX: our export writes a
#: character beyond ASCII in up to 57 (``{\\ensuremath{\\langle}\\texttt{U+1D538}…}``), so a
#: note at the cap written so is read whole; past this the rest is not read (reading TeX
#: escapes costs up to a second a megabyte: ``tex_text``), and the warning says so.
MAX_NOTES_READ: Final = 64 * MAX_NOTE_CHARS
#: The characters of a link TeX escapes (``\\_``): unescaped where a link is looked for.
_ESCAPED: Final = "_#%&~$"


def joined_notes(texts: Sequence[str]) -> str:
    """An entry's notes (``annote``, ``annotation``) as one text: each text once (Zotero's
    ``annote`` and BibLaTeX's ``annotation`` of one note are one note), in the order written,
    a blank line between them; "" for none."""
    kept = dict.fromkeys(text.strip() for text in texts)
    return "\n\n".join(text for text in kept if text)


def read_notes(written: str) -> tuple[str, str, str]:
    """The user's note from the notes as written (``joined_notes``), plain text but for its
    TeX escapes, line by line; the text to look for code links in (the notes past the cap
    too); and what the import's warning says of a cut ("" for none)."""
    from storage.text.source_text import tex_text

    read = tex_text(written[:MAX_NOTES_READ].replace("\r\n", "\n")).strip()
    unread = written[MAX_NOTES_READ:]
    if not unread:
        note, said = notes_cut(read)
        return note, read, said
    note = read[: MAX_NOTE_CHARS - 1] + "…"
    said = f"its notes are {len(written):,} characters long as written: the first {len(note):,}"
    said += " kept as its note"
    if "github" in unread.lower():  # (the links past the cut: ``extract_github_links``)
        for char in _ESCAPED:
            unread = unread.replace(f"\\{char}", char)
        return note, f"{read}\n{unread}", said
    return note, read, said


class UsersNote(NamedTuple):
    """An entry's note as the paper keeps it (``read_notes``): its text, the code links its
    notes give (the notes past the cap too), what the warning says of a cut ("" for none)."""

    note: str
    code: tuple[str, ...]
    cut: str


def users_note(written: str, ours: bool) -> UsersNote:
    """The user's note from the notes as written, with the GitHub links in them (Zotero's:
    arXiv's "Comment: … Code at https://github.com/…", as its RIS's ``N1``; not in our own
    export, which says its links apart)."""
    from storage.sources.links import extract_github_links

    note, notes, said = read_notes(written)
    code = extract_github_links(notes) if not ours and "github" in notes.lower() else ()
    return UsersNote(note, code, said)


def notes_read_once() -> Callable[[str, bool], UsersNote]:
    """``users_note`` that reads each text once for one file's entries: a ``crossref``
    parent lends its note to each of its children, and a note of megabytes was read again
    for each (200 children of a 3 MB note: 56 s); the last few texts read are kept."""
    return functools.lru_cache(maxsize=8)(users_note)
