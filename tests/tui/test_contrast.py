"""Every built-in theme is readable: each character the app draws stands out from its background.

The app is drawn in each theme (the real widgets with the sample library, a decided, marked,
noted, searched paper on screen) and every text segment of the tab bar, the search box, the
paper list, the paper pane and the key bar is checked: WCAG contrast at least 4.5:1.
"""

from __future__ import annotations

from pathlib import Path

from rich.color import Color
from rich.segment import Segment
from textual.app import App
from textual.geometry import Region
from textual.widget import Widget

from storage import Library
from tests.tui.helpers import make_app, ready, settled, wait_for

MINIMUM = 4.5
#: Characters that draw shapes, not text (borders, scroll thumb, progress bar).
GRAPHICS = set("─│╭╮╰╯▐▌█░▁▂▃▄▅▆▇ ")


def luminance(color: Color) -> float:
    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = color.get_truecolor()
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast(fg: Color, bg: Color) -> float:
    a, b = sorted((luminance(fg), luminance(bg)), reverse=True)
    return (a + 0.05) / (b + 0.05)


def poor_segments(widget: Widget, theme: str) -> list[str]:
    """Text segments of ``widget`` as drawn now whose contrast is under ``MINIMUM``."""
    width, height = widget.size
    found = []
    for y, strip in enumerate(widget.render_lines(Region(0, 0, width, height))):
        for segment in strip:
            assert isinstance(segment, Segment)
            text, style = segment.text, segment.style
            if not text.strip() or set(text) <= GRAPHICS or style is None:
                continue
            fg, bg = style.color, style.bgcolor
            if style.reverse:
                fg, bg = bg, fg
            if fg is None or bg is None or fg.is_default or bg.is_default:
                continue  # the terminal's own colours (the ANSI theme)
            ratio = contrast(fg, bg)
            if ratio < MINIMUM:
                found.append(f"{theme}: {widget.id} line {y} {text.strip()[:30]!r}: {ratio:.2f}")
    return found


async def test_every_builtin_theme_is_readable(seeded_home: Path) -> None:
    lib = Library(seeded_home)
    ids = [p.id for p in lib.papers()]
    lib.set_status(ids[1], "starred")
    lib.set_status(ids[2], "read")
    lib.set_status(ids[3], "skipped")
    lib.set_note(ids[0], "A note to read first.")
    lib.set_tags(ids[0], ["todo"])
    app = make_app(seeded_home)
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await ready(pilot)
        await pilot.press("5", "space", "slash", *"diffusion", "escape")
        await wait_for(pilot, lambda: screen.view.hit_rows is not None)
        await settled(pilot)
        # The ANSI themes draw with the terminal's own palette: their contrast is the terminal's.
        themes = sorted(name for name in App().available_themes if "ansi" not in name)
        assert len(themes) >= 10
        poor: list[str] = []
        for theme in themes:
            app.theme = theme
            await pilot.pause(0.05)
            for selector in ("#tabs", "#search", "#papers", "#detail", "#keys"):
                poor += poor_segments(screen.query_one(selector), theme)
        assert not poor, "\n".join(poor[:40]) + f"\n({len(poor)} in all)"
