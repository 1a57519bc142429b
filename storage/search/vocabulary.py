"""The index's vocabulary, and what a query word stands for in it.

A query word is never compared with whole documents: it is *expanded* into the index words it
may mean (exactly itself, completions of it as a prefix, words a typo or two away), each with a
quality (1 for the word itself, less for a completion or a typo) and an idf weight.
"""

from __future__ import annotations

import bisect
import itertools
import math
from collections import OrderedDict, defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Final

import numpy as np
from rapidfuzz import process
from rapidfuzz.distance import OSA

from storage.search.postings import IntArray
from storage.search.text import MARK, max_typos, word_key

#: Match quality of an index word for a query word, by how it matched.
_EXACT: Final = 1.0
_PREFIX_TYPING: Final = 0.9
_PREFIX_DONE: Final = 0.7
_TYPO: Final = (1.0, 0.7, 0.5)
#: The most a typo of a word the library has weighs, as a share of the word's idf: a typo in
#: every field (weights 3 + 2.5 + 2 + 1, quality 0.7) stays below the word in an abstract.
_UNDER_THE_WORD: Final = 0.15
_TYPO_PREFIX: Final = (0.9, 0.55, 0.4)
#: A word of the library is read as a slip of a look-alike (``difusion``) that its papers say
#: at least this many times as often.
_SLIP_RATIO: Final = 30
#: A vowel doubled makes another word (step, steep): no slip of the hand (``_slip_of``).
_VOWELS: Final = frozenset("aeiou")
#: At most this many completions of a prefix, the most frequent first (by prefix length 1, 2, 3+).
_PREFIX_CAP: Final = (16, 32, 64)
_TYPO_CAP: Final = 48
#: Expansions remembered (a few keystrokes' worth of words, typed and retyped).
_EXPANSIONS_KEPT: Final = 256


def number_twin(word: str) -> str:
    """The word's plural (``llm``: ``llms``), or its singular when it ends in ``s`` (``models``:
    ``model``; not ``gas`` or ``is``): what a query word also matches, or leaves out."""
    return word[:-1] if word.endswith("s") and len(word) > 3 else word + "s"


@dataclass(frozen=True, slots=True)
class Expansion:
    """The index words a query word stands for, with their weight (quality times idf)."""

    tids: tuple[int, ...] = ()
    weights: tuple[float, ...] = ()
    #: How well each index word matches the query word (1 exact, less for a completion or typo).
    qualities: tuple[float, ...] = ()
    #: True for whole-word matches (exact or a typo), False for completions of a prefix.
    whole: tuple[bool, ...] = ()


class Vocabulary:
    """Index words by id, their document frequencies, and the tables that find look-alikes.

    Words get ids in order of first sight and keep them until the index is rebuilt; the sorted
    vocabulary finds completions of a prefix, buckets by length and letter find typos.
    """

    def __init__(self) -> None:
        self.ids: dict[str, int] = {}
        self.terms: list[str] = []
        #: Live papers that have each word (0: a word only papers gone from the index had).
        self.df: IntArray = np.zeros(0, dtype=np.int64)
        #: Papers the idf counts: the live ones.
        self.live_papers = 0
        #: Term ids of words found in authors' names (for ``author:``).
        self.author_tids: set[int] = set()
        #: Whether the papers show a word was meant (``storage.search.meant``, given by the
        #: index): what is never read as a slip.
        self.meant: Callable[[int], bool] = lambda tid: False
        self._sorted_terms: list[str] = []
        self._sorted_tids: IntArray = np.zeros(0, dtype=np.int64)
        #: Vocabulary by (length, position 0 or 1, letter there), for typo look-ups.
        self._typo_buckets: dict[tuple[int, int, str], tuple[list[str], IntArray]] = {}
        #: Buckets of a saved index not looked at yet: their words are listed on first use.
        self._unread_buckets: dict[tuple[int, int, str], IntArray] = {}
        self._prefix_tables: dict[tuple[int, str], tuple[list[str], list[int]]] = {}
        self._expansions: OrderedDict[tuple[str, bool, bool], Expansion] = OrderedDict()
        #: ``knows``'s answers (a few keystrokes' worth of words).
        self._known: dict[str, bool] = {}

    def __len__(self) -> int:
        """Number of distinct index words."""
        return len(self.terms)

    def __contains__(self, word: object) -> bool:
        """Whether a live paper has the word."""
        return isinstance(word, str) and self.live_id(word) is not None

    def live_id(self, word: str) -> int | None:
        """The id of a word that a live paper has (not one only papers gone since had)."""
        tid = self.ids.get(word)
        return tid if tid is not None and self.df[tid] > 0 else None

    @contextmanager
    def numbering_bytes(self) -> Iterator[Callable[[bytes], int]]:
        """A function from an index word (UTF-8 encoded) to its id, giving a new word the next
        id, for the length of the block (the words it numbered are in ``terms`` once it ends);
        ``storage.search.text.MARK`` is -1.

        It is the ``__getitem__`` of a ``defaultdict`` whose default is the next number: a
        build calls it for every word of every paper, millions of times, and being C all
        through it costs a third of a Python function's call. (The words are bytes, as a build
        cuts them; the vocabulary's own are text.)
        """
        known = len(self.terms)
        numbered: defaultdict[bytes, int] = defaultdict(itertools.count(known).__next__)
        numbered.update((t.encode("utf-8", "surrogatepass"), i) for i, t in enumerate(self.terms))
        numbered[MARK] = -1
        try:
            yield numbered.__getitem__
        finally:
            numbered.default_factory = None
            del numbered[MARK]
            for word in itertools.islice(numbered, known, None):  # in order of their ids
                term = word.decode("utf-8", "surrogatepass")
                self.ids[term] = len(self.terms)
                self.terms.append(term)

    def count(self, per_term: IntArray, new_words: bool) -> None:
        """Add a segment's papers per term to the document frequencies; with ``new_words``,
        rebuild the look-up tables for the words added since."""
        df = np.zeros(len(self.terms), dtype=np.int64)
        df[: len(self.df)] = self.df
        df[: len(per_term)] += per_term
        self.df = df
        if new_words:
            self._index_words()

    def forget(self, per_term: IntArray, live_papers: int) -> None:
        """Take papers gone from the index (their slots dead) out of the statistics: their
        papers per term (``Postings.papers_per_term``), and the live papers left."""
        self.df = self.df - np.pad(per_term, (0, len(self.df) - len(per_term)))
        self.live_papers = live_papers
        self.clear_cache()

    def _index_words(self) -> None:
        """Sorted vocabulary (for prefixes) and vocabulary by length and first letters (typos)."""
        order = sorted(range(len(self.terms)), key=self.terms.__getitem__)
        self._sorted_terms = [self.terms[i] for i in order]
        self._sorted_tids = np.asarray(order, dtype=np.int64)
        buckets: dict[tuple[int, int, str], tuple[list[str], list[int]]] = {}
        for tid, term in enumerate(self.terms):
            for position in (0, 1) if len(term) > 1 else (0,):
                key = (len(term), position, term[position])
                words, ids = buckets.setdefault(key, ([], []))
                words.append(term)
                ids.append(tid)
        self._typo_buckets = {
            key: (words, np.asarray(ids, dtype=np.int64)) for key, (words, ids) in buckets.items()
        }
        self._unread_buckets = {}
        self._prefix_tables = {}

    def lookup_tables(self) -> tuple[IntArray, dict[tuple[int, int, str], IntArray]]:
        """The ids of the words in sorted order, and of each typo bucket (``store.py``)."""
        buckets = {key: ids for key, (_, ids) in self._typo_buckets.items()}
        return self._sorted_tids, {**self._unread_buckets, **buckets}

    def restore(
        self, sorted_tids: IntArray, typo_buckets: dict[tuple[int, int, str], IntArray]
    ) -> None:
        """Take the look-up tables of ``lookup_tables`` saved with these words (``store.py``):
        sorting 100,000 words again would cost a tenth of a second."""
        terms = self.terms
        self._sorted_tids = sorted_tids
        self._sorted_terms = [terms[i] for i in sorted_tids.tolist()]
        self._typo_buckets = {}
        self._unread_buckets = dict(typo_buckets)
        self._prefix_tables = {}

    def _typo_bucket(self, key: tuple[int, int, str]) -> tuple[list[str], IntArray] | None:
        """The words of a typo bucket, and their ids."""
        found = self._typo_buckets.get(key)
        if found is None and key in self._unread_buckets:
            ids = self._unread_buckets.pop(key)
            found = self._typo_buckets[key] = ([self.terms[i] for i in ids.tolist()], ids)
        return found

    def clear_cache(self) -> None:
        """Forget remembered expansions."""
        self._expansions.clear()
        self._known.clear()

    def memory_bytes(self) -> int:
        """Approximate memory of the words, their ids, frequencies and look-up tables."""
        arrays = self.df.nbytes + self._sorted_tids.nbytes
        arrays += sum(ids.nbytes + 8 * len(ids) for _, ids in self._typo_buckets.values())
        strings = sum(49 + len(t) for t in self.terms)
        dicts = 100 * len(self.ids) + 8 * len(self.terms) * 2 + 60 * len(self.author_tids)
        return arrays + strings + dicts

    # ----------------------------------------------------------------- look-ups

    def idf(self, df: float) -> float:
        """BM25's inverse document frequency."""
        n = max(self.live_papers, 1)
        df = min(max(df, 0.0), float(n))
        return math.log(1.0 + (n - df + 0.5) / (df + 0.5))

    def prefix_range(self, prefix: str) -> tuple[int, int]:
        """Where the words beginning with ``prefix`` are in the sorted vocabulary."""
        lo = bisect.bisect_left(self._sorted_terms, prefix)
        hi = bisect.bisect_left(self._sorted_terms, prefix + "\U0010ffff", lo)
        return lo, hi

    def starting_with(self, prefix: str) -> list[int]:
        """Ids of the words beginning with ``prefix``, in alphabetical order."""
        lo, hi = self.prefix_range(prefix)
        return list(self._sorted_tids[lo:hi].tolist())

    def resolve(self, word: str, typing: bool) -> list[tuple[str, bool]]:
        """A compound stands for its joined form if the index knows it, else for its parts.

        Known means the joined form is an index word or, while typing, begins one: a typo of a
        joined form would be a guess on a guess, so ``state-space`` then finds "state space".
        """
        if "-" not in word:
            return [(word, typing)]
        joined = word_key(word)
        lo, hi = self.prefix_range(joined)
        if joined in self or (typing and hi > lo):
            return [(joined, typing)]
        parts = [p for p in word.split("-") if p]
        return [(p, typing and i == len(parts) - 1) for i, p in enumerate(parts)]

    def author_words(self, word: str) -> list[int]:
        """Words of authors' names that are ``word``; else, when no name is (or ``word`` is an
        initial), those that begin with it (``beng``: Bengio); else those a typo away
        (``bengoi``). A name given
        whole finds that name: a typo allowed beside it made ``author:kang`` find Wang, Yang
        and Tang (1,305 papers for 43 by a Kang), and its completions ``author:chen`` Cheng
        and ``author:li`` Liu."""
        authors = self.author_tids
        exact = self.live_id(word)
        if exact is not None and exact in authors and len(word) > 1:  # (one letter: an initial)
            return [exact]
        found = [t for t in self.starting_with(word) if t in authors]
        if found:
            return found
        return [t for t in self.look_alikes(word) if t in authors]

    def look_alikes(self, word: str) -> list[int]:
        """Words that are ``word``, begin with it, or are a typo away (for a qualifier's word:
        every completion, not only the most frequent)."""
        tids = self.starting_with(word)
        typos = max_typos(word)
        if typos:
            near: dict[int, tuple[float, bool]] = {}
            self._add_typos(word, typos, near)
            tids.extend(near)
        return tids

    # ----------------------------------------------------------------- expansion

    def expand(self, word: str, typing: bool, exact_only: bool) -> Expansion:
        """Index words matching a query word (cached): exactly, as a completion, or with typos.

        Every inexact match of a word shares one idf, that of all of them together: the query
        word means one thing, and its rarest look-alike is not the likeliest.
        """
        key = (word, typing, exact_only)
        cached = self._expansions.get(key)
        if cached is not None:
            self._expansions.move_to_end(key)
            return cached
        found: dict[int, tuple[float, bool]] = {}
        exact_tid = self.live_id(word)
        if exact_tid is not None:
            found[exact_tid] = (_EXACT, True)
        # its plural or singular, whatever the word's place ("llm reasoning" missed the
        # "LLMs" that "reasoning llm" found, its last word being a prefix): as a completion
        other = self.live_id(number_twin(word))
        if other is not None and other != exact_tid:
            found[other] = (_PREFIX_TYPING, False)
        if typing or (not exact_only and len(word) >= 4):
            self._add_completions(word, found, typing)
        typos = 0 if exact_only else max_typos(word)
        if typos and self.terms:
            self._add_typos(word, typos, found)
            if typing:
                self._add_typo_completions(word, typos, found)
        # the index words that are the word itself, and its plural or singular
        meant = {exact_tid} if exact_tid is not None else set()
        twins = {other} if other is not None and exact_tid is not None else set()
        if exact_tid is not None and self._misspelled(word, exact_tid, found):
            # the word is a slip of a word the papers say far more often: it stands for that
            # word, as the word does (``difusion``: the papers about diffusion, the one whose
            # abstract misspells it among them, not first), that word's plural or singular
            # for the twin, and its other look-alikes are typos of it
            for tid, (_, whole) in list(found.items()):
                if whole and tid not in self.author_tids and self._slip_of(word, tid):
                    found[tid] = (_EXACT, whole)
                    meant.add(tid)
            ids = self.ids
            twins = {ids[t] for t in (number_twin(self.terms[m]) for m in meant) if t in ids}
            twins -= meant
            for tid in twins:
                found[tid] = (_PREFIX_TYPING, False)
        inexact = [t for t in found if t not in meant]
        shared = self.idf(float(self.df[inexact].sum())) if inexact else 0.0
        exact_idf = 0.0
        typo_idf = twin_idf = shared
        if meant:
            exact_idf = self.idf(float(self.df[list(meant)].sum()))
            shared = min(shared, exact_idf)
            # the word is in the library: a typo of it, or a completion, weighs less in every
            # field together than the word in any one ("bert": titles with "best" came before
            # the abstracts about BERT, by the title's weight and the abstract's together;
            # "vit": authors named Vitalis or Vito before the abstracts saying ViT); so too
            # for the word a slip stands for ("avaliable": titles with "Variable", a look-alike
            # of the slip, came before the abstracts saying "available")
            typo_idf = min(shared, exact_idf * _UNDER_THE_WORD)
            # its plural or singular is the word itself, weighed as the rarer of the two (not
            # with the completions, whose many rare names would make it rare)
            if twins:
                twin_idf = min(self.idf(float(self.df[list(twins)].sum())), exact_idf)
        tids = tuple(found)

        def idf_of(tid: int) -> float:
            if tid in meant:
                return exact_idf
            if tid in twins:
                return twin_idf
            return typo_idf if meant else shared

        expansion = Expansion(
            tids=tids,
            weights=tuple(found[t][0] * idf_of(t) for t in tids),
            qualities=tuple(found[t][0] for t in tids),
            whole=tuple(found[t][1] for t in tids),
        )
        self._expansions[key] = expansion
        if len(self._expansions) > _EXPANSIONS_KEPT:
            self._expansions.popitem(last=False)
        return expansion

    def knows(self, word: str) -> bool:
        """Whether the library has the word as a word of its own, not a slip of one it says far
        more often (``_misspelled``): a look-alike of a word it knows is a typo of it."""
        known = self._known.get(word)
        if known is None:
            exact_tid = self.live_id(word)
            found: dict[int, tuple[float, bool]] = {}
            if exact_tid is not None and max_typos(word):
                self._add_typos(word, max_typos(word), found)
            known = exact_tid is not None and not self._misspelled(word, exact_tid, found)
            if len(self._known) >= _EXPANSIONS_KEPT:
                self._known.clear()
            self._known[word] = known
        return known

    def _misspelled(self, word: str, tid: int, found: dict[int, tuple[float, bool]]) -> bool:
        """Whether a word of the library is a slip (``_slip_of``) of a look-alike among
        ``found`` that its papers say ``_SLIP_RATIO`` times as often as the word and its plural
        or singular together; never a word of an author's name (``datta`` is not "data") nor
        one the papers show they meant (``meant``: in a title, "Casual" videos are no causal
        ones; written as a name, CoED is no code)."""
        if tid in self.author_tids:
            return False
        twin = self.ids.get(number_twin(word))
        own = int(self.df[tid]) + (int(self.df[twin]) if twin is not None else 0)
        return any(
            whole
            and int(self.df[t]) >= _SLIP_RATIO * own
            and t not in self.author_tids
            and self._slip_of(word, t)
            for t, (_, whole) in found.items()
        ) and not self.meant(tid)

    def _slip_of(self, word: str, tid: int) -> bool:
        """Whether ``word`` is the index word ``tid`` with a slip of the hand: a consonant
        inside the word doubled or not (``difusion``, ``runing``), or two neighbours swapped
        (``langauge``).

        Not a letter doubled at either end: that is how a one-letter part joins a word
        (``$d$-dimensional``, ``top-p``, ``C-CLIP``), or a name (``lava`` is no LLaVA, nor
        ``bbox`` a box); nor a vowel doubled, which makes another word (``steep``, ``step``).
        """
        term = self.terms[tid]
        if len(term) == len(word):
            diff = [i for i, (a, b) in enumerate(zip(word, term, strict=True)) if a != b]
            return (
                len(diff) == 2
                and diff[1] == diff[0] + 1
                and word[diff[0]] == term[diff[1]]
                and word[diff[1]] == term[diff[0]]
            )
        short, long = (word, term) if len(word) < len(term) else (term, word)
        if len(long) != len(short) + 1:
            return False
        for i in range(len(long)):
            if long[:i] + long[i + 1 :] == short:
                # the first of a run of letters whose dropping gives ``short``: one of a pair
                # ``long[i:i + 2]``, inside the word, of a consonant
                return 0 < i < len(long) - 2 and long[i + 1] == long[i] and long[i] not in _VOWELS
        return False

    def _top_by_df(self, tids: IntArray, cap: int) -> IntArray:
        if len(tids) <= cap:
            return tids
        keep = np.argpartition(-self.df[tids], cap - 1)[:cap]
        return tids[keep]

    def _prefix_table(self, length: int, first: str) -> tuple[list[str], list[int]]:
        """Vocabulary words starting with ``first``, cut to ``length`` characters, deduplicated.

        Cutting keeps the sorted order, so the words with the ``i``-th prefix are
        ``sorted_terms[starts[i]:starts[i + 1]]``. Built on first use, per length and letter.
        """
        table = self._prefix_tables.get((length, first))
        if table is None:
            lo, hi = self.prefix_range(first)
            heads = [t[:length] for t in self._sorted_terms[lo:hi]]
            at = [0] + [i for i in range(1, len(heads)) if heads[i] != heads[i - 1]]
            prefixes = [heads[i] for i in at] if heads else []
            starts = [lo + i for i in at] if heads else []
            starts.append(hi)
            table = (prefixes, starts)
            self._prefix_tables[(length, first)] = table
        return table

    def _add_completions(
        self, word: str, found: dict[int, tuple[float, bool]], typing: bool
    ) -> None:
        lo, hi = self.prefix_range(word)
        if hi <= lo:
            return
        quality = _PREFIX_TYPING if typing else _PREFIX_DONE
        cap = _PREFIX_CAP[min(len(word), 3) - 1] if typing else _PREFIX_CAP[1]
        for tid in self._top_by_df(self._sorted_tids[lo:hi], cap).tolist():
            found.setdefault(tid, (quality, False))

    def _add_typos(self, word: str, typos: int, found: dict[int, tuple[float, bool]]) -> None:
        """Index words within ``typos`` edits (OSA: a swap of neighbours is one edit).

        Only words that keep the query's first or second letter in place, or shifted by one,
        are compared: this misses only slips that hit both of the first two letters, and it
        compares a few thousand words instead of the whole vocabulary.
        """
        keys = {(0, word[0]), (1, word[1]), (0, word[1]), (1, word[0])}
        best: dict[int, int] = {}
        for length in range(len(word) - typos, len(word) + typos + 1):
            for position, letter in keys:
                bucket = self._typo_bucket((length, position, letter))
                if bucket is None:
                    continue
                words, ids = bucket
                for _, distance, index in process.extract(
                    word, words, scorer=OSA.distance, score_cutoff=typos, limit=None
                ):
                    if distance > 0:
                        best[int(ids[index])] = int(distance)
        matches = sorted(best.items(), key=lambda m: (m[1], -int(self.df[m[0]])))
        for tid, distance in matches[:_TYPO_CAP]:
            found.setdefault(tid, (_TYPO[distance], True))

    def _add_typo_completions(
        self, word: str, typos: int, found: dict[int, tuple[float, bool]]
    ) -> None:
        """Completions of prefixes a few typos away from ``word`` (same first letter).

        Slips while typing rarely hit the first letter, and keeping it bounds the work to a
        slice of the vocabulary. They are kept only when far more frequent than the exact
        completions: ``multimo`` completes to ``multimodal``, not to ``multihop``.
        """
        ranges: list[tuple[int, int, int]] = []
        for length in range(max(len(word) - typos, 3), len(word) + typos + 1):
            prefixes, starts = self._prefix_table(length, word[0])
            for _, distance, index in process.extract(
                word, prefixes, scorer=OSA.distance, score_cutoff=typos, limit=None
            ):
                if distance > 0:
                    ranges.append((int(distance), starts[index], starts[index + 1]))
        if not ranges:
            return
        best = min(r[0] for r in ranges)
        pieces = [self._sorted_tids[lo:hi] for d, lo, hi in ranges if d == best]
        # sorted and deduplicated by hand: ``np.unique`` imports ``numpy.ma`` on first use,
        # 30 ms of every ``papers search``
        candidates = np.sort(np.concatenate(pieces))
        candidates = candidates[np.concatenate(([True], candidates[1:] != candidates[:-1]))]
        lo, hi = self.prefix_range(word)
        exact_df = int(self.df[self._sorted_tids[lo:hi]].sum())
        if int(self.df[candidates].sum()) <= 10 * exact_df:
            return
        for tid in self._top_by_df(candidates, _TYPO_CAP).tolist():
            found.setdefault(tid, (_TYPO_PREFIX[best], False))
