"""The main screen's search: the box's keys, its results, and the index it searches."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from textual import on
from textual.events import Key
from textual.widgets import Input

from tui.messages import IndexReady
from tui.screens.main.base import MainBase
from tui.view import SEARCH_LIMIT, Found
from tui.widgets.search_box import SearchBox

if TYPE_CHECKING:
    from storage.search import SearchIndex


class SearchPart(MainBase):
    """Search as you type: ``/`` focuses the box, Esc leaves it (keeping the filter), Esc
    again or ctrl+l clears it; results replace the list, best first."""

    def action_focus_search(self) -> None:
        box = self.search_box
        if box.has_focus:  # "/" typed in a query
            box.insert_text_at_cursor("/")
        else:
            self.set_focus(box)

    def action_leave_search(self) -> None:
        """Esc: leave the search box (keeping the filter) or the paper; from the list, unzoom,
        then clear the filter."""
        box = self.search_box
        if box.has_focus or self.detail.has_focus and not self.has_class("-zoom"):
            self.set_focus(self.paper_list)
        elif self.has_class("-zoom"):  # back to the list and the paper side by side
            self.remove_class("-zoom")
            self.set_focus(self.paper_list)
        elif self.view.query or box.value:
            box.clear_text()

    def action_clear_search(self) -> None:
        self.search_box.clear_text()
        self.set_focus(self.paper_list)

    def on_key(self, event: Key) -> None:
        if event.key == "down" and self.search_box.has_focus:
            self.set_focus(self.paper_list)
            event.stop()

    @on(SearchBox.Submitted)
    def query_submitted(self) -> None:
        self.set_focus(self.paper_list)

    @on(Input.Changed, "#search")
    def query_changed(self, event: Input.Changed) -> None:
        if not self.view.set_query(event.value):  # the search ended: every paper again,
            self.rebuild(counts=False)  # the cursor still on the paper it was on

    def search_results(self, query: str, found: Found) -> None:
        """A search's papers arrived for the text in the box: list them, best first."""
        self.view.set_query(query)
        if self.view.accept(query, found):
            self.rebuild(cursor=0, counts=False)

    def searcher(self, index: SearchIndex) -> Callable[[str], Found]:
        """The search the box runs (in a thread): the app's ranking, mapped to rows."""
        state, view = self.session.state, self.view

        def search(query: str) -> Found:
            ranking = index.rank(
                query, limit=SEARCH_LIMIT, statuses=dict(state.statuses), tags=dict(state.tags)
            )
            return view.found_by(ranking)  # mapped here: 5,000 papers cost milliseconds

        return search

    @on(IndexReady)
    def index_ready(self, event: IndexReady) -> None:
        if event.papers is self.view.papers:
            self.index = event.index
            self.search_box.use(self.searcher(event.index))
