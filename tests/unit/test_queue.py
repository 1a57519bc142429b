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
from storage.queue import QueueOrder, move_to, reordered, sort_named
from storage.queue.order import MAX_DEPTH, Placement, depth, place_json, place_of
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


def test_stars_within_one_second_keep_their_order_in_the_sort_by_when_starred(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Papers starred a few milliseconds apart (``s`` pressed on paper after paper): their
    times were whole seconds, one alike for all, and the sort by when they were starred kept
    the order the moves gave them instead."""
    import itertools

    import storage.files.triage_file

    clock = (1_700_000_000 + n / 1000 for n in itertools.count(100, 7))
    monkeypatch.setattr(storage.files.triage_file, "now", lambda: next(clock))
    library, ids = starred(tmp_path, 4)
    library.move_in_queue(ids[3], "top")
    library.move_in_queue(ids[0], "bottom")
    library.sort_queue("starred")
    assert library.queue() == ids
    assert len(set(library.triage().decided_at.values())) == 4


def test_an_undo_step_of_a_sort_names_the_sort_and_one_of_moves_none(tmp_path: Path) -> None:
    """A sort's step said only what it moved: the app's undo said "Undid a move in the
    reading queue: 5 papers", as for a paper moved by hand."""
    library, ids = starred(tmp_path, 5)
    library.move_in_queue(ids[4], "top")
    library.sort_queue("starred")
    undone = library.undo_step()
    assert undone.moves and undone.sort == "starred"
    assert library.redo_step().sort == "starred"
    library.undo()
    assert library.undo_step().sort == ""  # the move by hand
    state = library.triage()
    queue = QueueOrder.of(state.statuses, state.positions, state.decided_at)
    placement = reordered(queue, list(reversed(ids)))
    assert library.place_in_queue(placement, sort="venue")  # the app's sort, written so
    assert library.undo_step().sort == "venue"


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


def moved(positions: dict[str, float], pid: str, index: int) -> Placement:
    """Move ``pid`` to ``index`` of the queue the (all starred) ``positions`` make: the
    places written, which are applied to ``positions``."""
    statuses = dict.fromkeys(positions, Status.STARRED)
    placement = move_to(QueueOrder.of(statuses, positions, {}), pid, index)
    positions.update(placement)
    return placement


def in_order(positions: dict[str, float]) -> list[str]:
    statuses = dict.fromkeys(positions, Status.STARRED)
    return list(QueueOrder.of(statuses, positions, {}).ids)


def test_a_move_into_tied_places_changes_only_the_paper_moved() -> None:
    """Papers starred on two devices before they synced stand at one number each two:
    [1, 1, 2, 2, 3, 3]. A move between two of them numbered the whole queue again (the move
    sent 5 queue moves, and wiped out a sort made on the other device); every move, to every
    place, now writes the place of the one paper moved, and the queue is in the order asked."""
    ids = ["0a1b", "3c4d", "5e6f", "7a8b", "9c0d", "beef"]
    start = {pid: float(1 + i // 2) for i, pid in enumerate(ids)}
    for pid in ids:
        for index in range(len(ids)):
            positions = dict(start)
            expected = in_order(positions)
            expected.remove(pid)
            expected.insert(index, pid)
            placement = moved(positions, pid, index)
            assert set(placement) <= {pid}, (pid, index, placement)
            assert in_order(positions) == expected
            assert all(place_of(place_json(p)) == p for p in placement.values())  # as sent


def test_thousands_of_moves_into_one_gap_change_only_the_paper_moved() -> None:
    """Each paper moved between the head and the one moved before it halves the gap: after
    some fifty no number is left between them, and the whole queue was numbered again. Now a
    move there takes a place under the head's, and each of 5,000 writes one place."""
    positions = {"0000": 1.0, "0001": 2.0, "0002": 3.0, "0003": 4.0}
    for n in range(5000):
        order = in_order(positions)
        pid = order[-1]
        assert moved(positions, pid, 1).keys() == {pid}, n
        assert in_order(positions) == [order[0], pid, *order[1:-1]]
    assert max(map(depth, positions.values())) <= 2  # a path of two levels, never deeper


def test_moves_into_the_middle_of_the_last_move_go_deeper_then_make_little_room() -> None:
    """The worst a gap can be: each paper moved into the middle of the one moved before it
    and its neighbour, thousands of times. Each level of a path has room for some fifty such
    moves; past ``MAX_DEPTH`` levels a move gives a few papers about the gap shallower places
    (never the whole queue), and every place stays one a record may carry."""
    ids = [f"{i:04x}" for i in range(10)]
    positions = {pid: float(i) for i, pid in enumerate(ids)}
    last, made_room = ids[3], 0
    for n in range(4000):
        order = in_order(positions)
        here = order.index(last)
        pid = order[0] if here > 1 else order[-1]
        others = [p for p in order if p != pid]
        index = others.index(last) + n % 2
        placement = moved(positions, pid, index)
        others.insert(index, pid)
        assert in_order(positions) == others and pid in placement
        assert len(placement) <= 3, (n, placement)  # the paper, and a neighbour or two
        made_room += len(placement) > 1
        last = pid
    assert 0 < made_room < 40
    assert all(place_of(place_json(p)) == p for p in positions.values())
    assert max(map(depth, positions.values())) <= MAX_DEPTH


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.integers(0, 3), min_size=10, max_size=10),
    st.lists(st.tuples(st.integers(0, 9), st.integers(-2, 12)), max_size=40),
)
def test_any_moves_give_the_order_asked_for(start: list[int], moves: list[tuple[int, int]]) -> None:
    """From any places, ties among them (four numbers for ten papers), each move puts its
    paper where it was asked, and writes its place alone."""
    ids = [f"{i:04x}" for i in range(10)]
    positions = {pid: float(n) for pid, n in zip(ids, start, strict=True)}
    expected = in_order(positions)
    for which, index in moves:
        pid = ids[which]
        placement = moved(positions, pid, index)
        assert set(placement) <= {pid}
        expected.remove(pid)
        expected.insert(max(0, min(index, len(expected))), pid)
        assert in_order(positions) == expected


@settings(max_examples=80, deadline=None)
@given(
    st.lists(st.integers(0, 2), min_size=8, max_size=8),
    st.lists(st.tuples(st.integers(0, 1), st.integers(0, 7), st.integers(0, 7)), max_size=30),
)
def test_two_devices_moving_apart_merge_each_later_move_winning(
    start: list[int], moves: list[tuple[int, int, int]]
) -> None:
    """Two devices share a queue with tied places and each moves papers, the moves made one
    after another across them; each paper's place is a register, the later write winning.
    Merged, each device's queue holds: the papers the other device moved last aside, the
    merged queue orders the rest as that device does. A move that wrote other papers' places
    (the whole queue numbered again) broke it: the paper moved stood among another device's
    numbers."""
    ids = [f"{i:04x}" for i in range(8)]
    initial = {pid: float(n) for pid, n in zip(ids, start, strict=True)}
    devices = [dict(initial), dict(initial)]
    written: dict[str, tuple[int, float]] = {}  # paper → (device, place) of its last write
    last_moved: dict[str, int] = {}  # paper → the device that moved it last
    for device, which, index in moves:
        pid = ids[which]
        placement = moved(devices[device], pid, index)
        for paper, place in placement.items():
            written[paper] = (device, place)
        if placement:  # (a paper where it was asked already: no move, nothing written)
            last_moved[pid] = device
    merged = dict(initial) | {pid: place for pid, (_d, place) in written.items()}
    for device, theirs in enumerate(devices):
        kept = [pid for pid in ids if last_moved.get(pid, device) == device]
        shown = [pid for pid in in_order(merged) if pid in kept]
        assert shown == [pid for pid in in_order(theirs) if pid in kept]


def test_a_sort_writes_the_fewest_places() -> None:
    """A sort gives new places to the fewest papers that give its order, and no other: it
    numbered every place 1, 2, 3… anew, each a change that in sync beat the moves of those
    papers made elsewhere (and undo said it moved back papers the sort had not moved)."""
    statuses = dict.fromkeys(["aaaa", "bbbb", "cccc", "dddd"], Status.STARRED)
    queue = QueueOrder.of(statuses, {"aaaa": 1.0, "bbbb": 1.5, "cccc": 3.0, "dddd": 4.0}, {})
    assert reordered(queue, ["aaaa", "dddd", "bbbb", "cccc"]) == {"dddd": 1.25}
    assert reordered(queue, ["dddd", "aaaa", "bbbb", "cccc"]) == {"dddd": 0.0}
    assert reordered(queue, list(queue.ids)) == {}
    tied = QueueOrder.of(statuses, dict.fromkeys(statuses, 1.0), {})
    placement = reordered(tied, ["dddd", "cccc", "bbbb", "aaaa"])
    assert len(placement) == 3
    positions = dict.fromkeys(statuses, 1.0) | placement
    assert in_order(positions) == ["dddd", "cccc", "bbbb", "aaaa"]


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


def test_places_under_another_paper_go_through_the_exports_and_back(tmp_path: Path) -> None:
    """A place under another paper's (a path) is written by the JSON export as a list and by
    the CSV export as that list's JSON text; each reads back as the place it was: a library
    that imports the export has the queue in the same order."""
    library, ids = starred(tmp_path, 4)
    tied, (third, mover) = sorted(ids)[:2], sorted(ids)[2:]
    library.place_in_queue({tied[0]: 1.0, tied[1]: 1.0, third: 2.0, mover: 3.0})
    library.move_in_queue(mover, 2)  # between the two tied, its id after both
    path = library.triage().positions[mover]
    assert isinstance(path, tuple) and library.queue() == [tied[0], mover, tied[1], third]
    triage = library.triage()
    chosen = select(library.papers(), triage.statuses, frozenset({Status.STARRED}), triage)
    for kind in ("json", "csv"):
        written = tmp_path / f"queue.{kind}"
        written.write_text(export(chosen, triage, kind), encoding="utf-8")
        other = Library(tmp_path / kind)
        other.import_files([written])
        assert other.queue() == library.queue(), kind
        assert other.triage().positions[mover] == path


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
    c.sort_queue("rating")  # the sample has no ratings: a stable sort, no place written
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


def test_places_given_to_make_room_lose_to_a_move_of_theirs_made_elsewhere(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where a move must give a neighbour a place too (past ``MAX_DEPTH``: here 1, so that a
    move between two tied papers does), the neighbour's place keeps when it was last chosen:
    a move of that paper made on another device before, and synced after, still wins. The
    move that made room, made later, numbered the whole queue again and beat it."""
    import storage.queue.order

    folder = tmp_path / "synced"
    folder.mkdir()
    a = seeded(tmp_path / "a")
    ids = [p.id for p in a.papers()]
    for pid in ids[:4]:
        a.set_status(pid, "starred")
    sync_library(a, folder)
    b = Library(tmp_path / "b")
    sync_library(b, folder)
    a.set_status(ids[4], "starred")  # each at the end of its queue: one place, two papers
    b.set_status(ids[5], "starred")
    sync_library(a, folder), sync_library(b, folder), sync_library(a, folder)
    first, second = sorted(ids[4:6])
    assert a.queue() == b.queue() == [*ids[:4], first, second]
    assert a.triage().positions[first] == a.triage().positions[second]

    b.move_in_queue(second, "top")  # first, on b
    monkeypatch.setattr(storage.queue.order, "MAX_DEPTH", 1)
    mover = next(pid for pid in ids[:4] if not first < pid < second)  # (its id: no tie)
    rest = [pid for pid in ids[:4] if pid != mover]
    moves = a.move_in_queue(mover, 5)  # later, on a: between the two tied, room made
    assert {move[0] for move in moves} == {mover, second}  # one neighbour, not the queue
    assert a.queue() == [*rest, first, mover, second]
    sync_library(a, folder), sync_library(b, folder), sync_library(a, folder)
    assert a.queue() == b.queue() == [second, *rest, first, mover]


def test_a_place_is_a_number_or_a_path_and_records_carry_no_other() -> None:
    """What a device sends as a place is checked as it is read: a number, or a path of the
    shape ``move_to`` makes (numbers and paper ids in turn, ``MAX_DEPTH`` levels at most);
    anything else is no record (skipped, as a later version's kind is)."""
    import orjson

    from storage.sync.records import parse_record

    def read(value: object) -> object:
        found = parse_record(orjson.dumps(["q", 1_700_000_000_000, "ab12", "cd34", value]))
        return None if found is None else found.value

    deepest = [1.0, *["ab12", 1.0] * (MAX_DEPTH - 1)]
    for good in (3, 2.5, -4.0, None, [2.0, "ab12", 1.0], deepest):
        assert read(good) == good
    for bad in (
        [1.0], [1.0, "ab12"], [1.0, 2.0, 3.0], [1.0, "", 2.0], [1.0, "a" * 33, 2.0],
        [*deepest, "ab12", 1.0], [1e16, "ab12", 1.0], 1e15, True, "3", {"q": 1},
    ):  # fmt: skip
        assert read(bad) is None, bad


def test_a_sort_between_places_as_deep_as_they_go_numbers_the_queue() -> None:
    """Papers tied at a place of the deepest level (a file may give them): a sort gave one a
    place a level deeper, which no reader takes; the paper fell to the end, and undo skipped
    the step it could not read."""
    from storage.queue.order import MAX_DEPTH, QueueOrder, depth, place_of, reordered

    deep = place_of([1.0, *(["abcd", 1.0] * (MAX_DEPTH - 1))])
    assert deep is not None and depth(deep) == MAX_DEPTH
    starred = {pid: Status.STARRED for pid in ("aaaa", "bbbb", "cccc")}
    queue = QueueOrder.of(starred, dict.fromkeys(starred, deep), {})
    placement = reordered(queue, ["aaaa", "cccc", "bbbb"])
    assert all(depth(place) <= MAX_DEPTH for place in placement.values())
    after = QueueOrder.of(starred, {**dict.fromkeys(starred, deep), **placement}, {})
    assert list(after.ids) == ["aaaa", "cccc", "bbbb"]


def test_a_move_among_hundreds_tied_at_the_deepest_level_orders_the_queue_anew() -> None:
    """Each window about the gap was tried in turn, every size: cubic in the papers tied
    there (400: 1.4 s; a thousand: tens of seconds). Past a window of 32 the queue is
    ordered anew, the move where it was asked."""
    from storage.queue.order import MAX_DEPTH, QueueOrder, depth, move_to, place_of

    deep = place_of([1.0, *(["abcd", 1.0] * (MAX_DEPTH - 1))])
    assert deep is not None
    ids = [f"{i:08x}" for i in range(400)]
    starred = dict.fromkeys(ids, Status.STARRED)
    queue = QueueOrder.of(starred, dict.fromkeys(ids, deep), {})
    moved = queue.ids[0]
    placement = move_to(queue, moved, 200)
    assert all(depth(place) <= MAX_DEPTH for place in placement.values())
    after = QueueOrder.of(starred, {**dict.fromkeys(ids, deep), **placement}, {})
    assert list(after.ids).index(moved) == 200
    assert [p for p in after.ids if p != moved] == [p for p in queue.ids if p != moved]
