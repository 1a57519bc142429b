"""A topic word (``gan``) that is also a surname of the library's authors: what a query of it
means."""

from __future__ import annotations

import pytest

from benchmarks.corpus import load_real_papers
from storage.search import SearchIndex
from tests.conftest import REAL_LIST
from tests.unit.test_search_misspellings import order, paper

#: Papers that say neither.
OTHER = [paper(f"Graph Learning {n}", "We study message passing on graphs.") for n in range(20)]


#: Papers by authors named Gan and Ganguli, about other things.
BY_GAN = [
    paper("Scaling Agents with Reward Models", "We scale agents.", ("Zhe Gan", "Li Wei")),
    paper("KV-Cache Management for Inference", "We manage caches.", ("Shaoduo Gan",)),
    paper("Hand Motion Generation from Music", "We generate motion.", ("Qijun Gan",)),
]
#: Papers that say GAN in an abstract, and one in its title.
SAY_GAN = [
    paper(
        "One-Step Text-to-Image Synthesis by Self-Cooperative Diffusion GANs",
        "We combine diffusion models with GANs for one-step generation.",
    ),
    paper("A Neural Audio Codec", "FlowDec is an alternative to GAN-dominated neural codecs."),
    paper("Image Tokenization with Quantization", "Our tokenizer is trained with a GAN loss."),
]


@pytest.mark.parametrize("query", ["gan", "gan "])
def test_a_topic_word_finds_the_papers_that_say_it_before_those_by_its_surname(
    query: str,
) -> None:
    """ "gan" listed, after the one title saying GANs, the papers of authors named Gan (an
    author's name weighs twice an abstract's word) before the abstracts saying GAN: in a
    library whose papers say the word (in titles, abstracts) at least half as often as its
    authors are named so, it is a topic, and ``author:gan`` is there for the people. A name
    alone now weighs half a word of an abstract: the papers saying GAN first, then those by
    Gan."""
    index = SearchIndex([*BY_GAN, *OTHER, *SAY_GAN])
    found = order(index, query)
    assert found[0] == SAY_GAN[0].title
    assert set(found[:3]) == {p.title for p in SAY_GAN}
    assert set(found[3:]) == {p.title for p in BY_GAN}


def test_a_surname_the_papers_hardly_say_still_finds_its_authors_first() -> None:
    """ "bengio": the papers by Bengio before the one abstract that names him, as before (his
    name is no topic of the library: 1 paper says it, 3 are his)."""
    by = [
        paper(f"Amortized Samplers {n}", "We train samplers.", ("Yoshua Bengio",)) for n in range(3)
    ]
    cites = paper("Deep Learning Histories", "Following Bengio, we revisit deep networks.")
    index = SearchIndex([cites, *OTHER, *by])
    found = order(index, "bengio")
    assert set(found[:3]) == {p.title for p in by}
    assert found[3] == cites.title


@pytest.mark.skipif(not REAL_LIST.is_file(), reason="the real list is absent")
def test_on_the_real_list_gan_finds_the_papers_saying_it() -> None:
    """On the 3,703 real papers, "gan" first lists the 21 papers saying GAN or GANs (20 papers
    by authors named Gan came before 20 of them)."""
    papers = load_real_papers(REAL_LIST.parent)
    assert papers is not None
    index = SearchIndex(papers)
    titles = {p.id: p.title for p in papers}
    for hit in index.search("gan", limit=15):
        assert hit.fields.keys() - {"authors"}, titles[hit.paper_id]
