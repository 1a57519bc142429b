"""A review's overall score under the names real venues give it (``storage.fetch.scores``):
where a venue's reviews named it other than ``rating``, ``recommendation`` or one of three
``overall_*`` names, its papers came with no ratings. The names here are those of saved
OpenReview data (MIDL 2021 and 2022, UAI 2022, LoG 2022, CLeaR 2022, AutoML-Conf 2022 on API
v1; ICML 2025 and ACL Rolling Review on v2), each beside the fields that score one side of a
paper, which are no overall score."""

from __future__ import annotations

import json
from typing import Any

from storage.fetch.scores import review_confidence, review_score, score_rank
from tests.fetch import shapes
from tests.fetch.conftest import papers
from tests.fetch.services import Services, Venue


def _extras(env: dict[str, str]) -> dict[str, dict[str, Any]]:
    done = papers(env, "list", "--json")
    assert done.returncode == 0, done.stderr
    return {p["title"]: p.get("extra") or {} for p in json.loads(done.stdout)}


def _review_v1(venue: Venue, note: dict[str, Any], forms: list[dict[str, Any]]) -> None:
    """The note's official reviews (API v1) in place of its others, one of each form."""
    pid, number = note["id"], note["number"]
    replies = [r for r in venue.replies[pid] if not r["invitation"].endswith("Official_Review")]
    for i, form in enumerate(forms):
        replies.append(
            {
                "id": shapes.note_id(f"{pid}-own-{i}"),
                "invitation": f"{venue.group['id']}/Paper{number}/-/Official_Review",
                "forum": pid,
                "replyto": pid,
                "content": {"title": "Review", "review": "Fine.", **form},
            }
        )
    venue.replies[pid] = replies


def test_older_venues_scores_under_their_own_names_are_read(
    services: tuple[Services, str], env
) -> None:
    """API v1: MIDL 2022's reviews say ``preliminary_rating`` and, after the rebuttal,
    ``final_rating_after_the_rebuttal`` (the final one is read; a review without it gives
    its preliminary one), beside a ``recommendation`` in words and a justification that starts
    with a number; MIDL 2021's ``final_rating``; UAI 2022's ``Q6 Overall score`` beside its
    other numbered questions and ``Q8 Confidence in your score``; LoG 2022's ``Overall Score``
    and ``Confidence``; CLeaR 2022's ``Overall score``; AutoML-Conf 2022's ``review_rating``
    and ``review_confidence``; a review of ``score``; one of ``evaluation``."""
    found, _ = services
    midl22 = "MIDL.io/2022/Conference"
    made = shapes.made_up(7, seed=311, fate="")
    venue = shapes.v1_venue(made, midl22)
    forms: list[list[dict[str, Any]]] = [
        [  # MIDL 2022
            {
                "preliminary_rating": "2: Weak reject",
                "final_rating_after_the_rebuttal": "4: Strong accept",
                "justification_of_the_final_rating": "3 of my concerns were answered.",
                "recommendation": "Poster",
                "confidence": "4: The reviewer is confident but not absolutely certain",
            },
            {"preliminary_rating": "3: Weak accept", "confidence": "3: fairly confident"},
        ],
        [{"final_rating": "5: Strong accept", "confidence": "5: absolutely certain"}],  # MIDL 2021
        [  # UAI 2022
            {
                "Q2 Technical quality": "9: excellent",
                "Q5 Clarity": "1: poor",
                "Q6 Overall score": "7: Accept",
                "Q8 Confidence in your score": "4: confident",
            }
        ],
        [{"Overall Score": 6, "Confidence": 2, "Soundness": 1}],  # LoG 2022
        [{"Overall score": "3: weak accept", "confidence": 4}],  # CLeaR 2022
        [{"review_rating": "8: accept", "review_confidence": "2: willing to defend"}],  # AutoML
        [{"score": 6, "confidence": 3}, {"evaluation": "2: reject", "confidence": 5}],
    ]
    for note, reviews in zip(venue.notes, forms, strict=True):
        _review_v1(venue, note, reviews)
    found.v1[midl22] = venue
    done = papers(env, "fetch", f"openreview:{midl22}", "--reviews")
    assert done.returncode == 0, done.stderr
    extras = _extras(env)
    got = [(extras[m.title].get("ratings"), extras[m.title].get("confidence")) for m in made]
    assert got == [
        ("4, 3", 3.5),
        ("5", 5.0),
        ("7", 4.0),
        ("6", 2.0),
        ("3", 4.0),
        ("8", 2.0),
        ("6, 2", 4.0),
    ], got


def test_newer_venues_overall_scores_beside_their_side_scores_are_read(
    services: tuple[Services, str], env
) -> None:
    """API v2, values as ``{"value": …}``: ICML 2025's ``overall_recommendation`` and ARR's
    ``overall_assessment`` ("3.5 = Borderline Conference") are read beside ``soundness``,
    ``presentation``, ``contribution`` and ``excitement``, which are not; a review whose
    scores are all of one side of the paper, and a TMLR-like review of none, give no rating
    (the paper has none); a final rating beside the first one is read over it."""
    found, _ = services
    icml25 = "ICML.cc/2025/Conference"
    made = shapes.made_up(4, seed=312, fate="")
    venue = shapes.v2_venue(made, icml25)
    forms: list[list[dict[str, Any]]] = [
        [{"overall_recommendation": 4, "soundness": 2, "presentation": 1, "confidence": 3}],
        [
            {
                "overall_assessment": "3.5 = Borderline Conference",
                "soundness": "4 = Strong",
                "excitement": "2 = Potentially Interesting",
                "confidence": "4 = Quite sure",
            }
        ],
        [
            {"soundness": 3, "presentation": 3, "contribution": 3, "confidence": 4},
            {"claims_and_evidence": "Yes.", "audience": "Yes."},
        ],
        [{"rating": 3, "final_rating": 6, "confidence": 4}],
    ]
    for note, reviews in zip(venue.notes, forms, strict=True):
        pid, number = note["id"], note["number"]
        replies = [
            r for r in venue.replies[pid] if not r["invitations"][0].endswith("Official_Review")
        ]
        for i, form in enumerate(reviews):
            replies.append(
                {
                    "id": shapes.note_id(f"{pid}-own-{i}"),
                    "forum": pid,
                    "replyto": pid,
                    "invitations": [f"{icml25}/Submission{number}/-/Official_Review"],
                    "content": {k: {"value": v} for k, v in form.items()},
                }
            )
        venue.replies[pid] = replies
    found.v2[icml25] = venue
    done = papers(env, "fetch", f"openreview:{icml25}", "--reviews")
    assert done.returncode == 0, done.stderr
    extras = _extras(env)
    got = [(extras[m.title].get("ratings"), extras[m.title].get("confidence")) for m in made]
    assert got == [("4", 3.0), ("3.5", 4.0), (None, None), ("6", 4.0)], got


def test_a_confidence_named_after_the_rating_is_no_rating() -> None:
    """A form's "rating after the rebuttal" is the final score, and the confidence in it is
    none: it was read as the review's rating."""
    assert score_rank("rating_after_the_rebuttal_confidence") is None
    review = {"rating_after_the_rebuttal_confidence": 2}
    assert review_score(review) is None
    review = {"rating_after_the_rebuttal_confidence": 2, "rating_after_the_rebuttal": "7: good"}
    assert review_score(review) == 7
    assert review_confidence({"confidence": 4, **review}) == 4


def test_a_review_s_long_field_names_are_not_kept_after_it() -> None:
    """The names a review's fields are ranked by were kept whole by the ranking's caches: a
    server's names of 100 KB, 300 of them, held 30 MB once the reviews were gone (4096 names
    of a megabyte, 4 GB)."""
    import gc
    import tracemalloc

    tracemalloc.start()
    try:
        for n in range(3):
            review = {f"{n}-{i}-" + "x" * 100_000: i for i in range(100)}
            assert (review_score(review), review_confidence(review)) == (None, None)
            del review
        gc.collect()
        kept, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert kept < 3_000_000, kept
