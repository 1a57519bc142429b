"""The words the index reads: LaTeX through the one converter, Greek letters by their names."""

from __future__ import annotations

import pytest

from storage.models import Paper
from storage.search import SearchIndex, parse_query, tokenize
from storage.search.text import index_text, query_words


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
