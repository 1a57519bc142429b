"""Commands that move papers in and out: ``papers import`` and ``papers export``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from storage.export import (
    FORMATS,
    GROUPINGS,
    SUFFIXES,
    export,
    export_formats,
    heading_for,
    select,
    statuses_for,
    write_export,
)
from storage.sources.registry import readable_formats
from tui.cli.common import STATUS_CHOICES, Parser, Subparsers, open_library


def add_import(sub: Subparsers, common: Parser) -> None:
    """``papers import FILE…``."""
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


def add_export(sub: Subparsers, common: Parser) -> None:
    """``papers export``."""
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
