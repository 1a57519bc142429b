"""From source records to ``Paper``s: stable ids, links, titles, and catalog enrichment."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from storage.models import Paper
from storage.sources.links import extract_github_links
from storage.sources.records import ReadResult, SourceRecord
from storage.sources.titles import derive_title
from storage.text.normalize import key as normalize_key

ID_LENGTH = 12


def paper_id(abstract: str) -> str:
    """The stable id of a paper: 12 hex characters of the hash of its normalised abstract."""
    return hashlib.sha1(normalize_key(abstract).encode("utf-8")).hexdigest()[:ID_LENGTH]


@dataclass(slots=True)
class Catalog:
    """Records of a catalog file, found by normalised abstract or, failing that, by title."""

    by_abstract: dict[str, SourceRecord] = field(default_factory=dict)
    by_title: dict[str, SourceRecord] = field(default_factory=dict)

    @classmethod
    def from_results(cls, results: Iterable[ReadResult]) -> Catalog:
        """Index every record of the catalog's files."""
        catalog = cls()
        for result in results:
            for record in result.records:
                catalog.by_abstract.setdefault(normalize_key(record.abstract), record)
                if record.title:
                    catalog.by_title.setdefault(normalize_key(record.title), record)
        return catalog

    def __len__(self) -> int:
        return len(self.by_abstract)

    def find(self, record: SourceRecord) -> SourceRecord | None:
        """The catalog's record for the same paper, if it has one."""
        found = self.by_abstract.get(normalize_key(record.abstract))
        if found is None and record.title:
            found = self.by_title.get(normalize_key(record.title))
        return found


def enrich(record: SourceRecord, entry: SourceRecord) -> SourceRecord:
    """Fill what ``record`` lacks from a catalog ``entry`` of the same paper; links are merged."""
    return SourceRecord(
        abstract=record.abstract,
        title=record.title or entry.title,
        authors=record.authors or entry.authors,
        url=record.url or entry.url,
        github=tuple(dict.fromkeys(record.github + entry.github)),
        venue_status=record.venue_status or entry.venue_status,
        keywords=record.keywords or entry.keywords,
    )


_NAME_PREFIX = re.compile(r"^\s*([^\s:][^:]{0,40}?)\s*:\s+\S")


def name_from_title(title: str) -> str:
    """The method name a ``NAME: what it does`` title starts with, or ""."""
    match = _NAME_PREFIX.match(title)
    if not match:
        return ""
    name = match.group(1).strip()
    return name if len(name.split()) <= 3 else ""


def build_paper(record: SourceRecord, list_name: str, position: int) -> Paper:
    """Clean one record into a ``Paper``: id, links from prose and code fields, a title."""
    github = tuple(dict.fromkeys(extract_github_links(record.abstract) + record.github))
    title = " ".join(record.title.split())
    if title:
        name, derived = name_from_title(title), False
    else:
        made = derive_title(record.abstract, github)
        title, name, derived = made.title, made.name, True
    return Paper(
        id=paper_id(record.abstract),
        title=title,
        abstract=record.abstract,
        authors=record.authors,
        github=github,
        url=record.url,
        keywords=record.keywords,
        venue_status=record.venue_status,
        list=list_name,
        position=position,
        title_derived=derived,
        name=name,
        lists=(list_name,),
    )
