"""Postings: for each index word, the papers that have it, with a field-weighted BM25 score.

Postings live in *segments*, one per indexed batch of papers, each a CSR table by term id
(``offsets``, then per posting the paper slot, its score and the fields the word is in).
A build makes one segment; ``SearchIndex.add`` appends one per import until a rebuild merges
them (see ``build.py``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt

from storage.search.pairs import PAIR_BYTES, PairBits

FloatArray = npt.NDArray[np.float32]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

#: Field names, in the order of their bit in a posting's field mask.
FIELDS: Final[tuple[str, ...]] = ("title", "name", "authors", "abstract")
AUTHORS: Final = FIELDS.index("authors")
#: Every field's bit set.
ALL_FIELDS: Final = 0xFF
#: The fields (indices) set in each 4-bit field mask.
FIELDS_OF_MASK: Final = tuple(tuple(f for f in range(4) if bits >> f & 1) for bits in range(16))
#: How much a word counts in each field: a title word most, an abstract word least.
FIELD_WEIGHTS: Final = np.array([3.0, 2.5, 2.0, 1.0], dtype=np.float64)
#: BM25 length normalisation per field: titles and names are short and even, abstracts are not.
FIELD_B: Final = np.array([0.5, 0.2, 0.3, 0.75], dtype=np.float64)
#: BM25's term-frequency saturation.
K1: Final = 1.2


@dataclass(frozen=True, slots=True)
class Segment:
    """Postings of a batch of papers, by term id (CSR): docs, field-weighted scores, field masks."""

    offsets: IntArray
    docs: npt.NDArray[np.int32]
    scores: npt.NDArray[np.float16]
    masks: npt.NDArray[np.uint8]
    #: Each paper's signature of its neighbour words (``pairs.py``), by slot from the first of
    #: the segment's batch.
    pairs: PairBits
    #: Words in each field (``FIELDS``) of each paper, by slot from the first of the batch:
    #: what BM25's average field lengths count, over the live papers (``Postings.field_lengths``).
    lengths: npt.NDArray[np.int32]

    def postings(self, tid: int) -> tuple[slice, bool]:
        """The slice of term ``tid``'s postings, and whether it has any."""
        if tid + 1 >= len(self.offsets):  # a word new since this segment was built
            return slice(0, 0), False
        lo, hi = int(self.offsets[tid]), int(self.offsets[tid + 1])
        return slice(lo, hi), hi > lo

    @property
    def nbytes(self) -> int:
        """Memory of the arrays."""
        arrays = (self.offsets, self.docs, self.scores, self.masks, self.pairs, self.lengths)
        return sum(array.nbytes for array in arrays)


class Postings:
    """Every segment of an index, and the field lengths BM25 normalises by."""

    def __init__(self) -> None:
        self.segments: list[Segment] = []

    def __len__(self) -> int:
        """Number of (word, paper) postings."""
        return sum(len(s.docs) for s in self.segments)

    @property
    def nbytes(self) -> int:
        """Memory of the segments' arrays."""
        return sum(s.nbytes for s in self.segments)

    def signatures(self, slots: IntArray) -> PairBits:
        """The neighbour-word signatures of these slots' papers (each segment holds those of
        the slots of its batch, the batches one after another)."""
        found = np.full((len(slots), PAIR_BYTES), 0xFF, dtype=np.uint8)  # (none: may have)
        start = 0
        for segment in self.segments:
            end = start + len(segment.pairs)
            inside = (slots >= start) & (slots < end)
            found[inside] = segment.pairs[slots[inside] - start]
            start = end
        return found

    def field_lengths(self, live: BoolArray) -> npt.NDArray[np.float64]:
        """Words in each field over the live papers of the segments (``live``: a mask over the
        slots, which may go on past the segments' own: a batch being indexed). A dead slot's
        paper (replaced, or gone from the library, until a rebuild) is not counted: its old
        2,000-word abstract made the average abstract of the papers indexed after it longer
        than their fresh build's, and so their scores other. One product of the mask and
        the lengths per segment (1 ms at 100,000 papers, a third of a masked sum's time)."""
        total = np.zeros(len(FIELDS), dtype=np.int64)
        start = 0
        for segment in self.segments:
            end = start + len(segment.lengths)
            total += live[start:end].astype(np.int64) @ segment.lengths
            start = end
        return total.astype(np.float64)

    def docs_with(self, tids: Iterable[int], size: int, field_bits: int = ALL_FIELDS) -> BoolArray:
        """Papers (a mask over ``size`` slots) that contain any of the terms (in those fields)."""
        mask = np.zeros(size, dtype=np.bool_)
        for tid in tids:
            for segment in self.segments:
                span, present = segment.postings(tid)
                if not present:
                    continue
                docs = segment.docs[span]
                if field_bits != ALL_FIELDS:
                    docs = docs[(segment.masks[span] & field_bits) != 0]
                mask[docs] = True
        return mask

    def papers_per_term(self, slots: IntArray, size: int, terms: int) -> IntArray:
        """How many of these slots' papers (of ``size`` slots) have each of the first ``terms``
        words: one gather over every posting (30-65 ms at 100,000 papers)."""
        counts = np.zeros(terms, dtype=np.int64)
        if not len(slots):
            return counts
        chosen = np.zeros(size, dtype=np.bool_)
        chosen[slots] = True
        for segment in self.segments:
            at = np.flatnonzero(chosen[segment.docs])
            if len(at):
                tids = np.searchsorted(segment.offsets, at, side="right") - 1
                counts += np.bincount(tids, minlength=terms)
        return counts

    def best_scores(
        self,
        tids: Sequence[int],
        weights: Sequence[float],
        size: int,
        names_by: float = 1.0,
    ) -> FloatArray:
        """Per paper, the best posting score among the terms, each times its weight; a
        posting of the authors' names alone also times ``names_by``."""
        scores = np.zeros(size, dtype=np.float32)
        for tid, weight in zip(tids, weights, strict=True):
            for segment in self.segments:
                span, present = segment.postings(tid)
                if not present:
                    continue
                docs = segment.docs[span]
                found = segment.scores[span] * np.float32(weight)
                if names_by != 1.0:
                    found[segment.masks[span] == 1 << AUTHORS] *= np.float32(names_by)
                scores[docs] = np.maximum(scores[docs], found)
        return scores

    def name_only_papers(self, tids: Iterable[int], live: BoolArray | None) -> tuple[int, int]:
        """How many postings of the terms, of the live papers (``live``: a mask over the
        slots; None when every slot is live), are in the authors' names alone, and how many
        in another field (a title, a method name, an abstract). A dead slot's are not
        counted: a paper replaced twice counted three times, and could tip a word into a
        topic's. (The mask read at each posting: 0.25 ms a word at 100,000 papers.)"""
        names = other = 0
        for tid in tids:
            for segment in self.segments:
                span, present = segment.postings(tid)
                if not present:
                    continue
                alone = segment.masks[span] == 1 << AUTHORS
                if live is None:
                    found = span.stop - span.start
                else:
                    kept = live[segment.docs[span]]
                    found = int(np.count_nonzero(kept))
                    alone &= kept
                in_names = int(np.count_nonzero(alone))
                names += in_names
                other += found - in_names
        return names, other
