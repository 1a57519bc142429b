"""Indexing a batch of papers: their words into the vocabulary, their facts into the paper
table, and their postings into a new segment.

Each paper's fields are tokenised (title with camelCase parts, method name, authors, abstract
with keywords) and counted; the counts become BM25 postings with numpy, a chunk of papers at a
time so that a build of 100,000 papers stays within a few tens of MB of temporary memory.
"""

from __future__ import annotations

from array import array
from collections import Counter
from collections.abc import Sequence
from typing import Final

import numpy as np
import numpy.typing as npt

from storage.models import Paper
from storage.search.postings import FIELD_B, FIELD_WEIGHTS, K1, IntArray, Postings, Segment
from storage.search.table import PaperTable
from storage.search.text import (
    method_name,
    normalize,
    query_words,
    split_words,
    tokenize,
    word_key,
)
from storage.search.vocabulary import Vocabulary

#: Papers whose postings are built at a time (bounds the build's temporary memory).
_BUILD_CHUNK: Final = 2048


def index_batch(
    batch: Sequence[Paper],
    ranks: Sequence[int],
    table: PaperTable,
    vocabulary: Vocabulary,
    postings: Postings,
) -> None:
    """Index ``batch`` (papers at the ranks given) into new slots at the end of ``table``."""
    n = len(batch)
    first = len(table)
    known_terms = len(vocabulary)
    tid_of = vocabulary.word_ids()
    # Term ids and counts go straight into compact arrays: a list of the words themselves
    # (millions of short strings at 12,000 papers) would cost ~300 MB at its peak.
    tid_array = array("i")
    freq_array = array("f")
    distinct: list[int] = []
    lengths: list[int] = []
    venue_codes: list[int] = []
    list_codes: list[int] = []
    title_array = array("i")
    title_lengths: list[int] = []
    author_words: set[str] = set()

    for slot, paper in enumerate(batch, start=first):
        table.papers.append(paper)
        table.slot_by_id[paper.id] = slot
        venue = normalize(paper.venue_status).strip()
        venue_codes.append(table.venues.setdefault(venue, len(table.venues)))
        lists = tuple(normalize(x) for x in (paper.lists or (paper.list,)))
        list_codes.append(table.list_sets.setdefault(lists, len(table.list_sets)))
        name = method_name(paper)
        in_order, extra = split_words(paper.title, camel_case=True)
        title_array.extend(map(tid_of, in_order))
        title_lengths.append(len(in_order))
        title_tokens = in_order + extra
        name_tokens = tokenize(name) if name else []
        author_tokens = tokenize("; ".join(paper.authors)) if paper.authors else []
        author_words.update(author_tokens)
        abstract_tokens = tokenize(paper.abstract)
        if paper.keywords:
            abstract_tokens.extend(tokenize(" ".join(paper.keywords)))
        key = word_key("".join(query_words(name)))
        if key:
            table.name_slots.setdefault(key, []).append(slot)
        for tokens in (title_tokens, name_tokens, author_tokens, abstract_tokens):
            counts = Counter(tokens)
            tid_array.extend(map(tid_of, counts))  # ids in order of first sight
            freq_array.extend(counts.values())
            distinct.append(len(counts))
            lengths.append(len(tokens))
    vocabulary.author_tids.update(vocabulary.ids[w] for w in author_words)
    tids = np.frombuffer(tid_array, dtype=np.int32)  # a view: no copy of millions
    title_ids = np.frombuffer(title_array, dtype=np.int32).copy()
    table.append(batch, ranks, venue_codes, list_codes, title_ids, title_lengths)
    field_lengths = np.asarray(lengths, dtype=np.float64).reshape(n, 4)
    postings.field_total += field_lengths.sum(axis=0)
    average = np.maximum(postings.field_total / max(len(table), 1), 1.0)
    segment = _build_segment(
        tids,
        np.frombuffer(freq_array, dtype=np.float32),
        np.asarray(distinct, dtype=np.int64),
        field_lengths,
        average,
        len(vocabulary),
        first,
    )
    del tids, tid_array, freq_array
    postings.segments.append(segment)
    vocabulary.live_papers = table.live_count
    vocabulary.count(np.diff(segment.offsets), new_words=len(vocabulary) > known_terms)


def _build_segment(
    tids: npt.NDArray[np.int32],
    tf: npt.NDArray[np.float32],
    distinct: IntArray,
    field_lengths: npt.NDArray[np.float64],
    average: npt.NDArray[np.float64],
    vocabulary: int,
    first: int,
) -> Segment:
    """Fold (term, paper, field) frequencies into BM25 postings sorted by term, then paper.

    ``tids`` and ``tf`` list each field's distinct words, paper by paper, field by field;
    ``distinct`` says how many each (paper, field) has; ``field_lengths`` how many words each
    (paper, field) has, ``average`` per field over the index; ``vocabulary`` is the number of
    terms and ``first`` the slot of the batch's first paper.

    Millions of entries at 12,000 papers: the work is done ``_BUILD_CHUNK`` papers at a
    time (each chunk's postings sorted by term), then the chunks' postings are merged.
    Done in one go, the temporary arrays took ~120 MB at 12,000 papers; by chunks ~20 MB.
    """
    n = field_lengths.shape[0]
    grid_norm = (K1 * (1.0 - FIELD_B + FIELD_B * field_lengths / average)).astype(np.float32)
    weights = FIELD_WEIGHTS.astype(np.float32)
    bits = np.array([1, 2, 4, 8], dtype=np.uint8)
    entry_end = np.cumsum(distinct)  # per (paper, field)
    #: Each chunk's postings, sorted by term: (terms, docs, scores, masks).
    chunks: list[tuple[npt.NDArray[np.generic], ...]] = []
    for start in range(0, n, _BUILD_CHUNK):
        stop = min(n, start + _BUILD_CHUNK)
        m = stop - start
        lo = int(entry_end[4 * start - 1]) if start else 0
        hi = int(entry_end[4 * stop - 1]) if stop else 0
        counts = distinct[4 * start : 4 * stop]
        tf_chunk = tf[lo:hi]
        scores = tf_chunk * np.float32(K1 + 1.0)
        scores /= tf_chunk + np.repeat(grid_norm[start:stop].ravel(), counts)
        scores *= np.repeat(np.tile(weights, m), counts)
        term_doc = tids[lo:hi].astype(np.int64) * m
        term_doc += np.repeat(np.repeat(np.arange(m, dtype=np.int64), 4), counts)
        order = np.argsort(term_doc, kind="stable")
        term_doc = term_doc[order]
        if not len(term_doc):
            continue
        starts = np.flatnonzero(np.diff(term_doc)) + 1
        starts = np.concatenate([np.zeros(1, dtype=np.int64), starts])
        field_bit = np.repeat(np.tile(bits, m), counts)
        first_of = term_doc[starts]
        chunks.append(
            (
                (first_of // m).astype(np.int32),
                (first_of % m + start + first).astype(np.int32),
                np.add.reduceat(scores[order], starts).astype(np.float16),
                np.bitwise_or.reduceat(field_bit[order], starts),
            )
        )
        del scores, term_doc, order, starts, field_bit, first_of  # before the next chunk's
    # Merge: each chunk's postings go straight to their place (chunks hold ascending
    # papers, so each term's papers stay in order), without sorting them all again; each
    # chunk is let go once placed.
    per_term = [np.bincount(chunk[0], minlength=vocabulary) for chunk in chunks]
    offsets = np.zeros(vocabulary + 1, dtype=np.int64)
    if per_term:
        np.cumsum(np.sum(per_term, axis=0, dtype=np.int64), out=offsets[1:])
    total = int(offsets[-1])
    docs = np.empty(total, dtype=np.int32)
    scores16 = np.empty(total, dtype=np.float16)
    masks = np.empty(total, dtype=np.uint8)
    free = offsets[:-1].copy()  # each term's next free place
    chunks.reverse()
    per_term.reverse()
    while chunks:
        terms, chunk_docs, chunk_scores, chunk_masks = chunks.pop()
        count = per_term.pop()
        place = free[terms] + (np.arange(len(terms)) - (np.cumsum(count) - count)[terms])
        docs[place] = chunk_docs
        scores16[place] = chunk_scores
        masks[place] = chunk_masks
        free += count
    return Segment(offsets=offsets, docs=docs, scores=scores16, masks=masks)
