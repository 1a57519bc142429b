"""Saved searches: named queries kept in HOME (``searches.json``), in the order first saved.

A file of their own rather than a table of ``triage.json``: a saved search is a way of looking
at the library, not a decision about a paper, so it needs neither the triage file's undo log
and schema migrations nor a part in syncing decisions, and a damaged ``searches.json`` costs
the searches only. It is small and written whole: atomically (``files.atomic_write``, the
previous version kept as ``searches.json.bak``) under the HOME lock, after reading it again,
so that the app and ``papers search --save`` never lose each other's searches.

Names are matched without regard to case or accents (``Diffusion`` is ``diffusion``); saving
a name again replaces its query and keeps its place, so that tabs made from the list stay put.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import orjson

from storage.errors import DamagedFileError, LibraryError, NewerFileError
from storage.files.atomic import atomic_write, backup_path, read_regular
from storage.files.locks import HomeLock, LockPair, held_for
from storage.text.normalize import fold
from storage.text.sanitize import printable

SEARCHES_FILE: Final = "searches.json"
#: The layout of the file; a newer one is read by a newer papers-tui only.
FORMAT: Final = 1
#: The longest name kept (it labels a tab and a palette entry).
MAX_NAME: Final = 60


class SearchNameError(LibraryError):
    """A name or query a saved search cannot have (empty, too long, unprintable), or a name
    that no saved search has."""


@dataclass(frozen=True, slots=True)
class SavedSearch:
    """A named query."""

    name: str
    query: str

    @property
    def key(self) -> str:
        """The name as names are compared: folded (case and accents dropped)."""
        return fold(self.name)


def _clean(text: str, what: str) -> str:
    """``text`` with its runs of white space made one space, or an error saying why not."""
    clean = " ".join(text.split())
    if not clean:
        raise SearchNameError(f"a saved search needs a {what}")
    if not clean.isprintable():
        # (shown as every message shows them: ␛, not Python's \x1b)
        shown = printable(clean)
        raise SearchNameError(f"a search {what} cannot hold control characters: '{shown}'")
    return clean


class SavedSearches:
    """The saved searches of one HOME.

    ``lock`` is the HOME's lock (``Library.lock``), shared so that one process takes it once;
    without one, the lock file of HOME is locked on its own.
    """

    def __init__(self, home: str | Path, lock: HomeLock | LockPair | None = None) -> None:
        self.home = Path(home).expanduser()
        if lock is None:
            from storage.files.locks import LOCK_FILE

            lock = HomeLock(self.home / LOCK_FILE)
        self._lock = lock

    @property
    def path(self) -> Path:
        """The file the searches are kept in."""
        return self.home / SEARCHES_FILE

    def all(self) -> list[SavedSearch]:
        """Every saved search, in the order first saved."""
        try:
            raw = read_regular(self.path)
        except FileNotFoundError:
            return []
        return _parse(raw, self.path)

    def get(self, name: str) -> SavedSearch | None:
        """The saved search of this name (any case), if there is one."""
        key = fold(" ".join(name.split()))
        return next((s for s in self.all() if s.key == key), None)

    def find(self, name: str) -> SavedSearch:
        """The saved search of this name, or an error listing the names there are."""
        found = self.get(name)
        if found is not None:
            return found
        names = ", ".join(s.name for s in self.all()) or "none yet"
        raise SearchNameError(f"no saved search is called {name!r} (saved: {names})")

    def save(self, name: str, query: str) -> SavedSearch:
        """Save ``query`` as ``name``: a new name goes last, a known one keeps its place."""
        search = SavedSearch(_clean(name, "name"), _clean(query, "query"))
        if len(search.name) > MAX_NAME:
            raise SearchNameError(f"a search name has at most {MAX_NAME} characters")
        from storage.search.query import check_query

        check_query(search.query)  # a query past the caps is refused, not saved and cut
        with held_for(self._lock, self.path):
            searches = self.all()
            at = next((i for i, s in enumerate(searches) if s.key == search.key), None)
            if at is None:
                searches.append(search)
            else:
                searches[at] = search
            self._write(searches)
        return search

    def delete(self, name: str) -> bool:
        """Forget the saved search of this name; False when there was none."""
        key = fold(" ".join(name.split()))
        with held_for(self._lock, self.path):
            searches = self.all()
            kept = [s for s in searches if s.key != key]
            if len(kept) == len(searches):
                return False
            self._write(kept)
        return True

    def restore(self, search: SavedSearch, at: int) -> bool:
        """Put a deleted search back at place ``at`` (its tab where it was); False, changing
        nothing, when its name is taken again meanwhile (a search saved since is newer)."""
        with held_for(self._lock, self.path):
            searches = self.all()
            if any(s.key == search.key for s in searches):
                return False
            searches.insert(max(0, min(at, len(searches))), search)
            self._write(searches)
        return True

    def _write(self, searches: list[SavedSearch]) -> None:
        document = {
            "format": FORMAT,
            "searches": [{"name": s.name, "query": s.query} for s in searches],
        }
        atomic_write(self.path, orjson.dumps(document, option=orjson.OPT_INDENT_2) + b"\n")


def _parse(raw: bytes, path: Path) -> list[SavedSearch]:
    """The searches of a ``searches.json``; a file that is not one is an error, left as it is."""

    def damaged(reason: str) -> DamagedFileError:
        return DamagedFileError(path, reason, backup_path(path))

    try:
        document: Any = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        raise damaged(f"not valid JSON: {exc}") from None
    if not isinstance(document, dict) or not isinstance(document.get("searches"), list):
        raise damaged('no "searches" list')
    version = document.get("format", FORMAT)
    if not isinstance(version, int) or version > FORMAT:
        raise NewerFileError(f"{path} was written by a newer papers-tui (format {version})")
    searches: list[SavedSearch] = []
    for entry in document["searches"]:
        if not (
            isinstance(entry, dict)
            and isinstance(entry.get("name"), str)
            and isinstance(entry.get("query"), str)
        ):
            raise damaged("a saved search is not a name and a query")
        searches.append(SavedSearch(entry["name"], entry["query"]))
    return searches
