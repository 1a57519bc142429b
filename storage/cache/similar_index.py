"""The similarity index on disk (``similar.index`` beside ``papers.json``), memory-mapped.

Building the tf-idf matrix of 100,000 papers takes ~9 s and 1.4 GB at its peak; loading it
takes a fraction of a second and no more memory than the pages a query reads. The file
(``storage.cache.array_file``) holds the matrix's arrays (rows and postings), then a checksum of
the paper ids, and the terms. Like the search index it is derived data, used only when its
key names the exact content of ``papers.json`` (``storage.cache.content_key``), the paper
fields, the code that builds the matrix and reads the papers, the Python and numpy reading
it, when its size and checksums hold, and when its ids are those of the papers given, in
order; anything else and it is built again.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable, Collection, Sequence
from pathlib import Path
from typing import Final

import numpy as np

from storage.cache.array_file import (
    ArrayFile,
    holds_key,
    papers_key,
    read_array_file,
    remove_array_file,
    write_array_file,
)
from storage.cache.loaded_papers import PaperSequence, ids_checksum, ids_of
from storage.files.atomic import FileContent
from storage.models import Paper
from storage.similar.index import SimilarityIndex
from storage.similar.matrix import Matrix, fold_in
from storage.similar.stacked import Stacked

SIMILAR_FILE: Final = "similar.index"
#: Bumped by hand whenever what the matrix of given papers holds changes: the layout of this
#: file, or the code that decides it (``storage.similar``'s ``matrix`` and ``terms``, the
#: ``Paper`` fields). A file of another format is ignored and made again.
FORMAT: Final = 7
_KIND: Final = "similarity index"
_ARRAYS: Final = ("indptr", "indices", "data", "post_ptr", "post_docs", "post_data")


def save_similarity(path: Path, version: FileContent, index: SimilarityIndex) -> bool:
    """Write the matrix of ``index`` (of the papers.json of content ``version``), best effort."""
    matrix = index.matrix
    if not isinstance(matrix, Matrix):  # rows added to one made before: not saved as such
        return False
    arrays = {name: getattr(matrix, name) for name in _ARRAYS}
    # its ids: the rows of papers added since are placed by them (``save_added``)
    values = (ids_checksum(matrix.ids), list(matrix.terms), list(matrix.ids))
    return write_array_file(path, _KIND, FORMAT, papers_key(version), arrays, values)


def has_similarity(path: Path, version: FileContent) -> bool:
    """Whether ``path`` holds a similarity index of the papers.json of content ``version``
    (its header says so: the rest is checked when it is loaded)."""
    return holds_key(path, _KIND, FORMAT, papers_key(version))


def load_similarity(
    path: Path, version: FileContent, papers: Sequence[Paper]
) -> SimilarityIndex | None:
    """The similarity index saved at ``path`` if it is that of ``papers`` (the papers.json of
    content ``version``, in list order), else None."""
    return read_array_file(
        path,
        _KIND,
        FORMAT,
        papers_key(version),
        lambda found: _index(found, papers),
    )


def _index(found: ArrayFile, papers: Sequence[Paper]) -> SimilarityIndex | None:
    ids = ids_of(papers)
    if found.values[0] != ids_checksum(ids):
        return None  # not the index of these papers
    matrix = _matrix(found, ids)
    return None if matrix is None else SimilarityIndex.from_matrix(matrix, papers)


def _matrix(
    found: ArrayFile, ids: Sequence[str] | None = None, terms: tuple[str, ...] = ()
) -> Matrix | None:
    """The matrix a file holds, its rows the papers ``ids`` (those it was made from when not
    given), or None when they are not as many. ``terms``: the matrix's, when they are
    another file's (``similar.added``'s are those of its ``similar.index``)."""
    arrays = {name: found.arrays[name] for name in _ARRAYS}
    if not terms:
        _known, listed, made_from = found.values
        terms = tuple(listed)
        ids = made_from if ids is None else ids
    if ids is None or len(arrays["indptr"]) != len(ids) + 1:
        return None
    return Matrix(
        ids=tuple(ids),
        rows=dict(zip(ids, range(len(ids)), strict=True)),
        terms=terms,
        **arrays,
    )


# -- the papers a change added, until the matrix is made again ----------------------------------

#: The rows of the papers a change (an import, a sync) added to or changed in a large library,
#: in the terms of the ``similar.index`` made before it, placed by paper id (a removal needs
#: none: ``storage.similar.stacked``): read with it, they answer ``papers similar`` and the
#: app at once, while ``similar.index`` is made again apart (``build_in_background``), which
#: takes seconds at 100,000 papers.
ADDED_FILE: Final = "similar.added"
_ADDED_KIND: Final = "similarity of added papers"
#: Rows folded in, and rows of papers taken out, at most (and a tenth of the library): more,
#: and the matrix made before is too unlike the library's; ``papers similar`` then waits for
#: it to be made again.
FOLD_AT_MOST: Final = 20_000
FOLD_SHARE: Final = 0.1


def save_added(
    home: Path,
    before: FileContent,
    version: FileContent,
    papers: Sequence[Paper],
    changed: Collection[str],
) -> bool:
    """Write ``similar.added`` of ``papers`` (the papers.json of content ``version``, made
    from that of content ``before`` by a change of the papers ``changed``), best effort:
    False when no ``similar.index`` of ``before`` (or of what ``before``'s own added rows go
    with) is there, or when the papers it does not hold, and those changed since, are too
    many. Papers taken out, or moved, need nothing: its rows are placed by paper id."""
    earlier = read_array_file(
        home / ADDED_FILE,
        _ADDED_KIND,
        FORMAT,
        papers_key(before),
        lambda found: (found.values[0], tuple(found.values[3])),
    )
    base_key, folded = earlier if earlier is not None else (papers_key(before), ())
    found = read_array_file(home / SIMILAR_FILE, _KIND, FORMAT, base_key, lambda f: f)
    if found is None and earlier is not None:  # made again since: that of ``before`` itself
        base_key, folded = papers_key(before), ()
        found = read_array_file(home / SIMILAR_FILE, _KIND, FORMAT, base_key, lambda f: f)
    if found is None:
        return False
    base = _matrix(found)
    if base is None:
        return False
    ids = ids_of(papers)
    where = {paper_id: row for row, paper_id in enumerate(ids)}
    base_places = np.fromiter((where.get(i, -1) for i in base.ids), np.int64, base.size)
    in_base = np.full(len(ids), -1, dtype=np.int64)  # each paper's row in the base
    live = np.flatnonzero(base_places >= 0)
    in_base[base_places[live]] = live
    stale = [row for i in (*changed, *folded) if (row := where.get(i)) is not None]
    places = np.union1d(np.flatnonzero(in_base < 0), np.array(stale, dtype=np.int64))
    taken_out = base.size - len(live)
    if len(places) + taken_out > min(FOLD_AT_MOST, max(1, int(FOLD_SHARE * len(ids)))):
        return False  # too unlike the library now: made again
    base_places[in_base[places][in_base[places] >= 0]] = -1  # changed: their new rows count
    rows = places.tolist()
    added_papers = (
        papers.items(rows) if isinstance(papers, PaperSequence) else [papers[i] for i in rows]
    )
    folded_ids = [ids[i] for i in rows]
    added = fold_in(added_papers, folded_ids, base)
    arrays = {name: getattr(added, name) for name in _ARRAYS}
    arrays["places"], arrays["base_places"] = places, base_places
    values = (base_key, found.checksum, ids_checksum(ids), folded_ids)
    return write_array_file(
        home / ADDED_FILE, _ADDED_KIND, FORMAT, papers_key(version), arrays, values
    )


def has_added(home: Path, version: FileContent) -> bool:
    """Whether ``similar.added`` of the papers.json of content ``version`` is there (its
    header says so: the rest, and its ``similar.index``, are checked when it is loaded)."""
    return holds_key(home / ADDED_FILE, _ADDED_KIND, FORMAT, papers_key(version))


def load_added(home: Path, version: FileContent, papers: Sequence[Paper]) -> SimilarityIndex | None:
    """The similarity of ``papers`` (the papers.json of content ``version``, in list order)
    as ``similar.added`` and the ``similar.index`` it goes with give it, if both are there and
    of these papers; else None."""

    def stacked(found: ArrayFile) -> SimilarityIndex | None:
        base_key, base_checksum, known, _folded = found.values
        ids = ids_of(papers)
        if ids_checksum(ids) != known:
            return None
        made = read_array_file(home / SIMILAR_FILE, _KIND, FORMAT, base_key, lambda b: b)
        if made is None or made.checksum != base_checksum:
            return None  # made again since (or another): its own key tells
        base = _matrix(made)
        places = np.asarray(found.arrays["places"], dtype=np.int64)
        if base is None or len(places) and not 0 <= places.min() <= places.max() < len(ids):
            return None
        added = _matrix(found, [ids[i] for i in places.tolist()], base.terms)
        if added is None:
            return None
        try:
            matrix = Stacked(base, added, places, found.arrays["base_places"], tuple(ids))
        except ValueError:
            return None  # not rows of these papers
        return SimilarityIndex.from_matrix(matrix, papers)

    return read_array_file(home / ADDED_FILE, _ADDED_KIND, FORMAT, papers_key(version), stacked)


def load_ready(home: Path, version: FileContent, papers: Sequence[Paper]) -> SimilarityIndex | None:
    """The similarity of ``papers`` (the papers.json of content ``version``) read from
    ``home``: ``similar.index`` of them, else that of the papers before a change with the
    rows it added (``similar.added``); None when neither is there."""
    found = load_similarity(home / SIMILAR_FILE, version, papers)
    return found if found is not None else load_added(home, version, papers)


def is_ready(home: Path, version: FileContent) -> bool:
    """Whether ``load_ready`` will find the similarity of the papers.json of content
    ``version`` (the files' headers say so)."""
    return has_similarity(home / SIMILAR_FILE, version) or has_added(home, version)


def similarity_for(
    home: Path, papers: Sequence[Paper], version: FileContent | None
) -> SimilarityIndex:
    """The similarity index of ``papers`` (the papers.json of content ``version``, in list
    order): loaded from ``home``; else, while a background build of it runs
    (``build_in_background``), loaded once that build ends; else built and saved there for
    next time."""
    path = home / SIMILAR_FILE
    if version is not None:
        found = load_ready(home, version, papers)
        if found is not None:
            return found
        with _BuildLock(home) as lock:  # a build under way is waited for, not made twice
            if lock.waited:
                found = load_similarity(path, version, papers)
                if found is not None:
                    return found
            made = build_similarity(papers)
            save_similarity(path, version, made)
            return made
    return build_similarity(papers)


def build_similarity(papers: Sequence[Paper]) -> SimilarityIndex:
    """The similarity index of a library's papers (in list order), built: a
    ``PaperSequence``'s papers read a chunk at a time and not kept."""
    if isinstance(papers, PaperSequence):
        return SimilarityIndex.lazily(papers, papers.ids())
    return SimilarityIndex(papers)


#: Held by whoever builds ``similar.index`` (``flock``): a reader that finds it held waits.
BUILD_LOCK: Final = ".similar.lock"


class _BuildLock:
    """The lock of a build of ``similar.index`` in ``home``: taken at once if free, else
    waited for (``waited``: another process was building it meanwhile)."""

    def __init__(self, home: Path) -> None:
        self._path = home / BUILD_LOCK
        self._fd: int | None = None
        self.waited = False

    def __enter__(self) -> _BuildLock:
        try:
            import fcntl
        except ImportError:  # pragma: no cover - Windows: no waiting, at worst built twice
            return self
        try:
            self._fd = os.open(self._path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError:
            return self  # a folder that cannot be written: nothing to wait for, no file saved
        try:
            fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            self.waited = True
            fcntl.flock(self._fd, fcntl.LOCK_EX)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing lets go of the lock
            self._fd = None


def build_elsewhere(
    home: Path, version: FileContent, cancelled: Callable[[], bool] = lambda: False
) -> bool:
    """Build and save ``similar.index`` of the library in ``home`` (the papers.json of content
    ``version``) in a child process, and wait for it (or for a background build under way);
    True when it is there (``load_similarity`` then reads it). The build's memory (0.5 GB
    and more at 100,000 papers) is the child's, given back when it ends, not the app's.
    ``cancelled`` is asked every tenth of a second: True stops the child."""
    from storage.cache import children

    child = children.start("storage.cache.similar_index", [str(home), *map(str, version)])
    return child is not None and children.wait_for(child, cancelled)


def build_in_background(home: Path, version: FileContent) -> None:
    """Start building ``similar.index`` of the library in ``home`` (the papers.json of content
    ``version``) in a process of its own that outlives the caller, at a low priority: the
    command that asked returns at once, and ``similarity_for`` waits for it if asked before
    it ends. Best effort: a build that cannot start is made by the first reader."""
    from storage.cache import children

    # not ended with the terminal the command ran in; best effort (None: not started)
    children.start("storage.cache.similar_index", [str(home), *map(str, version)], own_session=True)


def _build_and_save(argv: Sequence[str]) -> int:
    """``python -m storage.cache.similar_index HOME SIZE SHA256``: what ``build_in_background``
    runs. Exit 0 when ``similar.index`` of HOME's papers.json of that content is there."""
    from storage.cache.children import without_collector
    from storage.library import Library

    without_collector()
    home, size, sha256 = argv
    version = FileContent(int(size), sha256)
    with contextlib.suppress(OSError, AttributeError):
        os.nice(10)  # behind whatever the user does meanwhile
    with _BuildLock(Path(home)):
        loaded = Library(home).loaded_papers()
        if loaded.content != version:
            return 1  # papers.json changed since: its own change asks for its index
        path = Path(home) / SIMILAR_FILE
        if load_similarity(path, version, loaded.sequence()) is not None:
            return 0
        made = build_similarity(loaded.sequence())
        if not save_similarity(path, version, made):
            return 1
        if has_added(Path(home), version):  # its rows are in the matrix now
            remove_array_file(Path(home) / ADDED_FILE)
        return 0


if __name__ == "__main__":
    sys.exit(_build_and_save(sys.argv[1:]))
