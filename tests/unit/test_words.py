"""Counts in sentences: the number with thousands separators, the noun in the right number."""

from __future__ import annotations

import pytest

from storage.text.words import count, plural, shortened


@pytest.mark.parametrize(
    ("n", "noun", "said"),
    [
        (0, "paper", "0 papers"),
        (1, "paper", "1 paper"),
        (2, "paper", "2 papers"),
        (3703, "paper", "3,703 papers"),
        (1_234_567, "link", "1,234,567 links"),
        (1, "starred paper", "1 starred paper"),
        (3711, "starred paper", "3,711 starred papers"),
        (2, "record error", "2 record errors"),
        (6, "more record error", "6 more record errors"),
        (2, "saved search", "2 saved searches"),
        (2, "match", "2 matches"),
        (2, "status", "2 statuses"),
        (2, "entry", "2 entries"),
        (2, "library", "2 libraries"),
        (2, "query", "2 queries"),
        (2, "day", "2 days"),
        (2, "key", "2 keys"),
        (2, "box", "2 boxes"),
        (-1, "paper", "-1 papers"),
    ],
)
def test_count(n: int, noun: str, said: str) -> None:
    assert count(n, noun) == said


def test_plural_leaves_the_number_to_the_caller() -> None:
    assert plural(1, "decision") == "decision"
    assert plural(5, "decision") == "decisions"
    assert plural(1, "list") + " " + plural(2, "list") == "list lists"


@pytest.mark.parametrize(
    ("text", "limit", "expected"),
    [
        ("fits as it is", 13, "fits as it is"),
        ("hello world again", 12, "hello world…"),  # the cut falls on a space
        ("hello world again", 11, "hello…"),  # it falls in "world": the word goes
        ("hello, world again", 8, "hello…"),  # no comma before the ellipsis
        ("x" * 20, 10, "x" * 9 + "…"),  # one word longer than the limit: cut through
    ],
)
def test_shortened_cuts_at_a_word_with_an_ellipsis(text: str, limit: int, expected: str) -> None:
    assert shortened(text, limit) == expected
    assert len(shortened(text, limit)) <= limit
