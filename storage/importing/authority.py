"""Which record of a paper says its decision, its text and its ratings when two sources of a
fetch disagree: the venue's own record (OpenReview) over a third party's snapshot of it (Paper
Copilot's lists).

What the data can tell: an OpenReview note carries when it was last modified (``mdate``,
``tmdate``), a Paper Copilot record carries no date at all, so the two cannot be ordered by
date. Paper Copilot copies its lists from OpenReview now and then, so where both hold a paper
OpenReview's is as new as Paper Copilot's or newer: a withdrawal, a revised title or abstract,
a review added since the snapshot. Paper Copilot's record then fills only what OpenReview's
lacks (a TL;DR, affiliations, code and project links, ratings a fetch without ``--reviews``
did not read); a later OpenReview fetch, like any later record of one source, replaces what it
says. Records from files and arXiv are not ranked: the later import wins, as it always did.

A stored paper holds the venue's record when one of its lists was fetched from OpenReview (the
list's files, ``PapersChange.list_files``); a paper of this import, when a record of it came
from OpenReview (``Incoming.authority``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Final

from storage.models import Paper
from storage.sources import decisions

#: The ranks of records: the venue's own, a third party's snapshot, any other.
VENUE: Final = 2
SNAPSHOT: Final = 1
OTHER: Final = 0
_RANKS: Final = {"openreview": VENUE, "paperlists": SNAPSHOT}
#: For people, by rank.
LABELS: Final = {VENUE: "OpenReview", SNAPSHOT: "Paper Copilot"}
#: The reviews' scores a snapshot does not replace once the venue's record gave them.
_SCORES: Final = ("rating", "ratings", "confidence")


#: The venue statuses of papers not accepted (or not yet): the one vocabulary both sources
#: name them in (``storage.sources.decisions``).
NOT_ACCEPTED: Final = decisions.NOT_ACCEPTED
#: OpenReview's status of an accepted paper whose note names no presentation.
ACCEPTED: Final = decisions.ACCEPTED


def _text(text: str) -> str:
    return " ".join(text.split()).casefold()


def rank(source: str) -> int:
    """The rank of a record from ``source`` (``openreview:ICLR.cc/2025/Conference``)."""
    name, colon, _ = source.partition(":")
    return _RANKS.get(name, OTHER) if colon else OTHER


def held_rank(paper: Paper, list_files: Mapping[str, Iterable[str]]) -> int:
    """The highest rank of the records a stored paper holds: of the files of its lists."""
    found = OTHER
    for name in paper.lists or (paper.list,):
        for source in list_files.get(name, ()):
            found = max(found, rank(source))
    return found


def overruled(held: Paper, held_rank: int, new: Paper, new_rank: int) -> tuple[Paper, list[str]]:
    """``new`` with what a more authoritative ``held`` record says in its place (its venue
    status, title, abstract, authors, the reviews' scores), and what of it differed
    (``decision``, ``title``…); ``new`` itself when it ranks as high (or is no snapshot)."""
    if new_rank != SNAPSHOT or held_rank <= new_rank:
        return new, []
    differ: list[str] = []
    changes: dict[str, object] = {}
    # the venue's "Accepted" (its note named no presentation) is no disagreement with the
    # snapshot's Oral or Poster: that says more; its "Unknown" says less
    refines = (
        held.venue_status == ACCEPTED
        and new.venue_status not in NOT_ACCEPTED
        and not decisions.says_no_decision(new.venue_status)
    )
    if new.venue_status and held.venue_status not in ("", new.venue_status) and not refines:
        differ.append("decision")
        changes["venue_status"] = held.venue_status
    if held.title and not held.title_derived and _text(new.title) != _text(held.title):
        if not new.title_derived:
            differ.append("title")
        changes.update(title=held.title, title_derived=False, name=held.name)
    if held.abstract and new.abstract and _text(new.abstract) != _text(held.abstract):
        differ.append("abstract")
        changes["abstract"] = held.abstract
    if held.authors and new.authors and new.authors != held.authors:
        changes["authors"] = held.authors  # (a snapshot's spelling of names: not said)
    kept = dict(held.extra)
    scores = {k: v for k, v in new.extra if k in _SCORES}
    if any(k in kept for k in _SCORES):
        if any(kept.get(k) != v for k, v in scores.items()):
            differ.append("ratings")
        theirs = tuple((k, v) for k, v in new.extra if k not in _SCORES)
        changes["extra"] = theirs + tuple((k, kept[k]) for k in _SCORES if k in kept)
    return (replace(new, **changes) if changes else new), differ  # type: ignore[arg-type]


def said(disagreements: Sequence[tuple[str, Sequence[str]]]) -> list[str]:
    """One line a source whose records a more authoritative one overruled: ``(source, what
    differed)`` for each paper."""
    by_source: dict[str, list[Sequence[str]]] = {}
    for source, what in disagreements:
        if what:
            by_source.setdefault(source, []).append(what)
    lines = []
    for source, papers in by_source.items():
        fields: dict[str, int] = {}
        for what in papers:
            for name in what:
                fields[name] = fields.get(name, 0) + 1
        counted = ", ".join(f"{name} {n:,}" for name, n in fields.items())
        lines.append(
            f"{LABELS[rank(source)]} ({source}) disagrees with {LABELS[VENUE]} on "
            f"{len(papers):,} paper{'s' if len(papers) != 1 else ''} ({counted}): "
            f"{LABELS[VENUE]}'s kept, the venue's own record (Paper Copilot's is a snapshot, "
            "which may be older)"
        )
    return lines
