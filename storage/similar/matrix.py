"""The tf-idf matrix of a corpus: built from titles and abstracts, kept sparse two ways.

Rows (CSR: the terms of each paper) and postings (an inverted index: the papers of each term),
never a dense papers x vocabulary matrix and never a papers x papers similarity matrix.

Terms (see ``terms.py``) are the kept words plus the bigrams of adjacent kept words with no
punctuation between them (``diffusion model``) that occur at least ``BIGRAM_MIN_COUNT`` times.
A term must occur in two papers (a term of one paper can make no two papers alike) and, in a
list of 50 papers or more, in at most half of them. Weights: ``(1 + ln tf_abstract) +
2 (1 + ln tf_title)`` (sublinear term frequency, title words count twice), times the smoothed
idf ``1 + ln((1 + n) / (1 + df))``, rows scaled to unit length, so that the dot product of two
rows is their cosine similarity.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt

from storage.models import Paper
from storage.similar.terms import (
    ABSTRACT_MARK,
    BREAK,
    END_MARK,
    WORD_BYTES,
    distinct,
    plain,
    term_key,
)

FloatArray = npt.NDArray[np.float64]
Float32Array = npt.NDArray[np.float32]
IntArray = npt.NDArray[np.int64]
Int32Array = npt.NDArray[np.int32]

#: How much more a title word counts than an abstract word (on the sublinear term frequency).
TITLE_WEIGHT: Final = 2.0
#: A bigram is a term when it occurs at least this many times in the corpus.
BIGRAM_MIN_COUNT: Final = 3
#: A term must occur in at least this many papers.
MIN_DF: Final = 2
#: ...and, in a corpus of at least ``MAX_DF_FROM`` papers, in at most this share of them.
MAX_DF_SHARE: Final = 0.5
MAX_DF_FROM: Final = 50
#: Papers tokenized at a time while building.
_TOKEN_CHUNK: Final = 2048
#: How many shared terms a neighbour shows.
_SHARED_TERMS: Final = 5


def _ranges(starts: IntArray, lengths: IntArray) -> IntArray:
    """The concatenation of ``arange(s, s + n)`` for each start ``s`` and length ``n``."""
    total = int(lengths.sum())
    if total == 0:
        return np.zeros(0, dtype=np.int64)
    offsets = np.cumsum(lengths) - lengths
    return np.arange(total, dtype=np.int64) - np.repeat(offsets - starts, lengths)


@dataclass(frozen=True, slots=True)
class Matrix:
    """The tf-idf matrix of a corpus as rows (CSR) and postings (CSC), with its vocabulary."""

    ids: tuple[str, ...]
    rows: dict[str, int]
    indptr: IntArray
    indices: Int32Array
    data: Float32Array
    post_ptr: IntArray
    post_docs: Int32Array
    post_data: Float32Array
    terms: tuple[str, ...]

    @property
    def size(self) -> int:
        return len(self.ids)

    def rows_of(self, paper_ids: Iterable[str]) -> list[int]:
        """The rows of the known ids among ``paper_ids``, each once, in their order."""
        return list(dict.fromkeys(row for i in paper_ids if (row := self.rows.get(i)) is not None))

    def row(self, row: int) -> tuple[Int32Array, Float32Array]:
        """The term ids (ascending) and weights of one paper."""
        start, end = int(self.indptr[row]), int(self.indptr[row + 1])
        return self.indices[start:end], self.data[start:end]

    def entries(self, rows: IntArray) -> tuple[IntArray, IntArray, Float32Array]:
        """The nonzeros of some rows: (position in ``rows``, term id, weight)."""
        starts = self.indptr[rows]
        lengths = self.indptr[rows + 1] - starts
        at = _ranges(starts, lengths)
        local = np.repeat(np.arange(len(rows), dtype=np.int64), lengths)
        return local, self.indices[at].astype(np.int64), self.data[at]

    def products(self, rows: IntArray) -> FloatArray:
        """Cosine similarities of some rows with every row: a ``len(rows) x size`` array."""
        local, terms, weights = self.entries(rows)
        starts = self.post_ptr[terms]
        lengths = self.post_ptr[terms + 1] - starts
        at = _ranges(starts, lengths)
        keys = np.repeat(local * self.size, lengths) + self.post_docs[at]
        values = np.repeat(weights.astype(np.float64), lengths) * self.post_data[at]
        flat = np.bincount(keys, weights=values, minlength=len(rows) * self.size)
        return flat.astype(np.float64, copy=False).reshape(len(rows), self.size)

    def dot(self, vector: FloatArray) -> FloatArray:
        """Every row's dot product with a dense vocabulary-sized vector."""
        if self.size == 0:
            return np.zeros(0)
        contributions = self.data * vector[self.indices]
        sums = np.add.reduceat(np.append(contributions, 0.0), self.indptr[:-1])
        sums[self.indptr[:-1] == self.indptr[1:]] = 0.0
        return sums

    def total(self, rows: IntArray, weights: FloatArray | None = None) -> FloatArray:
        """The (weighted) sum of some rows, as a dense vocabulary-sized vector."""
        local, terms, values = self.entries(rows)
        scaled = values.astype(np.float64)
        if weights is not None:
            scaled = scaled * weights[local]
        sums = np.bincount(terms, weights=scaled, minlength=len(self.terms))
        return sums.astype(np.float64, copy=False)

    def shared(self, a: int, b: int) -> tuple[str, ...]:
        """The terms two papers share, by their contribution to the similarity."""
        terms_a, weights_a = self.row(a)
        terms_b, weights_b = self.row(b)
        common, in_a, in_b = np.intersect1d(
            terms_a, terms_b, assume_unique=True, return_indices=True
        )
        if len(common) == 0:
            return ()
        contribution = weights_a[in_a] * weights_b[in_b]
        order = np.lexsort((common, -contribution))
        return distinct((self.terms[int(common[i])] for i in order), _SHARED_TERMS)

    def nbytes(self) -> int:
        """Bytes held by the arrays (rows and postings)."""
        arrays = (
            self.indptr,
            self.indices,
            self.data,
            self.post_ptr,
            self.post_docs,
            self.post_data,
        )
        return sum(a.nbytes for a in arrays)


def _tokens(papers: Sequence[Paper]) -> tuple[Int32Array, list[bytes]]:
    """Raw word ids of every title and abstract (with marker ids 0 and 1), and the raw words.

    Text is cut into words by a byte table (one C pass) and the words are numbered by a dict,
    a chunk of papers at a time so that the word objects of only one chunk are alive at once.
    """
    vocabulary: defaultdict[bytes, int] = defaultdict()
    vocabulary.default_factory = vocabulary.__len__
    vocabulary[END_MARK]
    vocabulary[ABSTRACT_MARK]
    chunks: list[Int32Array] = []
    for start in range(0, len(papers), _TOKEN_CHUNK):
        parts: list[str] = []
        for paper in papers[start : start + _TOKEN_CHUNK]:
            parts += (plain(paper.title), "\x02", plain(paper.abstract), "\x01")
        words = " ".join(parts).encode("utf-8", "replace").translate(WORD_BYTES).split()
        chunks.append(
            np.fromiter(map(vocabulary.__getitem__, words), dtype=np.int32, count=len(words))
        )
    ids = np.concatenate(chunks) if chunks else np.zeros(0, dtype=np.int32)
    return ids, list(vocabulary)


@dataclass(frozen=True, slots=True)
class _Unigrams:
    """What each raw word id stands for: a term id (-1 for none) and the punctuation around it."""

    term: Int32Array
    break_before: npt.NDArray[np.bool_]
    break_after: npt.NDArray[np.bool_]
    terms: list[str]


def _unigrams(raw: list[bytes]) -> _Unigrams:
    """The unigram terms of raw words (markers, stop words, numbers are no terms)."""
    texts = [w.decode("utf-8", "replace") for w in raw]
    before = np.fromiter((t.startswith(BREAK) for t in texts), dtype=np.bool_, count=len(texts))
    after = np.fromiter((t.endswith(BREAK) for t in texts), dtype=np.bool_, count=len(texts))
    # "e.g." and "3.5" are one word each: inner punctuation is dropped.
    words = [t.replace(BREAK, "") if BREAK in t else t for t in texts]
    present = dict.fromkeys(words)
    term_ids: dict[str, int] = {}
    lookup = np.full(len(words), -1, dtype=np.int32)
    for raw_id, word in enumerate(words[2:], start=2):
        key = term_key(word, present)
        if key is None:
            continue
        lookup[raw_id] = term_ids.setdefault(key, len(term_ids))
    return _Unigrams(lookup, before, after, list(term_ids))


def _sorted_groups(keys: IntArray) -> tuple[IntArray, IntArray, IntArray]:
    """``np.unique(keys, return_inverse=True, return_counts=True)`` for non-negative keys.

    Sorting the keys packed with their positions (a plain sort) is several times faster than
    the stable argsort ``np.unique`` needs for the inverse.
    """
    n = len(keys)
    bits = max(1, (n - 1).bit_length())
    if n == 0 or int(keys.max()) >= 1 << (62 - bits):
        unique, inverse, counts = np.unique(keys, return_inverse=True, return_counts=True)
        return unique, inverse.reshape(-1), counts
    packed = np.sort((keys << bits) | np.arange(n, dtype=np.int64))
    sorted_keys = packed >> bits
    starts = np.flatnonzero(np.r_[True, sorted_keys[1:] != sorted_keys[:-1]])
    inverse = np.empty(n, dtype=np.int64)
    inverse[packed & ((1 << bits) - 1)] = np.repeat(
        np.arange(len(starts)), np.diff(np.r_[starts, n])
    )
    return sorted_keys[starts], inverse, np.diff(np.r_[starts, n])


def _stable_order(keys: IntArray) -> IntArray:
    """``np.argsort(keys, kind="stable")`` for non-negative keys, by the same packing."""
    n = len(keys)
    bits = max(1, (n - 1).bit_length())
    if n == 0 or int(keys.max()) >= 1 << (62 - bits):
        return np.argsort(keys, kind="stable")
    packed = np.sort((keys << bits) | np.arange(n, dtype=np.int64))
    return packed & ((1 << bits) - 1)


@dataclass(frozen=True, slots=True)
class _Words:
    """The kept words of a run of papers: term, paper, field (0 title, 1 abstract), and pairs."""

    term: IntArray
    doc: IntArray
    field: IntArray
    #: Index (into the arrays above) of the first word of each adjacent pair, and its key.
    pairs: IntArray
    pair_keys: IntArray


def _words(raw: Int32Array, found: _Unigrams, first_doc: int) -> _Words:
    """The kept words of raw word ids covering whole papers, the first being ``first_doc``."""
    ends = np.flatnonzero(raw == 0)
    middles = np.flatnonzero(raw == 1)
    position = np.flatnonzero(found.term[raw] >= 0)
    kept = raw[position]
    term = found.term[kept].astype(np.int64)
    local = np.searchsorted(ends, position)
    field = (position > middles[local]).astype(np.int64)
    # Bigrams: two adjacent kept words; a stop word, a dropped word, a marker or punctuation
    # between them (``large language model (LLM)``: no ``model llm``) breaks a pair.
    joined = np.diff(position) == 1
    joined &= ~found.break_after[kept[:-1]] & ~found.break_before[kept[1:]]
    pairs = np.flatnonzero(joined)
    pair_keys = term[pairs] * max(len(found.terms), 1) + term[pairs + 1]
    return _Words(term, local + first_doc, field, pairs, pair_keys)


def _chunks(raw_ids: Int32Array, n: int) -> Iterator[tuple[int, Int32Array]]:
    """``(first paper, raw ids)`` of runs of ``_TOKEN_CHUNK`` whole papers."""
    ends = np.flatnonzero(raw_ids == 0)
    for first in range(0, n, _TOKEN_CHUNK):
        lo = int(ends[first - 1]) + 1 if first else 0
        hi = int(ends[min(first + _TOKEN_CHUNK, n) - 1]) + 1
        yield first, raw_ids[lo:hi]


def _entries(words: _Words, pair_terms: IntArray, n_terms: int) -> tuple[IntArray, FloatArray]:
    """Sorted ``paper * n_terms + term`` keys of a run of papers, and their term weights.

    The weight is the sublinear term frequency of each field, the title's times
    ``TITLE_WEIGHT``, summed over both fields.
    """
    used = pair_terms >= 0
    pairs = words.pairs[used]
    keys = np.concatenate([words.doc, words.doc[pairs]])
    keys *= n_terms
    keys += np.concatenate([words.term, pair_terms[used]])
    keys *= 2
    keys += np.concatenate([words.field, words.field[pairs]])
    keys, counts = np.unique(keys, return_counts=True)
    weights = 1.0 + np.log(counts)
    weights[(keys & 1) == 0] *= TITLE_WEIGHT
    doc_terms = keys >> 1
    if len(doc_terms):
        firsts = np.flatnonzero(np.r_[True, doc_terms[1:] != doc_terms[:-1]])
        weights = np.add.reduceat(weights, firsts)
        doc_terms = doc_terms[firsts]
    return doc_terms, weights


def build(papers: Sequence[Paper], ids: Sequence[str] | None = None) -> Matrix:
    """The tf-idf matrix of a corpus (papers with distinct ids: ``ids``, when the caller has
    them without reading the papers).

    Words are read a chunk of papers at a time (twice: once to count bigrams, once to count
    terms per paper), so that the memory a build needs beyond its result stays bounded.
    """
    n = len(papers)
    ids = tuple(p.id for p in papers) if ids is None else tuple(ids)
    raw_ids, raw_words = _tokens(papers)
    found = _unigrams(raw_words)
    unigrams = found.terms
    n_uni = max(len(unigrams), 1)

    pair_keys = [_words(raw, found, first).pair_keys for first, raw in _chunks(raw_ids, n)]
    all_pairs = np.concatenate(pair_keys) if pair_keys else np.zeros(0, dtype=np.int64)
    unique_pairs, pair_inverse, pair_counts = _sorted_groups(all_pairs)
    kept_pairs = pair_counts >= BIGRAM_MIN_COUNT
    bigram_id = np.where(kept_pairs, np.cumsum(kept_pairs) - 1 + len(unigrams), -1)
    pair_terms = bigram_id[pair_inverse]
    del all_pairs, pair_inverse
    bigrams = [
        f"{unigrams[int(k) // n_uni]} {unigrams[int(k) % n_uni]}" for k in unique_pairs[kept_pairs]
    ]
    vocabulary = unigrams + bigrams
    n_terms = max(len(vocabulary), 1)

    doc_term_parts: list[IntArray] = []
    weight_parts: list[FloatArray] = []
    at = 0
    for first, raw in _chunks(raw_ids, n):
        words = _words(raw, found, first)
        doc_terms, weights = _entries(words, pair_terms[at : at + len(words.pairs)], n_terms)
        at += len(words.pairs)
        doc_term_parts.append(doc_terms)
        weight_parts.append(weights)
    del raw_ids, pair_terms
    doc_terms = np.concatenate(doc_term_parts) if n else np.zeros(0, dtype=np.int64)
    weights = np.concatenate(weight_parts) if n else np.zeros(0)
    del doc_term_parts, weight_parts
    entry_doc = doc_terms // n_terms
    entry_term = doc_terms % n_terms
    del doc_terms

    df = np.bincount(entry_term, minlength=n_terms)
    keep = df >= MIN_DF
    if n >= MAX_DF_FROM:
        keep &= df <= MAX_DF_SHARE * n
    kept_entries = keep[entry_term]
    new_id = np.cumsum(keep) - 1
    entry_doc = entry_doc[kept_entries]
    entry_term = new_id[entry_term[kept_entries]]
    weights = weights[kept_entries]
    terms = tuple(vocabulary[i] for i in np.flatnonzero(keep[: len(vocabulary)]))
    df = df[keep]

    idf = 1.0 + np.log((1.0 + n) / (1.0 + df))
    weights = weights * idf[entry_term]
    norms = np.sqrt(np.bincount(entry_doc, weights=weights * weights, minlength=n))
    weights = weights / np.where(norms > 0, norms, 1.0)[entry_doc]

    indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(entry_doc, minlength=n), out=indptr[1:])
    order = _stable_order(entry_term)
    post_ptr = np.zeros(len(terms) + 1, dtype=np.int64)
    np.cumsum(np.bincount(entry_term, minlength=len(terms)), out=post_ptr[1:])
    return Matrix(
        ids=ids,
        rows={paper_id: i for i, paper_id in enumerate(ids)},
        indptr=indptr,
        indices=entry_term.astype(np.int32),
        data=weights.astype(np.float32),
        post_ptr=post_ptr,
        post_docs=entry_doc[order].astype(np.int32),
        post_data=weights[order].astype(np.float32),
        terms=terms,
    )
