"""An index grown by updates (papers replaced or removed: their slots dead until a rebuild)
scores as a fresh build of its live papers does: BM25's field lengths and the weight of an
author's name count the live papers only."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from storage import Library, Paper
from storage.cache.search_index import INDEX_FILE, load_index, save_index
from storage.search import SearchIndex

_ONE = (" in audio", " in images", " in text", " in video", " in graphs", " online", "", " again")
_TWO = (" with dictionaries", " by pursuit", " by lasso", " at scale", " for denoising")
#: Papers of ordinary length, each its own, that the updates leave alone.
FILLER = [
    Paper(
        id=f"filler{n:02d}",
        title=f"Sparse coding of signals, part {n}",
        abstract=f"We study sparse coding of signals{_ONE[n % 8]}{_TWO[n // 8]}. " * (1 + n % 3),
        authors=("Ada Lovelace", "Alan Turing"),
    )
    for n in range(40)
]
#: A paper whose abstract its updates cut from 2,000 words to 10.
LONG = Paper(
    id="long",
    title="Quokka optimisation at scale",
    abstract="Quokka optimisation meets marsupial data in the wild. " * 250,
    authors=("Grace Hopper",),
)
SHORT = replace(LONG, abstract="Quokka optimisation, said in ten words of an abstract.")


def scores(index: SearchIndex, query: str) -> list[tuple[str, float]]:
    return [(hit.paper_id, hit.score) for hit in index.search(query, limit=None)]


def test_a_replaced_paper_is_scored_against_the_live_papers_lengths() -> None:
    """A paper re-indexed (its old slot dead) was scored against the average field lengths
    of every slot, the dead ones' included: its old 2,000-word abstract made the average
    abstract 64 words, three and a half times its fresh build's 18.5, and the new version's
    words scored as in a shorter abstract than it is. Now the average is the live papers',
    as in a fresh build."""
    updated = SearchIndex([*FILLER, LONG])
    updated.add([replace(SHORT, url="http://127.0.0.1/1")])
    updated.add([SHORT])
    assert len(updated.parts()[0]) == len(FILLER) + 3  # two dead slots
    fresh = SearchIndex([*FILLER, SHORT])
    for query in ("quokka", "marsupial", "abstract", "optimisation scale"):
        assert scores(updated, query) == scores(fresh, query), query


#: Papers about GANs (one), and papers by people named Gan (three) that do not say the word.
TOPIC = Paper(id="gan", title="GAN training made stable", abstract="We train a GAN on images.")
BY_GAN = [
    Paper(
        id=f"wei{n}",
        title=f"Sparse signals {n}",
        abstract="Coding of sparse signals with learned dictionaries.",
        authors=("Wei Gan", "Ada Lovelace"),
    )
    for n in range(3)
]


def test_a_name_weighs_against_the_live_papers_that_say_it() -> None:
    """A word the papers say as a topic (``gan``) weighs less in an author's name, told by the
    postings of the word in names alone against those elsewhere: a replaced paper's dead
    postings were counted, so a paper saying GAN, replaced twice, counted three times, and
    the papers by Wei Gan scored a quarter of what a fresh build gives them."""
    updated = SearchIndex([*FILLER, TOPIC, *BY_GAN])
    updated.add([replace(TOPIC, url="http://127.0.0.1/1")])
    updated.add([replace(TOPIC, url="http://127.0.0.1/2")])
    fresh = SearchIndex([*FILLER, replace(TOPIC, url="http://127.0.0.1/2"), *BY_GAN])
    by_gan = [hit for hit in scores(fresh, "gan") if hit[0] != TOPIC.id]
    assert [pid for pid, _ in by_gan] == [p.id for p in BY_GAN]
    assert [hit for hit in scores(updated, "gan") if hit[0] != TOPIC.id] == by_gan


def test_a_saved_index_updated_scores_its_new_papers_as_a_fresh_build(tmp_path: Path) -> None:
    """So with the index saved beside a library: an import that replaces a paper and a removal
    leave dead slots in it, and a paper indexed after them is scored against the live papers'
    lengths, the lengths of the saved slots read back from the file. (A paper indexed before
    the removal keeps the scores of its time, the removed paper's lengths in them, until a
    rebuild, as every segment does.)"""
    library = Library(tmp_path / "home")
    source = tmp_path / "list.jsonl"
    source.write_text("\n".join(_row(p) for p in [*FILLER, LONG]), encoding="utf-8")
    library.import_file(source)
    loaded = library.loaded_papers()
    assert loaded.content is not None
    path = library.home / INDEX_FILE
    assert save_index(path, loaded.content, SearchIndex(list(loaded.all())))
    moved = replace(LONG, url="http://127.0.0.1/quokka")  # its 2,000 words in two slots
    source.write_text("\n".join(_row(p) for p in [*FILLER, moved]), encoding="utf-8")
    report = library.import_file(source)
    assert report.updated == 1, report.summary()
    library.remove([library.papers()[0].id])
    added = tmp_path / "more.jsonl"
    added.write_text(_row(replace(TOPIC, abstract="Quokka optimisation, a GAN of marsupials.")))
    library.import_file(added)
    loaded = library.loaded_papers()
    assert loaded.content is not None
    papers = list(loaded.all())
    index = load_index(path, loaded.content, papers)
    assert index is not None and len(index.parts()[0]) > len(papers)  # dead slots
    fresh = SearchIndex(papers)
    (newest,) = (p.id for p in papers if "GAN" in p.abstract)  # indexed after both
    for query in ("quokka", "marsupials", "optimisation", "gan"):
        mine = [hit for hit in scores(index, query) if hit[0] == newest]
        assert mine and mine == [hit for hit in scores(fresh, query) if hit[0] == newest], query


def _row(paper: Paper) -> str:
    import json

    fields = ("title", "abstract", "authors", "url")
    return json.dumps({name: getattr(paper, name) for name in fields})
