"""Slow paths of a search, gone: ``rating:``, ``citations:`` and ``area:`` from columns, queries
cut to their caps, saved searches' counts moved by each decision instead of counted again.

Before (issue 24): each of the three qualifiers asked every paper in Python (400-525 ms at
100,000 papers), a 1 MB query took 68 s and 200 ``rating:`` ranges 5 s, and every key counted
every saved search's papers again (8-15 s a key with 1,000 saved searches).
"""

from __future__ import annotations

import random
import subprocess
from pathlib import Path

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from storage import Library
from storage.cache.search_index import index_for
from storage.files.saved_searches import SavedSearches
from storage.models import Paper, Status
from storage.search import SearchIndex, parse_query
from storage.search.filters import _Facts
from storage.search.query import MAX_QUERY_CHARS, MAX_QUERY_TERMS, QueryTooBigError
from storage.search.saved_counts import (
    PaperTriage,
    SavedCounts,
    live_qualifiers,
    paper_triage,
    passes,
)
from tests.cli.test_cli import PAPERS, make_env

AREAS = ("reinforcement learning", "Optimization", "generative models", "")


def papers_with_facts(n: int, seed: int = 0) -> list[Paper]:
    rng = random.Random(seed)
    papers = []
    for i in range(n):
        extra: list[tuple[str, float | int | str]] = []
        if rng.random() < 0.8:
            extra.append(("rating", round(rng.uniform(1, 10), 2)))
        if rng.random() < 0.7:
            extra.append(("citations", rng.randint(0, 500)))
        area = rng.choice(AREAS)
        if area:
            extra.append(("area", area))
        papers.append(
            Paper(
                f"{i + 1:012x}", f"Paper {i} on things", f"We study thing {i}.", extra=tuple(extra)
            )
        )
    return papers


def naive(papers: list[Paper], query: str) -> list[str]:
    """What the qualifiers keep, asked of each paper as before."""
    found = []
    for paper in papers:
        keep = True
        for q in parse_query(query).qualifiers:
            if q.key == "area":
                hit = q.value in str(paper.fact("area") or "").casefold()
            else:
                value = paper.fact(q.key)
                from storage.search.qualifiers import number_test

                test = number_test(q.value)
                hit = isinstance(value, int | float) and test is not None and test(float(value))
            keep &= hit != q.negated
        if keep:
            found.append(paper.id)
    return found


QUERIES = (
    "rating:>6",
    "rating:>=6.5",
    "rating:<4",
    "rating:5..7",
    "rating:6",
    "citations:>100",
    "citations:0",
    "citations:10..50",
    "-rating:>5",
    "area:learning",
    'area:"reinforcement learning"',
    "-area:optim",
    "rating:>5 area:models citations:<200",
)


@pytest.mark.parametrize("query", QUERIES)
def test_number_and_area_qualifiers_read_columns_and_agree_with_each_paper(
    query: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    papers = papers_with_facts(400)
    index = SearchIndex(papers)

    def no_walk(self: object, accepts: object) -> None:
        raise AssertionError("a qualifier asked every paper (no column)")

    monkeypatch.setattr(_Facts, "where", no_walk)
    found = [hit.paper_id for hit in index.search(query, limit=None)]
    assert sorted(found) == sorted(naive(papers, query))


def test_an_index_loaded_from_disk_reads_the_extra_column_not_the_papers(tmp_path: Path) -> None:
    listed = tmp_path / "list.jsonl"
    rows = [
        {"title": p.title, "abstract": p.abstract, **{k: v for k, v in p.extra}}
        for p in papers_with_facts(300, seed=3)
    ]
    for row in rows:
        if "area" in row:
            row["primary_area"] = row.pop("area")
    listed.write_bytes(b"\n".join(orjson.dumps(r) for r in rows))
    library = Library(tmp_path / "home")
    library.import_file(listed)
    loaded = library.loaded_papers()
    index_for(library.home, loaded.sequence(), loaded.sig)  # built and saved
    again = Library(library.home).loaded_papers()
    index = index_for(library.home, again.sequence(), again.sig)  # loaded from disk
    papers = library.papers()
    for query in ("rating:>7", "area:optim", "citations:>250 -area:generative"):
        found = [hit.paper_id for hit in index.search(query, limit=None)]
        assert sorted(found) == sorted(naive(papers, query))


def test_a_megabyte_query_is_cut_to_its_caps_and_says_so() -> None:
    huge = " ".join(f"word{n}" for n in range(200_000))
    query = parse_query(huge)
    assert query.cut.startswith("the query is") and len(query.words) <= MAX_QUERY_TERMS
    ranges = " ".join(f"rating:>{n % 10}" for n in range(200))  # 200 of them, 1,999 chars
    query = parse_query(ranges)
    assert len(query.qualifiers) == MAX_QUERY_TERMS and "terms" in query.cut
    assert parse_query("rating:>6 area:rl").cut == ""
    papers = papers_with_facts(50)
    assert len(SearchIndex(papers).search(huge)) == 0  # cut: no paper has 50 such words
    assert len(huge) > MAX_QUERY_CHARS


def test_the_cli_and_saved_searches_refuse_a_query_past_the_caps(tmp_path: Path) -> None:
    env = make_env(tmp_path)
    home = tmp_path / "home"
    listed = tmp_path / "list.jsonl"
    listed.write_bytes(
        orjson.dumps({"title": "A paper", "abstract": "We study a thing at length."})
    )
    Library(home).import_file(listed)
    done = subprocess.run(
        [*PAPERS, "--home", str(home), "search", "x " * 2000],
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert len(done.stderr.splitlines()) == 1 and "at most 2,000" in done.stderr
    with pytest.raises(QueryTooBigError, match="terms"):
        SavedSearches(home).save("many", " ".join(f"is:read w{n}" for n in range(60)))
    assert SavedSearches(home).all() == []


# -- saved searches' counts ------------------------------------------------------------------
LIVE = ("is:inbox", "is:starred", "-is:read", "has:note", "tag:rl", "is:starred tag:rl", "")


@settings(max_examples=60, deadline=None)
@given(
    searches=st.lists(
        st.tuples(st.sets(st.integers(0, 29), max_size=30), st.sampled_from(LIVE)),
        min_size=1,
        max_size=12,
    ),
    changes=st.lists(
        st.tuples(
            st.integers(0, 29),
            st.sampled_from(list(Status)),
            st.sampled_from(("", "why")),
            st.sampled_from(((), ("rl",), ("theory",))),
        ),
        max_size=40,
    ),
)
def test_saved_counts_moved_by_each_change_equal_a_count_from_scratch(
    searches: list[tuple[set[int], str]],
    changes: list[tuple[int, Status, str, tuple[str, ...]]],
) -> None:
    ids = [f"{n + 1:012x}" for n in range(30)]
    triage = {pid: PaperTriage() for pid in ids}
    counts = SavedCounts()
    live = {}
    for n, (members, query) in enumerate(searches):
        live[n] = live_qualifiers(parse_query(query).qualifiers)
        counts.track(str(n), [ids[i] for i in sorted(members)], live[n], triage.__getitem__)
    for i, status, note, tags in changes:
        before = triage[ids[i]]
        triage[ids[i]] = after = PaperTriage(status, note, tags)
        counts.changed(ids[i], before, after)
    for n, (members, _query) in enumerate(searches):
        expected = sum(1 for i in set(members) if passes(live[n], triage[ids[i]]))
        assert counts.count(str(n)) == expected


def test_a_decision_looks_only_at_the_saved_searches_holding_its_paper() -> None:
    """1,000 saved searches: a decision tests the few that hold its paper, not every one."""
    ids = [f"{n + 1:012x}" for n in range(2000)]
    state: dict[str, Status] = {}
    triage_of = lambda pid: paper_triage(state, {}, {}, pid)  # noqa: E731
    counts = SavedCounts()
    live = live_qualifiers(parse_query("is:inbox").qualifiers)
    for n in range(1000):
        counts.track(f"s{n}", ids[n : n + 5], live, triage_of)
    assert counts.count("s10") == 5
    before = triage_of(ids[12])
    state[ids[12]] = Status.READ
    moved = counts.changed(ids[12], before, triage_of(ids[12]))
    assert sorted(moved) == sorted(f"s{n}" for n in range(8, 13))
    assert counts.count("s10") == 4 and counts.count("s100") == 5
    counts.forget("s10")
    assert counts.count("s10") is None
    state.clear()
    counts.recount(triage_of)
    assert counts.count("s9") == 5
