"""Words a line's end broke at a hyphen (``storage.text.line_breaks``): the paper pane and the
search index read them alike."""

from __future__ import annotations

import pytest

from storage.search.text import tokenize
from storage.text.line_breaks import joined_at_hyphens, shown_whole

#: The kinds of such breaks in the real ICLR 2025 list (89 before a lower-case letter, 3 before
#: a capital, 1 before a digit), and spaces or a CR around the line's end.
BROKEN = (
    "Models gained at-\ntention; a Computer-\nAided design on Llama3-\n70B-base and on "
    "Llama3.1-70B-\nInstruct; large- \r\nscale data, no-\t\nregret and single\u2010\nGPU runs."
)


def test_a_word_a_line_end_broke_is_shown_whole_its_hyphen_kept() -> None:
    """``Computer-⏎Aided`` and ``Llama3-⏎70B`` (4 of the 93 breaks of the real list) were
    shown ``Computer- Aided``, ``Llama3- 70B``: only a break before a lower-case letter was
    joined. The hyphen is kept whatever follows."""
    shown = shown_whole(BROKEN)
    for word in ("at-tention", "Computer-Aided", "Llama3-70B-base", "Llama3.1-70B-Instruct"):
        assert word in shown, word
    for word in ("large-scale", "no-regret", "single\u2010GPU"):
        assert word in shown, word
    assert "- " not in shown and "\u2010 " not in shown


def test_the_search_reads_the_words_the_pane_shows() -> None:
    """The index read ``Computer-⏎Aided`` as ``computeraided`` while the pane showed
    ``Computer- Aided``, two words, and it left ``large- ⏎scale`` (a space, then CR LF)
    two words the pane showed whole: the shown text and the source now give the same words."""
    assert tokenize(shown_whole(BROKEN)) == tokenize(BROKEN)
    words = set(tokenize(BROKEN))
    assert {"attention", "computeraided", "llama370bbase", "largescale", "noregret"} <= words


@pytest.mark.parametrize(
    "text",
    [
        "A gap -\nthen a dash",  # a dash after a space: no word broken
        "a line ends in a hyphen-\n\nA new paragraph",  # a paragraph's end
        "values-\n(see below)",  # no word goes on
        "snake_-\ncase",  # an underscore is no letter
        "no line's end - at all",
    ],
)
def test_what_is_no_broken_word_stays(text: str) -> None:
    assert joined_at_hyphens(text) == text
