"""The presentation or decision a venue's words name: ``ICLR 2025 Oral`` → ``Oral``,
``Accept (Talk)`` → ``Oral``, ``ICLR 2025 Conference Desk Rejected Submission`` → ``Desk
rejected`` (``venue_status``), read the same by every reader and fetch.

A track the venue accepts a paper to is kept as a presentation is: ACL Rolling Review's venues
accept to their main conference or to Findings, and say so in the note's venue (EMNLP 2023's
``EMNLP 2023 Findings``, ``EMNLP 2023 Main``) or in the decision (``Accept-Findings``, ACL
2022's ``2 - Accept to findings``, ``Accept (Main)``): each is ``Findings`` or ``Main``, an
accepted paper's status as ``Oral`` is (``status:accepted`` finds it)."""

from __future__ import annotations

import re

from storage.sources.decisions import ACCEPTED, NOT_ACCEPTED, decided_against, says_accepted

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
    or the track it accepts the paper to (``Accept (Findings)`` → ``Findings``), or ""."""
    return (
        decided_against(text)
        or _named(text).capitalize()
        or _own_word(text.casefold())
        or _track(text[:_MAX_CHARS])
    )


#: The longest status a track is read from (a decision, a note's venue).
_MAX_CHARS = 120
#: A decision naming the track it accepts to: in brackets (``Accept (Findings)``), after a
#: dash or a colon (EMNLP 2023's ``Accept-Findings``), after "to" (ACL 2022's ``1 - Accept to
#: main conference``, ``2 - Accept to findings``); the number a form put before it is none of it.
_ACCEPT_TO = re.compile(
    r"\A\s*(?:\d+\s*[-–:.)]\s*)?accept(?:ed)?\s*"
    r"(?:\((?P<bracket>[^()]*)\)|[-–:]\s*(?P<after>.*?)|\s(?:to|in|into)\s+(?P<to>.*?))\s*\Z",
    re.IGNORECASE,
)
#: A note's venue naming the track after its year: ``EMNLP 2023 Findings``, ``EMNLP 2023 Main``.
_VENUE_TRACK = re.compile(
    r"(?<![^\W\d_])(?:19|20)\d\d\s+(?P<track>findings|main)(?:\s+(?:track|conference))?\s*\Z",
    re.IGNORECASE,
)
#: What says how a paper is accepted, not where: TMLR's "Accept with minor revision", "Accept
#: (conditional)", "Accept as is", "Accept pending shepherding".
_CONDITIONS = frozenset(
    {"with", "without", "pending", "after", "subject", "if", "as", "is", "conditional"}
    | {"conditionally", "minor", "major", "revision", "revisions", "shepherding"}
    | {"not", "no", "but"}  # "Accepted (not presented)"
)
#: A year in what follows an acceptance: the venue it names (``Accepted to NeurIPS 2024``,
#: ``Accept (ICLR 2024)``), no track of it.
_YEAR = re.compile(r"(?<!\d)(?:19|20)\d\d(?!\d)")
#: Words around a track's name that are none of it (``the main conference`` is ``Main``).
_AROUND = frozenset({"the", "track", "conference", "paper", "papers"})


def _track(text: str) -> str:
    """The track a decision accepts to (``_ACCEPT_TO``) or a note's venue names after its year
    (``_VENUE_TRACK``), its first letter capitalised and ``_AROUND`` left out; "" for none,
    or for words that say how the paper is accepted (``_CONDITIONS``)."""
    low = text.casefold()
    if "accept" in low:
        said = _ACCEPT_TO.match(text)
        named = said and (said["bracket"] or said["after"] or said["to"]) or ""
    elif "findings" in low or "main" in low:  # (most venues name neither: no search)
        found = _VENUE_TRACK.search(text)
        named = found["track"] if found else ""
    else:
        return ""
    words = [w for w in named.replace("_", " ").split() if w.casefold() not in _AROUND]
    if not words or len(words) > 4 or words[0].casefold() in _CONDITIONS:
        return ""
    track = " ".join(words)
    if len(track) > 40 or not any(c.isalpha() for c in track) or _YEAR.search(track):
        return ""
    return track[0].upper() + track[1:]


def _own_word(low: str) -> str:
    """The presentation a venue's own words name (``_OWN_WORDS``), or ""."""
    spaced = " ".join(low.replace("-", " ").split())
    if _REGULAR.search(spaced):
        return "Poster"
    return next((status for words, status in _OWN_WORDS if words in spaced), "")


def venue_status(text: str) -> str:
    """``Accept (Oral)``, ``ICLR 2025 oral`` → ``Oral``; a decision against the paper in the
    words every reader and fetch gives it (``Withdraw`` → ``Withdrawn``, ``Desk Reject`` →
    ``Desk rejected``: ``storage.sources.decisions``); a track (``Accept (Findings)`` →
    ``Findings``); an acceptance that names none of these ``Accepted`` (``Accept``,
    ``Conditional Accept``), as a fetch names it; other statuses are kept as written."""
    return decision_status(text) or text[:40]


def accepted_status(decision: str) -> str:
    """The venue status of a paper the venue accepted, whose venue names no presentation: the
    one its decision names (``Accept (Oral)`` → ``Oral``), else ``Accepted`` (a decision of
    ``Accept``, none read, one of no known words)."""
    word = status_word(decision)
    return word if word and word not in NOT_ACCEPTED else ACCEPTED


def decision_status(decision: str) -> str:
    """The venue status a decision's words give, whichever API, reply or field they came
    from: the decision against the paper, or of no acceptance (ICLR 2018's "Invite to Workshop
    Track": ``Workshop``), the presentation or track it accepts to, ``Accepted`` for an
    acceptance that names none (``Accept``, ``Conditional Accept``); "" for words that say
    none of these."""
    return status_word(decision) or (ACCEPTED if says_accepted(decision) else "")
