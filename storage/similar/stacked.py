"""A library's matrix made before an import, with the rows the import added: one matrix.

After an import into a large library its matrix is made again from every paper, apart, which
takes seconds (``storage.cache.similar_index``). Meanwhile the matrix made before answers, with
the rows of the papers the import added or changed folded into its terms
(``matrix.fold_in``) on top: a changed paper's row made before is left out, its folded row
counts instead. Rows are the papers' places in the library's list, as in a matrix made from
every paper: the first ``base.size`` are the papers the base was made from, the rest come
after them.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import numpy.typing as npt

from storage.similar.matrix import (
    Float32Array,
    FloatArray,
    Int32Array,
    IntArray,
    Matrix,
    known_rows,
    shared_terms,
    weighted_total,
)


class Stacked:
    """``base`` (its rows: the first papers of ``ids``) with the rows of ``added``, which
    are the papers at ``places`` (ascending) of ``ids``; a place below ``base.size`` is a
    paper whose row in ``base`` is out of date and left out."""

    def __init__(self, base: Matrix, added: Matrix, places: IntArray, ids: tuple[str, ...]) -> None:
        n = len(ids)
        if len(places) != added.size or base.size > n or base.terms != added.terms:
            raise ValueError("the added rows do not fit the matrix")
        if len(places) and (places.min() < 0 or places.max() >= n):
            raise ValueError("the added rows do not fit the matrix")
        if np.count_nonzero(places < base.size) + n - base.size != len(places):
            raise ValueError("a paper after the matrix's has no row")
        self.base, self.added, self.places = base, added, places
        self.ids = ids
        self.rows = {paper_id: i for i, paper_id in enumerate(ids)}
        self.terms = base.terms
        #: each place's row in ``added``, -1 for a row of ``base``
        self._added_row = np.full(n, -1, dtype=np.int64)
        self._added_row[places] = np.arange(len(places), dtype=np.int64)
        self._out_of_date = places[places < base.size]

    @property
    def size(self) -> int:
        return len(self.ids)

    def rows_of(self, paper_ids: Iterable[str]) -> list[int]:
        """The rows of the known ids among ``paper_ids``, each once, in their order."""
        return known_rows(self.rows, paper_ids)

    def row(self, row: int) -> tuple[Int32Array, Float32Array]:
        """The term ids (ascending) and weights of one paper."""
        at = int(self._added_row[row])
        return self.added.row(at) if at >= 0 else self.base.row(row)

    def filled(self, rows: IntArray) -> npt.NDArray[np.bool_]:
        """Whether each of ``rows`` has a term."""
        at = self._added_row[rows]
        mine = at >= 0
        filled = np.zeros(len(rows), dtype=np.bool_)
        filled[~mine] = self.base.filled(rows[~mine])
        filled[mine] = self.added.filled(at[mine])
        return filled

    def entries(self, rows: IntArray) -> tuple[IntArray, IntArray, Float32Array]:
        """The nonzeros of some rows: (position in ``rows``, term id, weight), by position."""
        at = self._added_row[rows]
        mine = at >= 0
        from_base, from_added = np.flatnonzero(~mine), np.flatnonzero(mine)
        local_b, terms_b, weights_b = self.base.entries(rows[from_base])
        local_a, terms_a, weights_a = self.added.entries(at[from_added])
        local = np.concatenate([from_base[local_b], from_added[local_a]])
        order = np.argsort(local, kind="stable")
        terms = np.concatenate([terms_b, terms_a])
        weights = np.concatenate([weights_b, weights_a])
        return local[order], terms[order], weights[order]

    def products(self, rows: IntArray) -> FloatArray:
        """Cosine similarities of some rows with every row: a ``len(rows) x size`` array."""
        local, terms, weights = self.entries(rows)
        width = len(rows) * self.size
        keys, values = self.base.posted(local, terms, weights, self.size)
        flat = np.bincount(keys, weights=values, minlength=width).astype(np.float64, copy=False)
        scores = flat.reshape(len(rows), self.size)
        scores[:, self._out_of_date] = 0.0
        keys, values = self.added.posted(local, terms, weights, self.size, self.places)
        scores += np.bincount(keys, weights=values, minlength=width).reshape(len(rows), self.size)
        return scores

    def dot(self, vector: FloatArray) -> FloatArray:
        """Every row's dot product with a dense vocabulary-sized vector."""
        sums = np.zeros(self.size)
        sums[: self.base.size] = self.base.dot(vector)
        sums[self.places] = self.added.dot(vector)  # out-of-date rows of the base replaced
        return sums

    def total(self, rows: IntArray, weights: FloatArray | None = None) -> FloatArray:
        """The (weighted) sum of some rows, as a dense vocabulary-sized vector."""
        return weighted_total(self.entries(rows), len(self.terms), weights)

    def shared(self, a: int, b: int) -> tuple[str, ...]:
        """The terms two papers share, by their contribution to the similarity."""
        return shared_terms(self.terms, self.row(a), self.row(b))

    def nbytes(self) -> int:
        """Bytes held by the arrays (rows and postings)."""
        return self.base.nbytes() + self.added.nbytes()
