"""The search index on disk (``search.index`` beside ``papers.json``), memory-mapped when loaded.

Building the index of 100,000 papers takes ~20 s; loading it takes a fraction of a second, so
that every ``papers search`` and every start of the app after the first reuse it. The file
(``storage.cache.array_file``) holds the index's numpy arrays, read straight from a read-only
memory map (only the pages a search touches are read), and the Python parts (words, a
checksum of the paper ids, venues, lists, method names, look-up tables).

It is derived data (``storage.cache.derived``) and never trusted: it is used only when its key
names the exact content of ``papers.json`` (``storage.cache.content_key``), the paper fields,
its ``FORMAT``, the Python and numpy reading it, and when its size and the
checksums of its header and body hold and its paper ids are those of the papers given.
Anything else and it is ignored (the caller builds the index again and saves it anew).

Only an index as built (one segment, every slot live, slot = place in the list) is saved: the
paper of slot ``i`` is then the ``i``-th of the papers the loader is given, which may be read
lazily (``storage.cache.loaded_papers.PaperSequence``) so that a search reads only its hits.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Final

import numpy as np

from storage.cache.array_file import (
    Array,
    load_or_build,
    papers_key,
    read_array_file,
    write_array_file,
)
from storage.cache.loaded_papers import PaperSequence, ids_checksum, ids_of
from storage.files.atomic import FileContent
from storage.models import Paper
from storage.search.index import SearchIndex
from storage.search.postings import Postings, Segment
from storage.search.table import PaperTable
from storage.search.vocabulary import Vocabulary

INDEX_FILE: Final = "search.index"
#: Bumped by hand whenever what an index of given papers holds changes: the layout of this
#: file, or the code that decides it (``storage.search``'s ``build``, ``postings``, ``table``,
#: ``text``, ``vocabulary``; ``storage.text``'s ``latex``, ``normalize``, ``symbols``; the
#: ``Paper`` fields). An index of another format is ignored and built again.
FORMAT: Final = 4
_KIND: Final = "search index"


def save_index(path: Path, version: FileContent, index: SearchIndex) -> bool:
    """Write ``index`` (of the papers.json of content ``version``) to ``path``, best effort;
    False when it was not written (not an index as built, or the folder is not writable)."""
    table, vocabulary, postings = index.parts()
    if (
        len(postings.segments) != 1
        or table.live_count != len(table)
        or not np.array_equal(table.rank, np.arange(len(table)))
    ):
        return False  # empty, or grown by ``add``: slots are no longer places in the list
    segment = postings.segments[0]
    sorted_tids, buckets = vocabulary.lookup_tables()
    bucket_keys = list(buckets)
    arrays: dict[str, Array] = {
        "offsets": segment.offsets,
        "docs": segment.docs,
        "scores": segment.scores,
        "masks": segment.masks,
        "field_total": postings.field_total,
        "rank": table.rank,
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
    values = (
        ids_checksum(table.ids.tolist()),
        table.next_rank,
        table.venues,
        table.list_sets,
        table.name_slots,
        vocabulary.terms,
        vocabulary.live_papers,
        bucket_keys,
    )
    return write_array_file(path, _KIND, FORMAT, papers_key(version), arrays, values)


def load_index(path: Path, version: FileContent, papers: Sequence[Paper]) -> SearchIndex | None:
    """The index saved at ``path`` if it is the index of ``papers`` (the papers.json of content
    ``version``, in list order), else None. ``papers`` are read only where a search needs
    them."""
    return read_array_file(
        path,
        _KIND,
        FORMAT,
        papers_key(version),
        lambda found: _assemble(found.arrays, found.values, papers),
    )


def _assemble(
    arrays: Mapping[str, Array], values: Any, papers: Sequence[Paper]
) -> SearchIndex | None:
    (known, next_rank, venues, list_sets, name_slots, terms, live_papers, bucket_keys) = values
    ids = ids_of(papers)
    if ids_checksum(ids) != known:
        return None  # not the index of these papers
    table = PaperTable(next_rank)
    # a list is copied (the index appends to it); a PaperSequence copies itself once changed
    table.papers = papers if isinstance(papers, PaperSequence) else list(papers)
    table.slot_by_id = dict(zip(ids, range(len(ids)), strict=True))  # in C: twice as fast
    table.ids = np.empty(len(ids), dtype=object)
    table.ids[:] = ids
    table.live = np.ones(len(ids), dtype=np.bool_)  # written to when a paper is replaced
    table.live_count = len(ids)
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
    postings.field_total = arrays["field_total"].copy()  # added to when papers are added
    postings.segments.append(
        Segment(
            offsets=arrays["offsets"],
            docs=arrays["docs"],
            scores=arrays["scores"],
            masks=arrays["masks"],
        )
    )
    return SearchIndex.from_parts(table, vocabulary, postings)


def index_for(home: Path, papers: Sequence[Paper], version: FileContent | None) -> SearchIndex:
    """The search index of ``papers`` (the papers.json of content ``version``, in list order):
    loaded from ``home``, else built and saved there for next time."""
    return load_or_build(
        home / INDEX_FILE,
        version,
        lambda path, version: load_index(path, version, papers),
        lambda: SearchIndex(papers),
        save_index,
    )


def build_elsewhere(
    home: Path, version: FileContent, cancelled: Callable[[], bool] = lambda: False
) -> bool:
    """Build and save the index of the library in ``home`` (the papers.json of content
    ``version``) in a child process; True when it saved it (``load_index`` then reads it).

    The build's temporary memory (~0.5 GB at 100,000 papers) is then the child's, given back
    to the system when it ends, not held by a long-lived app; and the child's work does not
    contend with the app's thread for the interpreter. ``cancelled`` is asked every tenth of a
    second: True stops the child.
    """
    package_root = str(Path(__file__).resolve().parents[2])
    path = os.environ.get("PYTHONPATH")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [package_root, path]))}
    command = [sys.executable, "-m", "storage.cache.search_index", str(home), *map(str, version)]
    try:
        child = subprocess.Popen(
            command,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=env,
        )
    except OSError:
        return False
    while True:
        try:
            return child.wait(timeout=0.1) == 0
        except subprocess.TimeoutExpired:
            if cancelled():
                child.kill()
                child.wait()
                return False


def _build_and_save(argv: Sequence[str]) -> int:
    """``python -m storage.cache.search_index HOME SIZE SHA256``: what ``build_elsewhere``
    runs. Exit 0 when the index of HOME's papers.json of that content was saved."""
    from storage.library import Library

    home, size, sha256 = argv
    version = FileContent(int(size), sha256)
    loaded = Library(home).loaded_papers()
    if loaded.content != version:
        return 1  # papers.json changed since the app read it
    index = SearchIndex(loaded.all())
    return 0 if save_index(Path(home) / INDEX_FILE, version, index) else 1


if __name__ == "__main__":
    sys.exit(_build_and_save(sys.argv[1:]))
