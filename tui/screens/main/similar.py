"""The main screen's keys for similar papers: the papers like one, the suggested order, topics."""

from __future__ import annotations

from collections.abc import Sequence

from textual import on
from textual.widgets import Input

from storage.models import Status
from storage.text.words import count
from tui.key_gate import expect_screen, screen_arrived
from tui.messages import SimilarReady, SuggestionsReady, TopicsReady
from tui.screens.main.base import MainBase

#: From this many papers the suggested order and the topics take seconds (at 100,000: 4 s and
#: 2.5 s): said as they start.
SAID_FROM = 20_000


class SimilarPart(MainBase):
    """``m``, ctrl+o and ``T``: each runs off the keystroke path, its result comes back as a
    message and is dropped when the papers changed meanwhile."""

    def action_similar(self) -> None:
        paper = self.paper_list.current
        if paper is not None:
            self.similar_work.similar(self, self.view.papers, paper.id)
            expect_screen(self.app)  # the keys typed on are the dialog's

    @on(SimilarReady)
    def similar_ready(self, event: SimilarReady) -> None:
        from tui.screens.similar import SimilarScreen

        paper = self.view.paper(event.paper_id)
        screen_arrived(self.app)  # (it is pushed below: the keys held go to it)
        if event.papers is not self.view.papers or paper is None:
            return  # the library changed meanwhile

        def chosen(paper_id: str | None) -> None:
            if paper_id is None:
                return
            if self.paper_list.index_of(paper_id) is None:  # not shown: show everything
                self.view.enter("all")
                with self.search_box.prevent(Input.Changed):
                    self.search_box.clear_text()
                self.view.clear_search()
            self.rebuild(keep=paper_id)

        screen = SimilarScreen(
            paper, event.neighbours, self.view.papers, self.view.position, self.session.status
        )
        self.app.push_screen(screen, chosen)

    def action_toggle_order(self) -> None:
        if self.view.suggested_rows is not None:
            self.view.unsuggest()
            self.notify("Inbox in list order.", timeout=2, markup=False)
            self.rebuild(cursor=0)
            return
        statuses = self.session.state.statuses
        if Status.STARRED not in statuses.values():
            message = "Star a few papers first: suggestions follow your stars."
            self.notify(message, severity="warning", markup=False)
            return
        if len(self.view.papers) >= SAID_FROM:
            starred = sum(1 for status in statuses.values() if status is Status.STARRED)
            self.notify(
                f"Ordering the Inbox by likeness to your {count(starred, 'starred paper')}…",
                timeout=3,
                markup=False,
            )
        self.similar_work.suggest(self, self.view.papers, statuses)

    @on(SuggestionsReady)
    def suggestions_ready(self, event: SuggestionsReady) -> None:
        if event.papers is self.view.papers:
            self.view.suggest(event.suggestions)
            message = "Inbox in suggested order: most like your starred papers first."
            self.notify(message, timeout=3, markup=False)
            self.rebuild(cursor=0)

    def action_topics(self) -> None:
        inbox = [p.id for p in self.view.papers if self.session.status(p.id) is Status.INBOX]
        if len(inbox) < 4:
            self.notify("Too few papers in the Inbox to group.", severity="warning", markup=False)
            return
        if len(inbox) >= SAID_FROM:
            self.notify(f"Grouping {count(len(inbox), 'paper')} into topics…", markup=False)
        self.similar_work.topics(self, self.view.papers, inbox)
        expect_screen(self.app)

    @on(TopicsReady)
    def topics_ready(self, event: TopicsReady) -> None:
        from tui.screens.similar import TopicsScreen

        screen_arrived(self.app)
        if event.papers is not self.view.papers:
            return

        def chosen(result: tuple[Sequence[str], Status | None] | None) -> None:
            if result is None:
                return
            ids, status = result
            if status is not None:
                self.decide_many(ids, status)
                return
            self.view.enter("inbox")  # the marks of the tab left kept for it; the Inbox's replaced
            self.view.marked.clear()
            self.view.marked.update(ids)
            self.rebuild()
            decide = self.key_shown("decide_marked")
            message = f"Marked {len(ids):,} papers: {decide} decides them together."
            self.notify(message, timeout=4, markup=False)

        screen = TopicsScreen(event.topics, self.view.papers, self.view.position)
        self.app.push_screen(screen, chosen)
