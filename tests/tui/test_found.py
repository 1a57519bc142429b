"""What the screen keeps of a search: rows for the list, matched words for the paper shown."""

from __future__ import annotations

from pathlib import Path

from storage import Library
from storage.search import SearchIndex
from tui.view import Found


def test_found_maps_papers_to_rows_and_reads_words_on_demand(seeded_home: Path) -> None:
    papers = Library(seeded_home).papers()
    index = SearchIndex(papers)
    position = {p.id: i for i, p in enumerate(papers)}
    hits = index.search("diffusion", limit=None)
    found = Found.of(index.rank("diffusion", limit=None), position)
    assert found.rows == [position[h.paper_id] for h in hits]
    assert len(found) == len(hits) > 1
    assert found.matched(hits[1].paper_id) == hits[1].matched
    assert found.matched("not-a-paper") == frozenset()
    # a paper the list no longer holds (an import replaced the papers) has no row
    gone = dict(position)
    del gone[hits[0].paper_id]
    assert Found.of(index.rank("diffusion", limit=None), gone).rows == found.rows[1:]
