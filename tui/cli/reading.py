"""Commands that read the library: ``list``, ``search``, ``similar``, ``stats``."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Collection, Mapping
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from storage import Status
from storage.files.links import dangling_target
from storage.locations import library_home
from tui.cli.common import (
    PROG,
    STATUS_CHOICES,
    Parser,
    Subparsers,
    UsageError,
    open_library,
    positive,
    status_choice,
)
from tui.cli.ids import one_from_stdin, one_id_and_library
from tui.cli.output import (
    as_printed,
    columns,
    complain,
    is_terminal,
    print_papers,
    say,
    write_json,
)
from tui.cli.queue import STAR

if TYPE_CHECKING:
    from storage.files.saved_searches import SavedSearches
    from storage.stats import LibraryStats


def add_list(sub: Subparsers, common: Parser) -> None:
    """``papers list``."""
    p = sub.add_parser("list", parents=[common], help="list papers in list order")
    p.add_argument(
        "--status",
        default="all",
        type=status_choice,
        choices=STATUS_CHOICES,
        help="which papers (default: all)",
    )
    p.add_argument("--json", action="store_true", help="print a JSON array")
    p.set_defaults(run=cmd_list)


def add_search(sub: Subparsers, common: Parser) -> None:
    """``papers search QUERY…``."""
    from storage.search.qualifiers import qualifier_help

    p = sub.add_parser(
        "search",
        parents=[common],
        help="search as the app does (best first); save and reuse searches",
        description=(
            "Search the library as the app does: the papers with every word (typos forgiven), "
            "best first; when none has them all, the closest (a line on stderr says so); "
            "when none matches, a line on stderr says so, and why if it can (exit code 0)."
        ),
        epilog=qualifier_help(),
        formatter_class=_SearchHelp,
    )
    p.add_argument(
        "query", nargs="*", default=[], metavar="QUERY", help="words and qualifiers (below)"
    )
    p.add_argument(
        "--limit", type=positive, default=20, metavar="N", help="at most N results (default 20)"
    )
    p.add_argument("--json", action="store_true", help="print a JSON array")
    saved = p.add_mutually_exclusive_group()
    saved.add_argument("--save", metavar="NAME", help="save QUERY as NAME, then search it")
    saved.add_argument(
        "--saved", metavar="NAME", help="run the search saved as NAME (QUERY narrows it)"
    )
    saved.add_argument("--list-saved", action="store_true", help="list the saved searches")
    saved.add_argument("--delete-saved", metavar="NAME", help="forget the search saved as NAME")
    p.set_defaults(run=cmd_search)


class _SearchHelp(argparse.HelpFormatter):
    """``papers search --help``: the description wrapped as argparse wraps every text, and the
    qualifiers (the epilog, a list with hanging indents argparse would run together) made
    anew for the width argparse gives (the terminal's)."""

    def _format_usage(self, *args: Any, **kwargs: Any) -> str:
        """The usage, its line of saved-search options (a group argparse never splits, 86
        characters) cut after a ``|`` where it passes the width, under the group's start."""
        lines = []
        for line in super()._format_usage(*args, **kwargs).split("\n"):
            indent = " " * (line.find("[") + 1)
            while len(line) > self._width and (cut := line.rfind(" | ", 0, self._width)) > 0:
                lines.append(line[: cut + 2])
                line = indent + line[cut + 3 :]
            lines.append(line)
        return "\n".join(lines)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        from storage.search.qualifiers import qualifier_help

        if text == qualifier_help():
            return qualifier_help(width)
        return super()._fill_text(text, width, indent)


def add_stats(sub: Subparsers, common: Parser) -> None:
    """``papers stats``."""
    p = sub.add_parser("stats", parents=[common], help="counts per status and list, progress, rate")
    p.add_argument("--json", action="store_true", help="print a JSON object")
    p.set_defaults(run=cmd_stats)


def add_similar(sub: Subparsers, common: Parser) -> None:
    """``papers similar ID``."""
    p = sub.add_parser("similar", parents=[common], help="papers most like one paper")
    p.add_argument(
        "id", metavar="ID", help=f"a paper id (or unique prefix); {one_from_stdin('similar')}"
    )
    p.add_argument(
        "--limit", type=positive, default=10, metavar="N", help="at most N papers (default 10)"
    )
    p.add_argument("--json", action="store_true", help="print a JSON array")
    p.set_defaults(run=cmd_similar)


def cmd_list(args: argparse.Namespace) -> int:
    library = open_library(args)
    triage = library.triage()
    # ``storage.export.statuses_for``'s rule, without importing every exporter (15 ms of a
    # ``papers list | head`` that takes 150)
    wanted = frozenset(Status) if args.status == "all" else frozenset({Status.parse(args.status)})
    loaded = library.loaded_papers()
    if not len(loaded) and dangling_target(library.papers_path) is None:
        # nothing printed would not say why (the app starts on a sample); a papers.json
        # linked to a missing file is said already (``open_library``), and no import mends it
        complain(f"{PROG}: the library is empty: `{PROG} import FILE` brings a list in")
    chunks = loaded.selected(triage.statuses, wanted)
    if args.json:  # one array, written a chunk of papers at a time
        print_papers((paper for chunk in chunks for paper in chunk), triage, True)
        return 0
    for papers in chunks:  # `papers list | head` reads the first chunks only
        print_papers(papers, triage, False)
    return 0


def cmd_search(args: argparse.Namespace) -> int:
    from storage.cache.search_index import index_for
    from storage.files.saved_searches import SavedSearches
    from storage.search.query import check_query, parse_query

    query = " ".join(args.query)
    if args.list_saved or args.delete_saved is not None:
        if query:
            raise UsageError("--list-saved and --delete-saved take no QUERY")
        return _manage_saved(SavedSearches(library_home(getattr(args, "home", None))), args)
    if not query and args.saved is None:
        raise UsageError("a QUERY is needed (or --saved NAME, --list-saved)")
    library = open_library(args)
    searches = SavedSearches(library.home, library.lock)
    if args.saved is not None:
        query = f"{searches.find(args.saved).query} {query}".strip()
    check_query(query)  # one line past the caps (the app cuts the query and says so)
    parsed = parse_query(query)
    terms = (parsed.words, parsed.excluded, parsed.phrases, parsed.excluded_phrases)
    if not any(terms) and not parsed.qualifiers:  # "!!!": it listed the whole library
        raise UsageError(f"the QUERY {query[:40]!r} has no word to search for")
    if args.saved is None and args.save is not None:
        saved = searches.save(args.save, query)
        complain(f"saved search {saved.name!r}: {saved.query}")
    triage = library.triage()
    loaded = library.loaded_papers()
    # the index saved beside papers.json (built and saved the first time): only the hits'
    # papers are read
    index = index_for(library.home, loaded.sequence(), loaded.content)
    from storage.cache.pdf_text import LazyPdfTexts  # read only when the query has pdf:

    ranking = index.rank(
        query,
        limit=args.limit,
        statuses=triage.statuses,
        tags=triage.tags,
        notes=triage.notes,
        pdf_text=LazyPdfTexts(library.home, partial(_copies, library.home)),
    )
    for note in parsed.unread:
        complain(note)
    if ranking.partial is not None:
        complain(ranking.partial_note())
    if not ranking.ids:  # it printed nothing at all; still exit 0: finding none is no error
        complain(ranking.none_note(query))
    print_papers(index.papers_of(ranking.ids), triage, args.json)
    return 0


def _manage_saved(searches: SavedSearches, args: argparse.Namespace) -> int:
    """``--list-saved`` (names and queries, in the order saved) and ``--delete-saved NAME``."""
    if args.delete_saved is not None:
        gone = searches.find(args.delete_saved)
        searches.delete(gone.name)
        say(f"deleted saved search {gone.name!r}: {gone.query}")
        return 0
    listed = searches.all()
    if args.json:
        write_json([{"name": s.name, "query": s.query} for s in listed])
        return 0
    say(*columns([[s.name, s.query] for s in listed]))
    return 0


def cmd_stats(args: argparse.Namespace) -> int:
    library = open_library(args)
    stats = library.stats()
    if args.json:
        write_json(stats.to_json())
        return 0
    say(*stats_lines(stats))
    return 0


def stats_lines(stats: LibraryStats) -> list[str]:
    """``papers stats`` for people: progress, counts per status, list and venue, pace (the
    words and columns of the app's stats screen)."""
    from storage.stats import done_share
    from storage.text.sanitize import printable
    from tui.text import NAME_CELLS, cut_cells

    lines = [stats.progress(), "", stats.status_counts()]

    def table(title: str, rows: Mapping[str, Mapping[Status, int]]) -> None:
        if not rows:
            return
        head = [title, *(s.value for s in Status), "done"]
        body = [
            [
                f"  {cut_cells(printable(name), NAME_CELLS)}",
                *(f"{counts[s]:,}" for s in Status),
                done_share(counts),
            ]
            for name, counts in rows.items()
        ]
        lines.extend(["", *columns([head, *body], right=range(1, len(head)))])

    table("Per list", stats.by_list)
    table("Per venue status", stats.by_venue)
    lines.append("")
    recent = stats.days[-7:]
    if recent:
        lines.append("Decisions per day")
        top = max(d.total for d in recent) or 1
        mark = "█" if as_printed("█") == "█" else "#"  # (an escape is six characters wide)
        for d in recent:
            bar = mark * max(0, round(20 * d.total / top))
            lines.append(f"  {d.day.isoformat()}  {bar:<20} {d.total:,}")
    lines.append(stats.pace())
    queue = stats.queue
    if queue is not None:
        lines += ["", queue.sentence(how=STAR)]
        if any(n for _w, n in queue.per_week):
            lines.append("Read from the queue per week")
            for week, n in queue.per_week[-6:]:
                lines.append(f"  week of {week.isoformat()}  {'█' * min(n, 40):<20} {n:,}")
    return lines


def cmd_similar(args: argparse.Namespace) -> int:
    from storage.cache.refresh import LARGE
    from storage.cache.similar_index import is_ready, similarity_for

    given, library = one_id_and_library(args, args.id, "similar")
    loaded = library.loaded_papers()
    pid = library.resolve_id(given)
    triage = library.triage()
    version = loaded.content
    if len(loaded) >= LARGE and (version is None or not is_ready(library.home, version)):
        # seconds of silence otherwise: right after a large import its background build runs
        complain(
            f"similar.index of {len(loaded):,} papers is not made yet: waiting for it "
            "(once; later runs read it)"
        )
    # the index saved beside papers.json (built and saved the first time)
    index = similarity_for(library.home, loaded.sequence(), version)
    neighbours = [loaded.paper(n.paper_id) for n in index.similar(pid, limit=args.limit)]
    by_id = {pid: loaded.paper(pid)}
    if not args.json and is_terminal(sys.stdout):  # piped: the lines only, ids for what reads
        say(f"Papers like {pid}  {by_id[pid].display_title}:")
    print_papers(neighbours, triage, args.json)
    return 0


def _copies(home: Path) -> Collection[str]:
    """The papers with a local PDF now, in the folder the settings name (a ``pdf:`` search
    finds no copy deleted since its text was read)."""
    from tui.config import library_pdfs

    return library_pdfs(home).copies().keys()
