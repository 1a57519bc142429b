"""Similarity benchmark: neighbours, suggested order and topics, timed and checked for topic.

Run from the repository root::

    python -m benchmarks.similar [--quick]

Figures:

* time: ``SimilarityIndex`` build at 3,703 (the real ICLR 2025 list) and 12,000 papers (the
  real list scaled by recombining its titles and sentences, ``benchmarks.corpus``); ``add`` of
  100 papers at 12,000; ``similar()`` latency (p50 / p95 over 100 papers); ``suggest()`` with 300
  starred and 300 skipped; ``topics()`` of the 11,400-paper Inbox; matrix memory. The budget is
  1 s for the build, ``similar`` and ``suggest`` at 12,000 papers.
* naive approaches in the same run: rapidfuzz ``token_set_ratio`` of one abstract against every
  abstract, and tf-idf cosine in pure Python (dicts) of one paper against every paper.
* topic, on the real list: three papers with their five nearest neighbours; the largest topics;
  how often a paper's nearest neighbour shares a title word with it, or an author, beside a
  random paper and rapidfuzz's nearest (authors are not in the index, so an author in common is
  evidence of topic that the index could not copy from its input); and how well ``suggest()``
  ranks a simulated reader's interests (title keywords), beside list order and beside ranking by
  the nearest starred paper alone.

Times are wall-clock, best and median of a few runs; the load average is printed because these
machines are shared. Exits 0 with a message when the real data is absent.
"""

from __future__ import annotations

import argparse
import gc
import math
import os
import random
import re
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np
from rapidfuzz import fuzz, process

from benchmarks.corpus import DATA_DIR, REAL_LIST, load_real_papers, scaled_corpus
from storage.models import Paper, Status
from storage.similar import SimilarityIndex

BUDGET = 1.0
SCALE = 12_000
STARRED = SKIPPED = 300
T = TypeVar("T")

#: Titles of three papers shown with their neighbours (the third example is a seeded random one).
EXAMPLE_TITLES = (
    "Improved Sampling Algorithms for Lévy-Itô Diffusion Models",
    "Beyond Random Masking: When Dropout meets Graph Convolutional Networks",
)
#: A simulated reader's interests: title keywords of papers they like and dislike.
INTERESTS: dict[str, str] = {
    "diffusion": r"diffusion",
    "graphs": r"graph",
    "reinforcement learning": r"reinforcement|policy|offline rl",
    "language models": r"\bllms?\b|language model",
    "molecules": r"protein|molecul|drug",
    "video": r"video",
    "robustness": r"adversarial|robust",
    "federated": r"federated",
}
SCENARIOS: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = (
    (("diffusion", "reinforcement learning", "molecules"), ("graphs", "language models")),
    (("graphs", "video"), ("diffusion",)),
    (("language models", "federated", "robustness"), ("video", "reinforcement learning")),
    (("diffusion",), ("graphs",)),
)

_WORD = re.compile(r"[a-z][a-z0-9]{3,}")
_TITLE_STOP = frozenset(
    {"with", "from", "that", "this", "their", "learning", "model", "using", "towards"}
    | {"through", "data", "neural", "network", "efficient", "large", "language", "based"}
    | {"beyond", "toward", "into", "what", "when", "your", "more", "without", "via"}
)


def timed(action: Callable[[], T], repeat: int) -> tuple[T, float, float]:
    """The last result of ``action`` and its best and median wall time over ``repeat`` runs."""
    times: list[float] = []
    result: T | None = None
    for _ in range(repeat):
        gc.collect()
        start = time.perf_counter()
        result = action()
        times.append(time.perf_counter() - start)
    assert result is not None
    return result, min(times), statistics.median(times)


def verdict(seconds: float) -> str:
    return "ok" if seconds <= BUDGET else f"OVER the {BUDGET:.0f} s budget"


def title_words(title: str) -> set[str]:
    """Content words of a title (4+ letters, crude plural folding, common words dropped)."""
    return {w.removesuffix("s") for w in _WORD.findall(title.lower())} - _TITLE_STOP


# --------------------------------------------------------------------------- timing


def timing(papers: list[Paper], scaled: list[Paper], repeat: int) -> SimilarityIndex:
    """Print build, add, similar, suggest and topics times; return the 12,000-paper index."""
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} CPUs")
    print(f"times: best / median of {repeat} runs")
    real_index, best, median = timed(lambda: SimilarityIndex(papers), repeat)
    print(
        f"build {len(papers):>6,} papers  {best * 1000:7.0f} / {median * 1000:4.0f} ms   "
        f"{real_index.vocabulary_size:,} terms, {real_index.memory_bytes() / 1e6:.1f} MB"
    )
    index, best, median = timed(lambda: SimilarityIndex(scaled), repeat)
    print(
        f"build {len(scaled):>6,} papers  {best * 1000:7.0f} / {median * 1000:4.0f} ms   "
        f"{index.vocabulary_size:,} terms, {index.memory_bytes() / 1e6:.1f} MB   {verdict(median)}"
    )

    def add_hundred() -> SimilarityIndex:
        grown = SimilarityIndex(scaled[:-100])
        start = time.perf_counter()
        grown.add(scaled[-100:])
        add_times.append(time.perf_counter() - start)
        return grown

    add_times: list[float] = []
    for _ in range(max(1, repeat - 1)):
        add_hundred()
    print(
        f"add 100 to {len(scaled) - 100:,}       {min(add_times) * 1000:7.0f} / "
        f"{statistics.median(add_times) * 1000:4.0f} ms   (rebuilds the matrix)"
    )

    rng = random.Random(0)
    ids = [p.id for p in scaled]
    sample = rng.sample(ids, 100)
    durations = []
    for paper_id in sample:
        start = time.perf_counter()
        index.similar(paper_id, limit=10)
        durations.append(time.perf_counter() - start)
    ms = np.asarray(durations) * 1000
    p50, p95 = float(np.percentile(ms, 50)), float(np.percentile(ms, 95))
    print(
        f"similar() at {len(scaled):,}        p50 {p50:6.2f} ms, p95 {p95:6.2f} ms, "
        f"max {ms.max():6.2f} ms (100 papers, limit 10)   {verdict(p95 / 1000)}"
    )

    chosen = rng.sample(ids, STARRED + SKIPPED)
    statuses = {i: Status.STARRED for i in chosen[:STARRED]}
    statuses.update({i: Status.SKIPPED for i in chosen[STARRED:]})
    suggestions, best, median = timed(lambda: index.suggest(statuses), repeat)
    print(
        f"suggest() at {len(scaled):,}        {best * 1000:7.0f} / {median * 1000:4.0f} ms   "
        f"{STARRED} starred, {SKIPPED} skipped, {len(suggestions):,} ranked   {verdict(median)}"
    )
    inbox = [i for i in ids if i not in statuses]
    topics, best, median = timed(lambda: index.topics(inbox), repeat)
    print(
        f"topics() of {len(inbox):,}         {best * 1000:7.0f} / {median * 1000:4.0f} ms   "
        f"{len(topics)} topics, largest {len(topics[0].paper_ids)}, smallest "
        f"{len(topics[-1].paper_ids)} (synthetic papers mix sentences of random real papers, so "
        "these topics are blurred; see the real list below)"
    )
    return index


def naive(scaled: list[Paper], index: SimilarityIndex, repeat: int) -> None:
    """Time naive neighbour searches for one paper against the ``similar()`` p50."""
    query = scaled[17]
    abstracts = [p.abstract for p in scaled]
    _, fuzzy, _ = timed(
        lambda: process.extract(query.abstract, abstracts, scorer=fuzz.token_set_ratio, limit=11),
        max(1, repeat - 1),
    )
    vectors = pure_python_vectors(scaled)
    target = vectors[17]

    def cosine_all() -> list[tuple[float, int]]:
        scores = []
        for j, vector in enumerate(vectors):
            if len(vector) < len(target):
                dot = sum(w * target.get(t, 0.0) for t, w in vector.items())
            else:
                dot = sum(w * vector.get(t, 0.0) for t, w in target.items())
            scores.append((dot, j))
        return sorted(scores, reverse=True)[:11]

    _, pure, _ = timed(cosine_all, max(1, repeat - 1))
    _, ours, _ = timed(lambda: index.similar(query.id, limit=10), 5)
    print(f"naive, one paper against {len(scaled):,} (best time):")
    for name, seconds in (
        ("rapidfuzz token_set_ratio on abstracts", fuzzy),
        ("pure-Python tf-idf cosine (dicts)", pure),
    ):
        print(f"  {name:<38} {seconds * 1000:8.1f} ms  ({seconds / ours:,.0f}x ours)")
    print(f"  SimilarityIndex.similar                {ours * 1000:8.2f} ms")
    print(
        f"  suggest() by the pure-Python way: {STARRED} such passes, about {pure * STARRED:,.0f} s"
    )


def pure_python_vectors(papers: Sequence[Paper]) -> list[dict[str, float]]:
    """Unit-length tf-idf dicts of title + abstract words, in plain Python."""
    counts = [Counter(_WORD.findall(f"{p.title} {p.abstract}".lower())) for p in papers]
    df: Counter[str] = Counter()
    for count in counts:
        df.update(count.keys())
    n = len(papers)
    vectors = []
    for count in counts:
        vector = {t: (1 + math.log(c)) * math.log((1 + n) / (1 + df[t])) for t, c in count.items()}
        norm = math.sqrt(sum(w * w for w in vector.values())) or 1.0
        vectors.append({t: w / norm for t, w in vector.items()})
    return vectors


# --------------------------------------------------------------------------- topic


def examples(papers: list[Paper], index: SimilarityIndex) -> None:
    """Three papers of the real list with their five nearest neighbours."""
    by_id = {p.id: p for p in papers}
    chosen = [next(p for p in papers if p.title == title) for title in EXAMPLE_TITLES]
    chosen.append(random.Random(3).choice(papers))
    print("three papers of the real list and their five nearest neighbours (score, shared terms):")
    for paper in chosen:
        print(f"\n  {paper.title}")
        for neighbour in index.similar(paper.id, limit=5):
            title = by_id[neighbour.paper_id].title
            print(f"    {neighbour.score:.2f}  {title[:88]}")
            print(f"          [{', '.join(neighbour.shared)}]")


def topic_examples(papers: list[Paper], index: SimilarityIndex, repeat: int) -> None:
    """The topics of the whole real list, as if it were the Inbox."""
    topics, best, _ = timed(lambda: index.topics([p.id for p in papers]), repeat)
    by_id = {p.id: p for p in papers}
    print(
        f"\ntopics() of the real list ({len(papers):,} papers): {len(topics)} topics in "
        f"{best * 1000:.0f} ms, largest first (size, label, the paper closest to the centre):"
    )
    for topic in topics:
        print(
            f"  {len(topic.paper_ids):4}  {topic.label:<52} {by_id[topic.paper_ids[0]].title[:50]}"
        )


def coherence(papers: list[Paper], index: SimilarityIndex, quick: bool) -> None:
    """How often the nearest neighbour shares a title word or an author, beside baselines."""
    rng = random.Random(1)
    sample = papers if not quick else rng.sample(papers, 500)
    words = {p.id: title_words(p.title) for p in papers}
    authors = {p.id: set(p.authors) for p in papers}

    def shares(pairs: list[tuple[str, str]]) -> tuple[float, float]:
        title = sum(bool(words[a] & words[b]) for a, b in pairs) / len(pairs)
        author = sum(bool(authors[a] & authors[b]) for a, b in pairs) / len(pairs)
        return title, author

    nearest: list[tuple[str, str]] = []
    top5: list[tuple[str, str]] = []
    for paper in sample:
        neighbours = index.similar(paper.id, limit=5)
        if neighbours:
            nearest.append((paper.id, neighbours[0].paper_id))
            top5.extend((paper.id, n.paper_id) for n in neighbours)
    randoms = [(p.id, rng.choice(papers).id) for p in sample]
    randoms = [(a, b) for a, b in randoms if a != b]
    fuzzy_sample = rng.sample(sample, 40 if quick else 120)
    abstracts = [p.abstract for p in papers]
    fuzzy = []
    for paper in fuzzy_sample:
        hits = process.extract(paper.abstract, abstracts, scorer=fuzz.token_set_ratio, limit=2)
        other = next(papers[i] for _, _, i in hits if papers[i].id != paper.id)
        fuzzy.append((paper.id, other.id))
    print(
        "\ntopical coherence on the real list: the share of pairs (paper, neighbour) whose titles "
        "share a content word\n(4+ letters, not 'learning', 'model', 'neural', 'language' ...) "
        "and whose author lists share a name"
    )
    rows = (
        (f"nearest neighbour, {len(nearest):,} papers", shares(nearest)),
        ("5 nearest neighbours", shares(top5)),
        (f"rapidfuzz token_set_ratio nearest, {len(fuzzy)}", shares(fuzzy)),
        ("a random paper", shares(randoms)),
    )
    for name, (title, author) in rows:
        print(f"  {name:<42} title word {title:6.1%}   author {author:6.1%}")
    print(
        "  (titles are in the index, weighted 2x, so the title figure flatters it; authors are "
        "not, so the author figure cannot)"
    )


def reader_simulation(papers: list[Paper], index: SimilarityIndex, quick: bool) -> None:
    """How well ``suggest()`` brings a simulated reader's interests to the top of the Inbox."""
    titles = [p.title.lower() for p in papers]
    members = {
        name: {i for i, t in enumerate(titles) if re.search(pattern, t)}
        for name, pattern in INTERESTS.items()
    }
    rows = index._matrix.rows  # benchmark-only peek, for the nearest-only comparison
    seeds = 2 if quick else 6
    found: dict[str, list[float]] = {"suggest": [], "nearest": [], "list": [], "base": []}
    against: dict[str, list[float]] = {"suggest": [], "nearest": [], "list": []}
    for likes, dislikes in SCENARIOS:
        liked = set().union(*(members[t] for t in likes))
        disliked = set().union(*(members[t] for t in dislikes)) - liked
        for seed in range(seeds):
            rng = random.Random(seed)
            starred = [i for t in likes for i in rng.sample(sorted(members[t]), 10)]
            skipped = [i for t in dislikes for i in rng.sample(sorted(members[t] - liked), 10)]
            neutral = [i for i in range(len(papers)) if i not in liked and i not in disliked]
            skipped += rng.sample(neutral, 30)
            statuses = {papers[i].id: Status.STARRED for i in starred}
            statuses.update({papers[i].id: Status.SKIPPED for i in skipped})
            order = [rows[s.paper_id] for s in index.suggest(statuses)]
            inbox = np.array([i for i in range(len(papers)) if papers[i].id not in statuses])
            nearest, _ = index._nearest(np.array(sorted(set(starred))), inbox)
            by_nearest = inbox[np.argsort(-nearest, kind="stable")].tolist()
            for name, ranking in (("suggest", order), ("nearest", by_nearest), ("list", inbox)):
                top = list(ranking[:100])
                found[name].append(sum(i in liked for i in top) / 100)
                against[name].append(sum(i in disliked for i in top) / 100)
            found["base"].append(sum(i in liked for i in inbox) / len(inbox))
    print(
        f"\nsimulated reader ({len(SCENARIOS)} scenarios x {seeds} seeds): stars 10 papers of each "
        "liked interest (title keywords),\nskips 10 of each disliked one and 30 others; share of "
        "the first 100 suggestions that are liked / disliked:"
    )
    for name, label in (
        ("suggest", "suggest() (centroid + nearest, minus skipped)"),
        ("nearest", "nearest starred paper only"),
        ("list", "list order"),
    ):
        print(
            f"  {label:<46} liked {np.mean(found[name]):6.1%}   disliked "
            f"{np.mean(against[name]):6.1%}"
        )
    print(f"  (liked papers are {np.mean(found['base']):.1%} of the Inbox)")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer runs and smaller samples")
    args = parser.parse_args(argv)
    papers = load_real_papers()
    if papers is None:
        path = DATA_DIR / REAL_LIST
        print(f"skipped: {path} not found (the real data lives outside the repository)")
        return 0
    repeat = 2 if args.quick else 5
    scaled = scaled_corpus(SCALE)
    index = timing(papers, scaled, repeat)
    naive(scaled, index, repeat)
    del index
    real = SimilarityIndex(papers)
    print()
    examples(papers, real)
    topic_examples(papers, real, 1 if args.quick else 3)
    coherence(papers, real, args.quick)
    reader_simulation(papers, real, args.quick)
    return 0


if __name__ == "__main__":
    sys.exit(main())
