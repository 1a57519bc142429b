"""A venue's decision against a paper (or none yet), in one vocabulary whatever it came from.

Paper Copilot's lists say ``Reject``, ``Withdraw``, ``Desk Reject`` and ``Active``;
OpenReview's venue ids ``…/Rejected_Submission``, ``…/Withdrawn_Submission``,
``…/Desk_Rejected_Submission`` and ``…/Submission``. Every reader and fetch names them as
OpenReview's fetch does (``storage.fetch.openreview``): Rejected, Withdrawn, Desk rejected,
Under review. So ``status:withdrawn`` finds a paper however it came, ``papers stats`` counts
it under one name, and a list imported from a file and fetched again says the same decision.
A library imported before keeps its stored words (a venue status is data, synced as such):
the search index and the statistics read them through ``decided_against`` too.

Pure standard library and total: every function takes any string, in linear time.
"""

from __future__ import annotations

import re
from typing import Final

__all__ = [
    "ACCEPTED", "DECISION_PENDING", "DESK_REJECTED", "NOT_ACCEPTED", "REJECTED", "SUBMITTED",
    "UNDER_REVIEW", "WITHDRAWN", "WORKSHOP", "decided_against", "in_one_word", "says_accepted",
    "says_no_decision",
]  # fmt: skip

#: An accepted paper whose source names no presentation (Oral, Poster…): OpenReview's note
#: of the venue's accepted papers that names no venue, or only the venue (COLM's ``COLM``,
#: TMLR's ``Accepted by TMLR``, NeurIPS 2022's ``NeurIPS 2022 Accept``).
ACCEPTED: Final = "Accepted"
REJECTED: Final = "Rejected"
WITHDRAWN: Final = "Withdrawn"
DESK_REJECTED: Final = "Desk rejected"
UNDER_REVIEW: Final = "Under review"
#: A journal's submission reviewed and awaiting its decision (OpenReview's ``Decision_Pending``).
DECISION_PENDING: Final = "Decision pending"
#: ICLR 2018's "Invite to Workshop Track": no acceptance to the conference.
WORKSHOP: Final = "Workshop"
#: A venue's "Submitted to ICLR 2024": sent there, and no more. No "Under review": OpenReview
#: leaves it on a paper it rejected (v1's notes, its BibTeX), and Paper Copilot's tools read
#: it as a rejection (papercopilot/paperbot ``settings/nips.json``); what says a paper is
#: still reviewed (Paper Copilot's "Active", a venue id ``…/Submission``) is UNDER_REVIEW.
SUBMITTED: Final = "Submitted"
#: The venue statuses every fetch gives a paper not accepted (or not yet): the decisions
#: against it, and those before one. What the fetches' ranking (``storage.importing.authority``)
#: and a refresh's papers that left the accepted list (``storage.importing.departed``) read.
NOT_ACCEPTED: Final = frozenset(
    {REJECTED, WITHDRAWN, DESK_REJECTED, WORKSHOP, UNDER_REVIEW, DECISION_PENDING, SUBMITTED}
)
#: Whole statuses that say the source does not know the decision, for or against: Paper
#: Copilot's "Unknown" (papercopilot/paperbot ``settings/nips.json``, beside Poster and
#: Reject), and its like. Such a paper is no accepted one, nor one decided against: its status
#: is kept as written.
_NO_DECISION: Final = frozenset({"unknown", "undecided", "tbd", "n/a"})

#: Where a word begins: not after a letter (``_`` and ``-`` are between words, as in
#: ``Desk_Rejected_Submission``), or a capital after a small letter (``ConditionalReject``).
_AT: Final = r"(?:(?<![^\W\d_])|(?-i:(?<=[a-z])(?=[A-Z])))"
#: The statuses of each decision, first match wins: a desk rejection is no plain one. "Active"
#: (Paper Copilot's word for a submission under review) only as the whole status: an
#: "Interactive" or "Active learning" track is none.
_DECISIONS: Final = (
    (re.compile(rf"{_AT}desk[\W_]*reject", re.IGNORECASE), DESK_REJECTED),
    (re.compile(rf"{_AT}reject", re.IGNORECASE), REJECTED),
    (re.compile(rf"{_AT}withdr[ae]w", re.IGNORECASE), WITHDRAWN),
    (re.compile(rf"{_AT}under[\W_]*review", re.IGNORECASE), UNDER_REVIEW),
    (re.compile(r"\A\s*active\s*\Z", re.IGNORECASE), UNDER_REVIEW),
)
#: What each of ``_DECISIONS`` holds, in small letters: a status with none is read by no
#: pattern (asked of every record of an import: five searches each were 0.2 s of 100,000).
_PARTS: Final = ("reject", "withdr", "review", "active")
#: Longer than any status says a decision in: a decision is read from the start of one.
_MAX_CHARS: Final = 200
#: An acceptance, as a word of its own: "Accept", "Accepted", "Conditional Accept", TMLR's
#: "Accept with minor revision", EMNLP 2023's "Accept-Findings" (not "Acceptance rate").
_ACCEPTS: Final = re.compile(rf"{_AT}accept(?:ed)?(?![^\W\d_])", re.IGNORECASE)
#: Words that say the paper is not accepted: "Not accepted", "Not yet accepted", "Non-accepted",
#: "Never accepted", "Wasn't accepted", "Cannot accept" (an acceptance they were read as before).
_NOT_ACCEPTED: Final = re.compile(
    r"(?:\b(?:not|non|never|cannot)|n['’]t)(?:[\W_]+(?:yet|been|be|being|to|was|is|an?))*[\W_]*accept",
    re.IGNORECASE,
)


def decided_against(status: str) -> str:
    """The decision a venue status says against a paper, or that there is none yet, in the
    common vocabulary (``Withdraw`` → ``Withdrawn``, ``Desk Reject`` → ``Desk rejected``,
    ``Active`` → ``Under review``); "" for any other status (``Oral``, ``Poster``, "")."""
    text = status[:_MAX_CHARS]
    low = text.lower()
    # most: "Poster", "ICLR 2025 Oral" (beyond ASCII the patterns' case-blind letters are
    # more than ``lower`` gives: ``ı`` is an ``i`` to them)
    if low.isascii() and not any(part in low for part in _PARTS):
        return ""
    return next((word for pattern, word in _DECISIONS if pattern.search(text)), "")


def says_accepted(decision: str) -> bool:
    """Whether a decision's words accept the paper (``_ACCEPTS``), whatever else they say of
    it: not one against it (``decided_against``), nor one that says "not accepted"."""
    text = decision[:_MAX_CHARS]
    if "accept" not in text.lower() or decided_against(text):
        return False
    return _ACCEPTS.search(text) is not None and _NOT_ACCEPTED.search(text) is None


def in_one_word(status: str) -> str:
    """A stored venue status as the common vocabulary names it: a decision against the paper
    in its word (``decided_against``), any other status as stored."""
    return decided_against(status) or status


def says_no_decision(status: str) -> bool:
    """Whether a venue status says its source does not know the paper's decision
    (``Unknown``): not accepted, not decided against (``_NO_DECISION``)."""
    return " ".join(status[:_MAX_CHARS].split()).casefold() in _NO_DECISION
