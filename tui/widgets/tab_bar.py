"""The tab bar: one tab per status and per saved search with its live count, and the progress."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial

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
#: The built-in tabs' names, in the bar's order.
TAB_NAMES = tuple(TABS)
#: What the bar's spans call "+2 more" (no tab's name: a saved search's starts "saved:").
MORE = "+more"

#: A piece of the bar: its text, the tab it shows (MORE for "+2 more", "" for none) and its
#: style's part ("current", "empty", "more", "done", "todo"; "" for the plain style).
Piece = tuple[str, str, str]
#: A bar laid out: its pieces and its width in columns.
Layout = tuple[list[Piece], int]


class TabBar(Static):
    """Tabs with live counts and overall progress, read from ``TriageView``; click a tab to
    show it.

    The saved searches' tabs (``use_saved``) follow the built-in ones. When the bar does not
    fit, the progress bar goes first, then the built-in tabs take shorter labels ("Star",
    then "★") and the progress its shorter form ("12/3,703"), then the saved searches'
    names are cut; then saved searches' tabs are left out, counted ("+2 more"), the tab
    shown always kept; then the count of papers triaged goes, then the tabs lose their
    number keys, and last (a phone's 40 columns) the built-in tabs are left out too, from
    the right, the tab shown kept. A click on "+2 more" asks for a list of the tabs left
    out (``MoreClicked``).
    """

    COMPONENT_CLASSES = {
        "tab-bar--current",
        "tab-bar--empty",
        "tab-bar--done",
        "tab-bar--todo",
        "tab-bar--more",
    }

    DEFAULT_CSS = """
    TabBar {
        & > .tab-bar--current { text-style: bold reverse; }
        & > .tab-bar--empty { color: $text-muted; }
        & > .tab-bar--done { color: $text-success; }
        & > .tab-bar--todo { color: $text-muted; }
        & > .tab-bar--more { text-style: underline; }
    }
    """

    #: Where each tab is drawn: (first column, end column, tab name).
    _spans: list[tuple[int, int, str]] = []
    #: The saved searches' tabs as last drawn: (tab name, label), in order.
    _saved: tuple[tuple[str, str], ...] = ()
    #: Component styles by name, until the styles change (each costs a walk of the CSS and
    #: a blend, and a decision redraws the bar: see ``_component``).
    _components: dict[str, Style] | None = None
    #: The width the bar is drawn for (``show``).
    _width: int = 0
    #: What the bar was last drawn for: counts, current tab, saved tabs, width.
    _drawn: tuple[dict[str, int], str, tuple[tuple[str, str], ...], int] | None = None

    class Clicked(Message):
        """A tab was clicked."""

        def __init__(self, tab: str) -> None:
            self.tab = tab
            super().__init__()

    class MoreClicked(Message):
        """ "+2 more" was clicked: ``tabs`` are the tabs left out of the bar, in order."""

        def __init__(self, tabs: tuple[str, ...]) -> None:
            self.tabs = tabs
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
                self.post_message(
                    self.MoreClicked(self.left_out()) if name == MORE else self.Clicked(name)
                )

    def left_out(self) -> tuple[str, ...]:
        """The tabs the bar as last drawn has no room for, in their order (worked out when
        asked: a click, not each drawing)."""
        shown = {name for _, _, name in self._spans}
        return tuple(name for name in self.every() if name not in shown)

    def every(self) -> tuple[str, ...]:
        """Every tab, shown or not, in the bar's order."""
        return (*TABS, *(name for name, _ in self._saved))

    def show(self) -> None:
        """Draw the view's tabs with their counts, the current one highlighted (a saved
        search's tab without a count yet shows "…")."""
        view = self._view
        counts, current = view.counts(), view.tab
        self._saved = tuple((tab.name, view.saved_label(tab)) for tab in view.saved)
        # the screen's width, which the bar spans: its own is the last layout's, and the
        # screen's resize redraws it before the next (a browser's first frame at 40 columns
        # had the bar fitted to its width before, every tab but one left to "+4 more")
        self._width = self.screen.size.width if self.is_attached else self.size.width
        drawn = (counts, current, self._saved, self._width)
        if drawn == self._drawn:
            return  # (a tab key redraws the bar: often with the same counts)
        self._drawn = drawn
        narrow = self._width < SHORT_WIDTH
        text, self._spans = self._styled(self._fitted(counts, current, narrow))
        self.update(text, layout=False)

    def _fitted(self, counts: Mapping[str, int], current: str, narrow: bool) -> Layout:
        """The bar with the saved searches' tabs, made to fit the width (see the class). Each
        try is laid out as plain strings, and only the one kept is styled (``_styled``)."""
        width = self._width
        if 3 * len(self._saved) > width:
            # the saved searches' tabs alone (3 columns each at the least) overflow the bar:
            # no try below can fit, so none is made (1,000 saved searches made ~30 a key)
            return self._narrowest(counts, current, cuts=range(ELIDED_NAME, ELIDED_NAME + 1))
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
            if drawn[1] <= width:
                return drawn
        longest = max((len(label) for _, label in self._saved), default=0)
        fitting = self._longest_cut(  # names cut, the count kept
            range(longest - 1, SHORTEST_NAME - 1, -1),
            partial(self._draw, counts, current, labels="short", progress=1),
        )
        if fitting is not None:
            return fitting
        # then saved searches' tabs left out, before the count of what is triaged, before
        # the number keys (a cut no name is longer than changes nothing: not tried)
        cuts = range(max(SHORTEST_NAME, min(ELIDED_NAME, longest)), SHORTEST_NAME - 1, -1)
        for progress, keys in ((1, True), (0, True), (0, False)):
            fitting = self._longest_cut(
                cuts,
                partial(
                    self._draw,
                    counts,
                    current,
                    labels="short",
                    progress=progress,
                    keys=keys,
                    elide="saved",
                ),
            )
            if fitting is not None:
                return fitting
        return self._narrowest(counts, current, cuts=cuts)

    def _narrowest(self, counts: Mapping[str, int], current: str, *, cuts: range) -> Layout:
        """The bar at its narrowest: short labels, no count of what is triaged, no number
        keys, any tab left out but the one shown, whose name is cut (``cuts``: the lengths
        tried, longest first) no more than it must be: it is the one being read."""

        draw = partial(
            self._draw, counts, current, labels="short", progress=0, keys=False, elide="all"
        )
        return self._longest_cut(cuts, draw) or draw(cut=cuts[-1])

    def _longest_cut(self, cuts: range, draw: Callable[..., Layout]) -> Layout | None:
        """``draw(cut=…)`` for the longest of ``cuts`` (longest first) that fits the bar, None
        when none does. Tried by halves, the shortest first (a shorter name never makes the
        bar wider): a handful of tries, not one per length (a decision redraws the bar)."""
        if not cuts:
            return None
        width = self._width
        best = draw(cut=cuts[-1])
        if best[1] > width:
            return None
        low, high = 0, len(cuts) - 1  # cuts[high] fits: best is its layout
        while low < high:
            middle = (low + high) // 2
            drawn = draw(cut=cuts[middle])
            if drawn[1] <= width:
                high, best = middle, drawn
            else:
                low = middle + 1
        return best

    def _draw(
        self,
        counts: Mapping[str, int],
        current: str,
        *,
        labels: str,
        progress: int,
        cut: int | None = None,
        keys: bool = True,
        elide: str = "",
    ) -> Layout:
        """The bar laid out: built-in tabs (``labels``: "full", "medium" or "short"; their
        number keys or not), saved searches' tabs (names cut to ``cut`` characters), and the
        progress (3: words and bar, 2: words, 1: the count alone, 0: none). With ``elide``
        ("saved": the saved searches' tabs; "all": every tab) those past the width are left
        out and counted ("+2 more", the piece ``MORE``), the current one kept."""
        pieces: list[Piece] = []
        # The columns laid out so far, kept as the tabs are added (counting the whole bar
        # again per tab, with 1,000 saved searches, counted all before it each time).
        column = 0

        def tab(name: str, shown: str) -> None:
            nonlocal column
            count = counts.get(name)
            part = "current" if name == current else "empty" if count == 0 else ""
            pieces.append((shown, name, part))
            column += cell_len(shown)

        names = {"short": SHORT_LABELS, "medium": MEDIUM_LABELS}.get(labels)

        def built_in(name: str) -> str:
            hotkey = f"{self.key_of(f'tab_{name}')} " if keys else ""
            label = names[name] if names else TABS[name][0]
            return f" {hotkey}{label} {counts[name]:,} "

        width = self._width
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

        built = len(TAB_NAMES)
        every = built + len(self._saved)

        def shown_of(i: int) -> str:
            return built_in(TAB_NAMES[i]) if i < built else saved_tab(i - built)

        def name_of(i: int) -> str:
            return TAB_NAMES[i] if i < built else self._saved[i - built][0]

        # the tabs from ``first`` on may be left out (with ``elide``), the current one kept
        first = {"all": 0, "saved": built}.get(elide, every)
        mine = next((i for i in range(every) if name_of(i) == current), None)
        # the room kept at the end for the tabs left out, said ("+2 more"), and the progress
        more = cell_len(f" +{every - first} more")
        kept = cell_len(tail)
        if mine is not None and mine >= first:
            kept += cell_len(shown_of(mine))  # and for the current tab, not yet laid out
        left_out = 0
        for i in range(every):
            if column > width and first == every:
                break  # past the bar's end already: the rest would not show (and cost)
            shown = shown_of(i)
            if i == mine:
                kept -= cell_len(shown) if i >= first else 0
            elif i >= first:
                # the tabs keep their order: after one is left out, the rest too; the last
                # one needs no room for "+2 more" after it, unless one was left out
                room = more if left_out or i < every - 1 else 0
                if left_out or column + cell_len(shown) + kept + room > width:
                    left_out += 1
                    continue
            tab(name_of(i), shown)
        if left_out:
            said = f" +{left_out} more"
            pieces.append((said, MORE, "more"))
            column += cell_len(said)
        if tail:
            pieces.append((tail, "", ""))
            column += cell_len(tail)
        if progress == 3 and labels == "full" and total:
            filled = round(10 * done / total)
            pieces += [(" ", "", ""), ("█" * filled, "", "done"), ("░" * (10 - filled), "", "todo")]
            column += 11
        return pieces, column

    def _styled(self, layout: Layout) -> tuple[Text, list[tuple[int, int, str]]]:
        """The bar laid out, as text in its styles, and where each tab is (and "+2 more")."""
        spans: list[tuple[int, int, str]] = []
        text = Text()
        column = 0
        for shown, name, part in layout[0]:
            style = self._component(f"tab-bar--{part}") if part else None
            end = column + cell_len(shown)
            if name == MORE:  # the words underlined, not the space before them
                text.append(shown[0])
                text.append(shown[1:], style=style)
            else:
                text.append(shown, style=style)
            if name:
                spans.append((column, end, name))
            column = end
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
