"""Places in the reading queue, and the queue they give.

Each starred paper has a place: the queue is the starred papers by place, papers at one place
by id (so every device orders them alike). A move changes the place of the one paper moved, to
one between its new neighbours' (fractional indexing): two devices that each move other papers
merge into one order, paper by paper, and the same paper moved on both takes the later move (a
last-writer-wins register per paper in sync). A sort changes the places of the fewest papers
that give its order (``reordered``), no other.

A place is a number, and two papers may stand at one: two devices each starred papers at the
end of their queue before they synced. No number goes between two such papers, nor between
two numbers that some fifty moves into one gap have left side by side; a paper moved there
takes a place under the first of them, a path ``(number, id, number)``: the place of the paper
``id``, then a number of its own, so that it stands after that paper and before what stood
after it, whatever its own id. Places compare as tuples ending in their paper's id
(``order_key``; a number is a path of one level). The level below has room for some fifty
moves more, and a paper moved before one under it takes a number less: a path grows a level
only when its own has no room left. Were a move to give a place deeper than ``MAX_DEPTH``
levels (thousands of moves into one gap, each into the middle of the last), it gives the few
papers around the gap shallower places too: those keep when their place was last chosen, so
that a move of theirs made elsewhere meanwhile wins over them in sync (``TriageChange.place``).

A paper starred before positions existed (or by a device of an older version) has none; it
stands at the time it was starred (seconds since the epoch), which orders such papers by when
they were starred. Places given afterwards are made on the same scale (one more than the last,
one less than the first), so the two kinds mix in one order.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

import orjson

from storage.models import Place, Status

#: Paper id → its new place: what a move, a sort or a new star writes.
Placement = dict[str, Place]
#: What orders a paper in the queue: its place's numbers and ids, then its own id.
OrderKey = tuple[float | str, ...]

#: A path goes no deeper than this many levels (numbers); a move that would go deeper gives
#: papers about its gap shallower places (``made_room``), no deeper than half of it.
MAX_DEPTH: Final = 24
#: The most papers about a gap ``made_room`` gives places to, before the queue is ordered
#: anew (``reordered``).
_ROOM_WINDOW: Final = 32
#: A number of a place beyond this is none (places are near 1 or near a time in seconds).
MAX_NUMBER: Final = 1e15
#: The longest paper id a path names (ids are hexadecimal, 4 to 32 digits).
_MAX_ID: Final = 32


def queue_empty(how: str = "") -> str:
    """What is said of an empty reading queue, in one wording wherever it is said (``papers
    queue``, ``next``, ``queue sort``, the stats; the app), ``how`` naming how papers are
    starred there (``s``: the app's key)."""
    named = f" ({how})" if how else ""
    return f"The reading queue is empty: star papers{named} to queue them."


def place_of(value: Any) -> Place | None:
    """A place as stored or sent (a path as a list), checked: None for what is none (a
    number not finite or past ``MAX_NUMBER``, a path of another shape, or deeper than
    ``MAX_DEPTH``)."""
    if _is_number(value):
        return float(value)
    if not isinstance(value, list | tuple) or len(value) % 2 == 0:
        return None
    if not 3 <= len(value) < 2 * MAX_DEPTH or not all(map(_is_part, range(len(value)), value)):
        return None
    return tuple(float(part) if i % 2 == 0 else part for i, part in enumerate(value))


def _is_part(i: int, part: Any) -> bool:
    """A number at a path's even places, a paper's id at its odd ones."""
    return _is_number(part) if i % 2 == 0 else isinstance(part, str) and 0 < len(part) <= _MAX_ID


def _is_number(value: Any) -> bool:
    return (  # (a huge int is compared as it is: made a float, it would overflow)
        isinstance(value, int | float) and not isinstance(value, bool) and abs(value) < MAX_NUMBER
    )


def place_json(place: Place) -> float | list[float | str]:
    """A place as JSON holds it (a path as a list): what sync sends and compares."""
    return list(place) if isinstance(place, tuple) else place


def place_text(place: float | Sequence[float | str]) -> str:
    """A place as a CSV cell holds it (``2.5``, ``3``), a path as JSON (``[3.0,"a1b2",1.0]``):
    what ``place_of`` reads back, from the text too (``storage.sources.fields``)."""
    if isinstance(place, float | int):
        return repr(place).removesuffix(".0")
    return orjson.dumps(list(place)).decode()


def place_from_text(text: str) -> Place | None:
    """A place a CSV cell holds (``place_text``); None for what is none."""
    try:
        return place_of(orjson.loads(text) if text.lstrip().startswith("[") else float(text))
    except (ValueError, orjson.JSONDecodeError):
        return None


def order_key(pid: str, place: Place) -> OrderKey:
    """What orders paper ``pid`` standing at ``place``: its numbers and ids, then its own id
    (papers at one place by id; a path after the paper it is under)."""
    return (*place, pid) if isinstance(place, tuple) else (place, pid)


def depth(place: Place) -> int:
    """The levels of a place: 1 for a number."""
    return (len(place) + 1) // 2 if isinstance(place, tuple) else 1


def lead(place: Place) -> float:
    """A place's first number: where it stands among the numbers."""
    first = place[0] if isinstance(place, tuple) else place
    assert isinstance(first, float)
    return first


def sort_key(pid: str, positions: Mapping[str, Place], decided_at: Mapping[str, float]) -> Place:
    """Where a starred paper stands: its place, else when it was starred."""
    found = positions.get(pid)
    return found if found is not None else decided_at.get(pid, 0.0)


def queue_ids(
    statuses: Mapping[str, Status],
    positions: Mapping[str, Place],
    decided_at: Mapping[str, float],
) -> list[str]:
    """The starred papers, head first."""
    starred = [pid for pid, status in statuses.items() if status is Status.STARRED]

    def key(pid: str) -> OrderKey:  # (``order_key`` of ``sort_key``, in one call a paper)
        place = positions.get(pid)
        if place is None:
            return (decided_at.get(pid, 0.0), pid)
        return (*place, pid) if isinstance(place, tuple) else (place, pid)

    return sorted(starred, key=key)


def file_places(stars: Iterable[tuple[str, Place | None, float | None]]) -> Placement:
    """The queue places of the starred papers a file brings, each given as (id, the place the
    file gives it, when the file says it was starred), in the file's order: the file's own
    places when it gives every paper one (our JSON and CSV exports); else 1, 2, 3… in the queue
    the file makes, each paper standing at its place, else when starred (``sort_key``), else
    after those (our Markdown names neither), ties in the file's order: a file lists its queue
    in order, which ordering ties by id would lose."""
    found = list(stars)
    if all(place is not None for _pid, place, _at in found):
        return {pid: place for pid, place, _at in found if place is not None}

    def key(i: int) -> tuple[float | str, ...]:
        _pid, place, at = found[i]
        standing = place if place is not None else at if at is not None else math.inf
        return standing if isinstance(standing, tuple) else (standing,)

    ranked = sorted(range(len(found)), key=key)  # stable: ties in file order
    return {found[i][0]: float(n) for n, i in enumerate(ranked, start=1)}


def after_queue(places: Mapping[str, Place], keys: Iterable[Place]) -> Placement:
    """The queue places a file gives papers (``places``), moved as one block behind a queue
    whose papers stand at ``keys``: the file's order kept, after the queue's (as they were,
    for an empty queue)."""
    found = list(keys)
    if not places or not found:
        return dict(places)
    shift = end_position(found) - math.floor(min(lead(place) for place in places.values()))
    return {pid: _shifted(place, shift) for pid, place in places.items()}


def _shifted(place: Place, by: float) -> Place:
    if isinstance(place, tuple):
        return (lead(place) + by, *place[1:])
    return place + by


def end_position(keys: Iterable[Place], *, top: bool = False) -> float:
    """The place of a paper joining the queue whose papers stand at ``keys``: after the last
    one (``top``: before the first)."""
    found = [lead(key) for key in keys]
    if not found:
        return 1.0
    return math.floor(min(found)) - 1.0 if top else math.floor(max(found)) + 1.0


@dataclass(frozen=True, slots=True)
class QueueOrder:
    """A queue as it stands: its papers head first, and where each stands."""

    ids: tuple[str, ...]
    keys: Mapping[str, Place]

    @classmethod
    def of(
        cls,
        statuses: Mapping[str, Status],
        positions: Mapping[str, Place],
        decided_at: Mapping[str, float],
    ) -> QueueOrder:
        ids = queue_ids(statuses, positions, decided_at)
        return cls(tuple(ids), {pid: sort_key(pid, positions, decided_at) for pid in ids})

    def __len__(self) -> int:
        return len(self.ids)

    def end(self, *, top: bool = False) -> float:
        """The place of a paper starred now (``end_position``)."""
        return end_position(self.keys.values(), top=top)

    def key(self, pid: str) -> OrderKey:
        """What orders paper ``pid`` of the queue (``order_key``)."""
        return order_key(pid, self.keys[pid])


def move_to(queue: QueueOrder, pid: str, index: int) -> Placement:
    """The places that put ``pid`` (a paper of the queue) at ``index`` (0: the head; clamped),
    the others keeping their order: the moved paper's alone (past ``MAX_DEPTH``, a few more:
    ``made_room``); none when it is there already."""
    if pid not in queue.keys:
        raise KeyError(pid)
    others = [p for p in queue.ids if p != pid]
    index = max(0, min(index, len(others)))
    if not others or queue.ids.index(pid) == index:
        return {}
    low = queue.key(others[index - 1]) if index > 0 else None
    high = queue.key(others[index]) if index < len(others) else None
    place = between(low, high, pid)
    if depth(place) <= MAX_DEPTH:
        return {pid: place}
    return made_room(queue, others, index, pid)


def between(low: OrderKey | None, high: OrderKey | None, pid: str) -> Place:
    """The place of paper ``pid`` that stands after the paper ordered by ``low`` and before
    the one ordered by ``high`` (None: the head, the end): the shallowest, which is a
    neighbour's own place when ``pid`` stands there by its id, and no number would do."""
    place = spread(low, high, 1)[0]
    for beside in (low, high):
        if beside is None:
            continue
        theirs = _place(beside[:-1])
        mine = order_key(pid, theirs)
        fits = (low is None or low < mine) and (high is None or mine < high)
        if fits and depth(theirs) < depth(place):
            place = theirs
    return place


def spread(low: OrderKey | None, high: OrderKey | None, n: int) -> list[Place]:
    """``n`` places, in order, that stand after the paper ordered by ``low`` and before the
    one ordered by ``high`` (None: the head, the end), whatever the ids of the papers given
    them: numbers evenly between the two's where they differ and leave room, else numbers
    of a level under ``low``'s place (see the module)."""
    if low is None:
        top = math.floor(_number(high[0])) if high is not None else n + 1
        return [float(top - n + i) for i in range(n)]
    if high is None:
        end = math.floor(_number(low[0]))
        return [float(end + 1 + i) for i in range(n)]
    i = next((k for k, (a, b) in enumerate(zip(low, high, strict=False)) if a != b), len(low))
    if i == len(low):  # high stands under low: numbers before high's there
        under = math.floor(_number(high[i]))
        return [_place((*low, float(under - n + j))) for j in range(n)]
    if i % 2 == 0:  # their numbers differ: evenly between them, when there is room
        a, b = _number(low[i]), _number(high[i])
        step = (b - a) / (n + 1)
        numbers = [a + step * j for j in range(1, n + 1)]
        if all(x < y for x, y in zip([a, *numbers], [*numbers, b], strict=True)):
            return [_place((*low[:i], number)) for number in numbers]
    # no room, or two papers at one place (their ids differ): a level under low's place,
    # after the number low has there (it stands after low, and before high as low does)
    level = i + 2 if i % 2 == 0 else i + 1
    start = math.floor(_number(low[level])) + 1 if len(low) > level else 1
    return [_place((*low[:level], float(start + j))) for j in range(n)]


def _place(parts: Sequence[float | str]) -> Place:
    """A place from its parts: a number alone is no path."""
    if len(parts) == 1:
        return _number(parts[0])
    return tuple(parts)


def _number(part: float | str) -> float:
    assert isinstance(part, float)
    return part


def made_room(queue: QueueOrder, others: Sequence[str], index: int, pid: str) -> Placement:
    """The places that put ``pid`` between ``others[index - 1]`` and ``others[index]`` where
    its own place alone would go deeper than ``MAX_DEPTH``: it and the fewest papers about the
    gap, given places no deeper than half of it (``TriageChange.place`` keeps when theirs were
    chosen: a move of one of them made elsewhere wins)."""
    keys = [queue.key(p) for p in others]
    for size in range(1, min(len(others), _ROOM_WINDOW) + 1):
        for before in range(size + 1):  # papers of the window before the gap
            start, end = index - before, index - before + size
            if start < 0 or end > len(others):
                continue
            low = keys[start - 1] if start > 0 else None
            high = keys[end] if end < len(keys) else None
            places = spread(low, high, size + 1)
            if max(map(depth, places)) <= max(1, MAX_DEPTH // 2):
                window = [*others[start:index], pid, *others[index:end]]
                return {p: place for p, place in zip(window, places, strict=True)}
    # papers tied by the hundred at the deepest level (a file gave them): the queue's order,
    # numbered anew where it must be (a window tried by each size would be cubic in them)
    return reordered(queue, [*others[:index], pid, *others[index:]])


def reordered(queue: QueueOrder, order: Sequence[str]) -> Placement:
    """The places that give the queue the order ``order`` (its papers, each once), to the
    fewest papers: those of a longest run of papers ``order`` leaves in the order they stand
    (``_in_order``) keep their places, the others take places spread between them; none when
    the queue is in that order already. A place written anew is a change of its paper, which
    in sync wins over a move of it made elsewhere meanwhile: a sort changes the papers it
    moves, and no other (it numbered every place 1, 2, 3… anew)."""
    order = list(order)
    keys = [queue.key(pid) for pid in order]
    kept = _in_order(keys)
    placement: Placement = {}
    for a, b in zip([-1, *kept], [*kept, len(order)], strict=True):
        if b - a > 1:
            low = keys[a] if a >= 0 else None
            high = keys[b] if b < len(order) else None
            placement.update(zip(order[a + 1 : b], spread(low, high, b - a - 1), strict=True))
    if any(depth(place) > MAX_DEPTH for place in placement.values()):
        # between places already as deep as they go (a file or a device gave them): the
        # whole queue numbered 1, 2, 3… in the order wanted, rather than a place none reads
        return {pid: float(n) for n, pid in enumerate(order, start=1)}
    return placement


def _in_order(keys: Sequence[OrderKey]) -> list[int]:
    """The indices of a longest run of ``keys`` in order (one after another, not side by side
    in ``keys``): patience sorting, n log n."""
    tails: list[int] = []  # tails[k]: where the least key that ends a run of k + 1 is
    before = [-1] * len(keys)
    for i, key in enumerate(keys):
        k = bisect.bisect_left(tails, key, key=keys.__getitem__)
        before[i] = tails[k - 1] if k else -1
        tails[k : k + 1] = [i]
    run: list[int] = []
    i = tails[-1] if tails else -1
    while i >= 0:
        run.append(i)
        i = before[i]
    return run[::-1]
