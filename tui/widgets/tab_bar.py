"""The tab bar: one tab per status and per saved search with its live count, and the progress."""

from __future__ import annotations

from collections.abc import Mapping

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual import events
from textual.message import Message
from textual.widgets import Static

from tui.commands import BY_ID, key_label, keys_for
from tui.view import TABS, TriageView
from tui.widgets.styles import component_style

SHORT_LABELS = {"inbox": "In", "starred": "★", "read": "✓", "skipped": "✗", "all": "All"}
#: Between the full labels and the short ones (80 columns at 3,703 papers and more).
MEDIUM_LABELS = {
    "inbox": "Inbox",
    "starred": "Star",
    "read": "Read",
    "skipped": "Skip",
    "all": "All",
}
#: Narrower than this, tabs show short labels and no progress bar.
SHORT_WIDTH = 70
#: The commands that show the first saved searches' tabs (keys 6…9, after the built-in
#: tabs' 1…5, each built-in tab's command being ``tab_`` and its name).
SAVED_TABS = ("tab_saved_first", "tab_saved_second", "tab_saved_third", "tab_saved_fourth")
#: A saved search's name is cut to no fewer characters than this to fit the bar.
SHORTEST_NAME = 4
#: A saved search's name is cut to this many characters when tabs are left out of the bar.
ELIDED_NAME = 12


class TabBar(Static):
    """Tabs with live counts and overall progress, read from ``TriageView``; click a tab to
    show it.

    The saved searches' tabs (``use_saved``) follow the built-in ones. When the bar does not
    fit, the progress bar goes first, then the built-in tabs take shorter labels ("Star",
    then "★") and the progress its shorter form ("12/3,703"), then the saved searches'
    names are cut; then saved searches' tabs are left out, counted ("+2 more"), the tab
    shown always kept; then the count of papers triaged goes, and last (a phone's 40
    columns) the tabs lose their number keys.
    """

    COMPONENT_CLASSES = {"tab-bar--current", "tab-bar--empty", "tab-bar--done", "tab-bar--todo"}

    DEFAULT_CSS = """
    TabBar {
        & > .tab-bar--current { text-style: bold reverse; }
        & > .tab-bar--empty { color: $text-muted; }
        & > .tab-bar--done { color: $text-success; }
        & > .tab-bar--todo { color: $text-muted; }
    }
    """

    #: Where each tab is drawn: (first column, end column, tab name).
    _spans: list[tuple[int, int, str]] = []
    #: The saved searches' tabs as last drawn: (tab name, label), in order.
    _saved: tuple[tuple[str, str], ...] = ()
    #: Component styles by name, until the styles change (each costs a walk of the CSS and
    #: a blend, and a decision redraws the bar: see ``_component``).
    _components: dict[str, Style] | None = None
    #: What the bar was last drawn for: counts, current tab, saved tabs, width.
    _drawn: tuple[dict[str, int], str, tuple[tuple[str, str], ...], int] | None = None

    class Clicked(Message):
        """A tab was clicked."""

        def __init__(self, tab: str) -> None:
            self.tab = tab
            super().__init__()

    def __init__(
        self, view: TriageView, keymap: Mapping[str, str] | None = None, *, id: str | None = None
    ) -> None:
        super().__init__(id=id)
        self._view = view
        #: The user's remapping: each tab shows the key that shows it now.
        self._keymap = keymap or {}
        self._keys: dict[str, str] | None = None

    def key_of(self, command_id: str) -> str:
        """The first key of a tab's command, as the user has it (``1``…``9`` by default)."""
        if self._keys is None:
            web = self.is_attached and self.app.is_web
            self._keys = {
                c: key_label(keys_for(BY_ID[c], self._keymap)[0], web=web)
                for c in (*(f"tab_{name}" for name in TABS), *SAVED_TABS)
            }
        return self._keys[command_id]

    def on_click(self, event: events.Click) -> None:
        for start, end, name in self._spans:
            if start <= event.x < end:
                self.post_message(self.Clicked(name))

    def show(self) -> None:
        """Draw the view's tabs with their counts, the current one highlighted (a saved
        search's tab without a count yet shows "…")."""
        view = self._view
        counts, current = view.counts(), view.tab
        self._saved = tuple((tab.name, view.saved_label(tab)) for tab in view.saved)
        drawn = (counts, current, self._saved, self.size.width)
        if drawn == self._drawn:
            return  # (a tab key redraws the bar: often with the same counts)
        self._drawn = drawn
        narrow = self.size.width < SHORT_WIDTH
        text, self._spans = self._fitted(counts, current, narrow)
        self.update(text, layout=False)

    def _fitted(
        self, counts: Mapping[str, int], current: str, narrow: bool
    ) -> tuple[Text, list[tuple[int, int, str]]]:
        """The bar with the saved searches' tabs, made to fit the width (see the class)."""
        width = self.size.width
        if 3 * len(self._saved) > width:
            # the saved searches' tabs alone (3 columns each at the least) overflow the bar:
            # no try below can fit, so none is made (1,000 saved searches made ~30 a key)
            return self._narrowest(counts, current)
        full = "short" if narrow else "full"
        tries = [
            (full, 3),
            (full, 2),
            ("medium", 2),
            ("medium", 1),
            ("short", 2),
            ("short", 1),
        ]  # see the class
        for labels, progress in tries:
            drawn = self._draw(counts, current, labels=labels, progress=progress)
            if drawn[0].cell_len <= width:
                return drawn
        longest = max((len(label) for _, label in self._saved), default=0)
        for cut in range(longest - 1, SHORTEST_NAME - 1, -1):  # names cut, the count kept
            drawn = self._draw(counts, current, labels="short", progress=1, cut=cut)
            if drawn[0].cell_len <= width:
                return drawn
        for progress in (1, 0):  # then tabs left out, before the count of what is triaged
            for cut in range(ELIDED_NAME, SHORTEST_NAME - 1, -1):
                drawn = self._draw(
                    counts, current, labels="short", progress=progress, cut=cut, elide=True
                )
                if drawn[0].cell_len <= width:
                    return drawn
        return self._narrowest(counts, current)

    def _narrowest(
        self, counts: Mapping[str, int], current: str
    ) -> tuple[Text, list[tuple[int, int, str]]]:
        """The bar at its narrowest: short labels, names cut to the shortest, tabs left out,
        no count of what is triaged, no number keys."""
        return self._draw(
            counts,
            current,
            labels="short",
            progress=0,
            cut=SHORTEST_NAME,
            keys=False,
            elide=True,
        )

    def _draw(
        self,
        counts: Mapping[str, int],
        current: str,
        *,
        labels: str,
        progress: int,
        cut: int | None = None,
        keys: bool = True,
        elide: bool = False,
    ) -> tuple[Text, list[tuple[int, int, str]]]:
        """The bar: built-in tabs (``labels``: "full", "medium" or "short"; their number
        keys or not), saved searches' tabs (names cut to ``cut`` characters; with ``elide``,
        those past the width left out and counted, the current one always kept), and the
        progress (3: words and bar, 2: words, 1: the count alone, 0: none)."""
        spans: list[tuple[int, int, str]] = []
        text = Text()
        # The columns drawn so far, kept as the tabs are added (a Text's cell_len counts its
        # whole text again: with 1,000 saved searches, each tab would count all before it).
        column = 0

        def tab(name: str, shown: str) -> None:
            nonlocal column
            count = counts.get(name)
            part = "current" if name == current else "empty" if count == 0 else ""
            style = self._component(f"tab-bar--{part}") if part else Style()
            end = column + cell_len(shown)
            spans.append((column, end, name))
            text.append(shown, style=style)
            column = end

        names = {"short": SHORT_LABELS, "medium": MEDIUM_LABELS}.get(labels)
        for name, (label, _) in TABS.items():
            hotkey = f"{self.key_of(f'tab_{name}')} " if keys else ""
            tab(name, f" {hotkey}{names[name] if names else label} {counts[name]:,} ")
        width = self.size.width
        total = counts["all"]
        done = total - counts["inbox"]
        tail = ""
        if progress >= 2:
            tail = f"  {done:,} / {total:,} triaged"
        elif progress == 1:
            tail = f"  {done:,}/{total:,}"

        def saved_tab(i: int) -> str:
            name, label = self._saved[i]
            if cut is not None and len(label) > cut:
                label = label[: cut - 1] + "…"
            hotkey = f"{self.key_of(SAVED_TABS[i])} " if keys and i < len(SAVED_TABS) else ""
            count = counts.get(name)
            return f" {hotkey}{label} {'…' if count is None else f'{count:,}'} "

        mine = next((i for i, (name, _) in enumerate(self._saved) if name == current), None)
        # with ``elide``: the room kept at the end for the current tab, what says how many
        # tabs are left out, and the progress
        kept = cell_len(f" +{len(self._saved)} more") + cell_len(tail)
        kept += cell_len(saved_tab(mine)) if elide and mine is not None else 0
        left_out = 0
        for i, (name, _) in enumerate(self._saved):
            if column > width and not elide:
                break  # past the bar's end already: the rest would not show (and cost)
            shown = saved_tab(i)
            if i == mine:
                kept -= cell_len(shown) if elide else 0
            elif elide and (left_out or column + cell_len(shown) + kept > width):
                left_out += 1  # after one is left out, the rest too: the tabs keep their order
                continue
            tab(name, shown)
        if left_out:
            text.append(f" +{left_out} more")
        text.append(tail)
        if progress == 3 and labels == "full" and total:
            filled = round(10 * done / total)
            text.append(" ")
            text.append("█" * filled, style=self._component("tab-bar--done"))
            text.append("░" * (10 - filled), style=self._component("tab-bar--todo"))
        return text, spans

    def _component(self, name: str) -> Style:
        if self._components is None:  # (per bar: a class-wide dict would outlive a theme)
            self._components = {}
        style = self._components.get(name)
        if style is None:
            style = self._components[name] = component_style(self, name)
        return style

    def notify_style_update(self) -> None:
        super().notify_style_update()
        # A new theme: the colours again, once every style has changed (the components'
        # may change after this widget's own).
        self.call_later(self._redraw)

    def _redraw(self) -> None:
        drawn, self._components, self._drawn = self._drawn, None, None
        if drawn is not None:
            self.show()
