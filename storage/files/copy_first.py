"""A change of ``triage.json`` whose caller first keeps a copy of what it replaces, unlocked.

``papers note ID TEXT`` and ``papers tag ID TAG…`` print the note or tags they replace, their
only copy (no undo brings them back), before the change is written: a copy that cannot be
printed leaves them as they were. Printed under the lock, the copy held the lock as long as
standard output would not take it: ``papers note ID new | sleep 60``, whose reader takes
nothing, made every other writer (``papers mark``, the app) wait the lock's 15 s, then fail.

So the copy is made of the value as read without the lock, and the lock is taken once it is
out: the change is written only when the value is still the one copied. When another writer
changed it in between, nothing is written and the round starts again with the value it left
(its copy made too), a few times; then ``ChangedWhileCopied``, nothing written. No note is
lost either way: whatever the change replaces has been copied first.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, TypeVar

from storage.errors import LibraryError
from storage.files.triage_file import TriageChange, TriageFile

T = TypeVar("T")

#: Rounds of copy-then-lock before giving up (each one lost to another writer's change).
TRIES: Final = 3


class ChangedWhileCopied(LibraryError):
    """Another writer changed the value each time its copy was made: nothing was written."""


class _Changed(Exception):
    """The value under the lock is not the one copied: the change is left unwritten."""


def change_after_copy(
    triage: TriageFile,
    change: Callable[[TriageChange], T],
    copy: Callable[[T], object],
    what: str,
) -> T:
    """Make ``change`` (which returns the value it replaces) once ``copy`` has been given that
    value, outside the lock; returns it. What ``copy`` raises leaves the file as it was.
    ``what`` names the value in ``ChangedWhileCopied``'s line ("the note of 1a2b3c4d5e6f")."""
    with triage.dry_change() as scratch:  # read as it is now, nothing written, no lock
        seen = change(scratch)
    for _ in range(TRIES):
        copy(seen)  # (may wait on a reader that takes nothing: the lock is not held)
        try:
            with triage.change() as locked:
                found = change(locked)
                if found != seen:
                    raise _Changed  # the block raises: nothing is written
            return found
        except _Changed:
            seen = found
    raise ChangedWhileCopied(
        f"{what}: changed by another writer at each of {TRIES} tries while what it replaces "
        f"was printed; left as the other writer made it"
    )
