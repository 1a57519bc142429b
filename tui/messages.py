"""App-wide events, posted from worker threads to the main screen."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from textual.message import Message

from storage.models import Paper
from storage.session import Outcome

if TYPE_CHECKING:  # imported when the index is built, after the first paint
    from storage.search import SearchHit, SearchIndex


class Persisted(Message):
    """The writer thread put an operation on disk (or failed to)."""

    def __init__(self, outcome: Outcome) -> None:
        self.outcome = outcome
        super().__init__()


class IndexReady(Message):
    """The search index for these papers is built."""

    def __init__(self, papers: Sequence[Paper], index: SearchIndex) -> None:
        self.papers = papers
        self.index = index
        super().__init__()


class SearchDone(Message):
    """Results of one query; the screen drops them if the query changed meanwhile."""

    def __init__(
        self,
        query: str,
        hits: Sequence[SearchHit],
        position: Mapping[str, int] | None = None,
        rows: list[int] | None = None,
        by_id: dict[str, SearchHit] | None = None,
    ) -> None:
        self.query = query
        self.hits = hits
        #: The paper positions ``rows`` was worked out with (None: not worked out).
        self.position = position
        #: Positions of the hits in the papers, best first.
        self.rows = rows
        #: The hits by paper id.
        self.by_id = by_id or {}
        super().__init__()
