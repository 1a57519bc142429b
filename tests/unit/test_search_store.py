"""The search index on disk: the same answers as a fresh build, and never a stale or damaged one."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

import pytest

import storage.cache.search_index as search_index
from benchmarks.corpus import load_real_papers, relevance_queries
from storage import Library, Paper
from storage.cache.search_index import (
    FORMAT,
    INDEX_FILE,
    UPDATE_FILE,
    build_elsewhere,
    index_for,
    load_index,
    save_index,
)
from storage.files.atomic import FileContent, file_content
from storage.search import SearchIndex

#: Queries that reach every part of the ranking: typos, prefixes, compounds, phrases,
#: exclusions, qualifiers, an author's name, filters alone.
QUERIES = (
    "diffusion",
    "difusion sampler",
    "transf",
    "graph neural",
    "state-space model",
    '"language model"',
    '"language mod',
    "-graph learning",
    'reinforcement -"policy gradient"',
    "has:code",
    "status:oral vision",
    "author:bengio",
    'author:"yoshua bengio"',
    "list:iclr attention",
    "is:starred",
    "-is:inbox",
    "tag:toread",
    "zzzzqqq",
    "a",
)


def answers(
    index: SearchIndex, statuses: dict[str, str], tags: dict[str, tuple[str, ...]]
) -> list[object]:
    """Every query's ids, scores, matched words and fields: all that a search says."""
    found = []
    for query in QUERIES:
        for limit in (5, None):
            hits = index.search(query, limit=limit, statuses=statuses, tags=tags)
            found.append([(h.paper_id, h.score, h.matched, dict(h.fields)) for h in hits])
    return found


@pytest.fixture
def library(seeded_home: Path) -> Library:
    return Library(seeded_home)


def versioned(library: Library) -> tuple[list[Paper], FileContent]:
    """The papers and the content of the papers.json they are (what derived files name)."""
    loaded = library.loaded_papers()
    assert loaded.content is not None
    return list(loaded.all()), loaded.content


def saved(library: Library) -> tuple[list[Paper], FileContent, Path]:
    papers, sig = versioned(library)
    path = library.home / INDEX_FILE
    assert save_index(path, sig, SearchIndex(papers))
    return papers, sig, path


def test_a_loaded_index_answers_as_a_fresh_build(library: Library) -> None:
    papers, sig, path = saved(library)
    statuses = {papers[0].id: "starred", papers[3].id: "read"}
    tags = {papers[1].id: ("toread",)}
    expected = answers(SearchIndex(papers), statuses, tags)
    assert any(expected) and all(any(a) for a in expected[:8])
    loaded = load_index(path, sig, papers)
    assert loaded is not None
    assert answers(loaded, statuses, tags) == expected
    lazy = load_index(path, sig, Library(library.home).loaded_papers().sequence())
    assert lazy is not None
    assert answers(lazy, statuses, tags) == expected
    assert lazy.papers() == papers and lazy.paper(papers[9].id) == papers[9]


def test_real_list_rankings_are_those_of_a_fresh_build(tmp_path: Path) -> None:
    papers = load_real_papers()
    if papers is None:
        pytest.skip("the real list is absent")
    sig = FileContent(2, "0" * 64)
    fresh = SearchIndex(papers)
    assert save_index(tmp_path / INDEX_FILE, sig, fresh)
    loaded = load_index(tmp_path / INDEX_FILE, sig, papers)
    assert loaded is not None
    for query in relevance_queries(papers, seed=0)[:150]:
        want = fresh.rank(query.text, limit=20)
        got = loaded.rank(query.text, limit=20)
        assert got.ids == want.ids and list(got._scores) == list(want._scores), query.text


def test_a_loaded_index_grows_like_a_built_one(library: Library, tmp_path: Path) -> None:
    papers, sig, path = saved(library)
    lazy = load_index(path, sig, Library(library.home).loaded_papers().sequence())
    assert lazy is not None
    extra = Paper("feedbeef0001", "Quokka: a marsupial optimiser", "We optimise quokkas well.")
    changed = Paper(papers[4].id, "Renamed wombat method", papers[4].abstract)
    built = SearchIndex(papers)
    for index in (lazy, built):
        index.add([extra, changed])
    assert answers(lazy, {}, {}) == answers(built, {}, {})
    assert lazy.search("quokka")[0].paper_id == extra.id
    assert not save_index(path, sig, lazy)  # grown: slots are no longer places in the list
    assert load_index(path, sig, papers) is not None  # the saved one is still there


def test_the_index_of_another_version_or_other_papers_is_not_used(library: Library) -> None:
    papers, sig, path = saved(library)
    assert load_index(path, FileContent(sig.size + 1, sig.sha256), papers) is None
    assert load_index(path, sig, papers[1:]) is None
    assert load_index(path, sig, [*papers[1:], papers[0]]) is None


def test_an_index_of_another_format_is_not_used(
    library: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    papers, sig, path = saved(library)
    monkeypatch.setattr(search_index, "FORMAT", search_index.FORMAT + 1)
    assert load_index(path, sig, papers) is None


@pytest.mark.parametrize(
    "damage",
    [
        lambda b: b[:-100],  # torn
        lambda b: b[: len(b) // 2],
        lambda b: b"",
        lambda b: b[:40],
        lambda b: b.replace(b"index %d " % FORMAT, b"index %d " % (FORMAT + 1), 1),  # newer
        lambda b: b[:300] + bytes([b[300] ^ 0xFF]) + b[301:],  # the header or the arrays
        lambda b: b[:-300] + bytes([b[-300] ^ 0xFF]) + b[-299:],  # the Python parts
        lambda b: b + b"\0",
    ],
    ids=["torn", "half", "empty", "head only", "newer", "flip early", "flip late", "longer"],
)
def test_a_damaged_index_is_ignored_and_made_again(
    library: Library, damage: Callable[[bytes], bytes]
) -> None:
    papers, sig, path = saved(library)
    good = path.read_bytes()
    path.write_bytes(damage(good))
    assert load_index(path, sig, papers) is None
    index = index_for(library.home, papers, sig)  # builds and saves it again
    assert index.search("diffusion") == SearchIndex(papers).search("diffusion")
    assert path.read_bytes() == good
    assert load_index(path, sig, papers) is not None


def test_the_papers_of_hits_come_in_their_order_from_a_loaded_index(library: Library) -> None:
    loaded = library.loaded_papers()
    papers, sig = loaded.sequence(), loaded.content
    index_for(library.home, papers, sig)  # built and saved
    again = Library(library.home).loaded_papers()  # the next command: the index loaded
    index = index_for(library.home, again.sequence(), sig)
    ids = [hit.paper_id for hit in index.search("model", limit=50)]
    assert len(ids) > 5
    wanted = [*reversed(ids), "no-such-id", ids[0]]
    assert index.papers_of(wanted) == [index.paper(i) for i in wanted if i != "no-such-id"]
    assert [p.id for p in index.papers_of(wanted)] == [i for i in wanted if i != "no-such-id"]
    assert index.papers() == library.papers()


def test_index_for_builds_once_then_loads(library: Library) -> None:
    papers, sig = versioned(library)
    path = library.home / INDEX_FILE
    assert load_index(path, sig, papers) is not None  # the import made it
    path.unlink()
    first = index_for(library.home, papers, sig)
    made = path.stat().st_mtime_ns
    second = index_for(library.home, papers, sig)
    assert path.stat().st_mtime_ns == made
    assert second.search("graph") == first.search("graph")


def test_an_import_brings_the_saved_index_along(library: Library, tmp_path: Path) -> None:
    """The import updates the index it finds (its papers as a new segment) and saves it for
    the new papers.json: the next search loads it. The update is saved apart: search.index
    is not written again."""
    papers, sig, path = saved(library)
    written = path.stat()
    library.import_file(more_papers(tmp_path, "quokka"))
    new_papers, new_sig = versioned(library)
    assert new_sig != sig
    assert (path.stat().st_ino, path.stat().st_mtime_ns) == (written.st_ino, written.st_mtime_ns)
    assert (library.home / UPDATE_FILE).is_file()
    assert load_index(path, sig, papers) is not None  # what search.index alone holds
    updated = load_index(path, new_sig, new_papers)
    assert updated is not None and len(updated.parts()[2].segments) == 2
    assert [h.paper_id for h in updated.search("quokka")] == [new_papers[-1].id]
    fresh = SearchIndex(new_papers)
    for query in ("graph neural", "diffusion", "author:bengio"):
        assert {h.paper_id for h in updated.search(query, limit=None)} == {
            h.paper_id for h in fresh.search(query, limit=None)
        }


def statistics(index: SearchIndex) -> tuple[dict[str, int], int]:
    """The papers that have each word (those that some paper has), and the papers counted."""
    vocabulary = index.parts()[1]
    df = dict(zip(vocabulary.terms, vocabulary.df.tolist(), strict=True))
    return {word: n for word, n in df.items() if n}, vocabulary.live_papers


def test_the_statistics_count_the_live_papers_only(library: Library, tmp_path: Path) -> None:
    """A paper removed or replaced keeps its slot in the saved index until it is built anew,
    and its words counted in the document frequencies (the idf, and whether a rare word is a
    slip of a common one), and a removal left the papers the idf counts as they were. Both
    now count the live papers only, as a fresh build of them does: after an import that
    replaces a paper, after a removal, and once the index is loaded again."""
    papers, sig, path = saved(library)
    library.import_file(more_papers(tmp_path, "quokka", 3))
    first = library.papers()[0]
    library.remove([first.id])
    new_papers, new_sig = versioned(library)
    updated = load_index(path, new_sig, new_papers)
    assert updated is not None and len(updated.parts()[0]) > len(new_papers)  # dead slots
    assert statistics(updated) == statistics(SearchIndex(new_papers))
    grown = SearchIndex(new_papers)
    changed = Paper(**{**vars_of(new_papers[0]), "abstract": "A quokka study, rewritten."})
    grown.add([changed])
    assert statistics(grown) == statistics(SearchIndex([changed, *new_papers[1:]]))


def vars_of(p: Paper) -> dict[str, object]:
    return {f: getattr(p, f) for f in p.__dataclass_fields__}


def more_papers(folder: Path, word: str, count: int = 1) -> Path:
    """A list of ``count`` new papers about ``word``."""
    extra = folder / f"more-{word}.txt"
    extra.write_text(
        "More papers\n"
        + "".join(
            f"\nWe study {word} optimisation number {n} in depth and propose a method that "
            "solves it well; experiments on many benchmarks show large gains over baselines.\n"
            for n in range(count)
        ),
        encoding="utf-8",
    )
    return extra


def test_updates_pile_up_beside_the_index_until_a_build(library: Library, tmp_path: Path) -> None:
    """Each update is saved apart with every segment since search.index: two imports, then a
    build (the saved index gone) writes search.index whole and removes the update."""
    papers, sig, path = saved(library)
    library.import_file(more_papers(tmp_path, "quokka"))
    library.import_file(more_papers(tmp_path, "wombat"))
    new_papers, new_sig = versioned(library)
    updated = load_index(path, new_sig, new_papers)
    assert updated is not None and len(updated.parts()[2].segments) == 3
    assert load_index(path, sig, papers) is not None  # search.index itself: as it was
    fresh = SearchIndex(new_papers)
    for query in ("quokka", "wombat optimisation", "graph neural", "author:bengio"):
        assert [h.paper_id for h in updated.search(query, limit=None)] == [
            h.paper_id for h in fresh.search(query, limit=None)
        ]
    path.unlink()
    rebuilt = index_for(library.home, new_papers, new_sig)
    assert rebuilt.search("quokka")
    assert not (library.home / UPDATE_FILE).exists()
    assert not (library.home / f"{UPDATE_FILE}.ok").exists()
    assert load_index(path, new_sig, new_papers) is not None


def test_an_update_goes_with_its_own_index_file_only(library: Library, tmp_path: Path) -> None:
    """An update names the search.index it was made from: beside another one (that version
    built again, or a copy of another HOME's), damaged, or cut short, it is not read and the
    search builds the index anew."""
    papers, sig, path = saved(library)
    library.import_file(more_papers(tmp_path, "quokka"))
    new_papers, new_sig = versioned(library)
    update = library.home / UPDATE_FILE
    kept = update.read_bytes()
    assert load_index(path, new_sig, new_papers) is not None
    assert save_index(path, sig, SearchIndex(papers))  # built again: removes the update
    assert not update.exists()
    update.write_bytes(kept)
    assert load_index(path, new_sig, new_papers) is not None  # the same search.index again
    other = [*papers[1:], papers[0]]  # another order: another index of the same key
    assert save_index(path, sig, SearchIndex(other))
    update.write_bytes(kept)
    assert load_index(path, new_sig, new_papers) is None
    assert save_index(path, sig, SearchIndex(papers))
    for damaged in (kept[: len(kept) // 2], kept[:-9] + bytes(9), b""):
        update.write_bytes(damaged)
        assert load_index(path, new_sig, new_papers) is None
    index = index_for(library.home, new_papers, new_sig)  # built, and saved whole
    assert [h.paper_id for h in index.search("quokka")] == [new_papers[-1].id]
    assert load_index(path, new_sig, new_papers) is not None and not update.exists()


def test_a_folder_where_the_update_goes_leaves_a_whole_index(
    library: Library, tmp_path: Path
) -> None:
    """search.update that cannot be written (a folder in its place): the import saves the
    index whole instead, and the next search loads it."""
    saved(library)
    (library.home / UPDATE_FILE).mkdir()
    library.import_file(more_papers(tmp_path, "quokka"))
    new_papers, new_sig = versioned(library)
    index = load_index(library.home / INDEX_FILE, new_sig, new_papers)
    assert index is not None
    assert [h.paper_id for h in index.search("quokka")] == [new_papers[-1].id]
    assert (library.home / UPDATE_FILE).is_dir()  # left as it was


def test_an_update_larger_than_the_index_is_saved_whole(library: Library, tmp_path: Path) -> None:
    """Segments added since search.index that outweigh its own: the updated index is saved
    whole (one file again) rather than kept beside a smaller one."""
    small = library.home.parent / "small"
    lib = Library(small)
    lib.import_file(more_papers(tmp_path, "quokka", 3))
    assert (small / INDEX_FILE).is_file()
    first = (small / INDEX_FILE).stat().st_ino
    lib.import_file(more_papers(tmp_path, "wombat", 2))  # smaller: beside it
    assert (small / UPDATE_FILE).is_file() and (small / INDEX_FILE).stat().st_ino == first
    lib.import_file(more_papers(tmp_path, "platypus", 4))  # 6 new against 3: saved whole
    assert not (small / UPDATE_FILE).exists() and (small / INDEX_FILE).stat().st_ino != first
    papers, sig = versioned(lib)
    index = load_index(small / INDEX_FILE, sig, papers)
    assert index is not None and len(index) == 9
    assert len(index.parts()[2].segments) == 3  # updated, then saved: not built anew


def test_no_index_where_it_cannot_be_written(library: Library) -> None:
    papers, sig = versioned(library)
    path = library.home / INDEX_FILE
    path.unlink()
    path.mkdir()  # a folder in its place: writing it fails
    assert not save_index(path, sig, SearchIndex(papers))
    assert index_for(library.home, papers, sig).search("graph")  # built, just not saved
    assert not list(library.home.glob(f".{INDEX_FILE}*"))  # no temporary file left


def test_temporaries_of_killed_writers_are_swept(library: Library) -> None:
    old = library.home / f".{INDEX_FILE}.dead.tmp"
    fresh = library.home / f".{INDEX_FILE}.busy.tmp"
    for leftover in (old, fresh):
        leftover.write_bytes(b"half an index")
    os.utime(old, (time.time() - 3600, time.time() - 3600))
    saved(library)
    assert not old.exists()
    assert fresh.exists()  # may be another process writing right now


def test_an_empty_library_saves_no_index(tmp_path: Path) -> None:
    """Nothing to save (an empty index costs nothing to build), and nothing goes wrong."""
    sig = FileContent(2, "0" * 64)
    assert not save_index(tmp_path / INDEX_FILE, sig, SearchIndex([]))
    assert index_for(tmp_path, [], sig).search("anything") == []
    assert not (tmp_path / INDEX_FILE).exists()


def test_the_key_is_the_content_of_papers_json(library: Library) -> None:
    """What the CLI and the app key the index by is the content they read the papers from."""
    papers, content = versioned(library)
    found = file_content(library.papers_path)
    assert found is not None and content == found[1]


def test_a_child_process_builds_and_saves_the_index(library: Library) -> None:
    papers, sig = versioned(library)
    assert build_elsewhere(library.home, sig)
    loaded = load_index(library.home / INDEX_FILE, sig, papers)
    assert loaded is not None
    assert answers(loaded, {}, {}) == answers(SearchIndex(papers), {}, {})


def test_a_child_process_builds_nothing_for_another_version(library: Library) -> None:
    _, sig = versioned(library)
    (library.home / INDEX_FILE).unlink()
    assert not build_elsewhere(library.home, FileContent(sig.size, "f" * 64))
    assert not build_elsewhere(library.home, sig, cancelled=lambda: True)
    assert not (library.home / INDEX_FILE).exists()


def test_a_body_checked_once_is_checked_again_once_changed(library: Library) -> None:
    """The writer records the stamp of the body it wrote (``search.index.ok``): loads skip the
    body's checksum while the file keeps it; a byte changed in place, its time put back,
    still changes the stamp (the change time), and the damage is found."""
    papers, sig, path = saved(library)
    ok = path.with_name(path.name + ".ok")
    assert ok.exists()
    assert load_index(path, sig, papers) is not None
    st = path.stat()
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF  # in the postings: only the body's checksum sees it
    with path.open("r+b") as handle:
        handle.write(bytes(data))
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert load_index(path, sig, papers) is None
