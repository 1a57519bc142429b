"""App-wide events, posted from worker threads to the main screen: small typed messages."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from textual.message import Message

from storage.models import Paper
from tui.session import Outcome

if TYPE_CHECKING:  # imported when first needed, after the first paint
    from storage.search import SearchIndex
    from storage.similar import Neighbour, Suggestion, Topic


@dataclass
class Persisted(Message):
    """The writer thread put an operation on disk (or failed to)."""

    outcome: Outcome


@dataclass
class IndexReady(Message):
    """The search index for these papers is built."""

    papers: Sequence[Paper]
    index: SearchIndex


@dataclass
class SimilarReady(Message):
    """The papers most like one paper (``m``), found for these papers."""

    papers: Sequence[Paper]
    paper_id: str
    neighbours: Sequence[Neighbour]


@dataclass
class SuggestionsReady(Message):
    """The Inbox in suggested order (ctrl+o), made for these papers."""

    papers: Sequence[Paper]
    suggestions: Sequence[Suggestion]


@dataclass
class TopicsReady(Message):
    """The Inbox grouped into topics (``T``), made for these papers."""

    papers: Sequence[Paper]
    topics: Sequence[Topic]
