"""Similar papers, the suggested order and topics, worked out off the keystroke path.

The tf-idf index is ``similar.index`` beside ``papers.json``, memory-mapped, as the CLI reads
it (the import makes it); when it is not there it is made on first use (it costs memory most
sessions never need: from 20,000 papers in a child process, whose memory is given back when it
ends) and kept for the papers it was made from. Each task runs in a thread worker and posts a
typed message (``SimilarReady``, ``SuggestionsReady``, ``TopicsReady``) to the screen that
asked.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from textual.dom import DOMNode
from textual.message import Message

from storage.models import Paper, Status
from tui.memory import release_memory
from tui.messages import SimilarReady, SuggestionsReady, TopicsReady

if TYPE_CHECKING:
    from storage.library import Library
    from storage.similar import SimilarityIndex


class SimilarWork:
    """The similar-papers index (tf-idf) of one list of papers, and the tasks that use it."""

    def __init__(self, notify: Callable[[str], None], library: Library | None = None) -> None:
        #: Called (from the worker thread) when the index must be built first.
        self._notify = notify
        #: Where ``similar.index`` is (None: always built in memory).
        self._library = library
        self._papers: Sequence[Paper] | None = None
        self._index: SimilarityIndex | None = None

    def _index_of(self, papers: Sequence[Paper]) -> SimilarityIndex:
        if self._index is None or self._papers is not papers:
            index = self._saved(papers)
            if index is None:
                from storage.similar import SimilarityIndex  # numpy: only when first asked

                self._notify("Preparing similar papers (once per session)…")
                index = SimilarityIndex(papers)
            release_memory()
            self._papers, self._index = papers, index
        return self._index

    def index_for(self, papers: Sequence[Paper]) -> SimilarityIndex:
        """The index of ``papers``, built first if need be (call it off the UI thread)."""
        return self._index_of(papers)

    def _saved(self, papers: Sequence[Paper]) -> SimilarityIndex | None:
        """``similar.index`` of ``papers`` (made first if it is not there), when ``papers``
        are the library's papers of the version on disk; else None."""
        if self._library is None:
            return None
        from storage.cache.refresh import LARGE
        from storage.cache.similar_index import (
            SIMILAR_FILE,
            build_elsewhere,
            load_ready,
            load_similarity,
            similarity_for,
        )

        loaded = self._library.loaded_papers()
        version = loaded.content if loaded.holds(papers) else None
        if version is None:
            return None
        home = self._library.home
        found = load_ready(home, version, papers)
        if found is not None:
            return found
        self._notify("Preparing similar papers (once per library version)…")
        if len(papers) < LARGE:
            return similarity_for(home, papers, version)  # built here, saved
        if build_elsewhere(home, version):
            return load_similarity(home / SIMILAR_FILE, version, papers)
        return None

    def _run(self, node: DOMNode, work: Callable[[], Message], what: str) -> None:
        """Run ``work`` in a thread for ``node`` and post the message it returns to it."""
        node.run_worker(
            lambda: node.post_message(work()),
            thread=True,
            exclusive=True,
            group="similar",
            exit_on_error=False,
            description=what,
        )

    def similar(self, node: DOMNode, papers: Sequence[Paper], paper_id: str) -> None:
        """Find the papers most like one paper; posts ``SimilarReady``."""

        def work() -> Message:
            neighbours = self._index_of(papers).similar(paper_id, limit=20)
            return SimilarReady(papers, paper_id, neighbours)

        self._run(node, work, "similar papers")

    def suggest(
        self, node: DOMNode, papers: Sequence[Paper], statuses: Mapping[str, Status]
    ) -> None:
        """Order the Inbox by likeness to the starred papers; posts ``SuggestionsReady``."""
        decided = dict(statuses)  # as they are now: the user may go on deciding meanwhile

        def work() -> Message:
            return SuggestionsReady(papers, self._index_of(papers).suggest(decided))

        self._run(node, work, "suggested order")

    def topics(self, node: DOMNode, papers: Sequence[Paper], paper_ids: list[str]) -> None:
        """Group papers into topic clusters; posts ``TopicsReady``."""

        def work() -> Message:
            return TopicsReady(papers, self._index_of(papers).topics(paper_ids))

        self._run(node, work, "topics")
