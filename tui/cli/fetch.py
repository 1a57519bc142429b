"""Commands that fetch papers by name: ``papers fetch``, ``papers enrich``, and ``papers import
--catalog SOURCE`` (a fetched venue as the catalog of a list).

A fetch is an import: ``storage.fetch`` gives the readers' results, ``Library.import_results``
takes them all or nothing, and the same report is printed. Waits (a server's ``Retry-After``)
are said on standard error; progress too, on a terminal.
"""

from __future__ import annotations

import argparse
import contextlib
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from storage import Library
from storage.fetch.names import VENUE_PATTERNS, is_source, short_name
from storage.fetch.registry import SOURCES, Fetched, fetch_all, kept_at, source_forms
from storage.fetch.request import DEFAULT_MAX_BYTES, DEFAULT_TIMEOUT, FetchRequest, WebOptions
from storage.locations import config_paths, library_home
from storage.models import ImportReport
from storage.sources.limits import ReadLimits, size_text
from storage.text.words import count
from tui.cli.common import (
    Parser,
    Subparsers,
    UsageError,
    byte_size,
    list_name_arg,
    open_library,
    positive,
    timeout_seconds,
)
from tui.cli.output import ProgressLines, complain

if TYPE_CHECKING:
    from storage.sources.papers import Catalog


def _source(text: str) -> str:
    """A word naming what to fetch: not empty (``papers fetch "$VENUE"``, the variable unset in
    a script, is a command line that names nothing: a usage error, as ``--home ""`` is)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("an empty source name")
    return text


def _fetch_options(p: argparse.ArgumentParser, *, all_help: str) -> None:
    p.add_argument("--all", action="store_true", dest="all_submissions", help=all_help)
    p.add_argument(
        "--reviews",
        action="store_true",
        help="OpenReview: the official reviews' ratings and confidences (rating:>6 finds them)",
    )
    p.add_argument(
        "--refresh", action="store_true", help="download again what the cache in HOME holds"
    )
    p.add_argument(
        "--max", type=positive, metavar="N", dest="max_papers", help="at most N papers a source, "
        "the first N of its list (arXiv queries: 1,000 unless told)",
    )  # fmt: skip
    p.add_argument(
        "--timeout",
        type=timeout_seconds,
        default=DEFAULT_TIMEOUT,
        metavar="SECONDS",
        help=f"give up on a server silent this long (default {DEFAULT_TIMEOUT:.0f})",
    )
    p.add_argument(
        "--max-size",
        type=byte_size,
        default=DEFAULT_MAX_BYTES,
        metavar="SIZE",
        help=f"refuse an answer larger than SIZE (default {size_text(DEFAULT_MAX_BYTES)})",
    )


def add_fetch(sub: Subparsers, common: Parser) -> None:
    """``papers fetch SOURCE…``."""
    examples = ", ".join(f"{prefix}2025" for prefix, _ in VENUE_PATTERNS[:4])
    p = sub.add_parser(
        "fetch",
        parents=[common],
        help="import a conference's list (OpenReview, Paper Copilot) or an arXiv query by name",
        epilog="Sources: "
        + "; ".join(f"{s.name}:{s.argument}: {s.what}" for s in SOURCES)
        + f". Short names: {examples}…, and [venues] in config.toml.",
    )
    p.add_argument(
        "sources",
        nargs="+",
        type=_source,
        metavar="SOURCE",
        help=f"{source_forms()}, a short name (iclr2025)",
    )
    _fetch_options(p, all_help="every submission, its decision as the venue status")
    p.add_argument(
        "--list", dest="list_name", type=list_name_arg, metavar="NAME", help="name the list"
    )
    p.set_defaults(run=cmd_fetch, reports=True)


def add_enrich(sub: Subparsers, common: Parser) -> None:
    """``papers enrich [--from SOURCE]``."""
    p = sub.add_parser(
        "enrich",
        parents=[common],
        help="real titles, authors, links and decisions for papers already here, from a source",
    )
    p.add_argument(
        "--from",
        dest="sources",
        action="append",
        type=_source,
        metavar="SOURCE",
        help="what to fetch them from (default: the venues of the library's papers)",
    )
    _fetch_options(p, all_help="look among every submission, not only the accepted papers")
    p.set_defaults(run=cmd_enrich, reports=True)


def venue_names(home: Path) -> dict[str, str]:
    """The short names ``config.toml`` adds (``[venues]``); its problems are said once."""
    from tui.config import load_venues

    config = load_venues(config_paths(home))
    for problem in config.problems:
        complain(f"papers: warning: {problem}")
    return config.venues


class _Shown(ProgressLines):
    """A fetch's progress: papers fetched, a line every few seconds on a terminal."""

    def progress(self, what: str, done: int, total: int | None) -> None:
        if self.due():
            of = f" / {total:,}" if total is not None else ""
            complain(f"{what[:100]}: {done:,}{of} papers")

    def notify(self, line: str) -> None:
        complain(line)


def fetch_named(args: argparse.Namespace, words: Sequence[str]) -> Fetched:
    """Fetch the sources ``words`` name, with the command's options."""
    home = library_home(getattr(args, "home", None))
    shown = _Shown()
    request = FetchRequest(
        all_submissions=args.all_submissions,
        reviews=args.reviews,
        max_papers=args.max_papers,
        names=venue_names(home),
        progress=shown.progress,
    )
    options = WebOptions(
        max_bytes=args.max_size, timeout=args.timeout, refresh=args.refresh, notify=shown.notify
    )
    with collector_paused():  # pages of notes are many objects, none of them garbage
        return fetch_all(words, request, home, options)


def _said(fetched: Fetched) -> str:
    """``400 papers (2 requests, 9 pages from the cache of 09:14; --refresh asks again)``:
    papers read from pages kept earlier are as they were then, which the import's report
    ("unchanged") does not say."""
    papers = sum(len(r.records) for r in fetched.results)
    cached = count(fetched.from_cache, "page")
    pages = f"{count(fetched.requests, 'request')}, {cached} from the cache"
    if fetched.from_cache and fetched.cached_at is not None:
        pages += f" of {kept_at(fetched.cached_at)}; --refresh asks again"
    return f"{count(papers, 'paper')} ({pages})"


def collector_paused() -> contextlib.AbstractContextManager[None]:
    """``tui.memory.collector_paused``, loaded when an import runs."""
    from tui.memory import collector_paused as paused

    return paused()


def cmd_fetch(args: argparse.Namespace) -> int:
    library = open_library(args)
    fetched = fetch_named(args, args.sources)
    complain(f"Fetched {_said(fetched)}")
    with collector_paused():  # a tenth of a large import (see tui.memory)
        report = library.import_results(fetched.results, list_name=args.list_name)
    print_report(report)
    # a part the source refused (--all's withdrawn papers, HTTP 403) is not in the library: exit
    # 1, the rest imported, as a folder's import with a file not read (DESIGN: an error is 1)
    return 1 if any(result.refused for result in fetched.results) else 0


def catalog_source(value: str | None, home: Path) -> bool:
    """Whether ``--catalog VALUE`` names a source to fetch rather than a file: a path that
    exists is a file; otherwise a source name."""
    if not value or Path(value).exists():
        return False
    return is_source(value, venue_names(home))


def import_with_fetched_catalog(args: argparse.Namespace) -> int:
    """``papers import FILE… --catalog SOURCE``: the list's papers, filled from the source."""
    from storage.sources.papers import Catalog
    from storage.sources.registry import import_files_of, open_files

    library = open_library(args)
    limits = ReadLimits(max_bytes=args.max_size, special_files=args.any_file)
    opened = open_files(import_files_of(args.files), limits)  # (``import_paths``)
    for name in ("all_submissions", "reviews", "refresh"):
        setattr(args, name, getattr(args, name, False))
    args.max_papers, args.timeout = None, DEFAULT_TIMEOUT
    fetched = fetch_named(args, [args.catalog])
    complain(f"Fetched {args.catalog} as the catalog: {_said(fetched)}")
    catalog = Catalog.from_results(fetched.results)
    with collector_paused():
        report = library.import_results(
            opened.results, catalog, args.list_name, take_theirs=args.take_theirs
        )
    report.failed, report.passed = opened.failed, opened.passed
    print_report(report)
    return 1 if report.failed else 0


def cmd_enrich(args: argparse.Namespace) -> int:
    from storage.sources.records import ReadResult

    library = open_library(args)
    papers = library.papers()
    if not papers:
        raise UsageError("the library holds no papers to enrich")
    words = args.sources or _venues_of(library)
    if not words:
        raise UsageError("no venue of the library's papers is known by a short name: say --from")
    fetched = fetch_named(args, words)
    complain(f"Fetched {', '.join(words)}: {_said(fetched)}")
    mine = _as_catalog(library)
    found = []
    matched = 0
    for result in fetched.results:
        records = [r for r in result.records if mine.find(r) is not None]
        matched += len(records)
        found.append(ReadResult(result.source, result.list_name, records))
    if not matched:
        complain(f"None of the {count(len(papers), 'paper')} is in {', '.join(words)}")
        return 0
    with collector_paused():
        report = library.import_results(found)
    complain(f"Found {matched:,} of {count(len(papers), 'paper')} in {', '.join(words)}")
    print_report(report)
    return 0


def _venues_of(library: Library) -> list[str]:
    """Short names of the venues the library's papers come from (``ICLR 2025`` → iclr2025)."""
    from storage.sources.venues import find_venue

    seen: dict[str, None] = {}
    loaded = library.loaded_papers()
    texts = set(loaded.column("venue")) | {info.name for info in library.lists()}
    for text in sorted(t for t in texts if t):
        found = find_venue(text)
        if found.venue is None or found.year is None:
            continue
        name = f"{found.venue.short.casefold()}{found.year}"
        if short_name(name) is not None:
            seen[name] = None
    return list(seen)


def _as_catalog(library: Library) -> Catalog:
    """The library's papers as a catalog, to find which fetched records are theirs."""
    from storage.sources.papers import Catalog
    from storage.sources.records import ReadResult, SourceRecord

    records = [
        SourceRecord(abstract=p.abstract, title="" if p.title_derived else p.title)
        for p in library.papers()
    ]
    return Catalog.from_results([ReadResult("library", "library", records)])


def print_report(report: ImportReport) -> None:
    """What ``papers import`` prints of an import (its report)."""
    from tui.cli.library_io import print_import_report

    print_import_report(report)
