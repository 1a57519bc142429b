"""The neighbour-word signatures (``storage.search.pairs``): a phrase's check reads the text of
a paper only when its signature has the phrase's pairs of words, and the papers found are
those the text says."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from benchmarks.corpus import load_real_papers
from storage import Library
from storage.cache.search_index import index_for
from storage.models import Paper
from storage.search import SearchIndex, filters
from storage.search.pairs import may_have
from storage.search.text import WORD, folded
from tests.conftest import REAL_LIST


@pytest.fixture
def texts_checked(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """How many papers' texts a phrase was looked for in (the real check, counted)."""
    checked = [0]
    check = filters._paper_has

    def counted(paper: object, phrase: filters.Phrase, bits: int) -> bool:
        checked[0] += 1
        return check(paper, phrase, bits)  # type: ignore[arg-type]

    monkeypatch.setattr(filters, "_paper_has", counted)
    yield checked


def library_of(home: Path, count: int) -> Library:
    """``count`` papers: one in ten says "in context" and "attention is all", one in ten
    "in-context", the others "in", "context", "attention" and "is" apart (as most abstracts
    have such words)."""
    rng = random.Random(3)
    source = home.parent / f"{home.name}.jsonl"
    with source.open("w", encoding="utf-8") as handle:
        for n in range(count):
            filler = " ".join(rng.choice(("graph", "noise", "video")) for _ in range(20))
            if n % 10 == 0:
                said = "we learn in context; attention is all we use"
            elif n % 10 == 1:
                said = "in-context learning matters; attention to noise is low"
            else:
                said = "context matters in practice; attention to noise is low"
            record = {
                "title": f"Study {n}",
                "abstract": f"{filler} {said} {filler}.",
                "authors": [f"Ada Number{n}"],
            }
            handle.write(json.dumps(record) + "\n")
    Library(home).import_file(source)
    return Library(home)


def test_a_phrase_reads_only_the_papers_whose_neighbour_words_may_say_it(
    tmp_path: Path, texts_checked: list[int]
) -> None:
    """``papers search 'transformer "attention is"'`` read 1,650 texts to find 20 at 100,000
    papers (0.17 s of its 0.48), and ``in-context`` typed in the app 12,674 (0.33 s) to find
    the 213 whose abstract says "in context": most papers with the words have them apart.
    A paper whose signature lacks the phrase's pairs is now not read."""
    library = library_of(tmp_path / "home", 1_000)
    loaded = library.loaded_papers()
    index = index_for(library.home, loaded.sequence(), loaded.content)
    papers = Library(library.home).loaded_papers().all()
    saying = {p.id for p in papers if "attention is" in p.abstract}
    assert len(saying) == 100
    found = index.rank('"attention is"', limit=None)
    assert set(found.ids) == saying
    assert texts_checked[0] < 200, texts_checked  # (1,000 before: every paper with the words)
    texts_checked[0] = 0
    found = index.rank("in-context", limit=None)
    assert set(found.ids) == {p.id for p in papers if "in context" in p.abstract.replace("-", " ")}
    assert texts_checked[0] < 200, texts_checked
    index.clear_caches()  # asked again, of the 20 best: from the text
    texts_checked[0] = 0
    best = index.rank('"attention is" study', limit=20).ids
    assert len(best) == 20 and set(best) <= saying
    assert texts_checked[0] < 60, texts_checked  # (200 before)


HOSTILE = [
    Paper(
        id="a" * 12,
        title="$\\tau$-Bench: Agents {in} the Wild — a Study",
        abstract="We use $\\ell_2$ loss, e.g. for M\\\"uller's τ-bench; state–of–the–art "
        "results (in context) and ParaSolver outputs.\x01marked",
        authors=("Jørgen Stender\u00a0Clausen", "Ana Diaz"),
        keywords=("graph neural networks", "in-context learning"),
        name="ParaSolver",
    ),
    Paper(id="b" * 12, title="Ünïcode Σ and 中文 words", abstract="α-β pruning → fast; x_1 y_2"),
]


def pairs_of(text: str) -> list[tuple[str, str]]:
    words = WORD.findall(folded(text))
    return list(zip(words, words[1:], strict=False))


def assert_every_pair_kept(index: SearchIndex, papers: list[Paper], each: bool = True) -> None:
    """Every two words in a row in a text that a phrase check reads are in the paper's
    signature: no paper that has a phrase is passed by."""
    _, vocabulary, postings = index.parts()
    slot_of = {pid: slot for slot, pid in enumerate(index.parts()[0].ids.tolist())}
    for paper in papers:
        texts = [paper.title, paper.abstract, " ".join(paper.keywords), "; ".join(paper.authors)]
        texts.append(paper.name)
        pairs = [
            (vocabulary.ids[a], vocabulary.ids[b]) for text in texts for a, b in pairs_of(text)
        ]
        signature = postings.signatures(np.array([slot_of[paper.id]]))
        assert may_have(signature, pairs)[0], paper.title
        for pair in pairs if each else ():
            assert may_have(signature, [pair])[0], (paper.title, pair)


def test_every_pair_of_neighbour_words_is_kept_in_hostile_texts() -> None:
    index = SearchIndex(HOSTILE)
    assert_every_pair_kept(index, HOSTILE)
    grown = SearchIndex(HOSTILE[1:])  # a paper added later: a segment of its own
    grown.add(HOSTILE[:1])
    assert_every_pair_kept(grown, HOSTILE)
    assert [h.paper_id for h in grown.search('"agents in the wild"')] == ["a" * 12]
    assert [h.paper_id for h in index.search('"agents in the wild"')] == ["a" * 12]
    assert [h.paper_id for h in index.search('"neural networks in context"')] == ["a" * 12]
    assert [h.paper_id for h in index.search('"alpha beta pruning"')] == ["b" * 12]


@pytest.mark.skipif(not REAL_LIST.is_file(), reason="the real list is absent")
def test_every_pair_of_neighbour_words_of_the_real_list_is_kept() -> None:
    papers = load_real_papers(REAL_LIST.parent)
    assert papers is not None
    assert_every_pair_kept(SearchIndex(papers), papers, each=False)
