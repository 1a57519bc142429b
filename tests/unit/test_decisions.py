"""``decided_against`` skips its patterns for an ASCII status holding none of their words
(asked of every record of an import): what it answers is what the patterns alone answer."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from storage.sources import decisions
from storage.sources.decisions import decided_against

_WORDS = ["Reject", "desk_", "WITHDREW", "under review", "Active", "Poster", "ı", "K", " ", "-"]


def _by_patterns(status: str) -> str:
    text = status[: decisions._MAX_CHARS]
    return next((word for pattern, word in decisions._DECISIONS if pattern.search(text)), "")


@given(st.lists(st.sampled_from(_WORDS) | st.text(max_size=6), max_size=8).map("".join))
def test_the_shortcut_answers_as_the_patterns_do(status: str) -> None:
    assert decided_against(status) == _by_patterns(status)


def test_what_the_shortcut_must_not_skip() -> None:
    assert decided_against("Withdraw") == "Withdrawn"
    assert decided_against("Under revıew") == "Under review"  # a dotless i, beyond ASCII
    assert decided_against("ICLR 2025 Poster") == ""
