"""The ``papers`` command: open the app, or script the library (import, list, mark, export…).

Errors are one line on stderr and exit code 1 (2 for usage errors); never a traceback. Each
group of commands declares its own options (``add_…``) and runs them (``cmd_…``).

Start-up is part of every command's time (``papers list | head`` is a fifth of a second): the
parser is made only for the command named on the line (every command's only for ``--help``,
no command, or one not known), and each group of commands imports what it runs when it
runs it.
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import errno
import importlib
import io
import os
import re
import sys
from collections.abc import Callable, Sequence
from typing import Any, Final, NoReturn, TextIO

from storage import LibraryError
from storage.errors import ImportInterrupted
from tui.cli.common import (
    OPENED,
    PROG,
    Parser,
    Subparsers,
    UsageError,
    keep_memos,
    open_library,
    path_arg,
)
from tui.cli.output import complain, output_failure, unicode_output

#: Each command and the function (module of ``tui.cli``, name) that declares it, in the order
#: ``papers --help`` lists them.
COMMANDS: dict[str, tuple[str, str]] = {
    "import": ("library_io", "add_import"),
    "fetch": ("fetch", "add_fetch"),
    "enrich": ("fetch", "add_enrich"),
    "list": ("reading", "add_list"),
    "search": ("reading", "add_search"),
    "mark": ("deciding", "add_mark"),
    "undo": ("deciding", "add_mark"),
    "redo": ("deciding", "add_mark"),
    "note": ("deciding", "add_note"),
    "tag": ("deciding", "add_note"),
    "export": ("library_io", "add_export"),
    "remove": ("removing", "add_remove"),
    "stats": ("reading", "add_stats"),
    "queue": ("queue", "add_queue"),
    "next": ("queue", "add_queue"),
    "pdf": ("pdfs", "add_pdf"),
    "similar": ("reading", "add_similar"),
    "sync": ("sync", "add_sync"),
    "serve": ("serve", "add_serve"),
}


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The argument parser of every command (with ``only``, of that command alone)."""
    common = Parser(add_help=False)
    common.add_argument(
        "--home",
        metavar="DIR",
        type=path_arg,
        default=argparse.SUPPRESS,
        help="library folder (default: $PAPERS_HOME, else the user data folder)",
    )
    parser = Parser(
        prog=PROG,
        description="Triage research papers: import lists, search, read / skip / star, export.",
        epilog="Run `papers` alone to open the app; `papers COMMAND --help` for its options.",
        parents=[common],
    )
    parser.add_argument(
        "--version", action=_Version, nargs=0, help="show the program's version and exit"
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    # no COMMAND opens the app (argparse writes "COMMAND ...", as if one were needed; set once
    # the commands have their prog, which is made of the usage)
    parser.usage = "%(prog)s [-h] [--home DIR] [--version] [COMMAND ...]"
    adders = [COMMANDS[only]] if only in COMMANDS else COMMANDS.values()
    for module, name in dict.fromkeys(adders):
        add: Callable[[Subparsers, Parser], None] = getattr(
            importlib.import_module(f"tui.cli.{module}"), name
        )
        add(sub, common)
    _describe(parser)
    return parser


def _describe(parser: argparse.ArgumentParser) -> None:
    """Give each command's parser (and its actions', ``queue move``) its line of the list of
    commands as the description its own ``--help`` shows, where it has none: ``papers undo
    --help`` said nothing of what undo does."""
    for action in parser._actions:  # argparse names no public way to the subparsers
        if not isinstance(action, argparse._SubParsersAction):
            continue
        helps = {choice.dest: choice.help for choice in action._choices_actions}
        for name, command in action.choices.items():
            if command.description is None and helps.get(name):
                line = str(helps[name])
                command.description = line[0].upper() + line[1:] + "."
            _describe(command)


def command_named(argv: Sequence[str]) -> str | None:
    """The command ``argv`` names (its first word that is not an option nor ``--home``'s
    value), if it is one of ``COMMANDS``."""
    words = iter(argv)
    for word in words:
        if word == "--home":
            next(words, None)
        elif word == "--" or not word.startswith("-"):
            return word if word in COMMANDS else None
    return None


def _unknown_option(argv: Sequence[str]) -> str | None:
    """An option before the command that ``papers`` does not know (``papers --hme DIR list``):
    argparse took the option's value for the command, and said ``invalid choice: 'DIR'``.
    An option cut short (``--hom DIR``) is one argparse knows, as it does."""
    words = iter(argv)
    for word in words:
        if word == "--" or not word.startswith("-"):
            return None
        if not word.startswith("--"):  # ``-``, ``-hv``: argparse says what they are
            return None
        name = word.split("=", 1)[0]
        known = [
            option
            for option in _TOP_OPTIONS
            if option == name or (name.startswith("--") and option.startswith(name))
        ]
        if not known:
            return word
        if known == ["--home"] and "=" not in word:
            next(words, None)  # its value
    return None


#: The options of ``papers`` itself, before a command.
_TOP_OPTIONS: Final = ("-h", "--help", "--home", "--version")


def _unrecognized(word: str, options: Sequence[str]) -> str:
    """What is said of an option word no parser knows: the option without its value (no part
    of what is wrong), and the one of ``options`` it likely meant (``--hme=DIR``: ``unrecognized
    option --hme (did you mean --home?)``)."""
    name = word.split("=", 1)[0]
    like = difflib.get_close_matches(name, options, n=1, cutoff=0.6)
    return f"unrecognized option {name}" + (f" (did you mean {like[0]}?)" if like else "")


class _Version(argparse.Action):
    """``--version``: the version is looked up (``importlib.metadata``, ~10 ms) only then."""

    def __call__(self, parser: argparse.ArgumentParser, *args: object, **kwargs: object) -> None:
        from importlib.metadata import PackageNotFoundError, version

        try:
            found = version("papers-tui")
        except PackageNotFoundError:
            found = "unknown"
        sys.stdout.write(f"{parser.prog} {found}\n")
        parser.exit()


#: A query word negated (``-is:read``, ``-diffusion``, ``-"a phrase"``): no option.
_NEGATED: Final = re.compile(r"-[^-\s].*", re.DOTALL)


def _search_args(parser: argparse.ArgumentParser, words: list[str]) -> argparse.Namespace:
    """``papers search``'s arguments, where a negated query word (``-is:read``, as its help
    says; ``-hardware``, which argparse would read as ``-h`` and more) is a word of the query,
    not an option; an unknown ``--option`` is an error. A word after an option that takes a
    value is that value: ``--limit -5`` is refused as below 1 (the -5 was taken for a negated
    word, and --limit said "expected one argument")."""
    valued = {
        option
        for action in [*parser._actions, *_command_parser(parser, "search")._actions]
        if action.nargs != 0
        for option in action.option_strings
    }
    kept: list[str] = []
    negated: list[str] = []
    value = False  # the word is the value of the option before it
    for word in words:
        is_negated = not value and _NEGATED.fullmatch(word) is not None and word != "-h"
        (negated if is_negated else kept).append(word)
        value = word in valued or (  # (an option abbreviated: --lim -5)
            word.startswith("--") and word != "--" and any(o.startswith(word) for o in valued)
        )
    args = _parse(parser, kept, "search")
    args.query = [*getattr(args, "query", []), *negated]
    return args


def _command_parser(parser: argparse.ArgumentParser, named: str | None) -> argparse.ArgumentParser:
    """The parser of the command ``named`` (the top parser when there is none)."""
    commands = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return commands[0].choices.get(named, parser) if commands and named else parser


def _parse(
    parser: argparse.ArgumentParser, words: list[str], named: str | None
) -> argparse.Namespace:
    """The command line's arguments; one the command does not know is said by the command's
    own parser (``papers stats --bogus``: see `papers stats --help`, where its options are;
    the top parser said see `papers --help`, which lists none of them)."""
    args, extra = parser.parse_known_args(words)
    if extra:
        where = _command_parser(parser, named)
        if not _rest_of_line(where, args, extra):
            # an option misspelt after the command (``papers list --hme=DIR``) is named, and
            # what it likely meant, as one before it is: it was "unrecognized arguments:
            # --hme=DIR", and of ``--hme DIR`` the value too, as if it were wrong
            options = [o for o in where._option_string_actions if o.startswith("--")]
            cut = words[: words.index("--")] if "--" in words else words  # (then words all)
            unknown = next((w for w in extra if w.startswith("--") and w in cut), None)
            if unknown is not None:
                where.error(_unrecognized(unknown, options))
            where.error(f"unrecognized arguments: {' '.join(extra)}")
    return args


def _rest_of_line(
    command: argparse.ArgumentParser, args: argparse.Namespace, extra: list[str]
) -> bool:
    """Words left after an option in the middle of the line (``papers note ID --append more
    words``, ``papers tag ID --home DIR a b``): argparse gives the positional that takes the
    rest of the line only the words before the first option. When the command's last
    positional takes the rest and no word left is an option, they are its words, in order
    (``-negative`` is one, for a command of ``Parser.dash_words``)."""
    positionals = [a for a in command._actions if not a.option_strings]
    if not positionals or positionals[-1].nargs not in ("*", "+"):
        return False
    words = command.dash_word if isinstance(command, Parser) else lambda word: False
    if any(word.startswith("-") and word != "-" and not words(word) for word in extra):
        return False  # ("-": standard input)
    dest = positionals[-1].dest
    setattr(args, dest, [*(getattr(args, dest, None) or []), *extra])
    return True


class _ClosedOutput(io.TextIOWrapper):
    """Standard output closed when the command began (``papers export >&-``): what the command
    writes there raises, so that it ends as an output that cannot take it does (``>/dev/full``:
    one line, exit code 1) rather than report success with its output lost. It holds file
    descriptor 1 (the null device), so that no file the command opens takes its place.

    A command whose output only reports a change it makes (``prints_a_report``: ``papers mark
    ID read >&-``) has it dropped instead: no one was to read it, and the change is the work
    asked for (the mark was saved, then the exit code 1 said it failed)."""

    dropping = False

    def write(self, text: str) -> int:
        if text and not self.dropping:
            raise OSError(errno.EBADF, "standard output is closed")
        return len(text)


class _ReportOutput:
    """Standard output of a command that changes the library (``prints_a_report``): what it
    prints reports the change, so an output that fails (a pipe's reader gone, a full disk)
    never cuts the change short. The failure is kept, the rest of the report dropped, and
    the command ends saying that its change is saved (``papers mark ID read | true`` ended
    saying nothing; ``>/dev/full``, "No space left on device", and a user retried)."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        #: The output's failure, once it failed.
        self.failed: OSError | None = None
        #: Whether it prints a copy of what the change replaced (``output.say_kept``).
        self.copy = False

    def write(self, text: str) -> int:
        if self.failed is None:
            try:
                return self.stream.write(text)
            except OSError as exc:
                self._fail(exc)
        return len(text)

    def flush(self) -> None:
        if self.failed is None:
            try:
                self.stream.flush()
            except OSError as exc:
                self._fail(exc)

    def keep_a_copy(self) -> None:
        """What comes next is the only copy of what the change replaces: its loss is an error
        (``papers note ID new`` over a note), and a closed output no longer drops it."""
        self.copy = True
        if isinstance(self.stream, _ClosedOutput):
            self.stream.dropping = False

    def _fail(self, exc: OSError) -> None:
        self.failed = exc
        with contextlib.suppress(OSError, ValueError):  # what is left in the buffers: dropped
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, self.stream.fileno())
            os.close(devnull)

    def ending(self, code: int) -> int:
        """Say how the output failed, the change saved, once the command is done (``code``
        0); its exit code: 0 when the output's reader left (nobody was there to read the
        report, as with ``>&-``), 1 when the report was lost on its way (a full disk: a log
        asked for) or it held the only copy of a note or tags replaced."""
        exc = self.failed
        if exc is None or (code and isinstance(exc, BrokenPipeError)):
            return code  # (a command that failed has said so: its change may not be made)
        if code:
            complain(f"{PROG}: error: standard output: {exc.strerror or exc}")
            return code
        if isinstance(exc, BrokenPipeError) and not self.copy:
            complain(
                f"{PROG}: standard output's reader left: the change is saved "
                "(its report is cut short)"
            )
            return code
        where = output_failure(exc)
        lost = (
            "what it replaced, printed as its only copy, is lost"
            if self.copy
            else "its report is lost"
        )
        complain(f"{PROG}: error: {where}: the change is saved; {lost}")
        return 1

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


def prints_a_report(args: argparse.Namespace) -> bool:
    """Whether what the command prints only reports a change it makes to the library (its
    parser's ``reports`` default: True, or a test of its arguments, ``import`` but not
    ``import --dry-run``), not its work itself (``list``, ``export``, ``sync --status``)."""
    reports = getattr(args, "reports", False)
    return bool(reports(args) if callable(reports) else reports)


def _closed_streams_lead_nowhere() -> None:
    """Standard output or error closed (``papers list >&-``): Python gives None for it, and
    every print was a traceback. What goes to standard output is an error (``_ClosedOutput``);
    what goes to standard error (a warning, an error) has nowhere to go and is dropped."""
    if sys.stdout is None:
        sys.stdout = _ClosedOutput(open(os.devnull, "wb"), encoding="utf-8")  # noqa: SIM115
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115


def _on_a_terminal() -> bool:
    """Whether standard input and output are a terminal, the app's screen and keys."""
    try:
        return all(s is not None and s.isatty() for s in (sys.stdin, sys.__stdout__))
    except (OSError, ValueError):  # closed
        return False


def open_app(args: argparse.Namespace) -> int:
    """Open the Textual app on the library (first run: import the bundled sample).

    SIGTERM, SIGHUP (the terminal closed) and SIGINT end it as ``q`` does (``tui/signals.py``):
    the terminal restored, every decision shown saved, exit code 128 + the signal's number.
    Without a terminal (input or output a file, a pipe, closed) it says so in one line, rather
    than write the screen's escapes into a file and wait for keys that never come; a tab of
    ``papers serve`` has its own driver (``TEXTUAL_DRIVER``), not a terminal.
    """
    if not os.environ.get("TEXTUAL_DRIVER") and not _on_a_terminal():
        complain(
            f"{PROG}: error: the app needs a terminal (its input and output); "
            f"run it in one, or use a command: `{PROG} --help`"
        )
        return 1
    from tui.app import PapersApp
    from tui.memory import kept_for_good
    from tui.signals import ending_by_signals

    with ending_by_signals() as ending:
        with kept_for_good():
            app = PapersApp(open_library(args, command=False))
        app.own_process = True  # its end is the process's (tui/ending.py)
        ending.watch(app)
        app.signal_ending = ending  # its handlers, taken back once the app runs
        try:
            app.run()
        except Exception:
            # a signal ended the app (the terminal closed: a hang-up), and Textual's last steps
            # then failed on the terminal gone: the process ends as the signal asked, not as
            # an internal error (exit code 1) of an output no one reads any more
            if ending.code is None:
                raise
        finally:
            ending.closing()
            app.session.close(timeout=10.0)  # whatever ended the app, queued decisions are saved
    return ending.code or app.return_code or 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``papers``; returns the exit code (the console script exits with it)."""
    words = sys.argv[1:] if argv is None else list(argv)
    _closed_streams_lead_nowhere()
    unicode_output()
    named = command_named(words)
    parser = build_parser(named)
    # before a command named or not: ``papers --hme=/tmp list`` names ``list`` (its value is
    # no word of its own), and was "unrecognized arguments", said by ``list``'s parser
    unknown = _unknown_option(words)
    if unknown is not None:
        parser.error(_unrecognized(unknown, _TOP_OPTIONS))
    args = _search_args(parser, words) if named == "search" else _parse(parser, words, named)
    run: Callable[[argparse.Namespace], int] = getattr(args, "run", open_app)
    report: _ReportOutput | None = None
    if prints_a_report(args):
        if isinstance(sys.stdout, _ClosedOutput):
            sys.stdout.dropping = True
        sys.stdout = report = _ReportOutput(sys.stdout)
    OPENED.clear()
    code: int | None = None  # once the command has done its work
    try:
        code = run(args)
        sys.stdout.flush()  # inside the try: a reader that left is a BrokenPipeError here
        keep_memos()  # once the output is out
        if report is not None:
            code = report.ending(code)
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
        keep_memos()  # what `papers list | head` read serves the next command too
        return 0
    except OSError as exc:  # a full disk, a folder without write permission…
        where = f"{exc.filename}: " if exc.filename else ""
        complain(f"{PROG}: error: {where}{exc.strerror or exc}")
        return 1
    except ImportInterrupted as exc:  # Ctrl+C once the papers were stored: they are there
        from tui.cli.library_io import print_import_report

        print_import_report(exc.report)
        if exc.decisions_taken:
            complain(
                f"{PROG}: interrupted while the import made its search files; the papers are "
                "imported, and the next command that needs those files makes them"
            )
        else:  # (a list of ours, or a library, carries decisions; most lists carry none)
            complain(
                f"{PROG}: interrupted once the papers were imported; decisions the list "
                "carries were not taken: import it again to take them"
            )
        return 130
    except KeyboardInterrupt:  # Ctrl+C: every write is whole or not made (atomic renames)
        if code is not None and prints_a_report(args):
            # as it ended: its change is saved, only its report (waiting for a reader that
            # does not read, ``papers mark ID read | slow``) is not all out; it said
            # "interrupted", exit code 130, and a script took the mark for not made. What is
            # left of the report is dropped: the exit's own flush would wait as this one did.
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            os.close(devnull)
            complain(
                f"{PROG}: interrupted as it ended: its change is saved (its report may be "
                "cut short)"
            )
            return code
        complain(f"{PROG}: interrupted")
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


#: Commands whose process ends as soon as their output is out: they read (``search --save``
#: writes one small file, closed before it returns), or, ``import``, have written everything
#: for good (each file synced and renamed into place) before they return, and the objects a
#: search or a list made of 100,000 papers (dicts of ids, the vocabulary) are not taken apart
#: one by one on the way out, which took 40 to 70 ms of a ``papers search`` and some 100 ms of
#: an import of 1,000 papers into 100,000 (the library it loaded and the index it updated).
ENDS_AT_ONCE: Final = frozenset({"search", "list", "similar", "stats", "import"})


def run(argv: Sequence[str] | None = None) -> NoReturn:
    """Run ``papers`` as the console script does, and end the process with its exit code
    (at once, for a command of ``ENDS_AT_ONCE``, once what it printed is out)."""
    # numpy's OpenBLAS starts a thread per core that spins at start: on two cores it took
    # 0.13 s of CPU from a ``papers search`` of 0.4 s, for matrix products papers-tui hardly
    # makes (the topics' centres); one thread unless the user says otherwise
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    words = sys.argv[1:] if argv is None else list(argv)
    try:
        code = main(words)
    except KeyboardInterrupt:  # Ctrl+C while the command's modules load or its line is read
        complain(f"{PROG}: interrupted")
        code = 130
    if command_named(words) in ENDS_AT_ONCE:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(OSError, ValueError):  # a reader that left
                stream.flush()
        os._exit(code)
    sys.exit(code)
