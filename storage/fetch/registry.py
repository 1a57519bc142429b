"""Every source papers-tui fetches from, declared once, and the fetch of what the user named.

To fetch from a new service, write its module beside this one (a function ``(argument,
request, web) -> ReadResult`` whose records the readers made) and add a ``Source`` to
``SOURCES``; ``papers fetch``, ``--catalog SOURCE``, ``papers enrich --from`` and the app's
import dialog take its name from then on.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING

from storage.fetch.errors import FetchCancelled, FetchError
from storage.fetch.names import Wanted, wanted_sources
from storage.fetch.request import FetchRequest, WebOptions

if TYPE_CHECKING:  # a source's module loads when it fetches: the command line needs none
    from storage.fetch.web import Web
    from storage.sources.records import ReadResult


@dataclass(frozen=True, slots=True)
class Source:
    """A service papers are fetched from: its name, what it gives, how it pages."""

    #: The word before the colon: ``openreview``.
    name: str
    #: For people: ``OpenReview``.
    label: str
    #: What follows the colon: ``VENUE_ID``.
    argument: str
    #: What it fetches, for help texts.
    what: str
    #: How it pages, for help texts.
    paging: str
    #: The environment variables of its base URLs.
    variables: tuple[str, ...]
    #: ``module:function`` of its fetch, ``(argument, request, web) -> ReadResult``.
    fetcher: str

    def fetch(self, argument: str, request: FetchRequest, web: Web) -> ReadResult:
        """The source's papers for ``argument``, read into a reader's result."""
        module, _, name = self.fetcher.partition(":")
        result: ReadResult = getattr(import_module(module), name)(argument, request, web)
        return result


SOURCES: tuple[Source, ...] = (
    Source(
        "openreview",
        "OpenReview",
        "VENUE_ID",
        "a venue's accepted papers (--all: every submission and its decision; "
        "--reviews: the reviews' ratings and confidences), PDF links",
        "1,000 notes a page (API v2: after the last id; v1: by offset)",
        ("PAPERS_OPENREVIEW_API", "PAPERS_OPENREVIEW_API_V1"),
        "storage.fetch.openreview:fetch_openreview",
    ),
    Source(
        "paperlists",
        "Paper Copilot",
        "CONFYEAR",
        "Paper Copilot's list of a conference: status, ratings, TL;DR, affiliations, "
        "GitHub and project links",
        "one file",
        ("PAPERS_PAPERLISTS_URL",),
        "storage.fetch.paperlists:fetch_paperlists",
    ),
    Source(
        "arxiv",
        "arXiv",
        "QUERY",
        "an arXiv API query (cat:cs.LG, ti:diffusion AND cat:cs.CV) or arXiv ids",
        "100 entries a page, one request every 3 s, --max papers (1,000 for a query)",
        ("PAPERS_ARXIV_API",),
        "storage.fetch.arxiv:fetch_arxiv",
    ),
)
BY_NAME = {source.name: source for source in SOURCES}


def source_forms() -> str:
    """The forms a source is written in, for help texts."""
    return ", ".join(f"{s.name}:{s.argument}" for s in SOURCES)


@dataclass(slots=True)
class Fetched:
    """What a fetch brought: one reader's result a source, and how it went."""

    results: list[ReadResult]
    requests: int
    from_cache: int
    #: When the oldest page read from the cache was kept (a time stamp); None for none.
    cached_at: float | None = None


def kept_at(stamp: float) -> str:
    """When a page was kept in the cache, for people: ``09:14`` today, ``4 Dec 23:10``
    another day (``Fetched.cached_at``)."""
    from datetime import datetime

    kept = datetime.fromtimestamp(stamp)
    if kept.date() == datetime.now().date():
        return kept.strftime("%H:%M")
    return f"{kept.day} {kept.strftime('%b %H:%M')}"


def asking(source: Source, one: Wanted) -> str:
    """What a fetch of ``one`` asks, for people: ``Asking OpenReview for ICLR 2025
    (ICLR.cc/2025/Conference)…``, ``Asking Paper Copilot for iclr2025…``."""
    from storage.sources.venues import find_venue

    what = one.argument
    if source.name == "openreview":
        found = find_venue(one.argument)
        if found.venue is not None and found.text:
            what = f"{found.text} ({one.argument})"
    return f"Asking {source.label} for {' '.join(what.split())[:120]}…"


def fetch_all(
    words: Sequence[str],
    request: FetchRequest,
    home: Path,
    options: WebOptions | None = None,
) -> Fetched:
    """Fetch every source ``words`` name (``storage.fetch.names``), one after the other; pages
    are kept in ``home``'s cache. Nothing is imported here: ``Library.import_results`` takes
    the results, all or nothing."""
    wanted = wanted_sources(words, request.names)
    return fetch_wanted(wanted, request, home, options)


def fetch_wanted(
    wanted: Sequence[Wanted],
    request: FetchRequest,
    home: Path,
    options: WebOptions | None = None,
) -> Fetched:
    """``fetch_all`` of sources already parsed."""
    from storage.fetch.pages import cache_in
    from storage.fetch.web import Web

    options = options or WebOptions()
    cache = cache_in(home, options.max_bytes)
    cache.remove_leftovers()  # of fetches stopped half way: litter that only grew
    results = []
    with Web(options, cache) as web:
        for one in wanted:
            source = BY_NAME[one.source]
            request.begin(asking(source, one))
            try:
                results.append(source.fetch(one.argument, request, web))
            except FetchCancelled:
                raise
            except FetchError as exc:
                raise FetchError(f"fetching {one.said}: {exc}") from None
    return Fetched(results, web.requests, cache.hits, cache.oldest)
