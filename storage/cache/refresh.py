"""The derived files made ready as a change of ``papers.json`` ends (an import, a removal).

The command after an import (``papers search``, the app's first search) should find the
search index of the new papers, not build it. So the change that wrote ``papers.json`` brings
``search.index`` to it before it returns:

- when the index of the version it started from is there, it is updated
  (``search_index.update_index``): the papers the change added or changed are indexed as one
  more segment and the papers it took out are dropped; 1,000 papers into a library of 100,000
  cost a fraction of a second, mostly writing the file again;
- otherwise (a first import, or segments enough to merge) it is built: in this process for a
  library under ``LARGE`` papers, in a child process from ``papers.cache`` for a larger one,
  so that the build's temporary memory is the child's and is given back when it ends (an app
  that imports does not keep it) and the app's keys do not wait on it for the interpreter.

``similar.index`` (which no update can bring along: its terms and weights are the whole
library's) is built too, in this process under ``LARGE`` papers; for a larger library by a
process of its own, at a low priority, that the change does not wait for (10 s and more at
100,000 papers, for a command few run right after an import): ``papers similar`` and the app
wait for it if asked before it ends, rather than build it a second time.

It is best effort: a file that cannot be written is made by the next command that needs it.
"""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:  # numpy and the index: imported when a change ends, not when a library opens
    from storage.cache.loaded_papers import LoadedPapers
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
) -> None:
    """Make the derived files of ``loaded`` (the papers ``papers.json`` holds now), which a
    change made from the version of content ``before``, changing the papers ``changed``.
    Without ``build``, only what updating an index does (a removal in the app, on its writer
    thread: the app builds its index itself, off that thread)."""
    from storage.cache.derived import give_back_memory
    from storage.cache.search_index import (
        INDEX_FILE,
        build_elsewhere,
        has_index,
        save_index,
        update_index,
    )

    version = loaded.content
    if version is None or not len(loaded):
        return
    papers = loaded.sequence()
    large = len(loaded) >= LARGE
    path = home / INDEX_FILE
    ready = has_index(path, version)
    if not ready and before is not None:
        ready = update_index(home, before, version, papers, changed)
    if not ready and build and large:
        give_back_memory()
        build_elsewhere(home, version)
    elif not ready and build:
        from storage.search import SearchIndex

        save_index(path, version, SearchIndex.lazily(papers))
    if build:
        _similar(home, loaded, version, large)


def _similar(home: Path, loaded: LoadedPapers, version: FileContent, large: bool) -> None:
    """``similar.index`` of the new papers: built here for a small library, else by a process
    of its own that the change does not wait for (``similar_index.build_in_background``)."""
    from storage.cache.similar_index import (
        SIMILAR_FILE,
        build_in_background,
        build_similarity,
        has_similarity,
        save_similarity,
    )

    path = home / SIMILAR_FILE
    if has_similarity(path, version):
        return
    if large:
        build_in_background(home, version)
    else:
        save_similarity(path, version, build_similarity(loaded.sequence()))
