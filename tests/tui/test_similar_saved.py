"""The app's similar papers come from ``similar.index``, as the CLI's do: read, not built."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import OptionList

from storage import Library
from storage.cache.similar_index import SIMILAR_FILE, load_similarity
from storage.similar import SimilarityIndex
from storage.similar.matrix import Matrix
from storage.similar.stacked import Stacked
from tests.tui.helpers import make_app, ready, wait_for
from tests.unit.test_similar_added import import_twins
from tui.similar_work import SimilarWork

SIZE = (120, 36)


def test_the_saved_index_is_read_not_built(seeded_home: Path) -> None:
    library = Library(seeded_home)
    papers, _ = library.versioned_papers()
    told: list[str] = []
    index = SimilarWork(told.append, library)._index_of(papers)
    assert not told  # nothing to prepare: the import made similar.index
    assert isinstance(index.matrix, Matrix)
    assert not index.matrix.indptr.flags.writeable  # a view of the memory-mapped file
    fresh = SimilarityIndex(papers)
    for paper in papers[:10]:
        assert index.similar(paper.id, limit=5) == fresh.similar(paper.id, limit=5)


def test_a_missing_index_is_made_once_and_saved(seeded_home: Path) -> None:
    (seeded_home / SIMILAR_FILE).unlink()
    library = Library(seeded_home)
    papers, _ = library.versioned_papers()
    told: list[str] = []
    SimilarWork(told.append, library)._index_of(papers)
    assert len(told) == 1
    content = library.loaded_papers().content
    assert content is not None
    assert load_similarity(seeded_home / SIMILAR_FILE, content, papers) is not None


def test_papers_of_another_version_are_built_in_memory(seeded_home: Path) -> None:
    """Papers that are not the library's on disk (it changed since) get an index of their own,
    never the saved one of other papers."""
    library = Library(seeded_home)
    papers, _ = library.versioned_papers()
    told: list[str] = []
    index = SimilarWork(told.append, library)._index_of(papers[:20])
    assert told and len(index) == 20


def test_the_papers_an_import_added_are_read_with_the_index_made_before(
    seeded_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Right after an import into a large library, while its ``similar.index`` is made again
    apart, the app reads the added papers' rows with the one made before: nothing built."""
    import_twins(seeded_home, 3, tmp_path, monkeypatch)
    library = Library(seeded_home)
    papers, _ = library.versioned_papers()
    told: list[str] = []
    index = SimilarWork(told.append, library)._index_of(papers)
    assert not told and isinstance(index.matrix, Stacked)
    assert index.similar(papers[38].id)[0].paper_id == papers[0].id


def test_after_a_removal_the_index_made_before_answers(
    seeded_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A removal (the app's, or ``papers remove``) in a large library makes no matrix: the one
    made before answers, the papers taken out left out (20 s at 100,000 papers before)."""
    import storage.cache.refresh as refresh

    monkeypatch.setattr(refresh, "LARGE", 1)
    library = Library(seeded_home)
    gone = [p.id for p in library.papers()[:2]]
    library.remove(gone)
    papers, _ = library.versioned_papers()
    told: list[str] = []
    index = SimilarWork(told.append, library)._index_of(papers)
    assert not told and isinstance(index.matrix, Stacked) and len(index) == 36
    fresh = SimilarityIndex(papers)
    for paper in papers[:10]:
        found = [n.paper_id for n in index.similar(paper.id, limit=36)]
        assert not set(gone) & set(found)
        assert found[:1] == [n.paper_id for n in fresh.similar(paper.id, limit=1)]
    library.undo()  # back: read with the index made before again
    papers, _ = library.versioned_papers()
    index = SimilarWork(told.append, library)._index_of(papers)
    assert not told and len(index) == 38


async def test_m_shows_the_similar_papers_of_the_saved_index(seeded_home: Path) -> None:
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("m")
        await wait_for(pilot, lambda: type(app.screen).__name__ == "SimilarScreen")
        assert not any("Preparing" in n.message for n in app._notifications)
        # j and k move in the similar papers, as in the paper list
        listed = app.screen.query_one(OptionList)
        start = listed.highlighted or 0
        await pilot.press("j", "j")
        assert listed.highlighted == start + 2
        await pilot.press("k")
        assert listed.highlighted == start + 1
