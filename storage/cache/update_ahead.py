"""The search index's update made by a child process, beside the rest of what a change derives.

An import into a large library brings ``search.index`` along (``search_index.update_index``:
the new papers indexed as a segment) and folds its papers into the similarity matrix
(``similar_index.save_added``), one after the other, in the one process: at 100,000 papers
they are half a second and a third of one, on a machine with a second core idle. So, once
``papers.json`` and ``papers.cache`` are written, the update is made by a child process while
this one folds the papers in.

The child is started as the import starts (``IndexUpdateAhead.start``), so that its
interpreter and modules are loaded while the import reads and cleans its files; it then waits
for one message on its standard input: the versions of ``papers.json`` before and after the
change and the papers it changed. It reads the papers from the new ``papers.cache`` (the same
papers this process would give ``update_index``, checked against the version), runs the same
function, and exits 0 when it saved the update. Anything else (no message: the import changed
nothing, failed or was a dry run; a child that cannot start, stops or stalls) and this process
does the update itself, as before; a killed child leaves at most a temporary file, which
``storage.cache.derived`` sweeps.
"""

from __future__ import annotations

import contextlib
import marshal
import os
import subprocess
import sys
import time
from collections.abc import Collection
from pathlib import Path
from typing import TYPE_CHECKING, Final

from storage.files.atomic import FileContent, FileSignature
from storage.models import Paper

if TYPE_CHECKING:
    from storage.cache.loaded_papers import LoadedPapers

#: From this size of ``papers.json`` (some 18,000 papers of conference abstracts) an import
#: starts the child: below it the update is too quick to be worth a second interpreter.
AHEAD_FROM_BYTES: Final = 32 * 1024**2
#: A child that has not answered this long after its message is taken for stuck.
STALLED_S: Final = 60.0
#: Longer than this, the message is not one (the ids of a million papers are 15 MB).
_MAX_MESSAGE: Final = 256 * 1024**2


class IndexUpdateAhead:
    """A child process waiting to update a library's search index (see the module)."""

    def __init__(self, child: subprocess.Popen[bytes]) -> None:
        self._child = child
        self._sent = False

    @classmethod
    def start(cls, home: Path) -> IndexUpdateAhead | None:
        """The child for ``home``, started; None when there is no index to update or the
        library is small, or the child cannot be started."""
        from storage.files.papers_file import PAPERS_FILE

        try:
            if (home / PAPERS_FILE).stat().st_size < AHEAD_FROM_BYTES:
                return None
        except OSError:
            return None
        from storage.cache import children
        from storage.cache.search_index import INDEX_FILE  # numpy: a large library's import

        if not (home / INDEX_FILE).exists():
            return None

        child = children.start(__name__, [str(home)], stdin=subprocess.PIPE)
        return None if child is None else cls(child)

    def send(self, before: FileContent, version: FileContent, changed: Collection[str]) -> bool:
        """Ask for the update of the index of ``before`` to ``version``, ``changed`` the
        papers the change added or changed; False when the child is gone."""
        if self._sent or self._child.stdin is None:
            return False
        message = marshal.dumps((tuple(before), tuple(version), sorted(changed)))
        try:
            self._child.stdin.write(len(message).to_bytes(8, "big") + message)
            self._child.stdin.flush()
        except (OSError, ValueError):
            return False
        self._sent = True
        return True

    def done(self) -> bool:
        """Wait for the child; True when it saved the update."""
        if not self._sent:
            return False
        deadline = time.monotonic() + STALLED_S
        from storage.cache import children

        ok = children.wait_for(self._child, lambda: time.monotonic() > deadline)
        self.close()
        return ok

    def close(self) -> None:
        """End the child, whatever it was doing (nothing is left half made: see the module)."""
        if self._child.stdin is not None:
            with contextlib.suppress(OSError):
                self._child.stdin.close()
        if self._child.poll() is None:
            self._child.kill()
            self._child.wait()


def _read_message() -> tuple[FileContent, FileContent, set[str]] | None:
    head = _read_exactly(8)
    if head is None or int.from_bytes(head, "big") > _MAX_MESSAGE:
        return None
    body = _read_exactly(int.from_bytes(head, "big"))
    if body is None:
        return None
    try:
        before, version, changed = marshal.loads(body)
        return FileContent(*before), FileContent(*version), set(changed)
    except (ValueError, EOFError, TypeError):
        return None


def _read_exactly(size: int) -> bytes | None:
    data = b""
    while len(data) < size:
        piece = os.read(0, size - len(data))
        if not piece:
            return None  # the parent sent nothing: it ended, or has no update to ask for
        data += piece
    return data


def _update(argv: list[str]) -> int:
    """``python -m storage.cache.update_ahead HOME``: what ``IndexUpdateAhead`` runs. Exit 0
    when the update it was asked for was saved."""
    from storage.cache.children import end_with_parent, without_collector
    from storage.cache.search_index import update_index  # numpy and the index: loaded now

    without_collector()
    message = _read_message()
    if message is None:
        return 1
    end_with_parent()  # the rest of the pipe: its end is the parent's
    before, version, changed = message
    home = Path(argv[0])
    loaded = _cached(home, version)
    if loaded is None:
        return 1  # papers.json changed since, or its cache is not there: the parent does it
    try:
        return 0 if update_index(home, before, version, loaded.sequence(), changed) else 1
    except _NotHere:
        return 1


class _NotHere(Exception):
    """A chunk of the cache was damaged: the parent reads the papers.json it has in hand."""


def _cached(home: Path, version: FileContent) -> LoadedPapers | None:
    """The papers of ``papers.cache`` if it was made from the papers.json of content
    ``version``; never a parse of papers.json (its time and memory are the parent's job)."""
    from storage.cache.loaded_papers import LoadedPapers
    from storage.cache.papers_cache import PAPERS_CACHE_FILE, PapersCacheReader
    from storage.files.atomic import signature
    from storage.files.papers_file import FIELDS, PAPERS_FILE, SCHEMA

    reader = PapersCacheReader.open(home / PAPERS_CACHE_FILE, version, SCHEMA, FIELDS)
    sig = signature(home / PAPERS_FILE)
    if reader is None or sig is None:
        return None

    def no_parse() -> tuple[list[Paper], FileSignature | None]:
        raise _NotHere

    return LoadedPapers(sig, version, reader.lists, no_parse, reader=reader)


if __name__ == "__main__":
    sys.exit(_update(sys.argv[1:]))
