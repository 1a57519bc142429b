"""A large import's search index is updated by a child process started as the import starts
(``storage.cache.update_ahead``), while this one folds the papers into the similarity matrix:
the index it saves is the one this process would have saved, and whatever happens to the child,
the import still leaves the index of its papers."""

from __future__ import annotations

from pathlib import Path

import pytest

from storage import Library
from storage.cache import update_ahead
from storage.cache.search_index import INDEX_FILE, has_index, load_index
from storage.cache.update_ahead import IndexUpdateAhead

QUOKKA = (
    "We study quokka optimisation in depth and propose a method that solves it well; "
    "experiments on many benchmarks show large gains over strong baselines."
)


@pytest.fixture
def ahead(monkeypatch: pytest.MonkeyPatch) -> list[IndexUpdateAhead | None]:
    """Every library is large enough for the child; the children started, recorded."""
    monkeypatch.setattr(update_ahead, "AHEAD_FROM_BYTES", 0)
    started: list[IndexUpdateAhead | None] = []
    start = IndexUpdateAhead.start.__func__  # type: ignore[attr-defined]

    def recorded(cls: type[IndexUpdateAhead], home: Path) -> IndexUpdateAhead | None:
        started.append(start(cls, home))
        return started[-1]

    monkeypatch.setattr(IndexUpdateAhead, "start", classmethod(recorded))
    return started


@pytest.fixture
def updated_here(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many times this process updated the index itself."""
    import storage.cache.search_index as search_index

    calls: list[int] = []
    update = search_index.update_index

    def counted(*args: object, **kwargs: object) -> bool:
        calls.append(1)
        return update(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(search_index, "update_index", counted)
    return calls


def more(tmp_path: Path) -> Path:
    extra = tmp_path / "more.txt"
    extra.write_text(f"More\n\n{QUOKKA}\n", encoding="utf-8")
    return extra


def found(home: Path, word: str) -> list[str]:
    """The ids a search of ``word`` finds, in the index the import left (not built again)."""
    loaded = Library(home).loaded_papers()
    assert loaded.content is not None and has_index(home / INDEX_FILE, loaded.content)
    index = load_index(home / INDEX_FILE, loaded.content, loaded.sequence())
    assert index is not None
    return [hit.paper_id for hit in index.search(word, limit=5)]


def ended(started: list[IndexUpdateAhead | None]) -> bool:
    return all(a is not None and a._child.poll() is not None for a in started)


def test_the_child_updates_the_index_of_an_import(
    seeded_home: Path, tmp_path: Path, ahead: list[IndexUpdateAhead | None], updated_here: list[int]
) -> None:
    Library(seeded_home).import_file(more(tmp_path))
    assert len(ahead) == 1 and ended(ahead)
    assert updated_here == []  # the child's update was saved: nothing done here
    assert len(found(seeded_home, "quokka")) == 1


def test_a_child_that_cannot_start_leaves_the_update_here(
    seeded_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, updated_here: list[int]
) -> None:
    monkeypatch.setattr(update_ahead, "AHEAD_FROM_BYTES", 0)
    monkeypatch.setattr("storage.cache.children.start", lambda *args, **kwargs: None)
    Library(seeded_home).import_file(more(tmp_path))
    assert updated_here == [1]
    assert len(found(seeded_home, "quokka")) == 1


def test_a_child_killed_after_it_was_asked_leaves_the_update_here(
    seeded_home: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    ahead: list[IndexUpdateAhead | None],
    updated_here: list[int],
) -> None:
    send = IndexUpdateAhead.send

    def killed(self: IndexUpdateAhead, *args: object) -> bool:
        self._child.kill()
        self._child.wait()
        return send(self, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(IndexUpdateAhead, "send", killed)
    Library(seeded_home).import_file(more(tmp_path))
    assert updated_here == [1] and ended(ahead)
    assert len(found(seeded_home, "quokka")) == 1


def test_an_import_that_changes_nothing_ends_its_child(
    seeded_home: Path, tmp_path: Path, ahead: list[IndexUpdateAhead | None]
) -> None:
    extra = more(tmp_path)
    Library(seeded_home).import_file(extra)
    Library(seeded_home).import_file(extra, list_name="More")  # the same papers again
    assert len(ahead) >= 1 and ended(ahead)


def test_a_dry_run_starts_no_child(
    seeded_home: Path, tmp_path: Path, ahead: list[IndexUpdateAhead | None]
) -> None:
    Library(seeded_home).import_files([more(tmp_path)], dry_run=True)
    assert ahead == []


def test_a_small_library_starts_no_child(seeded_home: Path, tmp_path: Path) -> None:
    """38 papers: the update is quicker than a second interpreter's start."""
    assert IndexUpdateAhead.start(seeded_home) is None
