"""The presentation or decision a venue's words name: ``ICLR 2025 Oral`` → ``Oral``,
``Accept (Talk)`` → ``Oral``, ``ICLR 2025 Conference Desk Rejected Submission`` → ``Desk
rejected`` (``venue_status``), read the same by every reader and fetch."""

from __future__ import annotations

import re

from storage.sources.decisions import ACCEPTED, NOT_ACCEPTED, decided_against

#: (a decision against the paper is read first: ``decided_against``)
_VENUE_WORDS = ("oral", "spotlight", "poster", "workshop", "submitted")
#: Venues' own words for a presentation: ICLR 2020's "Accept (Talk)" for its orals; ICLR
#: 2023's "Accept: notable-top-5%" (its venue "ICLR 2023 notable top 5%") for its orals and
#: "notable-top-25%" for its spotlights; ICML 2026's posters, its venue "ICML 2026 regular"
#: (ICML's and its year's last word only: a list's status "Regular", a "Regular Paper" track or
#: "Regularization" names no poster).
_OWN_WORDS = (
    ("accept (talk)", "Oral"),
    ("notable top 5%", "Oral"),
    ("notable top 25%", "Spotlight"),
)
_REGULAR = re.compile(r"(?<![^\W\d_])icml (?:19|20)\d\d regular$")


#: A status word where a word begins, or a capital after a small letter does (``ICML 2025
#: spotlightposter``, ICLR 2026's ``ConditionalPoster``): the "oral" of a workshop "on
#: Behavioral Machine Learning" or on "Temporal Graph Learning" is none.
_WORD_AT = {
    w: re.compile(rf"(?:(?<![^\W\d_])|(?-i:(?<=[a-z])(?=[A-Z]))){w}", re.IGNORECASE)
    for w in _VENUE_WORDS
}


def _named(text: str) -> str:
    """The first of ``_VENUE_WORDS`` that begins a word of ``text`` (``_WORD_AT``), or ""."""
    low = text.casefold()
    return next((w for w in _VENUE_WORDS if w in low and _WORD_AT[w].search(text)), "")


def status_word(text: str) -> str:
    """The presentation a venue names (``ICLR 2025 Oral`` → ``Oral``), or the decision against
    the paper it does (``ICLR 2025 Conference Desk Rejected Submission`` → ``Desk rejected``),
    or ""."""
    return decided_against(text) or _named(text).capitalize() or _own_word(text.casefold())


def _own_word(low: str) -> str:
    """The presentation a venue's own words name (``_OWN_WORDS``), or ""."""
    spaced = " ".join(low.replace("-", " ").split())
    if _REGULAR.search(spaced):
        return "Poster"
    return next((status for words, status in _OWN_WORDS if words in spaced), "")


def venue_status(text: str) -> str:
    """``Accept (Oral)``, ``ICLR 2025 oral`` → ``Oral``; a decision against the paper in the
    words every reader and fetch gives it (``Withdraw`` → ``Withdrawn``, ``Desk Reject`` →
    ``Desk rejected``: ``storage.sources.decisions``); other statuses are kept as written."""
    low = text.casefold()
    if word := decided_against(text):
        return word
    if word := _named(text):
        return word.capitalize()
    return _own_word(low) or text[:40]


def accepted_status(decision: str) -> str:
    """The venue status of a paper the venue accepted, whose venue names no presentation: the
    one its decision names (``Accept (Oral)`` → ``Oral``), else ``Accepted`` (a decision of
    ``Accept``, none read, one of no known words)."""
    word = status_word(decision)
    return word if word and word not in NOT_ACCEPTED else ACCEPTED
