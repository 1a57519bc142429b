"""A library's matrix made before a change, with the rows the change added: one matrix.

After an import into a large library its matrix is made again from every paper, apart, which
takes seconds (``storage.cache.similar_index``). Meanwhile the matrix made before answers, with
the rows of the papers the change added or changed folded into its terms (``matrix.fold_in``)
beside it: the row made before of a changed paper, or of a paper taken out, is left out.
Rows are the papers' places in the library's list, as in a matrix made from every paper.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from storage.arrays import ranges
from storage.similar.matrix import (
    Float32Array,
    FloatArray,
    Int32Array,
    IntArray,
    Matrix,
    Rows,
)


class Stacked(Rows):
    """``base``, whose rows are now the papers at ``base_places`` of ``ids`` (-1: a paper taken
    out since, or changed), with the rows of ``added``, the papers at ``places`` of ``ids``:
    every paper of ``ids`` has exactly one row, of one or the other."""

    def __init__(
        self,
        base: Matrix,
        added: Matrix,
        places: IntArray,
        base_places: IntArray,
        ids: tuple[str, ...],
    ) -> None:
        n = len(ids)
        places = np.asarray(places, dtype=np.int64)
        base_places = np.asarray(base_places, dtype=np.int64)
        live = np.flatnonzero(base_places >= 0)
        if len(places) != added.size or len(base_places) != base.size:
            raise ValueError("the added rows do not fit the matrix")
        if len(base.terms) != len(added.terms):
            raise ValueError("the added rows are not in the matrix's terms")
        placed = np.concatenate([places, base_places[live]])
        if len(placed) != n or (n and (placed.min() < 0 or placed.max() >= n)):
            raise ValueError("not every paper has one row")
        if n and np.bincount(placed, minlength=n).max() > 1:
            raise ValueError("not every paper has one row")
        self.base, self.added = base, added
        self.places, self.base_places = places, base_places
        self.ids = ids
        self.rows = {paper_id: i for i, paper_id in enumerate(ids)}
        self.terms = base.terms
        #: each paper's row in ``added``, and in ``base`` (-1 where it has none there)
        self._added_row = np.full(n, -1, dtype=np.int64)
        self._added_row[places] = np.arange(len(places), dtype=np.int64)
        self._base_row = np.full(n, -1, dtype=np.int64)
        self._base_row[base_places[live]] = live

    @property
    def size(self) -> int:
        return len(self.ids)

    def row(self, row: int) -> tuple[Int32Array, Float32Array]:
        """The term ids (ascending) and weights of one paper."""
        at = int(self._added_row[row])
        return self.added.row(at) if at >= 0 else self.base.row(int(self._base_row[row]))

    def filled(self, rows: IntArray) -> npt.NDArray[np.bool_]:
        """Whether each of ``rows`` has a term."""
        at = self._added_row[rows]
        mine = at >= 0
        filled = np.zeros(len(rows), dtype=np.bool_)
        filled[~mine] = self.base.filled(self._base_row[rows[~mine]])
        filled[mine] = self.added.filled(at[mine])
        return filled

    def entries(self, rows: IntArray) -> tuple[IntArray, IntArray, Float32Array]:
        """The nonzeros of some rows: (position in ``rows``, term id, weight), by position."""
        at = self._added_row[rows]
        mine = at >= 0
        from_base, from_added = np.flatnonzero(~mine), np.flatnonzero(mine)
        local_b, terms_b, weights_b = self.base.entries(self._base_row[rows[from_base]])
        local_a, terms_a, weights_a = self.added.entries(at[from_added])
        local = np.concatenate([from_base[local_b], from_added[local_a]])
        order = np.argsort(local, kind="stable")
        terms = np.concatenate([terms_b, terms_a])
        weights = np.concatenate([weights_b, weights_a])
        return local[order], terms[order], weights[order]

    def products_of(
        self, local: IntArray, terms: IntArray, weights: Float32Array, count: int
    ) -> FloatArray:
        """``products`` of ``count`` rows given by their entries (``entries``, or some)."""
        keys_b, values_b = self.base.posted(local, terms, weights, self.size, self.base_places)
        keys_a, values_a = self.added.posted(local, terms, weights, self.size, self.places)
        flat = np.bincount(
            np.concatenate([keys_b, keys_a]),
            weights=np.concatenate([values_b, values_a]),
            minlength=count * self.size,
        )
        return flat.astype(np.float64, copy=False).reshape(count, self.size)

    def papers_with(self, terms: IntArray) -> IntArray:
        """How many papers have each of ``terms`` (those taken out since counted)."""
        return self.base.papers_with(terms) + self.added.papers_with(terms)

    def papers_having(self, terms: IntArray) -> IntArray:
        """How many of the papers have each of ``terms``: those of ``base`` still there (not
        taken out or changed since), and those added."""
        base = self.base
        starts = base.post_ptr[terms]
        lengths = base.post_ptr[terms + 1] - starts
        live = self.base_places[base.post_docs[ranges(starts, lengths)]] >= 0
        owner = np.repeat(np.arange(len(terms), dtype=np.int64), lengths)
        counts = np.bincount(owner[live], minlength=len(terms))
        return counts.astype(np.int64) + self.added.papers_with(terms)

    def dot(self, vector: FloatArray) -> FloatArray:
        """Every row's dot product with a dense vocabulary-sized vector."""
        sums = np.zeros(self.size)
        if self.base.size:
            live = self.base_places >= 0
            sums[self.base_places[live]] = self.base.dot(vector)[live]
        if self.added.size:
            sums[self.places] = self.added.dot(vector)
        return sums

    def nbytes(self) -> int:
        """Bytes held by the arrays (rows and postings)."""
        return self.base.nbytes() + self.added.nbytes()
