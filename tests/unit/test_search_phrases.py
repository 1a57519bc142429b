"""Quoted phrases: the papers found are those the check of each paper's text finds, read as
little as can be (only the fields whose postings hold every word; from ``papers.cache``, each
chunk's text columns once, never its links or facts)."""

from __future__ import annotations

import hashlib
import json
import random
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from benchmarks.corpus import load_real_papers
from storage import Library
from storage.cache.papers_cache import PapersCacheReader
from storage.cache.search_index import index_for
from storage.search import SearchIndex
from tests.conftest import REAL_LIST

#: What the phrase queries found before the check read texts in blocks (each query's papers
#: with ``limit=None``: how many, and a digest of their ids in order; its first 20 with
#: ``limit=20``), on the real list: realistic phrases, open ones, phrases beside words, in
#: ``OR`` groups, excluded, in ``title:``/``abstract:``, and hostile ones (empty quotes, a quote
#: left open or misplaced, markup and LaTeX inside the quotes).
PINNED = Path(__file__).resolve().parents[1] / "fixtures" / "phrases" / "real_list_results.json"
#: The fields a phrase is looked for in, as the cache stores them.
TEXT_COLUMNS = {"title", "abstract", "keywords", "authors", "name"}

real_list = pytest.mark.skipif(not REAL_LIST.is_file(), reason="the real list is absent")


def digest(ids: list[str]) -> str:
    return hashlib.sha256("\n".join(ids).encode()).hexdigest()


@real_list
def test_phrase_searches_on_the_real_list_find_what_they_found() -> None:
    papers = load_real_papers(REAL_LIST.parent)
    assert papers is not None
    index = SearchIndex(papers)
    pinned = json.loads(PINNED.read_text(encoding="utf-8"))
    assert len(pinned) >= 40
    for query, want in pinned.items():
        every = index.rank(query, limit=None).ids
        assert (len(every), digest(every)) == (want["count"], want["sha256"]), query
        assert index.rank(query, limit=20).ids == want["first_20"], query


@pytest.fixture
def column_reads(monkeypatch: pytest.MonkeyPatch) -> Iterator[Counter[tuple[str, int]]]:
    """Each (field, chunk) of ``papers.cache`` read, and how many times (the real reader's
    reads, counted)."""
    reads: Counter[tuple[str, int]] = Counter()
    column = PapersCacheReader.column

    def counted(self: PapersCacheReader, field: str, chunk: int) -> list[object]:
        reads[field, chunk] += 1
        return column(self, field, chunk)

    monkeypatch.setattr(PapersCacheReader, "column", counted)
    yield reads


def scattered_library(home: Path, count: int) -> Library:
    """A library of ``count`` papers (more chunks of ``papers.cache`` than are kept decoded)
    in which a third say "flow matching", a third "flow" and "matching" apart, the rest
    neither: abstracts of random lengths, so that the best papers lie all over the list."""
    rng = random.Random(7)
    source = home.parent / f"{home.name}.jsonl"
    with source.open("w", encoding="utf-8") as handle:
        for n in range(count):
            filler = " ".join(
                rng.choice(("graph", "sampling", "noise", "video"))
                for _ in range(rng.randint(5, 80))
            )
            said = ("we use flow matching here", "the flow of matching pairs", "nothing")[n % 3]
            record = {
                "title": f"Study number {n} of {said.split()[-1]}",
                "abstract": f"{filler} {said}.",
                "authors": [f"Ada Number{n}"],
                "github": [f"https://github.com/a/b{n}"],
            }
            handle.write(json.dumps(record) + "\n")
    Library(home).import_file(source)
    return Library(home)  # as a command opens it: its papers read from papers.cache


def test_a_phrase_over_a_whole_large_library_reads_each_text_column_once(
    tmp_path: Path, column_reads: Counter[tuple[str, int]]
) -> None:
    """One read of each chunk per paper checked, a chunk of 256 decoded whole each time, took
    ``papers search --limit 100000 '"language model"'`` 20 s at 100,000 papers."""
    library = scattered_library(tmp_path / "home", 9_000)
    loaded = library.loaded_papers()
    index = index_for(library.home, loaded.sequence(), loaded.content)
    column_reads.clear()
    found = index.rank('"flow matching"', limit=None)
    assert column_reads and max(column_reads.values()) == 1, column_reads.most_common(3)
    assert {field for field, _ in column_reads} <= TEXT_COLUMNS
    # the papers that say it, in the order of the papers in memory
    papers = Library(library.home).loaded_papers().all()
    saying = {p.id for p in papers if "flow matching" in p.abstract}
    assert len(saying) > 2_900 and set(found.ids) == saying
    assert found.ids == SearchIndex(papers).rank('"flow matching"', limit=None).ids
    index.clear_caches()  # the phrase's answers asked again: from the text
    column_reads.clear()
    assert len(index.rank('"flow matching" study', limit=20)) == 20
    assert column_reads and max(column_reads.values()) == 1
    assert {field for field, _ in column_reads} <= TEXT_COLUMNS


def test_a_phrase_whose_words_are_in_no_field_together_reads_no_text(
    tmp_path: Path, column_reads: Counter[tuple[str, int]]
) -> None:
    """ "number matching": "number" is in every title, "matching" in abstracts only."""
    library = scattered_library(tmp_path / "home", 600)
    loaded = library.loaded_papers()
    index = index_for(library.home, loaded.sequence(), loaded.content)
    column_reads.clear()
    assert index.rank('"study number"', limit=None).ids  # in titles: read
    assert set(f for f, _ in column_reads) == {"title"}
    column_reads.clear()
    assert not index.rank('"number matching"', limit=None).ids
    assert not column_reads


@real_list
def test_a_library_read_from_its_cache_finds_the_phrases_of_the_papers_in_memory(
    tmp_path: Path,
) -> None:
    library = Library(tmp_path / "home")
    library.import_file(REAL_LIST)
    loaded = library.loaded_papers()
    from_cache = index_for(library.home, loaded.sequence(), loaded.content)
    in_memory = SearchIndex(Library(library.home).loaded_papers().all())
    for query in json.loads(PINNED.read_text(encoding="utf-8")):
        for limit in (None, 20, 3):
            got = from_cache.rank(query, limit=limit).ids
            assert got == in_memory.rank(query, limit=limit).ids, (query, limit)
