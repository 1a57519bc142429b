"""``SearchIndex``: the one object the app and the CLI search through.

It composes the parts of this package: the papers by slot (``table.py``), the vocabulary and
what a query word stands for in it (``vocabulary.py``), the postings (``postings.py``, built by
``build.py``), the filters (``filters.py``) and the ranking (``ranking.py``). It owns the lock:
the parts assume one caller at a time.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Collection, Iterable, Mapping, MutableSequence, Sequence
from pathlib import Path
from typing import Final

from storage.models import Paper, Status
from storage.paper_words import RawWords, SimilarityWords
from storage.search.build import forget_slots, index_batch
from storage.search.filters import Filters
from storage.search.hits import Ranking, SearchHit
from storage.search.matching import plan_query
from storage.search.meant import MeantWords
from storage.search.none_found import Part, why_none, words_label
from storage.search.postings import Postings
from storage.search.qualifiers import PdfTextSearch
from storage.search.query import Query, parse_query
from storage.search.ranking import Ranker
from storage.search.table import PaperTable
from storage.search.vocabulary import Vocabulary

#: A rebuild merges the segments when there are this many, or when this share of slots is dead.
_MAX_SEGMENTS: Final = 8
_MAX_DEAD_SHARE: Final = 0.25


class SearchIndex:
    """An inverted index over papers' titles, method names, authors and abstracts.

    Build it once per library load; ``add`` indexes imported papers without a rebuild.
    Safe to call from worker threads: queries and updates are serialised by a lock.
    """

    def __init__(self, papers: Sequence[Paper] = ()) -> None:
        self._lock = threading.RLock()
        self._reset(next_rank=0)
        self.add(papers)

    @classmethod
    def from_parts(
        cls, table: PaperTable, vocabulary: Vocabulary, postings: Postings
    ) -> SearchIndex:
        """An index of parts made elsewhere (``store.py`` loads them from disk)."""
        index = cls()
        with index._lock:
            index._assemble(table, vocabulary, postings)
        return index

    def _reset(self, next_rank: int) -> None:
        """Empty the index (a search still reading the old parts keeps them)."""
        self._assemble(PaperTable(next_rank), Vocabulary(), Postings())

    def _assemble(self, table: PaperTable, vocabulary: Vocabulary, postings: Postings) -> None:
        self._table = table
        self._vocabulary = vocabulary
        self._postings = postings
        vocabulary.meant = MeantWords(table, vocabulary, postings)
        self._filters = Filters(self._table, self._vocabulary, self._postings)
        self._ranker = Ranker(self._table, self._vocabulary, self._postings, self._filters)

    def parts(self) -> tuple[PaperTable, Vocabulary, Postings]:
        """The index's parts, as they are now (``store.py`` saves them)."""
        with self._lock:
            return self._table, self._vocabulary, self._postings

    # ----------------------------------------------------------------- building

    @classmethod
    def lazily(cls, papers: MutableSequence[Paper]) -> SearchIndex:
        """The index of a library's papers (distinct ids, in list order), read once, in order,
        and not kept: the index reads them from ``papers`` where a search needs them (a
        ``PaperSequence`` of ``papers.cache``: a build of 100,000 papers then never holds
        them all)."""
        return cls._lazily(papers, None)[0]

    @classmethod
    def lazily_with_words(
        cls, papers: MutableSequence[Paper], spill: Path | None = None
    ) -> tuple[SearchIndex, SimilarityWords]:
        """``lazily``, and the title and abstract words it was built from, for the similarity
        matrix (``storage.similar.matrix.build_from_words``): the words of both indexes cut
        once. ``spill``: a folder where the words wait, out of memory, until the matrix is
        made (``SimilarityWords``)."""
        index, words = cls._lazily(papers, lambda raw: SimilarityWords(raw, spill))
        assert words is not None
        return index, words

    @classmethod
    def _lazily(
        cls,
        papers: MutableSequence[Paper],
        similarity: Callable[[RawWords], SimilarityWords] | None,
    ) -> tuple[SearchIndex, SimilarityWords | None]:
        index = cls()
        with index._lock:
            table = index._table
            words = index_batch(
                papers,
                range(len(papers)),
                table,
                index._vocabulary,
                index._postings,
                kept=papers,
                similarity=similarity,
            )
            table.next_rank = len(papers)
            index.clear_caches()
        return index, words

    def add(self, papers: Sequence[Paper]) -> None:
        """Index new papers (appended in order) and re-index papers whose id is already known."""
        with self._lock:
            batch = list({paper.id: paper for paper in papers}.values())
            if not batch:
                return
            table = self._table
            replaced = sum(1 for p in batch if p.id in table.slot_by_id)
            if self._due_rebuild(len(batch), replaced):
                # Many segments, many stale slots, or an import as large as the library:
                # rebuild as one segment (the cost of a build, with coherent statistics).
                ranks = table.ranks_for(batch)
                live = [(int(table.rank[s]), table.papers[s]) for s in table.live_slots().tolist()]
                live.extend(zip(ranks, batch, strict=True))
                live.sort(key=lambda pair: pair[0])
                self._reset(table.next_rank)
                batch, ranks = [p for _, p in live], [r for r, _ in live]
                dead: list[int] = []
            else:
                dead = [table.slot_by_id[p.id] for p in batch if p.id in table.slot_by_id]
                ranks = table.ranks_for(batch)
            index_batch(batch, ranks, self._table, self._vocabulary, self._postings)
            if dead:
                forget_slots(dead, self._table, self._vocabulary, self._postings)
            self.clear_caches()

    def add_segment(self, papers: Sequence[Paper]) -> bool:
        """``add`` as one more segment; False (nothing done) when the index is due to be built
        anew instead (``add`` would rebuild it)."""
        with self._lock:
            batch = list({paper.id: paper for paper in papers}.values())
            if not batch:
                return True
            table = self._table
            replaced = sum(1 for p in batch if p.id in table.slot_by_id)
            if self._due_rebuild(len(batch), replaced):
                return False
            dead = [table.slot_by_id[p.id] for p in batch if p.id in table.slot_by_id]
            ranks = table.ranks_for(batch)
            index_batch(batch, ranks, self._table, self._vocabulary, self._postings)
            if dead:
                forget_slots(dead, self._table, self._vocabulary, self._postings)
            self.clear_caches()
            return True

    def _due_rebuild(self, added: int, replaced: int) -> bool:
        """Whether adding ``added`` papers (``replaced`` of them known) should rebuild it all."""
        table = self._table
        dead = len(table) - table.live_count + replaced
        return bool(self._postings.segments) and (
            len(self._postings.segments) >= _MAX_SEGMENTS
            or dead > _MAX_DEAD_SHARE * len(table)
            or added >= table.live_count
        )

    # ----------------------------------------------------------------- introspection

    def __len__(self) -> int:
        """Number of papers indexed."""
        return self._table.live_count

    def paper(self, paper_id: str) -> Paper | None:
        """The indexed paper with this id, if any."""
        with self._lock:
            slot = self._table.slot_by_id.get(paper_id)
            return None if slot is None else self._table.papers[slot]

    def papers_of(self, paper_ids: Iterable[str]) -> list[Paper]:
        """The indexed papers of these ids, in the order given (an id not indexed is passed
        by): the papers of an index loaded from disk are read a chunk at a time, each chunk
        once, not a paper at a time (``_papers_at``)."""
        with self._lock:
            slot_by_id = self._table.slot_by_id
            return self._papers_at([s for i in paper_ids if (s := slot_by_id.get(i)) is not None])

    def papers(self) -> list[Paper]:
        """The indexed papers, in index (list) order."""
        with self._lock:
            return self._papers_at(self._table.live_slots().tolist())

    def _papers_at(self, slots: list[int]) -> list[Paper]:
        papers = self._table.papers
        # read from papers.cache as far as asked (``storage.cache.loaded_papers.PaperSequence``)
        many: Callable[[list[int]], list[Paper]] | None = getattr(papers, "items", None)
        return many(slots) if many is not None else [papers[s] for s in slots]

    @property
    def vocabulary_size(self) -> int:
        """Number of distinct index words."""
        return len(self._vocabulary)

    @property
    def postings(self) -> int:
        """Number of (word, paper) postings."""
        return len(self._postings)

    def clear_caches(self) -> None:
        """Forget cached word matches, scores and phrase checks (rebuilt on demand)."""
        with self._lock:
            self._vocabulary.clear_cache()
            self._ranker.clear_cache()
            self._filters.clear_cache()

    def memory_bytes(self) -> int:
        """Approximate memory of the index itself (not of the papers): arrays and vocabulary."""
        return (
            self._postings.nbytes
            + self._table.memory_bytes()
            + self._vocabulary.memory_bytes()
            + self._ranker.cache_bytes()
        )

    def highlight_terms(self, hit: SearchHit) -> frozenset[str]:
        """The index words to highlight for a hit (``storage.text.highlight`` finds them)."""
        return hit.matched

    # ----------------------------------------------------------------- searching

    def search(
        self,
        query: str | Query,
        limit: int | None = 20,
        statuses: Mapping[str, Status | str] | None = None,
        tags: Mapping[str, Sequence[str]] | None = None,
        notes: Mapping[str, str] | Collection[str] | None = None,
        pdf_text: PdfTextSearch | None = None,
    ) -> list[SearchHit]:
        """Papers matching ``query``, best first (list order when only filters are given).

        A paper matches when it has every word of the query (or, when none has, when it is one
        of the closest: ``rank`` says so). ``statuses`` maps paper ids to triage states (absent
        ids are in the inbox) for ``is:``; ``tags`` maps paper ids to tags for ``tag:``;
        ``notes`` maps paper ids to notes, or holds the ids of the papers with a note, for
        ``has:note``; ``pdf_text`` is the text of the downloaded PDFs, for ``pdf:``.
        ``limit=None`` returns every match.
        """
        return self.rank(query, limit, statuses, tags, notes, pdf_text).hits()

    def rank(
        self,
        query: str | Query,
        limit: int | None = 20,
        statuses: Mapping[str, Status | str] | None = None,
        tags: Mapping[str, Sequence[str]] | None = None,
        notes: Mapping[str, str] | Collection[str] | None = None,
        pdf_text: PdfTextSearch | None = None,
    ) -> Ranking:
        """``search``, as a ``Ranking``: the ids at once, a hit only for the papers read, and
        whether they match only part of the query (``Ranking.partial``)."""
        parsed = parse_query(query) if isinstance(query, str) else query
        if isinstance(notes, Mapping):
            notes = [pid for pid, note in notes.items() if note and note.strip()]
        with self._lock:
            if limit is not None and limit <= 0 or not len(self._table):
                return Ranking([], [])
            allowed = self._filters.allowed(parsed, statuses, tags, notes or (), pdf_text)
            plan = plan_query(parsed, self._vocabulary)
            if not plan.words:
                ranking = self._ranker.in_list_order(allowed, limit)
            else:
                ranking = self._ranker.ranked(plan, allowed, limit)
            if not ranking.ids:  # say why, when it can be told (``none_found.py``)
                ranking.searched = self._table.live_count
                parts = allowed.parts
                if parsed.words or parsed.either:
                    # one word is counted (the papers it matches), several are not: alone they
                    # would list the papers with them all, else those with the most
                    single = len(parsed.words) == 1 and not parsed.either
                    words = self._ranker.words_mask(plan, parsed)
                    parts = [Part(words_label(parsed), words, exact=single), *parts]
                ranking.why_none = why_none(parts, self._table.live, allowed.facts)
            return ranking
