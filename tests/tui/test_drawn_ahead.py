"""What a keystroke draws: the rows that changed, lines made ahead and reused, one writer held.

The figures of issue 13 are measured by ``benchmarks.glass``; these tests hold the mechanisms
those figures rest on: a ``j`` repaints two rows of the list (not the list), a decided paper
leaving the Inbox moves rows drawn before (the same strips, not new ones), what the list and
the pane would show after the next key or another tab is drawn while the user reads, and the
decision's write waits for the frame that shows it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.geometry import Region
from textual.strip import Strip

from tests.tui.helpers import make_app, ready, settled
from tui import session as session_module
from tui.screens.main.base import TABS_AHEAD_AFTER_S
from tui.widgets.paper_pane import PaperPane

SIZE = (120, 36)


class Counting:
    """Counts the calls of a method of one object (wrapped on the instance)."""

    def __init__(self, target: object, name: str) -> None:
        self.calls = 0
        wrapped = getattr(target, name)

        def counted(*args: object, **kwargs: object) -> object:
            self.calls += 1
            return wrapped(*args, **kwargs)

        setattr(target, name, counted)


async def test_j_makes_two_rows_of_the_list_anew(seeded_home: Path) -> None:
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        plist = screen.paper_list
        await settled(pilot)
        await pilot.pause(0.2)
        made = Counting(plist, "_render_paper")
        await pilot.press("j")
        await pilot.pause(0.05)
        assert plist.cursor == 1
        assert made.calls <= 2  # the row the cursor left, the row it came to (drawn ahead)
        assert "2 / 38" in str(plist.border_title)  # the title moved too


async def test_rows_a_decision_moves_up_are_not_styled_again(seeded_home: Path) -> None:
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        plist = screen.paper_list
        await pilot.press("j")  # (a key: the list is drawn as it is once focused)
        await settled(pilot)
        await pilot.pause(0.2)  # the list after r, x or s is drawn ahead meanwhile
        asked, made = [0], [0]  # content rows asked for in frames, and bordered anew there
        draw, line, join = plist.render_lines, plist.render_line, plist._join

        def drawing(crop: Region) -> list[Strip]:
            plist.render_line = asking  # type: ignore[method-assign]
            plist._join = joining  # type: ignore[method-assign]
            try:
                return draw(crop)
            finally:
                plist.render_line, plist._join = line, join  # type: ignore[method-assign]

        def asking(y: int) -> Strip:
            asked[0] += 1
            return line(y)

        def joining(*args: Any) -> Strip:
            made[0] += 1
            return join(*args)

        plist.render_lines = drawing  # type: ignore[method-assign]
        before = plist.paper_at(plist.cursor + 1)
        await pilot.press("r")
        await pilot.pause(0.05)
        assert plist.current is before  # the next paper moved up under the cursor
        assert asked[0] >= plist.size.height - 3  # every row was drawn again (all moved)…
        assert made[0] == 0  # …from bordered lines made ahead


async def test_the_list_is_drawn_ahead_where_show_will_land(seeded_home: Path) -> None:
    app = make_app(seeded_home)
    async with app.run_test(size=(100, 20)) as pilot:
        screen = await ready(pilot)
        plist = screen.paper_list
        await settled(pilot)
        papers = list(plist.papers)
        everything = list(range(len(papers)))
        odd = everything[1::2]
        cases = [
            (everything, None, 0),
            (everything, papers[30].id, 0),  # out of view: centred
            (odd, papers[3].id, 0),
            (odd, papers[4].id, 5),  # not in the rows: the cursor row
            (odd, None, 500),  # past the end: the last row
            (everything[:3], None, 2),
        ]
        for rows, keep, cursor in cases:
            expected = plist.prepare(rows, keep, cursor)
            screen.view.listed = list(rows)  # as the view lists them
            plist.show(keep=keep, cursor=cursor)
            await pilot.pause()
            assert plist.current is expected, (keep, cursor)


async def test_another_tab_shows_the_paper_wrapped_ahead(seeded_home: Path) -> None:
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        pane = screen.query_one(PaperPane)
        for key in "rrs":
            await pilot.press(key)
        await settled(pilot)
        await pilot.pause(TABS_AHEAD_AFTER_S + 0.3)
        first_read = screen.paper_list.papers[screen.view.tab_rows("read")[0]]
        wrapped = [lines for paper, _text, lines in pane._wrapped.values() if paper is first_read]
        assert wrapped, "the Read tab's first paper was not wrapped ahead"
        await pilot.press("3")
        await pilot.pause(0.05)
        assert screen.view.tab == "read" and pane.shown is not None
        assert pane.shown.paper is first_read
        assert any(pane._lines is lines for lines in wrapped)  # not wrapped again


async def test_a_decision_is_written_after_its_frame(
    seeded_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The writer waits for the frame at most HOLD_LIMIT_S (0.1 s): on a loaded machine a
    # frame takes longer and the write goes first, as meant. The order is what is tested.
    monkeypatch.setattr(session_module, "HOLD_LIMIT_S", 30.0)
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        await settled(pilot)
        session = app.session
        held: list[bool] = []
        persist = session._persist

        def noting(op: object) -> object:
            held.append(screen._after_frame is not None)  # callbacks still waiting: held
            return persist(op)  # type: ignore[arg-type]

        session._persist = noting  # type: ignore[method-assign]
        await pilot.press("r")
        await settled(pilot)
        assert held == [False]  # written, and only once the frame's callbacks had run
        assert app.library.status(screen.view.papers[0].id).value == "read"
