"""Similar papers, a suggested Inbox order and topic clusters: tf-idf over titles and abstracts.

Everything is computed locally with numpy: no network, no model download.

The index (``SimilarityIndex(papers)``) is a sparse tf-idf matrix kept in two forms, rows (CSR:
the terms of each paper) and postings (an inverted index: the papers of each term), never as a
dense papers x vocabulary matrix and never as a papers x papers similarity matrix.

Terms are the words of the title and abstract, lower-cased, accents dropped, plurals merged into
their singular when the corpus has it (``graphs`` -> ``graph``), minus English and paper-boilerplate
stop words (``propose``, ``results``), LaTeX commands and numbers; plus the bigrams of adjacent
kept words with no punctuation between them (``diffusion model``) that occur at least three
times. A term must occur in two papers
(a term of one paper can make no two papers alike) and, in a list of 50 papers or more, in at most
half of them. Weights: ``(1 + ln tf_abstract) + 2 (1 + ln tf_title)`` (sublinear term frequency,
title words count twice), times the smoothed idf ``1 + ln((1 + n) / (1 + df))``, rows scaled to
unit length, so that the dot product of two rows is their cosine similarity.

- ``similar``: the cosine of one row with every other, accumulated over the postings of its terms.
- ``suggest``: Rocchio-style relevance feedback plus nearest starred paper, see ``suggest``.
- ``topics``: spherical k-means (k-means++ seeding, fixed seed) over the given papers' rows
  restricted to their most frequent terms, labelled by the terms most over-represented in each.
"""

from __future__ import annotations

import functools
import math
import re
import unicodedata
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt

from storage.models import Paper, Status

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

#: ``suggest``: the share of the score that comes from the nearest starred paper (the rest comes
#: from the centroid of the starred and read papers) ...
NEAREST_WEIGHT: Final = 0.1
#: ... a read paper counts this much of a starred one in that centroid ...
READ_WEIGHT: Final = 0.25
#: ... and the cosine to the centroid of the skipped papers is subtracted with this weight.
SKIP_WEIGHT: Final = 0.5

#: ``topics``: clusters by default ``sqrt(n / 2)``, within these bounds.
MIN_TOPICS: Final = 2
MAX_TOPICS: Final = 30
#: k-means works on the given papers' rows restricted to this many of their most frequent terms.
TOPIC_FEATURES: Final = 1024
TOPIC_SEED: Final = 0
_KMEANS_ROUNDS: Final = 20
#: Seeded k-means starts for small inputs: up to this many, while n * k * starts stays in budget.
_KMEANS_STARTS: Final = 8
_KMEANS_START_BUDGET: Final = 100_000
#: k-means stops when fewer than this share of the papers change cluster in a round.
_KMEANS_SETTLED: Final = 0.01
#: Dense k-means blocks are kept between rounds up to this many float32 cells (64 MB).
_DENSE_CACHE_CELLS: Final = 1 << 24
_BLOCK_ROWS: Final = 4096
#: Papers tokenized at a time while building.
_TOKEN_CHUNK: Final = 2048
#: Starred (or skipped) papers scored per batch in ``suggest``: bounds memory to batch x papers.
_BATCH: Final = 32

_SHARED_TERMS: Final = 5
_TOPIC_TERMS: Final = 5
_LABEL_TERMS: Final = 3
LABEL_SEPARATOR: Final = " · "

# --------------------------------------------------------------------------- words

_STOPWORD_TEXT: Final = """
    a about above across after again against all almost along already also although always am
    among an and another any are around as at be because been before being below between both
    but by can cannot could did do does doing done down during each either else enough especially
    etc even ever every few for from further had has have having he her here hers him his how
    however i if in into is it its itself just least less let like likely made make makes making
    many may me might more most much must my neither no nor not now of off often on once one only
    onto or other others otherwise our ours out over own per perhaps rather same shall she should
    since so some such than that the their theirs them themselves then there thereby therefore
    these they this those though through throughout thus to together too toward towards under
    until up upon us very via was we well were what whatever when where whereas whether which
    while who whom whose why will with within without would yet you your yours
    eg ie et al vs cf resp wrt

    paper papers work works study studies propose proposes proposed proposing present presents
    presented introduce introduces introduced introducing approach approaches method methods
    technique techniques framework frameworks result results show shows showed shown showing
    demonstrate demonstrates demonstrated demonstrating find finds found finding findings
    experiment experiments experimental experimentally empirical empirically extensive
    extensively evaluate evaluates evaluated evaluation evaluations outperform outperforms
    outperformed outperforming achieve achieves achieved achieving improve improves improved
    improving improvement improvements significant significantly substantially substantial
    effective effectively efficient efficiently novel new existing prior previous previously recent
    recently current currently state art sota various variety several different diverse wide range
    widely commonly common key main important crucial critical challenge challenges challenging
    problem problems issue issues task tasks address addresses addressing leverage leverages
    leveraging enable enables enabling provide provides provided providing remain remains
    remaining including include includes included based use uses used using usage whose
    able ability often first second third two three four five six seven eight nine ten
    consistently competitive comparable compared comparison comparisons superior better best
    good high higher highly low lower large larger largest small smaller strong stronger
    furthermore moreover additionally specifically particular particularly notably instead
    namely given allows allow allowing aim aims via upon beyond despite toward around yield
    yields code available release released publicly open source https http www com org io html
    github url pdf project page anonymous
    performance due effectiveness potential specific require requires required requiring
    limitation limitations limited solution solutions research simple need needs needed identify
    lead leads leading insight insights rely relies relying perform performs performed
    comprehensive enhance enhances enhanced enhancing application applications finally manner
    discuss discusses discussed consequence consequences know known virtually overall
    respectively typically usually still related whereby furthermore hence seem seems

    mathcal mathbb mathbf mathrm mathsf mathit mathfrak boldsymbol operatorname textit textbf
    texttt textrm textsc textsuperscript textsubscript emph underline href cite citep citet
    frac sqrt ldots cdots dots cdot leq geq le ge neq approx infty widetilde tilde widehat hat
"""
_STOPWORDS: Final[frozenset[str]] = frozenset(_STOPWORD_TEXT.split())

#: Bytes to keep in words: ASCII letters (lower-cased), digits, UTF-8 multi-byte sequences and the
#: two marker bytes. Punctuation that ends a phrase becomes ``_BREAK`` (no bigram spans it);
#: everything else becomes a space.
_END_MARK: Final = b"\x01"
_ABSTRACT_MARK: Final = b"\x02"
_BREAK: Final = "\x03"
_PHRASE_ENDS: Final = b'()[]{},.;:?!/|"<>'


def _byte_class(b: int) -> int:
    if 65 <= b <= 90:
        return b + 32
    if 48 <= b <= 57 or 97 <= b <= 122 or b >= 128 or b in (1, 2):
        return b
    return ord(_BREAK) if b in _PHRASE_ENDS else 32


_TABLE: Final = bytes(_byte_class(b) for b in range(256))
_COMBINING = re.compile(r"[\u0300-\u036f]")
_NON_ASCII = re.compile(r"[^\x00-\x7f]+")
_NON_WORD = re.compile(r"[\W_]+")
_DIMENSION = re.compile(r"[1-9]d")


@functools.lru_cache(maxsize=4096)
def _fold(run: str) -> str:
    """A run of non-ASCII characters as plain words: accents dropped, lower case, ligatures split.

    Other characters (dashes, curly quotes, arrows, ``×``) end a phrase like punctuation does.
    """
    decomposed = _COMBINING.sub("", unicodedata.normalize("NFKD", run))
    return _NON_WORD.sub(" , ", decomposed).lower()


def _plain(text: str) -> str:
    """Text whose words are runs of ASCII letters and digits or UTF-8 letters: accents dropped."""
    if not text.isascii():
        text = _NON_ASCII.sub(lambda match: _fold(match.group()), text)
    if "\x01" in text or "\x02" in text or _BREAK in text:  # the marker characters
        text = text.replace("\x01", " ").replace("\x02", " ").replace(_BREAK, " ")
    return text


def _is_term(word: str) -> bool:
    """Whether a (lower-case) word can be a term: not a stop word, a number or a single letter."""
    if len(word) < 2 or word in _STOPWORDS:
        return False
    return not word[0].isdigit() or _DIMENSION.fullmatch(word) is not None


def _singular(word: str, vocabulary: Mapping[str, object]) -> str:
    """The singular of a plural word when the vocabulary has it (``graphs`` -> ``graph``)."""
    if len(word) < 4 or word[-1] != "s" or word[-2] in "su":
        return word
    if word.endswith("ies") and word[:-3] + "y" in vocabulary:
        return word[:-3] + "y"
    if word.endswith(("sses", "xes", "ches", "shes")) and word[:-2] in vocabulary:
        return word[:-2]
    if word[:-1] in vocabulary:
        return word[:-1]
    return word


def _term_key(word: str, vocabulary: Mapping[str, object]) -> str | None:
    """The term a word counts as (its singular when that is a term), or None for no term."""
    if not _is_term(word):
        return None
    singular = _singular(word, vocabulary)
    return singular if singular == word or _is_term(singular) else word


def _distinct(terms: Iterable[str], limit: int) -> tuple[str, ...]:
    """Up to ``limit`` terms, skipping one whose words an earlier term already shows.

    A bigram that extends earlier single words replaces them (``diffusion`` then
    ``diffusion model`` gives ``diffusion model``).
    """
    chosen: list[str] = []
    for term in terms:
        words = set(term.split())
        overlapping = [i for i, c in enumerate(chosen) if words & set(c.split())]
        if not overlapping:
            if len(chosen) >= limit:
                break
            chosen.append(term)
        elif all(set(chosen[i].split()) < words for i in overlapping):
            chosen[overlapping[0]] = term
            for i in reversed(overlapping[1:]):
                del chosen[i]
    return tuple(chosen)


# --------------------------------------------------------------------------- results


@dataclass(frozen=True, slots=True)
class Neighbour:
    """A paper like the one asked about: its cosine similarity and the terms they share most."""

    paper_id: str
    score: float
    #: The terms that contribute most to the similarity, best first (the "why").
    shared: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Suggestion:
    """A candidate paper in suggested order, and the starred paper it most resembles."""

    paper_id: str
    score: float
    #: The id of the most similar starred paper; None when nothing starred resembles it.
    because: str | None = None


@dataclass(frozen=True, slots=True)
class Topic:
    """A cluster of papers: a short label, its papers (closest to the centre first), its terms."""

    label: str
    paper_ids: tuple[str, ...]
    terms: tuple[str, ...] = ()


# --------------------------------------------------------------------------- the matrix


def _ranges(starts: IntArray, lengths: IntArray) -> IntArray:
    """The concatenation of ``arange(s, s + n)`` for each start ``s`` and length ``n``."""
    total = int(lengths.sum())
    if total == 0:
        return np.zeros(0, dtype=np.int64)
    offsets = np.cumsum(lengths) - lengths
    return np.arange(total, dtype=np.int64) - np.repeat(offsets - starts, lengths)


@dataclass(frozen=True, slots=True)
class _Matrix:
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
        return _distinct((self.terms[int(common[i])] for i in order), _SHARED_TERMS)

    def nbytes(self) -> int:
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
    vocabulary[_END_MARK]
    vocabulary[_ABSTRACT_MARK]
    chunks: list[Int32Array] = []
    for start in range(0, len(papers), _TOKEN_CHUNK):
        parts: list[str] = []
        for paper in papers[start : start + _TOKEN_CHUNK]:
            parts += (_plain(paper.title), "\x02", _plain(paper.abstract), "\x01")
        words = " ".join(parts).encode("utf-8", "replace").translate(_TABLE).split()
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
    before = np.fromiter((t.startswith(_BREAK) for t in texts), dtype=np.bool_, count=len(texts))
    after = np.fromiter((t.endswith(_BREAK) for t in texts), dtype=np.bool_, count=len(texts))
    # "e.g." and "3.5" are one word each: inner punctuation is dropped.
    words = [t.replace(_BREAK, "") if _BREAK in t else t for t in texts]
    present = dict.fromkeys(words)
    term_ids: dict[str, int] = {}
    lookup = np.full(len(words), -1, dtype=np.int32)
    for raw_id, word in enumerate(words[2:], start=2):
        key = _term_key(word, present)
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


def _build(papers: Sequence[Paper]) -> _Matrix:
    """The tf-idf matrix of a corpus (papers with distinct ids).

    Words are read a chunk of papers at a time (twice: once to count bigrams, once to count
    terms per paper), so that the memory a build needs beyond its result stays bounded.
    """
    n = len(papers)
    ids = tuple(p.id for p in papers)
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
    return _Matrix(
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


def _top(scores: FloatArray, limit: int) -> IntArray:
    """Indexes of the ``limit`` highest positive scores, best first, ties in index order."""
    positive = np.flatnonzero(scores > 0)
    if len(positive) > limit:
        cut = np.argpartition(-scores[positive], limit - 1)[:limit]
        threshold = scores[positive[cut]].min()
        positive = positive[scores[positive] >= threshold]
    order = np.lexsort((positive, -scores[positive]))
    return positive[order][:limit]


# --------------------------------------------------------------------------- the index


class SimilarityIndex:
    """Paper-to-paper similarity over a library: neighbours, suggested order, topics."""

    def __init__(self, papers: Sequence[Paper] = ()) -> None:
        self._papers: dict[str, Paper] = {paper.id: paper for paper in papers}
        self._matrix = _build(list(self._papers.values()))

    def add(self, papers: Sequence[Paper]) -> None:
        """Add papers (a paper with a known id replaces it in place) and rebuild the matrix."""
        if not papers:
            return
        for paper in papers:
            self._papers[paper.id] = paper
        # One assignment, so that a query in another thread sees the old or the new matrix.
        self._matrix = _build(list(self._papers.values()))

    def __len__(self) -> int:
        return self._matrix.size

    def __contains__(self, paper_id: object) -> bool:
        return paper_id in self._matrix.rows

    @property
    def vocabulary_size(self) -> int:
        """The number of terms (words and bigrams) in the matrix."""
        return len(self._matrix.terms)

    def memory_bytes(self) -> int:
        """Bytes held by the matrix arrays (rows and postings)."""
        return self._matrix.nbytes()

    def terms(self, paper_id: str, limit: int = 8) -> tuple[str, ...]:
        """A paper's highest-weighted terms; () for an unknown id."""
        matrix = self._matrix
        row = matrix.rows.get(paper_id)
        if row is None:
            return ()
        term_ids, weights = matrix.row(row)
        order = np.lexsort((term_ids, -weights))
        return _distinct((matrix.terms[int(term_ids[i])] for i in order), limit)

    # ------------------------------------------------------------------ similar

    def similar(self, paper_id: str, limit: int = 10) -> list[Neighbour]:
        """The papers most like ``paper_id``, best first, never itself; KeyError if unknown.

        Only papers that share at least one term are returned, so the list may be shorter.
        """
        matrix = self._matrix
        row = matrix.rows.get(paper_id)
        if row is None:
            raise KeyError(f"no paper with id {paper_id!r} in the similarity index")
        if limit <= 0:
            return []
        scores = matrix.products(np.array([row], dtype=np.int64))[0]
        scores[row] = 0.0
        return [
            Neighbour(matrix.ids[j], float(scores[j]), matrix.shared(row, int(j)))
            for j in _top(scores, limit)
        ]

    # ------------------------------------------------------------------ suggest

    def suggest(
        self, statuses: Mapping[str, Status | str], candidates: Sequence[str] | None = None
    ) -> list[Suggestion]:
        """Candidates (default: the Inbox, in list order) ranked by likeness to starred papers.

        ``statuses`` maps paper ids to their state (a ``Status`` or its name, as
        ``Status.parse`` reads it); a paper it does not mention is in the Inbox.
        The score of a candidate is Rocchio's relevance feedback plus its nearest starred paper::

            0.9 cos(paper, centroid of starred + read/4) + 0.1 max cos(paper, a starred paper)
              - 0.5 cos(paper, centroid of skipped)

        A read paper counts a quarter of a starred one (reading it was worth something, but
        less than a star); skipped papers pull down with half the weight of the starred ones.
        The centroid carries most of the weight because it ranked a simulated reader's
        interests best (see ``benchmarks/similar.py``); the nearest starred paper lifts a
        near-duplicate of a lone star. A candidate that is itself starred, read or skipped is
        compared with the others only. ``because`` is the nearest starred paper (None when no
        starred paper shares a term with it). With nothing starred the order is the
        candidates' order and every score 0. Unknown ids are ignored; ties keep the
        candidates' order.
        """
        matrix = self._matrix
        groups: dict[Status, list[int]] = {s: [] for s in Status}
        for paper_id, status in statuses.items():
            row = matrix.rows.get(paper_id)
            if row is not None:
                groups[Status.parse(status)].append(row)
        if candidates is None:
            chosen = [
                row
                for row, paper_id in enumerate(matrix.ids)
                if Status.parse(statuses.get(paper_id, Status.INBOX)) == Status.INBOX
            ]
        else:
            seen: set[int] = set()
            chosen = []
            for paper_id in candidates:
                row = matrix.rows.get(paper_id)
                if row is not None and row not in seen:
                    seen.add(row)
                    chosen.append(row)
        if not chosen:
            return []
        rows = np.array(chosen, dtype=np.int64)
        starred = np.array(sorted(groups[Status.STARRED]), dtype=np.int64)
        if len(starred) == 0:
            return [Suggestion(matrix.ids[r], 0.0, None) for r in chosen]
        read = np.array(sorted(groups[Status.READ]), dtype=np.int64)
        skipped = np.array(sorted(groups[Status.SKIPPED]), dtype=np.int64)

        nearest, because = self._nearest(starred, rows)
        positive_rows = np.concatenate([starred, read])
        positive_weights = np.concatenate([np.ones(len(starred)), np.full(len(read), READ_WEIGHT)])
        likeness = self._centroid_likeness(positive_rows, positive_weights, rows)
        score = (1.0 - NEAREST_WEIGHT) * likeness + NEAREST_WEIGHT * nearest
        if len(skipped):
            unlike = self._centroid_likeness(skipped, np.ones(len(skipped)), rows)
            score = score - SKIP_WEIGHT * unlike
        order = np.argsort(-score, kind="stable")
        return [
            Suggestion(
                matrix.ids[chosen[i]],
                float(score[i]),
                matrix.ids[int(starred[because[i]])] if because[i] >= 0 else None,
            )
            for i in order
        ]

    def _nearest(self, group: IntArray, rows: IntArray) -> tuple[FloatArray, IntArray]:
        """For each row, the best cosine to a member of ``group`` (not itself) and which member."""
        matrix = self._matrix
        best = np.zeros(len(rows))
        which = np.full(len(rows), -1, dtype=np.int64)
        for start in range(0, len(group), _BATCH):
            batch = group[start : start + _BATCH]
            sims = matrix.products(batch)
            sims[np.arange(len(batch)), batch] = 0.0  # a paper is not its own neighbour
            sims = sims[:, rows]
            batch_best = sims.max(axis=0)
            batch_which = sims.argmax(axis=0) + start
            better = batch_best > best
            best[better] = batch_best[better]
            which[better] = batch_which[better]
        return best, which

    def _centroid_likeness(
        self, group: IntArray, weights: FloatArray, rows: IntArray
    ) -> FloatArray:
        """Each row's cosine to the weighted centroid of ``group``, leaving the row itself out."""
        matrix = self._matrix
        centroid = matrix.total(group, weights)
        dots = matrix.dot(centroid)[rows]
        squared = float(centroid @ centroid)
        # A member of the group is compared with the centroid of the others:
        # |c - w x|^2 = |c|^2 - 2 w (x . c) + w^2, and x . (c - w x) = x . c - w (x unit length).
        member_weight = np.zeros(matrix.size)
        member_weight[group] = weights
        own = member_weight[rows] * (matrix.indptr[rows] < matrix.indptr[rows + 1])
        numerator = dots - own
        squared_norms = np.maximum(squared - 2 * own * dots + own * own, 0.0)
        norms = np.sqrt(squared_norms)
        # A real centroid is at least a read paper's quarter long; below that is rounding noise.
        return np.where(norms > 1e-3, numerator / np.where(norms > 1e-3, norms, 1.0), 0.0)

    # ------------------------------------------------------------------ topics

    def topics(self, paper_ids: Sequence[str], k: int | None = None) -> list[Topic]:
        """Cluster papers into ``k`` topics (default ``sqrt(n / 2)`` within 2..30), largest first.

        Unknown ids are ignored. Each topic lists its papers closest to its centre first; papers
        with none of the clustering terms join the largest topic, last. Deterministic (seeded).
        """
        matrix = self._matrix
        seen: set[int] = set()
        chosen: list[int] = []
        for paper_id in paper_ids:
            row = matrix.rows.get(paper_id)
            if row is not None and row not in seen:
                seen.add(row)
                chosen.append(row)
        n = len(chosen)
        if n == 0:
            return []
        if k is None:
            k = min(MAX_TOPICS, max(MIN_TOPICS, round(math.sqrt(n / 2))))
        k = max(1, min(k, n))
        rows = np.array(chosen, dtype=np.int64)
        local, terms, weights = matrix.entries(rows)
        labels, closeness = _kmeans(local, terms, weights, n, k)
        return _topics(matrix, rows, local, terms, weights, labels, closeness)


# --------------------------------------------------------------------------- clustering


class _DenseRows:
    """Papers' rows restricted to a few features, as dense float32 blocks of rows."""

    def __init__(self, local: IntArray, features: IntArray, weights: Float32Array, n: int, m: int):
        self.n, self.m = n, m
        kept = features >= 0
        self._local, self._features, self._weights = local[kept], features[kept], weights[kept]
        norms = np.sqrt(
            np.bincount(self._local, weights=self._weights.astype(np.float64) ** 2, minlength=n)
        )
        self.empty = norms == 0
        self._weights = (self._weights / np.where(norms > 0, norms, 1.0)[self._local]).astype(
            np.float32
        )
        self._bounds = np.searchsorted(self._local, np.arange(0, n + _BLOCK_ROWS, _BLOCK_ROWS))
        self._cache: list[Float32Array] | None = None
        if n * m <= _DENSE_CACHE_CELLS:
            self._cache = [block for _, block in self._make_blocks()]

    def _make_blocks(self) -> Iterator[tuple[int, Float32Array]]:
        for b, start in enumerate(range(0, self.n, _BLOCK_ROWS)):
            rows = min(_BLOCK_ROWS, self.n - start)
            block = np.zeros((rows, self.m), dtype=np.float32)
            lo, hi = self._bounds[b], self._bounds[b + 1]
            block[self._local[lo:hi] - start, self._features[lo:hi]] = self._weights[lo:hi]
            yield start, block

    def row(self, row: int) -> Float32Array:
        """One row as a dense vector."""
        lo, hi = np.searchsorted(self._local, [row, row + 1])
        vector = np.zeros(self.m, dtype=np.float32)
        vector[self._features[lo:hi]] = self._weights[lo:hi]
        return vector

    def dot(self, vector: Float32Array) -> FloatArray:
        """Every row's dot product with one dense vector (sparse: no dense block needed)."""
        products = self._weights * vector[self._features]
        sums = np.bincount(self._local, weights=products, minlength=self.n)
        return sums.astype(np.float64, copy=False)

    def blocks(self) -> Iterator[tuple[int, Float32Array]]:
        """``(first row, block)`` pairs covering every row."""
        if self._cache is None:
            yield from self._make_blocks()
            return
        for b, block in enumerate(self._cache):
            yield b * _BLOCK_ROWS, block

    def similarities(self, centres: Float32Array) -> Float32Array:
        """The ``n x len(centres)`` dot products of the rows with centres."""
        out = np.empty((self.n, len(centres)), dtype=np.float32)
        for start, block in self.blocks():
            out[start : start + len(block)] = block @ centres.T
        return out

    def sums(self, labels: IntArray, k: int) -> FloatArray:
        """The sum of the rows of each label: a ``k x m`` array."""
        keys = labels[self._local] * self.m + self._features
        flat = np.bincount(keys, weights=self._weights, minlength=k * self.m)
        return flat.astype(np.float64, copy=False).reshape(k, self.m)


def _normalised(vectors: FloatArray) -> Float32Array:
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return (vectors / np.where(norms > 0, norms, 1.0)).astype(np.float32)


def _kmeans(
    local: IntArray, terms: IntArray, weights: Float32Array, n: int, k: int
) -> tuple[IntArray, Float32Array]:
    """Spherical k-means: each paper's cluster and its cosine to the cluster's centre."""
    df = np.bincount(terms, minlength=1)
    usable = df >= min(MIN_DF, n)
    if n >= MAX_DF_FROM:
        usable &= df <= MAX_DF_SHARE * n
    candidates = np.flatnonzero(usable)
    ranked = candidates[np.lexsort((candidates, -df[candidates]))][:TOPIC_FEATURES]
    feature_of = np.full(len(df), -1, dtype=np.int64)
    feature_of[ranked] = np.arange(len(ranked))
    rows = _DenseRows(local, feature_of[terms], weights, n, max(len(ranked), 1))

    live = np.flatnonzero(~rows.empty)
    if len(live) == 0 or k == 1:
        return np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.float32)
    k = min(k, len(live))
    # Small inputs get several seeded starts (the best total cosine wins): cheap, and k-means
    # from one start can merge two clear groups of a handful of papers.
    starts = max(1, min(_KMEANS_STARTS, _KMEANS_START_BUDGET // (n * k)))
    rng = np.random.default_rng(TOPIC_SEED)
    best: tuple[float, IntArray, Float32Array] | None = None
    for _ in range(starts):
        labels, closeness = _kmeans_once(rows, live, k, rng)
        total = float(closeness[live].sum())
        if best is None or total > best[0] + 1e-9:
            best = (total, labels, closeness)
    assert best is not None
    _, labels, closeness = best
    if rows.empty.any():
        largest = int(np.bincount(labels[live]).argmax())
        labels[rows.empty] = largest
        closeness[rows.empty] = -1.0
    return labels, closeness


def _kmeans_once(
    rows: _DenseRows, live: IntArray, k: int, rng: np.random.Generator
) -> tuple[IntArray, Float32Array]:
    """One run of spherical k-means from a k-means++ start (cosine distance)."""
    n = rows.n
    first = int(live[rng.integers(len(live))])
    centres = [rows.row(first)]
    nearest = rows.dot(centres[0])
    for _ in range(1, k):
        distance = np.where(rows.empty, 0.0, np.clip(1.0 - nearest, 0.0, None))
        total = distance.sum()
        if total <= 0:
            break
        pick = int(rng.choice(n, p=distance / total))
        centres.append(rows.row(pick))
        nearest = np.maximum(nearest, rows.dot(centres[-1]))
    matrix = np.stack(centres)
    labels = np.full(n, -1, dtype=np.int64)
    sims = rows.similarities(matrix)
    for _ in range(_KMEANS_ROUNDS):
        new_labels = sims.argmax(axis=1)
        if np.count_nonzero(new_labels != labels) <= _KMEANS_SETTLED * n:
            break
        labels = new_labels
        sums = rows.sums(labels, len(matrix))
        sizes = np.bincount(labels[live], minlength=len(matrix))
        closeness = sims[np.arange(n), labels]
        for empty in np.flatnonzero(sizes == 0):
            # An empty cluster restarts from the live paper farthest from its centre.
            far = live[np.argmin(closeness[live])]
            sums[empty] = rows.row(int(far))
            closeness[far] = np.inf
        matrix = _normalised(sums)
        sims = rows.similarities(matrix)
    labels = sims.argmax(axis=1)
    return labels, sims[np.arange(n), labels]


def _topics(
    matrix: _Matrix,
    rows: IntArray,
    local: IntArray,
    terms: IntArray,
    weights: Float32Array,
    labels: IntArray,
    closeness: Float32Array,
) -> list[Topic]:
    """Topics from cluster labels: members by closeness, labelled by over-represented terms."""
    n = len(rows)
    used = np.unique(labels)
    remap = np.full(int(labels.max()) + 1, -1, dtype=np.int64)
    remap[used] = np.arange(len(used))
    labels = remap[labels]
    k = len(used)
    v = max(len(matrix.terms), 1)
    sizes = np.bincount(labels, minlength=k)
    entry_label = labels[local]
    inside = np.bincount(entry_label * v + terms, weights=weights, minlength=k * v).reshape(k, v)
    df_inside = np.bincount(entry_label * v + terms, minlength=k * v).reshape(k, v)
    overall = inside.sum(axis=0) / n
    topics: list[tuple[int, int, Topic]] = []
    for c in range(k):
        members = np.flatnonzero(labels == c)
        order = members[np.lexsort((members, -closeness[members]))]
        size = int(sizes[c])
        distinctive = inside[c] / size - overall
        enough = df_inside[c] >= max(min(2, size), math.ceil(0.1 * size))
        candidates = np.flatnonzero(enough & (distinctive > 0))
        ranked = candidates[np.lexsort((candidates, -distinctive[candidates]))][:40]
        top_terms = _distinct((matrix.terms[int(t)] for t in ranked), _TOPIC_TERMS)
        label = LABEL_SEPARATOR.join(top_terms[:_LABEL_TERMS]) or "miscellaneous"
        topic = Topic(label, tuple(matrix.ids[int(rows[i])] for i in order), top_terms)
        topics.append((-size, int(members.min()), topic))
    topics.sort(key=lambda item: (item[0], item[1]))
    return [topic for _, _, topic in topics]
