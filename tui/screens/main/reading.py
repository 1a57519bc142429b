"""The main screen's reading keys: the paper pane scrolled from the list, entered, zoomed,
and the split between the list and the pane moved (and remembered)."""

from __future__ import annotations

from textual import on

from tui.screens.main.base import MainBase
from tui.widgets.paper_pane import PaperPane


class ReadingPart(MainBase):
    """``J``/``K`` and ctrl+f/ctrl+b scroll the paper from the list; ``l`` moves into it (then
    its own keys scroll it, ``h`` or esc come back); ``z`` zooms it; ``<``/``>`` move the split."""

    def action_pane_scroll(self, lines: int) -> None:
        self.detail.action_scroll_lines(lines)

    def action_pane_page(self, pages: int) -> None:
        self.detail.action_scroll_page(pages)

    def action_focus_pane(self) -> None:
        self.set_focus(self.detail)

    @on(PaperPane.Leave)
    def leave_pane(self) -> None:
        self.set_focus(self.paper_list)

    def action_zoom(self) -> None:
        """The paper full screen, or the list and the paper again (the focus follows)."""
        zoomed = not self.has_class("-zoom")
        self.set_class(zoomed, "-zoom")
        self.set_focus(self.detail if zoomed else self.paper_list)

    def action_split(self, delta: int) -> None:
        """Give the list ``delta`` percent more of the room (the pane the rest); remembered."""
        self.ui = self.ui.with_split(delta)
        self.apply_split()
        self.ui_writes.save(self.ui)

    def apply_split(self) -> None:
        """Size the list and the pane by the split: widths side by side, heights stacked."""
        share = f"{self.ui.split}%"
        styles = self.paper_list.styles
        if self.has_class("-narrow"):
            styles.width, styles.height = "100%", share
        else:
            styles.width, styles.height = share, "1fr"
