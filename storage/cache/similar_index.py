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

from collections.abc import Sequence
from pathlib import Path
from typing import Final

from storage.cache.array_file import (
    ArrayFile,
    load_or_build,
    papers_key,
    read_array_file,
    write_array_file,
)
from storage.cache.loaded_papers import ids_checksum, ids_of
from storage.files.atomic import FileContent
from storage.models import Paper
from storage.similar.index import SimilarityIndex
from storage.similar.matrix import Matrix

SIMILAR_FILE: Final = "similar.index"
#: Bumped by hand whenever what the matrix of given papers holds changes: the layout of this
#: file, or the code that decides it (``storage.similar``'s ``matrix`` and ``terms``, the
#: ``Paper`` fields). A file of another format is ignored and made again.
FORMAT: Final = 4
_KIND: Final = "similarity index"
_ARRAYS: Final = ("indptr", "indices", "data", "post_ptr", "post_docs", "post_data")


def save_similarity(path: Path, version: FileContent, index: SimilarityIndex) -> bool:
    """Write the matrix of ``index`` (of the papers.json of content ``version``), best effort."""
    matrix = index.matrix
    arrays = {name: getattr(matrix, name) for name in _ARRAYS}
    values = (ids_checksum(matrix.ids), list(matrix.terms))
    return write_array_file(path, _KIND, FORMAT, papers_key(version), arrays, values)


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
    known, terms = found.values
    arrays = {name: found.arrays[name] for name in _ARRAYS}
    ids = ids_of(papers)
    if ids_checksum(ids) != known:
        return None  # not the index of these papers
    matrix = Matrix(
        ids=tuple(ids),
        rows=dict(zip(ids, range(len(ids)), strict=True)),
        terms=tuple(terms),
        **arrays,
    )
    return SimilarityIndex.from_matrix(matrix, papers)


def similarity_for(
    home: Path, papers: Sequence[Paper], version: FileContent | None
) -> SimilarityIndex:
    """The similarity index of ``papers`` (the papers.json of content ``version``, in list
    order): loaded from ``home``, else built and saved there for next time."""
    return load_or_build(
        home / SIMILAR_FILE,
        version,
        lambda path, version: load_similarity(path, version, papers),
        lambda: SimilarityIndex(papers),
        save_similarity,
    )
