"""What the index keeps of each paper, by *slot*: the paper, its place in the list, and the
facts that filters and the ranking read as arrays (venue, lists, code, title words, name).

A paper gets the next slot when indexed; re-indexing a changed paper gives it a new slot and
marks the old one dead, and keeps its place in the list (its *rank*), until a rebuild.
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence

import numpy as np
import numpy.typing as npt

from storage.models import Paper
from storage.search.postings import BoolArray, IntArray


class PaperTable:
    """The indexed papers by slot, and per slot the arrays a search reads."""

    def __init__(self, next_rank: int = 0) -> None:
        #: The paper of each slot (an index loaded from disk reads them as far as asked).
        self.papers: MutableSequence[Paper] = []
        self.slot_by_id: dict[str, int] = {}
        #: Paper id of each slot, as an array so that a search picks thousands at once.
        self.ids: npt.NDArray[np.object_] = np.zeros(0, dtype=object)
        self.live: BoolArray = np.zeros(0, dtype=np.bool_)
        self.live_count = 0
        #: Place in the list of each slot (ties between equal scores go to the earlier paper).
        self.rank: IntArray = np.zeros(0, dtype=np.int64)
        self.next_rank = next_rank
        self.has_code: BoolArray = np.zeros(0, dtype=np.bool_)
        #: Venue status and lists of each paper, as codes into the distinct values.
        self.venue_code: npt.NDArray[np.int32] = np.zeros(0, dtype=np.int32)
        self.venues: dict[str, int] = {}
        self.lists_code: npt.NDArray[np.int32] = np.zeros(0, dtype=np.int32)
        self.list_sets: dict[tuple[str, ...], int] = {}
        #: Slots by the key of their method name (``parasolver``), for the name bonus.
        self.name_slots: dict[str, list[int]] = {}
        #: Title words of each paper, in order, as term ids (CSR), for the in-order bonus.
        self.title_offsets: IntArray = np.zeros(1, dtype=np.int64)
        self.title_tids: npt.NDArray[np.int32] = np.zeros(0, dtype=np.int32)
        #: The papers' extra facts as columns, once asked for (``columns.extra_columns``).
        self.extra_columns: object | None = None
        #: Whether any live paper has a field, by the field and the table's size and live
        #: count (``HeldFields.held``): asked when a search finds nothing, and kept so.
        self.held: dict[tuple[str, int, int], bool] = {}

    def __len__(self) -> int:
        """Number of slots, dead ones included."""
        return len(self.papers)

    def ranks_for(self, papers: Sequence[Paper]) -> list[int]:
        """Places in the list for papers about to be indexed: a known paper keeps its own (and
        its old slot dies), a new one goes last."""
        ranks: list[int] = []
        for paper in papers:
            old = self.slot_by_id.get(paper.id)
            if old is None:
                ranks.append(self.next_rank)
                self.next_rank += 1
            else:
                ranks.append(int(self.rank[old]))
                self.live[old] = False
        return ranks

    def in_list_order(self, slots: IntArray) -> IntArray:
        """The slots sorted by their place in the list."""
        return slots[np.argsort(self.rank[slots], kind="stable")]

    def live_slots(self) -> IntArray:
        """The slots of the live papers, in list order."""
        return self.in_list_order(np.flatnonzero(self.live))

    def append(
        self,
        ids: Sequence[str],
        has_code: Sequence[bool],
        ranks: Sequence[int],
        venue_codes: Sequence[int],
        list_codes: Sequence[int],
        title_tids: npt.NDArray[np.int32],
        title_lengths: IntArray,
    ) -> None:
        """Add the arrays of a batch of papers already given slots (``papers``, ``slot_by_id``):
        their ids and whether each has code, in slot order."""
        n = len(ids)
        self.title_tids = np.concatenate([self.title_tids, title_tids])
        self.title_offsets = np.concatenate(
            [self.title_offsets, self.title_offsets[-1] + np.cumsum(title_lengths)]
        )
        self.live = np.concatenate([self.live, np.ones(n, dtype=np.bool_)])
        new_ids = np.empty(n, dtype=object)
        new_ids[:] = ids
        self.ids = np.concatenate([self.ids, new_ids])
        self.rank = np.concatenate([self.rank, np.asarray(ranks, dtype=np.int64)])
        self.venue_code = np.concatenate([self.venue_code, np.asarray(venue_codes, dtype=np.int32)])
        self.lists_code = np.concatenate([self.lists_code, np.asarray(list_codes, dtype=np.int32)])
        self.has_code = np.concatenate([self.has_code, np.asarray(has_code, dtype=np.bool_)])
        self.live_count = int(self.live.sum())

    def title(self, slot: int) -> list[int]:
        """The term ids of a paper's title words, in order."""
        offsets = self.title_offsets
        return self.title_tids[offsets[slot] : offsets[slot + 1]].tolist()

    def memory_bytes(self) -> int:
        """Approximate memory of the arrays and look-up tables (not of the papers)."""
        arrays = self.rank.nbytes + self.live.nbytes + self.has_code.nbytes
        arrays += self.title_offsets.nbytes + self.title_tids.nbytes
        return arrays + 100 * len(self.slot_by_id) + 100 * len(self.name_slots)
