"""Positions in the reading queue, and the queue they give.

Each starred paper has a position, a number: the queue is the starred papers by position
(ties by id, so every device orders equal positions alike). A move changes the position of
the one paper moved, to a number between its new neighbours' (fractional indexing): two
devices that each move other papers merge into one order, paper by paper, and the same paper
moved on both takes the later move (a last-writer-wins register per paper in sync).

A paper starred before positions existed (or by a device of an older version) has none; it
stands at the time it was starred (seconds since the epoch), which orders such papers by when
they were starred. Positions given afterwards are made on the same scale (one more than the
last, one less than the first), so the two kinds mix in one order.

When a move finds no room between two neighbours (about fifty moves into the same gap), the
whole queue is numbered again 1, 2, 3…: that move is then a change of every position, still
one step.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from storage.models import Status

#: Paper id → its new position: what a move, a sort or a new star writes.
Placement = dict[str, float]


def sort_key(pid: str, positions: Mapping[str, float], decided_at: Mapping[str, float]) -> float:
    """Where a starred paper stands: its position, else when it was starred."""
    found = positions.get(pid)
    return found if found is not None else decided_at.get(pid, 0.0)


def queue_ids(
    statuses: Mapping[str, Status],
    positions: Mapping[str, float],
    decided_at: Mapping[str, float],
) -> list[str]:
    """The starred papers, head first."""
    starred = [pid for pid, status in statuses.items() if status is Status.STARRED]
    return sorted(starred, key=lambda pid: (sort_key(pid, positions, decided_at), pid))


def file_places(stars: Iterable[tuple[str, float | None, float | None]]) -> Placement:
    """The queue positions of the starred papers a file brings, each given as (id, the
    position the file gives it, when the file says it was starred), in the file's order: the
    file's own positions when it gives every paper one (our JSON and CSV exports); else 1, 2,
    3… in the queue the file makes, each paper standing at its position, else when starred
    (``sort_key``), else after those (our Markdown names neither), ties in the file's order:
    a file lists its queue in order, which ordering ties by id would lose."""
    found = list(stars)
    if all(place is not None for _pid, place, _at in found):
        return {pid: place for pid, place, _at in found if place is not None}
    keys = [next((k for k in (place, at) if k is not None), math.inf) for _, place, at in found]
    ranked = sorted(range(len(found)), key=keys.__getitem__)  # stable: ties in file order
    return {found[i][0]: float(n) for n, i in enumerate(ranked, start=1)}


def after_queue(places: Mapping[str, float], keys: Iterable[float]) -> Placement:
    """The queue positions a file gives papers (``places``), moved as one block behind a
    queue whose papers stand at ``keys``: the file's order kept, after the queue's (as they
    were, for an empty queue)."""
    found = list(keys)
    if not places or not found:
        return dict(places)
    shift = end_position(found) - math.floor(min(places.values()))
    return {pid: place + shift for pid, place in places.items()}


def end_position(keys: Iterable[float], *, top: bool = False) -> float:
    """The position of a paper joining the queue whose papers stand at ``keys``: after the
    last one (``top``: before the first)."""
    found = list(keys)
    if not found:
        return 1.0
    return math.floor(min(found)) - 1.0 if top else math.floor(max(found)) + 1.0


@dataclass(frozen=True, slots=True)
class QueueOrder:
    """A queue as it stands: its papers head first, and where each stands."""

    ids: tuple[str, ...]
    keys: Mapping[str, float]

    @classmethod
    def of(
        cls,
        statuses: Mapping[str, Status],
        positions: Mapping[str, float],
        decided_at: Mapping[str, float],
    ) -> QueueOrder:
        ids = queue_ids(statuses, positions, decided_at)
        return cls(tuple(ids), {pid: sort_key(pid, positions, decided_at) for pid in ids})

    def __len__(self) -> int:
        return len(self.ids)

    def end(self, *, top: bool = False) -> float:
        """The position of a paper starred now (``end_position``)."""
        return end_position(self.keys.values(), top=top)


def move_to(queue: QueueOrder, pid: str, index: int) -> Placement:
    """The positions that put ``pid`` (a paper of the queue) at ``index`` (0: the head;
    clamped), the others keeping their order. Usually one position, the moved paper's;
    every paper's when there is no room left between its new neighbours; none when it is
    there already."""
    if pid not in queue.keys:
        raise KeyError(pid)
    others = [p for p in queue.ids if p != pid]
    index = max(0, min(index, len(others)))
    if list(queue.ids).index(pid) == index:
        return {}
    keys = queue.keys
    if not others:
        return {}
    if index == 0:
        new = math.floor(keys[others[0]]) - 1.0
    elif index == len(others):
        new = math.floor(keys[others[-1]]) + 1.0
    else:
        before, after = keys[others[index - 1]], keys[others[index]]
        new = (before + after) / 2
        if not before < new < after:  # no room left (or equal neighbours): number them all
            return renumbered(queue, [*others[:index], pid, *others[index:]])
    return {pid: new}


def renumbered(queue: QueueOrder, order: Sequence[str]) -> Placement:
    """The positions that give the queue the order ``order`` (its papers, each once):
    1, 2, 3… for those whose position changes; none when the queue is in that order already
    (numbering its places anew moves no paper: it would be an undo step that undoes nothing)."""
    if list(order) == list(queue.ids):
        return {}
    return {
        pid: float(i) for i, pid in enumerate(order, start=1) if queue.keys.get(pid) != float(i)
    }
