"""OpenReview API v1: what a venue it serves (``PAPERS_OPENREVIEW_API_V1``: ICLR up to 2023,
NeurIPS and ICML up to 2022) needs beyond the fetch both APIs share (``openreview.py``).

- Its submissions are notes by ``invitation``: ``…/-/Blind_Submission``, else ICLR 2017's
  ``…/-/submission``, else ``…/-/Submission`` (``SUBMISSIONS``; the first that has a note,
  asked for one: ``queries``), with their direct replies; with ``--all`` also
  ``…/-/Withdrawn_Submission`` and ``…/-/Desk_Rejected_Submission`` (``OTHERS``), each of
  which is then the paper's venue status.
- One query brings every submission, accepted or not: its decision is read from the
  ``Decision`` reply (or the ``Meta_Review``'s recommendation, or, without either, the note's
  ``venue``: ``_accepted``), a withdrawn or desk-rejected venue id saying the last word over
  it (``_gone``); without ``--all`` only the accepted are kept (``fate``).
- Pages by ``limit`` and ``offset``; one without notes, or whose notes say no decision yet, is
  not cached (``keeps``): no accepted paper is on it, and one may be by the afternoon.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

from storage.fetch.openreview_notes import Api, Query, first_notes, holds_notes
from storage.fetch.records import value_of
from storage.fetch.replies import direct_replies, read_replies
from storage.fetch.request import FetchRequest, host_of
from storage.fetch.web import Web
from storage.sources.decisions import (
    ACCEPTED,
    DESK_REJECTED,
    NOT_ACCEPTED,
    WITHDRAWN,
    says_accepted,
)
from storage.sources.status_words import accepted_status, decision_status, status_word

#: The invitations a venue of v1 gives its submissions under, the first that has notes read:
#: blind ones; the usual; ICLR 2017's, in lower case (``ICLR.cc/2017/conference/-/submission``).
SUBMISSIONS = ("Blind_Submission", "Submission", "submission")
#: The invitations of the submissions ``--all`` adds, and the venue status each gives.
OTHERS = (("Withdrawn_Submission", WITHDRAWN), ("Desk_Rejected_Submission", DESK_REJECTED))


def queries(venue_id: str, request: FetchRequest, api: Api, web: Web) -> Iterator[Query]:
    """The queries of a venue of v1, in the order the list shows their papers."""
    keep = not request.all_submissions
    invitation = {"invitation": f"{venue_id}/-/{SUBMISSIONS[1]}"}
    for name in (SUBMISSIONS[0], SUBMISSIONS[2]):
        asked = {"invitation": f"{venue_id}/-/{name}"}
        probe = web.get_json(f"{api.base}/notes", {**asked, "limit": 1}, keep=holds_notes)
        # (one not understood, or counting notes and sending none, is said so)
        if first_notes(probe, host_of(api.base), "submissions")[0]:
            invitation = asked
            break
    yield Query(invitation, "submissions", accepted_only=keep)
    if request.all_submissions:
        for suffix, status in OTHERS:
            yield Query({"invitation": f"{venue_id}/-/{suffix}"}, status.lower(), status)


def fate(content: Mapping[str, Any], decision: str, query: Query) -> tuple[str | None, str] | None:
    """What a submission of the query's came to: its venue status (None: its own, read from
    its venue) and the decision to keep with it ("" for none); None for one the query does not
    keep (not accepted, without ``--all``). A decision to reject makes the status Rejected;
    an accepted paper whose venue names no presentation (NeurIPS 2022's "NeurIPS 2022
    Accept") is the one its decision names, else Accepted (``accepted_status``); one whose
    venue names one is the one its decision names, else its venue's."""
    accepted = _accepted(content, decision, query.params["invitation"].partition("/-/")[0])
    if query.accepted_only and not accepted:
        return None
    status = _gone(content) or None
    venue = value_of(content, "venue")
    said = status_word(venue) if isinstance(venue, str) else ""
    if accepted and status is None and (not said or said in NOT_ACCEPTED):
        return accepted_status(decision), ""  # (a venue still "Submitted to …" says none)
    if not decision or status is not None:
        return status, ""
    # the decision in the words every path gives it ("Accept" beside a venue's "Poster" is a
    # Poster, "Accept (Findings)" Findings); words of no decision known are kept as written
    word = decision_status(decision)
    if accepted:
        return (word if word and word not in NOT_ACCEPTED and word != ACCEPTED else said), decision
    return word or None, decision


def keeps(query: Query) -> Callable[[Any], bool]:
    """Whether a page of the query's is worth keeping in the cache: ``holds_notes``, and for
    its submissions (one query, the accepted told from their decisions) also a decision said
    on the page: before the decisions no page of them holds an accepted paper, and a fetch
    that afternoon must read them again."""
    if query.status is not None:
        return holds_notes
    venue_id = query.params["invitation"].partition("/-/")[0]

    def decided(note: Any) -> bool:
        content = note.get("content") if isinstance(note, Mapping) else None
        return isinstance(content, Mapping) and bool(
            _gone(content)
            or read_replies(direct_replies(note), query.names).decision
            or _accepted(content, "", venue_id)
        )

    return lambda data: holds_notes(data) and any(decided(n) for n in data["notes"])


def _gone(content: Mapping[str, Any]) -> str:
    """The status of a note whose venue id says it was withdrawn or desk rejected (what it
    ended as, whatever a decision posted before said), else ""."""
    venueid = value_of(content, "venueid")
    if not isinstance(venueid, str):
        return ""
    last = venueid.rstrip("/").rsplit("/", 1)[-1].casefold()
    return next((status for suffix, status in OTHERS if suffix.casefold() == last), "")


def _accepted(content: Mapping[str, Any], decision: str, venue_id: str) -> bool:
    """Whether a submission to a venue of v1 was accepted: as its decision says; without one,
    as its venue does. Once decisions are out, v1 gives every submission, rejected or not,
    the venue's id as ``venueid``; its ``venue`` then names the track of an accepted paper
    ("ICLR 2023 poster") and is "Submitted to ICLR 2023" for the others."""
    if _gone(content):
        return False
    if decision:  # ("accept" in it took "Not accepted", "Cannot accept" as acceptances)
        return says_accepted(decision)
    if value_of(content, "venueid") != venue_id:
        return False
    venue = value_of(content, "venue")
    if not isinstance(venue, str) or not venue.strip():
        return True
    folded = venue.casefold()
    return not folded.startswith("submitted to") and not any(
        word in folded for word in ("reject", "withdraw", "desk")
    )
