"""Ranking the papers a query's words select (``matching.py``), best first.

In order of precedence:

1. how many query words a paper matches (an ``OR`` group counts as one word): a paper with
   every word is listed with the others that have them all, before those with more of the
   words that do not narrow a query (``of``);
2. a bonus when the query names the paper's method (``ParaSolver``) or, typed in order, is a
   phrase of its title (and so is each quoted phrase); a smaller one when the title has every
   word of the query that names something (not ``of``), in any order (``diffusion langevin``:
   "Sequential Controlled Langevin Diffusions"). A title word matches a query word as the
   word, its plural or singular, or its completion while typed, not as a typo of a word the
   library has (``bert``: not "best"); its words joined match a compound (``in-context``:
   "In-Context", "In Context");
3. the sum over query words of ``quality * idf * field_score``: ``quality`` is 1 for an exact
   word, less for a completion of a prefix or a typo; ``idf`` is BM25's inverse document
   frequency; ``field_score`` adds a BM25-saturated term frequency per field, weighted title 3,
   method name 2.5, authors 2, abstract 1 (``postings.py``); but an authors' name alone
   weighs a quarter of that for a word the papers say as a topic (``gan``: the papers saying
   GAN before those by authors named Gan; ``author:gan`` finds the people).

Ties go to the paper earlier in the list; only the best ``limit`` are sorted.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import reduce
from itertools import repeat
from operator import or_
from typing import Final

import numpy as np
import numpy.typing as npt

from storage.arrays import ranges
from storage.search.filters import Allowed, Filters, Phrase, PhraseCheck
from storage.search.hits import NO_WORDS, Explanation, MatchedWords, Ranking
from storage.search.matching import FUNCTION_WORDS, Plan, ScoredWord, selection
from storage.search.postings import (
    ALL_FIELDS,
    FIELD_WEIGHTS,
    FIELDS,
    K1,
    BoolArray,
    FloatArray,
    IntArray,
    Postings,
)
from storage.search.query import Query
from storage.search.table import PaperTable
from storage.search.vocabulary import Expansion, Vocabulary, number_twin

#: Ranking tiers: the number of query words matched comes first, then bonuses, then relevance.
_TIER: Final = 1e6
_NAME_BONUS: Final = 1000.0
_PHRASE_BONUS: Final = 500.0
_TITLE_BONUS: Final = 250.0
#: How many of the best papers the title bonuses look at.
_PHRASE_RERANK: Final = 50
#: The most title words joined to match a compound of the query (``state-of-the-art``).
_JOINED_WORDS: Final = 4
#: A word's posting score once in a title, or an abstract, of average length, per unit of its
#: weight (BM25).
_ONCE_IN_A_TITLE: Final = float(FIELD_WEIGHTS[0] * (K1 + 1.0) / (1.0 + K1))
_ONCE_IN_AN_ABSTRACT: Final = float(
    FIELD_WEIGHTS[FIELDS.index("abstract")] * (K1 + 1.0) / (1.0 + K1)
)
#: The shortest last part of a compound being typed whose parts are looked for in abstracts.
_TYPED_PART: Final = 3
#: A query word is a topic word when the papers with it in a title, a method name or an
#: abstract, times this, are at least those with it in authors' names alone (half as many) ...
_TOPIC_SHARE: Final = 2
#: ... and a name alone then weighs this much of its score: an author's name (weight 2) as
#: half a word of an abstract (weight 1), below the papers that say the word.
_NAME_IN_A_TOPIC: Final = 0.25
#: Query words whose per-paper scores are remembered (the words of the last few keystrokes).
_SCORES_KEPT: Final = 32


@dataclass(frozen=True, slots=True)
class WordScores:
    """Per-paper score of one query word, and its expansion."""

    scores: FloatArray
    expansion: Expansion
    #: Index words matched besides the expansion's (a compound's parts in a title's words).
    parts: tuple[int, ...] = ()
    #: What a paper matched by a compound's parts in its abstract only must have there: the
    #: parts in a row (checked on its text, as far as the results go).
    check: PhraseCheck | None = None


#: What a query word's scores are remembered by: the word, and a compound's parts.
_ScoresKey = tuple[ScoredWord, tuple[str, ...]]


class Ranker:
    """Scores papers for a query's words over one index, remembering recent words' scores."""

    def __init__(
        self, table: PaperTable, vocabulary: Vocabulary, postings: Postings, filters: Filters
    ) -> None:
        self._table = table
        self._vocabulary = vocabulary
        self._postings = postings
        self._filters = filters
        self._scores: OrderedDict[_ScoresKey, WordScores] = OrderedDict()

    def clear_cache(self) -> None:
        """Forget remembered word scores."""
        self._scores.clear()

    def cache_bytes(self) -> int:
        """Memory of the remembered word scores."""
        return sum(entry.scores.nbytes for entry in self._scores.values())

    def ranked(self, plan: Plan, allowed: Allowed, limit: int | None) -> Ranking:
        """The allowed papers the plan's words select, best first."""
        words = plan.words
        scored = self._plan_scores(plan)
        total = np.zeros(len(self._table), dtype=np.float64)
        for entry in scored:
            total += entry.scores
        chosen = selection(plan, [entry.scores > 0 for entry in scored], self._table.live)
        pool = allowed.mask & (chosen.tier > 0)
        checks = [*allowed.checks, *chosen.checks, *(e.check for e in scored if e.check)]
        for level in chosen.levels(pool):
            candidates = np.flatnonzero(pool & (chosen.met == level))
            if not len(candidates):
                continue
            score = chosen.tier[candidates] * _TIER + total[candidates]
            score += self._name_bonus(words, scored, candidates)
            if not plan.has_groups:
                score += self._title_bonus(plan, scored, candidates, score)
            order = self._passing(candidates, score, limit, checks)
            if len(order):
                partial = None if level == chosen.narrowing else (level, chosen.narrowing)
                return self._ranking(candidates[order], score[order], scored, allowed, partial)
        return Ranking([], [])

    def words_mask(self, plan: Plan, query: Query) -> BoolArray:
        """The papers with any of a query's words (a typo away, or begun): no paper outside
        them is found. A phrase's words count only in an ``OR`` group, or when the query has
        no free word (otherwise a paper found matches at least one free word)."""
        exact_too = bool(query.either) or not query.words
        mask = np.zeros(len(self._table), dtype=np.bool_)
        for word, entry in zip(plan.words, self._plan_scores(plan), strict=True):
            if exact_too or not word[2]:
                mask |= entry.scores > 0
        return mask

    def in_list_order(self, allowed: Allowed, limit: int | None) -> Ranking:
        """Every paper the filters allow, in list order (a query without words)."""
        slots = self._table.in_list_order(np.flatnonzero(allowed.mask))
        if allowed.checks:
            ranks = self._table.rank[slots].astype(np.float64)
            slots = slots[self._passing(slots, -ranks, limit, allowed.checks)]
        if limit is not None:
            slots = slots[:limit]
        ranking = self._ranking(slots, np.zeros(len(slots)), (), allowed)
        ranking.listed = True
        return ranking

    def _plan_scores(self, plan: Plan) -> list[WordScores]:
        """The scores of each word of a plan (a compound's with its parts in titles)."""
        parts = dict(plan.compounds)
        return [self._word_scores(w, parts.get(i, ())) for i, w in enumerate(plan.words)]

    def _word_scores(self, word: ScoredWord, parts: tuple[str, ...] = ()) -> WordScores:
        """Per-paper scores of one query word (the best of its expansions), cached; a
        hyphenated word's (``parts``) also match titles with its parts in a row."""
        key = (word, parts)
        cached = self._scores.get(key)
        if cached is not None:
            self._scores.move_to_end(key)
            return cached
        expansion = self._vocabulary.expand(*word)
        scores = self._postings.best_scores(
            expansion.tids, expansion.weights, len(self._table), self._names_by(word[0])
        )
        result = WordScores(scores, expansion)
        if parts:
            result = self._with_parts(result, parts, word[1])
        self._scores[key] = result
        if len(self._scores) > _SCORES_KEPT:
            self._scores.popitem(last=False)
        return result

    def _names_by(self, word: str) -> float:
        """What an authors' name alone weighs of its score for a query word: all of it, but
        for a word the library's papers say as a topic (``gan``: 21 papers of the real list
        say "GAN" or "GANs" in a title or abstract, 20 have an author named Gan), whose papers
        by people of that name come after the papers about it."""
        ids = self._vocabulary.ids
        tids = [t for t in (ids.get(word), ids.get(number_twin(word))) if t is not None]
        table = self._table
        live = None if table.live_count == len(table) else table.live  # (dead slots: masked)
        names, other = self._postings.name_only_papers(tids, live)
        return _NAME_IN_A_TOPIC if names and other * _TOPIC_SHARE >= names else 1.0

    def _with_parts(
        self, joined: WordScores, parts: tuple[str, ...], typing: bool = False
    ) -> WordScores:
        """A hyphenated word's scores: its joined form's (``time-series``: "timeseries", as the
        index keeps a hyphenated word of a paper), and in the papers whose title has its parts
        in a row ("Time Series Forecasting"), at least the joined form's once in a title.

        (Not the parts' scores: "judge" in a title is not "LLM-as-a-judge" there.) The index
        keeps no word's place but in titles: a paper with every part in its abstract (and no
        other match) scores as the joined form once in an abstract, and must have the parts in
        a row there (``WordScores.check``: its text read only as far as the results go), but
        while its last part is being typed and shorter than ``_TYPED_PART`` ("in-c": "in c", in
        most abstracts apart, would read them at each key)."""
        # each part as a whole word, even the one being typed: its completions would be a
        # guess on a guess, and cost a search of their own at each key
        words = [self._word_scores((part, False, True)) for part in parts]
        table = self._table
        present = np.ones(len(table), dtype=np.bool_)
        for entry in words:
            present &= entry.scores > 0
        slots = np.flatnonzero(present)
        starts = table.title_offsets[slots]
        lengths = table.title_offsets[slots + 1] - starts
        tokens = table.title_tids[ranges(starts, lengths)]
        owner = np.repeat(np.arange(len(slots)), lengths)
        in_row = np.ones(len(tokens), dtype=np.bool_)
        wanted = np.zeros(len(self._vocabulary), dtype=np.bool_)
        for k, entry in enumerate(words):
            wanted[:] = False
            wanted[list(entry.expansion.tids)] = True
            at = np.zeros(len(tokens), dtype=np.bool_)
            at[: len(tokens) - k] = wanted[tokens[k:]] & (owner[k:] == owner[: len(tokens) - k])
            in_row &= at
        found = np.zeros(len(slots), dtype=np.bool_)
        found[owner[in_row]] = True
        # the papers with every part in the abstract, and no other match: to be checked
        ids = self._vocabulary.ids
        in_abstract = np.zeros(len(table), dtype=np.bool_)
        if all(part in ids for part in parts) and (not typing or len(parts[-1]) >= _TYPED_PART):
            in_abstract = self._filters.words_mask(parts, False, 1 << FIELDS.index("abstract"))
            in_abstract &= joined.scores == 0
            in_abstract[slots[found]] = False
        if not found.any() and not in_abstract.any():
            return joined
        scores = joined.scores.copy()
        weight = max(joined.expansion.weights, default=0.0)
        scores[slots[found]] = np.maximum(scores[slots[found]], weight * _ONCE_IN_A_TITLE)
        check = None
        if in_abstract.any():
            scores[in_abstract] = weight * _ONCE_IN_AN_ABSTRACT
            check = PhraseCheck((Phrase(parts, False, ("abstract",)),), True, excused=~in_abstract)
        # the parts found in titles are shown as matched (not "in" of "in-context")
        terms = self._vocabulary.terms
        tids = tuple(
            t for entry in words for t in entry.expansion.tids if terms[t] not in FUNCTION_WORDS
        )
        return WordScores(scores, joined.expansion, tids, check)

    def _name_bonus(
        self, words: list[ScoredWord], scored: list[WordScores], candidates: IntArray
    ) -> npt.NDArray[np.float64]:
        """A bonus for papers whose method name the query says (or nearly says, or begins)."""
        result = np.zeros(len(candidates), dtype=np.float64)
        name_slots = self._table.name_slots
        if not name_slots:
            return result
        bonus: dict[int, float] = {}

        def grant(key: str, amount: float) -> None:
            for slot in name_slots.get(key, ()):
                if amount > bonus.get(slot, 0.0):
                    bonus[slot] = amount

        if len(words) > 1:
            grant("".join(w for w, _, _ in words), _NAME_BONUS)
        terms = self._vocabulary.terms
        for (word, typing, _), entry in zip(words, scored, strict=True):
            expansion = entry.expansion
            for tid, quality, whole in zip(
                expansion.tids, expansion.qualities, expansion.whole, strict=True
            ):
                term = terms[tid]
                if term == word or whole and quality == 1.0:  # (a slip's word: the word)
                    grant(term, _NAME_BONUS)
                elif word in self._vocabulary:
                    continue  # a real word: the user did not mean a look-alike name
                elif whole:
                    grant(term, _NAME_BONUS * quality)
                elif typing and len(word) >= 0.75 * len(term):
                    grant(term, 0.5 * _NAME_BONUS * quality)
        if bonus:
            full = np.zeros(len(self._table), dtype=np.float64)
            slots = np.fromiter(bonus.keys(), np.int64, len(bonus))
            full[slots] = np.fromiter(bonus.values(), np.float64, len(bonus))
            result = full[candidates]
        return result

    def _title_bonus(
        self,
        plan: Plan,
        scored: list[WordScores],
        candidates: IntArray,
        score: npt.NDArray[np.float64],
    ) -> npt.NDArray[np.float64]:
        """Bonuses for the best papers whose title has the query's words in the order typed
        (and each quoted phrase), or all of those that name something, in any order."""
        bonus = np.zeros(len(candidates), dtype=np.float64)
        words = plan.words
        free = tuple(i for i, (_, _, exact) in enumerate(words) if not exact)
        runs = [free] if len(free) >= 2 else []
        runs.extend(plan.phrases)
        content = [i for i, (word, _, _) in enumerate(words) if word not in FUNCTION_WORDS]
        if not runs and len(content) < 2:
            return bonus
        wanted = [self._title_words(word, entry) for word, entry in zip(words, scored, strict=True)]
        count = min(_PHRASE_RERANK, len(score))
        top = np.argpartition(-score, count - 1)[:count]
        top = top[score[top] // _TIER == score.max() // _TIER]
        # each title word's bits: the query words it is, or may begin (bit i: word i)
        bits: dict[int, int] = {}
        for i, entry in enumerate(wanted):
            for tid in entry.some:
                bits[tid] = bits.get(tid, 0) | 1 << i
        in_runs = [(_bits(run), [wanted[i] for i in run]) for run in runs]
        covered = _bits(content) if len(content) >= 2 else 0
        terms = self._vocabulary.terms
        # the titles' words read at once (a list each, as the loop reads them)
        offsets = self._table.title_offsets
        slots = candidates[top]
        starts = offsets[slots]
        lengths = offsets[slots + 1] - starts
        words_read = self._table.title_tids[ranges(starts, lengths)].tolist()
        ends = np.cumsum(lengths).tolist()
        for index, end, length in zip(top.tolist(), ends, lengths.tolist(), strict=True):
            tokens = words_read[end - length : end]
            has = reduce(or_, map(bits.get, tokens, repeat(0)), 0)
            title: _Title | None = None
            left = covered  # the words to cover not yet found in a run
            for run_bits, run in in_runs:
                if has & run_bits == run_bits:
                    title = title or _Title(tokens, set(tokens), terms)
                    if title.has_run(run):
                        bonus[index] += _PHRASE_BONUS / len(in_runs)
                        left &= ~run_bits
            if covered and has & left == left:
                title = title or _Title(tokens, set(tokens), terms)
                if all(title.has(wanted[i]) for i in range(len(wanted)) if left >> i & 1):
                    bonus[index] += _TITLE_BONUS
        return bonus

    def _title_words(self, word: ScoredWord, entry: WordScores) -> _Wanted:
        """What a title word may be to match a query word: the words it expands to, but for
        the typos of a word the library has; and the word itself, for title words joined."""
        text, typing, _ = word
        expansion = entry.expansion
        known = self._vocabulary.knows(text)
        terms = self._vocabulary.terms
        tids = frozenset(
            tid
            for tid, whole in zip(expansion.tids, expansion.whole, strict=True)
            if not (known and whole and terms[tid] != text)
        )
        ids = self._vocabulary.ids
        starts = frozenset(ids[text[:n]] for n in range(1, len(text)) if text[:n] in ids)
        return _Wanted(tids, text, typing, starts, tids | starts)

    def _passing(
        self,
        candidates: IntArray,
        score: npt.NDArray[np.float64],
        limit: int | None,
        checks: Sequence[PhraseCheck],
    ) -> IntArray:
        """Indices into ``candidates`` of the best ``limit`` that pass the phrase checks.

        They are checked best first, a block at a time, its papers' texts read together
        (``Filters.answer``: with those of the other candidates in the same chunks of
        ``papers.cache``): a block as large as the results still wanted need, at the share of
        papers that passed so far (four times the last while none has)."""
        if not checks:
            return self._best(candidates, score, limit)
        if limit is None:  # every paper: all read together
            order = self._best(candidates, score, None)
            self._filters.answer(candidates[order], checks)
            slots = candidates[order].tolist()
            passing = [self._filters.passes(slot, checks) for slot in slots]
            return order[np.asarray(passing, dtype=np.bool_)]
        kept: list[int] = []
        checked = [0, limit]  # papers checked over both scans, and the next block's size

        def scan(order: IntArray) -> bool:
            at = 0
            while at < len(order):
                block = order[at : at + checked[1]]
                at += len(block)
                self._filters.answer(candidates[block], checks)
                checked[0] += len(block)
                for i in block.tolist():
                    if self._filters.passes(int(candidates[i]), checks):
                        kept.append(i)
                        if len(kept) >= limit:
                            return True
                left = limit - len(kept)
                checked[1] = -(-left * checked[0] // len(kept)) if kept else 4 * len(block)
            return False

        first = self._best(candidates, score, 4 * limit + 16)
        if not scan(first) and len(first) < len(candidates):
            scan(self._best(candidates, score, None)[len(first) :])
        return np.asarray(kept, dtype=np.int64)

    def _best(
        self, candidates: IntArray, score: npt.NDArray[np.float64], limit: int | None
    ) -> IntArray:
        """Indices into ``candidates`` of the best ``limit``, by score then list order."""
        if limit is not None and limit < len(candidates):
            kth = np.partition(-score, limit - 1)[limit - 1]
            keep = np.flatnonzero(-score <= kth)
        else:
            keep = np.arange(len(candidates))
        order = keep[np.lexsort((self._table.rank[candidates[keep]], -score[keep]))]
        return order[:limit] if limit is not None else order

    def _ranking(
        self,
        slots: IntArray,
        scores: npt.NDArray[np.float64],
        scored: Sequence[WordScores],
        allowed: Allowed,
        partial: tuple[int, int] | None = None,
    ) -> Ranking:
        """The papers in ``slots``, explained (matched words per field) when first read."""
        matched = (t for entry in scored for t in (*entry.expansion.tids, *entry.parts))
        fields = dict.fromkeys(matched, ALL_FIELDS)
        for tid, bits in allowed.field_terms.items():
            fields[tid] = fields.get(tid, 0) | bits
        explanation: Explanation = NO_WORDS
        if fields or allowed.author_terms:
            explanation = MatchedWords(
                self._table.papers,
                tuple(self._postings.segments),
                self._vocabulary.terms,
                slots,
                tuple(fields.items()),
                frozenset(allowed.author_terms),
            )
        return Ranking(self._table.ids[slots].tolist(), scores.tolist(), explanation, partial)


@dataclass(frozen=True, slots=True)
class _Wanted:
    """What a title word may be to match one query word (``Ranker._title_words``)."""

    tids: frozenset[int]
    word: str
    typing: bool
    #: The index words that begin the word (the first of title words joined to make it).
    starts: frozenset[int]
    #: Either: a title without any of them has not the word.
    some: frozenset[int]


def _bits(positions: Iterable[int]) -> int:
    """The positions of query words as bits of an int."""
    return sum(1 << i for i in set(positions))


class _Title:
    """A paper's title words, matched against query words in order or anywhere."""

    def __init__(self, tokens: list[int], present: set[int], terms: list[str]) -> None:
        self._tokens = tokens
        self._present = present
        self._terms = terms

    def has(self, wanted: _Wanted) -> bool:
        """Whether a word of the title (or a few joined) is the query word."""
        if not wanted.tids.isdisjoint(self._present):
            return True
        if wanted.starts.isdisjoint(self._present):
            return False
        return any(self._joined(at, wanted) for at in range(len(self._tokens)))

    def has_run(self, run: list[_Wanted]) -> bool:
        """Whether the title has the query words one after the other."""
        first, rest = run[0], run[1:]
        for start, token in enumerate(self._tokens):
            if token in first.tids:
                at = start + 1
            elif token in first.starts and (taken := self._joined(start, first)):
                at = start + taken
            else:
                continue
            for wanted in rest:
                taken = self._matched(at, wanted)
                if not taken:
                    break
                at += taken
            else:
                return True
        return False

    def _matched(self, at: int, wanted: _Wanted) -> int:
        """How many title words from ``at`` on make the query word (0: none)."""
        if at >= len(self._tokens):
            return 0
        if self._tokens[at] in wanted.tids:
            return 1
        return self._joined(at, wanted)

    def _joined(self, at: int, wanted: _Wanted) -> int:
        """How many title words from ``at`` on, joined, make the query word (0: none)."""
        tokens = self._tokens
        if tokens[at] not in wanted.starts:
            return 0
        word, terms = wanted.word, self._terms
        joined = terms[tokens[at]]
        for end in range(at + 1, min(at + _JOINED_WORDS, len(tokens))):
            joined += terms[tokens[end]]
            if joined == word or (wanted.typing and joined.startswith(word)):
                return end - at + 1
            if not word.startswith(joined):
                break
        return 0
