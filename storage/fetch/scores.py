"""Which fields of a review on OpenReview state its overall score and its confidence.

Venues name them as they like, and a venue of API v2 may say its names in its group
(``review_rating``, ``review_confidence``: read first, ``replies.ReplyNames``). Else a field is
known by its name, its case, spaces, underscores and a form's question number set aside
(UAI 2022's ``Q6 Overall score`` is ``overall_score``, LoG 2022's ``Overall Score`` too):

- the overall score: ICLR's and NeurIPS's ``rating``, ICML 2025's ``overall_recommendation``,
  ACL Rolling Review's ``overall_assessment``, CLeaR 2022's ``Overall score``, older venues'
  ``recommendation`` or ``score``, AutoML-Conf 2022's ``review_rating``; a final one over any
  other (MIDL 2021's ``final_rating``, MIDL 2022's ``final_rating_after_the_rebuttal``), a
  preliminary one (MIDL 2022's ``preliminary_rating``) only where the review has no other.
  A field that scores one side of the paper (soundness, presentation, contribution,
  excitement) or the reviewer's confidence is none, nor is one whose value holds no number
  (a "justification_of_the_final_rating", a recommendation in words): the next is read;
- the confidence: ``confidence``, ``review_confidence``, UAI 2022's ``Q8 Confidence in your
  score``.

Values come as v2's ``{"value": …}`` or v1's plain ones, as numbers or as ``"8: accept, good
paper"`` (``records.numbers``). A journal's reviews (TMLR's) have no score: no rating.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from storage.fetch.records import numbers, value_of

#: What an overall score is called, after ``overall_`` or alone (``rating``, ``overall_score``).
_SCORE_WORDS = ("rating", "recommendation", "assessment", "score", "evaluation", "merit")
#: Words before a score's name that make it the final one, or an early one.
_FINAL = frozenset({"final", "updated", "revised"})
_EARLY = frozenset({"preliminary", "initial", "original"})
#: Words before a field's name that are none of it (AutoML-Conf 2022's ``review_rating``).
_AROUND = frozenset({"review", "reviewer", "reviewers"})
#: The fields of a review looked at, at most.
_MAX_FIELDS = 200
#: The characters of a field's name read: the caches below keep what they are asked (a name of
#: a megabyte from a server kept a megabyte for the rest of the process, 4096 of them).
_MAX_NAME = 100
#: A form's question number before a field's name: ``Q6``, ``6``, ``6.``.
_NUMBER = re.compile(r"q?\d+")


@lru_cache(maxsize=4096)
def _words(key: str) -> tuple[str, ...]:
    """A field's name as words: in small letters, its question number and ``_AROUND`` left out
    (``Q6 Overall score`` → ``("overall", "score")``)."""
    words = re.findall(r"[^\W_]+", key[:_MAX_NAME].casefold())
    if words and _NUMBER.fullmatch(words[0]):
        words = words[1:]
    while words and words[0] in _AROUND:
        words = words[1:]
    return tuple(words)


@lru_cache(maxsize=4096)
def score_rank(key: str) -> tuple[int, int] | None:
    """Where a field stands among a review's overall scores (lower first: a final score, then
    the others, the early ones last), or None for a field that is no overall score."""
    words = _words(key)
    tier = 1
    if words and words[0] in _FINAL:
        tier, words = 0, words[1:]
    elif words and words[0] in _EARLY:
        tier, words = 2, words[1:]
    if words and words[0] == "overall":
        words = words[1:] or ("score",)
    if not words or words[0] not in _SCORE_WORDS:
        return None
    rest = words[1:]
    if rest and rest[0] != "after":  # "rating_after_the_rebuttal"; not "rating_justification"
        return None
    if "confidence" in rest:  # "rating_after_the_rebuttal_confidence": the reviewer's, no score
        return None
    return (0 if rest else tier, _SCORE_WORDS.index(words[0]))


@lru_cache(maxsize=4096)
def is_confidence(key: str) -> bool:
    """Whether a field states the reviewer's confidence (``confidence``, ``Q8 Confidence in
    your score``)."""
    words = _words(key)
    return bool(words) and words[0] == "confidence"


def review_score(review: Mapping[str, Any], own: tuple[str, ...] = ()) -> float | None:
    """A review's overall score: the first of the venue's ``own`` fields that holds a number,
    else the best ranked field (``score_rank``) that does; None for none."""
    fields = list(review)[:_MAX_FIELDS]
    ranked = sorted(
        (rank, key)
        for key in fields
        if isinstance(key, str) and (rank := score_rank(key[:_MAX_NAME]))
    )
    return _first_number(review, (*own, *(key for _, key in ranked)))


def review_confidence(review: Mapping[str, Any], own: tuple[str, ...] = ()) -> float | None:
    """A review's confidence: the venue's ``own`` field first, else ``confidence``, else the
    first field named for it (``is_confidence``); None for none."""
    fields = [key for key in list(review)[:_MAX_FIELDS] if isinstance(key, str)]
    named = sorted((key != "confidence", key) for key in fields if is_confidence(key[:_MAX_NAME]))
    return _first_number(review, (*own, *(key for _, key in named)))


def _first_number(review: Mapping[str, Any], keys: tuple[str, ...]) -> float | None:
    for key in keys:
        if found := numbers(value_of(review, key))[:1]:
            return found[0]
    return None
