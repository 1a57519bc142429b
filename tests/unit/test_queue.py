"""The reading queue (storage.queue, triage.json's positions): order, moves, sorts, undo,
restarts, sync between three devices, exports."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from storage import Library
from storage.export import export, select
from storage.models import Status
from storage.queue import QueueOrder, move_to, renumbered, sort_named
from storage.sync import sync_library
from tests.unit.test_sync_support import seeded


@pytest.fixture(autouse=True)
def ticking(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each decision a second after the one before (their times order the stars)."""
    import itertools

    import storage.files.triage_file

    clock = itertools.count(1_700_000_000)
    monkeypatch.setattr(storage.files.triage_file, "now", lambda: float(next(clock)))


def starred(tmp_path: Path, n: int = 6) -> tuple[Library, list[str]]:
    library = seeded(tmp_path / "home")
    ids = [p.id for p in library.papers()][:n]
    for pid in ids:  # one by one: each joins at the end
        library.set_status(pid, "starred")
    return library, ids


def test_a_new_star_joins_at_the_end_or_the_top(tmp_path: Path) -> None:
    library, ids = starred(tmp_path, 3)
    assert library.queue() == ids
    other = [p.id for p in library.papers()][10]
    library.queue_top = True
    library.set_status(other, "starred")
    assert library.queue() == [other, *ids]
    several = [p.id for p in library.papers()][11:13]
    library.set_statuses(several, "starred")  # a bulk star at the top keeps its order
    assert library.queue() == [*several, other, *ids]


def test_moves_up_down_top_bottom_and_to_a_place(tmp_path: Path) -> None:
    library, ids = starred(tmp_path, 5)
    library.move_in_queue(ids[4], "top")
    assert library.queue() == [ids[4], *ids[:4]]
    library.move_in_queue(ids[4], "bottom")
    assert library.queue() == ids
    library.move_in_queue(ids[0], 3)
    assert library.queue() == [ids[1], ids[2], ids[0], ids[3], ids[4]]
    assert library.move_in_queue(ids[0], 3) == []  # there already: no step
    assert library.move_in_queue(ids[0], 99)  # clamped: the bottom
    assert library.queue()[-1] == ids[0]


def test_a_paper_not_in_the_queue_cannot_move(tmp_path: Path) -> None:
    from storage.errors import UnknownPaperError

    library, _ids = starred(tmp_path, 2)
    other = [p.id for p in library.papers()][20]
    with pytest.raises(UnknownPaperError, match="not in the reading queue"):
        library.move_in_queue(other, "top")


def test_each_move_and_each_sort_is_one_undo_step(tmp_path: Path) -> None:
    library, ids = starred(tmp_path, 5)
    library.move_in_queue(ids[3], "top")
    library.move_in_queue(ids[1], "bottom")
    moved = library.queue()
    library.sort_queue("starred")  # oldest star first: the original order, in one step
    assert library.queue() == ids
    undone = library.undo_step()
    assert undone.changes == [] and undone.moves
    assert library.queue() == moved
    library.undo()
    assert library.queue() == [ids[3], *ids[:3], ids[4]]
    library.redo()
    assert library.queue() == moved
    assert library.statuses() == dict.fromkeys(ids, Status.STARRED)  # no status touched


def test_a_sort_that_moves_no_paper_is_no_step(tmp_path: Path) -> None:
    """Before, the sort numbered the places anew (a move top made 0, 1, 2…) and kept that as
    a step: ``papers undo`` then undid it, said "3 papers moved back" and changed nothing, and
    the move before it needed a second undo."""
    library, ids = starred(tmp_path, 3)
    library.move_in_queue(ids[2], "top")
    assert library.sort_queue("rating") == []  # no paper has a rating: the order stays
    library.undo()  # the move
    assert library.queue() == ids


def test_read_from_the_queue_and_undo_puts_it_back_in_its_place(tmp_path: Path) -> None:
    library, ids = starred(tmp_path, 4)
    library.set_status(ids[1], "read")
    assert library.queue() == [ids[0], ids[2], ids[3]]
    library.undo()
    assert library.queue() == ids
    library.set_status(ids[1], "read")
    library.set_status(ids[1], "starred")  # starred again, later: a new star, at the end
    assert library.queue() == [ids[0], ids[2], ids[3], ids[1]]


def test_undoing_a_star_taken_back_or_given_again_restores_the_place(tmp_path: Path) -> None:
    """The queue order is part of an undo step: back to the Inbox (the decision gone, its
    place with it) and undone; read, starred again (a new place at the end), both undone:
    the paper is where it was, and redone where the star put it."""
    library, ids = starred(tmp_path, 4)
    library.set_status(ids[0], "inbox")
    library.undo()
    assert library.queue() == ids
    library.set_status(ids[1], "read")
    library.set_status(ids[1], "starred")
    assert library.queue() == [ids[0], ids[2], ids[3], ids[1]]
    library.undo()
    library.undo()
    assert library.queue() == ids
    library.redo()
    library.redo()
    assert library.queue() == [ids[0], ids[2], ids[3], ids[1]]
    assert Library(library.home).queue() == [ids[0], ids[2], ids[3], ids[1]]


def test_the_order_survives_a_restart(tmp_path: Path) -> None:
    library, ids = starred(tmp_path, 4)
    library.move_in_queue(ids[2], "top")
    again = Library(library.home)
    assert again.queue() == [ids[2], ids[0], ids[1], ids[3]]


def test_papers_starred_before_positions_existed_stand_by_when_starred(tmp_path: Path) -> None:
    """A triage.json of an earlier version has no positions: its stars line up by when they
    were starred, and a new star joins after them."""
    import orjson

    library, ids = starred(tmp_path, 3)
    path = library.triage_path
    data = orjson.loads(path.read_bytes())
    for n, doc in enumerate(data["decisions"].values()):
        doc.pop("q", None)
        doc["at"] = 1_700_000_000 + (10 - n)  # starred in the reverse order
    path.write_bytes(orjson.dumps(data))
    old = Library(library.home)
    assert old.queue() == list(reversed(ids))
    new = [p.id for p in old.papers()][9]
    old.set_status(new, "starred")
    assert old.queue() == [*reversed(ids), new]
    old.move_in_queue(new, 2)
    assert old.queue() == [ids[2], new, ids[1], ids[0]]


def test_moves_into_one_gap_renumber_when_no_room_is_left() -> None:
    statuses = {f"{i:04x}": Status.STARRED for i in range(3)}
    positions = {"0000": 1.0, "0001": 2.0, "0002": 3.0}
    for _ in range(80):  # always between the first two: the gap halves each time
        queue = QueueOrder.of(statuses, positions, {})
        placement = move_to(queue, queue.ids[-1], 1)
        positions.update(placement)
        assert len(QueueOrder.of(statuses, positions, {}).ids) == 3
    assert sorted(positions.values()) == sorted(set(positions.values()))  # all distinct


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 9), st.integers(-2, 12)), max_size=40))
def test_any_moves_give_the_order_asked_for(moves: list[tuple[int, int]]) -> None:
    ids = [f"{i:04x}" for i in range(10)]
    statuses = dict.fromkeys(ids, Status.STARRED)
    positions = {pid: float(i) for i, pid in enumerate(ids)}
    expected = list(ids)
    for which, index in moves:
        pid = ids[which]
        queue = QueueOrder.of(statuses, positions, {})
        positions.update(move_to(queue, pid, index))
        expected.remove(pid)
        expected.insert(max(0, min(index, len(expected))), pid)
        assert list(QueueOrder.of(statuses, positions, {}).ids) == expected


def test_renumbered_writes_only_what_changes() -> None:
    statuses = dict.fromkeys(["aaaa", "bbbb", "cccc"], Status.STARRED)
    queue = QueueOrder.of(statuses, {"aaaa": 1.0, "bbbb": 2.0, "cccc": 3.0}, {})
    assert renumbered(queue, ["aaaa", "cccc", "bbbb"]) == {"cccc": 2.0, "bbbb": 3.0}


def test_a_files_stars_take_its_places_else_its_order() -> None:
    """The stars a file brings keep the places it gives every one of them (our JSON and CSV
    exports); else they are numbered in the queue the file makes: by place, else by when
    starred, else after those, and ties in the file's order (before: by id)."""
    from storage.queue.order import file_places

    assert file_places([("cccc", 7.5, 1.0), ("aaaa", 2.0, None)]) == {"cccc": 7.5, "aaaa": 2.0}
    assert file_places([("dddd", None, None), ("bbbb", None, None), ("cccc", None, None)]) == {
        "dddd": 1.0,
        "bbbb": 2.0,
        "cccc": 3.0,
    }
    mixed = [("eeee", None, None), ("dddd", None, 90.0), ("cccc", 0.0, None), ("aaaa", None, 5.0)]
    assert file_places(mixed) == {"cccc": 1.0, "aaaa": 2.0, "dddd": 3.0, "eeee": 4.0}
    assert file_places([("bbbb", None, 9.0), ("aaaa", None, 9.0)]) == {"bbbb": 1.0, "aaaa": 2.0}


def test_sorts_by_rating_venue_length_and_likeness(tmp_path: Path) -> None:
    from storage.models import Paper
    from storage.queue.sorts import SortFacts

    papers = {
        "aaaa": Paper("aaaa", "A", "a b c", venue_status="Poster", extra=(("rating", 5.0),)),
        "bbbb": Paper("bbbb", "B", "one", venue_status="Oral", extra=(("rating", 8.0),)),
        "cccc": Paper("cccc", "C", "one two", venue_status="Spotlight"),
    }  # fmt: skip
    facts = SortFacts(papers, {"aaaa": 3.0, "bbbb": 1.0, "cccc": 2.0}, {"cccc": 0.9}, {"aaaa": 12})
    ids = ["aaaa", "bbbb", "cccc"]
    assert sort_named("rating").order(ids, facts) == ["bbbb", "aaaa", "cccc"]
    assert sort_named("venue").order(ids, facts) == ["bbbb", "cccc", "aaaa"]
    assert sort_named("length").order(ids, facts) == ["aaaa", "bbbb", "cccc"]  # pages first
    assert sort_named("starred").order(ids, facts) == ["bbbb", "cccc", "aaaa"]
    assert sort_named("likeness").order(ids, facts) == ["cccc", "aaaa", "bbbb"]
    with pytest.raises(ValueError, match="choose from rating"):
        sort_named("colour")


def test_sort_by_likeness_through_the_library(tmp_path: Path) -> None:
    library, ids = starred(tmp_path, 8)
    moves = library.sort_queue("likeness")
    assert sorted(library.queue()) == sorted(ids) and moves


def test_the_starred_export_follows_the_queue(tmp_path: Path) -> None:
    library, ids = starred(tmp_path, 4)
    library.move_in_queue(ids[3], "top")
    triage = library.triage()
    chosen = select(library.papers(), triage.statuses, frozenset({Status.STARRED}), triage)
    assert [p.id for p in chosen] == [ids[3], *ids[:3]]
    text = export(chosen, triage, "markdown")
    titles = [library.paper(pid).display_title[:30] for pid in library.queue()]
    where = [text.index(t.replace("*", "\\*")[:20]) for t in titles]
    assert where == sorted(where)
    everything = select(library.papers(), triage.statuses, frozenset(Status), triage)
    assert [p.id for p in everything] == [p.id for p in library.papers()]  # list order


def test_three_devices_reordering_converge_and_lose_nothing(tmp_path: Path) -> None:
    """Three devices share a queue, each reorders it offline (moves, a sort, a new star, a
    paper read), then they sync in different orders: all three show one order, every
    starred paper in it, each moved paper where its latest move put it."""
    folder = tmp_path / "synced"
    folder.mkdir()
    a = seeded(tmp_path / "a")
    ids = [p.id for p in a.papers()]
    for pid in ids[:10]:
        a.set_status(pid, "starred")
    sync_library(a, folder)
    b, c = Library(tmp_path / "b"), Library(tmp_path / "c")
    sync_library(b, folder), sync_library(c, folder)
    assert b.queue() == c.queue() == a.queue() == ids[:10]

    a.move_in_queue(ids[9], "top")
    a.move_in_queue(ids[4], 2)
    b.move_in_queue(ids[0], "bottom")
    b.set_status(ids[20], "starred")
    b.move_in_queue(ids[20], 3)
    c.sort_queue("rating")  # the sample has no ratings: a stable sort, positions renumbered
    c.move_in_queue(ids[5], "top")
    c.set_status(ids[1], "read")
    rng = random.Random(7)
    libraries = [a, b, c]
    for _ in range(3):
        rng.shuffle(libraries)
        for library in libraries:
            sync_library(library, folder)
    queues = [lib.queue() for lib in (a, b, c)]
    assert queues[0] == queues[1] == queues[2]
    queue = queues[0]
    assert sorted(queue) == sorted({*ids[:10], ids[20]} - {ids[1]})  # nothing lost
    assert a.triage().positions == b.triage().positions == c.triage().positions
    assert queue[0] == ids[5]  # c's move to the top came last of the moves to the top


def test_an_undo_here_leaves_a_position_that_came_from_elsewhere(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import time

    import storage.files.triage_file

    monkeypatch.setattr(storage.files.triage_file, "now", time.time)  # moves ordered as made
    folder = tmp_path / "synced"
    folder.mkdir()
    a = seeded(tmp_path / "a")
    ids = [p.id for p in a.papers()][:4]
    for pid in ids:
        a.set_status(pid, "starred")
    sync_library(a, folder)
    b = Library(tmp_path / "b")
    sync_library(b, folder)
    time.sleep(0.2)  # a sync's stamps run a few ms ahead of the wall clock (one per record)
    b.move_in_queue(ids[3], "top")  # b's step
    time.sleep(0.2)
    a.move_in_queue(ids[3], 2)  # later, elsewhere: it wins, whichever syncs first
    sync_library(b, folder), sync_library(a, folder), sync_library(b, folder)
    assert b.queue() == a.queue() == [ids[0], ids[3], ids[1], ids[2]]
    b.undo()  # b's move is no longer b's to undo: the paper stays where a put it
    assert b.queue() == a.queue()
