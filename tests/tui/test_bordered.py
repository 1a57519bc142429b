"""Bordered lines the widgets keep (tui/widgets/bordered.py) are the lines Textual draws."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.segment import Segment
from rich.style import Style
from textual.app import App, ComposeResult
from textual.geometry import Region, Size
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.widget import Widget

from tests.tui.helpers import make_app, ready, settled
from tui.widgets.bordered import BorderedLines
from tui.widgets.paper_list import PaperList
from tui.widgets.paper_pane import PaperPane


def textual_s(widget: Widget, region: Region) -> list[list[Segment]]:
    """The lines as Textual itself draws them (its styles cache, made afresh)."""
    widget.refresh()  # every row of Textual's own cache dirty: drawn now, not remembered
    return [list(strip) for strip in Widget.render_lines(widget, region)]


def ours(widget: Widget, region: Region) -> list[list[Segment]]:
    return [list(strip) for strip in widget.render_lines(region)]


class Lines(BorderedLines, ScrollView):
    """Ten content lines, the same Strip objects every time (as the list and the pane give)."""

    def __init__(self, id: str) -> None:
        super().__init__(id=id)
        self.lines = [
            Strip([Segment(f"line {i} ", Style(color="red")), Segment("tail", Style(bold=True))])
            for i in range(10)
        ]
        self.virtual_size = Size(20, len(self.lines))

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        row = int(self.scroll_offset.y) + y
        line = self.lines[row] if row < len(self.lines) else Strip.blank(width)
        return line.adjust_cell_length(width)


class Boxed(App[None]):
    CSS = """
    Lines { height: 8; border: round red; padding: 0 2; border-title-color: green; }
    #bare { border: none; padding: 0; }
    #outlined { outline: heavy blue; }
    #tinted { tint: magenta 40%; }
    """

    def compose(self) -> ComposeResult:
        for name in ("boxed", "bare", "outlined", "tinted"):
            lines = Lines(id=name)
            lines.border_title = f"the {name} one"
            yield lines


@pytest.mark.parametrize("name", ["boxed", "bare", "outlined", "tinted"])
async def test_lines_are_textual_s_own(name: str) -> None:
    app = Boxed()
    async with app.run_test(size=(40, 40)) as pilot:
        widget = app.query_one(f"#{name}", Lines)
        await pilot.pause()
        whole = Region(0, 0, widget.size.width, widget.size.height)
        assert ours(widget, whole) == textual_s(widget, whole)
        part = Region(3, 2, 9, 3)  # a part of some rows, as the compositor may ask
        assert ours(widget, part) == textual_s(widget, part)
        edges = widget._look_edges
        assert edges is not None
        if name in ("boxed", "bare"):  # plain looks: made by the widget and kept
            assert (
                edges[1] is not None
                and widget.render_lines(whole)[3] is widget.render_lines(whole)[3]
            )
        else:  # an outline or a tint: Textual draws every row
            assert edges[1] is None


async def test_the_list_and_the_pane_draw_as_textual_does(seeded_home: Path) -> None:
    app = make_app(seeded_home)
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await ready(pilot)
        await settled(pilot)
        for widget in (screen.query_one(PaperList), screen.query_one(PaperPane)):
            for focused in (True, False):
                screen.set_focus(widget if focused else screen.search_box)
                await pilot.pause(0.1)
                whole = Region(0, 0, widget.size.width, widget.size.height)
                assert ours(widget, whole) == textual_s(widget, whole), (widget, focused)
                edges = widget._look_edges
                assert edges is not None and edges[1] is not None  # the widget's own lines
