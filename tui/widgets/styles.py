"""Component styles as drawn: colours blended over their background, and always readable.

``get_component_rich_style(name, partial=True)`` leaves a colour with alpha unblended, and
the terminal then shows it at full strength: ``$text-muted`` came out white on every theme,
unreadable on the light ones. The full style blends, but also carries the widget's own
background, which would paint over a cursor or a mark. ``component_style`` keeps what the
component sets (text style, colour, background), blended, and moves a text colour that is too
close to its background (a theme's accent on its own surface) towards black or white until
it reads at WCAG's 4.5:1: its hue stays, so meaning by colour survives every theme.
"""

from __future__ import annotations

from rich.color import Color as RichColor
from rich.style import Style
from textual.color import BLACK, WHITE, Color
from textual.widget import Widget

#: WCAG AA contrast for normal text.
READABLE = 4.5


def _luminance(color: Color) -> float:
    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(color.r) + 0.7152 * channel(color.g) + 0.0722 * channel(color.b)


def contrast(fg: Color, bg: Color) -> float:
    """WCAG contrast ratio of two colours (1 to 21)."""
    high, low = sorted((_luminance(fg), _luminance(bg)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def readable(fg: Color, bg: Color, minimum: float = READABLE) -> Color:
    """``fg``, or the least change of it towards black or white that reads on ``bg``."""
    if contrast(fg, bg) >= minimum:
        return fg
    target = WHITE if contrast(WHITE, bg) > contrast(BLACK, bg) else BLACK
    for step in range(1, 11):
        moved = fg.blend(target, step / 10)
        if contrast(moved, bg) >= minimum:
            return moved
    return target


def component_style(widget: Widget, name: str) -> Style:
    """The style of component class ``name`` of ``widget``: its colours blended, and its
    text colour readable on the background it is drawn on."""
    partial = widget.get_component_rich_style(name, partial=True)
    full = widget.get_component_rich_style(name)
    color = readable_style(full).color if partial.color else None
    return partial + Style(color=color, bgcolor=full.bgcolor if partial.bgcolor else None)


def readable_style(style: Style) -> Style:
    """``style`` with its text colour made readable on its own background."""
    if style.color is None or style.bgcolor is None:
        return style
    fg, bg = Color.from_rich_color(style.color), Color.from_rich_color(style.bgcolor)
    fixed = readable(fg, bg)
    if fixed is fg:
        return style
    return style + Style(color=RichColor.from_rgb(fixed.r, fixed.g, fixed.b))
