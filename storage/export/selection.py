"""What an export holds: the papers chosen by status, as records, under headings and groups."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from storage.export.names import GROUPINGS as GROUPINGS  # (the CLI reads them without this)
from storage.files.triage_file import TriageState
from storage.models import Paper, Status
from storage.queue.order import place_json
from storage.sources.authors import FAMILY_TIE, plain_name, tied_families
from storage.sources.citation import year_of
from storage.sources.fields import NAME_FIELDS
from storage.sources.venues import VenueFound, find_venue, find_year


def written_text(text: str, *, title: bool = False) -> str:
    """A title or an abstract as an export to a file keeps it (RIS, CSL-JSON): its display
    form (LaTeX as Unicode; a ``title``'s with no Markdown read, as ``Paper.display_title``),
    its control characters as they are (a terminal shows them)."""
    from storage.text.latex import to_unicode

    return to_unicode(text, shown=False, markdown=not title)


def statuses_for(name: str) -> frozenset[Status]:
    """The statuses a ``--status`` value selects (``all`` selects every status)."""
    if name.strip().casefold() == "all":
        return frozenset(Status)
    return frozenset({Status.parse(name)})


def select(
    papers: Iterable[Paper],
    statuses: Mapping[str, Status],
    wanted: frozenset[Status],
    triage: TriageState | None = None,
    *,
    with_read: bool = False,
) -> list[Paper]:
    """The papers whose status is one of ``wanted``, in the given order; the starred papers
    alone in the reading queue's order (given ``triage``: its positions), and ``with_read``
    after those read from the queue (``reading_list``)."""
    if with_read:
        if triage is None or wanted != {Status.STARRED}:
            raise ValueError("the papers read from the queue go with the starred papers only")
        return reading_list(papers, triage)
    chosen = [p for p in papers if statuses.get(p.id, Status.INBOX) in wanted]
    if triage is not None and wanted == {Status.STARRED}:
        return in_queue_order(chosen, triage)
    return chosen


def read_from_queue(triage: TriageState) -> list[str]:
    """The papers read from the reading queue, in the order they were read: read papers that
    had a place in it (a paper keeps its place when it leaves, for an undo), as the stats
    count them (``QueueStats``)."""
    read = [
        pid
        for pid, status in triage.statuses.items()
        if status is Status.READ and pid in triage.positions
    ]
    return sorted(read, key=lambda pid: (triage.decided_at.get(pid, 0.0), pid))


def reading_list(papers: Iterable[Paper], triage: TriageState) -> list[Paper]:
    """The reading queue with what was read from it: the papers of ``papers`` read from the
    queue first, in the order they were read, then the starred ones in the queue's order (the
    Markdown export's ``- [x]`` above its ``- [ ]``)."""
    done = {pid: i for i, pid in enumerate(read_from_queue(triage))}
    listed = list(papers)
    read = sorted((p for p in listed if p.id in done), key=lambda p: done[p.id])
    starred = [p for p in listed if triage.status(p.id) is Status.STARRED]
    return [*read, *in_queue_order(starred, triage)]


def in_queue_order(papers: Iterable[Paper], triage: TriageState) -> list[Paper]:
    """Papers (starred ones) in the reading queue's order (``storage.queue``): every export
    of the starred list is a reading list in the order the user gave it."""
    from storage.queue import queue_ids

    place = {
        pid: i
        for i, pid in enumerate(queue_ids(triage.statuses, triage.positions, triage.decided_at))
    }
    listed = list(papers)
    return sorted(listed, key=lambda p: place.get(p.id, len(place)))


def paper_record(paper: Paper, triage: TriageState) -> dict[str, Any]:
    """A paper as a JSON object: the ``--json`` contract of the CLI, plus note and tags.

    Names are written with plain spaces (``plain_name``): a family name of two words that
    the library ties (``Gabriel García\u00a0Márquez``) is in ``family_names``
    (``García Márquez``), which our readers tie again."""
    starred = triage.status(paper.id) is Status.STARRED
    place = triage.positions.get(paper.id)
    extra = dict(paper.extra)
    named = [a for a in paper.authors if FAMILY_TIE in a]
    for field in NAME_FIELDS:
        value = extra.get(field)
        if isinstance(value, str) and FAMILY_TIE in value:
            named.append(value)
            extra[field] = plain_name(value)
    return {
        "id": paper.id,
        "title": paper.title,
        "status": triage.status(paper.id).value,
        "github": list(paper.github),
        "url": paper.url,
        "list": paper.list,
        "abstract": paper.abstract,
        "authors": [plain_name(a) for a in paper.authors] if named else list(paper.authors),
        "family_names": tied_families(named),
        "venue_status": paper.venue_status,
        "keywords": list(paper.keywords),
        "position": paper.position,
        "note": triage.notes.get(paper.id, ""),
        "tags": list(triage.tags.get(paper.id, ())),
        "title_derived": paper.title_derived,
        "lists": list(paper.lists or (paper.list,)),
        "venue": paper.venue,
        # as a citation gives it: its own, else the one its venue or a list names (ICLR 2025);
        # our readers keep it only where it says more (``canonical_extra``)
        "year": year_of(paper),
        "extra": extra,
        "decided_at": triage.decided_at.get(paper.id),
        # its place in the reading queue, as the user ordered it: a re-import keeps the order
        "queue_position": place_json(place) if starred and place is not None else None,
    }


def lists_text(paper: Paper) -> str:
    """The lists a paper is in, as our exports write them (``ICLR 2025; My list``) and our
    readers read them back (``storage.sources.fields.lists_of``): "; " between names, and one
    after a lone name (``A, B;``) so that no reader takes its comma for a separator."""
    names = [" ".join(n.split()).replace(";", ",") for n in paper.lists or (paper.list,) if n]
    text = "; ".join(names)
    return text + ";" if len(names) == 1 and "," in text else text


def users_own(paper: Paper, triage: TriageState) -> tuple[str, tuple[str, ...]]:
    """The user's note and tags of a paper, as the reference formats carry them beside what its
    source gave (BibTeX's ``annote`` and ``keywords``, RIS's ``N1`` and ``KW``)."""
    return triage.notes.get(paper.id, "").strip(), tuple(triage.tags.get(paper.id, ()))


def keywords_and_tags(keywords: Sequence[str], tags: Sequence[str]) -> list[str]:
    """The source's keywords, then the user's tags that are none of them (in any case): one
    list, as reference managers keep them (Zotero's and Mendeley's tags are their keywords).
    Each format says apart which are the tags, so that our readers take them back as tags."""
    known = {k.casefold() for k in keywords}
    return [*keywords, *(t for t in dict.fromkeys(tags) if t.casefold() not in known)]


def venue_of(paper: Paper) -> VenueFound:
    """The venue a paper cites: the known venue its source or one of its lists names, and the
    year they give (``ICLR 2025 论文列表`` → ICLR, 2025)."""
    texts = (paper.venue, *(paper.lists or (paper.list,)))
    venue = next((f.venue for t in texts if (f := find_venue(t)).venue is not None), None)
    year = next((y for t in texts if (y := find_year(t)) is not None), None)
    return VenueFound(venue, year)


def common_list(papers: Sequence[Paper]) -> str | None:
    """The first list every one of ``papers`` is in (their first lists first), or None."""
    if not papers:
        return None
    shared = set(papers[0].lists or (papers[0].list,))
    for paper in papers[1:]:
        shared &= set(paper.lists or (paper.list,))
        if not shared:
            return None
    return next((p.list for p in papers if p.list in shared), min(shared))


def heading_for(papers: Sequence[Paper], what: str = "Papers") -> str:
    """``Starred papers: ICLR 2025 Papers``: what is exported, and the list they share, or
    how many lists they come from (each counted holds one of them, at least)."""
    if not papers:
        return what
    shared = common_list(papers)
    if shared is not None:
        return f"{what}: {shared}"
    lists = {name for p in papers for name in (p.lists or (p.list,))}
    return f"{what}: {len(lists)} lists"


def heading_of(papers: Sequence[Paper], triage: TriageState, heading: str) -> str:
    """``heading`` when given, else one made from the papers' status (when they share one)."""
    if heading:
        return heading
    statuses = {triage.status(p.id) for p in papers}
    what = f"{next(iter(statuses)).value.capitalize()} papers" if len(statuses) == 1 else "Papers"
    return heading_for(papers, what)


def groups(
    papers: Sequence[Paper], triage: TriageState, group_by: str
) -> list[tuple[str, list[Paper]]]:
    """``(group name, its papers)`` by one of ``GROUPINGS``; one unnamed group for "none".

    A paper with several tags is in each of their groups; venue groups come Oral, Spotlight,
    Poster first, and tag groups alphabetically with "untagged" last.
    """
    if group_by == "none":
        return [("", list(papers))]
    found: dict[str, list[Paper]] = {}
    for paper in papers:
        if group_by == "tag":
            keys: Iterable[str] = triage.tags.get(paper.id) or ("untagged",)
        elif group_by == "venue":
            keys = (paper.venue_status or "No venue status",)
        elif group_by == "list":  # a paper in several lists is in each of their groups
            keys = paper.lists or (paper.list,)
        else:
            raise ValueError(f"unknown grouping {group_by!r} (choose from {', '.join(GROUPINGS)})")
        for key in keys:
            found.setdefault(key, []).append(paper)
    order = {"Oral": 0, "Spotlight": 1, "Poster": 2}
    if group_by == "venue":
        return sorted(found.items(), key=lambda kv: (order.get(kv[0], 3), kv[0]))
    if group_by == "tag":
        return sorted(found.items(), key=lambda kv: (kv[0] == "untagged", kv[0]))
    return list(found.items())
