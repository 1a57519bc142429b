"""The similarity index of a library: a paper's neighbours and a suggested Inbox order.

- ``similar``: the cosine of one row with every other, accumulated over the postings of its terms.
- ``suggest``: Rocchio-style relevance feedback plus nearest starred paper, see ``suggest``.
- ``topics``: clusters of papers, see ``topics.py``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np

from storage.models import Paper, Status
from storage.similar.matrix import FloatArray, IntArray, Rows, build
from storage.similar.terms import distinct
from storage.similar.topics import Topic, cluster

#: ``suggest``: the share of the score that comes from the nearest starred paper (the rest comes
#: from the centroid of the starred and read papers) ...
NEAREST_WEIGHT: Final = 0.1
#: ... a read paper counts this much of a starred one in that centroid ...
READ_WEIGHT: Final = 0.25
#: ... and the cosine to the centroid of the skipped papers is subtracted with this weight.
SKIP_WEIGHT: Final = 0.5
#: Starred (or skipped) papers scored per batch in ``suggest``: bounds memory to batch x papers.
_BATCH: Final = 32
#: ``suggest``'s nearest starred paper: postings entries read at most (see ``_nearest``);
#: some 2 s of work.
NEAREST_POSTINGS: Final = 50_000_000


@dataclass(frozen=True, slots=True)
class Neighbour:
    """A paper like the one asked about: its cosine similarity and the terms they share most."""

    paper_id: str
    score: float
    #: The terms that contribute most to the similarity, best first (the "why").
    shared: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Suggestion:
    """A candidate paper in suggested order, and the starred paper it most resembles."""

    paper_id: str
    score: float
    #: The id of the most similar starred paper; None when nothing starred resembles it.
    because: str | None = None


def _top(scores: FloatArray, limit: int) -> IntArray:
    """Indexes of the ``limit`` highest positive scores, best first, ties in index order."""
    positive = np.flatnonzero(scores > 0)
    if len(positive) > limit:
        cut = np.argpartition(-scores[positive], limit - 1)[:limit]
        threshold = scores[positive[cut]].min()
        positive = positive[scores[positive] >= threshold]
    order = np.lexsort((positive, -scores[positive]))
    return positive[order][:limit]


class SimilarityIndex:
    """Paper-to-paper similarity over a library: neighbours, suggested order, topics."""

    def __init__(self, papers: Sequence[Paper] = ()) -> None:
        self._given: Sequence[Paper] = ()
        self._papers: dict[str, Paper] | None = {paper.id: paper for paper in papers}
        self._matrix: Rows = build(list(self._papers.values()))

    @classmethod
    def lazily(cls, papers: Sequence[Paper], ids: Sequence[str]) -> SimilarityIndex:
        """The index of a library's papers (distinct ``ids``, in list order), read a chunk at
        a time and not kept (a ``PaperSequence`` of ``papers.cache``): read again only if
        papers are added."""
        return cls.from_matrix(build(papers, ids), papers)

    @classmethod
    def from_matrix(cls, matrix: Rows, papers: Sequence[Paper]) -> SimilarityIndex:
        """The index of ``papers`` (in list order: the matrix's rows) whose matrix was made
        before (``storage.cache.similar_index`` loads it); the papers are read only if papers
        are added."""
        index = cls()
        index._given, index._papers, index._matrix = papers, None, matrix
        return index

    @property
    def matrix(self) -> Rows:
        """The tf-idf matrix (``storage.cache.similar_index`` saves it)."""
        return self._matrix

    def add(self, papers: Sequence[Paper]) -> None:
        """Add papers (a paper with a known id replaces it in place) and rebuild the matrix."""
        if not papers:
            return
        if self._papers is None:
            self._papers = {paper.id: paper for paper in self._given}
        for paper in papers:
            self._papers[paper.id] = paper
        # One assignment, so that a query in another thread sees the old or the new matrix.
        self._matrix = build(list(self._papers.values()))

    def __len__(self) -> int:
        return self._matrix.size

    def __contains__(self, paper_id: object) -> bool:
        return paper_id in self._matrix.rows

    @property
    def vocabulary_size(self) -> int:
        """The number of terms (words and bigrams) in the matrix."""
        return len(self._matrix.terms)

    def memory_bytes(self) -> int:
        """Bytes held by the matrix arrays (rows and postings)."""
        return self._matrix.nbytes()

    def terms(self, paper_id: str, limit: int = 8) -> tuple[str, ...]:
        """A paper's highest-weighted terms; () for an unknown id."""
        matrix = self._matrix
        row = matrix.rows.get(paper_id)
        if row is None:
            return ()
        term_ids, weights = matrix.row(row)
        order = np.lexsort((term_ids, -weights))
        return distinct((matrix.terms[int(term_ids[i])] for i in order), limit)

    # ------------------------------------------------------------------ similar

    def similar(self, paper_id: str, limit: int = 10) -> list[Neighbour]:
        """The papers most like ``paper_id``, best first, never itself; KeyError if unknown.

        Only papers that share at least one term are returned, so the list may be shorter.
        """
        matrix = self._matrix
        row = matrix.rows.get(paper_id)
        if row is None:
            raise KeyError(f"no paper with id {paper_id!r} in the similarity index")
        if limit <= 0:
            return []
        scores = matrix.products(np.array([row], dtype=np.int64))[0]
        scores[row] = 0.0
        return [
            Neighbour(matrix.ids[j], float(scores[j]), matrix.shared(row, int(j)))
            for j in _top(scores, limit)
        ]

    # ------------------------------------------------------------------ suggest

    def suggest(
        self, statuses: Mapping[str, Status | str], candidates: Sequence[str] | None = None
    ) -> list[Suggestion]:
        """Candidates (default: the Inbox, in list order) ranked by likeness to starred papers.

        ``statuses`` maps paper ids to their state (a ``Status`` or its name, as
        ``Status.parse`` reads it); a paper it does not mention is in the Inbox.
        The score of a candidate is Rocchio's relevance feedback plus its nearest starred paper::

            0.9 cos(paper, centroid of starred + read/4) + 0.1 max cos(paper, a starred paper)
              - 0.5 cos(paper, centroid of skipped)

        A read paper counts a quarter of a starred one (reading it was worth something, but
        less than a star); skipped papers pull down with half the weight of the starred ones.
        The centroid carries most of the weight because it ranked a simulated reader's
        interests best (see ``benchmarks/similar.py``); the nearest starred paper lifts a
        near-duplicate of a lone star. A candidate that is itself starred, read or skipped is
        compared with the others only. ``because`` is the nearest starred paper (None when no
        starred paper shares a term with it). With nothing starred the order is the
        candidates' order and every score 0. Unknown ids are ignored; ties keep the
        candidates' order.
        """
        matrix = self._matrix
        groups: dict[Status, list[int]] = {s: [] for s in Status}
        for paper_id, status in statuses.items():
            row = matrix.rows.get(paper_id)
            if row is not None:
                groups[Status.parse(status)].append(row)
        if candidates is None:
            chosen = [
                row
                for row, paper_id in enumerate(matrix.ids)
                if Status.parse(statuses.get(paper_id, Status.INBOX)) == Status.INBOX
            ]
        else:
            chosen = matrix.rows_of(candidates)
        if not chosen:
            return []
        rows = np.array(chosen, dtype=np.int64)
        starred = np.array(sorted(groups[Status.STARRED]), dtype=np.int64)
        if len(starred) == 0:
            return [Suggestion(matrix.ids[r], 0.0, None) for r in chosen]
        read = np.array(sorted(groups[Status.READ]), dtype=np.int64)
        skipped = np.array(sorted(groups[Status.SKIPPED]), dtype=np.int64)

        nearest, because = self._nearest(starred, rows)
        positive_rows = np.concatenate([starred, read])
        positive_weights = np.concatenate([np.ones(len(starred)), np.full(len(read), READ_WEIGHT)])
        likeness = self._centroid_likeness(positive_rows, positive_weights, rows)
        score = (1.0 - NEAREST_WEIGHT) * likeness + NEAREST_WEIGHT * nearest
        if len(skipped):
            unlike = self._centroid_likeness(skipped, np.ones(len(skipped)), rows)
            score = score - SKIP_WEIGHT * unlike
        order = np.argsort(-score, kind="stable")
        return [
            Suggestion(
                matrix.ids[chosen[i]],
                float(score[i]),
                matrix.ids[int(starred[because[i]])] if because[i] >= 0 else None,
            )
            for i in order
        ]

    def _nearest(self, group: IntArray, rows: IntArray) -> tuple[FloatArray, IntArray]:
        """For each row, the best cosine to a member of ``group`` (not itself) and which member.

        The products of every member with every paper take a postings entry per paper that
        shares a term with a member, per term: 4.7 billion for 6,736 starred papers of
        100,000 (115 s). Beyond ``NEAREST_POSTINGS`` the members' most common terms are left
        out, those in the most papers first: the cosine is then over their rarer terms, what
        a near-duplicate shares (at 100,000 papers, the terms in fewer than ~600 papers)."""
        matrix = self._matrix
        local, terms, weights = matrix.entries(group)
        papers = matrix.papers_with(terms)
        if int(papers.sum()) > NEAREST_POSTINGS:
            ascending = np.sort(papers)
            fit = int(np.searchsorted(np.cumsum(ascending), NEAREST_POSTINGS, side="right"))
            kept = papers < ascending[fit]
            local, terms, weights = local[kept], terms[kept], weights[kept]
        bounds = np.searchsorted(local, np.arange(0, len(group) + _BATCH, _BATCH))
        best = np.zeros(len(rows))
        which = np.full(len(rows), -1, dtype=np.int64)
        for number, start in enumerate(range(0, len(group), _BATCH)):
            batch = group[start : start + _BATCH]
            first, last = bounds[number], bounds[number + 1]
            sims = matrix.products_of(
                local[first:last] - start, terms[first:last], weights[first:last], len(batch)
            )
            sims[np.arange(len(batch)), batch] = 0.0  # a paper is not its own neighbour
            nearest = sims.argmax(axis=0)[rows]  # one pass over the products, not three
            batch_best = sims[nearest, rows]
            batch_which = nearest + start
            better = batch_best > best
            best[better] = batch_best[better]
            which[better] = batch_which[better]
        return best, which

    def _centroid_likeness(
        self, group: IntArray, weights: FloatArray, rows: IntArray
    ) -> FloatArray:
        """Each row's cosine to the weighted centroid of ``group``, leaving the row itself out."""
        matrix = self._matrix
        centroid = matrix.total(group, weights)
        dots = matrix.dot(centroid)[rows]
        squared = float(centroid @ centroid)
        # A member of the group is compared with the centroid of the others:
        # |c - w x|^2 = |c|^2 - 2 w (x . c) + w^2, and x . (c - w x) = x . c - w (x unit length).
        member_weight = np.zeros(matrix.size)
        member_weight[group] = weights
        own = member_weight[rows] * matrix.filled(rows)
        numerator = dots - own
        squared_norms = np.maximum(squared - 2 * own * dots + own * own, 0.0)
        norms = np.sqrt(squared_norms)
        # A real centroid is at least a read paper's quarter long; below that is rounding noise.
        return np.where(norms > 1e-3, numerator / np.where(norms > 1e-3, norms, 1.0), 0.0)

    # ------------------------------------------------------------------ topics

    def topics(self, paper_ids: Sequence[str], k: int | None = None) -> list[Topic]:
        """Cluster papers into ``k`` topics (default ``sqrt(n / 2)`` within 2..30), largest first.

        Unknown ids are ignored. Each topic lists its papers closest to its centre first; papers
        with none of the clustering terms join the largest topic, last. Deterministic (seeded).
        """
        return cluster(self._matrix, self._matrix.rows_of(paper_ids), k)
