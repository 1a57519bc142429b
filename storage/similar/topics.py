"""Topics: papers clustered by spherical k-means over their tf-idf rows, each labelled by terms.

k-means++ seeding with a fixed seed (so the same papers give the same topics), over the given
papers' rows restricted to their most frequent terms; each topic is labelled by the terms most
over-represented in it.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np

from storage.similar.matrix import (
    MAX_DF_FROM,
    MAX_DF_SHARE,
    MIN_DF,
    Float32Array,
    FloatArray,
    IntArray,
    Rows,
)
from storage.similar.terms import distinct

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
#: Past this many papers, k-means runs over this many of them drawn with the seed (their dense
#: rows kept between rounds: ``_DENSE_CACHE_CELLS``), and every paper then joins the nearest
#: of its centres.
KMEANS_SAMPLE: Final = 16_384
#: k-means stops when fewer than this share of the papers change cluster in a round.
_KMEANS_SETTLED: Final = 0.01
#: Dense k-means blocks are kept between rounds up to this many float32 cells (64 MB).
_DENSE_CACHE_CELLS: Final = 1 << 24
_BLOCK_ROWS: Final = 4096
_TOPIC_TERMS: Final = 5
_LABEL_TERMS: Final = 3
LABEL_SEPARATOR: Final = " · "


@dataclass(frozen=True, slots=True)
class Topic:
    """A cluster of papers: a short label, its papers (closest to the centre first), its terms."""

    label: str
    paper_ids: tuple[str, ...]
    terms: tuple[str, ...] = ()


def cluster(matrix: Rows, rows: Sequence[int], k: int | None = None) -> list[Topic]:
    """Cluster some rows of ``matrix`` into ``k`` topics (default ``sqrt(n / 2)`` within 2..30).

    Largest topic first; each lists its papers closest to its centre first; papers with none of
    the clustering terms join the largest topic, last.
    """
    n = len(rows)
    if n == 0:
        return []
    if k is None:
        k = min(MAX_TOPICS, max(MIN_TOPICS, round(math.sqrt(n / 2))))
    k = max(1, min(k, n))
    chosen = np.array(rows, dtype=np.int64)
    local, terms, weights = matrix.entries(chosen)
    labels, closeness = _kmeans(local, terms, weights, n, k)
    return _topics(matrix, chosen, local, terms, weights, labels, closeness)


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

    def subset(self, rows: IntArray) -> _DenseRows:
        """The rows ``rows`` (ascending) alone, the ``i``-th of them as row ``i``."""
        chosen = np.isin(self._local, rows)
        local = np.searchsorted(rows, self._local[chosen])
        return _DenseRows(local, self._features[chosen], self._weights[chosen], len(rows), self.m)

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
    if len(live) > KMEANS_SAMPLE:
        labels, closeness = _kmeans_sampled(rows, live, k)
    else:
        labels, closeness = _kmeans_all(rows, live, k)
    if rows.empty.any():
        largest = int(np.bincount(labels[live]).argmax())
        labels[rows.empty] = largest
        closeness[rows.empty] = -1.0
    return labels, closeness


def _kmeans_sampled(rows: _DenseRows, live: IntArray, k: int) -> tuple[IntArray, Float32Array]:
    """k-means over ``KMEANS_SAMPLE`` of the ``live`` rows drawn with the seed, then every row
    given to the nearest of its centres (79,805 papers: 10 s over them all, the rows made
    dense again each round)."""
    rng = np.random.default_rng(TOPIC_SEED)
    sample = np.sort(rng.choice(live, KMEANS_SAMPLE, replace=False))
    drawn = rows.subset(sample)
    labels, _ = _kmeans_once(drawn, np.arange(len(sample)), k, rng)
    sims = rows.similarities(_normalised(drawn.sums(labels, k)))
    labels = sims.argmax(axis=1)
    return labels, sims[np.arange(rows.n), labels]


def _kmeans_all(rows: _DenseRows, live: IntArray, k: int) -> tuple[IntArray, Float32Array]:
    """k-means over every row, from one or (few rows) several seeded starts."""
    n = rows.n
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
    return best[1], best[2]


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
    matrix: Rows,
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
        top_terms = distinct((matrix.terms[int(t)] for t in ranked), _TOPIC_TERMS)
        label = LABEL_SEPARATOR.join(top_terms[:_LABEL_TERMS]) or "miscellaneous"
        topic = Topic(label, tuple(matrix.ids[int(rows[i])] for i in order), top_terms)
        topics.append((-size, int(members.min()), topic))
    topics.sort(key=lambda item: (item[0], item[1]))
    return [topic for _, _, topic in topics]
