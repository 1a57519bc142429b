"""What a query's filters leave: qualifiers, exclusions and required phrases, as masks.

Qualifiers are declared in ``qualifiers.py``; here is what they ask of the index
(``PaperFacts``). A phrase of several words first narrows the papers to those with all its
words; whether the words are in a row is checked later, paper by paper, only as far as the
results go (``Filters.passes``), and the answers are remembered per phrase.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import repeat
from typing import Final

import numpy as np

from storage.models import Paper, Status
from storage.search.postings import AUTHORS, BoolArray, Postings
from storage.search.qualifiers import kind_of
from storage.search.query import Query
from storage.search.table import PaperTable
from storage.search.text import folded, query_words, tokenize, word_key
from storage.search.vocabulary import Vocabulary

#: Phrases whose answers (which papers have them) are remembered.
_PHRASES_KEPT: Final = 32


@dataclass(frozen=True, slots=True)
class PhraseCheck:
    """A phrase a paper must have (``wanted``) or must not have, checked on its text."""

    words: tuple[str, ...]
    is_open: bool
    wanted: bool
    #: Papers that have all the phrase's words (others cannot have it), when known.
    candidates: BoolArray | None = field(default=None, compare=False, hash=False)
    pattern: re.Pattern[str] = field(init=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "pattern", _phrase_pattern(self.words, self.is_open))

    @property
    def key(self) -> tuple[tuple[str, ...], bool]:
        """What the check looks for (whether wanted or not), to remember its answers by."""
        return self.words, self.is_open


def _phrase_pattern(words: Sequence[str], is_open: bool) -> re.Pattern[str]:
    """The words in a row, separated by anything but letters and digits.

    It starts with the first word itself, so that the regex engine can look for it as plain
    text (many times faster than starting with a look-behind); ``_has_phrase`` checks that the
    match begins a word.
    """
    tail = "" if is_open else r"(?![^\W_])"
    return re.compile(r"[\W_]+".join(re.escape(w) for w in words) + tail)


def _has_phrase(pattern: re.Pattern[str], text: str) -> bool:
    """Whether ``pattern`` matches ``text`` at the start of a word."""
    for match in pattern.finditer(text):
        start = match.start()
        if start == 0 or not text[start - 1].isalnum():
            return True
    return False


@dataclass(frozen=True, slots=True)
class Allowed:
    """The papers a query's filters allow, and what the filters leave for later."""

    mask: BoolArray
    #: Phrases to check paper by paper, as far as the results go.
    checks: list[PhraseCheck]
    #: Author words that ``author:`` matched, for the hits to mark.
    author_terms: set[str]


def _as_status(value: Status | str) -> Status:
    """A triage state from a stored value; anything unreadable counts as the inbox."""
    if isinstance(value, Status):
        return value
    try:
        return Status.parse(value)
    except ValueError:
        return Status.INBOX


class Filters:
    """Masks for a query's filters over one index, and the phrase answers remembered."""

    def __init__(self, table: PaperTable, vocabulary: Vocabulary, postings: Postings) -> None:
        self._table = table
        self._vocabulary = vocabulary
        self._postings = postings
        self._phrase_answers: OrderedDict[tuple[tuple[str, ...], bool], dict[int, bool]] = (
            OrderedDict()
        )

    def clear_cache(self) -> None:
        """Forget the remembered phrase answers."""
        self._phrase_answers.clear()

    def allowed(
        self,
        query: Query,
        statuses: Mapping[str, Status | str] | None,
        tags: Mapping[str, Sequence[str]] | None,
    ) -> Allowed:
        """Papers the qualifiers, exclusions and phrases allow, and the phrase checks left."""
        mask = self._table.live.copy()
        checks: list[PhraseCheck] = []
        facts = _Facts(self._table, self._vocabulary, self._postings, statuses or {}, tags or {})
        for qualifier in query.qualifiers:
            selected = kind_of(qualifier).select(facts, qualifier)
            if qualifier.negated:
                mask &= ~selected
            else:
                mask &= selected
        excluded = [w.split("-") for w in query.excluded]
        excluded += [p.split() for p in query.excluded_phrases]
        for parts in excluded:
            words = [w for w in parts if w]
            if not words:
                continue
            joined = self._vocabulary.ids.get("".join(words))
            if joined is not None:
                mask &= ~self.docs_with([joined])
            if len(words) > 1:
                having = self._words_mask(words, False)
                checks.append(PhraseCheck(tuple(words), False, False, having))
        for i, phrase in enumerate(query.phrases):
            words = phrase.split()
            is_open = query.open_phrase and i == len(query.phrases) - 1
            mask &= self._words_mask(words, is_open)
            if len(words) > 1:
                checks.append(PhraseCheck(tuple(words), is_open, True))
        return Allowed(mask, checks, facts.author_terms)

    def docs_with(self, tids: Iterable[int]) -> BoolArray:
        """Papers that contain any of the terms."""
        return self._postings.docs_with(tids, len(self._table))

    def _words_mask(self, words: Sequence[str], is_open: bool) -> BoolArray:
        """Papers with every one of the words (the last as a prefix when ``is_open``)."""
        mask = self._table.live.copy()
        for i, word in enumerate(words):
            if is_open and i == len(words) - 1:
                mask &= self.docs_with(self._vocabulary.expand(word, True, True).tids)
                continue
            tid = self._vocabulary.ids.get(word)
            if tid is None:
                return np.zeros(len(self._table), dtype=np.bool_)
            mask &= self.docs_with([tid])
        return mask

    def passes(self, slot: int, checks: Sequence[PhraseCheck]) -> bool:
        """Whether a paper has each wanted phrase and none of the unwanted ones.

        Answers are remembered per phrase, so typing on after a closing quote costs nothing.
        """
        for check in checks:
            if check.candidates is not None and not check.candidates[slot]:
                found = False
            else:
                answers = self._phrase_answers.get(check.key)
                if answers is None:
                    answers = self._phrase_answers[check.key] = {}
                    if len(self._phrase_answers) > _PHRASES_KEPT:
                        self._phrase_answers.popitem(last=False)
                found_before = answers.get(slot)
                if found_before is None:
                    found_before = answers[slot] = self._has_phrase(slot, check)
                found = found_before
            if found != check.wanted:
                return False
        return True

    def _has_phrase(self, slot: int, check: PhraseCheck) -> bool:
        """Whether the paper has the check's phrase in its title, name, authors or abstract."""
        paper = self._table.papers[slot]
        for text in (paper.title, paper.abstract, paper.name):
            if text and _has_phrase(check.pattern, folded(text)):
                return True
        return bool(paper.authors) and _has_phrase(check.pattern, folded("; ".join(paper.authors)))


class _Facts:
    """The ``PaperFacts`` of one search: the index, with that search's triage states and tags."""

    def __init__(
        self,
        table: PaperTable,
        vocabulary: Vocabulary,
        postings: Postings,
        statuses: Mapping[str, Status | str],
        tags: Mapping[str, Sequence[str]],
    ) -> None:
        self._table = table
        self._vocabulary = vocabulary
        self._postings = postings
        self._statuses = statuses
        self._tags = tags
        self.author_terms: set[str] = set()

    def with_status(self, wanted: frozenset[Status]) -> BoolArray:
        """Papers in one of the wanted triage states (papers absent from ``statuses``: inbox)."""
        statuses = self._statuses
        mask = np.full(len(self._table), Status.INBOX in wanted, dtype=np.bool_)
        if not statuses:
            return mask
        slots = np.fromiter(
            map(self._table.slot_by_id.get, statuses.keys(), repeat(-1)), np.int64, len(statuses)
        )
        chosen = np.fromiter(
            (_as_status(v) in wanted for v in statuses.values()), np.bool_, len(statuses)
        )
        known = slots >= 0
        mask[slots[known]] = chosen[known]
        return mask

    def with_code(self) -> BoolArray:
        """Papers that link a GitHub repository."""
        return self._table.has_code.copy()

    def with_venue(self, accepts: Callable[[str], bool]) -> BoolArray:
        """Papers whose folded venue status ``accepts`` takes."""
        codes = [c for venue, c in self._table.venues.items() if venue and accepts(venue)]
        return np.isin(self._table.venue_code, codes)

    def in_lists(self, accepts: Callable[[tuple[str, ...]], bool]) -> BoolArray:
        """Papers whose folded list names ``accepts`` takes."""
        codes = [c for names, c in self._table.list_sets.items() if accepts(names)]
        return np.isin(self._table.lists_code, codes)

    def tagged(self, accepts: Callable[[Sequence[str]], bool]) -> BoolArray:
        """Papers whose tags ``accepts`` takes."""
        mask = np.zeros(len(self._table), dtype=np.bool_)
        for paper_id, paper_tags in self._tags.items():
            slot = self._table.slot_by_id.get(paper_id)
            if slot is not None and accepts(paper_tags):
                mask[slot] = True
        return mask

    def where(self, accepts: Callable[[Paper], bool]) -> BoolArray:
        """Papers that ``accepts`` takes, one by one."""
        papers = self._table.papers
        return np.fromiter(map(accepts, papers), np.bool_, len(papers))

    def by_author(self, name: str, *, highlight: bool) -> BoolArray:
        """Papers with one author whose name has every word of ``name``."""
        vocabulary = self._vocabulary
        mask = np.ones(len(self._table), dtype=np.bool_)
        wanted: list[set[int]] = []
        for word in query_words(name):
            joined = word_key(word)
            parts = [joined] if joined in vocabulary or "-" not in word else word.split("-")
            for part in filter(None, parts):
                tids = vocabulary.author_words(part)
                wanted.append(set(tids))
                mask &= self._postings.docs_with(tids, len(self._table), 1 << AUTHORS)
                if highlight:
                    self.author_terms.update(vocabulary.terms[t] for t in tids)
        if len(wanted) > 1:  # "yoshua bengio": the words must name the same author
            for slot in np.flatnonzero(mask).tolist():
                mask[slot] = any(
                    all(not wanted_ids.isdisjoint(ids) for wanted_ids in wanted)
                    for ids in self._author_name_ids(slot)
                )
        return mask

    def _author_name_ids(self, slot: int) -> list[set[int]]:
        """The term ids of each author of a paper, author by author."""
        ids = self._vocabulary.ids
        return [
            {ids[t] for t in tokenize(author) if t in ids}
            for author in self._table.papers[slot].authors
        ]
