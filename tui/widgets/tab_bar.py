"""The tab bar: one tab per status with its live count, and the overall progress."""

from __future__ import annotations

from collections.abc import Mapping

from rich.style import Style
from rich.text import Text
from textual import events
from textual.message import Message
from textual.widgets import Static

from tui.view import TABS
from tui.widgets.styles import component_style

SHORT_LABELS = {"inbox": "In", "starred": "★", "read": "✓", "skipped": "✗", "all": "All"}
#: Narrower than this, tabs show short labels and no progress bar.
SHORT_WIDTH = 70


class TabBar(Static):
    """Tabs with live counts and overall progress; click a tab to show it."""

    COMPONENT_CLASSES = {"tab-bar--current", "tab-bar--empty", "tab-bar--done", "tab-bar--todo"}

    DEFAULT_CSS = """
    TabBar {
        & > .tab-bar--current { text-style: bold reverse; }
        & > .tab-bar--empty { color: $text-muted; }
        & > .tab-bar--done { color: $text-success; }
        & > .tab-bar--todo { color: $text-muted; }
    }
    """

    _shown: tuple[Mapping[str, int], str] | None = None
    #: Where each tab is drawn: (first column, end column, tab name).
    _spans: list[tuple[int, int, str]] = []

    class Clicked(Message):
        """A tab was clicked."""

        def __init__(self, tab: str) -> None:
            self.tab = tab
            super().__init__()

    def on_click(self, event: events.Click) -> None:
        for start, end, name in self._spans:
            if start <= event.x < end:
                self.post_message(self.Clicked(name))

    def show(self, counts: Mapping[str, int], current: str) -> None:
        """Draw the tabs for these counts, ``current`` highlighted."""
        self._shown = (counts, current)
        self._spans = []
        narrow = self.size.width < SHORT_WIDTH
        text = Text()
        for key, (name, (label, _)) in enumerate(TABS.items(), start=1):
            part = "current" if name == current else "empty" if counts[name] == 0 else ""
            style = component_style(self, f"tab-bar--{part}") if part else Style()
            shown = f" {key} {SHORT_LABELS[name] if narrow else label} {counts[name]:,} "
            self._spans.append((text.cell_len, text.cell_len + len(shown), name))
            text.append(shown, style=style)
        total = counts["all"]
        done = total - counts["inbox"]
        text.append(f"  {done:,} / {total:,} triaged")
        if not narrow and total:
            filled = round(10 * done / total)
            text.append(" ")
            text.append("█" * filled, style=component_style(self, "tab-bar--done"))
            text.append("░" * (10 - filled), style=component_style(self, "tab-bar--todo"))
        self.update(text, layout=False)

    def notify_style_update(self) -> None:
        super().notify_style_update()
        if self._shown is not None:  # a new theme: the colours again
            self.show(*self._shown)
