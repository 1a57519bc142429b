"""Whether the papers show that a rare word of theirs was meant, as no slip of the hand.

A rare word one slip from a word the papers say far more often reads as that word
(``Vocabulary._misspelled``: ``difusion``), unless its papers show they meant it: a title says
it (titles are written with care: "Casual Longitudinal Videos" are no causal ones), or a paper
writes it as a name, with a capital past its first letter (LAVA, SMoE, CoED, DPPO), as slips
are not written.
"""

from __future__ import annotations

import weakref
from typing import Final

import numpy as np

from storage.search.postings import Postings
from storage.search.table import PaperTable
from storage.search.text import written_as_name
from storage.search.vocabulary import Vocabulary

#: The papers read to see how they write a word (it is rare: a thirtieth of a look-alike's).
_PAPERS_READ: Final = 8


class MeantWords:
    """``meant(tid)``: whether the library's papers show the word was meant (asked only of a
    rare word that looks like a slip, and remembered with what it stands for)."""

    def __init__(self, table: PaperTable, vocabulary: Vocabulary, postings: Postings) -> None:
        self._table = table
        #: The vocabulary holds this (``Vocabulary.meant``): a weak reference, no cycle. An
        #: import runs with the collector paused, and the cycle kept each index it built (a
        #: 100,000-paper import peaked at 668 MB, not 525 MB).
        self._vocabulary = weakref.ref(vocabulary)
        self._postings = postings

    def __call__(self, tid: int) -> bool:
        vocabulary = self._vocabulary()
        if vocabulary is None:  # (the index it belongs to is gone)
            return False
        table = self._table
        at = np.flatnonzero(table.title_tids == tid)  # a millisecond for 100,000 titles
        if at.size:  # a live paper's title (a removed or replaced paper's slot stays)
            slots = np.searchsorted(table.title_offsets, at, side="right") - 1
            if table.live[slots].any():
                return True
        having = self._postings.docs_with((tid,), len(table)) & table.live
        word = vocabulary.terms[tid]
        for slot in np.flatnonzero(having)[:_PAPERS_READ].tolist():
            paper = table.papers[slot]
            if written_as_name(word, paper.abstract) or written_as_name(word, paper.title):
                return True
        return False
