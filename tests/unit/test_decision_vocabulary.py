"""The venue statuses of papers not accepted, in one vocabulary (``storage.sources.decisions``):
the fetches' ranking of sources and a refresh's papers that left the accepted list read the
same words every reader and fetch writes."""

from __future__ import annotations

from storage.fetch import openreview, openreview_v1, paperlists
from storage.importing import authority, departed
from storage.sources import decisions


def test_the_ranking_reads_the_vocabularys_words_not_its_own() -> None:
    assert authority.NOT_ACCEPTED is decisions.NOT_ACCEPTED
    # the words it spelt itself before: no behaviour change
    before = {
        "Rejected", "Withdrawn", "Desk rejected", "Workshop", "Under review", "Decision pending",
    }  # fmt: skip
    # and "Submitted", Paper Copilot's as every reader's (``tests/fetch/test_submitted_word.py``)
    assert before | {"Submitted"} == decisions.NOT_ACCEPTED


def test_every_word_a_fetch_gives_a_paper_not_accepted_is_in_it() -> None:
    given = {
        decisions.decided_against(status)
        for status in ("Reject", "Withdraw", "Desk Reject", "Active", "Under_Review")
    }
    given |= {others.status for others in openreview.OTHER_SUBMISSIONS}
    given |= {status for _, status in openreview_v1.OTHERS}
    given |= {status for _, status in paperlists._NOT_ACCEPTED}
    given |= openreview.UNDECIDED
    assert given <= decisions.NOT_ACCEPTED
    assert not any(departed.accepted(word) for word in decisions.NOT_ACCEPTED)
