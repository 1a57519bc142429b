"""Bordered lines made once per content line, so a line that moves is not made again.

Textual's ``StylesCache`` adds a widget's border, padding and tint to each content line and
caches the result by row. A whole-widget repaint (a decided paper leaving the list: every
row below it moves up one) empties that cache, so every row is styled again (~45 µs a row),
and each new strip is filtered and turned into escape codes again. Yet the row that moved
shows a paper whose bordered line was made a frame ago.

``ComposedLines`` keeps that result by *content line*: when a widget's ``render_line`` gives
back the same ``Strip`` object as before (the list and the pane keep theirs), the bordered
strip made from it is given back too, and Textual's filter, divide and escape-code caches,
all kept on the strip, are hit as well. Widgets opt in by setting ``_styles_cache`` to one
(``use_composed_lines``); anything unusual about the styles (an outline) takes Textual's path.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

from textual._styles_cache import StylesCache
from textual.cache import LRUCache
from textual.css.styles import StylesBase
from textual.geometry import Size
from textual.strip import Strip
from textual.widget import Widget

#: The Textual code this module extends, by the SHA-256 (first 16 hex digits) of its source
#: in the pinned Textual (checked by a test, as tui/frames.py's): if ``render_line`` starts to
#: depend on the row other than through the content line, the reuse here would be wrong.
UPSTREAM = {
    "textual._styles_cache.StylesCache.render": "9cb213088b890263",
    "textual._styles_cache.StylesCache.render_line": "fea8e1f875d5810f",
}

#: Bordered lines kept per widget (a screenful is ~35; the pane keeps a few papers' worth).
KEPT = 1024


class ComposedLines(StylesCache):
    """A ``StylesCache`` that reuses the bordered line made from the same content line."""

    def __init__(self) -> None:
        super().__init__()
        self._by_content: LRUCache[int, tuple[Strip, Hashable, Strip]] = LRUCache(KEPT)
        #: What, besides the content line, a bordered line depends on (set per ``render``).
        self._frame: Hashable = None
        self._content_rows = range(0)

    def _begin(self, styles: StylesBase, size: Size) -> None:
        """Work out, once per frame, which rows are content rows and what else a bordered
        line depends on."""
        if any(edge for edge, _color in styles.outline):
            self._content_rows = range(0)  # Textual's path for every row
        else:
            gutter = styles.gutter
            self._content_rows = range(gutter.top, size.height - gutter.bottom)
        self._frame = (
            styles.border,
            styles.tint,
            styles.text_opacity,
            styles.hatch if styles.has_rule("hatch") else None,
        )

    def render(self, styles: StylesBase, *args: Any, **kwargs: Any) -> list[Strip]:
        self._begin(styles, args[0])  # args[0]: the widget's size
        return super().render(styles, *args, **kwargs)

    def warm(self, widget: Widget, content: Callable[[int], Strip], rows: int) -> None:
        """Make the bordered lines of content rows ``0..rows-1`` (``content(y)`` gives each)
        and their escape codes, as a frame showing them would: called once a frame is out,
        for what the next key most likely shows, so that its frame finds them made."""
        if not widget.is_mounted or not widget.size:
            return
        styles, size, app = widget.styles, widget.region.size, widget.app
        self._begin(styles, size)
        base_background, background = widget.background_colors
        content_size = widget.content_region.size
        filters = widget.get_line_filters()
        for content_y in range(min(rows, content_size.height, len(self._content_rows))):
            line = self.render_line(
                styles,
                self._content_rows.start + content_y,
                size,
                content_size,
                styles.padding,
                base_background,
                background,
                content,
                None,
                None,
                widget.opacity,
                app.ansi_theme,
                app.native_ansi_color,
            )
            for line_filter in filters:
                line = line.apply_filter(line_filter, background)
            line.render(app.console)

    def render_line(
        self,
        styles: StylesBase,
        y: int,
        *args: Any,
    ) -> Strip:
        size, content_size, padding, base_background, background, render_content_line = args[:6]
        content_y = y - self._content_rows.start
        if y not in self._content_rows or content_y >= content_size.height:
            return super().render_line(styles, y, *args)
        content = render_content_line(content_y)
        frame = (self._frame, size, content_size, padding, base_background, background, *args[8:])
        kept = self._by_content.get(id(content))
        if kept is not None and kept[0] is content and kept[1] == frame:
            return kept[2]
        rest = list(args)
        rest[5] = _just(content)
        line = super().render_line(styles, y, *rest)
        self._by_content[id(content)] = (content, frame, line)
        return line


def _just(content: Strip) -> Callable[[int], Strip]:
    return lambda _y: content


def use_composed_lines(widget: Widget) -> None:
    """Make ``widget`` reuse bordered lines (its ``render_line`` must return the same strip
    objects for the same content to gain anything)."""
    widget._styles_cache = ComposedLines()
