"""The shortcuts the index builds take (``storage.paper_words``, ``storage.search.build``,
``storage.similar.matrix``) answer what the longer ways they replace answered: the same words,
keys and counts, so that an index built with them is the one built before them, byte for byte
(``test_the_indexes_of_a_fixed_corpus_are_those_built_before``)."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

import storage.search.build as build
import storage.similar.matrix as matrix
from storage.arrays import ranges
from storage.paper_words import (
    ABSTRACT,
    TEXTS,
    TITLE,
    RawWords,
    SimilarityWords,
    title_and_abstract_words,
)
from storage.search import SearchIndex
from storage.search.text import MARK
from tests.unit.test_builds_in_two_processes import papers, parts


def _numbering() -> tuple[RawWords, dict[bytes, int]]:
    ids: dict[bytes, int] = {MARK: -1}

    def index_word(word: bytes) -> int:
        return ids.setdefault(word, len(ids) - 1)

    return RawWords(index_word), ids


def _spread(raw: RawWords, numbers: np.ndarray) -> np.ndarray:
    """The index words of raw words as ``index_words`` found them before its shortcut."""
    starts = np.frombuffer(raw._part_start, dtype=np.int64)[numbers]
    counts = np.frombuffer(raw._part_count, dtype=np.int64)[numbers]
    return np.frombuffer(raw._parts, dtype=np.int64)[ranges(starts, counts)]


@pytest.mark.parametrize(
    "chunks",
    [
        [[b"model", b"e\x03g\x03", b"\x03", b"model\x03", MARK]],  # several parts, and none
        [[b"a", b"b", MARK], [b"\x03", b"\x03"], [b"x\x03y\x03z", b"a", MARK, b"\x03"]],
        [[b"one", b"two", MARK] * 3, [b"two", b"three", MARK]],  # one part each: no spreading
        [[b"\x03"], [b"new\x03word", b"\x03"]],  # a chunk of no index word at all
    ],
)
def test_index_words_spread_raw_words_of_several_parts_or_none_as_before(
    chunks: list[list[bytes]],
) -> None:
    raw, _ids = _numbering()
    for words in chunks:  # raw words met chunk by chunk: their parts are known as they come
        distinct = list(dict.fromkeys(words))
        places = np.array([distinct.index(w) for w in words], dtype=np.int32)
        numbers = raw.number((distinct, places.tobytes()))
        found = raw.index_words(numbers)
        assert found.dtype == np.int64
        assert found.tolist() == _spread(raw, numbers).tolist()


def test_the_similarity_keeps_the_titles_and_abstracts_of_a_chunk() -> None:
    texts = [("A title", "An abstract, e.g. this."), ("", ""), ("Title alone", ""), ("", "x y")]
    raw = RawWords()
    words = SimilarityWords(raw)
    numbers = raw.number(title_and_abstract_words(texts))
    words.add(numbers)
    marks = numbers == 0
    text = (np.cumsum(marks) - marks) % TEXTS  # what ``add`` kept before its shortcut
    kept = numbers[(text == TITLE) | (text == ABSTRACT)]
    assert [raw.words[i] for i in kept.tolist()] == [words.words()[i] for i in words.run(0)]
    assert words.first_papers() == [0] and len(words) == 1
    words.add(raw.number(title_and_abstract_words(texts[:2])))
    assert words.first_papers() == [0, len(texts)]


def _weighted_before(
    doc: np.ndarray, term: np.ndarray, field: np.ndarray, n_terms: int
) -> tuple[np.ndarray, np.ndarray]:
    """``matrix._weighted`` as it was before its keys were shifted: ``paper * n_terms + term``
    keys, and their weights."""
    keys = (doc * n_terms + term) * 2 + field
    keys, counts = np.unique(keys, return_counts=True)
    weights = 1.0 + np.log(counts)
    weights[(keys & 1) == 0] *= matrix.TITLE_WEIGHT
    doc_terms = keys >> 1
    if len(doc_terms):
        firsts = np.flatnonzero(np.r_[True, doc_terms[1:] != doc_terms[:-1]])
        weights = np.add.reduceat(weights, firsts)
        doc_terms = doc_terms[firsts]
    return doc_terms, weights


@pytest.mark.parametrize("extra_terms", [5, 2**30])  # keys of int32; of int64
def test_the_similarity_counts_from_pairs_and_distinct_terms_as_before(extra_terms: int) -> None:
    corpus = papers(200, seed=7)
    words = matrix._tokens(corpus)
    found = matrix._unigrams(words.words())
    firsts = words.first_papers()
    for number in range(len(words)):
        run = words.run(number)
        kept = matrix._words(run, found, firsts[number])
        assert matrix._pair_keys(run, found).tolist() == kept.pair_keys.tolist()
        bigram_keys = np.unique(kept.pair_keys)[::3]  # some pairs are terms, some are not
        n_terms = len(found.terms) + len(bigram_keys) + extra_terms
        pair_terms = matrix._pair_terms(kept, bigram_keys, len(found.terms))
        used = pair_terms >= 0
        before, weights_before = _weighted_before(
            np.concatenate([kept.doc, kept.doc[kept.pairs[used]]]),
            np.concatenate([kept.term, pair_terms[used]]),
            np.concatenate([kept.field, kept.field[kept.pairs[used]]]),
            n_terms,
        )
        doc, term, weights = matrix._entries(kept, pair_terms, n_terms)
        assert (doc * n_terms + term).tolist() == before.tolist()
        assert weights.tolist() == weights_before.tolist()  # the same floats, summed alike
        assert matrix._doc_terms(kept, pair_terms, n_terms).tolist() == term.tolist()


def test_entries_of_no_word_are_none() -> None:
    empty = np.zeros(0, dtype=np.int64)
    doc, term, weights = matrix._weighted(empty, empty, empty, 10)
    assert len(doc) == len(term) == len(weights) == 0


def test_distinct_keys_are_those_numpy_finds() -> None:
    rng = np.random.default_rng(3)
    for size in (0, 1, 7, 1000):
        keys = rng.integers(0, 50, size=size)
        values, index, counts = np.unique(keys, return_index=True, return_counts=True)
        found, firsts = matrix._distinct(keys.copy())
        assert found.tolist() == values.tolist()
        assert np.diff(np.append(firsts, size)).tolist() == counts.tolist()
        assert np.sort(keys)[firsts].tolist() == values.tolist() and len(index) == len(firsts)


def _digest(*arrays: object) -> str:
    digest = hashlib.sha256()
    for array in arrays:
        digest.update(repr(array).encode() if not isinstance(array, bytes) else array)
    return digest.hexdigest()[:16]


def test_the_indexes_of_a_fixed_corpus_are_those_built_before() -> None:
    """Digests of the search index and the similarity matrix of a fixed corpus, taken with
    the code before the shortcuts: what they hold has not changed."""
    corpus = papers(900, seed=11)
    built = matrix.build(corpus)
    assert _digest(*matrix_arrays(built), built.terms) == "86b0404ffff55bb6"
    # (with each segment's field lengths since they are kept, text5: the rest is as before,
    # d0b09495e2e803d5 without them at 6ad5cba and now)
    assert _digest(*parts(SearchIndex(corpus))) == "572cc3a87da6c2a8"


def matrix_arrays(built: matrix.Matrix) -> list[bytes]:
    arrays = (built.indptr, built.indices, built.data, built.post_ptr)
    return [a.tobytes() for a in (*arrays, built.post_docs, built.post_data)]


def _postings_before(
    part: build._Words, grid_norm: np.ndarray, first: int
) -> tuple[np.ndarray, ...]:
    """``_chunk_postings`` as it was before its keys were shifted (and int32 when they fit)."""
    m = len(part.counts)
    key = part.tids.astype(np.int64) * (4 * m)
    place_of_text = np.repeat(np.arange(m, dtype=np.int64) * 4, TEXTS) + np.tile(
        build._FIELD_OF_TEXT, m
    )
    key += np.repeat(place_of_text, part.counts.ravel())
    key.sort()
    starts = np.concatenate([np.zeros(1, dtype=np.int64), np.flatnonzero(key[1:] != key[:-1]) + 1])
    tf = np.diff(np.append(starts, len(key))).astype(np.float32)
    found = key[starts]
    place = found % (4 * m)
    field = place & 3
    scores = tf * np.float32(build.K1 + 1.0)
    scores /= tf + grid_norm.ravel()[place]
    scores *= build._WEIGHTS[field]
    term_doc = found >> 2
    firsts = np.concatenate(
        [np.zeros(1, dtype=np.int64), np.flatnonzero(term_doc[1:] != term_doc[:-1]) + 1]
    )
    first_of = term_doc[firsts]
    return (
        (first_of // m).astype(np.int32),
        (first_of % m + first).astype(np.int32),
        np.add.reduceat(scores, firsts).astype(np.float16),
        np.bitwise_or.reduceat(build._BITS[field], firsts),
    )


def _papers_per_term_before(part: build._Words) -> np.ndarray:
    m = len(part.counts)
    key = part.tids.astype(np.int64) * m
    key += np.repeat(np.arange(m, dtype=np.int64), part.counts.sum(axis=1))
    key.sort()
    return np.bincount(np.concatenate([key[:1], key[1:][key[1:] != key[:-1]]]) // m)


@pytest.mark.parametrize("papers_in_chunk", [1, 2, 3, 5, 64, 200])
@pytest.mark.parametrize("largest_term", [10, 2**18, 2**23])  # keys of int32; of int64 too
def test_postings_from_shifted_keys_are_those_of_multiplied_keys(
    papers_in_chunk: int, largest_term: int
) -> None:
    rng = np.random.default_rng(papers_in_chunk + largest_term)
    counts = rng.integers(0, 6, size=(papers_in_chunk, TEXTS))
    counts[0, 0] = max(counts[0, 0], 1)  # a word at least
    tids = rng.integers(0, 12, size=int(counts.sum())).astype(np.int32)
    tids[rng.random(len(tids)) < 0.3] = largest_term  # a term much used, at the top
    part = build._Words(tids=tids, counts=counts, titles=tids[:0], authors=tids[:0])
    grid_norm = rng.random((papers_in_chunk, 4)).astype(np.float32) + 0.5
    found = build._chunk_postings(part, grid_norm, 7)
    for now, before in zip(found, _postings_before(part, grid_norm, 7), strict=True):
        assert now.dtype == before.dtype
        assert now.tolist() == before.tolist()
    assert build._papers_per_term(part).tolist() == _papers_per_term_before(part).tolist()


def test_keys_too_large_for_int32_are_int64() -> None:
    tids = np.array([0, 5, 2**23], dtype=np.int32)
    assert build._keys(tids, 7).dtype == np.int32
    assert build._keys(tids, 8).dtype == np.int64
    assert build._keys(tids, 8).tolist() == [0, 5 << 8, 2**31]
