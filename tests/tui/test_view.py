"""The main screen's view model, driven without an app: rows, counts, titles, stale results."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from storage import Library, Status
from storage.files.saved_searches import SavedSearch
from storage.files.triage_file import TriageState
from storage.models import Paper, Removal
from storage.search import SearchIndex
from storage.similar import Suggestion
from tui.outcomes import report
from tui.saved_tabs import decided_only, split_query
from tui.session import Operation, Outcome
from tui.view import SEARCH_LIMIT, TriageView


@pytest.fixture
def papers(library: Library) -> list[Paper]:
    return library.papers()


def view_of(papers: list[Paper], statuses: dict[str, Status]) -> TriageView:
    state = TriageState(statuses=statuses)  # the same dict: changes to it are the live triage
    return TriageView(papers, lambda: state)


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


def test_switching_tabs_keeps_the_marks_with_their_tab(papers: list[Paper]) -> None:
    """Marks belong to the list they were made in: another tab shows none of them, and they
    are back with their tab (they were dropped: 255 papers of a topic marked, a look at the
    Starred tab, and they were gone; found by a QA run)."""
    view = view_of(papers, {})
    marks = view.marked
    marks.update({papers[0].id, papers[1].id})
    assert view.list_title(0, view.rows()) == "Inbox · 2 marked · 1 / 38"
    view.show_tab("all")
    assert not view.marked and view.marked is marks  # the widgets' set, emptied
    view.marked.add(papers[5].id)
    view.show_tab("inbox")
    assert view.marked == {papers[0].id, papers[1].id} and view.marked is marks
    view.show_tab("all")
    assert view.marked == {papers[5].id}


def test_every_change_of_tab_keeps_the_marks_with_their_tab(papers: list[Paper]) -> None:
    """The suggested order (ctrl+o from another tab) and a shown saved search closed show the
    Inbox as a tab key does, with the Inbox's marks: the suggestion took the All tab's marks to
    the Inbox (D there decided them) and lost the Inbox's; the closed tab showed the Inbox
    unmarked, and its marks came back at the next visit, after D had decided others."""
    view = saved_view(papers, {}, SavedSearch("A", "diffusion"))
    inbox, elsewhere = {papers[0].id, papers[1].id}, {papers[5].id}
    view.marked.update(inbox)
    view.show_tab("all")
    view.marked.update(elsewhere)
    view.suggest([Suggestion(papers[7].id, 0.9, None)])
    assert view.tab == "inbox" and view.marked == inbox
    view.show_tab("all")
    assert view.marked == elsewhere
    view.show_tab("saved:a")
    view.marked.add(papers[9].id)
    assert view.set_saved([]) == [] and view.tab == "inbox" and view.marked == inbox
    view.show_tab("all")
    # the closed tab's marks went with it: not given to a search saved later under its name
    view.set_saved([SavedSearch("A", "diffusion")])
    view.show_tab("saved:a")
    assert not view.marked and "saved:a" not in view.marks_left


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
    # a decision whose write met another process's decisions: the screen must show them
    met = Outcome(Operation(5, "status"), triage=TriageState({pid: Status.READ}))
    assert report(met, [], str).redraw


def test_an_undo_putting_papers_back_in_several_states_says_each(papers: list[Paper]) -> None:
    """A bulk skip in the All tab of one paper read and two starred, undone: "Undid: 3 papers
    → starred", though one went back to read (the state of the first change only)."""
    a, b, c = (p.id for p in papers[:3])
    step = [(c, Status.SKIPPED, Status.STARRED), (b, Status.SKIPPED, Status.STARRED)]
    undo = Outcome(Operation(1, "undo"), changes=[*step, (a, Status.SKIPPED, Status.READ)])
    said = report(undo, undo.changes, str)
    assert said.message == "Undid: 3 papers → 2 starred, 1 read" and said.keep == a
    same = Outcome(Operation(2, "undo"), changes=step)
    assert report(same, same.changes, str).message == "Undid: 2 papers → starred"


def test_what_the_writer_reports_names_the_keys_given(papers: list[Paper]) -> None:
    """A removal said "u brings it all back", a note not saved "ctrl+s tries again", with
    those keys remapped."""
    keys = {"undo": "U", "note_save": "ctrl+w"}.__getitem__
    removed = Outcome(Operation(1, "remove"), removed=Removal(ids=(papers[0].id,)))
    assert report(removed, [], str, keys).message == "Removed 1 paper. U brings it all back."
    failed = Outcome(Operation(2, "note"), error=OSError("disk full"))
    assert report(failed, [], str, keys).message.endswith("open again: ctrl+w tries again.")
    assert report(removed, [], str).message.endswith(". u brings it all back.")  # the defaults


def test_a_list_whose_papers_stay_in_other_lists_says_so(papers: list[Paper]) -> None:
    """Removing a list whose 5 papers are all in another list too said "(0 papers)" after
    the question had said "(5 papers)"."""
    kept = tuple(p.id for p in papers[:5])
    removed = Outcome(Operation(1, "remove"), removed=Removal(lists=("Mine",), kept=kept))
    said = report(removed, [], str).message
    assert said.startswith("Removed the list “Mine” (0 papers; 5 papers kept, in another list")


# -- saved searches as tabs -----------------------------------------------------------------


def saved_view(
    papers: list[Paper], statuses: dict[str, Status], *searches: SavedSearch
) -> TriageView:
    """A view with tabs for ``searches``, each searched as the screen does (once)."""
    view = view_of(papers, statuses)
    index = SearchIndex(papers)
    for tab in view.set_saved(searches):
        query, live = split_query(tab.search.query)
        assert view.take_saved(tab.search, view.found_by(index.rank(query, limit=None)), live)
    return view


def test_a_saved_query_is_searched_once_and_its_triage_qualifiers_applied_live() -> None:
    query, live = split_query("diffusion is:inbox -tag:later has:code title:model")
    assert query.words == ("diffusion",)
    assert [(q.key, q.value) for q in query.qualifiers] == [("has", "code"), ("title", "model")]
    assert [(q.key, q.value, q.negated) for q in live] == [
        ("is", "inbox", False),
        ("tag", "later", True),
    ]
    assert split_query("has:note")[1][0].key == "has"  # a note is triage, code is not


@pytest.mark.parametrize(
    ("query", "decided"),
    [
        ("is:starred", True),
        ("-is:inbox tag:later", True),
        ("is:read has:note", True),
        ("is:sta", True),  # a prefix of one state
        ("-is:starred", False),
        ("is:inbox", False),
        ("tag:later", False),
        ("diffusion", False),
    ],
)
def test_triage_qualifiers_that_take_decided_papers_alone(query: str, decided: bool) -> None:
    """A search typed in a saved tab of these lists every paper of the tab it matches: the
    search takes the decided papers past its best (the title says "search", not "best")."""
    assert decided_only(split_query(query)[1]) is decided


def test_a_saved_search_is_a_tab_with_its_count(papers: list[Paper]) -> None:
    statuses: dict[str, Status] = {}
    view = saved_view(papers, statuses, SavedSearch("Diffusion", "diffusion is:inbox"))
    name = "saved:diffusion"
    rows = view.saved[0].found.rows if view.saved[0].found else []
    assert len(rows) == 5 and view.counts()[name] == 5
    assert view.show_tab(name, leaving=papers[3].id) and view.tab == name
    assert view.rows() == rows and view.label() == "Diffusion"
    assert view.list_title(0, view.rows()) == "Diffusion · 1 / 5"
    # starred elsewhere (or here): it leaves the tab, the count follows, without a search
    statuses[view.ids[rows[0]]] = Status.STARRED
    assert not view.keeps(Status.STARRED, view.ids[rows[0]])
    assert view.keeps(Status.INBOX, view.ids[rows[1]])
    assert view.rows() == rows[1:] and view.counts()[name] == 4
    assert view.counts()["starred"] == 1
    # each tab keeps its place
    assert view.show_tab("inbox", leaving=view.ids[rows[2]])
    assert view.place() == papers[3].id
    assert view.show_tab(name) and view.place() == view.ids[rows[2]]


def test_a_search_typed_in_a_saved_tab_narrows_it(papers: list[Paper]) -> None:
    view = saved_view(papers, {}, SavedSearch("Models", "language model"))
    view.show_tab("saved:models")
    index = SearchIndex(papers)
    view.set_query("diffusion")
    assert view.accept("diffusion", view.found_by(index.rank("diffusion", limit=None)))
    tab = view.saved[0]
    assert tab.found is not None and view.found is not None
    inside = set(tab.found.rows)
    assert view.rows() == [i for i in view.found.rows if i in inside]
    assert 0 < len(view.rows()) < len(view.found.rows)
    assert view.counts()["saved:models"] == len(tab.found.rows)  # the tab's own count


def test_has_note_and_tags_read_the_live_triage(papers: list[Paper]) -> None:
    view = saved_view(papers, {}, SavedSearch("Noted", "has:note"), SavedSearch("T", "tag:todo"))
    triage = TriageState(notes={papers[4].id: "read §3"}, tags={papers[6].id: ("todo",)})
    view.triage = lambda: triage
    assert view.counts()["saved:noted"] == 1 and view.counts()["saved:t"] == 1
    view.show_tab("saved:noted")
    assert view.rows() == [4]
    triage.notes[papers[9].id] = "another"
    assert view.rows() == [4, 9]  # list order: a query of filters only


def test_saved_tabs_follow_the_file(papers: list[Paper]) -> None:
    view = saved_view(papers, {}, SavedSearch("A", "diffusion"), SavedSearch("B", "graph"))
    view.show_tab("saved:a", leaving=papers[0].id)
    view.show_tab("saved:b", leaving=papers[1].id)
    # unchanged queries keep their papers; a changed one is searched again
    todo = view.set_saved([SavedSearch("a", "diffusion"), SavedSearch("B", "graph neural")])
    assert [t.search.name for t in todo] == ["B"] and view.saved[0].search.name == "a"
    assert view.saved[0].found is not None and view.saved[1].found is None
    assert view.list_title(0, view.rows()) == "B · searching…" and view.rows() == []
    assert "saved:b" not in view.counts()
    # the tab shown closes: the Inbox shows, and the closed tab's place is forgotten
    view.marked.add(papers[0].id)
    assert view.set_saved([SavedSearch("C", "model")])[0].search.name == "C"
    assert view.tab == "inbox" and not view.marked
    assert "saved:a" not in view.places and view.places["inbox"] == papers[0].id
    assert not view.show_tab("saved:a")


def test_saved_tabs_are_mapped_to_new_papers(papers: list[Paper]) -> None:
    view = saved_view(papers, {}, SavedSearch("A", "diffusion"))
    view.show_tab("saved:a")
    before = [view.ids[i] for i in view.rows()]
    view.replace_papers(list(reversed(papers)))
    assert [view.ids[i] for i in view.rows()] == before


def test_a_partial_search_says_so(papers: list[Paper]) -> None:
    view = saved_view(papers, {}, SavedSearch("[x] Odd", "diffusion model qqzzxx"))
    index = SearchIndex(papers)
    view.set_query("diffusion qqzzxx")
    view.accept("diffusion qqzzxx", view.found_by(index.rank("diffusion qqzzxx", limit=None)))
    assert view.list_title(0, view.rows()) == "Inbox · search: 1 of 2 words · 1 / 5"
    assert view.list_note() == "no paper has both words; showing those with 1 of 2"
    view.clear_search()
    assert view.list_note() == ""
    view.show_tab("saved:[x] odd")
    # the saved search's own fallback; a bracket of its name is no markup in the title
    assert view.list_title(0, view.rows()) == "\\[x] Odd · 2 of 3 words · 1 / 5"
    assert view.list_note() == "no paper has all 3 words; showing those with 2 of 3"


def test_a_search_that_finds_none_in_this_tab_says_how_many_in_all(
    papers: list[Paper],
) -> None:
    view = view_of(papers, {papers[3].id: Status.STARRED})
    index = SearchIndex(papers)
    view.set_query("is:starred")
    view.accept(view.query, view.found_by(index.rank(view.query, limit=None, statuses={
        papers[3].id: Status.STARRED})))  # fmt: skip
    view.relist()
    assert view.listed == [] and view.list_note() == "none here; 1 paper in All"
    view.show_tab("all")
    view.relist()
    assert len(view.listed) == 1 and view.list_note() == ""


def test_the_list_note_names_a_value_a_qualifier_does_not_take(papers: list[Paper]) -> None:
    view = saved_view(papers, {}, SavedSearch("Typo", "is:stared"))
    index = SearchIndex(papers)
    for text in ("diffusion is:skiped", "is:skiped diffusion"):
        view.set_query(text)
        view.accept(view.query, view.found_by(index.rank(view.query, limit=None)))
        assert view.list_note().startswith("is:skiped is read as words (is: takes inbox, ")
    view.set_query("diffusion rating:>")  # still being typed: no note yet
    assert not view.list_note().startswith("rating")
    view.clear_search()
    view.show_tab("saved:typo")
    assert view.list_note().startswith("is:stared is read as words")


def test_triage_qualifiers_walk_the_smaller_side(papers: list[Paper]) -> None:
    statuses = {p.id: Status.READ for p in papers[:30]}
    view = saved_view(
        papers, statuses, SavedSearch("Unread", "-is:read"), SavedSearch("D", "diffusion is:read")
    )
    diffusion = view.saved[1].found.rows if view.saved[1].found else []
    # 38 rows against 30 decisions: the decisions are walked; 5 rows against 30: the rows
    assert view.counts()["saved:unread"] == 8
    assert view.counts()["saved:d"] == sum(1 for i in diffusion if i < 30) > 0
    view.show_tab("saved:d")
    assert view.rows() == [i for i in diffusion if i < 30]
    view.show_tab("saved:unread")
    assert view.rows() == list(range(30, 38))


def test_counts_and_rows_kept_between_changes_stay_exact(papers: list[Paper]) -> None:
    """Tabs' rows and counts kept per version of the statuses, moved by each decision,
    are always what counting every paper again gives."""
    import random

    rng = random.Random(7)
    statuses: dict[str, Status] = {}
    version = [0]
    state = TriageState(statuses=statuses)
    kept = TriageView(papers, lambda: state, lambda: version[0])
    fresh = view_of(papers, statuses)
    ids = [p.id for p in papers]
    tabs = ("inbox", "starred", "read", "skipped", "all")
    for _ in range(300):
        pid = rng.choice(ids)
        new = rng.choice(list(Status))
        before = version[0]
        change = (pid, statuses.get(pid, Status.INBOX), new)
        if rng.random() < 0.8:  # a decision, as the screen makes it
            version[0] += 1
            if new is Status.INBOX:
                statuses.pop(pid, None)
            else:
                statuses[pid] = new
            kept.decided([change], before)
        else:  # anything else that changes the statuses moves the version
            statuses[rng.choice(ids)] = rng.choice([Status.READ, Status.SKIPPED])
            version[0] += 1
        assert kept.counts() == fresh.counts()
        tab = rng.choice(tabs)
        assert kept.tab_rows(tab) == fresh.tab_rows(tab)
    rows = kept.tab_rows("inbox")
    rows.clear()  # a copy: the kept rows are not the caller's to change
    assert kept.tab_rows("inbox") == fresh.tab_rows("inbox")


def test_a_decision_takes_its_paper_out_of_the_rows_a_tab_no_longer_holds(
    papers: list[Paper],
) -> None:
    statuses: dict[str, Status] = {}
    view = view_of(papers, statuses)
    listed = view.relist()
    assert listed == list(range(len(papers))) and view.listed is listed
    first, second = papers[0].id, papers[1].id
    statuses[first] = Status.READ  # the session applied it
    assert view.decided([(first, Status.INBOX, Status.READ)]) == [0]
    assert view.listed == list(range(1, len(papers)))  # the Inbox no longer holds it
    statuses[second] = Status.STARRED
    statuses[papers[3].id] = Status.SKIPPED
    changes = [(second, Status.INBOX, Status.STARRED), (papers[3].id, Status.INBOX, Status.SKIPPED)]
    assert view.decided(changes) == [0, 2]  # where they were in the rows before
    assert view.listed == view.rows()  # what listing again would give
    view.show_tab("all")
    view.relist()
    statuses[papers[5].id] = Status.READ
    assert view.decided([(papers[5].id, Status.INBOX, Status.READ)]) == []  # All keeps it
    assert view.listed == list(range(len(papers)))


def test_the_pane_is_shown_the_live_triage_and_the_search(papers: list[Paper]) -> None:
    paper = papers[2]
    state = TriageState(
        statuses={paper.id: Status.STARRED}, notes={paper.id: "why"}, tags={paper.id: ("x",)}
    )
    view = TriageView(papers, lambda: state)
    index = SearchIndex(papers)
    view.set_query("diffusion")
    view.accept("diffusion", view.found_by(index.rank("diffusion", limit=None)))
    shown = view.paper_view(paper)
    assert (shown.status, shown.note, tuple(shown.tags)) == (Status.STARRED, "why", ("x",))
    assert shown.words == view.matched(paper.id)
    assert view.status(paper.id) is Status.STARRED and view.noted(paper.id)
    assert view.status(papers[0].id) is Status.INBOX and not view.noted(papers[0].id)


def test_new_papers_keep_the_rows_listed_that_are_still_there(papers: list[Paper]) -> None:
    view = view_of(papers, {})
    view.relist()
    shown = [view.ids[i] for i in view.listed]
    fewer = [p for p in reversed(papers) if p.id != papers[1].id]  # another order, one gone
    view.replace_papers(fewer)
    assert [view.ids[i] for i in view.listed] == [pid for pid in shown if pid != papers[1].id]


class _Live:
    """The session's side of a view: the live triage and its version, changed by hand."""

    def __init__(self) -> None:
        self.state = TriageState()
        self.version = 0


LIVE_SEARCHES = (
    SavedSearch("Open", "is:inbox"),
    SavedSearch("Kept", "model is:starred"),
    SavedSearch("Left", "-is:inbox"),
    SavedSearch("Noted", "has:note"),
    SavedSearch("Later", "tag:later"),
    SavedSearch("Words", "learning"),
)


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    steps=st.lists(
        st.tuples(
            st.sampled_from(("decide", "undo", "note", "tag", "move")),
            st.integers(0, 37),
            st.sampled_from(list(Status)),
        ),
        max_size=30,
    )
)
def test_saved_tabs_counts_moved_by_each_change_equal_counts_from_scratch(
    papers: list[Paper], steps: list[tuple[str, int, Status]]
) -> None:
    """Counted once and then moved by each decision (told), or counted again (a note, a tag:
    not told): always the count a fresh view makes."""
    live = _Live()
    view = TriageView(papers, lambda: live.state, lambda: live.version)
    index = SearchIndex(papers)
    for tab in view.set_saved(LIVE_SEARCHES):
        query, qualifiers = split_query(tab.search.query)
        assert view.take_saved(tab.search, view.found_by(index.rank(query, limit=None)), qualifiers)
    view.counts()
    done: list[tuple[str, Status, Status]] = []
    for kind, i, status in steps:
        pid, before = papers[i].id, live.version
        statuses = live.state.statuses
        if kind in ("decide", "undo"):
            if kind == "undo":
                if not done:
                    continue
                pid, status, _ = done.pop()  # back to what it was
            old = statuses.get(pid, Status.INBOX)
            if status is Status.INBOX:
                statuses.pop(pid, None)
            else:
                statuses[pid] = status
            live.version += 1
            if kind == "decide":
                done.append((pid, old, status))
                view.decided([(pid, old, status)], before)
            else:
                view.counted_changes([(pid, old, status)], before)
        elif kind == "note":
            live.state.notes[pid] = "" if pid in live.state.notes else "see §2"
            live.state.notes = {k: v for k, v in live.state.notes.items() if v}
            live.version += 1
        elif kind == "tag":
            live.state.tags[pid] = () if live.state.tags.get(pid) else ("later",)
            live.version += 1
        else:  # a move in the reading queue: nothing a count sees
            live.state.positions[pid] = float(i)
            live.version += 1
            view.counts_unchanged(before)
        fresh = TriageView(papers, lambda: live.state)
        fresh.set_saved(LIVE_SEARCHES)
        for tab in fresh.saved:
            query, qualifiers = split_query(tab.search.query)
            fresh.take_saved(tab.search, fresh.found_by(index.rank(query, limit=None)), qualifiers)
        assert view.counts() == fresh.counts()
