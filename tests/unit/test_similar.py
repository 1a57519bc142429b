"""SimilarityIndex: neighbours, suggested Inbox order and topics, on hand-made and real papers."""

from __future__ import annotations

import hashlib
import json
import random
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from storage.models import Paper, Status
from storage.similar import Neighbour, SimilarityIndex, Suggestion, Topic

Small = tuple[SimilarityIndex, list[Paper], dict[str, str]]
Real = tuple[SimilarityIndex, dict[str, Paper]]

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT.parent / "shared" / "data" / "iclr2025.jsonl"

DIFFUSION = [
    (
        "Faster Sampling for Diffusion Models",
        "We accelerate sampling of denoising diffusion models with an ODE solver that needs "
        "fewer score evaluations while keeping image quality.",
    ),
    (
        "Score-Based Diffusion for Image Generation",
        "Score-based generative models estimate the score of noisy image distributions; we "
        "improve denoising diffusion and its sampling for high-resolution images.",
    ),
    (
        "Guidance in Latent Diffusion",
        "Classifier-free guidance steers latent diffusion models during sampling; we study how "
        "the guidance scale changes denoising and image fidelity.",
    ),
    (
        "Distilling Diffusion Samplers",
        "We distill a multi-step diffusion sampler into a few-step student that matches the "
        "teacher's denoising score and image quality.",
    ),
]
GRAPHS = [
    (
        "Message Passing on Large Graphs",
        "Graph neural networks aggregate node features by message passing; we extend message "
        "passing to graphs with millions of nodes and edges.",
    ),
    (
        "Oversmoothing in Graph Neural Networks",
        "Deep graph neural networks suffer from oversmoothing of node representations; we "
        "analyse message passing layers and add edge dropout.",
    ),
    (
        "Graph Transformers for Node Classification",
        "We combine attention with graph structure for node classification, encoding edges "
        "and node positions in a graph transformer.",
    ),
    (
        "Link Prediction with Graph Embeddings",
        "Node embeddings of the graph predict missing edges; our link predictor uses "
        "neighbourhood message passing.",
    ),
]
RL = [
    (
        "Offline Reinforcement Learning with Conservative Values",
        "Offline reinforcement learning learns a policy from a fixed dataset of trajectories; "
        "conservative value estimates avoid overestimating the reward of unseen actions.",
    ),
    (
        "Exploration Bonuses for Sparse Rewards",
        "Agents in environments with sparse rewards need exploration; a curiosity bonus added "
        "to the reward makes the policy visit new states.",
    ),
    (
        "Policy Gradient with Learned Baselines",
        "Policy gradient estimates have high variance; a learned value baseline reduces the "
        "variance of the reward signal and speeds up the agent.",
    ),
    (
        "Planning Ahead with Learned Dynamics",
        "A learned dynamics simulator lets the agent plan actions ahead; planning in "
        "reinforcement learning improves the sample efficiency of the policy in control "
        "environments.",
    ),
]


def make_paper(title: str, abstract: str, position: int = 0) -> Paper:
    return Paper(
        id=hashlib.sha1(abstract.encode()).hexdigest()[:12],
        title=title,
        abstract=abstract,
        position=position,
    )


def corpus() -> tuple[list[Paper], dict[str, str]]:
    """The twelve hand-made papers, and the group ("diffusion", "graph", "rl") of each id."""
    papers: list[Paper] = []
    group: dict[str, str] = {}
    # Interleaved, so that list order alone never looks like a good answer.
    for i in range(4):
        for name, items in (("graph", GRAPHS), ("rl", RL), ("diffusion", DIFFUSION)):
            paper = make_paper(*items[i], position=len(papers))
            papers.append(paper)
            group[paper.id] = name
    return papers, group


@pytest.fixture(scope="module")
def small() -> Small:
    papers, group = corpus()
    return SimilarityIndex(papers), papers, group


def ids_of(papers: list[Paper], group: dict[str, str], name: str) -> list[str]:
    return [p.id for p in papers if group[p.id] == name]


# --------------------------------------------------------------------------- similar


def test_neighbours_stay_within_their_topic(small: Small) -> None:
    index, papers, group = small
    for paper in papers:
        neighbours = index.similar(paper.id, limit=3)
        assert len(neighbours) == 3, paper.title
        assert [group[n.paper_id] for n in neighbours] == [group[paper.id]] * 3, paper.title


def test_similar_is_best_first_without_the_paper_itself(small: Small) -> None:
    index, papers, _ = small
    for paper in papers:
        neighbours = index.similar(paper.id, limit=20)
        assert all(isinstance(n, Neighbour) for n in neighbours)
        assert paper.id not in {n.paper_id for n in neighbours}
        scores = [n.score for n in neighbours]
        assert scores == sorted(scores, reverse=True)
        assert all(0 < s <= 1 + 1e-6 for s in scores)


def test_shared_terms_explain_the_neighbour(small: Small) -> None:
    index, papers, _ = small
    first = index.similar(papers[2].id, limit=1)[0]  # a diffusion paper
    assert "diffusion" in " ".join(first.shared)
    graph = index.similar(papers[0].id, limit=1)[0]
    assert any("graph" in term or "message passing" in term for term in graph.shared)


def test_similar_respects_the_limit(small: Small) -> None:
    index, papers, _ = small
    assert len(index.similar(papers[0].id, limit=2)) == 2
    assert index.similar(papers[0].id, limit=0) == []


def test_unknown_id_raises_a_clear_key_error(small: Small) -> None:
    index, _, _ = small
    with pytest.raises(KeyError, match="nope"):
        index.similar("nope")


def test_identical_text_is_the_nearest_neighbour() -> None:
    papers, _ = corpus()
    twin = Paper(id="twin", title=papers[0].title, abstract=papers[0].abstract)
    index = SimilarityIndex([*papers, twin])
    best = index.similar("twin", limit=1)[0]
    assert best.paper_id == papers[0].id
    assert best.score == pytest.approx(1.0, abs=1e-5)


# --------------------------------------------------------------------------- terms


def test_plurals_merge_latex_and_stop_words_are_no_terms() -> None:
    papers = [
        make_paper("Graphs and More Graphs", "We propose $\\mathcal{G}$ graphs for the task."),
        make_paper("A Graph", "The graph of a \\textbf{model} is shown in our results."),
    ]
    index = SimilarityIndex(papers)
    terms = index.terms(papers[0].id)
    assert "graph" in terms
    assert not {"graphs", "mathcal", "propose", "we", "the", "task"} & set(terms)
    assert index.similar(papers[0].id)[0].shared == ("graph",)


def test_title_words_weigh_more_than_abstract_words() -> None:
    query = Paper(id="q", title="Tokenizer Merging", abstract="Alpha.")
    in_abstract = Paper(id="b", title="Zeta Eta", abstract="Tokenizer merging: beta gamma epsilon.")
    in_title = Paper(id="a", title="Tokenizer Merging", abstract="Beta gamma epsilon.")
    index = SimilarityIndex([query, in_abstract, in_title])
    first, second = index.similar("q")
    assert (first.paper_id, second.paper_id) == ("a", "b")
    assert first.score > second.score + 0.05


def test_one_rare_word_does_not_outweigh_several_shared_terms() -> None:
    """``papers similar`` of DarkBench (dark patterns of chat models: sycophancy,
    manipulation, brand bias) put a dark-matter paper, which shares only the word ``dark``,
    above the papers on sycophancy and manipulation: ``dark``, rare and in its title and
    twice in its abstract, took the most of its row. Now no term keeps much more than
    ``TERM_CAP`` of a row."""
    query = make_paper(
        "Dark Patterns in Chat Assistants",
        "Dark design patterns steer users of chat assistants: sycophancy, flattery, manipulative "
        "replies, deceptive nudges, brand bias, product placement, retention tricks and hidden "
        "costs. We catalogue dark design patterns in conversations with assistants and measure "
        "how often each company's models use them.",
    )
    one_word = make_paper(
        "Dark Matter from Weak Lensing",
        "Dark matter bends light from distant galaxies; we map it from weak lensing.",
    )
    several = [
        make_paper(
            "When Chat Models Flatter",
            "Sycophancy, flattery and manipulative replies please users and hide the truth.",
        ),
        make_paper(
            "Selling Through Conversation",
            "Brand bias, product placement and retention tricks in replies keep users buying.",
        ),
        make_paper(
            "Nudged by Assistants",
            "Deceptive nudges and hidden costs in conversations with assistants cost users "
            "money; which company's models nudge most?",
        ),
    ]
    others = [make_paper(title, abstract) for title, abstract in DIFFUSION + GRAPHS + RL]
    index = SimilarityIndex([query, one_word, *several, *others])
    order = [n.paper_id for n in index.similar(query.id)]
    assert order.index(one_word.id) > max(order.index(p.id) for p in several), order


def test_punctuation_breaks_bigrams() -> None:
    abstracts = [
        f"A large language model (LLM) answers question {word}. Retrieval helps the language model."
        for word in ("alpha", "beta", "gamma")
    ]
    papers = [make_paper(f"Paper {i}", text) for i, text in enumerate(abstracts)]
    index = SimilarityIndex(papers)
    terms = index.terms(papers[0].id, limit=20)
    assert "language model" in terms
    assert "model llm" not in terms


def test_accents_and_ligatures_fold_to_plain_words() -> None:
    papers = [
        make_paper("Naïve ﬁne-tuning", "Naïve ﬁne-tuning of encoders."),
        make_paper("Naive fine-tuning", "Naive fine-tuning of encoders."),
    ]
    index = SimilarityIndex(papers)
    assert index.similar(papers[0].id)[0].score == pytest.approx(1.0, abs=1e-5)


# --------------------------------------------------------------------------- suggest


def test_suggest_puts_papers_like_the_starred_one_first(small: Small) -> None:
    index, papers, group = small
    diffusion = ids_of(papers, group, "diffusion")
    graphs = ids_of(papers, group, "graph")
    statuses = {diffusion[0]: Status.STARRED, graphs[0]: Status.SKIPPED}
    suggestions = index.suggest(statuses)
    assert all(isinstance(s, Suggestion) for s in suggestions)
    order = [s.paper_id for s in suggestions]
    assert sorted(order) == sorted(p.id for p in papers if p.id not in statuses)
    assert set(order[:3]) == set(diffusion[1:])
    assert set(order[-3:]) == set(graphs[1:])
    assert all(s.because == diffusion[0] for s in suggestions[:3])
    scores = [s.score for s in suggestions]
    assert scores == sorted(scores, reverse=True)
    assert suggestions[0].score > 0 > suggestions[-1].score


def test_read_papers_count_mildly_positive(small: Small) -> None:
    index, papers, group = small
    diffusion = ids_of(papers, group, "diffusion")
    rl = ids_of(papers, group, "rl")
    statuses = {diffusion[0]: Status.STARRED, rl[0]: Status.READ}
    order = [s.paper_id for s in index.suggest(statuses)]
    assert set(order[:3]) == set(diffusion[1:])
    assert set(order[3:6]) == set(rl[1:])


def test_nothing_starred_keeps_list_order_with_zero_scores(small: Small) -> None:
    index, papers, group = small
    graphs = ids_of(papers, group, "graph")
    suggestions = index.suggest({graphs[0]: Status.SKIPPED})
    assert [s.paper_id for s in suggestions] == [p.id for p in papers if p.id != graphs[0]]
    assert {s.score for s in suggestions} == {0.0}
    assert {s.because for s in suggestions} == {None}


def test_suggest_candidates_keep_their_order_on_ties_and_unknown_ids_are_ignored(
    small: Small,
) -> None:
    index, papers, group = small
    diffusion = ids_of(papers, group, "diffusion")
    graphs = ids_of(papers, group, "graph")
    rl = ids_of(papers, group, "rl")
    candidates = [rl[2], "unknown", rl[0], diffusion[1], rl[1]]
    statuses = {diffusion[0]: Status.STARRED, "ghost": Status.STARRED, graphs[0]: "skipped"}
    suggestions = index.suggest(statuses, candidates)
    assert suggestions[0].paper_id == diffusion[1]
    tied = [s for s in suggestions if s.score == suggestions[-1].score]
    if len(tied) == 3:  # the RL papers share nothing with diffusion or graphs
        assert [s.paper_id for s in tied] == [rl[2], rl[0], rl[1]]
    assert "unknown" not in {s.paper_id for s in suggestions}


def test_a_starred_candidate_is_not_its_own_reason(small: Small) -> None:
    index, papers, group = small
    diffusion = ids_of(papers, group, "diffusion")
    statuses = {diffusion[0]: Status.STARRED, diffusion[1]: Status.STARRED}
    suggestions = {s.paper_id: s for s in index.suggest(statuses, candidates=diffusion[:2])}
    assert suggestions[diffusion[0]].because == diffusion[1]
    assert suggestions[diffusion[1]].because == diffusion[0]
    assert suggestions[diffusion[0]].score < 0.99


# --------------------------------------------------------------------------- topics


def test_topics_separate_the_three_groups(small: Small) -> None:
    index, papers, group = small
    topics = index.topics([p.id for p in papers], k=3)
    assert len(topics) == 3
    assert all(isinstance(t, Topic) for t in topics)
    found = {frozenset(t.paper_ids) for t in topics}
    expected = {frozenset(ids_of(papers, group, name)) for name in ("diffusion", "graph", "rl")}
    assert found == expected
    labels = {group[t.paper_ids[0]]: t.label for t in topics}
    assert "diffusion" in labels["diffusion"]
    assert "graph" in labels["graph"]
    assert all(len(t.label.split(" · ")) <= 3 for t in topics)


def test_topics_are_largest_first_and_cover_the_input_once(small: Small) -> None:
    index, papers, group = small
    chosen = [p.id for p in papers if group[p.id] != "rl"] + [ids_of(papers, group, "rl")[0]]
    topics = index.topics([*chosen, "unknown", chosen[0]])
    sizes = [len(t.paper_ids) for t in topics]
    assert sizes == sorted(sizes, reverse=True)
    members = [i for t in topics for i in t.paper_ids]
    assert sorted(members) == sorted(chosen)
    assert 2 <= len(topics) <= 30


def test_topics_default_k_and_small_inputs(small: Small) -> None:
    index, papers, _ = small
    assert index.topics([]) == []
    (single,) = index.topics([papers[0].id])
    assert single.paper_ids == (papers[0].id,)
    assert len(index.topics([p.id for p in papers])) == 2  # round(sqrt(12 / 2))
    assert len(index.topics([p.id for p in papers], k=50)) <= 12


# --------------------------------------------------------------------------- edge cases


def test_everything_is_deterministic() -> None:
    papers, _ = corpus()
    first, second = SimilarityIndex(papers), SimilarityIndex(list(papers))
    ids = [p.id for p in papers]
    statuses = {ids[0]: Status.STARRED, ids[1]: Status.SKIPPED, ids[5]: Status.STARRED}
    for paper_id in ids:
        assert first.similar(paper_id) == second.similar(paper_id)
    assert first.suggest(statuses) == second.suggest(statuses)
    assert first.topics(ids, k=3) == second.topics(ids, k=3)
    assert first.topics(ids, k=3) == first.topics(ids, k=3)


def test_empty_corpus() -> None:
    index = SimilarityIndex([])
    assert len(index) == 0
    assert index.suggest({}) == []
    assert index.suggest({"x": Status.STARRED}, candidates=["x"]) == []
    assert index.topics(["x"]) == []
    with pytest.raises(KeyError):
        index.similar("x")


def test_one_paper() -> None:
    paper = make_paper(*DIFFUSION[0])
    index = SimilarityIndex([paper])
    assert index.similar(paper.id) == []
    assert index.suggest({}) == [Suggestion(paper.id, 0.0, None)]
    assert index.suggest({paper.id: Status.STARRED}, candidates=[paper.id]) == [
        Suggestion(paper.id, 0.0, None)
    ]
    assert index.topics([paper.id]) == [Topic("miscellaneous", (paper.id,), ())]


def test_papers_without_words_have_no_neighbours() -> None:
    empty = Paper(id="empty", title="", abstract="")
    papers = [empty, make_paper("!!!", "the of and"), *corpus()[0][:3]]
    index = SimilarityIndex(papers)
    assert index.similar("empty") == []
    assert "empty" not in {n.paper_id for n in index.similar(papers[2].id, limit=10)}
    topics = index.topics([p.id for p in papers], k=2)
    assert sorted(i for t in topics for i in t.paper_ids) == sorted(p.id for p in papers)


def test_add_extends_and_replaces() -> None:
    papers, _ = corpus()
    index = SimilarityIndex(papers[:6])
    assert len(index) == 6
    index.add(papers[6:])
    assert len(index) == 12
    index.add([papers[0]])
    assert len(index) == 12
    assert papers[11].id in index
    assert index.similar(papers[11].id)[0].paper_id != papers[11].id
    index.add([])
    assert len(index) == 12


def test_storage_similar_does_not_import_textual() -> None:
    code = "import sys, storage.similar; sys.exit('textual' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=False)
    assert done.returncode == 0


# --------------------------------------------------------------------------- any text

RAW_TEXT = st.text(
    alphabet=st.characters(codec="utf-8") | st.sampled_from("ab \x01\x02\x03(),.-"),
    max_size=80,
)
#: Text from a few words, so that papers share terms and bigrams and neighbours exist.
WORDY_TEXT = st.lists(
    st.sampled_from(
        ["diffusion", "Models", "graph", "graphs", "policy", "the", "(LLM)", "naïve", "ﬁne-tuning"]
        + ["$\\mathcal{L}$", "3D", "2024", "x", ".", "\x01", "é", "Ω"]
    ),
    max_size=25,
).map(" ".join)
TEXT = st.one_of(RAW_TEXT, WORDY_TEXT)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.tuples(TEXT, TEXT), min_size=0, max_size=8),
    st.lists(st.sampled_from(list(Status)), min_size=8, max_size=8),
)
def test_any_text_builds_and_answers(texts: list[tuple[str, str]], statuses: list[Status]) -> None:
    papers = [Paper(id=f"p{i}", title=t, abstract=a) for i, (t, a) in enumerate(texts)]
    index = SimilarityIndex(papers)
    assert len(index) == len(papers)
    for paper in papers:
        neighbours = index.similar(paper.id, limit=5)
        assert paper.id not in {n.paper_id for n in neighbours}
        scores = [n.score for n in neighbours]
        assert scores == sorted(scores, reverse=True)
        assert all(0 < s <= 1 + 1e-5 for s in scores)
    mapping = {p.id: statuses[i] for i, p in enumerate(papers)}
    inbox = [p.id for p in papers if mapping[p.id] == Status.INBOX]
    assert sorted(s.paper_id for s in index.suggest(mapping)) == sorted(inbox)
    ids = [p.id for p in papers]
    assert sorted(i for t in index.topics(ids) for i in t.paper_ids) == sorted(ids)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(WORDY_TEXT, WORDY_TEXT), min_size=2, max_size=30))
def test_the_postings_are_the_rows_turned_over(texts: list[tuple[str, str]]) -> None:
    """Each term's papers, ascending, with the weights their rows give it: the postings the
    matrix places a chunk at a time are the rows' transposition, made at once."""
    from storage.similar.matrix import build

    matrix = build([Paper(id=f"p{i}", title=t, abstract=a) for i, (t, a) in enumerate(texts)])
    docs = np.repeat(np.arange(matrix.size), np.diff(matrix.indptr))
    order = np.argsort(matrix.indices, kind="stable")
    per_term = np.bincount(matrix.indices, minlength=len(matrix.terms))
    assert matrix.post_ptr.tolist() == [0, *np.cumsum(per_term).tolist()]
    assert matrix.post_docs.tolist() == docs[order].tolist()
    assert matrix.post_data.tolist() == matrix.data[order].tolist()


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(0, 40), max_size=60),
    st.sets(st.integers(0, 40), max_size=20),
    st.integers(0, 5),
)
def test_a_pair_is_the_bigram_of_its_key(pairs: list[int], bigrams: set[int], first: int) -> None:
    """Each adjacent pair's bigram term (its place among the bigrams' keys, after the
    ``first`` terms), -1 for a pair that is none: as each pair looked up alone finds it."""
    from storage.similar.matrix import _pair_terms, _Words

    keys = np.array(pairs, dtype=np.int64)
    none = np.zeros(0, dtype=np.int64)
    words = _Words(none, none, none, np.arange(len(keys), dtype=np.int64), keys)
    ordered = sorted(bigrams)
    alone = [ordered.index(k) + first if k in bigrams else -1 for k in pairs]
    found = _pair_terms(words, np.array(ordered, dtype=np.int64), first)
    assert found.dtype == np.int64
    assert found.tolist() == alone


# --------------------------------------------------------------------------- the real list

_WORD = re.compile(r"[a-z]{4,}")
_COMMON = frozenset(
    {"with", "from", "that", "this", "their", "learning", "model", "using", "towards"}
    | {"through", "data", "neural", "network", "efficient", "large", "language", "based"}
    | {"beyond", "toward", "via", "into", "what", "when", "your", "more", "without"}
)


def title_words(title: str) -> set[str]:
    return {w.rstrip("s") for w in _WORD.findall(title.lower())} - _COMMON


@pytest.fixture(scope="module")
def real() -> Real:
    if not DATA.is_file():
        pytest.skip(f"real data absent: {DATA} (see ../shared/data/SOURCE.md)")
    papers = []
    with DATA.open(encoding="utf-8") as handle:
        for position, line in enumerate(handle):
            record = json.loads(line)
            papers.append(
                Paper(
                    id=f"r{position}",
                    title=record["title"],
                    abstract=record["abstract"],
                    position=position,
                )
            )
    return SimilarityIndex(papers), {p.id: p for p in papers}


@pytest.mark.parametrize(
    ("title_part", "topic"),
    [
        ("Improved Sampling Algorithms for Lévy-Itô Diffusion Models", "diffusion"),
        ("When Dropout meets Graph Convolutional Networks", "graph"),
        ("Model-based Offline Reinforcement Learning with Lower Expect", "reinforcement|policy|rl"),
    ],
)
def test_real_neighbours_share_the_topic(real: Real, title_part: str, topic: str) -> None:
    index, by_id = real
    paper = next(p for p in by_id.values() if title_part in p.title)
    neighbours = index.similar(paper.id, limit=5)
    assert len(neighbours) == 5
    texts = [f"{by_id[n.paper_id].title} {by_id[n.paper_id].abstract}".lower() for n in neighbours]
    on_topic = [bool(re.search(topic, text)) for text in texts]
    assert on_topic[0], (paper.title, texts[0][:100])
    assert sum(on_topic) >= 4, (paper.title, [t[:80] for t in texts])


def test_real_top_neighbours_share_title_words_far_more_than_chance(real: Real) -> None:
    index, by_id = real
    rng = random.Random(0)
    ids = sorted(by_id)
    sample = rng.sample(ids, 300)
    near = sum(
        bool(
            title_words(by_id[i].title) & title_words(by_id[index.similar(i, 1)[0].paper_id].title)
        )
        for i in sample
    )
    chance = sum(
        bool(title_words(by_id[i].title) & title_words(by_id[rng.choice(ids)].title))
        for i in sample
    )
    assert near / 300 >= 0.5
    assert near >= 3 * chance


def test_real_topics_are_labelled_and_cover_the_list(real: Real) -> None:
    index, by_id = real
    topics = index.topics(list(by_id))
    assert len(topics) == 30
    assert sum(len(t.paper_ids) for t in topics) == len(by_id)
    labels = " ".join(t.label for t in topics)
    for word in ("diffusion", "graph", "reinforcement"):
        assert word in labels


def test_real_shared_terms_are_the_distinctive_ones(real: Real) -> None:
    """The similar papers' "shares:" line listed words such as "resulting", "learning" and
    "data": words that two ICLR papers share by chance. Now the terms that explain the
    likeness: none in more than 15% of the papers, none adding little beside the first."""
    index, by_id = real
    rng = random.Random(1)
    matrix = index.matrix
    df = dict(zip(matrix.terms, matrix.papers_with(np.arange(len(matrix.terms))), strict=True))
    shown: list[str] = []
    for paper_id in rng.sample(sorted(by_id), 300):
        for neighbour in index.similar(paper_id, limit=5):
            shown += neighbour.shared
    weak = {"resulting", "indicating", "designing", "capturing", "learning", "data", "training"}
    assert not weak & set(shown), sorted(weak & set(shown))
    assert all(df[term] <= 0.15 * len(by_id) for term in shown)
    assert len(shown) >= 300 * 5 * 2  # still a few terms a neighbour
