"""Commands that move papers in and out: ``papers import`` and ``papers export``.

``papers remove`` is in ``removing.py``."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Final

from storage.export.names import FORMATS, GROUPINGS, SUFFIXES, export_formats
from storage.locations import library_home
from storage.models import ImportReport, Paper, Status, file_names
from storage.sources.limits import DEFAULT_MAX_BYTES, InputStream, ReadLimits, size_text
from storage.sources.registry import readable_formats
from storage.text.words import count
from tui.cli.common import (
    STATUS_CHOICES,
    Parser,
    Subparsers,
    UsageError,
    byte_size,
    list_name_arg,
    open_library,
    path_arg,
    status_choice,
)
from tui.cli.output import (
    ProgressLines,
    complain,
    is_terminal,
    list_names,
    names_standard_output,
    say,
    write_document,
)

#: What ``-`` stands for among the files of ``papers import``.
STDIN: Final = InputStream()


def add_import(sub: Subparsers, common: Parser) -> None:
    """``papers import FILE…``."""
    p = sub.add_parser("import", parents=[common], help="add paper lists to the library")
    p.add_argument(
        "files",
        nargs="+",
        type=path_arg,
        metavar="FILE",
        help=f"list files or folders ({readable_formats()}); '-' reads a list from standard "
        "input (papers import - < list.txt)",
    )
    p.add_argument(
        "--catalog",
        type=path_arg,
        metavar="FILE|SOURCE",
        help="fill titles, authors, links from this catalog: a file, or a source to fetch "
        "(iclr2025, openreview:VENUE_ID, paperlists:iclr2025, arxiv:QUERY)",
    )
    p.add_argument(
        "--list",
        dest="list_name",
        type=list_name_arg,
        metavar="NAME",
        help="name the list (default: its header or file name; from standard input: "
        f"its header, else {STDIN.name!r} and the date and time of the import)",
    )
    p.add_argument(
        "--max-size",
        type=byte_size,
        default=DEFAULT_MAX_BYTES,
        metavar="SIZE",
        help=f"read files up to SIZE, e.g. 2GB (default {size_text(DEFAULT_MAX_BYTES)})",
    )
    p.add_argument(
        "--any-file",
        action="store_true",
        help="also read pipes and devices, e.g. <(zcat list.jsonl.gz) (default: files only)",
    )
    p.add_argument(
        "--take-theirs",
        action="store_true",
        help="decisions the file carries (our exports, a library) replace yours "
        "(default: only papers still in the Inbox take them)",
    )
    p.add_argument(
        "--dry-run",
        action="store_true",
        help="print what the import would do with every record (added, updated, merged with "
        "which paper and why, kept apart, refused and why), writing nothing",
    )
    p.set_defaults(run=cmd_import, reports=lambda args: not args.dry_run)


def add_export(sub: Subparsers, common: Parser) -> None:
    """``papers export``."""
    p = sub.add_parser("export", parents=[common], help=f"write papers as {export_formats()}")
    p.add_argument(
        "--status",
        default="starred",
        type=status_choice,
        choices=STATUS_CHOICES,
        help="which papers (default: starred)",
    )
    p.add_argument(
        "--format",
        choices=FORMATS,
        help="default: the one -o FILE's name says (.bib, .ris, .csl.json, .json, .csv, .md), "
        "else markdown",
    )
    p.add_argument(
        "--group-by",
        default="none",
        choices=GROUPINGS,
        help="Markdown sections by tag, venue status or list (Markdown only)",
    )
    p.add_argument(
        "--abstracts", action="store_true", help="each paper's abstract too (Markdown only)"
    )
    p.add_argument(
        "--with-read",
        action="store_true",
        help="the reading queue with the papers read from it, first (Markdown: - [x]); "
        "with --status starred",
    )
    p.add_argument(
        "-o",
        "--output",
        type=path_arg,
        metavar="FILE",
        help="write to FILE (default: standard output)",
    )
    p.set_defaults(run=cmd_export)


class ImportProgress(ProgressLines):
    """An import's progress on a terminal: the records read, every few seconds, then once
    they are all read (of a long import only) that it stores and indexes them, the last part
    of the wait (some 10 s at 100,000 papers)."""

    def __init__(self, files: Sequence[Path | InputStream]) -> None:
        super().__init__()
        one = files[0]
        named = one.name if isinstance(one, InputStream) else str(one)
        self.what = named if len(files) == 1 else count(len(files), "file")
        self.read_all = False

    def __call__(self, done: int, total: int) -> None:
        if self.read_all:
            return
        if done >= total:
            self.read_all = True
            if self.long():
                complain(f"papers: {count(done, 'record')} read; storing and indexing them")
        elif self.due():
            complain(f"papers: reading {self.what[:100]}: {done:,} / {total:,} records")


def import_paths(files: Sequence[str]) -> list[Path | InputStream]:
    """The files of ``papers import``, ``-`` standing for standard input (``STDIN``): once, and
    piped or redirected in (a terminal would wait for a list typed by hand)."""
    if list(files).count("-") > 1:
        raise UsageError("give '-' (a list on standard input) once")
    if "-" in files:
        if sys.stdin is None or sys.stdin.closed:
            raise UsageError("'-' reads a list from standard input, which is closed")
        if is_terminal(sys.stdin):
            raise UsageError(
                "'-' reads a list from standard input, which is the terminal: pipe or "
                "redirect one in (`papers import - < list.txt`)"
            )
    return [STDIN if name == "-" else Path(name) for name in files]


def cmd_import(args: argparse.Namespace) -> int:
    from tui.cli.fetch import catalog_source, import_with_fetched_catalog
    from tui.memory import collector_paused

    args.files = import_paths(args.files)  # before HOME is made: a usage error makes none
    if catalog_source(args.catalog, library_home(getattr(args, "home", None))):
        return import_with_fetched_catalog(args)
    # HOME made once there are papers to store: an input that is no list (``papers import -
    # < notes.txt``), a file not there or a --dry-run left a new HOME folder, empty, behind
    library = open_library(args)
    with collector_paused():  # a tenth of a large import (see tui.memory)
        report = library.import_files(
            args.files,
            catalog=args.catalog,
            list_name=args.list_name,
            limits=ReadLimits(max_bytes=args.max_size, special_files=args.any_file),
            take_theirs=args.take_theirs,
            dry_run=args.dry_run,
            progress=ImportProgress(args.files),
        )
    print_import_report(report, every=args.dry_run)
    if report.attached and not report.dry_run:
        link_attached(library.home, report.attached)
    return 1 if report.failed else 0


def link_attached(home: Path, papers: Sequence[Paper]) -> None:
    """Make the copies of the imported papers whose reference manager has their PDF here
    (``storage.pdfs.attached``), and say how many; the first attachments not found named."""
    from storage.pdfs.attached import link_attachments
    from tui.config import library_pdfs

    folder = library_pdfs(home)
    linked = link_attachments(papers, folder)
    if linked.done or linked.missing:
        say(f"  PDFs: {linked.summary()} ({folder.path})")
    if linked.unusable_folder:
        return  # said in the line above, once
    for paper, path in linked.missing[:3]:
        complain(f"  attachment not found or not a PDF: {paper.id}  {path}")
    if len(linked.missing) > 3:
        complain(f"  … and {len(linked.missing) - 3:,} more")


def print_import_report(report: ImportReport, *, every: bool = False) -> None:
    """The report of an import (or a fetch): its line, then the records merged, kept apart
    and refused (the first five of each, or ``every`` one), and the files not read."""
    lists = list_names(report.lists)
    verb = "Would import" if report.dry_run else "Imported"
    say(f"{verb} {lists}: {report.summary()}")
    shown = None if every else 5
    for what, merges in (("merged", report.merged), ("kept apart", report.apart)):
        say(*(f"  {what}: {m}" for m in merges[:shown]))
        if shown is not None and len(merges) > shown:
            say(f"  … and {len(merges) - shown:,} more {what}")
    for error in report.errors[:shown]:
        complain(f"  not imported: {error}")
    hidden = report.refused - len(report.errors[:shown])
    if hidden:
        complain(f"  … and {count(hidden, 'more record error')}")
    for warning in report.warnings:
        complain(f"  warning: {warning}")
    for failed in report.failed:
        complain(f"  file not read: {failed}")
    if report.passed:  # one line: a folder of exports may hold any number of them
        say(f"  passed over (XML of other kinds): {file_names(report.passed, shown)}")
    if report.dry_run:
        say("Nothing was written (--dry-run).")
    if report.replayed:
        say("  (the files are as at their last import, which changed nothing: not read again)")


def format_of(output: str | None) -> str:
    """The export format a file's name says (``refs.bib``: bibtex), else Markdown."""
    name = (output or "").casefold()
    by_suffix = sorted(SUFFIXES.items(), key=lambda item: -len(item[1]))  # .csl.json first
    extra = [("bibtex", ".bibtex"), ("markdown", ".markdown")]
    return next((fmt for fmt, suffix in [*by_suffix, *extra] if name.endswith(suffix)), "markdown")


def unknown_suffix(output: str | None) -> str | None:
    """The suffix of an ``-o`` file's name that names a format no export writes (``.pdf``,
    ``.docx``, ``.html``), else None. Letters only: ``notes``, ``q.2025`` and an existing
    folder name no format; ``.txt`` is text, which Markdown is."""
    if output in (None, "-") or Path(output).is_dir():
        return None
    suffix = Path(output).suffix.casefold()
    if not suffix[1:].isalpha() or suffix == ".txt" or format_of(output) != "markdown":
        return None
    return None if suffix in (".md", ".markdown") else suffix


def refuse_unheeded(args: argparse.Namespace, chosen: str) -> None:
    """A usage error for an option the chosen format would ignore (``--format json
    --group-by tag``, ``-o refs.bib --abstracts``: the export was written as if it had not
    been asked), naming the formats it applies to."""
    from storage.export import exporter_named, formats_heeding

    heeds = exporter_named(args.format).heeds
    for option, asked in (("group_by", args.group_by != "none"), ("abstracts", args.abstracts)):
        if asked and option not in heeds:
            formats = " or ".join(formats_heeding(option))
            flag = "--" + option.replace("_", "-")
            raise UsageError(f"{flag} applies to --format {formats} only, not {chosen}")


def cmd_export(args: argparse.Namespace) -> int:
    if args.with_read and args.status != "starred":
        raise UsageError(
            f"--with-read applies to --status starred (the reading queue) only, not {args.status}"
        )
    if args.format is None:
        if suffix := unknown_suffix(args.output):
            raise UsageError(
                f"{args.output}: no export writes {suffix} files (.md, .bib, .ris, .csl.json, "
                f".json, .csv); --format markdown writes Markdown under that name"
            )
        args.format = format_of(args.output)
        refuse_unheeded(args, f"{args.format}, which the name {args.output} says")
    else:
        refuse_unheeded(args, args.format)
    from storage.export import export_pieces, heading_for, in_batches, select, statuses_for
    from storage.export.destination import write_export

    library = open_library(args)
    triage = library.triage()
    wanted = statuses_for(args.status)
    read = frozenset({Status.READ}) if args.with_read else frozenset()
    # only the chosen papers are read (the starred of 100,000: 0.2 s of the cache, not 1.4 s)
    chunks = library.loaded_papers().selected(triage.statuses, wanted | read)
    chosen = [p for chunk in chunks for p in chunk]
    papers = select(chosen, triage.statuses, wanted, triage, with_read=args.with_read)
    what = "All papers" if args.status == "all" else f"{args.status.capitalize()} papers"
    heading = heading_for(papers, "Reading queue" if args.with_read else what)
    # written as it is made: 100,000 papers are 200 MB of CSL-JSON, never held whole
    text = export_pieces(
        papers, triage, args.format, heading=heading, group_by=args.group_by,
        abstracts=args.abstracts,
    )  # fmt: skip
    if args.output in (None, "-") or names_standard_output(args.output):
        is_json = SUFFIXES[args.format].endswith("json")  # CSL-JSON too
        for batch in in_batches(text):
            write_document(batch, is_json=is_json)
        return 0
    # -o names the file: it is replaced if it exists (a folder's default file is not).
    stem = "queue" if args.with_read else args.status
    default_name = f"{stem}{SUFFIXES[args.format]}"
    target = write_export(Path(args.output), text, default_name, home=library.home, replace=True)
    what = "paper" if args.status == "all" else f"{args.status} paper"
    wrote = count(len(papers), what)
    if args.with_read:  # "5 papers of the reading queue (2 of them read)"
        done = sum(1 for p in papers if triage.status(p.id) is Status.READ)
        wrote = f"{count(len(papers), 'paper')} of the reading queue ({done:,} of them read)"
    complain(f"Wrote {wrote} to {target}")
    return 0
