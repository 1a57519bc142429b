"""Which words each paper has side by side: a bit signature of its pairs of neighbour words.

A quoted phrase (``"attention is"``) or a hyphenated word's parts in an abstract (``in-context``:
"in context") is checked on a paper's text, read from ``papers.cache`` a chunk of 256 papers
at a time (``filters.py``). Most papers with a phrase's words do not have them in a row (98%
of the 12,674 papers with "in" and "context" in their abstract, at 100,000 papers), and
reading their texts was all of such a search's time: 0.33 s for ``in-context`` in the app,
0.17 s of ``papers search 'transformer "attention is"'``.

So each paper keeps ``PAIR_BYTES`` bytes: for each pair of index words one after the other in
its texts (every field, read as the index reads it: the words a phrase check compares), two
bits set, chosen by a hash of the pair. A paper lacking a bit of a phrase's pair cannot have
the phrase, and is not read; one with them all is read and checked as before (its bits set by
other pairs: 4% of the papers that lack it, with ~200 pairs a paper). The answers are the
text's: the signature only spares the texts that cannot match. Pairs across two texts of a
paper (the title's last word and the next text's first) are set too: more bits, never fewer.

Measured at 100,000 papers (``benchmarks.corpus.scaled_corpus``, CPU time in one process,
before and after on the same machine): ``transformer "attention is"`` 0.23 s → 0.05 s
(1,650 texts read → 108), ``in-context`` in the app (best 5,000) 0.36 s → 0.16 s
(12,674 → 753: its 213 papers saying "in context" are read), ``self-supervised`` 0.10 s →
0.03 s, ``out-of-distribution`` 0.11 s → 0.02 s. The index grows by a tenth (131 → 156 MB).
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

#: Bits of a paper's signature (a power of two), and its bytes: 256 bytes a paper, 26 MB at
#: 100,000 papers.
PAIR_BITS: Final = 2048
PAIR_BYTES: Final = PAIR_BITS // 8

PairBits = npt.NDArray[np.uint8]
_MIX1: Final = np.uint32(0x9E3779B1)
_MIX2: Final = np.uint32(0x85EBCA77)
_MIX3: Final = np.uint32(0x2C1B3C6D)


def _hashes(
    first: npt.NDArray[np.int32], second: npt.NDArray[np.int32]
) -> tuple[npt.NDArray[np.uint32], npt.NDArray[np.uint32]]:
    """The two bits of each pair of word ids (a multiplicative hash of the pair, in 32 bits:
    a build sets them for each of 23 million words at 100,000 papers)."""
    x = first.astype(np.uint32) * _MIX1
    x ^= second.astype(np.uint32) * _MIX2
    x ^= x >> np.uint32(15)
    x *= _MIX3
    x ^= x >> np.uint32(13)
    mask = np.uint32(PAIR_BITS - 1)
    return x & mask, (x >> np.uint32(16)) & mask


def pair_bits(tids: npt.NDArray[np.int32], per_paper: npt.NDArray[np.int64]) -> PairBits:
    """The signatures of papers whose words (ids, every text of a paper in a row, the papers
    one after another) are ``tids``, ``per_paper`` of them each."""
    papers = len(per_paper)
    owner = np.repeat(np.arange(papers, dtype=np.int64), per_paper)
    same = owner[1:] == owner[:-1]
    first, second = tids[:-1][same], tids[1:][same]
    at = owner[1:][same] * PAIR_BITS
    grid = np.zeros(papers * PAIR_BITS, dtype=np.bool_)
    for bit in _hashes(first, second):
        grid[at + bit] = True
    return np.packbits(grid.reshape(papers, PAIR_BITS), axis=1, bitorder="little")


def no_pairs() -> PairBits:
    """No paper's signature."""
    return np.zeros((0, PAIR_BYTES), dtype=np.uint8)


def may_have(signatures: PairBits, pairs: list[tuple[int, int]]) -> npt.NDArray[np.bool_]:
    """For each signature, whether it has the bits of every pair (word ids, in order)."""
    found = np.ones(len(signatures), dtype=np.bool_)
    if not pairs:
        return found
    first = np.array([a for a, _ in pairs], dtype=np.int32)
    second = np.array([b for _, b in pairs], dtype=np.int32)
    for bits in _hashes(first, second):
        for bit in bits.tolist():
            found &= (signatures[:, bit >> 3] >> (bit & 7) & 1).astype(np.bool_)
    return found
