"""What every command shares: the program name, usage errors, opening the library."""

from __future__ import annotations

import argparse
from typing import NoReturn, TypeAlias

from storage import Library
from storage.errors import DamagedFileError
from storage.files.atomic import backup_path
from storage.locations import library_home
from storage.text.sanitize import printable
from tui.cli.output import complain

PROG = "papers"
STATUS_CHOICES = ("inbox", "read", "skipped", "starred", "all")


class UsageError(Exception):
    """A command line that does not make sense: exit code 2."""


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line, like every other error."""

    def error(self, message: str) -> NoReturn:
        # One line, like every other error; the usage is one `--help` away. The message quotes
        # the command line, which may hold anything (a file name pasted with its escapes).
        self.exit(2, printable(f"{PROG}: error: {message} (see `{self.prog} --help`)") + "\n")


#: What ``add_subparsers`` returns: each group of commands adds its own to it.
Subparsers: TypeAlias = "argparse._SubParsersAction[Parser]"


def path_arg(text: str) -> str:
    """An option's value that names a file or folder: not empty (``--home ""``, an unset
    variable in a script, would otherwise mean the default library or the current folder)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("an empty path")
    return text


def positive(text: str) -> int:
    """An option's value that must be a whole number of at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def byte_size(text: str) -> int:
    """An option's value that is a size: ``500MB``, ``2GB`` (powers of 1024)."""
    from storage.sources.limits import parse_size

    try:
        return parse_size(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


#: The libraries the running command opened (``open_library``): ``keep_memos`` once it is done.
OPENED: list[Library] = []


def keep_memos() -> None:
    """What the command that ran leaves for the next: the triage it read or wrote, kept
    (``Library.keep_triage_memo``)."""
    while OPENED:
        OPENED.pop().keep_triage_memo()


def open_library(args: argparse.Namespace, *, command: bool = True) -> Library:
    """The library of ``--home`` / ``$PAPERS_HOME`` / the user data folder; ``command``: for a
    command that ends after what it does (``Library.short_lived``), not the app.

    Both files are read (and every record checked) before a command runs, so that a damaged
    file is reported by name and never written over. A valid ``papers.cache`` of the current
    ``papers.json`` stands for reading it: it is written only from a parse in which every
    record was read, and names that exact version of the file (its papers are then read only
    as far as the command needs).
    """
    library = Library(library_home(getattr(args, "home", None)))
    library.short_lived = command  # a command: what it derives is made in its own process
    if command:
        OPENED.append(library)
    for path, read in (
        (library.papers_path, lambda: (library.loaded_papers(), library.lists())),
        (library.triage_path, lambda: (library.triage(), library.days())),
    ):
        try:
            read()
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            reason = (
                f"a record is malformed: it lacks the field {exc}"
                if isinstance(exc, KeyError)
                else f"a record is malformed: {exc}"
            )
            raise DamagedFileError(path, reason, backup_path(path)) from None
    if command:
        warn_missing_links(library)
    return library


def warn_missing_links(library: Library) -> None:
    """Say (one line each, on standard error) which library file is a link to a missing
    file: read through it, the library looks empty, as if every decision were gone."""
    for line in library.missing_links():
        complain(f"{PROG}: warning: {line}")
