"""The tf-idf matrix of a corpus: built from titles and abstracts, kept sparse two ways.

Rows (CSR: the terms of each paper) and postings (an inverted index: the papers of each term),
never a dense papers x vocabulary matrix and never a papers x papers similarity matrix.

Terms (see ``terms.py``) are the kept words plus the bigrams of adjacent kept words with no
punctuation between them (``diffusion model``) that occur at least ``BIGRAM_MIN_COUNT`` times.
A term must occur in two papers (a term of one paper can make no two papers alike) and, in a
list of 50 papers or more, in at most half of them. Weights: ``(1 + ln tf_abstract) +
2 (1 + ln tf_title)`` (sublinear term frequency, title words count twice), times the smoothed
idf ``1 + ln((1 + n) / (1 + df))``, rows scaled to unit length, so that the dot product of two
rows is their cosine similarity; then no term keeps more than ``TERM_CAP`` of its row (or
1.5 times its even share, ``EVEN_SHARES``, in a row of fewer than 19 terms), and the row is
scaled to unit length again.

The cap: a rare word in a paper's title and again in its abstract took the most of the row
(DarkBench's ``dark``, in 6 of ICLR 2025's 3,703 papers: 0.52, 27% of its squared length,
where ``sycophancy``, in 4 but once in the abstract, had 0.15), so that a paper sharing
that one word in another sense (a dark-matter paper) came before those on sycophancy and
manipulation, which share several of its terms. Capped at 0.35 (clipped once, then the row
scaled again: a term may end a little above it), on the real list the nearest neighbour
shares an author with the paper a little more often (5.0% -> 5.3%; the 5 nearest: 2.6% ->
2.7%) and a title word a little less often (87.7% -> 87.2%, a figure the title's weight
flatters), and ``suggest`` ranks the simulated reader's interests a little better (90.5% ->
90.9% of its first 100 liked; see ``benchmarks/similar.py``). A cap of 0.35 alone evened
out the rows of fewer than 9 terms (titles alone): on the real list's titles, the nearest
neighbour shared an author 2.4% of the time instead of 2.7%; with the even shares, 2.7%.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt

from storage.arrays import ahead, ranges
from storage.chunk_words import FoundWords
from storage.models import Paper
from storage.paper_words import (
    RawWords,
    SimilarityWords,
    found_words_of,
    title_and_abstract_words,
)
from storage.search.text import forget_pieces
from storage.second_process import Work, in_order
from storage.similar.terms import BREAK, distinct, term_key

FloatArray = npt.NDArray[np.float64]
Float32Array = npt.NDArray[np.float32]
IntArray = npt.NDArray[np.int64]
Int32Array = npt.NDArray[np.int32]

#: How much more a title word counts than an abstract word (on the sublinear term frequency).
TITLE_WEIGHT: Final = 2.0
#: The most of a paper's unit-length row one term keeps (the rest is spread over its other
#: terms): a likeness resting on one word, rare as it may be, is not worth several shared terms.
TERM_CAP: Final = 0.35
#: ...but no less than this many times a term's even share of its row (``1 / sqrt(terms)``):
#: a short row (a title alone) keeps its idf.
EVEN_SHARES: Final = 1.5
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
#: A shared term in more than this share of the papers (in a list of ``MAX_DF_FROM`` or
#: more) says little of why two papers are alike (``learning``, ``data``, ``llm`` among
#: ICLR's): it is not shown.
SHARED_GENERIC_SHARE: Final = 0.15
#: Nor is one whose part in the likeness is less than this share of the first's
#: (``resulting``, ``indicating`` beside ``job scheduling``).
SHARED_FLOOR: Final = 0.08


class Rows:
    """What the similarity index asks of a matrix: ``Matrix``, or one made before a change
    with the rows the change added (``storage.similar.stacked.Stacked``). What follows from
    its rows (``rows``, ``terms``, ``row``, ``entries``, ``products_of``) is answered here, the
    same for both."""

    __slots__ = ()
    ids: tuple[str, ...]
    rows: dict[str, int]
    terms: tuple[str, ...]

    @property
    def size(self) -> int:
        raise NotImplementedError

    def row(self, row: int) -> tuple[Int32Array, Float32Array]:
        """The term ids (ascending) and weights of one paper."""
        raise NotImplementedError

    def filled(self, rows: IntArray) -> npt.NDArray[np.bool_]:
        """Whether each of ``rows`` has a term."""
        raise NotImplementedError

    def entries(self, rows: IntArray) -> tuple[IntArray, IntArray, Float32Array]:
        """The nonzeros of some rows: (position in ``rows``, term id, weight), by position."""
        raise NotImplementedError

    def products_of(
        self, local: IntArray, terms: IntArray, weights: Float32Array, count: int
    ) -> FloatArray:
        """``products`` of ``count`` rows given by their entries (``entries``, or some)."""
        raise NotImplementedError

    def papers_with(self, terms: IntArray) -> IntArray:
        """How many papers have each of ``terms``."""
        raise NotImplementedError

    def papers_having(self, terms: IntArray) -> IntArray:
        """How many of the papers have each of ``terms``, exactly (``papers_with`` may
        count papers taken out since)."""
        return self.papers_with(terms)

    def dot(self, vector: FloatArray) -> FloatArray:
        """Every row's dot product with a dense vocabulary-sized vector."""
        raise NotImplementedError

    def nbytes(self) -> int:
        """Bytes held by the arrays (rows and postings)."""
        raise NotImplementedError

    def products(self, rows: IntArray) -> FloatArray:
        """Cosine similarities of some rows with every row: a ``len(rows) x size`` array."""
        return self.products_of(*self.entries(rows), len(rows))

    def rows_of(self, paper_ids: Iterable[str]) -> list[int]:
        """The rows of the known ids among ``paper_ids``, each once, in their order."""
        return list(dict.fromkeys(row for i in paper_ids if (row := self.rows.get(i)) is not None))

    def total(self, rows: IntArray, weights: FloatArray | None = None) -> FloatArray:
        """The (weighted) sum of some rows, as a dense vocabulary-sized vector."""
        local, terms, values = self.entries(rows)
        scaled = values.astype(np.float64)
        if weights is not None:
            scaled = scaled * weights[local]
        sums = np.bincount(terms, weights=scaled, minlength=len(self.terms))
        return sums.astype(np.float64, copy=False)

    def shared(self, a: int, b: int) -> tuple[str, ...]:
        """The terms two papers share that explain their likeness, best first: by their
        contribution to the similarity times their idf (the rarer first), without the
        generic ones (``SHARED_GENERIC_SHARE``) and those that add little (``SHARED_FLOOR``)."""
        (terms_a, weights_a), (terms_b, weights_b) = self.row(a), self.row(b)
        common, in_a, in_b = np.intersect1d(
            terms_a, terms_b, assume_unique=True, return_indices=True
        )
        if len(common) == 0:
            return ()
        papers = self.papers_having(common.astype(np.int64))
        idf = 1 + np.log((1 + self.size) / (1 + papers))  # the matrix's smoothed idf
        weight = weights_a[in_a].astype(np.float64) * weights_b[in_b] * idf
        if self.size >= MAX_DF_FROM:
            weight[papers > SHARED_GENERIC_SHARE * self.size] = 0.0
        if not weight.any():
            return ()
        kept = np.flatnonzero(weight >= SHARED_FLOOR * weight.max())
        order = kept[np.lexsort((common[kept], -weight[kept]))]
        return distinct((self.terms[int(common[i])] for i in order), _SHARED_TERMS)


@dataclass(frozen=True, slots=True)
class Matrix(Rows):
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

    def row(self, row: int) -> tuple[Int32Array, Float32Array]:
        """The term ids (ascending) and weights of one paper."""
        start, end = int(self.indptr[row]), int(self.indptr[row + 1])
        return self.indices[start:end], self.data[start:end]

    def filled(self, rows: IntArray) -> npt.NDArray[np.bool_]:
        """Whether each of ``rows`` has a term."""
        return self.indptr[rows] < self.indptr[rows + 1]

    def entries(self, rows: IntArray) -> tuple[IntArray, IntArray, Float32Array]:
        """The nonzeros of some rows: (position in ``rows``, term id, weight)."""
        starts = self.indptr[rows]
        lengths = self.indptr[rows + 1] - starts
        at = ranges(starts, lengths)
        local = np.repeat(np.arange(len(rows), dtype=np.int64), lengths)
        return local, self.indices[at].astype(np.int64), self.data[at]

    def posted(
        self,
        local: IntArray,
        terms: IntArray,
        weights: Float32Array,
        width: int,
        places: IntArray | None = None,
    ) -> tuple[IntArray, FloatArray]:
        """What entries (``entries``: of the ``local``-th row asked about) add to the
        products with every row: ``local * width + row`` keys and the values they add, a
        row being its place in ``places`` when given (-1: left out)."""
        starts = self.post_ptr[terms]
        lengths = self.post_ptr[terms + 1] - starts
        at = ranges(starts, lengths)
        keys = np.repeat(local * width, lengths)
        values = np.repeat(weights.astype(np.float64), lengths) * self.post_data[at]
        if places is None:
            return keys + self.post_docs[at], values
        docs = places[self.post_docs[at]]
        kept = docs >= 0
        return keys[kept] + docs[kept], values[kept]

    def products_of(
        self, local: IntArray, terms: IntArray, weights: Float32Array, count: int
    ) -> FloatArray:
        """``products`` of ``count`` rows given by their entries (``entries``, or some)."""
        keys, values = self.posted(local, terms, weights, self.size)
        flat = np.bincount(keys, weights=values, minlength=count * self.size)
        return flat.astype(np.float64, copy=False).reshape(count, self.size)

    def papers_with(self, terms: IntArray) -> IntArray:
        """How many papers have each of ``terms``."""
        return self.post_ptr[terms + 1] - self.post_ptr[terms]

    def dot(self, vector: FloatArray) -> FloatArray:
        """Every row's dot product with a dense vocabulary-sized vector."""
        if self.size == 0:
            return np.zeros(0)
        contributions = self.data * vector[self.indices]
        starts = self.indptr[:-1]
        # rows from the first that starts past the last entry are empty (and out of the range
        # reduceat takes): summed to 0 without a copy of every entry to make room
        summed = int(np.searchsorted(starts, len(contributions)))
        sums = np.zeros(self.size)
        if summed:
            sums[:summed] = np.add.reduceat(contributions, starts[:summed])
        sums[starts == self.indptr[1:]] = 0.0  # an empty row: reduceat gave its next entry
        return sums

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


def _tokens(papers: Sequence[Paper]) -> SimilarityWords:
    """The words of every title and abstract (``storage.paper_words``), cut a chunk of
    ``_TOKEN_CHUNK`` papers at a time so that the word objects of only one chunk are alive at
    once.

    From ``SECOND_PROCESS_PAPERS`` papers a second process cuts some chunks' words while this
    one cuts others' (``storage.second_process``): each chunk's words are numbered by the
    chunk, then, in the order of the chunks, by the corpus, so that the ids are those of one
    pass over every word in order.
    """

    def chunks() -> Iterator[list[tuple[str, str]]]:
        for start in range(0, len(papers), _TOKEN_CHUNK):
            yield [(p.title, p.abstract) for p in papers[start : start + _TOKEN_CHUNK]]

    raw = RawWords()
    words = SimilarityWords(raw)
    two = len(papers) >= SECOND_PROCESS_PAPERS
    for _texts, found in in_order(chunks(), _WORDS_WORK, second_process=two):
        words.add(raw.number(found))
    forget_pieces()
    return words


#: A chunk's words: cut here or by a second process, in the order of the chunks.
_WORDS_WORK: Final[Work[list[tuple[str, str]], FoundWords]] = Work(
    "storage.paper_words:title_and_abstract_words",
    title_and_abstract_words,
    lambda texts: texts,
    found_words_of,
)
#: From this many papers a build cuts some chunks' words in a second process (which takes a
#: fraction of a second to start).
SECOND_PROCESS_PAPERS: Final = 8 * _TOKEN_CHUNK


@dataclass(frozen=True, slots=True)
class _Unigrams:
    """What each raw word id stands for: a term id (-1 for none) and the punctuation around it."""

    term: Int32Array
    break_before: npt.NDArray[np.bool_]
    break_after: npt.NDArray[np.bool_]
    terms: list[str]


def _unigrams(raw: list[bytes], known: Iterable[str] = ()) -> _Unigrams:
    """The unigram terms of raw words (the mark, stop words, numbers are no terms); a plural
    is made singular when the singular is among them or ``known``."""
    texts = [w.decode("utf-8", "replace") for w in raw]
    before = np.fromiter((t.startswith(BREAK) for t in texts), dtype=np.bool_, count=len(texts))
    after = np.fromiter((t.endswith(BREAK) for t in texts), dtype=np.bool_, count=len(texts))
    # "e.g." and "3.5" are one word each: inner punctuation is dropped.
    words = [t.replace(BREAK, "") if BREAK in t else t for t in texts]
    present = dict.fromkeys(words)
    present.update(dict.fromkeys(known))
    term_ids: dict[str, int] = {}
    lookup = np.full(len(words), -1, dtype=np.int32)
    for raw_id, word in enumerate(words[1:], start=1):  # 0: the mark
        key = term_key(word, present)
        if key is None:
            continue
        lookup[raw_id] = term_ids.setdefault(key, len(term_ids))
    return _Unigrams(lookup, before, after, list(term_ids))


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
    """The kept words of a run of papers (``SimilarityWords.run``: each paper's title, the
    mark, its abstract, the mark), the first being ``first_doc``."""
    position, kept, term = _kept(raw, found)
    # a kept word's paper and field: the marks before it (the mark is never a kept word), two
    # a paper, the first between its title and its abstract
    marks = np.cumsum(raw == 0)[position]
    local = marks >> 1
    field = marks & 1
    pairs, pair_keys = _pairs(position, kept, term, found)
    return _Words(term, local + first_doc, field, pairs, pair_keys)


def _kept(raw: Int32Array, found: _Unigrams) -> tuple[IntArray, Int32Array, IntArray]:
    """The places of a run's kept words (those that are terms), their raw words, their terms."""
    term_of = found.term[raw]
    position = np.flatnonzero(term_of >= 0)
    return position, raw[position], term_of[position].astype(np.int64)


def _pairs(
    position: IntArray, kept: Int32Array, term: IntArray, found: _Unigrams
) -> tuple[IntArray, IntArray]:
    """The adjacent pairs of kept words (``_kept``): the index of each pair's first word, and
    its key."""
    # Bigrams: two adjacent kept words; a stop word, a dropped word, a mark or punctuation
    # between them (``large language model (LLM)``: no ``model llm``) breaks a pair.
    joined = np.diff(position) == 1
    joined &= ~found.break_after[kept[:-1]] & ~found.break_before[kept[1:]]
    pairs = np.flatnonzero(joined)
    return pairs, term[pairs] * max(len(found.terms), 1) + term[pairs + 1]


def _pair_keys(raw: Int32Array, found: _Unigrams) -> IntArray:
    """``_words(raw, ...).pair_keys`` alone (what the bigrams are counted from): neither the
    papers nor the fields of the words."""
    return _pairs(*_kept(raw, found), found)[1]


def _entries(
    words: _Words, pair_terms: IntArray, n_terms: int
) -> tuple[IntArray, IntArray, FloatArray]:
    """The (paper, term) entries of a run of papers, sorted by paper then term: their papers,
    terms and weights.

    The weight is the sublinear term frequency of each field, the title's times
    ``TITLE_WEIGHT``, summed over both fields.
    """
    used = pair_terms >= 0
    pairs = words.pairs[used]
    return _weighted(
        np.concatenate([words.doc, words.doc[pairs]]),
        np.concatenate([words.term, pair_terms[used]]),
        np.concatenate([words.field, words.field[pairs]]),
        n_terms,
    )


def _weighted(
    doc: IntArray, term: IntArray, field: IntArray, n_terms: int
) -> tuple[IntArray, IntArray, FloatArray]:
    """``_entries`` of the terms met (each ``doc``'s ``term`` in ``field``): sorted by paper
    then term, each (paper, term)'s paper, term and weight before idf."""
    term_bits = _bits_for(n_terms)
    keys, low = _keyed(doc, term, term_bits + 1)
    keys |= field
    total = len(keys)
    keys, starts = _distinct(keys)
    counts = np.diff(np.append(starts, total))
    weights = 1.0 + np.log(counts)
    weights[(keys & 1) == 0] *= TITLE_WEIGHT
    doc_terms = keys >> 1
    if len(doc_terms):
        firsts = np.flatnonzero(np.r_[True, doc_terms[1:] != doc_terms[:-1]])
        weights = np.add.reduceat(weights, firsts)
        doc_terms = doc_terms[firsts]
    return _paper_of(doc_terms, term_bits, low), _term_of(doc_terms, term_bits), weights


def _bits_for(count: int) -> int:
    """The bits that hold a number below ``count``."""
    return max(count - 1, 1).bit_length()


def _keyed(doc: IntArray, term: IntArray, shift: int) -> tuple[IntArray, int]:
    """(paper, term) keys that sort as the pairs do: the paper (counted from the lowest,
    returned) in the bits above ``shift``, the term shifted left by one below it (room for a
    field). int32 when they fit (numpy sorts them twice as fast as int64), else int64."""
    if not len(doc):
        return np.zeros(0, dtype=np.int64), 0
    low = int(doc.min())
    top = (int(doc.max()) - low + 1) << shift
    keys: IntArray = np.subtract(doc, low, dtype=np.int32 if top < 2**31 else np.int64)
    keys <<= shift
    keys |= term << 1
    return keys, low


def _paper_of(keys: IntArray, term_bits: int, low: int) -> IntArray:
    """The papers of (paper, term) keys (``_keyed``, shifted back by one)."""
    return (keys >> term_bits).astype(np.int64) + low


def _term_of(keys: IntArray, term_bits: int) -> IntArray:
    """The terms of (paper, term) keys (``_keyed``, shifted back by one)."""
    return (keys & ((1 << term_bits) - 1)).astype(np.int64)


def _distinct(keys: IntArray) -> tuple[IntArray, IntArray]:
    """``keys`` sorted in place, and their distinct values with where each first is (what
    ``np.unique`` finds, without its copy of the keys)."""
    keys.sort()
    if not len(keys):
        return keys, np.zeros(0, dtype=np.int64)
    firsts = np.empty(len(keys), dtype=np.bool_)
    firsts[0] = True
    np.not_equal(keys[1:], keys[:-1], out=firsts[1:])
    return keys[firsts], np.flatnonzero(firsts)


def _doc_terms(words: _Words, pair_terms: IntArray, n_terms: int) -> IntArray:
    """The term of each of a run's entries (``_entries``'s terms, without their papers and
    weights: what the papers of each term are counted from)."""
    pairs = words.pairs[pair_terms >= 0]
    term_bits = _bits_for(n_terms)
    keys, _low = _keyed(
        np.concatenate([words.doc, words.doc[pairs]]),
        np.concatenate([words.term, pair_terms[pair_terms >= 0]]),
        term_bits + 1,
    )
    return _term_of(_distinct(keys)[0] >> 1, term_bits)


def build(papers: Sequence[Paper], ids: Sequence[str] | None = None) -> Matrix:
    """The tf-idf matrix of a corpus (papers with distinct ids: ``ids``, when the caller has
    them without reading the papers)."""
    ids = tuple(p.id for p in papers) if ids is None else tuple(ids)
    return build_from_words(ids, _tokens(papers))


def build_from_words(ids: Sequence[str], words: SimilarityWords) -> Matrix:
    """The tf-idf matrix of papers (``ids``, distinct) from the words of their titles and
    abstracts (cut alone, ``build``, or beside the search index: ``storage.paper_words``).

    Words are kept as ids, a run of papers at a time; each run's words are counted three
    times (bigrams; the papers each term is in; each paper's terms, placed straight into the
    result), threads counting the next runs meanwhile (``storage.arrays.ahead``), so that what
    a build holds beyond its result is the word ids and a few runs' counts (100,000 papers: 1 GB at
    its peak when the counts of every chunk were kept, then joined; keeping them instead of
    counting them again: 680 MB, no faster). Each run's words are let go once placed: the
    build takes ``words``'s.
    """
    n = len(ids)
    ids = tuple(ids)
    firsts = words.first_papers()
    found = _unigrams(words.words())
    unigrams = found.terms
    n_uni = max(len(unigrams), 1)

    def pair_keys_of(number: int) -> IntArray:
        return _pair_keys(words.run(number), found)

    def doc_terms_of(number: int) -> IntArray:
        kept = _words(words.run(number), found, firsts[number])
        return _doc_terms(kept, _pair_terms(kept, bigram_keys, len(unigrams)), n_terms)

    def entries_of(number: int) -> tuple[IntArray, IntArray, FloatArray]:
        kept = _words(words.run(number), found, firsts[number])
        words.let_go(number)  # its words are placed: let go of them
        return _entries(kept, _pair_terms(kept, bigram_keys, len(unigrams)), n_terms)

    bigram_keys = _bigrams(ahead(pair_keys_of, range(len(words))))
    bigrams = [f"{unigrams[int(k) // n_uni]} {unigrams[int(k) % n_uni]}" for k in bigram_keys]
    vocabulary = unigrams + bigrams
    n_terms = max(len(vocabulary), 1)

    df = np.zeros(n_terms, dtype=np.int64)
    for doc_terms in ahead(doc_terms_of, range(len(words))):
        df += np.bincount(doc_terms, minlength=n_terms)
    keep = df >= MIN_DF
    if n >= MAX_DF_FROM:
        keep &= df <= MAX_DF_SHARE * n
    new_id = np.cumsum(keep) - 1
    terms = tuple(vocabulary[i] for i in np.flatnonzero(keep[: len(vocabulary)]))
    per_term = df[keep]  # a paper's term is one entry: a term's papers are its entries
    idf = _idf(n, per_term)
    del df
    matrix = _Placed(ids, per_term)
    for doc, all_terms, weights in ahead(entries_of, range(len(words))):
        kept = keep[all_terms]
        entry_doc = doc[kept].astype(np.int32)
        entry_term = new_id[all_terms[kept]].astype(np.int32)
        matrix.place(entry_doc, entry_term, weights[kept], idf)
    return matrix.done(terms)


def _idf(papers: int, per_term: IntArray) -> FloatArray:
    """The smoothed idf of terms each in ``per_term`` of ``papers`` papers."""
    return 1.0 + np.log((1.0 + papers) / (1.0 + per_term))


def fold_in(papers: Sequence[Paper], ids: Sequence[str], base: Matrix) -> Matrix:
    """The rows of ``papers`` (distinct ``ids``) in the terms of ``base``, weighted by its
    idf, as if each had been in it: the papers an import added to a library whose matrix
    was made before (``storage.cache.similar_index``'s ``similar.added``), until the
    library's matrix is made again. Their words that are no term of ``base``, and pairs of
    words that are no bigram of it, count for nothing: the matrix made again from every
    paper may keep a few more terms, and weigh every term a little differently."""
    term_of = {term: i for i, term in enumerate(base.terms)}
    n_terms = max(len(base.terms), 1)
    words = _tokens(papers)
    firsts = words.first_papers()
    found = _unigrams(words.words(), (t for t in base.terms if " " not in t))
    n_uni = max(len(found.terms), 1)
    to_base = np.array([term_of.get(t, -1) for t in found.terms] or [-1], dtype=np.int64)
    idf = _idf(base.size, np.diff(base.post_ptr))  # its terms' papers in ``base``
    runs: list[tuple[IntArray, IntArray, FloatArray]] = []
    for number in range(len(words)):
        kept = _words(words.run(number), found, firsts[number])
        term = to_base[kept.term]
        pair_keys, at = np.unique(kept.pair_keys, return_inverse=True)
        pair_of = np.array(
            [
                term_of.get(f"{found.terms[int(k) // n_uni]} {found.terms[int(k) % n_uni]}", -1)
                for k in pair_keys
            ]
            or [-1],
            dtype=np.int64,
        )
        pair_term = pair_of[at]
        paired = pair_term >= 0
        pairs = kept.pairs[paired]
        unigram = term >= 0
        runs.append(
            _weighted(
                np.concatenate([kept.doc[unigram], kept.doc[pairs]]),
                np.concatenate([term[unigram], pair_term[paired]]),
                np.concatenate([kept.field[unigram], kept.field[pairs]]),
                n_terms,
            )
        )
    per_term = np.zeros(len(base.terms), dtype=np.int64)
    for _, doc_terms, _ in runs:
        per_term += np.bincount(doc_terms, minlength=len(base.terms))
    matrix = _Placed(tuple(ids), per_term)
    for doc, doc_terms, weights in runs:
        matrix.place(doc.astype(np.int32), doc_terms.astype(np.int32), weights, idf)
    return matrix.done(base.terms)


class _Placed:
    """A matrix made a chunk of papers at a time: each chunk's entries (ascending papers, each
    paper's terms ascending) go straight to their rows and, term by term, to the postings
    (each term's papers ascending), whose sizes are known before (``per_term``)."""

    def __init__(self, ids: tuple[str, ...], per_term: IntArray) -> None:
        self.ids = ids
        self.per_term = len(per_term)
        total = int(per_term.sum())
        self.indptr = np.zeros(len(ids) + 1, dtype=np.int64)
        self.indices = np.empty(total, dtype=np.int32)
        self.data = np.empty(total, dtype=np.float32)
        self.post_ptr = np.zeros(len(per_term) + 1, dtype=np.int64)
        np.cumsum(per_term, out=self.post_ptr[1:])
        self.post_docs = np.empty(total, dtype=np.int32)
        self.post_data = np.empty(total, dtype=np.float32)
        self._free = self.post_ptr[:-1].copy()  # each term's next free place
        self._at = 0

    def place(
        self, entry_doc: Int32Array, entry_term: Int32Array, frequency: FloatArray, idf: FloatArray
    ) -> None:
        """Place entries (their papers whole): each term's ``frequency`` weight times its
        ``idf``, each paper's row scaled to unit length, its terms capped at ``TERM_CAP``
        and the row scaled to unit length again."""
        weights = frequency * idf[entry_term]
        # the chunk's papers counted from its first (not over every paper of the matrix)
        first = int(entry_doc.min()) if len(entry_doc) else 0
        local = entry_doc - first
        per_paper = np.bincount(local)
        self._unit(local, weights)
        # each paper's cap (from its count of terms; a paper of none has no entry to cap)
        cap = np.maximum(TERM_CAP, EVEN_SHARES / np.sqrt(np.maximum(per_paper, 1)))
        np.minimum(weights, cap[local], out=weights)
        self._unit(local, weights)
        end = self._at + len(entry_doc)
        self.indices[self._at : end] = entry_term
        self.data[self._at : end] = weights
        self._at = end
        self.indptr[1 + first : 1 + first + len(per_paper)] += per_paper
        # the entries by term, each term's in the order they come (ascending papers): sorted
        # as (term, place) keys, which numpy sorts with SIMD where the stable argsort of the
        # terms is a merge sort (the postings of 100,000 papers: 0.62 s of CPU, 0.15 s so)
        keys = entry_term.astype(np.int64) << 32
        keys |= np.arange(len(entry_term), dtype=np.int64)
        keys.sort()
        order = keys & 0xFFFFFFFF
        sorted_terms = keys >> 32
        count = np.bincount(entry_term, minlength=self.per_term)
        # an entry's place: its term's next free one, plus its rank among the term's here
        place = (self._free - (np.cumsum(count) - count))[sorted_terms]
        place += np.arange(len(order))
        self.post_docs[place] = entry_doc[order]
        self.post_data[place] = weights[order]
        self._free += count

    @staticmethod
    def _unit(local: Int32Array, weights: FloatArray) -> None:
        """Scale the entries of each paper (``weights``, in place; ``local``: their papers,
        counted from the chunk's first) to unit length."""
        norms = np.sqrt(np.bincount(local, weights=weights * weights))
        weights /= np.where(norms > 0, norms, 1.0)[local]

    def done(self, terms: tuple[str, ...]) -> Matrix:
        np.cumsum(self.indptr, out=self.indptr)
        ids = self.ids
        return Matrix(
            ids=ids,
            rows={paper_id: i for i, paper_id in enumerate(ids)},
            indptr=self.indptr,
            indices=self.indices,
            data=self.data,
            post_ptr=self.post_ptr,
            post_docs=self.post_docs,
            post_data=self.post_data,
            terms=terms,
        )


def _bigrams(chunks: Iterable[IntArray]) -> IntArray:
    """The keys of the adjacent pairs (each chunk's ``pair_keys``) met at least
    ``BIGRAM_MIN_COUNT`` times, ascending."""
    parts = list(chunks)
    keys = np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)
    del parts
    keys.sort()
    reach = BIGRAM_MIN_COUNT - 1  # a key that many places on is the same: met often enough
    often = keys[:-reach][keys[reach:] == keys[:-reach]] if len(keys) > reach else keys[:0]
    return often[np.concatenate(([True], often[1:] != often[:-1]))] if len(often) else often


def _pair_terms(words: _Words, bigram_keys: IntArray, first: int) -> IntArray:
    """The bigram term of each of a chunk's pairs (``first`` is the first bigram's id), -1 for
    a pair that is no term."""
    if not len(bigram_keys):
        return np.full(len(words.pair_keys), -1, dtype=np.int64)
    # each distinct pair looked up once, in ascending order: a chunk's pairs repeat, and a
    # binary search from one sorted key to the next stays in the cache (the pairs of
    # 100,000 papers, looked up twice: 1.04 s of CPU one by one, 0.39 s so)
    pair_keys, pair_of = np.unique(words.pair_keys, return_inverse=True)
    at = np.minimum(np.searchsorted(bigram_keys, pair_keys), len(bigram_keys) - 1)
    return np.where(bigram_keys[at] == pair_keys, at + first, -1)[pair_of]
