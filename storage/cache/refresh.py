"""The derived files made ready as a change of ``papers.json`` ends (an import, a removal).

The command after an import (``papers search``, ``papers similar``, the app's first search)
should find the indexes of the new papers, not build them. So the change that wrote
``papers.json`` brings ``search.index`` and ``similar.index`` to it before it returns:

- when the search index of the version it started from is there, it is updated
  (``search_index.update_index``): the papers the change added or changed are indexed as one
  more segment and the papers it took out are dropped; 1,000 papers into a library of 100,000
  cost a fraction of a second, mostly writing the file again;
- otherwise (a first import, or segments enough to merge) both are made from nothing, from
  words cut once (``build_both``: the similarity matrix from the title and abstract words the
  search index was built from), in this process for a library under ``LARGE`` papers, in a
  child process from ``papers.cache`` for a larger one, so that the builds' temporary memory
  is the child's and is given back when it ends (an app that imports does not keep it) and
  the app's keys do not wait on it for the interpreter.

``similar.index`` after an update (which no update can bring along: its terms and weights are
the whole library's) is built again: in this process under ``LARGE`` papers; for a larger
library by a process of its own, at a low priority, that the change does not wait for (8 s and
more at 100,000 papers). Meanwhile the papers the change added or changed are folded into the
matrix made before it (``similar_index.save_added``: 1,000 papers in a fraction of a second),
so that ``papers similar`` and the app answer at once; when there is no such matrix (a first
import, papers taken out) they wait for the build if asked before it ends, rather than build
it a second time.

It is best effort: a file that cannot be written is made by the next command that needs it.
"""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:  # numpy and the index: imported when a change ends, not when a library opens
    from storage.cache.loaded_papers import LoadedPapers, PaperSequence
    from storage.cache.update_ahead import IndexUpdateAhead
    from storage.files.atomic import FileContent

#: From this many papers a build runs in a child process.
LARGE: Final = 20_000


def refresh_derived(
    home: Path,
    loaded: LoadedPapers,
    before: FileContent | None,
    changed: Collection[str],
    *,
    build: bool = True,
    here: bool = False,
    ahead: IndexUpdateAhead | None = None,
) -> None:
    """Make the derived files of ``loaded`` (the papers ``papers.json`` holds now), which a
    change made from the version of content ``before``, changing the papers ``changed``.
    Without ``build``, only what updating an index does (a removal in the app, on its writer
    thread: the app builds its index itself, off that thread). With ``here``, a large
    library's are made in this process too (a command that ends after it: its memory, free
    but scattered after a large import, is then reused rather than held beside a child's).
    With ``ahead`` (a large import's), the search index is updated by that child process
    while this one folds the papers into the similarity matrix."""
    from storage.cache.derived import give_back_memory
    from storage.cache.search_index import (
        INDEX_FILE,
        build_elsewhere,
        has_index,
        save_index,
        update_index,
    )
    from storage.cache.similar_index import SIMILAR_FILE, has_similarity

    version = loaded.content
    if version is None or not len(loaded):
        return
    papers = loaded.sequence()
    large = len(loaded) >= LARGE
    ready = has_index(home / INDEX_FILE, version)
    folded: bool | None = None  # the similarity rows folded in while the child works
    if (
        not ready
        and before is not None
        and ahead is not None
        and ahead.send(before, version, changed)
    ):
        folded = _fold(home, loaded, version, large, before, changed)
        ready = ahead.done() or has_index(home / INDEX_FILE, version)  # (saved, then stalled)
    if not ready and before is not None:
        ready = update_index(home, before, version, papers, changed)
    # made too unless it is there (the search index alone gone: deleted, of another format)
    similarity = not has_similarity(home / SIMILAR_FILE, version)
    if not ready and build and large and not here:
        give_back_memory()
        build_elsewhere(home, version, similarity=similarity)
    elif not ready and build and similarity:
        build_both(home, version, papers)
    elif not ready and build:
        from storage.search import SearchIndex

        save_index(home / INDEX_FILE, version, SearchIndex.lazily(papers))
    _similar(home, loaded, version, large, before, changed, build=build, folded=folded)


def build_both(home: Path, version: FileContent, papers: PaperSequence) -> None:
    """Make ``search.index`` and ``similar.index`` of ``papers`` (the papers.json of content
    ``version``) from words cut once (``SearchIndex.lazily_with_words``), and save them.

    The search index is saved and let go before the matrix is made, so that the two are never
    in memory together (at 100,000 papers: 130 MB and 210 MB); the words they share (90 MB)
    wait in a file meanwhile for a library of ``LARGE`` papers.
    """
    from storage.cache.derived import give_back_memory
    from storage.cache.search_index import INDEX_FILE, save_index
    from storage.cache.similar_index import SIMILAR_FILE, save_similarity
    from storage.search import SearchIndex
    from storage.similar import SimilarityIndex
    from storage.similar.matrix import build_from_words

    spill = home if len(papers) >= LARGE else None  # the words, out of memory meanwhile
    index, words = SearchIndex.lazily_with_words(papers, spill)
    save_index(home / INDEX_FILE, version, index)
    del index
    give_back_memory()  # what the index held, before the matrix is made
    matrix = build_from_words(papers.ids(), words)
    del words
    save_similarity(home / SIMILAR_FILE, version, SimilarityIndex.from_matrix(matrix, papers))


def _similar(
    home: Path,
    loaded: LoadedPapers,
    version: FileContent,
    large: bool,
    before: FileContent | None,
    changed: Collection[str],
    *,
    build: bool,
    folded: bool | None = None,
) -> None:
    """``similar.index`` of the new papers, when it is not there already: built here for a
    small library, else by a process of its own that the change does not wait for
    (``similar_index.build_in_background``); meanwhile the rows of the papers the change
    added or changed, folded into the matrix made before it, answer (``save_added``). Without
    ``build`` (a removal, or its undo: the app's too, whose ``m`` then reads them rather than
    make the matrix) those rows are all it makes, unless they cannot be made: then the
    process of its own makes the matrix, so that ``m`` finds it or waits for it.
    ``folded``: what ``_fold`` did already (None: not asked yet)."""
    from storage.cache.array_file import remove_array_file
    from storage.cache.similar_index import (
        ADDED_FILE,
        SIMILAR_FILE,
        build_in_background,
        build_similarity,
        has_similarity,
        save_similarity,
    )

    path = home / SIMILAR_FILE
    if has_similarity(path, version):
        return
    added = _fold(home, loaded, version, large, before, changed) if folded is None else folded
    if large and not added:
        remove_array_file(home / ADDED_FILE)  # of a version before: of no use now
    if large and (build or not added):
        # made apart; but not after a removal whose rows made before answer: taking papers out
        # leaves the others' rows as a build would give them but for the idf's drift
        build_in_background(home, version)
    elif build:
        save_similarity(path, version, build_similarity(loaded.sequence()))


def _fold(
    home: Path,
    loaded: LoadedPapers,
    version: FileContent,
    large: bool,
    before: FileContent | None,
    changed: Collection[str],
) -> bool:
    """For a large library, the rows of the papers ``changed`` folded into the similarity
    matrix of ``before`` (``similar_index.save_added``); True when they were saved."""
    from storage.cache.similar_index import SIMILAR_FILE, has_similarity, save_added

    if not large or before is None or has_similarity(home / SIMILAR_FILE, version):
        return False
    return save_added(home, before, version, loaded.sequence(), changed)
