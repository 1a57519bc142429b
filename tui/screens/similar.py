"""Similar papers (``m``) and the Inbox's topic clusters (``T``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import ClassVar, TypeVar

from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.widgets import Label, OptionList
from textual.widgets.option_list import Option

from storage.models import Paper, Status
from storage.similar import Neighbour, Topic
from tui.commands import bindings, closing_words, key_named
from tui.screens.dialogs import BulkDecision
from tui.screens.keys_first import DialogKeysFirst
from tui.text import printable
from tui.widgets.fitting import DialogBox
from tui.widgets.paper_list import STATUS_MARKS

_Result = TypeVar("_Result")


class _Listed(DialogKeysFirst[_Result]):
    """A dialog of one ``OptionList``: ``j`` and ``k`` move in it, as in the paper list (the
    arrows are the list's own); Enter, the list's own too, chooses (``choose``: the key the
    footer names, and a remapped one)."""

    def action_choose(self) -> None:
        self.query_one(OptionList).action_select()

    def action_move(self, step: int) -> None:
        listed = self.query_one(OptionList)
        if step > 0:
            listed.action_cursor_down()
        else:
            listed.action_cursor_up()


class SimilarScreen(_Listed[str | None]):
    """The papers most like one paper; Enter goes to the chosen one."""

    #: Its keys (``tui.commands``), which the footer shows while it is open.
    KEYS: ClassVar[str] = "similar"
    BINDINGS = bindings(KEYS)

    def __init__(
        self,
        paper: Paper,
        neighbours: Sequence[Neighbour],
        papers: Sequence[Paper],
        position: Mapping[str, int],
        status_of: Callable[[str], Status],
    ) -> None:
        super().__init__()
        self.paper = paper
        self.neighbours = neighbours
        self.papers = papers
        self.position = position
        self.status_of = status_of

    def compose(self) -> ComposeResult:
        with DialogBox(classes="dialog dialog-wide") as box:
            box.border_title = "Similar papers"
            keymap, web = getattr(self.app, "keymap", {}), self.app.is_web
            go, close = (
                key_named("similar_go", keymap, web=web),
                closing_words(self.KEYS, keymap, web=web),
            )
            box.say_keys(
                f"{go} goes to the paper · {close}",
                f"{go} goes to it · {close}",
                close,
            )
            yield Label(Text(f"Most like “{printable(self.paper.display_title)}”:", style="bold"))
            options = []
            for n in self.neighbours:
                other = self.papers[self.position[n.paper_id]]
                line = Text(
                    f"{STATUS_MARKS[self.status_of(n.paper_id)]} {n.score:.2f}  ", style="dim"
                )
                line.append(printable(other.display_title))
                if n.shared:
                    shared = printable(", ".join(n.shared[:5]))  # words of the abstracts
                    line.append(f"\n      shares: {shared}", style="dim italic")
                options.append(Option(line, id=n.paper_id))
            if not options:
                options.append(Option(Text("No similar papers found.", style="dim"), disabled=True))
            yield OptionList(*options, id="similar-list")

    @on(OptionList.OptionSelected)
    def chosen(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        self.dismiss(None)


class TopicsScreen(_Listed[tuple[Sequence[str], Status | None] | None]):
    """Topic clusters of the Inbox: Enter marks a topic's papers, D decides them at once."""

    #: Its keys (``tui.commands``), which the footer shows while it is open.
    KEYS: ClassVar[str] = "topics"
    BINDINGS = bindings(KEYS)

    def __init__(
        self, topics: Sequence[Topic], papers: Sequence[Paper], position: Mapping[str, int]
    ) -> None:
        super().__init__()
        self.topics = list(topics)
        self.papers = papers
        self.position = position

    def compose(self) -> ComposeResult:
        with DialogBox(classes="dialog dialog-wide") as box:
            box.border_title = "Topics in the Inbox"
            keymap, web = getattr(self.app, "keymap", {}), self.app.is_web
            mark, decide = (
                key_named(command, keymap, web=web) for command in ("topics_mark", "topics_decide")
            )
            close = closing_words(self.KEYS, keymap, web=web)
            box.say_keys(
                f"{mark} marks the topic's papers · {decide} decides them all · {close}",
                f"{mark} marks · {decide} decides them all · {close}",
                f"{mark} marks · {decide} decides · {close}",
                close,
            )
            options = []
            for i, topic in enumerate(self.topics):
                head = Text(f"{len(topic.paper_ids):>5,}  ", style="bold")
                head.append(printable(topic.label), style="bold cyan")
                lines: list[RenderableType] = [head]
                for pid in topic.paper_ids[:2]:
                    title = (
                        self.papers[self.position[pid]].display_title
                        if pid in self.position
                        else pid
                    )
                    # a long title wraps under itself, whole, not under the counts
                    lines.append(Padding(Text(printable(title)[:300], style="dim"), (0, 0, 0, 7)))
                options.append(Option(Group(*lines), id=str(i)))
            yield OptionList(*options, id="topic-list")

    def _current(self) -> Topic | None:
        option_list = self.query_one(OptionList)
        index = option_list.highlighted
        return self.topics[index] if index is not None and index < len(self.topics) else None

    @on(OptionList.OptionSelected)
    def chosen(self, event: OptionList.OptionSelected) -> None:
        topic = self.topics[int(event.option.id or 0)]
        self.dismiss((topic.paper_ids, None))

    def action_decide(self) -> None:
        topic = self._current()
        if topic is None:
            return

        def decided(status: Status | None) -> None:
            if status is not None:
                self.dismiss((topic.paper_ids, status))

        self.app.push_screen(BulkDecision(len(topic.paper_ids)), decided)

    def action_cancel(self) -> None:
        self.dismiss(None)
