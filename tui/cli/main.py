"""The ``papers`` command: open the app, or script the library (import, list, mark, export…).

Errors are one line on stderr and exit code 1 (2 for usage errors); never a traceback. Each
group of commands declares its own options (``add_…``) and runs them (``cmd_…``).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence

from storage import LibraryError
from tui.cli import deciding, fetch, library_io, pdfs, queue, reading, removing, serve, sync
from tui.cli.common import PROG, Parser, UsageError, open_library
from tui.cli.output import complain


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every command."""
    common = Parser(add_help=False)
    common.add_argument(
        "--home",
        metavar="DIR",
        default=argparse.SUPPRESS,
        help="library folder (default: $PAPERS_HOME, else the user data folder)",
    )
    parser = Parser(
        prog=PROG,
        description="Triage research papers: import lists, search, read / skip / star, export.",
        epilog="Run `papers` alone to open the app; `papers COMMAND --help` for its options.",
        parents=[common],
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)

    library_io.add_import(sub, common)
    fetch.add_fetch(sub, common)
    fetch.add_enrich(sub, common)
    reading.add_list(sub, common)
    reading.add_search(sub, common)
    deciding.add_mark(sub, common)
    deciding.add_note(sub, common)
    library_io.add_export(sub, common)
    removing.add_remove(sub, common)
    reading.add_stats(sub, common)
    queue.add_queue(sub, common)
    pdfs.add_pdf(sub, common)
    reading.add_similar(sub, common)
    sync.add_sync(sub, common)
    serve.add_serve(sub, common)
    return parser


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("papers-tui")
    except PackageNotFoundError:
        return "unknown"


def open_app(args: argparse.Namespace) -> int:
    """Open the Textual app on the library (first run: import the bundled sample).

    SIGTERM, SIGHUP (the terminal closed) and SIGINT end it as ``q`` does (``tui/signals.py``):
    the terminal restored, every decision shown saved, exit code 128 + the signal's number.
    """
    from tui.app import PapersApp
    from tui.memory import kept_for_good
    from tui.signals import ending_by_signals

    with ending_by_signals() as ending:
        with kept_for_good():
            app = PapersApp(open_library(args))
        app.own_process = True  # its end is the process's (tui/ending.py)
        ending.watch(app)
        try:
            app.run()
        finally:
            ending.closing()
            app.session.close(timeout=10.0)  # whatever ended the app, queued decisions are saved
    return ending.code or app.return_code or 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``papers``; returns the exit code (the console script exits with it)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    run: Callable[[argparse.Namespace], int] = getattr(args, "run", open_app)
    try:
        code = run(args)
        sys.stdout.flush()  # inside the try: a reader that left is a BrokenPipeError here
    except UsageError as exc:
        complain(f"{PROG}: error: {exc} (see `{PROG} {args.command} --help`)")
        return 2
    except LibraryError as exc:
        complain(f"{PROG}: error: {exc}")
        return 1
    except BrokenPipeError:
        # `papers list | head`: the reader left; say nothing more.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except OSError as exc:  # a full disk, a folder without write permission…
        where = f"{exc.filename}: " if exc.filename else ""
        complain(f"{PROG}: error: {where}{exc.strerror or exc}")
        return 1
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # the promise is: never a traceback
        if os.environ.get("PAPERS_DEBUG"):
            raise
        complain(
            f"{PROG}: internal error: {type(exc).__name__}: {exc} "
            "(run again with PAPERS_DEBUG=1 to see where)"
        )
        return 1
    return code


def run() -> None:  # pragma: no cover - console script wrapper
    """Console-script entry point."""
    sys.exit(main())
