"""From source records to ``Paper``s: ids, links, titles, venues, and catalog enrichment."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache

from storage.importing.author_keys import authors_compatible
from storage.importing.identity import (
    ID_LENGTH,
    abstract_identity,
    id_of_abstract,
    id_of_title,
    title_match_key,
    titles_compatible,
)
from storage.models import Paper
from storage.sources.citation import canonical_extra
from storage.sources.fields import merge_extra
from storage.sources.links import extract_github_links, unique_links
from storage.sources.records import ReadResult, SourceRecord
from storage.sources.titles import derive_title
from storage.sources.venues import venue_text

__all__ = [
    "ID_LENGTH", "Catalog", "build_paper", "enrich", "name_from_title", "paper_id", "unique_links",
]  # fmt: skip


def paper_id(abstract: str, title: str = "", authors: Sequence[str] = ()) -> str:
    """The id of a paper: from its abstract (``storage.importing.identity``), or from its title
    and first author when it has no real abstract. A paper sharing its abstract with another
    may get another id on import (``storage.importing``)."""
    identity = abstract_identity(abstract)
    return id_of_abstract(identity) if identity is not None else id_of_title(title, authors)


@dataclass(slots=True)
class Catalog:
    """Records of a catalog file, found by abstract (with a compatible title) or by title (and
    a first author who may be the record's: ``authors_compatible``)."""

    by_abstract: dict[str, SourceRecord] = field(default_factory=dict)
    #: Title key → the catalog's records of that title (two works may share one).
    by_title: dict[str, list[SourceRecord]] = field(default_factory=dict)

    @classmethod
    def from_results(cls, results: Iterable[ReadResult]) -> Catalog:
        """Index every record of the catalog's files (title-only records by title alone)."""
        catalog = cls()
        for result in results:
            for record in result.records:
                identity = abstract_identity(record.abstract)
                if identity is not None:
                    catalog.by_abstract.setdefault(identity, record)
                if record.title:
                    catalog.by_title.setdefault(title_match_key(record.title), []).append(record)
        return catalog

    def __len__(self) -> int:
        untitled = sum(not r.abstract for records in self.by_title.values() for r in records)
        return len(self.by_abstract) + untitled

    def find(self, record: SourceRecord) -> SourceRecord | None:
        """The catalog's record for the same paper, if it has one."""
        identity = abstract_identity(record.abstract)
        found = self.by_abstract.get(identity) if identity is not None else None
        if found is not None and titles_compatible(found.title, record.title):
            return found
        if record.title:
            for entry in self.by_title.get(title_match_key(record.title), ()):
                # a catalog record with another abstract, or another first author, is another
                # paper of the same title
                abstract = abstract_identity(entry.abstract) if entry.abstract else None
                if abstract in (None, identity) and authors_compatible(
                    entry.authors, record.authors
                ):
                    return entry
        return None


def enrich(record: SourceRecord, entry: SourceRecord) -> SourceRecord:
    """Fill what ``record`` lacks from a catalog ``entry`` of the same paper; links are merged."""
    return replace(
        record,
        abstract=record.abstract or entry.abstract,
        title=record.title or entry.title,
        authors=record.authors or entry.authors,
        url=record.url or entry.url,
        github=unique_links(record.github + entry.github),
        venue_status=record.venue_status or entry.venue_status,
        keywords=record.keywords or entry.keywords,
        venue=record.venue or entry.venue,
        extra=merge_extra(entry.extra, record.extra),
    )


_NAME_PREFIX = re.compile(r"^\s*([^\s:][^:]{0,40}?)\s*:\s+\S")


def name_from_title(title: str) -> str:
    """The method name a ``NAME: what it does`` title starts with, or ""."""
    match = _NAME_PREFIX.match(title)
    if not match:
        return ""
    name = match.group(1).strip()
    return name if len(name.split()) <= 3 else ""


def build_paper(
    record: SourceRecord,
    list_name: str,
    position: int,
    pid: str | None = None,
    lists: tuple[str, ...] = (),
) -> Paper:
    """Clean one record into a ``Paper``: links from prose and code fields, a title, a venue.

    ``pid`` is the id the import gave it (``paper_id`` of its text when None); ``lists``,
    every list it is in (``list_name`` alone when empty).
    """
    found = () if record.links_given else extract_github_links(record.abstract)
    github = unique_links(found + record.github)
    title = " ".join(record.title.split())
    if title:
        name, derived = name_from_title(title), False
    else:
        made = derive_title(record.abstract, github)
        title, name, derived = made.title, made.name, True
    lists = lists or (list_name,)
    paper = Paper(
        id=pid or paper_id(record.abstract, title, record.authors),
        title=title,
        abstract=record.abstract,
        authors=record.authors,
        github=github,
        url=record.url,
        keywords=record.keywords,
        venue_status=record.venue_status,
        list=lists[0],
        position=position,
        title_derived=derived,
        name=name,
        lists=lists,
        # a reference (it states its type: BibTeX, RIS…) names its own venue; its file's name
        # ("iclr2025-related-work.bib") is no venue, as a paper list's name is
        venue=_venue(record.venue, () if _states_its_type(record) else lists),
        extra=record.extra,
    )
    if record.extra:  # the reference fields its other fields tell are not kept twice
        extra = canonical_extra(paper)
        if extra is not paper.extra:
            paper = replace(paper, extra=extra)
    return paper


def _states_its_type(record: SourceRecord) -> bool:
    return any(name == "entry_type" for name, _ in record.extra)


@lru_cache(maxsize=256)
def _venue(stated: str, lists: tuple[str, ...]) -> str:
    """``venue_text`` of a record's venue and lists, which a file's records mostly share."""
    return venue_text(stated, *lists)
