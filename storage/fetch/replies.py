"""What a submission's direct replies on OpenReview say: its reviews' scores and its decision.

A reply is known by the last part of its invitation (``…/Submission12/-/Official_Review``),
or its last two for ICLR 2017's, whose reviews are ``…/-/paper12/official/review``, which each
venue names as it likes: a venue of API v2 says its names in its group (``review_name``,
``decision_name``, ``meta_review_name``, read as openreview-py's how-to reads them), and they
are read beside the usual ones (``ReplyNames``).

- a review's overall score is the field the venue's group names (``review_rating``: a venue
  may call it anything, ``review_rating`` itself in openreview-py's venue workflows), else the
  field named for one (``scores.py``: ``rating``, ``overall_assessment``, ``Q6 Overall score``,
  a final rating over a preliminary one), its confidence the group's ``review_confidence``,
  else the field named for it, counted only beside a score;
- the decision is the decision reply's ``decision`` ("Accept (Oral)", ICLR 2017's and 2018's
  "Invite to Workshop Track", ICLR 2020's "Accept (Talk)"), else the meta review's
  ``recommendation`` (ICLR 2019 and its like, which posted no decision notes); either reply
  may name it the other way (a decision form's ``recommendation``, a meta review's
  ``decision``: ``DECISION_KEYS``), and both API versions' shapes are read (v2's
  ``{"value": …}``, v1's plain value).

A note's direct replies are in its ``details`` (``direct_replies``): ``directReplies``, or, for
a server that gives every reply of the forum (``replies``), those that answer the note.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from storage.fetch.records import value_of
from storage.fetch.scores import review_confidence, review_score

#: Where a decision or a meta review states the decision, the first one it has.
DECISION_KEYS = ("decision", "recommendation")
#: Replies read of one submission at most, and invitations of one reply.
_MAX_REPLIES = 1000
_MAX_INVITATIONS = 20


@dataclass(frozen=True, slots=True)
class ReplyNames:
    """The invitation names (their last part) of a venue's reviews, decisions, meta reviews."""

    #: ICLR 2017's official reviews are ``ICLR.cc/2017/conference/-/paper12/official/review``
    #: (beside its ``…/pre-review/question`` and ``…/public/comment``, which are none)
    reviews: frozenset[str] = frozenset({"Official_Review", "official/review"})
    #: ICLR 2018 posted its decisions under ``ICLR.cc/2018/Conference/-/Acceptance_Decision``,
    #: ICLR 2017 under ``ICLR.cc/2017/conference/-/paper12/acceptance``
    decisions: frozenset[str] = frozenset({"Decision", "Acceptance_Decision", "acceptance"})
    meta_reviews: frozenset[str] = frozenset({"Meta_Review"})
    #: The fields the venue's group says a review states its score and confidence in (read
    #: before those named for them: ``scores.py``).
    rating_keys: tuple[str, ...] = ()
    confidence_keys: tuple[str, ...] = ()

    def with_own(
        self, review: str, decision: str, meta_review: str, rating: str = "", confidence: str = ""
    ) -> ReplyNames:
        """These names and a venue's own ("" for one it does not name)."""
        return ReplyNames(
            self.reviews | {review} - {""},
            self.decisions | {decision} - {""},
            self.meta_reviews | {meta_review} - {""},
            _first(rating, self.rating_keys),
            _first(confidence, self.confidence_keys),
        )


def _first(own: str, keys: tuple[str, ...]) -> tuple[str, ...]:
    """``keys`` with a venue's own name of the field first ("" for none)."""
    return (own, *(k for k in keys if k != own)) if own else keys


@dataclass(slots=True)
class Replies:
    """What a submission's replies say: each review's score and confidence, the decision."""

    ratings: list[float] = field(default_factory=list)
    confidences: list[float] = field(default_factory=list)
    #: The decision in its own words ("Accept (Oral)"), "" when none was posted.
    decision: str = ""


def direct_replies(note: Mapping[str, Any]) -> list[Any]:
    """A submission's direct replies: ``details.directReplies``, else those of
    ``details.replies`` (every reply of the forum, as ``details=replies`` gives them) that
    answer the submission itself: a comment on a review is no review of the paper."""
    details = note.get("details")
    if not isinstance(details, Mapping):
        return []
    direct = details.get("directReplies")
    if isinstance(direct, list):
        return direct
    every = details.get("replies")
    if not isinstance(every, list):
        return []
    key = note.get("id")
    return [
        reply
        for reply in every
        if isinstance(reply, Mapping) and reply.get("replyto", key) in (key, None)
    ]


def read_replies(replies: Sequence[Any], names: ReplyNames) -> Replies:
    """The scores and decision of a submission's direct replies (API v1 or v2 shapes)."""
    found = Replies()
    meta_decision = ""
    for reply in replies[:_MAX_REPLIES]:
        if not isinstance(reply, Mapping) or not isinstance(reply.get("content"), Mapping):
            continue
        kinds = _kinds(reply)
        said = reply["content"]
        if kinds & names.reviews:
            _read_review(said, found, names)
        elif kinds & names.decisions:
            found.decision = _decision(said) or found.decision
        elif kinds & names.meta_reviews:
            meta_decision = _decision(said) or meta_decision
    found.decision = found.decision or meta_decision
    return found


def _decision(said: Mapping[str, Any]) -> str:
    """The decision a decision or meta review states (the first of ``DECISION_KEYS``), or ""."""
    for key in DECISION_KEYS:
        value = value_of(said, key)
        if isinstance(value, str) and value.strip():
            return _line(value)
    return ""


def _kinds(reply: Mapping[str, Any]) -> set[str]:
    """The last part of each of a reply's invitations (v2 lists them, v1 gives one), and its
    last two (``official/review``: ICLR 2017's, whose last part alone, ``review``, says
    little)."""
    invitations = reply.get("invitations")
    names = invitations if isinstance(invitations, list) else [reply.get("invitation")]
    kinds: set[str] = set()
    for name in names[:_MAX_INVITATIONS]:
        if isinstance(name, str):
            parts = name.rsplit("/", 2)
            kinds.add(parts[-1])
            kinds.add("/".join(parts[-2:]))
    return kinds


def _read_review(said: Mapping[str, Any], found: Replies, names: ReplyNames) -> None:
    """A review's score, and its confidence only beside a score: the mean confidence says how
    sure the reviewers who scored the paper were, and a review without a score (its form had
    none, a placeholder) qualifies none."""
    rating = review_score(said, names.rating_keys)
    if rating is None:
        return
    found.ratings.append(rating)
    confidence = review_confidence(said, names.confidence_keys)
    if confidence is not None:
        found.confidences.append(confidence)


def _line(text: str) -> str:
    return " ".join(text.split())[:100]
