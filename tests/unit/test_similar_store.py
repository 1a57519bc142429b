"""The similarity index on disk: the same neighbours as a fresh build, never a stale one."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from storage import Library
from storage.cache.similar_index import (
    SIMILAR_FILE,
    load_similarity,
    save_similarity,
    similarity_for,
)
from storage.files.atomic import FileContent
from storage.models import Paper
from storage.similar import SimilarityIndex
from tests.helpers import needs_two_cores


def versioned(library: Library) -> tuple[list[Paper], FileContent]:
    """The papers and the content of the papers.json they are (what derived files name)."""
    loaded = library.loaded_papers()
    assert loaded.content is not None
    return list(loaded.all()), loaded.content


def test_a_loaded_similarity_index_answers_as_a_fresh_build(seeded_home: Path) -> None:
    library = Library(seeded_home)
    papers, sig = versioned(library)
    fresh = SimilarityIndex(papers)
    path = seeded_home / SIMILAR_FILE
    assert save_similarity(path, sig, fresh)
    for given in (papers, Library(seeded_home).loaded_papers().sequence()):
        loaded = load_similarity(path, sig, given)
        assert loaded is not None
        for paper in papers:
            assert loaded.similar(paper.id, limit=5) == fresh.similar(paper.id, limit=5)
        statuses = {papers[0].id: "starred", papers[5].id: "skipped"}
        assert loaded.suggest(statuses) == fresh.suggest(statuses)
        assert loaded.terms(papers[3].id) == fresh.terms(papers[3].id)


def test_a_loaded_similarity_index_grows_like_a_built_one(seeded_home: Path) -> None:
    library = Library(seeded_home)
    papers, sig = versioned(library)
    assert save_similarity(seeded_home / SIMILAR_FILE, sig, SimilarityIndex(papers))
    loaded = load_similarity(seeded_home / SIMILAR_FILE, sig, papers)
    assert loaded is not None
    built = SimilarityIndex(papers)
    for index in (loaded, built):
        index.add(papers[:2])
    assert loaded.similar(papers[1].id) == built.similar(papers[1].id)


@pytest.mark.parametrize(
    "damage",
    [lambda b: b[:-10], lambda b: b[:200] + bytes([b[200] ^ 1]) + b[201:], lambda b: b + b"x"],
    ids=["torn", "flipped", "longer"],
)
def test_a_stale_or_damaged_similarity_index_is_made_again(
    seeded_home: Path, damage: Callable[[bytes], bytes]
) -> None:
    library = Library(seeded_home)
    papers, sig = versioned(library)
    path = seeded_home / SIMILAR_FILE
    similarity_for(seeded_home, papers, sig)
    good = path.read_bytes()
    other = FileContent(sig.size, "f" * 64)
    assert load_similarity(path, other, papers) is None
    assert load_similarity(path, sig, papers[1:]) is None
    path.write_bytes(damage(good))
    assert load_similarity(path, sig, papers) is None
    assert similarity_for(seeded_home, papers, sig).similar(papers[0].id)
    assert path.read_bytes() == good


def import_sample(
    home: Path,
    sample_files: list[Path],
    monkeypatch: pytest.MonkeyPatch,
    start: Callable[..., object] | None = None,
) -> list[list[str]]:
    """Import the sample lists into ``home`` as a library of ``SIMILAR_APART`` papers would
    be (its similarity made beside its index); the child processes started, by arguments."""
    import storage.cache.children as children
    import storage.cache.refresh as refresh

    monkeypatch.setattr(refresh, "SIMILAR_APART", 1)
    real = children.start
    started: list[list[str]] = []

    def recorded(module: str, args: list[str], **kwargs: object) -> object:
        started.append([module, *args])
        return (start or real)(module, args, **kwargs)

    monkeypatch.setattr(children, "start", recorded)
    Library(home).import_files(sample_files)
    return started


@needs_two_cores
def test_an_import_has_its_similarity_made_by_a_child_beside_its_index(
    home: Path, sample_files: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    started = import_sample(home, sample_files, monkeypatch)
    assert [args[0] for args in started] == ["storage.cache.similar_index"]
    papers, sig = versioned(Library(home))
    saved = load_similarity(home / SIMILAR_FILE, sig, papers)
    assert saved is not None  # there when the import returned
    fresh = SimilarityIndex(papers)
    for paper in papers:
        assert saved.similar(paper.id) == fresh.similar(paper.id)


@needs_two_cores
def test_a_similarity_child_that_fails_leaves_the_build_to_the_import(
    home: Path, sample_files: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    def failing(module: str, args: list[str], **kwargs: object) -> object:
        return subprocess.Popen([sys.executable, "-c", "raise SystemExit(1)"])

    started = import_sample(home, sample_files, monkeypatch, failing)
    assert len(started) == 1
    papers, sig = versioned(Library(home))
    assert load_similarity(home / SIMILAR_FILE, sig, papers) is not None
