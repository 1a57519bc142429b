"""The suite's own ordering: each worker's run starts with its share of the slow tests."""

from __future__ import annotations

from tests.ordering import shares, spread_first


def test_each_worker_starts_with_a_slow_test_and_nothing_is_lost() -> None:
    items = list(range(103))
    slow = {5: 9.0, 40: 30.0, 77: 20.0, 90: 20.0, 101: 1.0, 102: 50.0}
    ordered = spread_first(items, lambda i: slow.get(i, 0.0), 4)
    assert sorted(ordered) == items
    heads, start = [], 0
    for size in shares(len(items), 4):
        run = ordered[start : start + size]
        heads.append([i for i in run if i in slow])
        assert run[: len(heads[-1])] == heads[-1]  # the slow ones at the head of the run
        start += size
    assert heads == [[102, 5], [40, 101], [77], [90]]  # the longest first, in turn
    rest = [i for i in ordered if i not in slow]
    assert rest == [i for i in items if i not in slow]  # the others keep their order


def test_without_workers_the_slow_tests_simply_come_first() -> None:
    assert spread_first([1, 2, 3, 4], lambda i: i % 2 == 0, 1) == [2, 4, 1, 3]
    assert spread_first([1, 2], lambda i: 0, 4) == [1, 2]
    assert shares(10, 4) == [2, 2, 3, 3] and sum(shares(7, 3)) == 7
