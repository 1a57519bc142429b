"""Commands that read the library: ``list``, ``search``, ``similar``, ``stats``."""

from __future__ import annotations

import argparse

import orjson

from storage import Status
from storage.export import select, statuses_for
from storage.library import LibraryStats
from tui.cli.common import STATUS_CHOICES, Parser, Subparsers, open_library, positive
from tui.cli.output import print_papers


def add_list(sub: Subparsers, common: Parser) -> None:
    """``papers list``."""
    p = sub.add_parser("list", parents=[common], help="list papers in list order")
    p.add_argument(
        "--status", default="all", choices=STATUS_CHOICES, help="which papers (default: all)"
    )
    p.add_argument("--json", action="store_true", help="print a JSON array")
    p.set_defaults(run=cmd_list)


def add_search(sub: Subparsers, common: Parser) -> None:
    """``papers search QUERY…``."""
    from storage.search.qualifiers import qualifier_help

    p = sub.add_parser(
        "search",
        parents=[common],
        help="search as the app does (best first)",
        description="Search the library as the app does: typos forgiven, best first.",
        epilog=qualifier_help(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("query", nargs="+", metavar="QUERY", help="words and qualifiers (below)")
    p.add_argument(
        "--limit", type=positive, default=20, metavar="N", help="at most N results (default 20)"
    )
    p.add_argument("--json", action="store_true", help="print a JSON array")
    p.set_defaults(run=cmd_search)


def add_stats(sub: Subparsers, common: Parser) -> None:
    """``papers stats``."""
    p = sub.add_parser("stats", parents=[common], help="counts per status and list, progress, rate")
    p.add_argument("--json", action="store_true", help="print a JSON object")
    p.set_defaults(run=cmd_stats)


def add_similar(sub: Subparsers, common: Parser) -> None:
    """``papers similar ID``."""
    p = sub.add_parser("similar", parents=[common], help="papers most like one paper")
    p.add_argument("id", metavar="ID")
    p.add_argument(
        "--limit", type=positive, default=10, metavar="N", help="at most N papers (default 10)"
    )
    p.add_argument("--json", action="store_true", help="print a JSON array")
    p.set_defaults(run=cmd_similar)


def cmd_list(args: argparse.Namespace) -> int:
    library = open_library(args)
    triage = library.triage()
    papers = select(library.papers(), triage.statuses, statuses_for(args.status))
    print_papers(papers, triage, args.json)
    return 0


def cmd_search(args: argparse.Namespace) -> int:
    from storage.search import SearchIndex

    library = open_library(args)
    triage = library.triage()
    papers = library.papers()
    by_id = {p.id: p for p in papers}
    index = SearchIndex(papers)
    hits = index.search(
        " ".join(args.query), limit=args.limit, statuses=triage.statuses, tags=triage.tags
    )
    print_papers([by_id[h.paper_id] for h in hits], triage, args.json)
    return 0


def cmd_stats(args: argparse.Namespace) -> int:
    library = open_library(args)
    stats = library.stats()
    if args.json:
        print(orjson.dumps(stats.to_json(), option=orjson.OPT_INDENT_2).decode())
        return 0
    print("\n".join(stats_lines(stats)))
    return 0


def stats_lines(stats: LibraryStats) -> list[str]:
    """``papers stats`` for people: progress, counts per status, list and venue, pace."""
    pct = 100 * stats.triaged / stats.total if stats.total else 0.0
    lines = [f"{stats.triaged:,} / {stats.total:,} triaged ({pct:.1f}%)", ""]
    lines.append("  ".join(f"{s.value} {stats.by_status[s]:,}" for s in Status))

    def table(title: str, rows: dict[str, dict[Status, int]]) -> None:
        if not rows:
            return
        width = max(len(name) for name in rows)
        lines.extend(["", title])
        for name, counts in rows.items():
            done = sum(counts.values()) - counts[Status.INBOX]
            cells = "  ".join(f"{s.value} {counts[s]:>5,}" for s in Status)
            lines.append(f"  {name:<{width}}  {cells}  ({done:,}/{sum(counts.values()):,})")

    table("Per list:", {k: dict(v) for k, v in stats.by_list.items()})
    table("Per venue status:", {k: dict(v) for k, v in stats.by_venue.items()})
    lines.append("")
    recent = stats.days[-7:]
    if recent:
        lines.append("Decisions per day:")
        top = max(d.total for d in recent) or 1
        for d in recent:
            lines.append(
                f"  {d.day.isoformat()}  {'█' * max(0, round(20 * d.total / top)):<20} {d.total}"
            )
    lines.append(stats.pace())
    return lines


def cmd_similar(args: argparse.Namespace) -> int:
    from storage.similar import SimilarityIndex

    library = open_library(args)
    papers = library.papers()
    pid = library.resolve_id(args.id)
    triage = library.triage()
    index = SimilarityIndex(papers)
    by_id = {p.id: p for p in papers}
    neighbours = [by_id[n.paper_id] for n in index.similar(pid, limit=args.limit)]
    if not args.json:
        print(f"Papers like {pid}  {by_id[pid].display_title}:")
    print_papers(neighbours, triage, args.json)
    return 0
