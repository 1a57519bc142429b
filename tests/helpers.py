"""Helpers shared by the test folders."""

from __future__ import annotations

from pathlib import Path

import pytest

from storage.cache.content_key import KEY_FILE
from storage.cache.papers_cache import PAPERS_CACHE_FILE
from storage.cache.search_index import INDEX_FILE, UPDATE_FILE
from storage.cache.similar_index import BUILD_LOCK, SIMILAR_FILE
from storage.importing.replay import REPLAY_FILE
from storage.second_process import has_second_core

#: A test of work split with a second process, which is started only beside a free core.
needs_two_cores = pytest.mark.skipif(
    not has_second_core(), reason="a second process is started only beside a free core"
)

#: Files derived from ``papers.json`` that any read may (re)write: never data.
DERIVED_FILES = frozenset(
    {PAPERS_CACHE_FILE, INDEX_FILE, UPDATE_FILE, SIMILAR_FILE, KEY_FILE, BUILD_LOCK, REPLAY_FILE}
    | {f"{name}.ok" for name in (INDEX_FILE, UPDATE_FILE, SIMILAR_FILE)}  # bodies checked whole
)


def home_files(home: Path) -> dict[str, bytes]:
    """Every file in HOME, by relative path, with its bytes: what must not change.

    Leaves out the files derived from ``papers.json`` (papers.cache, the search index):
    caches that any read may (re)write, never data.
    """
    return {
        str(p.relative_to(home)): p.read_bytes()
        for p in sorted(home.rglob("*"))
        if p.is_file() and p.name not in DERIVED_FILES
    }
