"""A long authors text (a collaboration's thousands, or a hostile file's tens of thousands) is
read in time linear in its length: the ``;`` list's people were looked up in a list of them,
one by one, and 20,000 names took 2 s (17 ms before; a file of such rows, minutes)."""

from __future__ import annotations

import time

from storage.sources.authors import MAX_AUTHORS, names_of


def test_a_long_semicolon_list_is_read_in_linear_time() -> None:
    text = "; ".join(f"Lee{i}, Ann" for i in range(20_000))
    started = time.process_time()
    names = names_of(text)
    assert time.process_time() - started < 0.4
    assert len(names) == MAX_AUTHORS
    assert names[:2] == ("Ann Lee0", "Ann Lee1")


def test_a_long_list_beside_an_organization_is_read_in_linear_time() -> None:
    text = "; ".join([*(f"Lee{i}, Ann" for i in range(20_000)), "Google Research"])
    started = time.process_time()
    names = names_of(text)
    assert time.process_time() - started < 0.4
    assert names[0] == "Ann Lee0"
