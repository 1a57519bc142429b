"""The papers an import adds to a large library answer ``similar`` at once: their rows folded
into the matrix made before (``similar.added``), until the library's is made again."""

from __future__ import annotations

import dataclasses
import json
import os
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

import storage.cache.similar_index as similar_index
from storage import Library
from storage.cache.similar_index import (
    ADDED_FILE,
    SIMILAR_FILE,
    has_added,
    is_ready,
    load_added,
    load_ready,
    save_added,
    save_similarity,
    similarity_for,
)
from storage.files.atomic import FileContent
from storage.models import Paper
from storage.similar import SimilarityIndex
from storage.similar.matrix import Matrix, build, fold_in
from storage.similar.stacked import Stacked


def plain(rows: Stacked) -> Matrix:
    """The matrix holding the very rows ``rows`` gives, made as one."""
    terms, weights = zip(*(rows.row(r) for r in range(rows.size)), strict=True)
    lengths = np.array([len(t) for t in terms], dtype=np.int64)
    indptr = np.concatenate([[0], np.cumsum(lengths)])
    indices = np.concatenate(terms).astype(np.int32)
    data = np.concatenate(weights).astype(np.float32)
    docs = np.repeat(np.arange(rows.size), lengths)
    order = np.argsort(indices, kind="stable")
    post_ptr = np.concatenate([[0], np.cumsum(np.bincount(indices, minlength=len(rows.terms)))])
    return Matrix(
        ids=rows.ids,
        rows=dict(rows.rows),
        indptr=indptr,
        indices=indices,
        data=data,
        post_ptr=post_ptr.astype(np.int64),
        post_docs=docs[order].astype(np.int32),
        post_data=data[order],
        terms=rows.terms,
    )


def corpus(library: Library) -> list[Paper]:
    """The sample papers, then each again with another id and its title and abstract
    shuffled a little: twins the similarity must find."""
    papers = list(library.papers())
    twins = [
        dataclasses.replace(
            p,
            id=f"twin{i:04d}",
            title=" ".join(reversed(p.title.split())),
            abstract=" ".join(p.abstract.split()[1:]),
        )
        for i, p in enumerate(papers)
    ]
    return papers + twins


def test_a_paper_of_the_matrix_folded_in_is_its_very_row(library: Library) -> None:
    papers = corpus(library)
    base = build(papers)
    folded = fold_in(papers[::3], [p.id for p in papers[::3]], base)
    assert folded.terms is base.terms and folded.size == len(papers[::3])
    for i, paper in enumerate(papers[::3]):
        mine, theirs = folded.row(i), base.row(base.rows[paper.id])
        assert np.array_equal(mine[0], theirs[0])
        assert np.allclose(mine[1], theirs[1], rtol=1e-6, atol=0)


def stacked_of(
    papers: list[Paper], made_from: int, changed: dict[int, Paper], now: list[Paper] | None = None
) -> Stacked:
    """The matrix of ``papers[:made_from]`` with, for the papers ``now`` (default: ``papers``
    with ``changed``, by place, given their new text), those it does not hold and those
    changed folded in."""
    base = build(papers[:made_from])
    if now is None:
        now = [changed.get(i, p) for i, p in enumerate(papers)]
    changed_ids = {p.id for p in changed.values()}
    where = {p.id: i for i, p in enumerate(now)}
    base_places = np.array(
        [-1 if i in changed_ids else where.get(i, -1) for i in base.ids], dtype=np.int64
    )
    held = set(base_places.tolist())
    places = np.array([i for i in range(len(now)) if i not in held], dtype=np.int64)
    folded = [now[i] for i in places.tolist()]
    added = fold_in(folded, [p.id for p in folded], base)
    return Stacked(base, added, places, base_places, tuple(p.id for p in now))


def test_stacked_rows_answer_as_one_matrix_of_them(library: Library) -> None:
    papers = corpus(library)
    # paper 5 now has paper 9's abstract: its row before is out of date, its new one counts
    changed = {5: dataclasses.replace(papers[5], abstract=papers[9].abstract)}
    stacked = stacked_of(papers, 40, changed)
    one = plain(stacked)
    rng = np.random.default_rng(3)
    for _ in range(5):
        rows = rng.choice(stacked.size, size=7, replace=False).astype(np.int64)
        rows[0] = 5
        assert np.allclose(stacked.products(rows), one.products(rows))
        local, terms, weights = stacked.entries(rows)
        expected = one.entries(rows)
        assert np.array_equal(local, expected[0]) and np.array_equal(terms, expected[1])
        assert np.allclose(weights, expected[2])
        assert np.array_equal(stacked.filled(rows), one.filled(rows))
        vector = rng.random(len(stacked.terms))
        assert np.allclose(stacked.dot(vector), one.dot(vector))
        weights_given = rng.random(7)
        assert np.allclose(stacked.total(rows, weights_given), one.total(rows, weights_given))
        assert stacked.shared(int(rows[1]), int(rows[2])) == one.shared(int(rows[1]), int(rows[2]))
    given = SimilarityIndex.from_matrix(stacked, papers)
    reference = SimilarityIndex.from_matrix(one, papers)
    for paper in papers:
        assert given.similar(paper.id) == reference.similar(paper.id)
    statuses = {papers[0].id: "starred", papers[44].id: "starred", papers[3].id: "skipped"}
    assert given.suggest(statuses) == reference.suggest(statuses)
    assert given.topics([p.id for p in papers]) == reference.topics([p.id for p in papers])
    # the changed paper's row is its new text's: it is like paper 9 now
    assert not np.array_equal(stacked.row(5)[0], stacked.base.row(5)[0])
    assert papers[9].id in [n.paper_id for n in given.similar(papers[5].id)[:2]]


def test_papers_taken_out_and_moved_are_placed_by_their_ids(library: Library) -> None:
    papers = corpus(library)
    # the library now: papers 3 and 50 taken out, the rest in another order, more added
    now = [p for i, p in enumerate(papers[:60]) if i not in (3, 50)][::-1] + papers[60:]
    stacked = stacked_of(papers, 60, {}, now)
    assert stacked.base_places.tolist().count(-1) == 2 and stacked.places.tolist() == list(
        range(58, 74)
    )
    one = plain(stacked)
    for i, paper in enumerate(now):
        assert stacked.ids[i] == paper.id
        if i < 58:  # its row made before, in its new place
            assert np.array_equal(stacked.row(i)[0], stacked.base.row(papers.index(paper))[0])
    rows = np.arange(stacked.size, dtype=np.int64)
    assert np.allclose(stacked.products(rows), one.products(rows))
    vector = np.random.default_rng(1).random(len(stacked.terms))
    assert np.allclose(stacked.dot(vector), one.dot(vector))
    given, reference = (SimilarityIndex.from_matrix(m, now) for m in (stacked, one))
    for paper in now:
        assert given.similar(paper.id) == reference.similar(paper.id)
        assert papers[3].id not in [n.paper_id for n in given.similar(paper.id, limit=80)]


def test_rows_that_do_not_fit_are_refused(library: Library) -> None:
    papers = corpus(library)
    base = build(papers[:40])
    added = fold_in(papers[40:], [p.id for p in papers[40:]], base)
    places, base_places = np.arange(40, 76), np.arange(40)
    ids = tuple(p.id for p in papers)
    Stacked(base, added, places, base_places, ids)  # fits
    for wrong in (
        (places[1:], base_places),  # as many places as rows
        (places, np.r_[base_places[:-1], 0]),  # paper 0 twice, paper 39 with none
        (places, np.r_[base_places[:-1], -1]),  # paper 39 with none
        (places + 1, base_places),  # a place past the last paper
    ):
        with pytest.raises(ValueError):
            Stacked(base, added, *wrong, ids)


def test_an_added_twin_is_found_both_ways(library: Library) -> None:
    papers = corpus(library)
    index = SimilarityIndex.from_matrix(stacked_of(papers, 38, {}), papers)
    for i in range(38):
        assert index.similar(f"twin{i:04d}")[0].paper_id == papers[i].id
        assert f"twin{i:04d}" in [n.paper_id for n in index.similar(papers[i].id, limit=3)]


def content(n: int) -> FileContent:
    """A made-up ``papers.json`` content: what the derived files are keyed by."""
    return FileContent(1000 + n, f"{n:064x}")


@pytest.fixture
def saved(tmp_path: Path, library: Library) -> tuple[Path, list[Paper]]:
    """A home whose ``similar.index`` is that of the first 40 papers of ``corpus`` (content
    0), and the corpus; any share of a library may be folded in."""
    papers = corpus(library)
    assert save_similarity(tmp_path / SIMILAR_FILE, content(0), SimilarityIndex(papers[:40]))
    return tmp_path, papers


@pytest.fixture(autouse=True)
def _any_share(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(similar_index, "FOLD_SHARE", 1.0)


def test_the_papers_an_import_added_are_read_with_the_matrix_made_before(
    saved: tuple[Path, list[Paper]],
) -> None:
    home, papers = saved
    assert not is_ready(home, content(1))
    assert save_added(home, content(0), content(1), papers, [p.id for p in papers[40:]])
    assert has_added(home, content(1)) and is_ready(home, content(1))
    index = load_ready(home, content(1), papers)
    assert index is not None and isinstance(index.matrix, Stacked)
    expected = SimilarityIndex.from_matrix(stacked_of(papers, 40, {}), papers)
    for paper in papers:
        assert index.similar(paper.id) == expected.similar(paper.id)
    assert load_added(home, content(1), papers[:-1]) is None  # not these papers
    assert load_added(home, content(2), papers) is None  # not this content
    assert not save_similarity(home / "copy.index", content(1), index)  # never saved as one


def test_a_second_import_adds_to_the_first_ones_rows(saved: tuple[Path, list[Paper]]) -> None:
    home, papers = saved
    changed = dataclasses.replace(papers[2], abstract=papers[30].abstract)
    first = [*papers[:2], changed, *papers[3:60]]
    assert save_added(
        home, content(0), content(1), first, [changed.id, *(p.id for p in first[40:])]
    )
    second = [*first, *papers[60:]]
    assert save_added(home, content(1), content(2), second, [p.id for p in papers[60:]])
    index = load_ready(home, content(2), second)
    assert index is not None
    expected = SimilarityIndex.from_matrix(stacked_of(papers, 40, {2: changed}), second)
    for paper in second:
        assert index.similar(paper.id) == expected.similar(paper.id)
    assert index.similar(changed.id)[0].paper_id == papers[30].id


def test_rows_added_after_a_build_that_ended_meanwhile_go_with_that_build(
    saved: tuple[Path, list[Paper]],
) -> None:
    """An import's rows (content 1) whose ``similar.index`` was made again before the next
    import (the build's removal of them raced): the next rows are folded into that one."""
    home, papers = saved
    assert save_added(home, content(0), content(1), papers[:60], [p.id for p in papers[40:60]])
    assert save_similarity(home / SIMILAR_FILE, content(1), SimilarityIndex(papers[:60]))
    assert save_added(home, content(1), content(2), papers, [p.id for p in papers[60:]])
    index = load_ready(home, content(2), papers)
    assert index is not None and isinstance(index.matrix, Stacked)
    assert index.matrix.base.size == 60 and index.matrix.places.tolist() == list(range(60, 76))
    assert (index.matrix.base_places == np.arange(60)).all()


def test_papers_taken_out_need_no_row(saved: tuple[Path, list[Paper]]) -> None:
    home, papers = saved
    now = [p for i, p in enumerate(papers[:40]) if i not in (0, 7)]
    assert save_added(home, content(0), content(1), now, [papers[0].id, papers[7].id])
    index = load_ready(home, content(1), now)
    assert index is not None and isinstance(index.matrix, Stacked)
    assert index.matrix.added.size == 0 and len(index) == 38
    expected = SimilarityIndex.from_matrix(stacked_of(papers, 40, {}, now), now)
    for paper in now:
        assert index.similar(paper.id) == expected.similar(paper.id)
    # and the removal undone: the papers back (changed, for all the change knows) folded in,
    # which gives them the very rows they had
    assert save_added(home, content(1), content(2), papers[:40], [papers[0].id, papers[7].id])
    index = load_ready(home, content(2), papers[:40])
    assert index is not None and isinstance(index.matrix, Stacked)
    assert index.matrix.places.tolist() == [0, 7]
    for row in (0, 7):
        assert np.array_equal(index.matrix.row(row)[0], index.matrix.base.row(row)[0])
        assert np.allclose(index.matrix.row(row)[1], index.matrix.base.row(row)[1], rtol=1e-6)


def test_too_many_added_or_no_matrix_wait_for_the_matrix_made_again(
    saved: tuple[Path, list[Paper]], monkeypatch: pytest.MonkeyPatch
) -> None:
    home, papers = saved
    assert not save_added(home, content(5), content(1), papers, [])  # no matrix of content 5
    monkeypatch.setattr(similar_index, "FOLD_SHARE", 0.25)
    assert not save_added(home, content(0), content(1), papers, [])  # 36 of 76 are new
    assert not save_added(home, content(0), content(1), papers[15:40], [])  # 15 of 40 gone
    assert save_added(home, content(0), content(1), papers[5:40], [])  # 5 of 40 gone
    (home / ADDED_FILE).unlink()
    assert not save_added(home, content(0), content(1), papers[5:40] + papers[40:47], [])
    assert not (home / ADDED_FILE).exists()


def test_the_rows_go_with_the_very_matrix_they_were_folded_into(
    saved: tuple[Path, list[Paper]],
) -> None:
    home, papers = saved
    assert save_added(home, content(0), content(1), papers, [])
    # the matrix made again meanwhile (of other papers, under the same key): not read with it
    assert save_similarity(home / SIMILAR_FILE, content(0), SimilarityIndex(papers[1:41]))
    assert load_added(home, content(1), papers) is None


def import_twins(
    home: Path,
    n: int,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    *,
    first: int = 0,
    share: float = 1.0,
) -> list[str]:
    """Import twins of the ``n`` sample papers from ``first`` into the library in ``home`` as
    into a large library whose ``similar.index`` is made again apart (here: not made), up to
    ``share`` of it folded in; the versions whose builds were started."""
    import storage.cache.refresh as refresh

    monkeypatch.setattr(refresh, "LARGE", 1)
    monkeypatch.setattr(similar_index, "FOLD_SHARE", share)
    started: list[str] = []
    monkeypatch.setattr(
        similar_index, "build_in_background", lambda home, version: started.append(version)
    )
    library = Library(home)
    source = tmp_path / "twins.jsonl"
    source.write_text(
        "".join(
            json.dumps({"title": p.title, "abstract": p.abstract}) + "\n"
            for p in corpus(library)[38 + first : 38 + first + n]
        ),
        encoding="utf-8",
    )
    library.import_file(source)
    return started


def test_an_import_into_a_large_library_leaves_its_added_rows_until_the_build_ends(
    seeded_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    started = import_twins(seeded_home, 3, tmp_path, monkeypatch)  # the search index: a segment
    loaded = Library(seeded_home).loaded_papers()
    version = loaded.content
    assert version is not None and started == [version] and len(loaded) == 41
    index = load_ready(seeded_home, version, loaded.sequence())
    assert index is not None and isinstance(index.matrix, Stacked)
    papers = list(loaded.all())
    for i in range(3):  # each twin finds its paper
        assert index.similar(papers[38 + i].id)[0].paper_id == papers[i].id
    # the build the import started, run: the library's own matrix, the added rows gone
    assert similar_index._build_and_save([str(seeded_home), *map(str, version)]) == 0
    assert not has_added(seeded_home, version) and not (seeded_home / ADDED_FILE).exists()
    made = load_ready(seeded_home, version, Library(seeded_home).loaded_papers().sequence())
    assert made is not None and isinstance(made.matrix, Matrix)


def test_rows_of_a_version_before_go_when_a_change_cannot_add_to_them(
    seeded_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import_twins(seeded_home, 2, tmp_path, monkeypatch)
    assert (seeded_home / ADDED_FILE).exists()
    import_twins(seeded_home, 3, tmp_path, monkeypatch, first=2, share=0.05)  # 5 > 2 of 43
    version = Library(seeded_home).loaded_papers().content
    assert version is not None and not is_ready(seeded_home, version)
    assert not (seeded_home / ADDED_FILE).exists()


def test_a_removal_starts_no_build_unless_its_rows_cannot_answer(
    seeded_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import storage.cache.refresh as refresh

    monkeypatch.setattr(refresh, "LARGE", 1)
    monkeypatch.setattr(similar_index, "FOLD_SHARE", 0.1)
    started: list[FileContent] = []
    monkeypatch.setattr(
        similar_index, "build_in_background", lambda home, version: started.append(version)
    )
    library = Library(seeded_home)
    ids = [p.id for p in library.papers()]
    library.remove(ids[:1])  # 1 of 38: the rows made before answer
    assert started == [] and (seeded_home / ADDED_FILE).exists()
    library.remove(ids[1:10])  # 10 of 38 out in all: the matrix is made again, apart
    version = library.loaded_papers().content
    assert started == [version] and not (seeded_home / ADDED_FILE).exists()


def test_dot_sums_each_row_with_empty_rows_anywhere() -> None:
    # rows 0, 2 and 4 have no term (the last: no entry after it to stand on)
    indptr = np.array([0, 0, 2, 2, 3, 3])
    indices = np.array([0, 2, 1], dtype=np.int32)
    data = np.array([0.5, 0.25, 2.0], dtype=np.float32)
    order = np.argsort(indices, kind="stable")
    matrix = Matrix(
        ids=tuple("abcde"),
        rows={i: n for n, i in enumerate("abcde")},
        indptr=indptr,
        indices=indices,
        data=data,
        post_ptr=np.array([0, 1, 2, 3]),
        post_docs=np.array([1, 3, 1], dtype=np.int32)[order],
        post_data=data[order],
        terms=("x", "y", "z"),
    )
    dense = np.zeros((5, 3))
    dense[1, 0], dense[1, 2], dense[3, 1] = 0.5, 0.25, 2.0
    vector = np.array([1.0, 10.0, 100.0])
    assert matrix.dot(vector).tolist() == (dense @ vector).tolist() == [0, 25.5, 0, 20, 0]


def test_the_nearest_starred_paper_is_found_by_rarer_terms_past_a_budget(
    library: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    import storage.similar.index as similar_module

    papers = corpus(library)
    index = SimilarityIndex(papers)
    starred = {p.id: "starred" for p in papers[:10]}
    exact = index.suggest(starred)
    matrix = index.matrix
    local, terms, _ = matrix.entries(np.array([matrix.rows[i] for i in starred]))
    postings = int(matrix.papers_with(terms).sum())
    monkeypatch.setattr(similar_module, "NEAREST_POSTINGS", postings)  # all of them: exact
    assert index.suggest(starred) == exact
    monkeypatch.setattr(similar_module, "NEAREST_POSTINGS", postings // 4)
    pruned = index.suggest(starred)
    assert pruned != exact  # a quarter of the postings: other scores
    because = {s.paper_id: s.because for s in pruned}
    for i in range(10):  # a starred paper's twin is still nearest to it
        assert because[f"twin{i:04d}"] == papers[i].id


def test_past_the_budget_the_commonest_terms_are_left_out_first(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """X shares eight common words with the starred A, two rare ones with the starred B: all
    terms counted, A is nearest; the common ones left out, B."""
    import storage.similar.index as similar_module

    common = [f"common{c}" for c in "abcdefgh"]  # each in some 40% of the papers
    papers = [
        Paper(
            id=f"f{i:02d}",
            title=f"Filler {i}",
            abstract=" ".join(
                [w for k, w in enumerate(common) if (i + k) % 5 < 2]
                + [f"filler{i}x{j}" for j in range(3)]
                + [f"shared{i % 20}"]
            ),
        )
        for i in range(60)
    ]
    papers += [
        Paper(id="A", title="Common things", abstract=" ".join(common * 2)),
        Paper(id="B", title="Rare things", abstract="zebrafish quokka plus other words here"),
        Paper(id="X", title="Candidate", abstract=" ".join(common) + " zebrafish quokka"),
    ]
    index = SimilarityIndex(papers)
    starred = {"A": "starred", "B": "starred"}
    assert {s.paper_id: s.because for s in index.suggest(starred)}["X"] == "A"
    monkeypatch.setattr(similar_module, "NEAREST_POSTINGS", 10)  # the rare terms alone
    assert {s.paper_id: s.because for s in index.suggest(starred)}["X"] == "B"


def test_topics_of_many_papers_come_from_a_sample_and_take_in_every_paper(
    library: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    import storage.similar.topics as topics

    papers = corpus(library)
    index = SimilarityIndex(papers)
    monkeypatch.setattr(topics, "KMEANS_SAMPLE", 30)  # of 76 papers

    def everyone(*args: object) -> object:
        raise AssertionError("k-means over every paper")

    monkeypatch.setattr(topics, "_kmeans_all", everyone)
    ids = [p.id for p in papers]
    found = index.topics(ids, k=6)
    assert found == index.topics(ids, k=6)  # drawn with the seed: the same every time
    placed = [pid for topic in found for pid in topic.paper_ids]
    assert sorted(placed) == sorted(ids) and len(found) == 6
    topic_of = {pid: n for n, topic in enumerate(found) for pid in topic.paper_ids}
    together = sum(topic_of[p.id] == topic_of[f"twin{i:04d}"] for i, p in enumerate(papers[:38]))
    assert together >= 34  # a paper and its twin, nearly always


@pytest.mark.parametrize(
    "damage",
    [
        lambda b: b[:-10],
        lambda b: b[: len(b) // 2] + bytes([b[len(b) // 2] ^ 1]) + b[len(b) // 2 + 1 :],
        lambda b: b + b"x",
        lambda b: b"",
    ],
    ids=["torn", "flipped", "longer", "empty"],
)
def test_damaged_added_rows_are_not_believed(
    saved: tuple[Path, list[Paper]], damage: Callable[[bytes], bytes]
) -> None:
    """A damaged ``similar.added`` (a disk, a sync tool) gives no answer rather than a wrong
    one: ``papers similar`` then makes the matrix."""
    home, papers = saved
    assert save_added(home, content(0), content(1), papers, [])
    path = home / ADDED_FILE
    path.write_bytes(damage(path.read_bytes()))
    (home / f"{ADDED_FILE}.ok").unlink(missing_ok=True)  # as a copy would: not checked before
    assert load_ready(home, content(1), papers) is None
    made = similarity_for(home, papers, content(1))
    assert isinstance(made.matrix, Matrix) and len(made) == len(papers)


def test_a_fifo_for_the_added_rows_is_never_waited_on(
    saved: tuple[Path, list[Paper]],
) -> None:
    home, papers = saved
    assert save_added(home, content(0), content(1), papers, [])
    path = home / ADDED_FILE
    path.unlink()
    os.mkfifo(path)  # a reader would wait for a writer for ever
    assert not is_ready(home, content(1))
    assert load_ready(home, content(1), papers) is None
