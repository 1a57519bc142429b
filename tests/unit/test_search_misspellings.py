"""A misspelling the papers have (``difusion``), against the word they say far more often:
what a query of it means."""

from __future__ import annotations

import hashlib

import pytest

from benchmarks.corpus import load_real_papers
from storage.models import Paper
from storage.search import SearchIndex
from tests.conftest import REAL_LIST


def paper(title: str, abstract: str, authors: tuple[str, ...] = ("Ana Diaz",)) -> Paper:
    return Paper(
        id=hashlib.sha1(f"{title}|{abstract}".encode()).hexdigest()[:12],
        title=title,
        abstract=abstract,
        authors=authors,
        list="ICLR 2025",
        lists=("ICLR 2025",),
    )


def order(index: SearchIndex, query: str) -> list[str]:
    """The titles found, best first."""
    titles = {p.id: p.title for p in index.papers()}
    return [titles[hit.paper_id] for hit in index.search(query, limit=None)]


#: Papers about diffusion, their titles saying it, as a conference list has dozens.
DIFFUSION = [
    paper(
        f"Diffusion Models for Task {n}",
        f"We train a diffusion model for task {n} and sample it with a new solver.",
    )
    for n in range(40)
]
#: The one paper whose abstract misspells the word (the real list has one such).
MISSPELLED = paper(
    "Denoising MRI Volumes Without Clean Targets",
    "We learn a denoiser for difusion MRI from noisy scans alone.",
)
#: Papers that say neither.
OTHER = [paper(f"Graph Learning {n}", "We study message passing on graphs.") for n in range(20)]


@pytest.mark.parametrize("query", ["difusion", "difusion "])
def test_a_misspelling_the_papers_have_means_the_word_they_say(query: str) -> None:
    """ "difusion" ranked first the one paper whose abstract misspells it, its rare
    misspelling weighed as an exact word of high idf and the 40 papers about diffusion as its
    typos (at most 15% of it): a user who mistypes a word means the word. A word the papers
    say far more often (30 times), a letter doubled or two neighbours swapped away, is now
    what the misspelling stands for, as much as the misspelling itself: titles saying
    "Diffusion" come first, the misspelling's paper among the papers about diffusion."""
    index = SearchIndex([MISSPELLED, *OTHER, *DIFFUSION])
    found = order(index, query)
    assert found[:5] == [p.title for p in DIFFUSION[:5]]
    assert MISSPELLED.title in found


def test_a_rare_word_that_is_no_slip_keeps_its_papers_first() -> None:
    """A rare word of the library that is a look-alike of a common one, but no slip of the
    hand (a substitution: "neutron", "neuron"; or an author's name: "Datta", "data"), is still
    what was meant: its papers come first, the look-alikes after."""
    neurons = [paper(f"Neuron Circuits {n}", "We trace each neuron.") for n in range(40)]
    neutron = paper("A Surrogate for Detector Design", "We simulate neutron capture in a detector.")
    datta = paper("Judges Fail on Style", "We study data judges.", ("Ana Diaz", "Rupa Datta"))
    data = [paper(f"Data Selection {n}", "We select data for pretraining.") for n in range(40)]
    index = SearchIndex([*neurons, neutron, datta, *data])
    assert order(index, "neutron")[0] == neutron.title
    assert order(index, "datta")[0] == datta.title


@pytest.mark.skipif(not REAL_LIST.is_file(), reason="the real list is absent")
def test_on_the_real_list_a_misspelling_finds_the_word_meant() -> None:
    """On the 3,703 real papers, "difusion" listed first the one paper whose abstract has the
    word ("Self-Supervised Diffusion MRI Denoising", whose method is "Di-Fusion", joined as a
    hyphenated word is), by 13 to 7: now the papers whose titles say Diffusion, ranked as
    "diffusion" ranks them, that one among them."""
    papers = load_real_papers(REAL_LIST.parent)
    assert papers is not None
    index = SearchIndex(papers)
    hits = index.search("difusion", limit=None)
    misspelled = [h.paper_id for h in hits if "difusion" in h.fields.get("abstract", ())]
    assert len(misspelled) == 1
    found = [h.paper_id for h in hits]
    meant = [h.paper_id for h in index.search("diffusion", limit=10)]
    assert found[:5] == [m for m in meant if m not in misspelled][:5]
    assert misspelled[0] in found
