"""App-wide events, posted from worker threads to the main screen."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from textual.message import Message

from storage.models import Paper
from storage.session import Outcome

if TYPE_CHECKING:  # imported when the index is built, after the first paint
    from storage.search import Ranking, SearchIndex


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


@dataclass(frozen=True, slots=True)
class Found:
    """A search's papers as the screen uses them: rows for the list, words for the detail."""

    ranking: Ranking
    #: The paper positions ``rows`` refer to (replaced by an import).
    position: Mapping[str, int]
    #: Positions in the papers of the papers found, best first.
    rows: list[int]
    #: Paper id -> its row in ``ranking``.
    where: dict[str, int]

    @classmethod
    def of(cls, ranking: Ranking, position: Mapping[str, int]) -> Found:
        where = {pid: i for i, pid in enumerate(ranking.ids) if pid in position}
        return cls(ranking, position, [position[pid] for pid in where], where)

    def __len__(self) -> int:
        return len(self.ranking)

    def matched(self, paper_id: str) -> frozenset[str]:
        """The index words the paper matched (none when it was not found)."""
        row = self.where.get(paper_id)
        return frozenset() if row is None else self.ranking.hit(row).matched


class SearchDone(Message):
    """Results of one query; the screen drops them if the query changed meanwhile."""

    def __init__(self, query: str, found: Found) -> None:
        self.query = query
        self.found = found
        super().__init__()
