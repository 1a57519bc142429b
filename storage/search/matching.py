"""Which papers a query's words select: those that match every word, else the closest ones.

Each free word of a query is a *need*: a paper meets it when the word matches the paper as the
ranking counts a match (exactly, as a prefix, or a typo away: ``vocabulary.py``); each ``OR``
group is one need, met by any of its terms (a term's words all matching, a phrase's words in a
row). A hyphenated word is searched as its joined form when the index has it (``time-series``:
"timeseries", which the index keeps for a hyphenated word), and matches too where a title has
its parts in a row ("Time Series Forecasting": ``Plan.compounds``, ``ranking.py``), or an
abstract (its text read to tell, as far as the results go). The papers
meeting every need are the result. When none does, the papers meeting the
most needs are, and the ranking says so (``Ranking.partial``). Phrases and qualifiers are not
needs but filters (``filters.py``): a paper without them is never listed.

A word narrows nothing when it is a function word (``of``, ``the``: in 98-100% of the ICLR 2025
papers, yet missing from a paper known by its title alone) or, in a library of at least
``COMMON_MIN_PAPERS`` papers, when it matches more than half of them (``we``, ``model``, or the
letter being typed: requiring them removes mostly the papers without an abstract). Such a word
still counts in the ranking (a paper that has it ranks higher), but not in the result: so
``olmoe mixture of experts`` lists the papers with "olmoe", "mixture" and "experts". A query of
such words only needs them all (``the`` lists the papers with "the").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np

from storage.search.filters import Phrase, PhraseCheck
from storage.search.postings import BoolArray, IntArray
from storage.search.query import Query
from storage.search.vocabulary import Vocabulary

_FUNCTION_WORD_TEXT: Final = """
a an the of in on at to for from by with without into onto over under about as and or nor but
if then than so is are was were be been being am do does did has have had it its this that
these those there their them they we our us you your i my which who whom whose what when where
why how not no vs via per each both all any some such can could may might must shall should
will would
"""
#: Words that join others in a query and name nothing a paper is about.
FUNCTION_WORDS: Final = frozenset(_FUNCTION_WORD_TEXT.split())
#: A word matching more than this share of the papers does not narrow a query ...
COMMON_SHARE: Final = 0.5
#: ... in a library at least this large (a share of a handful of papers says nothing).
COMMON_MIN_PAPERS: Final = 100

#: A word to score: the index word, whether it is still being typed, whether only an exact
#: match counts (a word of a phrase).
ScoredWord = tuple[str, bool, bool]


@dataclass(frozen=True, slots=True)
class Need:
    """What a paper needs of a query for one term or ``OR`` group: one of the alternatives."""

    #: Each alternative: positions in ``Plan.words`` that must all match.
    alternatives: tuple[tuple[int, ...], ...]
    #: The phrase each alternative is (its words must be in a row), or None.
    phrases: tuple[Phrase | None, ...]

    def met(self, matches: Sequence[BoolArray]) -> BoolArray:
        """Papers meeting the need (phrases by their words: whether in a row is checked later)."""
        met = np.zeros(len(matches[0]), dtype=np.bool_)
        for alternative in self.alternatives:
            met |= np.logical_and.reduce([matches[i] for i in alternative])
        return met


@dataclass(frozen=True, slots=True)
class Plan:
    """A query's words to score, and what a paper needs of them."""

    words: list[ScoredWord]
    #: Positions of the words each counted in the ranking's tiers (those of no ``OR`` group).
    counted: tuple[int, ...]
    #: One need per free word of no ``OR`` group, then one per group.
    needs: tuple[Need, ...]
    #: Whether the query has an ``OR`` group (its words are then no title phrase).
    has_groups: bool
    #: Positions in ``words`` of each quoted phrase of two words or more outside ``OR`` groups.
    phrases: tuple[tuple[int, ...], ...] = ()
    #: The parts of each hyphenated word searched as its joined form, by its position in
    #: ``words`` (``time-series``: ``timeseries``, and "time", "series" in a row in a title).
    compounds: tuple[tuple[int, tuple[str, ...]], ...] = ()


@dataclass(frozen=True, slots=True)
class Selection:
    """What each paper meets of a query's needs, and its tier for the ranking."""

    #: Per paper: the words it matches, and the ``OR`` groups it meets (the ranking's tier).
    tier: IntArray
    #: Per paper: the needs that narrow that it meets.
    met: IntArray
    #: How many needs narrow: a paper meeting them all is a full match.
    narrowing: int
    #: Phrases of ``OR`` groups to check in the papers that meet a group by a phrase only.
    checks: list[PhraseCheck]

    def levels(self, pool: BoolArray) -> list[int]:
        """Needs met to try in turn: all, then the most that some paper of ``pool`` meets."""
        full = self.narrowing
        if full == 0 or not pool.any():
            return [full]
        best = int(self.met[pool].max())
        return [full, *range(min(best, full - 1), 0, -1)]


def plan_query(query: Query, vocabulary: Vocabulary) -> Plan:
    """The words a query is scored by (its free words, compounds resolved, then its phrases'),
    and its needs."""
    grouped_words, grouped_phrases = query.grouped()
    words: list[ScoredWord] = []
    of_word: list[tuple[int, ...]] = []
    compounds: list[tuple[int, tuple[str, ...]]] = []
    for i, word in enumerate(query.words):
        typing = query.typing and i == len(query.words) - 1
        start = len(words)
        resolved = vocabulary.resolve(word, typing)
        words.extend((w, t, False) for w, t in resolved)
        of_word.append(tuple(range(start, len(words))))
        pieces = tuple(p for p in word.split("-") if p)
        if len(resolved) == 1 and len(pieces) > 1:
            compounds.append((start, pieces))
    of_phrase: list[tuple[int, ...]] = []
    opened: list[bool] = []
    for i, phrase in enumerate(query.phrases):
        is_open = query.open_phrase and i == len(query.phrases) - 1
        parts = phrase.split()
        start = len(words)
        words.extend((w, is_open and j == len(parts) - 1, True) for j, w in enumerate(parts))
        of_phrase.append(tuple(range(start, len(words))))
        opened.append(is_open)
    counted = [j for i, at in enumerate(of_word) if i not in grouped_words for j in at]
    counted += [j for i, at in enumerate(of_phrase) if i not in grouped_phrases for j in at]
    needs = [
        Need(((j,),), (None,)) for i, at in enumerate(of_word) if i not in grouped_words for j in at
    ]
    for group in query.either:
        alternatives: list[tuple[int, ...]] = []
        phrases: list[Phrase | None] = []
        for term in group:
            if term.phrase is None:
                alternatives.append(tuple(j for i in term.words for j in of_word[i]))
                phrases.append(None)
                continue
            in_row = tuple(query.phrases[term.phrase].split())
            alternatives.append(of_phrase[term.phrase])
            phrases.append(Phrase(in_row, opened[term.phrase]) if len(in_row) > 1 else None)
        needs.append(Need(tuple(alternatives), tuple(phrases)))
    in_titles = tuple(
        at for i, at in enumerate(of_phrase) if i not in grouped_phrases and len(at) >= 2
    )
    return Plan(
        words, tuple(counted), tuple(needs), bool(query.either), in_titles, tuple(compounds)
    )


def selection(plan: Plan, matches: Sequence[BoolArray], live: BoolArray) -> Selection:
    """What each paper meets of the plan's needs, given which papers each word matches."""
    size = len(live)
    tier = np.zeros(size, dtype=np.int64)
    for i in plan.counted:
        tier += matches[i]
    met_by = [need.met(matches) for need in plan.needs]
    for need, met in zip(plan.needs, met_by, strict=True):
        if len(need.alternatives) > 1:
            tier += met
    papers = int(np.count_nonzero(live))
    narrows = [_narrows(plan, need, matches, live, papers) for need in plan.needs]
    if not any(narrows):  # a query of common words only: it needs them all
        narrows = [True] * len(plan.needs)
    met_count = np.zeros(size, dtype=np.int64)
    for met, narrowing in zip(met_by, narrows, strict=True):
        if narrowing:
            met_count += met
    checks = [_phrase_check(need, matches) for need in plan.needs if any(need.phrases)]
    return Selection(tier, met_count, sum(narrows), checks)


def _narrows(
    plan: Plan, need: Need, matches: Sequence[BoolArray], live: BoolArray, papers: int
) -> bool:
    """Whether requiring the need leaves out papers that matter (see the module's text)."""
    if len(need.alternatives) > 1:
        return True  # an OR group: asked for in so many words
    (position,) = need.alternatives[0]
    if plan.words[position][0] in FUNCTION_WORDS:
        return False
    if papers < COMMON_MIN_PAPERS:
        return True
    return int(np.count_nonzero(matches[position] & live)) <= COMMON_SHARE * papers


def _phrase_check(need: Need, matches: Sequence[BoolArray]) -> PhraseCheck:
    """The check of an ``OR`` group's phrases: a paper meeting the group by a phrase's words
    only must have one of its phrases in a row (one meeting it otherwise, or not at all, need
    not)."""
    size = len(matches[0])
    by_words = np.zeros(size, dtype=np.bool_)
    by_phrase_words = np.zeros(size, dtype=np.bool_)
    for alternative, phrase in zip(need.alternatives, need.phrases, strict=True):
        met = np.logical_and.reduce([matches[i] for i in alternative])
        if phrase is None:
            by_words |= met
        else:
            by_phrase_words |= met
    phrases = tuple(p for p in need.phrases if p is not None)
    return PhraseCheck(phrases, True, excused=by_words | ~by_phrase_words)
