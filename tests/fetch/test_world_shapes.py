"""``papers fetch`` against OpenReview answers in shapes the real venues write, as openreview-py's
own tests and the papers that cite them show: a venue whose group names its reviews' score
field (``review_rating``), a workshop whose name holds a status word inside another word."""

from __future__ import annotations

import json

from tests.fetch import shapes
from tests.fetch.conftest import papers


def _listed(env: dict[str, str]) -> list[dict]:
    done = papers(env, "list", "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_score_field_the_venue_group_names_gives_the_ratings(services, env) -> None:
    """openreview-py's venue workflows let a venue name its reviews' score and confidence
    fields, and write the names in the venue's group (``review_rating``, ``review_confidence``;
    its test venue ``ABCD.cc/2025/Conference`` calls them just so, its reviews then holding
    ``{"review_rating": {"value": 5}, "review_confidence": {"value": 3}}``): those reviews'
    scores are the ratings, as a review's ``rating`` is elsewhere."""
    found, _ = services
    venue_id = "ABCD.cc/2025/Conference"
    made = shapes.made_up(1, seed=71, fate="")
    made[0].ratings, made[0].confidences = [5, 2], [3, 4]
    venue = shapes.v2_venue(made, venue_id)
    venue.group["content"]["review_rating"] = {"value": "review_rating"}
    venue.group["content"]["review_confidence"] = {"value": "review_confidence"}
    for reply in next(iter(venue.replies.values())):
        said = reply["content"]
        if "rating" in said:
            said["review_rating"], said["review_confidence"] = (
                said.pop("rating"),
                said.pop("confidence"),
            )
    found.v2[venue_id] = venue
    done = papers(env, "fetch", f"openreview:{venue_id}", "--reviews")
    assert done.returncode == 0, done.stderr
    [paper] = _listed(env)
    assert paper["extra"]["ratings"] == "5, 2", paper["extra"]
    assert paper["extra"]["rating"] == 3.5 and paper["extra"]["confidence"] == 3.5


def test_a_status_word_inside_another_word_is_none(services, env) -> None:
    """A workshop's venue is often its name alone ("NeurIPS 2024 Workshop on Behavioral
    Machine Learning", "NeurIPS 2022 Temporal Graph Learning Workshop", as the papers citing
    their OpenReview BibTeX write it): "oral" inside "Behavioral" or "Temporal" is no oral
    presentation. A word that is one still says it: ``… Oral``, ICML 2025's
    ``spotlightposter``, ICLR 2026's ``ConditionalPoster``, and ICML 2026's posters, which
    its venue calls "ICML 2026 regular"."""
    found, _ = services
    venue_id = "NeurIPS.cc/2024/Workshop/BehavioralML"
    said = {
        "NeurIPS 2024 Workshop on Behavioral Machine Learning": "Workshop",
        "NeurIPS 2024 Temporal Graph Learning Workshop Poster": "Poster",
        "NeurIPS 2024 Workshop on Behavioral Machine Learning Oral": "Oral",
        "ICML 2025 spotlightposter": "Spotlight",
        "ICLR 2026 ConditionalPoster": "Poster",
        "ICML 2026 regular": "Poster",
    }
    venue = shapes.v2_venue(shapes.made_up(len(said), seed=72, fate=""), venue_id)
    for note, venue_text in zip(venue.notes, said, strict=True):
        note["content"]["venue"] = {"value": venue_text}
    found.v2[venue_id] = venue
    done = papers(env, "fetch", f"openreview:{venue_id}")
    assert done.returncode == 0, done.stderr
    by_abstract = {p["abstract"]: p["venue_status"] for p in _listed(env)}
    statuses = [by_abstract[note["content"]["abstract"]["value"]] for note in venue.notes]
    assert statuses == list(said.values()), statuses
    done = papers(env, "search", "status:oral", "--json")
    assert done.returncode == 0, done.stderr
    assert len(json.loads(done.stdout)) == 1
