"""The tab bar: one tab per status with its live count, and the overall progress."""

from __future__ import annotations

from collections.abc import Mapping

from textual.widgets import Static

from tui.view import TABS

SHORT_LABELS = {"inbox": "In", "starred": "★", "read": "✓", "skipped": "✗", "all": "All"}
#: Narrower than this, tabs show short labels and no progress bar.
SHORT_WIDTH = 70


class TabBar(Static):
    """Tabs with live counts and overall progress; click a tab to show it."""

    def show(self, counts: Mapping[str, int], current: str) -> None:
        """Draw the tabs for these counts, ``current`` highlighted."""
        narrow = self.size.width < SHORT_WIDTH
        parts = []
        for key, (name, (label, _)) in enumerate(TABS.items(), start=1):
            text = f"{SHORT_LABELS[name] if narrow else label} {counts[name]:,}"
            style = "reverse bold" if name == current else "dim" if counts[name] == 0 else ""
            parts.append(f"[{style} @click=screen.show_tab('{name}')] {key} {text} [/]")
        total = counts["all"]
        done = total - counts["inbox"]
        bar = ""
        if not narrow and total:
            filled = round(10 * done / total)
            bar = f" [$success]{'█' * filled}[/][dim]{'░' * (10 - filled)}[/]"
        progress = f"  {done:,} / {total:,} triaged{bar}"
        self.update("".join(parts) + progress, layout=False)
