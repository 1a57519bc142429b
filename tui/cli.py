"""The ``papers`` command: open the app, or script the library (import, list, mark, export…).

Errors are one line on stderr and exit code 1 (2 for usage errors); never a traceback.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NoReturn

import orjson

from storage import Library, LibraryError, Status
from storage.errors import DamagedFileError
from storage.export import (
    FORMATS,
    GROUPINGS,
    SUFFIXES,
    export,
    export_formats,
    heading_for,
    paper_record,
    select,
    statuses_for,
    write_export,
)
from storage.files import backup_path
from storage.library import LibraryStats
from storage.locations import library_home
from storage.models import Paper
from storage.sources.registry import readable_formats
from storage.triage import TriageSnapshot

PROG = "papers"
STATUS_CHOICES = ("inbox", "read", "skipped", "starred", "all")


class UsageError(Exception):
    """A command line that does not make sense: exit code 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        # One line, like every other error; the usage is one `--help` away.
        self.exit(2, f"{PROG}: error: {message} (see `{self.prog} --help`)\n")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every command."""
    common = _Parser(add_help=False)
    common.add_argument(
        "--home",
        metavar="DIR",
        default=argparse.SUPPRESS,
        help="library folder (default: $PAPERS_HOME, else the user data folder)",
    )
    parser = _Parser(
        prog=PROG,
        description="Triage research papers: import lists, search, read / skip / star, export.",
        epilog="Run `papers` alone to open the app; `papers COMMAND --help` for its options.",
        parents=[common],
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    p = sub.add_parser("import", parents=[common], help="add paper lists to the library")
    p.add_argument(
        "files", nargs="+", metavar="FILE", help=f"list files or folders ({readable_formats()})"
    )
    p.add_argument(
        "--catalog", metavar="FILE", help="fill titles, authors, links from this catalog"
    )
    p.add_argument(
        "--list",
        dest="list_name",
        metavar="NAME",
        help="name the list (default: its header or file name)",
    )
    p.set_defaults(run=cmd_import)

    p = sub.add_parser("list", parents=[common], help="list papers in list order")
    p.add_argument(
        "--status", default="all", choices=STATUS_CHOICES, help="which papers (default: all)"
    )
    p.add_argument("--json", action="store_true", help="print a JSON array")
    p.set_defaults(run=cmd_list)

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
        "--limit", type=_positive, default=20, metavar="N", help="at most N results (default 20)"
    )
    p.add_argument("--json", action="store_true", help="print a JSON array")
    p.set_defaults(run=cmd_search)

    p = sub.add_parser("mark", parents=[common], help="set the status of papers (one undo step)")
    p.add_argument(
        "args",
        nargs="+",
        metavar="ID... STATUS",
        help="paper ids (or unique prefixes), then inbox|read|skipped|starred",
    )
    p.set_defaults(run=cmd_mark)

    for name, doc in (
        ("undo", "undo the latest decision"),
        ("redo", "redo the latest undone decision"),
    ):
        p = sub.add_parser(name, parents=[common], help=doc)
        p.set_defaults(run=cmd_undo if name == "undo" else cmd_redo)

    p = sub.add_parser("note", parents=[common], help="set or clear the note of a paper")
    p.add_argument("id", metavar="ID")
    p.add_argument("text", nargs="*", metavar="TEXT", help="the note (nothing clears it)")
    p.set_defaults(run=cmd_note)

    p = sub.add_parser("tag", parents=[common], help="set the tags of a paper")
    p.add_argument("id", metavar="ID")
    p.add_argument("tags", nargs="*", metavar="TAG", help="the tags (nothing clears them)")
    p.set_defaults(run=cmd_tag)

    p = sub.add_parser("export", parents=[common], help=f"write papers as {export_formats()}")
    p.add_argument(
        "--status",
        default="starred",
        choices=STATUS_CHOICES,
        help="which papers (default: starred)",
    )
    p.add_argument("--format", default="markdown", choices=FORMATS, help="default: markdown")
    p.add_argument(
        "--group-by",
        default="none",
        choices=GROUPINGS,
        help="Markdown sections by tag, venue status or list",
    )
    p.add_argument(
        "-o", "--output", metavar="FILE", help="write to FILE (default: standard output)"
    )
    p.set_defaults(run=cmd_export)

    p = sub.add_parser("stats", parents=[common], help="counts per status and list, progress, rate")
    p.add_argument("--json", action="store_true", help="print a JSON object")
    p.set_defaults(run=cmd_stats)

    p = sub.add_parser("similar", parents=[common], help="papers most like one paper")
    p.add_argument("id", metavar="ID")
    p.add_argument(
        "--limit", type=_positive, default=10, metavar="N", help="at most N papers (default 10)"
    )
    p.add_argument("--json", action="store_true", help="print a JSON array")
    p.set_defaults(run=cmd_similar)
    return parser


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("papers-tui")
    except PackageNotFoundError:
        return "unknown"


# -- commands -------------------------------------------------------------------------------


def open_library(args: argparse.Namespace) -> Library:
    """The library of ``--home`` / ``$PAPERS_HOME`` / the user data folder.

    Both files are read (and every record checked) before a command runs, so that a damaged
    file is reported by name and never written over.
    """
    library = Library(library_home(getattr(args, "home", None)))
    for path, read in (
        (library.papers_path, lambda: (library.papers(), library.lists())),
        (library.triage_path, lambda: (library.triage(), library.days())),
    ):
        try:
            read()
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            reason = f"a record is malformed: {type(exc).__name__}: {exc}"
            raise DamagedFileError(path, reason, backup_path(path)) from None
    return library


def cmd_import(args: argparse.Namespace) -> int:
    library = open_library(args)
    report = library.import_files(args.files, catalog=args.catalog, list_name=args.list_name)
    lists = ", ".join(report.lists)
    print(f"Imported {lists}: {report.summary()}")
    for error in report.errors[:5]:
        print(f"  skipped {error}", file=sys.stderr)
    if len(report.errors) > 5:
        print(f"  … and {len(report.errors) - 5} more record errors", file=sys.stderr)
    return 0


def _line(paper: Paper, triage: TriageSnapshot) -> str:
    code = " [code]" if paper.github else ""
    venue = f" ({paper.venue_status})" if paper.venue_status else ""
    return f"{paper.id}  {triage.status(paper.id).value:<7}  {paper.display_title}{venue}{code}"


def _print_papers(papers: Sequence[Paper], triage: TriageSnapshot, as_json: bool) -> None:
    if as_json:
        records = [paper_record(p, triage) for p in papers]
        sys.stdout.write(orjson.dumps(records, option=orjson.OPT_INDENT_2).decode() + "\n")
    else:
        sys.stdout.write("".join(_line(p, triage) + "\n" for p in papers))


def cmd_list(args: argparse.Namespace) -> int:
    library = open_library(args)
    triage = library.triage()
    papers = select(library.papers(), triage.statuses, statuses_for(args.status))
    _print_papers(papers, triage, args.json)
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
    _print_papers([by_id[h.paper_id] for h in hits], triage, args.json)
    return 0


def cmd_mark(args: argparse.Namespace) -> int:
    if len(args.args) < 2:
        raise UsageError("give one or more paper ids, then a status")
    *ids, status_text = args.args
    try:
        status = Status.parse(status_text)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    library = open_library(args)
    changes = library.set_statuses(ids, status)
    changed = {pid for pid, _old, _new in changes}
    for pid in dict.fromkeys(library.resolve_id(i) for i in ids):
        paper = library.paper(pid)
        verb = f"{status.value:<7}" if pid in changed else f"already {status.value}"
        print(f"{pid}  {verb}  {paper.display_title}")
    return 0


def _print_changes(
    library: Library, changes: Sequence[tuple[str, Status, Status]], what: str
) -> int:
    if not changes:
        print(f"nothing to {what}")
        return 0
    for pid, old, new in changes:
        print(f"{pid}  {old.value} → {new.value}  {library.paper(pid).display_title}")
    return 0


def cmd_undo(args: argparse.Namespace) -> int:
    library = open_library(args)
    return _print_changes(library, library.undo(), "undo")


def cmd_redo(args: argparse.Namespace) -> int:
    library = open_library(args)
    return _print_changes(library, library.redo(), "redo")


def cmd_note(args: argparse.Namespace) -> int:
    library = open_library(args)
    library.set_note(args.id, " ".join(args.text))
    print("note cleared" if not args.text else "note saved")
    return 0


def cmd_tag(args: argparse.Namespace) -> int:
    library = open_library(args)
    tags = library.set_tags(args.id, args.tags)
    print("tags: " + (", ".join(tags) if tags else "none"))
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    library = open_library(args)
    triage = library.triage()
    papers = select(library.papers(), triage.statuses, statuses_for(args.status))
    what = "All papers" if args.status == "all" else f"{args.status.capitalize()} papers"
    heading = heading_for(papers, what)
    text = export(papers, triage, args.format, heading=heading, group_by=args.group_by)
    if args.output in (None, "-"):
        sys.stdout.write(text)
        return 0
    target = write_export(Path(args.output), text, f"{args.status}{SUFFIXES[args.format]}")
    n = len(papers)
    print(f"Wrote {n} {args.status} paper{'s' if n != 1 else ''} to {target}", file=sys.stderr)
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
    _print_papers(neighbours, triage, args.json)
    return 0


def open_app(args: argparse.Namespace) -> int:
    """Open the Textual app on the library (first run: import the bundled sample)."""
    from tui.app import PapersApp
    from tui.memory import kept_for_good

    with kept_for_good():
        app = PapersApp(open_library(args))
    try:
        app.run()
    finally:
        app.session.close(timeout=10.0)  # whatever ended the app, queued decisions are saved
    return app.return_code or 0


# -- entry point ----------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``papers``; returns the exit code (the console script exits with it)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    run: Callable[[argparse.Namespace], int] = getattr(args, "run", open_app)
    try:
        code = run(args)
        sys.stdout.flush()  # inside the try: a reader that left is a BrokenPipeError here
    except UsageError as exc:
        print(f"{PROG}: error: {exc} (see `{PROG} {args.command} --help`)", file=sys.stderr)
        return 2
    except LibraryError as exc:
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        # `papers list | head`: the reader left; say nothing more.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except OSError as exc:  # a full disk, a folder without write permission…
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"{PROG}: error: {where}{exc.strerror or exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # the promise is: never a traceback
        if os.environ.get("PAPERS_DEBUG"):
            raise
        print(
            f"{PROG}: internal error: {type(exc).__name__}: {exc} "
            "(run again with PAPERS_DEBUG=1 to see where)",
            file=sys.stderr,
        )
        return 1
    return code


def run() -> None:  # pragma: no cover - console script wrapper
    """Console-script entry point."""
    sys.exit(main())


if __name__ == "__main__":  # pragma: no cover
    run()
