"""The search index on disk (``search.index`` beside ``papers.json``), memory-mapped when loaded.

Building the index of 100,000 papers takes ~10 s; loading it takes a fraction of a second, so
that every ``papers search`` and every start of the app reuse it. An import (or a removal)
brings it to the new ``papers.json`` as it ends (``update_index``: the papers it changed are
indexed as a new segment, the papers gone are dropped) rather than building it again. The file
(``storage.cache.array_file``) holds the index's numpy arrays, read straight from a read-only
memory map (only the pages a search touches are read), and the Python parts (words, a
checksum of the paper ids, venues, lists, method names, look-up tables).

It is derived data (``storage.cache.derived``) and never trusted: it is used only when its key
names the exact content of ``papers.json`` (``storage.cache.content_key``), the paper fields,
its ``FORMAT``, the Python and numpy reading it, and when its size and the
checksums of its header and body hold and its paper ids are those of the papers given.
Anything else and it is ignored (the caller builds the index again and saves it anew).

An update is saved apart (``search.update``, ``UPDATE_FILE``): every array and value of the
updated index but the segments ``search.index`` holds already, and which ``search.index`` it
goes with (its key, the checksum of its body, its segments). So an import of 1,000 papers into
a library of 100,000 writes some 12 MB, not the 156 MB of the whole index again; the index is
then both files, read together. A full save (a build) writes ``search.index`` and removes
the update; so does an update whose own segments would outweigh those of ``search.index``.

Each slot of the index is a paper: as built, slot ``i`` is the ``i``-th paper of the list;
once grown, the file says which place in the list each live slot's paper has (``rows``). The
loader is given the papers in list order, which may be read lazily
(``storage.cache.loaded_papers.PaperSequence``), so that a search reads only its hits. The file
also keeps each slot's paper id (``slot_ids``), so that the next import can tell its slots
apart without the papers of the version it was made from.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable, Collection, Iterator, Mapping, MutableSequence, Sequence
from pathlib import Path
from typing import Any, Final, TypeVar, overload

import numpy as np

from storage.cache.array_file import (
    Array,
    ArrayFile,
    holds_key,
    load_or_build,
    papers_key,
    read_array_file,
    remove_array_file,
    write_array_file,
)
from storage.cache.loaded_papers import PaperSequence, ids_checksum, ids_of
from storage.files.atomic import FileContent
from storage.models import Paper
from storage.search.build import forget_slots
from storage.search.index import SearchIndex
from storage.search.postings import Postings, Segment
from storage.search.table import PaperTable
from storage.search.vocabulary import Vocabulary

INDEX_FILE: Final = "search.index"
#: Bumped by hand whenever what an index of given papers holds changes: the layout of this
#: file, or the code that decides it (``storage.search``'s ``build``, ``postings``, ``table``,
#: ``text``, ``vocabulary``; ``storage.text``'s ``latex``, ``line_breaks``, ``normalize``,
#: ``symbols``; the ``Paper`` fields). An index of another format is ignored and built again.
# 11: each segment's papers' field lengths, for the average lengths of the live papers
#     (a dead slot's left out, as from the name-only counts), in place of their total
# 10: a word a line's end broke at its hyphen read whole whatever spaces, tabs or CR lie
#     between (``-\t⏎``, ``- \r⏎``, ``‐\r⏎`` were not): one rule with the pane's
# 9: the document frequencies count the live papers only (a dead slot's words left out)
# 8: a word a line's end broke at its hyphen read whole (``at-⏎tention``, ``search/text.py``);
# 7: each paper's signature of its neighbour words (``search/pairs.py``)
FORMAT: Final = 11
_KIND: Final = "search index"
#: The index as the last update left it, beside ``search.index`` (see the module).
UPDATE_FILE: Final = "search.update"
_UPDATE_KIND: Final = "search index update"
_SEGMENT_ARRAYS: Final = ("offsets", "docs", "scores", "masks", "pairs", "lengths")
#: A paper no slot of a saved index shows any more (a dead slot's: never read).
_GONE: Final = Paper("", "", "")


def save_index(
    path: Path, version: FileContent, index: SearchIndex, ids: Sequence[str] | None = None
) -> bool:
    """Write ``index`` (of the papers.json of content ``version``) to ``path``, best effort;
    False when it was not written (empty, not of these papers, or the folder is not
    writable). An update saved beside it is removed: it went with the file replaced.

    ``ids``: the paper ids of that version, in list order. Without them only an index as
    built (one segment, every slot live, slot = place in the list) can be saved.
    """
    found = _index_file(index, ids)
    if found is None:
        return False
    arrays, values = found
    if not write_array_file(path, _KIND, FORMAT, papers_key(version), arrays, values):
        return False
    _remove_update(path)
    return True


def _update_path(path: Path) -> Path:
    return path.with_name(UPDATE_FILE)


def _remove_update(path: Path) -> None:
    remove_array_file(_update_path(path))


#: Which ``search.index`` an update goes with: its key, the checksum of its body, and how many
#: segments it holds (the update's first segment is the next).
_Base = tuple[Any, int, int]


def _index_file(
    index: SearchIndex, ids: Sequence[str] | None
) -> tuple[dict[str, Array], tuple[Any, ...]] | None:
    """The arrays and values a file of ``index`` holds (see ``save_index``), or None when it
    cannot be saved."""
    table, vocabulary, postings = index.parts()
    if not len(table):
        return None
    rows = _rows(table, ids)
    if rows is None:
        return None  # grown by ``add`` and no list order given, or not of these papers
    rank = table.rank if ids is None else np.where(table.live, rows, table.rank)
    sorted_tids, buckets = vocabulary.lookup_tables()
    bucket_keys = list(buckets)
    arrays: dict[str, Array] = {
        "rank": rank,
        "live": table.live,
        "rows": rows,
        "has_code": table.has_code,
        "venue_code": table.venue_code,
        "lists_code": table.lists_code,
        "title_offsets": table.title_offsets,
        "title_tids": table.title_tids,
        "df": vocabulary.df,
        "sorted_tids": sorted_tids,
        "author_tids": np.fromiter(sorted(vocabulary.author_tids), np.int64),
        "bucket_sizes": np.fromiter((len(buckets[k]) for k in bucket_keys), np.int64),
        "bucket_tids": np.concatenate([buckets[k] for k in bucket_keys] or [np.zeros(0, np.int64)]),
    }
    slot_ids = _slot_ids(table.ids.tolist())
    if slot_ids is not None:
        arrays["slot_ids"] = slot_ids
    for number, segment in enumerate(postings.segments):
        for name in _SEGMENT_ARRAYS:
            arrays[f"{name}{number}"] = getattr(segment, name)
    in_order = table.ids.tolist() if ids is None else list(ids)
    values = (
        ids_checksum(in_order),
        len(postings.segments),
        len(in_order) if ids is not None else table.next_rank,
        table.venues,
        table.list_sets,
        table.name_slots,
        vocabulary.terms,
        vocabulary.live_papers,
        bucket_keys,
    )
    return arrays, values


def _rows(table: PaperTable, ids: Sequence[str] | None) -> Array | None:
    """The place in the list of each slot's paper (-1: a dead slot), or None when the table
    is not that of the papers ``ids`` (or, without them, when slots are not places)."""
    if ids is None:
        as_built = table.live_count == len(table) and np.array_equal(
            table.rank, np.arange(len(table))
        )
        return np.arange(len(table), dtype=np.int64) if as_built else None
    if len(ids) != table.live_count:
        return None
    place = dict(zip(ids, range(len(ids)), strict=True))
    live = np.flatnonzero(table.live)
    found = [place.get(pid, -1) for pid in table.ids[live].tolist()]
    if -1 in found or len(set(found)) != len(found):
        return None
    rows = np.full(len(table), -1, dtype=np.int64)
    rows[live] = found
    return rows


def _slot_ids(ids: list[str]) -> Array | None:
    """Each slot's paper id as fixed-width ASCII (None when an id is not plain ASCII: the next
    import then builds the index anew rather than updating it)."""
    if not all(pid.isascii() and "\0" not in pid for pid in ids):
        return None
    return np.array([pid.encode("ascii") for pid in ids], dtype=f"S{max(map(len, ids), default=1)}")


def has_index(path: Path, version: FileContent) -> bool:
    """Whether ``path`` holds an index of the papers.json of content ``version`` (its header
    says so: the rest is checked when it is loaded)."""
    key = papers_key(version)
    return holds_key(path, _KIND, FORMAT, key) or holds_key(
        _update_path(path), _UPDATE_KIND, FORMAT, key
    )


def load_index(path: Path, version: FileContent, papers: Sequence[Paper]) -> SearchIndex | None:
    """The index saved at ``path`` (with the update beside it, if that is the one) if it is
    the index of ``papers`` (the papers.json of content ``version``, in list order), else
    None. ``papers`` are read only where a search needs them."""
    found = _read_index(path, version, lambda found: _loaded(found, papers))
    return None if found is None else found[0]


_Made = TypeVar("_Made")


def _read_index(
    path: Path, version: FileContent, make: Callable[[ArrayFile], _Made | None]
) -> tuple[_Made, _Base] | None:
    """What ``make`` makes of the index saved for the papers.json of content ``version``:
    ``search.index`` alone, or ``search.update`` with the ``search.index`` it names; and which
    ``search.index`` that was."""
    key = papers_key(version)

    def alone(found: ArrayFile) -> tuple[_Made, _Base] | None:
        made = make(found)
        return None if made is None else (made, (key, found.checksum, found.values[1]))

    whole = read_array_file(path, _KIND, FORMAT, key, alone)
    if whole is not None:
        return whole
    return read_array_file(
        _update_path(path), _UPDATE_KIND, FORMAT, key, lambda found: _joined(path, found, make)
    )


def _joined(
    path: Path, update: ArrayFile, make: Callable[[ArrayFile], _Made | None]
) -> tuple[_Made, _Base] | None:
    """What ``make`` makes of an update and the ``search.index`` it goes with (None when that
    file is another)."""
    *values, base = update.values
    base_key, checksum, segments = base

    def both(found: ArrayFile) -> _Made | None:
        if found.checksum != checksum or found.values[1] != segments:
            return None  # another search.index than the one updated
        arrays = {name: found.arrays[name] for name in _segment_arrays(range(segments))}
        arrays.update(update.arrays)  # the rest is the update's own
        return make(ArrayFile(arrays, tuple(values), update.checksum))

    made = read_array_file(path, _KIND, FORMAT, base_key, both)
    return None if made is None else (made, (base_key, checksum, segments))


def _loaded(found: ArrayFile, papers: Sequence[Paper]) -> SearchIndex | None:
    arrays, values = found.arrays, found.values
    rows = arrays["rows"]
    as_built = len(rows) == len(papers) and np.array_equal(rows, np.arange(len(rows)))
    if as_built and isinstance(papers, PaperSequence) and "slot_ids" in arrays:
        # papers read from papers.cache: its content and this file's are the same version's
        # (their keys say so), so the ids are this file's own, slot = place (reading them from
        # the cache would cost 40 ms of a search at 100,000 papers)
        stored = arrays["slot_ids"]
        ids = stored.astype(f"U{stored.dtype.itemsize}").tolist()
    else:
        ids = ids_of(papers)
    if ids_checksum(ids) != values[0]:
        return None  # not the index of these papers
    live = np.array(arrays["live"])  # written to when a paper is replaced
    live_slots = np.flatnonzero(live)
    if len(live_slots) != len(ids):
        return None
    table = PaperTable(values[2])
    if as_built:
        # slot = place in the list (a list is copied: the index appends to it; a
        # PaperSequence copies itself once changed)
        table.papers = papers if isinstance(papers, PaperSequence) else list(papers)
        table.slot_by_id = dict(zip(ids, range(len(ids)), strict=True))  # in C: twice as fast
        slot_ids: Any = ids
    else:
        table.papers = _SlotPapers(papers, rows)
        live_rows = rows[live_slots].tolist()
        slot_ids = np.full(len(rows), "", dtype=object)
        slot_ids[live_slots] = [ids[r] for r in live_rows]
        table.slot_by_id = {ids[r]: s for r, s in zip(live_rows, live_slots.tolist(), strict=True)}
    table.ids = np.empty(len(rows), dtype=object)
    table.ids[:] = slot_ids
    table.live = live
    table.live_count = len(ids)
    return _assembled(table, arrays, values)


def _assembled(table: PaperTable, arrays: Mapping[str, Array], values: Any) -> SearchIndex:
    """An index of the table given and the rest of the file's arrays and values."""
    (_, segments, _, venues, list_sets, name_slots, terms, live_papers, bucket_keys) = values
    table.rank = arrays["rank"]
    table.has_code = arrays["has_code"]
    table.venue_code = arrays["venue_code"]
    table.lists_code = arrays["lists_code"]
    table.title_offsets = arrays["title_offsets"]
    table.title_tids = arrays["title_tids"]
    table.venues, table.list_sets, table.name_slots = venues, list_sets, name_slots
    vocabulary = Vocabulary()
    vocabulary.terms = terms
    vocabulary.ids = dict(zip(terms, range(len(terms)), strict=True))
    vocabulary.df = arrays["df"]
    vocabulary.live_papers = live_papers
    vocabulary.author_tids = set(arrays["author_tids"].tolist())
    starts = np.concatenate([np.zeros(1, np.int64), np.cumsum(arrays["bucket_sizes"])]).tolist()
    bucket_tids = arrays["bucket_tids"]
    buckets = {key: bucket_tids[starts[i] : starts[i + 1]] for i, key in enumerate(bucket_keys)}
    vocabulary.restore(arrays["sorted_tids"], buckets)
    postings = Postings()
    for number in range(segments):
        parts = {name: arrays[f"{name}{number}"] for name in _SEGMENT_ARRAYS}
        postings.segments.append(Segment(**parts))
    return SearchIndex.from_parts(table, vocabulary, postings)


class _SlotPapers(MutableSequence[Paper]):
    """The papers of a grown index's slots: slot ``s`` shows the paper at place ``rows[s]``
    of the list (read as far as asked), and papers indexed since are kept as given."""

    def __init__(self, papers: Sequence[Paper], rows: Array) -> None:
        self._papers = papers
        self._rows = rows
        self._added: list[Paper] = []

    def __len__(self) -> int:
        return len(self._rows) + len(self._added)

    @overload
    def __getitem__(self, index: int) -> Paper: ...

    @overload
    def __getitem__(self, index: slice) -> MutableSequence[Paper]: ...

    def __getitem__(self, index: int | slice) -> Paper | MutableSequence[Paper]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if index >= len(self._rows):
            return self._added[index - len(self._rows)]
        row = int(self._rows[index])
        return self._papers[row] if row >= 0 else _GONE

    def __iter__(self) -> Iterator[Paper]:
        for index in range(len(self)):
            yield self[index]

    def __setitem__(self, index: Any, value: Any) -> None:
        raise TypeError("the papers of a saved index are only added to")

    def __delitem__(self, index: Any) -> None:
        raise TypeError("the papers of a saved index are only added to")

    def insert(self, index: int, value: Paper) -> None:
        if index != len(self):
            raise TypeError("the papers of a saved index are only added to")
        self._added.append(value)


def update_index(
    home: Path,
    before: FileContent,
    version: FileContent,
    papers: Sequence[Paper],
    changed: Collection[str],
) -> bool:
    """Bring the index saved for the papers.json of content ``before`` to ``version``, whose
    papers (in list order) are ``papers`` and of which ``changed`` are new or changed: those
    are indexed as a new segment, the papers gone are dropped, and the index is saved for
    ``version``. False (nothing written) when there is no index of ``before``, or when so many
    segments or dropped papers built up that building the index anew is the better.
    """
    path = home / INDEX_FILE
    found = _read_index(path, before, lambda found: _for_update(found, papers, changed))
    if found is None:
        return False
    index, base = found
    table = index.parts()[0]
    ids = ids_of(papers)
    added = [papers[row] for row, pid in enumerate(ids) if pid not in table.slot_by_id]
    if added and not index.add_segment(added):
        return False  # time to build it anew: one segment, coherent statistics
    return _save_update(path, version, index, ids, base)


def _save_update(
    path: Path, version: FileContent, index: SearchIndex, ids: Sequence[str], base: _Base
) -> bool:
    """Save ``index`` (updated from the one ``base`` names) as an update beside ``path``:
    its segments after those of ``base``, and the rest; or whole (``save_index``) when those
    segments would outweigh the ones it shares."""
    found = _index_file(index, ids)
    if found is None:
        return False
    arrays, values = found
    shared = _segment_arrays(range(base[2]))
    added = _segment_arrays(range(base[2], values[1]))
    if sum(arrays[name].nbytes for name in shared) < sum(arrays[name].nbytes for name in added):
        return save_index(path, version, index, ids)
    own = {name: array for name, array in arrays.items() if name not in shared}
    return write_array_file(
        _update_path(path), _UPDATE_KIND, FORMAT, papers_key(version), own, (*values, base)
    )


def _segment_arrays(numbers: range) -> set[str]:
    """The names of the arrays of the segments ``numbers`` in a file."""
    return {f"{name}{number}" for name in _SEGMENT_ARRAYS for number in numbers}


def _for_update(
    found: ArrayFile, papers: Sequence[Paper], changed: Collection[str]
) -> SearchIndex | None:
    """The saved index, its slots shown with the papers of the new version: a slot whose paper
    is gone or ``changed`` is dead (the changed ones are indexed again)."""
    arrays, values = found.arrays, found.values
    if "slot_ids" not in arrays:
        return None  # an id that is not plain ASCII: built anew
    ids = ids_of(papers)
    place = dict(zip(ids, range(len(ids)), strict=True))
    slot_ids = [pid.decode("ascii") for pid in arrays["slot_ids"].tolist()]
    live = np.array(arrays["live"])
    rows = np.full(len(slot_ids), -1, dtype=np.int64)
    for slot in np.flatnonzero(live).tolist():
        pid = slot_ids[slot]
        row = place.get(pid)
        if row is None or pid in changed:
            live[slot] = False
        else:
            rows[slot] = row
    table = PaperTable(values[2])
    table.papers = _SlotPapers(papers, rows)
    table.ids = np.empty(len(slot_ids), dtype=object)
    table.ids[:] = slot_ids
    table.live = live
    live_slots = np.flatnonzero(live).tolist()
    table.live_count = len(live_slots)
    table.slot_by_id = {slot_ids[s]: s for s in live_slots}
    index = _assembled(table, arrays, values)
    _, vocabulary, postings = index.parts()
    forget_slots(np.flatnonzero(arrays["live"] & ~live).tolist(), table, vocabulary, postings)
    return index


def index_for(home: Path, papers: Sequence[Paper], version: FileContent | None) -> SearchIndex:
    """The search index of ``papers`` (the papers.json of content ``version``, in list order):
    loaded from ``home``, else built and saved there for next time."""
    return load_or_build(
        home / INDEX_FILE,
        version,
        lambda path, version: load_index(path, version, papers),
        lambda: build_index(papers),
        save_index,
    )


def build_index(papers: Sequence[Paper]) -> SearchIndex:
    """The index of a library's papers (in list order), built: a ``PaperSequence``'s read once
    and not kept (``SearchIndex.lazily``)."""
    if isinstance(papers, PaperSequence):
        return SearchIndex.lazily(papers)
    return SearchIndex(papers)


def build_elsewhere(
    home: Path,
    version: FileContent,
    cancelled: Callable[[], bool] = lambda: False,
    *,
    similarity: bool = False,
) -> bool:
    """Build and save the index of the library in ``home`` (the papers.json of content
    ``version``) in a child process; True when it saved it (``load_index`` then reads it).
    With ``similarity``, ``similar.index`` too, from the same words (``refresh.build_both``).

    The build's temporary memory (~0.5 GB at 100,000 papers) is then the child's, given back
    to the system when it ends, not held by a long-lived app; and the child's work does not
    contend with the app's thread for the interpreter. ``cancelled`` is asked every tenth of a
    second: True stops the child. The child also ends when this process does, however it
    ends (its standard input, a pipe from here, then closes: ``children.end_with_parent``).
    """
    from storage.cache import children

    child = children.start(
        "storage.cache.search_index",
        [str(home), *map(str, version), *([_WITH_SIMILARITY] if similarity else [])],
        stdin=subprocess.PIPE,  # never written: its end tells the child this one ended
    )
    if child is None:
        return False
    try:
        return children.wait_for(child, cancelled)
    finally:
        if child.stdin is not None:
            child.stdin.close()


_WITH_SIMILARITY: Final = "--similarity"


def _build_and_save(argv: Sequence[str]) -> int:
    """``python -m storage.cache.search_index HOME SIZE SHA256 [--similarity]``: what
    ``build_elsewhere`` runs. Exit 0 when the index of HOME's papers.json of that content was
    saved."""
    from storage.library import Library

    home, size, sha256, *options = argv
    from storage.cache.children import end_with_parent, without_collector

    end_with_parent()
    without_collector()
    version = FileContent(int(size), sha256)
    loaded = Library(home).loaded_papers()
    if loaded.content != version:
        return 1  # papers.json changed since the app read it
    path = Path(home) / INDEX_FILE
    if options == [_WITH_SIMILARITY]:
        from storage.cache.refresh import build_both

        build_both(Path(home), version, loaded.sequence())
        return 0 if has_index(path, version) else 1
    index = SearchIndex.lazily(loaded.sequence())
    return 0 if save_index(path, version, index) else 1


if __name__ == "__main__":
    sys.exit(_build_and_save(sys.argv[1:]))
