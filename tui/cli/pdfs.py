"""``papers pdf``: download the PDFs of the reading queue (or of some papers), then read
their text for ``pdf:`` searches."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from storage.errors import LibraryError
from storage.pdfs.download import TIMEOUT_S
from storage.queue import queue_empty
from storage.text.words import count
from tui.cli.common import (
    PROG,
    STATUS_CHOICES,
    Parser,
    Subparsers,
    UsageError,
    byte_size,
    path_arg,
    pause_seconds,
    status_choice,
    timeout_seconds,
)
from tui.cli.ids import STDIN_HELP, ids_and_library
from tui.cli.output import complain, is_terminal, say, write_json
from tui.cli.queue import STAR

if TYPE_CHECKING:
    from storage.library import Library
    from storage.models import Paper
    from storage.pdfs.failures import Failure


def add_pdf(sub: Subparsers, common: Parser) -> None:
    """``papers pdf [--status S | ID…] [--retry | --failed]``."""
    p = sub.add_parser(
        "pdf",
        parents=[common],
        help="download PDFs (default: the reading queue) into HOME/pdfs ([pdf] folder)",
        description=(
            "Download papers' PDFs, one request at a time with a pause between them, each "
            "checked (a PDF, under the size cap, whole) before it takes its name "
            "'Title (id).pdf'; a download cut short resumes where it stopped. Then their text "
            "is read, for pdf:WORD searches."
        ),
    )
    p.add_argument(
        "ids",
        nargs="*",
        default=[],
        metavar="ID",
        help=f"these papers (default: --status); {STDIN_HELP}",
    )
    p.add_argument(
        "--status",
        type=status_choice,
        choices=STATUS_CHOICES,
        help="the papers of this status (default: starred, in queue order)",
    )
    p.add_argument(
        "--folder", type=path_arg, metavar="DIR", help="download into DIR (default: [pdf] folder)"
    )
    p.add_argument(
        "--pause", type=pause_seconds, default=1.0, metavar="SECONDS",
        help="between requests (1; at most 3600)",
    )  # fmt: skip
    p.add_argument(
        "--max-size", type=byte_size, default="100MB", metavar="SIZE", help="per PDF (100MB)"
    )
    p.add_argument(
        "--max-wait", type=pause_seconds, default=120.0, metavar="SECONDS",
        help="the longest Retry-After waited for (120; at most 3600)",
    )  # fmt: skip
    p.add_argument(
        "--timeout", type=timeout_seconds, default=None, metavar="SECONDS",
        help=f"give up on a server silent this long ([pdf] timeout, else {TIMEOUT_S:g})",
    )  # fmt: skip
    p.add_argument("--no-text", action="store_true", help="do not read the PDFs' text")
    p.add_argument(
        "--retry",
        action="store_true",
        help="ask again for the PDFs that failed for good before (HTTP 404 or 410, not a PDF), "
        "which are otherwise passed over",
    )
    p.add_argument(
        "--failed",
        action="store_true",
        help="list the PDFs that failed and why, for good or (asked for again) for now (of "
        "IDs, --status S, else every paper); nothing downloaded",
    )
    p.add_argument("--json", action="store_true", help="--failed as one JSON document")
    # (a download's output reports it; --failed's is a listing, its work: ``prints_a_report``)
    p.set_defaults(run=cmd_pdf, reports=lambda args: not args.failed)


def cmd_pdf(args: argparse.Namespace) -> int:
    from storage.cache.pdf_text import update_texts
    from storage.export import select, statuses_for
    from storage.pdfs.download import DownloadOptions, Event, download_pdfs
    from storage.pdfs.failures import PdfFailures
    from storage.pdfs.folder import PdfFolder, folder_problem
    from storage.sources.limits import size_text
    from tui.config import library_config, pdf_folder

    if args.ids and args.status:
        raise UsageError("give paper ids or --status, not both")
    if args.failed and args.retry:
        raise UsageError("give --failed (a listing) or --retry (a download), not both")
    if args.json and not args.failed:
        raise UsageError("--json is a form of --failed's listing: give --failed too")
    ids, library = ids_and_library(args, args.ids)
    if args.failed:
        return _list_failed(library, ids, args.status, as_json=args.json)
    config = library_config(library.home)
    for said in config.problems_of("pdf"):  # a folder set wrong: HOME/pdfs, said
        complain(f"papers: note: {said}")
    own = pdf_folder(library.home, config)  # the library's: its copies are all there are
    folder = PdfFolder(Path(args.folder).expanduser() if args.folder else own)
    problem = folder_problem(folder.path)  # a file, a FIFO, a link to one or to nothing
    if problem:
        raise LibraryError(problem)
    triage = library.triage()
    if ids:
        papers = [library.paper(i) for i in dict.fromkeys(library.resolve_id(i) for i in ids)]
    else:
        status = args.status or "starred"
        papers = select(library.papers(), triage.statuses, statuses_for(status), triage)
        if not papers:  # the starred papers are the reading queue: said as everywhere else
            empty = f"papers: no {status} papers: nothing to download"
            complain(queue_empty(STAR) if status == "starred" else empty)
            return 0
    failures = PdfFailures(library.home)  # the links that failed for good, per paper
    read_at = time.time()  # (a failure kept after it may be of a paper imported since)
    failures.prune({paper.id for paper in library.papers()}, read_at)  # of papers gone, stale
    papers, passed = (papers, []) if args.retry else failures.sort_out(papers, folder.copies())
    named = folder.not_pdfs()  # a page saved under a copy's name (an older version's)
    if pages := [named[p.id] for p in papers if p.id in named]:
        names = ", ".join(page.name for page in pages[:3]) + ("…" if len(pages) > 3 else "")
        one = len(pages) == 1
        complain(
            f"papers: note: {count(len(pages), 'file')} named as a paper's PDF "
            f"{'is' if one else 'are'} not a PDF (a page saved under its name?), so no copy: "
            f"{names}"
        )
    live = is_terminal(sys.stderr)

    def progress(event: Event) -> None:
        failures.learn(event)
        where = f"[{event.index}/{event.total}] {event.paper.id}"
        if event.kind == "bytes":
            if live:
                size = f" of {size_text(event.size)}" if event.size else ""
                sys.stderr.write(f"\r{where}  {size_text(event.received)}{size}  \x1b[K")
                sys.stderr.flush()
            return
        if live:
            sys.stderr.write("\r\x1b[K")
        title = event.paper.display_title
        if event.kind == "done" and event.path is not None:
            complain(f"{where}  downloaded: {event.path.name}")
        elif event.kind == "linked" and event.path is not None:
            complain(f"{where}  linked from its attachment: {event.path.name}")
        elif event.kind == "skipped":  # its name, to open it
            named = f": {event.path.name}" if event.path is not None else ""
            complain(f"{where}  already here{named}  {title}")
        elif event.at_once:  # a Retry-After of 0, or of a date gone by: no wait
            complain(f"{where}  {event.message}")
        elif event.kind == "wait":
            complain(f"{where}  waiting {event.seconds:,.0f} s ({event.message})")
        elif event.kind == "failed":
            complain(f"{where}  failed: {title}: {event.message}")

    timeout = args.timeout if args.timeout is not None else config.pdf_timeout  # as P's
    options = DownloadOptions(
        pause=args.pause, max_bytes=args.max_size, max_wait=args.max_wait,
        timeout=TIMEOUT_S if timeout is None else timeout,
    )  # fmt: skip
    report = download_pdfs(papers, folder, options, progress)
    complain(f"{folder.path}: {report.summary()}")
    for server in report.down.values():  # its other papers not asked for: said once
        complain(server.line())
    if passed:  # one line, not one a paper: they failed before, and would again
        kinds = ", ".join(sorted({failure.kind for _, failure in passed}))
        one = len(passed) == 1
        complain(
            f"{count(len(passed), 'paper')} not asked for again: "
            f"{'its PDF' if one else 'their PDFs'} failed before ({kinds}); "
            f"add --retry to try {'it' if one else 'them'} again"
        )
    if not args.no_text:
        copies = folder.copies()
        texts = update_texts(library.home, copies, forget=folder.path.resolve() == own.resolve())
        if texts.saved:
            unreadable = texts.unreadable()
            missed = (
                f"; {count(unreadable, 'PDF')} without a text to read (encrypted or damaged: "
                "pdf: searches miss them)"
                if unreadable
                else ""
            )
            complain(f"text of {count(len(texts), 'PDF')} ready for pdf: searches{missed}")
        else:
            complain(
                f"{PROG}: error: the text of the PDFs could not be saved in {library.home} "
                "(pdf: searches read it again next time)"
            )
            return 1
    # a paper named and passed over has no PDF: a script that opens it next must know
    return 1 if report.failed or report.busy or (ids and passed) else 0


def _list_failed(library: Library, ids: list[str], status: str | None, *, as_json: bool) -> int:
    """``papers pdf --failed``: each paper whose PDF link failed (``pdf-failures.json``) on a
    line, with why, where, when, and whether ``papers pdf`` passes it over or asks again (a
    failure that may mend, on how many runs in a row); nothing asked. ``as_json``: one JSON
    array of them (``failed_record``)."""
    import time
    from datetime import datetime

    from storage.export import select, statuses_for
    from storage.pdfs.failures import PASSED_FOR_S, PdfFailures
    from storage.pdfs.web import host_of

    if ids:
        papers = [library.paper(i) for i in dict.fromkeys(library.resolve_id(i) for i in ids)]
    elif status:
        triage = library.triage()
        papers = select(library.papers(), triage.statuses, statuses_for(status), triage)
    else:
        papers = library.papers()
    failures = PdfFailures(library.home)
    now = time.time()
    found = [(paper, failure) for paper in papers if (failure := failures.last(paper))]
    if as_json:
        write_json([failed_record(paper, failure, now) for paper, failure in found])
        return 0
    for paper, failure in found:
        when = datetime.fromtimestamp(failure.at).strftime("%Y-%m-%d %H:%M")
        if not failure.lasting:
            runs = "once" if failure.seen == 1 else f"on {failure.seen:,} runs in a row"
            next_time = f"may mend, failed {runs}: asked for again next time"
        elif failure.passes(now):
            until = datetime.fromtimestamp(failure.at + PASSED_FOR_S).strftime("%Y-%m-%d")
            next_time = f"passed over until {until} (--retry asks again)"
        else:
            next_time = "asked for again next time"
        where = f"at {host}, " if (host := host_of(failure.url)) else ""
        say(f"{paper.id}  {paper.display_title}: {failure.cause} ({where}{when}; {next_time})")
    if not found:
        complain(
            "papers: no PDF failed (for good: HTTP 404 or 410, not a PDF; for now: no answer "
            "in time, HTTP 5xx or 429, a server not reached)"
        )
    return 0


def failed_record(paper: Paper, failure: Failure, now: float) -> dict[str, object]:
    """A paper's failure as ``papers pdf --failed --json`` gives it (keys that stay): ``id``,
    ``title``, ``url``, ``host``, ``cause``, ``lasting`` (true: for good; false: may mend,
    asked for again), ``failed_at`` (its last, ISO 8601 UTC), ``runs`` (runs in a row it
    failed so; a lasting one's counted up to 2), ``passed_over_until`` (ISO 8601 UTC, while
    ``papers pdf`` passes it over; else null)."""
    from datetime import UTC, datetime

    from storage.pdfs.failures import PASSED_FOR_S
    from storage.pdfs.web import host_of

    def iso(at: float) -> str:
        return datetime.fromtimestamp(at, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")

    until = iso(failure.at + PASSED_FOR_S) if failure.passes(now) else None
    return {
        "id": paper.id,
        "title": paper.display_title,
        "url": failure.url,
        "host": host_of(failure.url),
        "cause": failure.cause,
        "lasting": failure.lasting,
        "failed_at": iso(failure.at),
        "runs": failure.seen,
        "passed_over_until": until,
    }
