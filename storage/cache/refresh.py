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
library's) is built too before the change returns, under ``LARGE`` papers: from
``SIMILAR_APART`` papers (on two cores) by a child process while this one builds the search
index from nothing, so that the two builds take the time of the longer one (an import of 12,000
papers spent 1.4 s on the search index, then 0.9 s on the similarity), below that in this
process. For a larger library a process of its own builds it, at a low priority, and the
change does not wait for it (8 s and more at 100,000 papers, for a command few run right after
an import): ``papers similar`` and the app wait for it if asked before it ends, rather than
build it a second time.

It is best effort: a file that cannot be written is made by the next command that needs it.
"""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:  # numpy and the index: imported when a change ends, not when a library opens
    from subprocess import Popen

    from storage.cache.loaded_papers import LoadedPapers
    from storage.files.atomic import FileContent

#: From this many papers a build runs in a child process.
LARGE: Final = 20_000
#: From this many papers (and under ``LARGE``) ``similar.index`` is built by a child process
#: beside the search index: below it the child's start (~0.2 s) costs what it saves. Imports
#: on this project's 2-core machine, alternating with the similarity built after the index:
#: 3,000 papers 1.31 s against 1.45, 6,000 2.0 s against 2.55, 12,000 3.3-3.7 s against 4.1-4.3.
SIMILAR_APART: Final = 2_500


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
    # the similarity beside a search index built from nothing (an update takes a fraction of
    # a second: nothing to share the time with)
    from_nothing = not ready and (before is None or not has_index(path, before))
    apart = build and not large and from_nothing
    similar_child = _similar_apart(home, version, len(loaded)) if apart else None
    if not ready and before is not None:
        ready = update_index(home, before, version, papers, changed)
    if not ready and build and large:
        give_back_memory()
        build_elsewhere(home, version)
    elif not ready and build:
        from storage.search import SearchIndex

        save_index(path, version, SearchIndex.lazily(papers))
    if build:
        _similar(home, loaded, version, large, similar_child)


def _similar_apart(home: Path, version: FileContent, count: int) -> Popen[bytes] | None:
    """The child process building ``similar.index`` of a library of ``count`` papers while
    this one makes the search index (see ``SIMILAR_APART``); None when it is built here (or
    is there already)."""
    from storage.cache import children
    from storage.cache.similar_index import SIMILAR_FILE, has_similarity
    from storage.second_process import has_second_core

    if count < SIMILAR_APART or not has_second_core():
        return None
    if has_similarity(home / SIMILAR_FILE, version):
        return None
    return children.start("storage.cache.similar_index", [str(home), *map(str, version)])


def _similar(
    home: Path,
    loaded: LoadedPapers,
    version: FileContent,
    large: bool,
    child: Popen[bytes] | None = None,
) -> None:
    """``similar.index`` of the new papers: waited for from the ``child`` building it, else
    built here for a small library (also when the child failed), else by a process of its own
    that the change does not wait for (``similar_index.build_in_background``)."""
    from storage.cache import children
    from storage.cache.similar_index import (
        SIMILAR_FILE,
        build_in_background,
        build_similarity,
        has_similarity,
        save_similarity,
    )

    path = home / SIMILAR_FILE
    if child is not None:
        children.wait_for(child, lambda: False)
    if has_similarity(path, version):
        return
    if large:
        build_in_background(home, version)
    else:
        save_similarity(path, version, build_similarity(loaded.sequence()))
