"""Progress that persists: counts, decisions per day (a small chart), pace, per list and venue."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, timedelta
from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Label, Sparkline, Static

from storage.models import Status
from storage.stats import LibraryStats, done_share
from tui.commands import bindings, closing_words, key_named
from tui.screens.keys_first import DialogKeysFirst
from tui.text import NAME_CELLS, cut_cells, printable

CHART_DAYS = 30
#: Under this many columns (a phone's 40) the tables head their columns with the tab bar's
#: short labels, and cut the names, never the counts ("3,6…" for 3,694).
NARROW_WIDTH = 60
#: The tables' headings there, by status (``tui.widgets.tab_bar.SHORT_LABELS``' signs).
SHORT_HEADINGS = {Status.INBOX: "In", Status.READ: "✓", Status.SKIPPED: "✗", Status.STARRED: "★"}


class StatsScreen(DialogKeysFirst[None]):
    """The library's progress, from the triage log's per-day counts."""

    #: Its keys (``tui.commands``), which the footer shows while it is open.
    KEYS: ClassVar[str] = "stats"
    BINDINGS = bindings(KEYS)

    def __init__(self, stats: LibraryStats, sync: str = "") -> None:
        super().__init__()
        self.stats = stats
        #: How the sync with the [sync] folder stands, one line ("" when there is none).
        self.sync = sync

    def compose(self) -> ComposeResult:
        stats = self.stats
        with VerticalScroll(classes="dialog dialog-wide") as box:
            box.border_title = "Progress"
            box.border_subtitle = self.closing_keys()
            yield Static(self.summary())
            yield Label(Text(f"Decisions per day, last {CHART_DAYS} days", style="bold"))
            yield Sparkline(self.per_day(), id="stats-chart")
            narrow = self._narrow = self.app.size.width < NARROW_WIDTH
            yield Static(self.table("Per list", stats.by_list, narrow=narrow), id="stats-lists")
            yield Static(
                self.table("Per venue status", stats.by_venue, narrow=narrow), id="stats-venues"
            )

    _narrow = False

    def on_resize(self) -> None:
        narrow = self.app.size.width < NARROW_WIDTH
        if narrow != self._narrow:
            self._narrow = narrow
            lists, venues = self.stats.by_list, self.stats.by_venue
            self.query_one("#stats-lists", Static).update(
                self.table("Per list", lists, narrow=narrow)
            )
            self.query_one("#stats-venues", Static).update(
                self.table("Per venue status", venues, narrow=narrow)
            )

    def _key(self, command_id: str) -> str:
        """A key as the words name it, after the user's remapping."""
        return key_named(command_id, getattr(self.app, "keymap", {}), web=self.app.is_web)

    def closing_keys(self) -> str:
        """``Esc, q, S close``: every key that closes the stats, as remapped (it named Esc
        alone)."""
        return closing_words(self.KEYS, getattr(self.app, "keymap", {}), web=self.app.is_web)

    def summary(self) -> Text:
        s = self.stats
        text = Text()
        text.append(s.progress() + "\n", style="bold")
        text.append(s.status_counts() + "\n")
        text.append(s.pace() + "\n")
        if s.queue is not None:
            # (how papers are starred: with the list's key, which does nothing here)
            how = f"{self._key('star')} in the list"
            text.append("\n" + s.queue.sentence(how=how) + "\n", style="bold")
            weeks = [(week, n) for week, n in s.queue.per_week[-8:]]
            if any(n for _w, n in weeks):
                shown = "  ".join(f"{week.strftime('%b %d')}: {n}" for week, n in weeks)
                text.append(f"Read from the queue per week: {shown}\n")
        if self.sync:
            text.append(printable(self.sync) + "\n", style="dim")
        return text

    def per_day(self) -> list[float]:
        today = date.today()
        totals = {d.day: d.total for d in self.stats.days}
        return [
            float(totals.get(today - timedelta(days=n), 0)) for n in range(CHART_DAYS - 1, -1, -1)
        ]

    @staticmethod
    def table(
        title: str, rows: Mapping[str, Mapping[Status, int]], *, narrow: bool = False
    ) -> Table:
        """Counts per status and the share done, a row per name; ``narrow``: short headings,
        and the names cut before any count is."""
        table = Table(title=title, title_justify="left", expand=True, box=None)
        names = [Text(cut_cells(printable(str(name)), NAME_CELLS)) for name in rows]
        cells = [
            [*(f"{counts[s]:,}" for s in Status), done_share(counts)] for counts in rows.values()
        ]
        if narrow:
            table.add_column("", ratio=1, no_wrap=True, overflow="ellipsis", min_width=3)
        else:
            table.add_column("")
        headings = [SHORT_HEADINGS[s] if narrow else s.value for s in Status]
        for i, heading in enumerate([*headings, "done"]):
            if narrow:  # each count whole, however little room the names are left
                widest = max((len(row[i]) for row in cells), default=0)
                table.add_column(heading, justify="right", no_wrap=True, min_width=widest or None)
            else:
                table.add_column(heading, justify="right")
        for name, row in zip(names, cells, strict=True):
            table.add_row(name, *row)
        return table

    def action_close(self) -> None:
        self.dismiss(None)
