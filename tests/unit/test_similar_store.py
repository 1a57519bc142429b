"""The similarity index on disk: the same neighbours as a fresh build, never a stale one."""

from __future__ import annotations

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
    *,
    large: bool = False,
    short_lived: bool = False,
) -> list[list[str]]:
    """Import the sample lists into ``home`` (as a library of ``LARGE`` papers would be, with
    ``large``); the child processes started, by arguments."""
    import storage.cache.children as children
    import storage.cache.refresh as refresh

    if large:
        monkeypatch.setattr(refresh, "LARGE", 1)
    real = children.start
    started: list[list[str]] = []

    def recorded(module: str, args: list[str], **kwargs: object) -> object:
        started.append([module, *args])
        return real(module, args, **kwargs)

    monkeypatch.setattr(children, "start", recorded)
    library = Library(home)
    library.short_lived = short_lived
    library.import_files(sample_files)
    return started


def assert_similarity_of_a_fresh_build(home: Path) -> None:
    """``similar.index`` is there, and answers as the matrix built from the papers alone."""
    papers, sig = versioned(Library(home))
    saved = load_similarity(home / SIMILAR_FILE, sig, papers)
    assert saved is not None  # there when the import returned
    fresh = SimilarityIndex(papers)
    for paper in papers:
        assert saved.similar(paper.id) == fresh.similar(paper.id)
    assert saved.matrix.terms == fresh.matrix.terms


def test_an_import_makes_its_similarity_from_the_words_of_its_index(
    home: Path, sample_files: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert import_sample(home, sample_files, monkeypatch) == []  # no child for a small list
    assert_similarity_of_a_fresh_build(home)


@pytest.mark.parametrize("short_lived", [False, True], ids=["child", "the command itself"])
def test_a_large_import_makes_both_indexes_before_it_returns(
    home: Path, sample_files: list[Path], monkeypatch: pytest.MonkeyPatch, short_lived: bool
) -> None:
    """A library of ``LARGE`` papers has both made by a child (what the app's import does)
    or, for a command that ends after it, by the command itself; ``papers similar`` never
    waits for a build after it."""
    started = import_sample(home, sample_files, monkeypatch, large=True, short_lived=short_lived)
    if short_lived:
        assert started == []
    else:
        assert [(args[0], args[-1]) for args in started] == [
            ("storage.cache.search_index", "--similarity")
        ]
    assert_similarity_of_a_fresh_build(home)


def test_the_search_index_alone_gone_is_made_alone(
    home: Path, sample_files: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A library whose search index went (deleted, or of an older format) and whose
    similar.index holds: the next build makes the search index and leaves the other be."""
    from storage.cache.refresh import refresh_derived
    from storage.cache.search_index import INDEX_FILE, has_index

    import_sample(home, sample_files, monkeypatch)
    similar = (home / SIMILAR_FILE).read_bytes()
    (home / INDEX_FILE).unlink()
    made: list[object] = []
    monkeypatch.setattr("storage.cache.refresh.build_both", lambda *args: made.append(args))
    loaded = Library(home).loaded_papers()
    refresh_derived(home, loaded, None, ())
    assert loaded.content is not None and has_index(home / INDEX_FILE, loaded.content)
    assert made == [] and (home / SIMILAR_FILE).read_bytes() == similar
