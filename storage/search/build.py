"""Indexing a batch of papers: their words into the vocabulary, their facts into the paper
table, and their postings into a new segment.

Each paper's texts are cut into words a chunk of papers at a time (``storage.paper_words``:
title with camelCase parts, method name, authors, abstract, keywords, each a text of its index
words, joined, cut by one ``bytes.translate`` and one ``bytes.split``) and the words numbered
by the vocabulary in C, so that no Python code runs per word (a build of 100,000 papers meets
23 million). The counts become BM25 postings with numpy, a chunk at a time, so that the
temporary memory stays within a few tens of MB beyond the result. The same words, kept, make
the similarity matrix (``storage.paper_words.SimilarityWords``).

Cutting the words is most of a build, and is Python code per field: from
``SECOND_PROCESS_PAPERS`` papers, a second process cuts some chunks' words while this one
cuts others' (``storage.second_process``). A chunk's words are numbered by the chunk, then
given the vocabulary's ids in the order of the chunks (``RawWords``): the index is the one a
single pass makes, whichever process read a chunk. Measured (``SearchIndex.lazily`` of
100,000 papers, on this project's 2-core machine, whose speed changes by the hour): 12.0 s
against 15.7 s in one process, and 9.0-9.3 s against 10.7-11.3 s back to back an hour later;
the second process peaks at 160 MB.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator, MutableSequence, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from storage.arrays import ahead, ranges
from storage.chunk_words import FoundWords
from storage.models import Paper
from storage.paper_words import (
    ABSTRACT,
    ABSTRACT_EXTRA,
    AUTHORS,
    NAME,
    TEXTS,
    TITLE,
    TITLE_EXTRA,
    Fields,
    RawWords,
    SimilarityWords,
    chunk_words,
    found_words_of,
)
from storage.search.pairs import no_pairs, pair_bits
from storage.search.postings import FIELD_B, FIELD_WEIGHTS, K1, IntArray, Postings, Segment
from storage.search.table import PaperTable
from storage.search.text import forget_pieces, method_name, normalize, query_words, word_key
from storage.search.vocabulary import Vocabulary
from storage.second_process import Work, in_order
from storage.sources.decisions import in_one_word

#: Papers whose postings are built at a time (bounds the build's temporary memory).
_BUILD_CHUNK: Final = 2048


def index_batch(
    batch: Iterable[Paper],
    ranks: Sequence[int],
    table: PaperTable,
    vocabulary: Vocabulary,
    postings: Postings,
    *,
    kept: MutableSequence[Paper] | None = None,
    similarity: Callable[[RawWords], SimilarityWords] | None = None,
) -> SimilarityWords | None:
    """Index ``batch`` (papers at the ranks given) into new slots at the end of ``table``.

    ``batch`` is read once, in order. With ``kept`` (the same papers, into an empty table)
    the table holds that sequence rather than the papers read: it may read them lazily from
    ``papers.cache`` (``SearchIndex.lazily``). With ``similarity``, the title and abstract
    words of the batch are kept for the similarity matrix, and returned.
    """
    first = len(table)
    known_terms = len(vocabulary)
    words: list[_Words] = []
    ids: list[str] = []
    has_code: list[bool] = []
    venue_codes: list[int] = []
    list_codes: list[int] = []
    venue_code = _VenueCodes(table.venues)
    with vocabulary.numbering_bytes() as tid_of:
        raw = RawWords(tid_of)
        kept_words = None if similarity is None else similarity(raw)

        def chunks() -> Iterator[list[Fields]]:
            """The papers' fields a chunk at a time, each paper's facts put in the table."""
            pending: list[Fields] = []
            for paper in batch:
                slot = first + len(ids)
                ids.append(paper.id)
                has_code.append(bool(paper.github))
                if kept is None:
                    table.papers.append(paper)
                table.slot_by_id[paper.id] = slot
                venue_codes.append(venue_code(paper.venue_status))
                lists = tuple(normalize(x) for x in (paper.lists or (paper.list,)))
                list_codes.append(table.list_sets.setdefault(lists, len(table.list_sets)))
                name = method_name(paper)
                key = word_key("".join(query_words(name))) if name else ""
                if key:
                    table.name_slots.setdefault(key, []).append(slot)
                authors, keywords = "; ".join(paper.authors), " ".join(paper.keywords)
                pending.append((paper.title, name, authors, paper.abstract, keywords))
                if len(pending) == _BUILD_CHUNK:
                    yield pending
                    pending = []
            if pending:
                yield pending

        # a large batch: some chunks' words found by a second process (``storage.second_process``)
        two = len(ranks) >= SECOND_PROCESS_PAPERS
        with _PapersPerTerm() as counted:
            for papers, found in in_order(chunks(), _WORDS_WORK, second_process=two):
                numbers = raw.number(found)
                words.append(_numbered(len(papers), raw.index_words(numbers)))
                counted.add(words[-1])
                if kept_words is not None:
                    kept_words.add(numbers)
                del numbers
            counts = counted.total()
        forget_pieces()
    if kept is not None:
        if first or len(kept) != len(ids):
            raise ValueError("kept: the papers indexed, into an empty table")
        table.papers = kept
    for chunk in words:
        vocabulary.author_tids.update(chunk.authors.tolist())
    titles = [chunk.titles for chunk in words]
    title_lengths = [chunk.counts[:, 0] for chunk in words]
    table.append(
        ids,
        has_code,
        ranks,
        venue_codes,
        list_codes,
        np.concatenate(titles) if titles else np.zeros(0, dtype=np.int32),
        np.concatenate(title_lengths) if title_lengths else np.zeros(0, dtype=np.int64),
    )
    field_lengths = np.concatenate([c.fields for c in words]) if words else np.zeros((0, 4))
    # the live papers' lengths: those of the segments' live slots (a slot this batch replaces
    # is dead already, ``PaperTable.ranks_for``), and the batch's
    live_total = postings.field_lengths(table.live) + field_lengths.sum(axis=0)
    average = np.maximum(live_total / max(table.live_count, 1), 1.0)
    per_term = np.zeros(len(vocabulary), dtype=np.int64)
    per_term[: len(counts)] = counts
    pairs = [pair_bits(chunk.tids, chunk.counts.sum(axis=1)) for chunk in words]
    segment = _build_segment(words, per_term, field_lengths, average, first)
    segment = replace(
        segment,
        pairs=np.concatenate(pairs) if pairs else no_pairs(),
        lengths=field_lengths.astype(np.int32),
    )
    postings.segments.append(segment)
    vocabulary.live_papers = table.live_count
    vocabulary.count(np.diff(segment.offsets), new_words=len(vocabulary) > known_terms)
    return kept_words


def forget_slots(
    slots: Sequence[int], table: PaperTable, vocabulary: Vocabulary, postings: Postings
) -> None:
    """Take the papers of slots just dead (replaced by a new slot, or gone from the library)
    out of the statistics: their words out of the document frequencies the idf and the slip
    ratio read, and they out of the live papers the idf counts (until a rebuild, a paper
    replaced twice counted its word three times: a word of its own against a look-alike)."""
    dead = np.asarray(slots, dtype=np.int64)
    per_term = postings.papers_per_term(dead, len(table), len(vocabulary))
    vocabulary.forget(per_term, table.live_count)


class _VenueCodes:
    """The code of a paper's venue status in the table's ``venues`` (folded), each distinct
    status folded once: a decision against the paper under its one word, whichever words a
    library imported before stored (``Withdraw`` is ``withdrawn``: ``status:withdrawn``)."""

    def __init__(self, venues: dict[str, int]) -> None:
        self._venues = venues
        self._codes: dict[str, int] = {}

    def __call__(self, status: str) -> int:
        code = self._codes.get(status)
        if code is None:
            venue = normalize(in_one_word(status)).strip()
            code = self._codes[status] = self._venues.setdefault(venue, len(self._venues))
        return code


@dataclass(slots=True)
class _Words:
    """The words of a chunk of papers, as term ids, paper by paper, field by field."""

    tids: npt.NDArray[np.int32]
    #: Words in each (paper, text) (``TEXTS`` a paper).
    counts: IntArray
    #: The ids of the words of each title, in order (its first text).
    titles: npt.NDArray[np.int32]
    #: The ids of the words of the authors' names.
    authors: npt.NDArray[np.int32]

    @property
    def fields(self) -> npt.NDArray[np.float64]:
        """Words in each (paper, field), as floats: title (its two texts), name, authors,
        abstract (with its extra words and keywords)."""
        counts = self.counts
        return np.column_stack(
            [
                counts[:, TITLE] + counts[:, TITLE_EXTRA],
                counts[:, NAME],
                counts[:, AUTHORS],
                counts[:, ABSTRACT] + counts[:, ABSTRACT_EXTRA],
            ]
        ).astype(np.float64)


#: A chunk's words: cut here or by a second process, in the order of the chunks.
_WORDS_WORK: Final[Work[list[Fields], FoundWords]] = Work(
    "storage.paper_words:chunk_words", chunk_words, lambda papers: papers, found_words_of
)
#: From this many papers a build finds some chunks' words in a second process (which takes
#: a fraction of a second to start).
SECOND_PROCESS_PAPERS: Final = 8 * _BUILD_CHUNK


def _numbered(papers: int, found_ids: IntArray) -> _Words:
    """The words of a chunk of ``papers`` papers by their vocabulary ids (``MARK``: -1)."""
    is_mark = found_ids < 0
    marks = np.flatnonzero(is_mark)
    per_text = np.diff(marks, prepend=-1) - 1
    tids = found_ids[~is_mark].astype(np.int32)
    del found_ids, marks, is_mark
    counts = per_text.reshape(papers, TEXTS)
    starts = np.zeros(papers, dtype=np.int64)
    np.cumsum(counts.sum(axis=1)[:-1], out=starts[1:])
    authors_at = starts + counts[:, :AUTHORS].sum(axis=1)
    return _Words(
        tids=tids,
        counts=counts,
        titles=tids[ranges(starts, counts[:, TITLE])],
        authors=np.unique(tids[ranges(authors_at, counts[:, AUTHORS])]),
    )


class _PapersPerTerm:
    """How many of a batch's papers have each term (each term's postings), counted a chunk at
    a time by a thread as the chunks are numbered: numpy lets go of the interpreter while it
    sorts, so that the count is made while this process numbers the next chunks, no longer
    after them all (the postings made after the last chunk at 100,000 papers: 2.6 s instead
    of 3.9; 1.9 s with each chunk's postings sorted ahead, ``_build_segment``)."""

    def __init__(self) -> None:
        from concurrent.futures import Future, ThreadPoolExecutor

        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="postings")
        self._pending: deque[Future[IntArray]] = deque()
        self._total = np.zeros(0, dtype=np.int64)

    def __enter__(self) -> _PapersPerTerm:
        return self

    def __exit__(self, *exc: object) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)

    def add(self, part: _Words) -> None:
        """Count a chunk's papers per term (on the thread)."""
        self._pending.append(self._pool.submit(_papers_per_term, part))
        while len(self._pending) > 2:  # the counts of a few chunks at a time
            self._take(self._pending.popleft().result())

    def total(self) -> IntArray:
        """Each term's papers, every chunk counted (up to the largest term id met)."""
        while self._pending:
            self._take(self._pending.popleft().result())
        return self._total

    def _take(self, counts: IntArray) -> None:
        if len(counts) > len(self._total):
            grown = np.zeros(len(counts), dtype=np.int64)
            grown[: len(self._total)] = self._total
            self._total = grown
        self._total[: len(counts)] += counts


def _papers_per_term(part: _Words) -> IntArray:
    """How many of a chunk's papers have each term (up to the chunk's largest term id)."""
    m = len(part.counts)
    if not len(part.tids):
        return np.zeros(0, dtype=np.int64)
    shift = _bits_for(m)
    key = _keys(part.tids, shift)
    key += np.repeat(np.arange(m, dtype=key.dtype), part.counts.sum(axis=1))
    key.sort()
    return np.bincount(key[_firsts(key)] >> shift)


def _bits_for(count: int) -> int:
    """The bits that hold a number below ``count``."""
    return max(count - 1, 1).bit_length()


def _keys(tids: npt.NDArray[np.int32], shift: int) -> IntArray:
    """``tids`` shifted left by ``shift`` bits, room below for what is added: as int32 when
    they fit (sorted twice as fast as int64), else int64. The keys' order, and what is read
    back from them by shifts and masks, are the same either way."""
    top = (int(tids.max()) + 1) << shift
    key: IntArray = tids.astype(np.int32 if top < 2**31 else np.int64)
    key <<= shift
    return key


def _firsts(key: IntArray) -> npt.NDArray[np.bool_]:
    """Where each run of equal keys (sorted) starts."""
    first = np.empty(len(key), dtype=np.bool_)
    if len(key):
        first[0] = True
        np.not_equal(key[1:], key[:-1], out=first[1:])
    return first


def _build_segment(
    words: list[_Words],
    per_term: IntArray,
    field_lengths: npt.NDArray[np.float64],
    average: npt.NDArray[np.float64],
    first: int,
) -> Segment:
    """Fold (term, paper, field) frequencies into BM25 postings sorted by term, then paper.

    ``words`` holds each chunk's words (emptied as it goes: each chunk's words are let go
    once its postings are placed), ``per_term`` how many papers have each term (where each
    term's postings go: ``_PapersPerTerm``), ``field_lengths`` how many words each (paper,
    field) has, ``average`` each field's length over the live papers; ``first`` is the slot of the
    batch's first paper.

    The work is done a chunk of papers at a time (a chunk's words sorted by term, paper and
    field, so that equal ones are counted as they lie side by side), twice: once to count
    each term's postings (as the chunks are numbered), once to place each chunk's postings.
    Kept from the first pass until all are placed, the chunks' postings would take as much
    memory as the result (190 MB at 100,000 papers) for the 10% of the build that the second
    sort costs.
    """
    vocabulary = len(per_term)
    offsets = np.zeros(vocabulary + 1, dtype=np.int64)
    np.cumsum(per_term, out=offsets[1:])
    del per_term
    total = int(offsets[-1])
    docs = np.empty(total, dtype=np.int32)
    scores16 = np.empty(total, dtype=np.float16)
    masks = np.empty(total, dtype=np.uint8)
    free = offsets[:-1].copy()  # each term's next free place
    grid_norm = (K1 * (1.0 - FIELD_B + FIELD_B * field_lengths / average)).astype(np.float32)
    starts = np.cumsum([0] + [len(part.counts) for part in words])
    chunks: list[_Words | None] = list(words)
    words.clear()

    def postings_of(number: int) -> tuple[Any, ...]:
        part, chunks[number] = chunks[number], None  # its postings made: its words let go
        assert part is not None
        if not len(part.tids):
            return ()
        at = int(starts[number])
        return _chunk_postings(part, grid_norm[at : at + len(part.counts)], at + first)

    # each chunk's postings sorted by a thread while this one places the chunk's before
    for found in ahead(postings_of, range(len(chunks)), depth=1, name="postings"):
        if not found:
            continue
        terms, chunk_docs, chunk_scores, chunk_masks = found
        del found
        # chunks hold ascending papers: each term's papers stay in order
        count = np.bincount(terms, minlength=vocabulary)
        # a posting's place: its term's next free one, plus its rank among the term's here
        place = (free - (np.cumsum(count) - count))[terms]
        place += np.arange(len(terms))
        docs[place] = chunk_docs
        scores16[place] = chunk_scores
        masks[place] = chunk_masks
        free += count
        del terms, chunk_docs, chunk_scores, chunk_masks, count, place  # before the next's
    return Segment(
        offsets=offsets,
        docs=docs,
        scores=scores16,
        masks=masks,
        pairs=no_pairs(),
        lengths=np.zeros((0, len(FIELD_B)), dtype=np.int32),
    )


_WEIGHTS: Final = FIELD_WEIGHTS.astype(np.float32)
_BITS: Final = np.array([1, 2, 4, 8], dtype=np.uint8)
#: The field of each of a paper's texts: the title's two (its words, its extra words) are one,
#: and so are the abstract's (its words, its extra words with the keywords).
_FIELD_OF_TEXT: Final = np.array([0, 0, 1, 2, 3, 3], dtype=np.int64)


def _chunk_postings(
    part: _Words, grid_norm: npt.NDArray[np.float32], first: int
) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32], npt.NDArray[np.float16], Any]:
    """The postings of a chunk's papers (the first at slot ``first``), sorted by term then
    paper: terms, slots, field-weighted BM25 scores, field masks."""
    m = len(part.counts)
    # a word's key: term, then (paper, field) within the chunk, in bits of their own; sorted,
    # equal keys are one field's occurrences of one word, and keys of one (term, paper) lie
    # together
    papers = _bits_for(m)
    key = _keys(part.tids, papers + 2)
    place_of_text = np.repeat(np.arange(m, dtype=key.dtype) * 4, TEXTS)
    place_of_text += np.tile(_FIELD_OF_TEXT.astype(key.dtype), m)
    key += np.repeat(place_of_text, part.counts.ravel())
    key.sort()
    starts = np.flatnonzero(_firsts(key))
    tf = np.diff(np.append(starts, len(key))).astype(np.float32)
    found = key[starts]  # one per (term, paper, field)
    del key, starts
    place = found & ((1 << (papers + 2)) - 1)  # paper * 4 + field, within the chunk
    field = place & 3
    scores = tf * np.float32(K1 + 1.0)
    scores /= tf + grid_norm.ravel()[place]
    scores *= _WEIGHTS[field]
    term_doc = found >> 2  # term, then paper: fields of one (term, paper) side by side
    firsts = np.flatnonzero(_firsts(term_doc))
    first_of = term_doc[firsts]
    return (
        (first_of >> papers).astype(np.int32),
        ((first_of & ((1 << papers) - 1)) + first).astype(np.int32),
        np.add.reduceat(scores, firsts).astype(np.float16),
        np.bitwise_or.reduceat(_BITS[field], firsts),
    )
