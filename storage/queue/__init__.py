"""The reading queue: the starred papers, in the order the user gives them.

- ``order``: positions (fractional, one per paper, so that orders made on two devices merge
  paper by paper; where no number goes between two papers, a path under the first one's
  place) and the queue they give; where a paper goes when it is starred or moved, and the
  fewest papers a sort moves;
- ``sorts``: the ways a queue can be sorted once (rating, likeness, venue, length, when
  starred).

The positions live in ``triage.json`` (``storage.files.triage_file``), travel through sync as
one register per paper (``storage.sync.records.QUEUE``) and are undone as one step per move
or sort.
"""

from __future__ import annotations

from storage.queue.order import (
    Placement,
    QueueOrder,
    end_position,
    move_to,
    queue_empty,
    queue_ids,
    reordered,
    sort_key,
)
from storage.queue.sorts import SORTS, QueueSort, SortFacts, sort_named, sort_said

__all__ = [
    "SORTS",
    "Placement",
    "QueueOrder",
    "QueueSort",
    "SortFacts",
    "end_position",
    "move_to",
    "queue_empty",
    "queue_ids",
    "reordered",
    "sort_key",
    "sort_said",
    "sort_named",
]
