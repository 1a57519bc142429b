"""Builds whose words are found partly by a second process: the search index and the
similarity matrix are those a single process builds, whatever the second process answers
(``storage.search.build``, ``storage.similar.matrix``, ``storage.paper_words``,
``storage.second_process``)."""

from __future__ import annotations

import gc
import random
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

import storage.paper_words as paper_words
import storage.search.build as build
import storage.second_process as second_process
import storage.similar.matrix as matrix
from storage import Paper
from storage.chunk_words import FoundWords
from storage.paper_words import chunk_words, found_words_of, title_and_abstract_words
from storage.search import SearchIndex
from tests.helpers import needs_two_cores

WORDS = [
    "diffusion",
    "sampler",
    "ParaSolver",
    "ORW-CFM-W2",
    "$\\ell_2$",
    "$\\tau$-bench",
    "Lévy",
    'M\\"uller',
    "ﬁne",
    "graph",
    "τ-bench",
    "x‐y",
    "naïve",
    "中文",
    "attention",
    "LLM",
    "e.g.",
    "3.5",
    "{Y}",
    "\\textbf{bold}",
    "under_score",
    "lone\ud800surrogate",  # any field may hold them: marshal carries them to the worker
    "mark\x01inside",
    "nul\x00",
    "<b>[markup]</b>",
]


def papers(n: int, seed: int = 0) -> list[Paper]:
    """``n`` papers of words old and new to a chunk: LaTeX, Unicode, compounds, camelCase."""
    rng = random.Random(seed)

    def text(k: int) -> str:
        return " ".join(
            rng.choice(WORDS) if rng.random() < 0.5 else f"w{rng.randrange(n)}" for _ in range(k)
        )

    return [
        Paper(
            id=f"{i:012x}",
            title=text(rng.randrange(1, 8)),
            abstract=text(rng.randrange(0, 40)),
            authors=tuple(text(2) for _ in range(rng.randrange(0, 3))),
            keywords=tuple(text(1) for _ in range(rng.randrange(0, 2))),
            name=rng.choice(["", "ParaSolver", "τ-bench"]),
            venue_status=rng.choice(["", "ICLR 2025 Oral", "Reject"]),
            list="scaled",
        )
        for i in range(n)
    ]


def parts(index: SearchIndex) -> tuple[object, ...]:
    """What an index holds, as comparable values."""
    table, vocabulary, postings = index.parts()
    (segment,) = postings.segments
    arrays = (segment.offsets, segment.docs, segment.scores, segment.masks, segment.lengths)
    arrays += (vocabulary.df,)
    return (
        list(vocabulary.terms),
        sorted(vocabulary.author_tids),
        [a.tobytes() for a in arrays],
        table.slot_by_id,
        table.venues,
        table.list_sets,
        table.name_slots,
    )


@pytest.fixture
def small_chunks(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Chunks of 16 papers, with a second process from the first; the sizes of the chunks
    whose words were found here (in this process)."""
    monkeypatch.setattr(build, "_BUILD_CHUNK", 16)
    monkeypatch.setattr(paper_words, "_WORDS_AT_ONCE", 5)
    here: list[int] = []

    def counted(chunk: list[paper_words.Fields]) -> FoundWords:
        here.append(len(chunk))
        return chunk_words(chunk)

    work = build._WORDS_WORK
    monkeypatch.setattr(
        build, "_WORDS_WORK", second_process.Work(work.function, counted, work.inputs, work.answers)
    )
    return here


@needs_two_cores
def test_words_found_by_a_second_process_make_the_same_index(
    monkeypatch: pytest.MonkeyPatch, small_chunks: list[int]
) -> None:
    corpus = papers(700)
    monkeypatch.setattr(build, "SECOND_PROCESS_PAPERS", 10**9)
    alone = parts(SearchIndex(corpus))
    assert sum(small_chunks) == len(corpus)  # every chunk here
    small_chunks.clear()
    monkeypatch.setattr(build, "SECOND_PROCESS_PAPERS", 0)
    assert parts(SearchIndex(corpus)) == alone
    assert sum(small_chunks) < len(corpus) - 2 * 16  # the second process found some


@pytest.mark.parametrize(
    "program",
    [
        "import sys; sys.stdin.buffer.read(10)",  # stops
        "import sys; sys.stdout.write('garbage')",
        # answers, but not the words of the chunk: its last mark left out
        "import sys, marshal; sys.path.insert(0, sys.argv[1]); import storage.second_process as s\n"
        "while (m := s._message(sys.stdin.buffer)) is not None:\n"
        "    w, p = __import__('storage.paper_words').paper_words.chunk_words(marshal.loads(m))\n"
        "    a = marshal.dumps((w, p[:-4]))\n"
        "    sys.stdout.buffer.write(len(a).to_bytes(4, 'big') + a); sys.stdout.buffer.flush()",
    ],
)
def test_a_second_process_that_goes_wrong_leaves_the_words_here(
    monkeypatch: pytest.MonkeyPatch, small_chunks: list[int], program: str
) -> None:
    corpus = papers(300, seed=1)
    alone = parts(SearchIndex(corpus))
    monkeypatch.setattr(second_process, "PROGRAM", program)
    monkeypatch.setattr(build, "SECOND_PROCESS_PAPERS", 0)
    assert parts(SearchIndex(corpus)) == alone


def test_what_cannot_be_the_words_of_a_chunk_is_told() -> None:
    chunk = [("A title", "", "Ann Lee", "An abstract of words.", "")]
    words, places = chunk_words(chunk)
    assert found_words_of((words, places), chunk)
    numbers = np.frombuffer(places, dtype=np.int32)
    wrong = [
        None,
        (words,),
        (words, places[:-1]),  # not whole numbers
        (words[:-1], places),  # a place past the words
        ([*words, 3], places),
        (words, (numbers + 1).astype(np.int32).tobytes()),  # marks moved
        (words, places + places),  # two papers' marks
    ]
    for found in wrong:
        assert not found_words_of(found, chunk), found


def comparable(built: matrix.Matrix) -> tuple[object, ...]:
    """What a similarity matrix holds, as comparable values."""
    return tuple(
        value.tobytes() if isinstance(value, np.ndarray) else value
        for value in (getattr(built, name) for name in type(built).__slots__)
    )


def matrix_parts(corpus: list[Paper]) -> tuple[object, ...]:
    """What the similarity matrix of ``corpus`` holds, as comparable values."""
    return comparable(matrix.build(corpus))


@needs_two_cores
def test_a_similarity_matrix_cut_by_two_processes_is_the_same(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(matrix, "_TOKEN_CHUNK", 16)
    here: list[int] = []

    def counted(texts: list[tuple[str, str]]) -> FoundWords:
        here.append(len(texts))
        return title_and_abstract_words(texts)

    work = matrix._WORDS_WORK
    monkeypatch.setattr(
        matrix,
        "_WORDS_WORK",
        second_process.Work(work.function, counted, work.inputs, work.answers),
    )
    corpus = papers(600, seed=2)
    monkeypatch.setattr(matrix, "SECOND_PROCESS_PAPERS", 10**9)
    alone = matrix_parts(corpus)
    here.clear()
    monkeypatch.setattr(matrix, "SECOND_PROCESS_PAPERS", 0)
    assert matrix_parts(corpus) == alone
    assert sum(here) < len(corpus) - 2 * 16  # the second process cut some


def test_a_similarity_matrix_made_beside_the_search_index_is_the_one_made_alone(
    small_chunks: list[int],
) -> None:
    """The words the search index was built from (chunks of 16 papers here) make the matrix
    that the similarity's own build makes (chunks of 2,048): an import makes both from one
    cutting of the words."""
    corpus = papers(500, seed=4)
    index, words = SearchIndex.lazily_with_words(list(corpus))
    beside = matrix.build_from_words([p.id for p in corpus], words)
    assert comparable(beside) == matrix_parts(corpus)
    assert parts(index) == parts(SearchIndex(corpus))


@pytest.mark.parametrize("folder", ["here", "missing"])
def test_words_that_wait_in_a_file_make_the_same_matrix(
    tmp_path: Path, small_chunks: list[int], folder: str
) -> None:
    """A large build's title and abstract words wait in a file with no name (out of memory)
    until the matrix is made; a folder that takes no file keeps them in memory."""
    corpus = papers(300, seed=5)
    ids = [p.id for p in corpus]
    spill = tmp_path if folder == "here" else tmp_path / "missing"
    _, spilled = SearchIndex.lazily_with_words(list(corpus), spill)
    assert list(tmp_path.iterdir()) == []  # nothing a name leads to, even while it waits
    assert comparable(matrix.build_from_words(ids, spilled)) == matrix_parts(corpus)


def test_words_that_no_longer_fit_in_their_file_stay_in_memory(
    tmp_path: Path, small_chunks: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A disk that fills while the words wait in their file: the next runs stay in memory,
    those written are read back, and the matrix is the same."""
    corpus = papers(300, seed=6)
    real = paper_words.SimilarityWords.__init__
    written = [0]

    def filling(self: paper_words.SimilarityWords, *args: object) -> None:
        real(self, *args)  # type: ignore[arg-type]
        file = self._file
        if file is None:  # a build that keeps its words in memory
            return
        write = file.write

        def full(data: bytes) -> int:
            written[0] += 1
            if written[0] > 3:
                raise OSError(28, "No space left on device")
            return write(data)

        monkeypatch.setattr(file, "write", full)

    monkeypatch.setattr(paper_words.SimilarityWords, "__init__", filling)
    _, words = SearchIndex.lazily_with_words(list(corpus), tmp_path)
    assert written[0] == 4 < len(words)  # three runs written, then the disk was full
    built = matrix.build_from_words([p.id for p in corpus], words)
    assert comparable(built) == matrix_parts(corpus)


def test_what_cannot_be_the_words_of_titles_and_abstracts_is_told() -> None:
    texts = [("A title", "An abstract."), ("", "")]
    words, places = title_and_abstract_words(texts)
    assert found_words_of((words, places), texts)
    for found in [None, (words, places[:-4]), (words[:1], places), (words, places + places)]:
        assert not found_words_of(found, texts), found


def cyclic_garbage(make: Callable[[], object]) -> int:
    """How many objects only the cyclic collector would free, of what ``make`` leaves behind
    (a build process runs without the collector: ``children.without_collector``)."""
    gc.collect()
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        make()
        return gc.collect()
    finally:
        if was_enabled:
            gc.enable()


def test_a_build_leaves_no_cycles_to_hold_its_words() -> None:
    corpus = papers(300, seed=3)
    fields = [(p.title, p.name, "; ".join(p.authors), p.abstract, "") for p in corpus]
    assert cyclic_garbage(lambda: chunk_words(fields)) == 0
    assert cyclic_garbage(lambda: matrix._tokens(corpus)) == 0
    assert (
        cyclic_garbage(lambda: title_and_abstract_words([(p.title, p.abstract) for p in corpus]))
        == 0
    )
