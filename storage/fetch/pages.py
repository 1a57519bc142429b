"""Fetched pages kept in HOME (``HOME/fetched/``), so that an interrupted or repeated fetch
does not download again what it has.

One file a page, named by a hash of the URL it answered (query included), written through a
temporary file and a rename: a fetch killed half way leaves whole pages or none. A page is
believed for ``max_age`` seconds (a day: a fetch repeated the same day reads the cache, one the
next week sees the new decisions and ratings); ``papers fetch --refresh`` ignores it. The day
spares the services (OpenReview's rate limits, arXiv's one request every 3 s) the bulky pages
that do not change: a decided venue's papers and reviews, a Paper Copilot list, an arXiv
query's pages. The pages of a venue still deciding (OpenReview's submissions under review,
their reviews and decisions) change within the day, and are believed for ``LIVE_AGE`` (an
hour: a fetch that afternoon sees the decisions out since the morning); the fetch tells the
user when the oldest page it read from the cache was kept (``oldest``). A page
that holds nothing yet is never kept (``Web.get_parsed``'s ``keep``): an empty list of accepted
papers may be full that afternoon. The folder is a cache: deleting it only means downloading
again. Nothing in it is ever the library's data.

A fetch stopped while it wrote a page (Ctrl+C, a kill) leaves its temporary file
(``.part-*.page``); the next fetch removes those older than ``LEFTOVER_AGE``
(``remove_leftovers``). No fetch takes a lock of HOME, so the age is what tells a leftover from
a page another fetch is writing now (``papers fetch`` in another shell, the app's import
dialog): a page is written in one go, in seconds at most. Were such a writer paused longer
than that (Ctrl+Z), its rename fails and the page is just not kept: nothing worse.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import stat
import tempfile
import time
from pathlib import Path

from storage.files.atomic import open_regular

#: The folder in HOME.
FETCHED_FOLDER = "fetched"
#: How long a kept page is believed.
MAX_AGE = 24 * 3600.0
#: How long a kept page is believed when it holds what changes within the day (see the module).
LIVE_AGE = 3600.0
#: How old a temporary page must be to be taken for a leftover of a fetch that was stopped.
LEFTOVER_AGE = 10 * 60.0
_SUFFIX = ".page"
_PART = ".part-"


class PageCache:
    """Pages by URL in one folder; every failure to keep one is silent (it is a cache)."""

    def __init__(self, folder: Path, max_age: float = MAX_AGE, max_bytes: int | None = None):
        self.folder = folder
        self.max_age = max_age
        self.max_bytes = max_bytes
        #: Pages read from the cache, pages written to it.
        self.hits = 0
        self.kept = 0
        #: When the oldest page read from the cache was kept (a time stamp), None for none.
        self.oldest: float | None = None
        self._kept_at: list[float] = []

    def _path(self, url: str) -> Path:
        return self.folder / (hashlib.sha256(url.encode("utf-8")).hexdigest()[:40] + _SUFFIX)

    def get(self, url: str, max_age: float | None = None) -> bytes | None:
        """The page kept for ``url``, or None (never kept, older than ``max_age``, by default
        the cache's, unreadable, too large)."""
        path = self._path(url)
        try:
            with open_regular(path) as handle:
                info = os.fstat(handle.fileno())
                if time.time() - info.st_mtime > (self.max_age if max_age is None else max_age):
                    return None
                if self.max_bytes is not None and info.st_size > self.max_bytes:
                    return None
                body = handle.read()
        except OSError:
            return None
        self.hits += 1
        self._kept_at.append(info.st_mtime)
        self.oldest = info.st_mtime if self.oldest is None else min(self.oldest, info.st_mtime)
        return body

    def holds(self, url: str) -> bool:
        """Whether a page of ``url`` is kept and not older than the cache's ``max_age``
        (without reading it: not counted as read)."""
        try:
            return time.time() - self._path(url).stat().st_mtime <= self.max_age
        except OSError:
            return False

    def put(self, url: str, body: bytes) -> None:
        """Keep ``body`` as the page of ``url`` (a temporary file, then a rename)."""
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            fd, name = tempfile.mkstemp(prefix=_PART, suffix=_SUFFIX, dir=self.folder)
        except OSError:
            return
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(body)
            os.replace(name, self._path(url))
            self.kept += 1
        except OSError:
            with contextlib.suppress(OSError):
                os.unlink(name)

    def remove_leftovers(self) -> int:
        """Remove the temporary pages of fetches stopped while they wrote them, those older than
        ``LEFTOVER_AGE`` (see the module); how many were removed. Silent, as the cache is."""
        try:
            entries = list(os.scandir(self.folder))
        except OSError:
            return 0
        now = time.time()
        removed = 0
        for entry in entries:
            if not (entry.name.startswith(_PART) and entry.name.endswith(_SUFFIX)):
                continue
            try:
                info = entry.stat(follow_symlinks=False)
                if stat.S_ISREG(info.st_mode) and now - info.st_mtime > LEFTOVER_AGE:
                    os.unlink(entry.path)
                    removed += 1
            except OSError:
                continue
        return removed

    def refuse(self, url: str) -> None:
        """Forget the page just read for ``url``, which was not believed after all (it did not
        parse, or it holds nothing yet): deleted, and not counted as read from the cache."""
        self.hits -= 1
        if self._kept_at:
            self._kept_at.pop()
            self.oldest = min(self._kept_at, default=None)
        with contextlib.suppress(OSError):
            self._path(url).unlink()


def cache_in(home: Path, max_bytes: int | None = None) -> PageCache:
    """The page cache of the library in ``home``."""
    return PageCache(home / FETCHED_FOLDER, max_bytes=max_bytes)
