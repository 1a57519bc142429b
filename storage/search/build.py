"""Indexing a batch of papers: their words into the vocabulary, their facts into the paper
table, and their postings into a new segment.

Each paper's fields are tokenised (title with camelCase parts, method name, authors, abstract
with keywords) a chunk of papers at a time: each field becomes a text of its index words
(``storage.search.text.word_text``), the chunk's texts are joined, cut into words by one
``bytes.translate`` and one ``bytes.split``, and the words numbered by the vocabulary in C,
so that no Python code runs per word (a build of 100,000 papers meets 23 million). The
counts become BM25 postings with numpy, a chunk at a time, so that the temporary memory stays
within a few tens of MB beyond the result.

Finding the words is most of a build, and is Python code per field: from
``SECOND_PROCESS_PAPERS`` papers, a second process finds some chunks' words while this one
finds others' (``storage.second_process``). A chunk's words are numbered by the chunk
(``chunk_words``), then given the vocabulary's ids in the order of the chunks
(``_numbered``): the index is the one a single pass makes, whichever process read a chunk.
Measured (``SearchIndex.lazily`` of 100,000 papers, on this project's 2-core machine, whose
speed changes by the hour): 12.0 s against 15.7 s in one process, and 9.0-9.3 s against
10.7-11.3 s back to back an hour later; the second process peaks at 160 MB.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, MutableSequence, Sequence
from dataclasses import dataclass
from itertools import chain
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from storage.chunk_words import FoundWords, count_of, numbered, renumbered
from storage.models import Paper
from storage.search.postings import FIELD_B, FIELD_WEIGHTS, K1, IntArray, Postings, Segment
from storage.search.table import PaperTable
from storage.search.text import (
    MARK,
    WORD_BYTES,
    forget_pieces,
    method_name,
    normalize,
    query_words,
    word_key,
    word_text,
)
from storage.search.vocabulary import Vocabulary
from storage.second_process import Work, in_order

#: Papers whose postings are built at a time (bounds the build's temporary memory).
_BUILD_CHUNK: Final = 2048
#: Papers whose words are cut from one text at a time (``chunk_words``): the words' objects
#: of a few hundred papers are alive at once, not those of a chunk.
_WORDS_AT_ONCE: Final = 256
#: Texts per paper: title words in order, the title's extra words, name, authors, abstract
#: (with keywords). The first two are the title field: fields are title, name, authors,
#: abstract (``postings.FIELDS``).
_TEXTS: Final = 5
#: Between two texts: the MARK as a word of its own.
_MARK_TEXT: Final = f" {MARK.decode('ascii')} "


def index_batch(
    batch: Iterable[Paper],
    ranks: Sequence[int],
    table: PaperTable,
    vocabulary: Vocabulary,
    postings: Postings,
    *,
    kept: MutableSequence[Paper] | None = None,
) -> None:
    """Index ``batch`` (papers at the ranks given) into new slots at the end of ``table``.

    ``batch`` is read once, in order. With ``kept`` (the same papers, into an empty table)
    the table holds that sequence rather than the papers read: it may read them lazily from
    ``papers.cache`` (``SearchIndex.lazily``).
    """
    first = len(table)
    known_terms = len(vocabulary)
    words: list[_Words] = []
    ids: list[str] = []
    has_code: list[bool] = []
    venue_codes: list[int] = []
    list_codes: list[int] = []
    with vocabulary.numbering_bytes() as tid_of:

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
                venue = normalize(paper.venue_status).strip()
                venue_codes.append(table.venues.setdefault(venue, len(table.venues)))
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
        for papers, found in in_order(chunks(), _WORDS_WORK, second_process=two):
            words.append(_numbered(len(papers), found, tid_of))
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
    postings.field_total += field_lengths.sum(axis=0)
    average = np.maximum(postings.field_total / max(len(table), 1), 1.0)
    segment = _build_segment(words, field_lengths, average, len(vocabulary), first)
    postings.segments.append(segment)
    vocabulary.live_papers = table.live_count
    vocabulary.count(np.diff(segment.offsets), new_words=len(vocabulary) > known_terms)


@dataclass(slots=True)
class _Words:
    """The words of a chunk of papers, as term ids, paper by paper, field by field."""

    tids: npt.NDArray[np.int32]
    #: Words in each (paper, text) (``_TEXTS`` a paper).
    counts: IntArray
    #: The ids of the words of each title, in order (its first text).
    titles: npt.NDArray[np.int32]
    #: The ids of the words of the authors' names.
    authors: npt.NDArray[np.int32]

    @property
    def fields(self) -> npt.NDArray[np.float64]:
        """Words in each (paper, field), as floats: title (its two texts), name, authors,
        abstract."""
        counts = self.counts
        return np.column_stack([counts[:, 0] + counts[:, 1], counts[:, 2:]]).astype(np.float64)


#: A paper's texts as a chunk's words are found from them: title, method name, authors (joined
#: by "; "), abstract, keywords (joined by spaces).
Fields = tuple[str, str, str, str, str]


def chunk_words(papers: Sequence[Fields]) -> FoundWords:
    """The words of a chunk of papers (``Fields``): each field a text of its index words, a
    ``MARK`` word after each, numbered in the order met.

    The numbering is the chunk's own, so that a second process can find a chunk's words while
    this one finds another's; ``_numbered`` gives the chunk's words the vocabulary's ids, in
    the order of the chunks, so that the ids are those of one pass over every word in order.
    """

    def words() -> Iterator[list[bytes]]:
        """The words of a few hundred papers at a time (their objects: a few MB)."""
        for start in range(0, len(papers), _WORDS_AT_ONCE):
            parts: list[str] = []
            for title, name, authors, abstract, keywords in papers[start : start + _WORDS_AT_ONCE]:
                in_order, extra = word_text(title, camel_case=True)
                name_words = " ".join(word_text(name)) if name else ""
                author_words = " ".join(word_text(authors)) if authors else ""
                abstract_words = " ".join(word_text(abstract))
                if keywords:
                    abstract_words = f"{abstract_words} {' '.join(word_text(keywords))}"
                parts += (in_order, extra, name_words, author_words, abstract_words)
            # each text ends with a MARK word: where the marks are says how many words each has
            parts.append("")
            yield (
                _MARK_TEXT.join(parts)
                .encode("utf-8", "surrogatepass")
                .translate(WORD_BYTES)
                .split()
            )

    found = numbered(chain.from_iterable(words()))
    forget_pieces()  # a chunk's own: kept, its entries would pin memory a build frees
    return found


def _found_words(found: object, papers: object) -> bool:
    """Whether ``found`` can be ``chunk_words`` of ``papers`` (a second process's answer)."""
    marks = count_of(found, MARK)
    return isinstance(papers, list) and marks == _TEXTS * len(papers)


#: A chunk's words: found here or by a second process, in the order of the chunks.
_WORDS_WORK: Final[Work[list[Fields], FoundWords]] = Work(
    f"{__name__}:chunk_words", chunk_words, lambda papers: papers, _found_words
)
#: From this many papers a build finds some chunks' words in a second process (which takes
#: a fraction of a second to start).
SECOND_PROCESS_PAPERS: Final = 8 * _BUILD_CHUNK


def _numbered(papers: int, found: FoundWords, tid_of: Callable[[bytes], int]) -> _Words:
    """The words of a chunk of ``papers`` papers (``chunk_words``), numbered by ``tid_of``."""
    found_ids = renumbered(found, tid_of)
    marks = np.flatnonzero(found_ids < 0)
    per_text = np.diff(np.concatenate([np.full(1, -1, dtype=np.int64), marks])) - 1
    tids = found_ids[found_ids >= 0]
    del found_ids, marks
    text_of = np.repeat(np.arange(len(per_text)), per_text) % _TEXTS
    counts = per_text.reshape(papers, _TEXTS)
    starts = np.zeros(papers, dtype=np.int64)
    np.cumsum(counts.sum(axis=1)[:-1], out=starts[1:])
    return _Words(
        tids=tids,
        counts=counts,
        titles=tids[_ranges(starts, counts[:, 0])],
        authors=np.unique(tids[text_of == 3]),
    )


def _ranges(starts: IntArray, lengths: IntArray) -> IntArray:
    """The concatenation of ``arange(s, s + n)`` for each start ``s`` and length ``n``."""
    total = int(lengths.sum())
    if total == 0:
        return np.zeros(0, dtype=np.int64)
    offsets = np.cumsum(lengths) - lengths
    return np.arange(total, dtype=np.int64) - np.repeat(offsets - starts, lengths)


def _build_segment(
    words: list[_Words],
    field_lengths: npt.NDArray[np.float64],
    average: npt.NDArray[np.float64],
    vocabulary: int,
    first: int,
) -> Segment:
    """Fold (term, paper, field) frequencies into BM25 postings sorted by term, then paper.

    ``words`` holds each chunk's words (emptied as it goes: each chunk's words are let go
    once its postings are placed), ``field_lengths`` how many words each (paper, field) has,
    ``average`` each field's length over the index; ``vocabulary`` is the number of terms
    and ``first`` the slot of the batch's first paper.

    The work is done a chunk of papers at a time (a chunk's words sorted by term, paper and
    field, so that equal ones are counted as they lie side by side), twice: once to count
    each term's postings (where each term's go), once to place each chunk's postings. Kept
    from the first pass until all are placed, the chunks' postings would take as much memory
    as the result (190 MB at 100,000 papers) for the 10% of the build that the second
    sort costs.
    """
    per_term = np.zeros(vocabulary, dtype=np.int64)
    start = 0
    for part in words:
        m = len(part.counts)
        if len(part.tids):
            key = part.tids.astype(np.int64) * m
            key += np.repeat(np.arange(m, dtype=np.int64), part.counts.sum(axis=1))
            key.sort()
            firsts = np.concatenate([key[:1], key[1:][key[1:] != key[:-1]]])
            per_term += np.bincount(firsts // m, minlength=vocabulary)
            del key, firsts
        start += m
    offsets = np.zeros(vocabulary + 1, dtype=np.int64)
    np.cumsum(per_term, out=offsets[1:])
    del per_term
    total = int(offsets[-1])
    docs = np.empty(total, dtype=np.int32)
    scores16 = np.empty(total, dtype=np.float16)
    masks = np.empty(total, dtype=np.uint8)
    free = offsets[:-1].copy()  # each term's next free place
    grid_norm = (K1 * (1.0 - FIELD_B + FIELD_B * field_lengths / average)).astype(np.float32)
    start = 0
    words.reverse()
    while words:
        part = words.pop()
        m = len(part.counts)
        if len(part.tids):
            terms, chunk_docs, chunk_scores, chunk_masks = _chunk_postings(
                part, grid_norm[start : start + m], start + first
            )
            del part
            # chunks hold ascending papers: each term's papers stay in order
            count = np.bincount(terms, minlength=vocabulary)
            place = free[terms] + (np.arange(len(terms)) - (np.cumsum(count) - count)[terms])
            docs[place] = chunk_docs
            scores16[place] = chunk_scores
            masks[place] = chunk_masks
            free += count
            del terms, chunk_docs, chunk_scores, chunk_masks, count, place  # before the next's
        start += m
    return Segment(offsets=offsets, docs=docs, scores=scores16, masks=masks)


_WEIGHTS: Final = FIELD_WEIGHTS.astype(np.float32)
_BITS: Final = np.array([1, 2, 4, 8], dtype=np.uint8)
#: The field of each of a paper's texts: the title's two (its words, its extra words) are one.
_FIELD_OF_TEXT: Final = np.array([0, 0, 1, 2, 3], dtype=np.int64)


def _chunk_postings(
    part: _Words, grid_norm: npt.NDArray[np.float32], first: int
) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32], npt.NDArray[np.float16], Any]:
    """The postings of a chunk's papers (the first at slot ``first``), sorted by term then
    paper: terms, slots, field-weighted BM25 scores, field masks."""
    m = len(part.counts)
    # a word's key: term, then (paper, field) within the chunk; sorted, equal keys are one
    # field's occurrences of one word, and keys of one (term, paper) lie together
    key = part.tids.astype(np.int64) * (4 * m)
    place_of_text = np.repeat(np.arange(m, dtype=np.int64) * 4, _TEXTS) + np.tile(_FIELD_OF_TEXT, m)
    key += np.repeat(place_of_text, part.counts.ravel())
    key.sort()
    starts = np.flatnonzero(key[1:] != key[:-1]) + 1
    starts = np.concatenate([np.zeros(1, dtype=np.int64), starts])
    tf = np.diff(np.append(starts, len(key))).astype(np.float32)
    found = key[starts]  # one per (term, paper, field)
    del key, starts
    place = found % (4 * m)  # paper * 4 + field, within the chunk
    field = place & 3
    scores = tf * np.float32(K1 + 1.0)
    scores /= tf + grid_norm.ravel()[place]
    scores *= _WEIGHTS[field]
    term_doc = found >> 2  # term * m + paper: fields of one (term, paper) side by side
    firsts = np.flatnonzero(term_doc[1:] != term_doc[:-1]) + 1
    firsts = np.concatenate([np.zeros(1, dtype=np.int64), firsts])
    first_of = term_doc[firsts]
    return (
        (first_of // m).astype(np.int32),
        (first_of % m + first).astype(np.int32),
        np.add.reduceat(scores, firsts).astype(np.float16),
        np.bitwise_or.reduceat(_BITS[field], firsts),
    )
