"""The poll's look at HOME's files, off the screen's thread.

Each second the main screen asks whether another process changed HOME's files: a saved
search (``searches.json``: ``papers search --save``, another window), the papers
(``papers.json``: ``papers import``) or the decisions (``triage.json``: ``papers mark``, a
sync). Each is a stat, and ``searches.json`` is read when it changed; made on the screen's
thread, a stat on a share that hangs (HOME on NFS, SMB, a sync client's folder whose server
went away) waits until it answers, and no key was read meanwhile. ``HomeFiles.look`` makes
them in a thread worker (``MainScreen._look_at_disk``), one look at a time (a share that hangs
holds one thread, not one more each second); what it saw is taken on the screen's thread
(``MainScreen._home_looked``), decided there as the poll decided it, and let go when the
screen's state moved on meanwhile (``HomeSeen``: a newer read of the saved searches, other
papers shown, a decision made): the next poll looks again, against the newer state.

So is the place the cursor rested on written (``ui.json``, by the poll once the cursor has
rested: ``MainScreen.keep_resting_place``) in a thread worker, one write at a time; the
app's other writes of ``ui.json`` (the split, the theme, the place as the app ends) are made
where they are asked, and every write goes through ``UiWrites``, which lets an older state
never land over a newer one.
"""

from __future__ import annotations

import itertools
import threading
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from storage.errors import LibraryError
from storage.files.atomic import FileSignature, signature
from storage.files.saved_searches import SavedSearch, SavedSearches
from storage.files.ui_state import UiState, save_ui_state

if TYPE_CHECKING:
    from storage.library import Library


class HomeSeen(NamedTuple):
    """What the screen knew when a look began (taken on the screen's thread)."""

    #: The version of ``searches.json`` last read (its tabs).
    saved: FileSignature | None
    #: The version of ``papers.json`` the papers shown are.
    papers: FileSignature | None
    #: The session's ``version`` (a decision made, or an outcome taken, moves it on).
    triage: int
    #: Whether ``papers.json`` was looked at (not while the app changes it itself) and
    #: ``triage.json`` (not while decisions are on their way to it).
    papers_wanted: bool
    triage_wanted: bool


class HomeLook(NamedTuple):
    """What a look found (``HomeFiles.look``)."""

    seen: HomeSeen
    #: The version of ``searches.json`` found, and the searches read when it was not the
    #: one seen (None: not read, or the read failed: ``saved_error``).
    saved_version: FileSignature | None
    saved: list[SavedSearch] | None
    saved_error: LibraryError | OSError | None
    #: ``papers.json`` is no longer the version shown; ``triage.json`` changed elsewhere.
    papers: bool
    triage: bool
    #: Why they could not be looked at.
    error: LibraryError | OSError | None


class HomeFiles:
    """HOME's files as the poll looks at them; ``looking`` is the screen thread's."""

    def __init__(self, library: Library) -> None:
        self.library = library
        #: Set while a look runs (one at a time).
        self.looking = False

    @property
    def saved_searches(self) -> SavedSearches:
        return SavedSearches(self.library.home, self.library.lock)

    def look(self, seen: HomeSeen) -> HomeLook:
        """Stat HOME's files (off the screen's thread), and read ``searches.json`` when it
        is not the version ``seen``."""
        searches = self.saved_searches
        saved: list[SavedSearch] | None = None
        saved_error: LibraryError | OSError | None = None
        try:
            saved_version = signature(searches.path)
        except OSError as exc:
            saved_version, saved_error = seen.saved, exc
        if saved_error is None and saved_version != seen.saved:
            try:
                saved = searches.all()
            except (LibraryError, OSError) as exc:
                saved_error = exc
        papers = triage = False
        error: LibraryError | OSError | None = None
        try:
            papers = seen.papers_wanted and self.library.papers_changed_since(seen.papers)
            if not papers and seen.triage_wanted:
                triage = self.library.triage_changed_on_disk()
        except (LibraryError, OSError) as exc:
            error = exc
        return HomeLook(seen, saved_version, saved, saved_error, papers, triage, error)


class UiWrites:
    """``ui.json``'s writes, each numbered when asked for (``ask``, on the screen's thread)
    and written on any thread (``write``), one at a time: a write asked for before the last
    one written is let go (the place a worker was writing, held by a share that hangs, then
    written over the split changed since, or the place the app ended on)."""

    def __init__(self, home: Path) -> None:
        self.home = home
        self._asked = itertools.count(1)
        self._lock = threading.Lock()
        self._written = 0
        #: Set while a write runs in a worker (the screen thread's: one at a time).
        self.writing = False

    def ask(self) -> int:
        """The number of a write asked for now (on the screen's thread)."""
        return next(self._asked)

    def write(self, order: int, state: UiState) -> None:
        """Write ``state``, asked for as ``order``, unless a later one was written."""
        with self._lock:
            if order < self._written:
                return
            save_ui_state(self.home, state)
            self._written = order

    def save(self, state: UiState) -> None:
        """Ask for a write of ``state`` and write it now, on this thread."""
        self.write(self.ask(), state)
