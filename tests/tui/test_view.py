"""The main screen's view model, driven without an app: rows, counts, titles, stale results."""

from __future__ import annotations

import pytest

from storage import Library, Status
from storage.models import Paper
from storage.search import SearchIndex
from storage.session import Operation, Outcome
from storage.similar import Suggestion
from tui.outcomes import report
from tui.view import SEARCH_LIMIT, TriageView


@pytest.fixture
def papers(library: Library) -> list[Paper]:
    return library.papers()


def view_of(papers: list[Paper], statuses: dict[str, Status]) -> TriageView:
    return TriageView(papers, lambda: statuses)


def test_tabs_show_their_papers_in_list_order(papers: list[Paper]) -> None:
    ids = [p.id for p in papers]
    statuses = {ids[0]: Status.STARRED, ids[2]: Status.READ, ids[5]: Status.STARRED}
    view = view_of(papers, statuses)
    assert view.rows() == [i for i in range(len(papers)) if i not in (0, 2, 5)]
    assert view.show_tab("starred") and view.rows() == [0, 5]
    assert not view.show_tab("starred")  # already shown
    assert not view.show_tab("nonsense")
    view.show_tab("all")
    assert view.rows() == list(range(len(papers)))
    assert view.counts() == {"starred": 2, "read": 1, "skipped": 0, "inbox": 35, "all": 38}


def test_a_decided_paper_that_left_the_library_is_not_counted(papers: list[Paper]) -> None:
    view = view_of(papers, {"0123456789ab": Status.READ})
    assert view.counts()["read"] == 0 and view.counts()["inbox"] == len(papers)


def test_switching_tabs_drops_the_marks(papers: list[Paper]) -> None:
    view = view_of(papers, {})
    marks = view.marked
    marks.update({papers[0].id, papers[1].id})
    assert view.list_title(0, view.rows()) == "Inbox · 2 marked · 1 / 38"
    view.show_tab("all")
    assert not view.marked and view.marked is marks  # the widgets' set, emptied


def test_search_results_replace_the_rows_and_stale_ones_are_dropped(
    papers: list[Paper],
) -> None:
    view = view_of(papers, {})
    index = SearchIndex(papers)
    assert view.set_query("  curvature ") == "curvature"
    found = view.found_by(index.rank("curvature", limit=SEARCH_LIMIT))
    assert not view.accept("curv", found)  # the user typed on: not these
    assert view.hit_rows is None
    assert view.accept("curvature", found)
    assert view.rows() == found.rows and view.list_title(0, view.rows()).startswith(
        "Inbox · search · 1 /"
    )
    assert "curvature" in view.matched(papers[found.rows[0]].id)
    assert view.set_query("") == "" and view.hit_rows is None


def test_results_made_for_replaced_papers_are_mapped_again(papers: list[Paper]) -> None:
    view = view_of(papers, {})
    index = SearchIndex(papers)
    view.set_query("diffusion")
    found = view.found_by(index.rank("diffusion", limit=None))
    view.replace_papers(list(reversed(papers)))  # an import put them in another order
    assert view.found is None
    view.set_query("diffusion")
    assert view.accept("diffusion", found)
    assert [view.ids[i] for i in view.rows()] == [papers[i].id for i in found.rows]


def test_suggested_order_and_why(papers: list[Paper]) -> None:
    ids = [p.id for p in papers]
    statuses = {ids[0]: Status.STARRED}
    view = view_of(papers, statuses)
    view.show_tab("all")
    view.suggest([Suggestion(ids[7], 0.9, ids[0]), Suggestion(ids[3], 0.5, None)])
    assert view.tab == "inbox"
    rows = view.rows()
    assert rows[:2] == [7, 3] and len(rows) == len(papers) - 1
    assert view.why(papers[7]).startswith("Suggested: like your starred paper")
    assert view.why(papers[3]) == ""
    assert view.list_title(0, rows).startswith("Inbox · suggested order")
    view.unsuggest()
    assert view.rows()[:2] == [1, 2]


def test_what_the_writer_reports_is_said(papers: list[Paper]) -> None:
    pid = papers[0].id
    undo = Outcome(Operation(1, "undo"), changes=[(pid, Status.STARRED, Status.INBOX)])
    said = report(undo, undo.changes, lambda p: "Title")
    assert said.message == "Undid: Title → inbox" and said.redraw and said.keep == pid
    assert report(Outcome(Operation(2, "redo")), [], str).message == "Nothing to redo."
    failed = Outcome(Operation(3, "status"), error=OSError("disk full"))
    said = report(failed, [], str)
    assert said.severity == "error" and "Not saved: disk full" in said.message and said.redraw
    assert report(Outcome(Operation(4, "status")), [], str).message == ""
