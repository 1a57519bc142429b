"""The words of papers' texts, cut once for both indexes: the search index and the similarity.

A paper is six texts (``TEXTS``): its title's words in order, the title's extra index words
(joined compounds, camelCase parts), its method name, its authors, its abstract's words in
order, and the abstract's extra words with its keywords; each as the search index reads it
(``storage.search.text.word_text``: LaTeX converted, folded, Greek letters by name). A chunk
of papers' texts is joined with a ``MARK`` word after each text, encoded, and cut by one
``bytes.translate`` and one ``bytes.split`` into *raw words*: runs of letters and digits in
which the punctuation that ends a phrase (``BREAK``: ``model.``, ``(llm)``, ``e.g.``) is kept,
glued to the word before or after it.

From the same raw words,

- the search index takes the *parts* of each raw word, its runs of letters and digits
  (``model.`` is ``model``, ``e.g.`` is ``e`` and ``g``): exactly the words of the text cut at
  every character that is not a letter or digit;
- the similarity takes the raw words of the title and the abstract (``SimilarityWords``): a
  ``BREAK`` at a word's edge ends a phrase (no bigram spans it), one inside joins it
  (``e.g.`` is ``eg``, ``3.5`` one number).

So the words of 100,000 papers are cut and numbered once for both, not once each: an import
makes ``similar.index`` beside ``search.index`` from the words the search index was built
from (``benchmarks.cli``: the similarity's own words were 5 s of its 9 s build).

A chunk's raw words are numbered by the chunk (``chunk_words``), so that a second process can
cut some chunks while this one cuts others (``storage.second_process``); ``RawWords`` numbers
them for the whole build in the order of the chunks, as one pass over every word would.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
import threading
from array import array
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from itertools import chain, count, islice
from pathlib import Path
from typing import BinaryIO, Final

import numpy as np
import numpy.typing as npt

from storage.arrays import ranges
from storage.chunk_words import FoundWords, count_of, numbered
from storage.search.text import MARK, text_words, word_text

Int32Array = npt.NDArray[np.int32]
IntArray = npt.NDArray[np.int64]

#: The texts of a paper, in the order they are cut.
TITLE, TITLE_EXTRA, NAME, AUTHORS, ABSTRACT, ABSTRACT_EXTRA = range(6)
TEXTS: Final = 6
#: Punctuation that ends a phrase, as a raw word keeps it.
BREAK: Final = b"\x03"
_PHRASE_ENDS: Final = b'()[]{},.;:?!/|"<>'


def _byte_class(b: int) -> int:
    if 48 <= b <= 57 or 65 <= b <= 90 or 97 <= b <= 122 or b >= 128 or b in (MARK[0], BREAK[0]):
        return b
    return BREAK[0] if b in _PHRASE_ENDS else 32


#: ``bytes.translate`` table of the joined texts (UTF-8): ASCII letters and digits, every byte
#: of a multi-byte character, ``MARK`` and ``BREAK`` are kept; phrase-ending punctuation
#: becomes ``BREAK``; the rest a space.
RAW_BYTES: Final = bytes(_byte_class(b) for b in range(256))
_MARK_TEXT: Final = f" {MARK.decode('ascii')} "

#: A paper's texts as they are cut: title, method name, authors (joined by "; "), abstract,
#: keywords (joined by spaces).
Fields = tuple[str, str, str, str, str]
#: Papers whose words are cut from one text at a time: the word objects of a few hundred
#: papers are alive at once, not those of a chunk.
_WORDS_AT_ONCE: Final = 256


def chunk_words(papers: Sequence[Fields]) -> FoundWords:
    """The raw words of a chunk of papers (``Fields``), the ``TEXTS`` of each followed by a
    ``MARK`` (where the marks are says how many words each has), numbered by the chunk in
    the order met."""

    def words() -> Iterator[list[bytes]]:
        for start in range(0, len(papers), _WORDS_AT_ONCE):
            parts: list[str] = []
            for title, name, authors, abstract, keywords in papers[start : start + _WORDS_AT_ONCE]:
                title_words, title_extra = word_text(title, camel_case=True)
                abstract_words, abstract_extra = word_text(abstract)
                if keywords:
                    abstract_extra = f"{abstract_extra} {' '.join(word_text(keywords))}"
                parts += (
                    title_words,
                    title_extra,
                    " ".join(word_text(name)) if name else "",
                    " ".join(word_text(authors)) if authors else "",
                    abstract_words,
                    abstract_extra,
                )
            yield _cut(parts)

    return numbered(chain.from_iterable(words()))


def title_and_abstract_words(papers: Sequence[tuple[str, str]]) -> FoundWords:
    """``chunk_words`` of papers of which only the title's words in order and the abstract
    are cut (the other texts empty): what the similarity reads, for its build alone."""

    def words() -> Iterator[list[bytes]]:
        for start in range(0, len(papers), _WORDS_AT_ONCE):
            parts: list[str] = []
            for title, abstract in papers[start : start + _WORDS_AT_ONCE]:
                parts += (text_words(title), "", "", "", text_words(abstract), "")
            yield _cut(parts)

    return numbered(chain.from_iterable(words()))


def _cut(texts: list[str]) -> list[bytes]:
    """The raw words of texts, a ``MARK`` after each."""
    texts.append("")
    return _MARK_TEXT.join(texts).encode("utf-8", "surrogatepass").translate(RAW_BYTES).split()


def found_words_of(found: object, papers: object) -> bool:
    """Whether ``found`` can be the raw words (``chunk_words``) of ``papers``, a list (a second
    process's answer): a ``MARK`` after each of their texts."""
    return isinstance(papers, list) and count_of(found, MARK) == TEXTS * len(papers)


#: A raw word that is not one index word (``RawWords._one_part``): vocabulary ids are from 0,
#: and ``MARK`` is -1.
_NOT_ONE: Final = -2


class RawWords:
    """Raw words numbered for a whole build, in the order met, and the index words each holds.

    ``index_word`` (the search vocabulary's numbering; ``MARK`` is -1) numbers the parts of a
    raw word the first time the raw word is met, in order, so that the index words are numbered
    as one pass over the words of every text in order would number them. Without it (the
    similarity's build alone) raw words have no parts.
    """

    def __init__(self, index_word: Callable[[bytes], int] | None = None) -> None:
        #: Each raw word's number, a new word given the next (``number`` meets millions: a
        #: ``defaultdict`` whose default is the next number is C all through).
        self._ids: defaultdict[bytes, int] = defaultdict(count().__next__)
        #: The raw words by number; the first is ``MARK``.
        self.words: list[bytes] = []
        self._index_word = index_word
        #: Each raw word's parts: where they start in ``_parts``, and how many.
        self._part_start = array("q")
        self._part_count = array("q")
        self._parts = array("q")
        self._one = np.zeros(0, dtype=np.int64)
        self._ids[MARK]
        self._met()

    def number(self, found: FoundWords) -> Int32Array:
        """The raw words of a chunk (``chunk_words``) by their numbers in the build."""
        words, places = found
        numbers = np.fromiter(map(self._ids.__getitem__, words), dtype=np.int32, count=len(words))
        self._met()
        return numbers[np.frombuffer(places, dtype=np.int32)]

    def _met(self) -> None:
        """Take in the words numbered since the last time (in the order of their numbers)."""
        known = len(self.words)
        if len(self._ids) == known:
            return
        new = list(islice(self._ids, known, None))
        self.words.extend(new)
        if self._index_word is None:
            return
        index_word, parts = self._index_word, self._parts
        for word in new:
            self._part_start.append(len(parts))
            if BREAK in word:
                found = [index_word(part) for part in word.split(BREAK) if part]
                self._part_count.append(len(found))
                parts.extend(found)
            else:
                self._part_count.append(1)
                parts.append(index_word(word))

    def index_words(self, raw: Int32Array) -> IntArray:
        """The index words (the vocabulary's ids; ``MARK`` -1) of a run of raw words, in order."""
        one = self._one_part()[raw]  # nearly every raw word is one index word
        odd = np.flatnonzero(one == _NOT_ONE)
        if not len(odd):
            return one
        # the raw words of no part or several (``e.g.``, a phrase end alone) spread out
        odd_raw = raw[odd]
        counts = np.frombuffer(self._part_count, dtype=np.int64)[odd_raw]
        per_word = np.ones(len(raw), dtype=np.int64)
        per_word[odd] = counts
        found = np.repeat(one, per_word)
        at = np.cumsum(per_word) - per_word  # where each raw word's parts go
        starts = np.frombuffer(self._part_start, dtype=np.int64)[odd_raw]
        parts = np.frombuffer(self._parts, dtype=np.int64)
        found[ranges(at[odd], counts)] = parts[ranges(starts, counts)]
        return found

    def _one_part(self) -> IntArray:
        """Each raw word's one index word, or ``_NOT_ONE`` (none, or several), for the raw
        words met so far."""
        known = len(self._one)
        if known < len(self._part_count):
            counts = np.frombuffer(self._part_count, dtype=np.int64)[known:]
            starts = np.frombuffer(self._part_start, dtype=np.int64)[known:]
            parts = np.frombuffer(self._parts, dtype=np.int64)
            one = np.where(counts == 1, parts[np.minimum(starts, len(parts) - 1)], _NOT_ONE)
            self._one = np.concatenate([self._one, one])
        return self._one


#: Which of a paper's texts the similarity reads: the title's words and the abstract's.
_KEPT_TEXTS: Final = np.isin(np.arange(TEXTS), (TITLE, ABSTRACT))


class SimilarityWords:
    """The title and abstract words of a build's papers, kept for the similarity matrix.

    Each paper is its title's raw words, a mark, its abstract's raw words, a mark (a *run*,
    a chunk of papers each, ``run``); the words are numbered by the order in which these runs
    meet them (the mark is 0), whatever else the build cut, so that a matrix built beside the
    search index and one built alone are the same.

    With ``spill``, a folder, the runs wait in a file there that no name leads to (made as
    the build starts, gone when this is let go or the process ends) rather than in memory,
    and are read back a run at a time: an import of 100,000 papers holds its search index's
    words and the result while it makes the index, and 86 MB of these beside them were its
    peak at once past 600 MB (``benchmarks.cli``).
    """

    def __init__(self, raw: RawWords, spill: Path | None = None) -> None:
        self._raw_words = raw.words  # grows as ``raw`` meets words
        #: The similarity's number of each raw word (-1: not met in a title or abstract).
        self._of_raw = np.zeros(1, dtype=np.int32)  # the mark is raw word 0, and word 0
        #: The raw word of each of the similarity's words.
        self._raw_of: list[int] = [0]
        self._runs: list[Int32Array | None] = []
        #: Each run's papers, and where it is in the spill file (start, words).
        self._papers: list[int] = []
        self._places: list[tuple[int, int]] = []
        self._file: BinaryIO | None = None
        self._full = False
        self._gone: set[int] = set()
        self._lock = threading.Lock()
        if spill is not None:
            with contextlib.suppress(OSError):  # a folder that takes no file: runs in memory
                # closed by let_go or when let go of: it lives as long as the words
                self._file = tempfile.TemporaryFile(dir=spill, prefix=".words-")  # noqa: SIM115

    def __len__(self) -> int:
        """The number of runs."""
        return len(self._papers)

    def add(self, raw: Int32Array) -> None:
        """Keep the title and abstract of a chunk's raw words (``RawWords.number``)."""
        marks = np.flatnonzero(raw == 0)
        # each text's words with the mark that ends it: the titles' and the abstracts' kept
        lengths = np.diff(marks, prepend=-1)
        kept = raw[np.repeat(np.resize(_KEPT_TEXTS, len(marks)), lengths)]
        self._met(kept)
        run = self._of_raw[kept]
        self._papers.append(len(marks) // TEXTS)
        if self._file is not None and not self._full:
            try:
                start = self._file.seek(0, os.SEEK_END)
                self._file.write(run.tobytes())
                self._file.flush()  # read back by ``os.pread``, past the file object's buffer
            except OSError:  # a full disk: this run and the next ones stay in memory
                self._full = True
            else:
                self._places.append((start, len(run)))
                self._runs.append(None)
                return
        self._places.append((0, 0))
        self._runs.append(run)

    def run(self, number: int) -> Int32Array:
        """The words of a run (from any thread)."""
        found = self._runs[number]
        if found is not None:
            return found
        file = self._file
        if file is None or number in self._gone:
            return np.zeros(0, dtype=np.int32)  # let go
        start, words = self._places[number]
        return np.frombuffer(os.pread(file.fileno(), 4 * words, start), dtype=np.int32)

    def let_go(self, number: int) -> None:
        """The matrix has taken a run's words: they are not read again (from any thread; the
        file goes once every run is let go, not before: threads read runs side by side)."""
        with self._lock:
            self._runs[number] = None
            self._gone.add(number)
            if len(self._gone) == len(self._runs) and self._file is not None:
                self._file.close()
                self._file = None

    def _met(self, raw: Int32Array) -> None:
        """Number the raw words not met before, in the order of their first place in ``raw``."""
        if len(self._raw_words) > len(self._of_raw):
            grown = np.full(max(len(self._raw_words), 2 * len(self._of_raw)), -1, dtype=np.int32)
            grown[: len(self._of_raw)] = self._of_raw
            self._of_raw = grown
        new = raw[self._of_raw[raw] < 0]
        if not len(new):
            return
        distinct, first = np.unique(new, return_index=True)
        in_order = distinct[np.argsort(first, kind="stable")]
        self._of_raw[in_order] = np.arange(len(self._raw_of), len(self._raw_of) + len(in_order))
        self._raw_of.extend(in_order.tolist())

    def first_papers(self) -> list[int]:
        """The place of each run's first paper among the build's."""
        firsts, total = [], 0
        for papers in self._papers:
            firsts.append(total)
            total += papers
        return firsts

    def words(self) -> list[bytes]:
        """The raw word of each of the similarity's words, by number (0: the mark)."""
        raw_words = self._raw_words
        return [raw_words[i] for i in self._raw_of]
