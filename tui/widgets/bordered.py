"""Bordered lines made once per content line and kept by the widget, so a line that moves is
not made again.

Textual adds a widget's border and padding to every line its ``render_line`` gives (~45 µs a
row) and makes a new ``Strip`` of it each frame the row is repainted, so the escape codes
Textual keeps on a strip are made again too. A whole repaint (a decided paper leaving the
list: every row below it moves up; the list's title, on its border, changing with every key)
or a new paper in the pane cost that for every row, yet a row that moved shows a line bordered
a frame ago.

``BorderedLines`` (a mixin, before ``ScrollView``) keeps the bordered line made from each
content line, in an LRU cache of strips the widget owns, keyed by the content strip (the list
and the pane give back the same ``Strip`` object for the same content, from caches of their
own): a row that moved is the same strip, and Textual's filter, crop and escape-code caches on
it are hit too. ``warm_lines`` makes and encodes ahead the lines the next key most likely
shows (``MainBase.prepare_neighbours``), so that its frame finds them made.

Only Textual's public API is used: the widget's own ``render_lines``, ``Strip``,
``get_line_filters``. The border and the padding stay Textual's: for each look of the widget
(border, padding, colours, size, filters) one content row is drawn by Textual and its two edges
are taken from it, and kept only if they give back that very line; the border rows, and any
look the edges cannot make (an outline, a tint, an opacity, a hatch), are drawn by Textual as
usual.

What it buys (benchmarks.glass at 12,000 papers, the app with and without these lines side by
side, key by key, the same draw-ahead in both): j/k settles 5.8 / 10.6 ms sooner (p50 / p95),
r/x/s 14.6 / 1.3 ms, tab 6.4 / 6.8 ms. It replaces a subclass of Textual's private
``StylesCache`` swapped into the widgets, which bought the same.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable

from textual.cache import LRUCache
from textual.geometry import Region
from textual.message import Message
from textual.strip import Strip
from textual.widget import Widget

#: Bordered lines kept per widget (a screenful is ~35; the pane keeps a few papers' worth).
KEPT = 1024

#: The left and right edges of a content row (border and padding), as Textual draws them.
Edges = tuple[Strip, Strip]


class BorderedLines(Widget):
    """A widget (a ``ScrollView``) whose bordered content lines are made once per content
    line. Its ``render_line`` must give back the same ``Strip`` object for the same content
    to gain anything."""

    class Drawn(Message):
        """The widget's lines went into a frame (posted as the frame is made, so handled once
        it is on its way to the terminal: ``tui/frames.py`` runs after-frame work on it)."""

        def __init__(self, at: float) -> None:
            self.at = at  #: when (``time.monotonic``) the lines were drawn
            super().__init__()

    #: The look the edges were taken for, and the edges (None: Textual draws every row).
    _look_edges: tuple[Hashable, Edges | None] | None = None
    _bordered: LRUCache[int, tuple[Strip, Strip]] | None = None

    def _look(self) -> Hashable:
        """What, besides the content line, a bordered line depends on."""
        styles = self.styles
        return (
            styles.border,
            styles.outline,
            styles.padding,
            styles.tint,
            styles.text_opacity,
            styles.hatch if styles.has_rule("hatch") else None,
            self.opacity,
            self.region.size,
            self.content_region.size,
            self.background_colors,
            tuple(map(id, self.get_line_filters())),
        )

    def _edges(self) -> Edges | None:
        """The edges of this look (made when the look changed), or None for Textual's way."""
        look = self._look()
        if self._look_edges is None or self._look_edges[0] != look:
            self._look_edges = (look, self._take_edges())
            self._bordered = LRUCache(KEPT)  # lines with the old edges go
        return self._look_edges[1]

    def _take_edges(self) -> Edges | None:
        """Draw the first content row Textual's way and take its edges, if they make it."""
        styles = self.styles
        plain = (
            not any(edge for edge, _color in styles.outline)
            and not styles.tint.a
            and styles.text_opacity == 1.0
            and self.opacity == 1.0
            and not (styles.has_rule("hatch") and styles.hatch != "none")
        )
        width = self.region.width
        gutter = styles.gutter
        content_width, content_height = self.content_region.size
        if not plain or content_height <= 0 or content_width <= 0:
            return None
        content = self.render_line(0)
        if content.cell_length != content_width:
            return None
        drawn = super().render_lines(Region(0, gutter.top, width, 1))[0]
        edges = (drawn.crop(0, gutter.left), drawn.crop(width - gutter.right, width))
        if list(self._join(content, edges)) != list(drawn):
            return None
        return edges

    def _join(self, content: Strip, edges: Edges) -> Strip:
        left, right = edges
        line = content
        background = self.background_colors[1]
        for line_filter in self.get_line_filters():
            line = line.apply_filter(line_filter, background)
        width = left.cell_length + line.cell_length + right.cell_length
        return Strip([*left, *line, *right], width)

    def _bordered_line(self, content: Strip, edges: Edges) -> Strip:
        kept = self._bordered.get(id(content)) if self._bordered is not None else None
        if kept is not None and kept[0] is content:
            return kept[1]
        line = self._join(content, edges)
        if self._bordered is not None:
            self._bordered[id(content)] = (content, line)
        return line

    def render_lines(self, crop: Region) -> list[Strip]:
        screen = self.screen
        # Said only to a screen that waits for it (``waiting_for_frame``: tui/frames.py) and
        # shows: under a dialog these lines are drawn again for every frame of the dialog's,
        # and a message each time kept the app drawing them (a key in a dialog: 1.7 s).
        if screen.is_current and getattr(screen, "waiting_for_frame", False):
            self.post_message(self.Drawn(time.monotonic()))
        edges = self._edges()
        if edges is None:
            return super().render_lines(crop)
        top = self.styles.gutter.top
        width = self.region.width
        content_width, content_height = self.content_region.size
        strips: list[Strip] = []
        for y in crop.line_range:
            content = self.render_line(y - top) if 0 <= y - top < content_height else None
            if content is not None and content.cell_length == content_width:
                strips.append(self._bordered_line(content, edges))
            else:  # a border row (its title), or a line of another width: Textual's
                strips.append(super().render_lines(Region(0, y, width, 1))[0])
        if crop.column_span != (0, width):
            x1, x2 = crop.column_span
            strips = [strip.crop(x1, x2) for strip in strips]
        return strips

    def warm_lines(self, content: Callable[[int], Strip], rows: int) -> None:
        """Make the bordered lines of content rows ``0..rows-1`` (``content(y)`` gives each)
        and their escape codes, as a frame showing them would: called once a frame is out,
        for what the next key most likely shows, so that its frame finds them made."""
        if not self.is_mounted or self._look_edges is None:
            return
        look, edges = self._look_edges
        if edges is None or look != self._look():
            return  # drawn Textual's way, or a new look: the next frame takes its edges
        console = self.app.console
        for y in range(min(rows, self.content_region.height)):
            self._bordered_line(content(y), edges).render(console)
