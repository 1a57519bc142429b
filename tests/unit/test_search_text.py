"""The words the index reads: LaTeX through the one converter, Greek letters by their names."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from storage.models import Paper
from storage.paper_words import BREAK, RAW_BYTES
from storage.search import SearchIndex, parse_query, tokenize
from storage.search.text import index_text, query_words, split_words, word_text

#: Characters where cutting words can go wrong: hyphens, the build's own mark, whitespace
#: that ``str.split`` knows and ``bytes.split`` does not, LaTeX, accents, ligatures, camelCase.
_TRICKY = list("ab Z-_\u2010\u2011\x01\t\n\x1c\x1f\xa0$\\{}é ΣτℓﬁCamelCaseİ1 ")


@settings(max_examples=400, deadline=None)
@given(
    st.one_of(st.text(st.sampled_from(_TRICKY), max_size=40), st.text(max_size=60)), st.booleans()
)
def test_a_build_cuts_the_words_each_text_has(text: str, camel_case: bool) -> None:
    """A build cuts many papers' texts at once (``word_text``, a byte table, ``bytes.split``,
    each raw word's parts between its phrase ends): the same words as ``split_words`` of each
    text alone."""
    words, extra = split_words(text, camel_case)
    in_bytes, extra_bytes = word_text(text, camel_case)

    def cut(found: str) -> list[str]:
        data = found.encode("utf-8", "surrogatepass").translate(RAW_BYTES)
        parts = [part for raw in data.split() for part in raw.split(BREAK) if part]
        return [w.decode("utf-8", "surrogatepass") for w in parts]

    assert cut(in_bytes) == words
    assert cut(extra_bytes) == extra


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("$\\tau$-bench", {"tau", "bench", "taubench"}),
        ("τ-bench", {"tau", "bench", "taubench"}),
        ("$\\ell_{2}$-norm", {"l2", "norm", "l2norm"}),
        ('M\\"uller and Sch\\"{o}lkopf', {"muller", "scholkopf"}),
        ("\\textbf{ParaSolver} runs", {"parasolver", "para", "solver", "runs"}),
        ("$\\Sigma$ and $\\varepsilon$", {"sigma", "epsilon"}),
        ("costs $5 and $6", {"costs", "5", "and", "6"}),
    ],
)
def test_latex_is_read_as_shown(text: str, words: set[str]) -> None:
    assert words <= set(tokenize(text, camel_case=True))


def test_queries_read_as_papers_do() -> None:
    assert query_words("τ-bench") == ["tau-bench"]
    assert query_words("$R^2$-Guard") == ["r2-guard"]
    assert parse_query('"σ-zero method"').phrases == ("sigma zero method",)


def test_text_without_latex_is_left_alone() -> None:
    text = "Plain words, no markup at all."
    assert index_text(text) is text


def test_greek_letters_find_their_papers() -> None:
    papers = [
        Paper(id="tau", title="{$\\tau$}-bench: tool agents", abstract="We test agents."),
        Paper(id="sigma", title="$\\sigma$-zero: sparse attacks", abstract="Attacks on models."),
        Paper(id="other", title="A bench of tools", abstract="Agents and models."),
    ]
    index = SearchIndex(papers)
    for query in ("tau-bench", "τ-bench", "$\\tau$-bench", "tau bench"):
        assert index.search(query)[0].paper_id == "tau", query
    assert index.search("σ-zero")[0].paper_id == "sigma"
    assert [h.paper_id for h in index.search('"sigma zero"')] == ["sigma"]
