"""Search benchmark: index build, as-you-type latency and relevance, against naive rapidfuzz.

Run from the repository root::

    python -m benchmarks.search [--quick]

Figures: build time and index memory at 3,703 / 12,000 / 100,000 papers (the real ICLR 2025
list, scaled by recombining its titles and sentences); latency of every prefix of 30 realistic
queries, typed one key at a time, at 12,000 and 100,000 papers, for the best 50 and for every
match (``limit=None``, as the app asks), beside rapidfuzz ``WRatio`` over title + abstract on a
sample of the same prefixes; MRR and top-5 on a seeded set of half-remembered queries over the
real list, beside naive rapidfuzz baselines; and what two multi-word queries list on the real
list (the papers with every word), beside a plain count of the papers holding the words.
"""

from __future__ import annotations

import argparse
import gc
import re
import sys
import time
import tracemalloc
from collections.abc import Callable, Sequence
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np
from rapidfuzz import fuzz, process, utils

from benchmarks.corpus import (
    EvalQuery,
    load_real_papers,
    relevance_queries,
    scaled_corpus,
)
from benchmarks.timing import Latency
from storage.models import Paper, Status
from storage.search import SearchIndex

#: What people type, one key at a time: title words, method names, typos, qualifiers.
TYPED_QUERIES: tuple[str, ...] = (
    "difusion samplr",
    "parasolver",
    "graph curvature spectral",
    "orw-cfm-w2",
    "gpt-4o reasoning benchmark",
    "mixture of experts routing",
    "in-context learning transformers theory",
    "reward model overoptimization",
    "protein language model",
    "vision language action",
    "hallucination multimodal llm",
    "low rank adaptation lora",
    "sparse autoencoders interpretability",
    "flow matching",
    "knowledge distillation",
    "tabular foundation model",
    "retreival augmented generation",
    "scaling laws",
    "offline reinforcment learning",
    "time series forecasting",
    "author:bengio diffusion",
    "is:starred graph",
    "status:oral has:code",
    "-diffusion video generation",
    '"large language models" safety',
    "molecule generation equivariant",
    "watermark",
    "mamba state space",
    "speculative decoding",
    "neural operator pde",
)
SIZES = (3_703, 12_000, 100_000)


def prefixes(query: str) -> list[str]:
    """Every prefix of a query, as typed one key at a time."""
    return [query[:i] for i in range(1, len(query) + 1)]


def random_statuses(papers: Sequence[Paper], seed: int = 0) -> dict[str, Status]:
    """A triage state for one paper in five, as after some hours of triage."""
    rng = np.random.default_rng(seed)
    choices = [Status.READ, Status.SKIPPED, Status.STARRED]
    return {p.id: choices[int(rng.integers(3))] for p in papers if rng.random() < 0.2}


def time_typing(
    index: SearchIndex,
    queries: Sequence[str],
    statuses: dict[str, Status],
    limit: int | None = 50,
) -> tuple[Latency, Latency]:
    """Wall-clock and CPU latency of every keystroke of each query (caches cleared per query).

    CPU time is shown beside wall-clock time because a busy machine (other processes on the
    same cores) adds waiting to the wall clock that the search itself does not cause.
    """
    wall: list[float] = []
    cpu: list[float] = []
    for query in queries:
        index.clear_caches()
        for text in prefixes(query):
            start, start_cpu = time.perf_counter(), time.process_time()
            index.search(text, limit=limit, statuses=statuses)
            cpu.append(time.process_time() - start_cpu)
            wall.append(time.perf_counter() - start)
    return Latency.of(wall), Latency.of(cpu)


def time_naive(papers: Sequence[Paper], texts: Sequence[str]) -> Latency:
    """Latency of rapidfuzz ``WRatio`` over title + abstract, as a naive app would search."""
    choices = [f"{p.title} {p.abstract}" for p in papers]
    durations = []
    for text in texts:
        start = time.perf_counter()
        process.extract(text, choices, scorer=fuzz.WRatio, limit=20)
        durations.append(time.perf_counter() - start)
    return Latency.of(durations)


def build(papers: Sequence[Paper], repeat: int) -> tuple[SearchIndex, float, float]:
    """The index and its best build time over ``repeat`` builds: wall clock and CPU."""
    best = best_cpu = float("inf")
    index = SearchIndex(())
    for _ in range(repeat):
        gc.collect()
        start, start_cpu = time.perf_counter(), time.process_time()
        index = SearchIndex(papers)
        best = min(best, time.perf_counter() - start)
        best_cpu = min(best_cpu, time.process_time() - start_cpu)
    return index, best, best_cpu


def traced_memory(papers: Sequence[Paper]) -> int:
    """Bytes the index holds after its build, as tracemalloc counts them."""
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    index = SearchIndex(papers)
    gc.collect()
    held = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    del index
    return held


def time_add(papers: Sequence[Paper], count: int) -> tuple[float, float]:
    """Seconds to add ``count`` new papers and to re-index ``count`` changed ones."""
    index = SearchIndex(papers[: len(papers) - count])
    start = time.perf_counter()
    index.add(papers[len(papers) - count :])
    added = time.perf_counter() - start
    changed = [
        Paper(id=p.id, title=p.title + " revised", abstract=p.abstract, authors=p.authors)
        for p in papers[:count]
    ]
    start = time.perf_counter()
    index.add(changed)
    replaced = time.perf_counter() - start
    return added, replaced


# --------------------------------------------------------------------------- relevance


def reciprocal_ranks(ranks: Sequence[int]) -> tuple[float, float, float]:
    """MRR, top-1 and top-5 shares of 1-based ranks (0 = not found)."""
    rr = [1.0 / r if r else 0.0 for r in ranks]
    top1 = sum(1 for r in ranks if r == 1) / len(ranks)
    top5 = sum(1 for r in ranks if 0 < r <= 5) / len(ranks)
    return sum(rr) / len(rr), top1, top5


def index_ranks(index: SearchIndex, queries: Sequence[EvalQuery]) -> list[int]:
    """Rank of each query's target among the index's first 100 hits (0 when absent)."""
    ranks = []
    for query in queries:
        hits = [h.paper_id for h in index.search(query.text, limit=100)]
        ranks.append(hits.index(query.target) + 1 if query.target in hits else 0)
    return ranks


def scorer_ranks(
    papers: Sequence[Paper],
    queries: Sequence[EvalQuery],
    field: Callable[[Paper], str],
    scorer: Callable[..., float],
) -> list[int]:
    """Ranks of the targets under a rapidfuzz scorer, ties in list order (as ``extract``)."""
    choices = [field(p) for p in papers]
    position = {p.id: i for i, p in enumerate(papers)}
    matrix = process.cdist(
        [q.text for q in queries],
        choices,
        scorer=scorer,
        processor=utils.default_process,
        workers=-1,
        dtype=np.float32,
    )
    ranks = []
    for row, query in zip(matrix, queries, strict=True):
        at = position[query.target]
        target = row[at]
        ranks.append(int((row > target).sum() + (row[:at] == target).sum()) + 1)
    return ranks


def baselines(
    papers: Sequence[Paper], queries: Sequence[EvalQuery], quick: bool
) -> list[tuple[str, list[EvalQuery], list[int]]]:
    """Naive rapidfuzz baselines: the WRatio-over-everything app, and title-only scorers."""
    sample = list(queries[::6]) if quick else list(queries[::2])
    title = lambda p: p.title  # noqa: E731
    runs = [
        (
            "naive: WRatio(title + abstract)",
            sample,
            lambda p: f"{p.title} {p.abstract}",
            fuzz.WRatio,
        ),
        ("naive: WRatio(title)", list(queries), title, fuzz.WRatio),
        ("naive: token_set_ratio(title)", list(queries), title, fuzz.token_set_ratio),
        (
            "naive: partial_token_set_ratio(title)",
            list(queries),
            title,
            fuzz.partial_token_set_ratio,
        ),
        ("naive: token_sort_ratio(title)", list(queries), title, fuzz.token_sort_ratio),
    ]
    return [(name, qs, scorer_ranks(papers, qs, field, scorer)) for name, qs, field, scorer in runs]


# --------------------------------------------------------------------------- the set

#: Queries whose result is a set to act on, and for each the words (any of the forms given)
#: that a plain check wants in a paper's title, abstract or keywords.
SET_QUERIES: tuple[tuple[str, tuple[tuple[str, ...], ...]], ...] = (
    ("olmoe mixture of experts", (("olmoe",), ("mixture",), ("experts",))),
    ("graph neural network", (("graph", "graphs"), ("neural",), ("network", "networks"))),
)


def plain_matches(papers: Sequence[Paper], wanted: Sequence[Sequence[str]]) -> set[str]:
    """Ids of the papers whose text has one form of each wanted word, read as plain words."""
    found = set()
    for paper in papers:
        text = " ".join((paper.title, paper.abstract, " ".join(paper.keywords))).lower()
        words = set(re.findall(r"[a-z0-9]+", text))
        if all(words.intersection(forms) for forms in wanted):
            found.add(paper.id)
    return found


def print_sets(index: SearchIndex, papers: Sequence[Paper]) -> None:
    """What each of ``SET_QUERIES`` lists, beside the plain check."""
    for query, wanted in SET_QUERIES:
        ranking = index.rank(query, limit=None)
        plain = plain_matches(papers, wanted)
        listed = set(ranking.ids)
        first = index.paper(ranking.ids[0]) if ranking.ids else None
        print(
            f"{query!r}: {len(listed):,} papers (plain check: {len(plain):,}; both: "
            f"{len(listed & plain):,}){f'; {ranking.partial_note()}' if ranking.partial else ''}"
            f"; first: {first.title[:60] if first else '-'}"
        )


# --------------------------------------------------------------------------- report


def main(argv: Sequence[str] | None = None) -> int:
    """Print the benchmark tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller samples, about a minute")
    args = parser.parse_args(argv)
    real = load_real_papers()
    if real is None:
        print("benchmarks.search: the real data (../shared/data/iclr2025.jsonl) is absent; skipped")
        return 0
    began = time.perf_counter()
    print(f"search benchmark{' (quick)' if args.quick else ''}: real list of {len(real):,} papers")

    corpora = {n: scaled_corpus(n) for n in SIZES}
    print("\n## Index build")
    print(
        f"{'papers':>9} | {'build s':>8} | {'cpu s':>6} | {'words':>8} | {'postings':>10} | "
        f"{'index MB':>8} | {'traced MB':>9} | {'text MB':>7}"
    )
    indexes: dict[int, SearchIndex] = {}
    for n, papers in corpora.items():
        index, seconds, cpu_seconds = build(papers, repeat=1 if n > 20_000 or args.quick else 3)
        indexes[n] = index
        traced = traced_memory(papers) if n <= 12_000 else 0
        text = sum(len(p.title) + len(p.abstract) + sum(map(len, p.authors)) for p in papers)
        print(
            f"{n:>9,} | {seconds:>8.2f} | {cpu_seconds:>6.2f} | {index.vocabulary_size:>8,} | "
            f"{index.postings:>10,} | "
            f"{index.memory_bytes() / 1e6:>8.1f} | "
            f"{(f'{traced / 1e6:.1f}' if traced else '-'):>9} | {text / 1e6:>7.1f}"
        )
    added, replaced = time_add(corpora[12_000], 50)
    print(
        f"add() at 12,000: 50 new papers {added * 1000:.0f} ms, 50 changed papers "
        f"{replaced * 1000:.0f} ms (a full build is above)"
    )

    print(
        "\n## As-you-type latency (every prefix of 30 queries, caches cleared per query;"
        " limit=50 as a list of results, limit=None as the app asks today)"
    )
    keystrokes = [t for q in TYPED_QUERIES for t in prefixes(q)]
    print(
        f"{'what':<44} | {'papers':>7} | {'keys':>5} | "
        f"{'p50 ms':>7} | {'p95 ms':>7} | {'max ms':>7} | {'cpu p95':>7}"
    )
    results: dict[int, Latency] = {}
    for n in (12_000, 100_000):
        statuses = random_statuses(corpora[n])
        for limit in (50, None):
            typed = TYPED_QUERIES if limit or not args.quick else TYPED_QUERIES[::3]
            wall, cpu = time_typing(indexes[n], typed, statuses, limit)
            if limit:
                results[n] = wall
            what = f"SearchIndex.search, limit={limit}" + (" (as the app)" if not limit else "")
            print(
                f"{what:<44} | {n:>7,} | {wall.count:>5} | {wall.p50:>7.2f} | "
                f"{wall.p95:>7.2f} | {wall.max:>7.2f} | {cpu.p95:>7.2f}"
            )
    sample = keystrokes[:: max(1, len(keystrokes) // (15 if args.quick else 40))]
    naive = time_naive(corpora[12_000], sample)
    print(
        f"{'naive WRatio(title + abstract), ' + str(len(sample)) + ' of the keys':<44} | "
        f"{12_000:>7,} | {naive.count:>5} | {naive.p50:>7.2f} | {naive.p95:>7.2f} | "
        f"{naive.max:>7.2f} | {'':>7}"
    )
    ours = results[12_000]
    print(
        f"speed-up at 12,000: {naive.p50 / ours.p50:.0f}x at p50, "
        f"{naive.p95 / ours.p95:.0f}x at p95 (wall clock)"
    )

    print("\n## Relevance on the real list (half-remembered queries, seed 0)")
    queries = relevance_queries(real, seed=0)
    kinds = sorted({q.kind for q in queries})
    counts = ", ".join(f"{k} {sum(q.kind == k for q in queries)}" for k in kinds)
    print(
        f"{len(queries)} queries ({counts}); examples: "
        + ", ".join(repr(q.text) for q in queries[:: max(1, len(queries) // 6)])
    )
    print(f"{'ranker':<40} | {'queries':>7} | {'MRR':>5} | {'top-1':>5} | {'top-5':>5}")
    ranks = index_ranks(indexes[3_703], queries)
    mrr, top1, top5 = reciprocal_ranks(ranks)
    print(f"{'SearchIndex':<40} | {len(queries):>7} | {mrr:>5.3f} | {top1:>5.3f} | {top5:>5.3f}")
    for kind in kinds:
        kind_ranks = [r for r, q in zip(ranks, queries, strict=True) if q.kind == kind]
        mrr_k, top1_k, top5_k = reciprocal_ranks(kind_ranks)
        print(
            f"{'  SearchIndex, ' + kind:<40} | {len(kind_ranks):>7} | {mrr_k:>5.3f} | "
            f"{top1_k:>5.3f} | {top5_k:>5.3f}"
        )
    for name, asked, base_ranks in baselines(real, queries, args.quick):
        mrr_b, top1_b, top5_b = reciprocal_ranks(base_ranks)
        print(f"{name:<40} | {len(asked):>7} | {mrr_b:>5.3f} | {top1_b:>5.3f} | {top5_b:>5.3f}")
    at_12k = index_ranks(indexes[12_000], queries)
    mrr_s, top1_s, top5_s = reciprocal_ranks(at_12k)
    print(
        f"{'SearchIndex, same queries at 12,000':<40} | {len(queries):>7} | {mrr_s:>5.3f} | "
        f"{top1_s:>5.3f} | {top5_s:>5.3f}"
    )
    partial = sum(indexes[3_703].rank(q.text, limit=1).partial is not None for q in queries)
    print(f"\nanswered by papers with only some of the words (no paper had all): {partial}")
    print(f"missed (rank > 5 or absent): {sum(1 for r in ranks if not 0 < r <= 5)}")
    for rank, query in zip(ranks, queries, strict=True):
        if not 0 < rank <= 5:
            title = indexes[3_703].paper(query.target)
            print(
                f"  rank {rank or '>100':>4} {query.kind:<8} {query.text!r:<42} "
                f"-> {title.title[:70] if title else '?'}"
            )
    print("\n## The papers listed for a multi-word query (every word; real list)")
    print_sets(indexes[3_703], real)
    print(f"\nbenchmark took {time.perf_counter() - began:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
