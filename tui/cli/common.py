"""What every command shares: the program name, usage errors, opening the library."""

from __future__ import annotations

import argparse
import difflib
import re
from collections.abc import Callable
from typing import Final, NoReturn, TypeAlias

from storage import Library
from storage.errors import DamagedFileError
from storage.files.atomic import backup_path
from storage.locations import library_home
from storage.models import Status
from storage.text.sanitize import printable
from tui.cli.output import complain

PROG = "papers"
STATUS_CHOICES = ("inbox", "read", "skipped", "starred", "all")


def status_choice(text: str) -> str:
    """A ``--status`` value read as ``papers mark`` reads a status (any case, ``skip``,
    ``star``, ``new``), or ``all``: its name in ``STATUS_CHOICES``. Anything else is left as
    typed, for argparse to refuse naming the choices."""
    key = text.strip().casefold()
    if key == "all":
        return key
    try:
        return Status.parse(key).value
    except ValueError:
        return text


class UsageError(Exception):
    """A command line that does not make sense: exit code 2."""


#: A word of one dash and more (``-negative``, ``-5``): an option, or a word that starts so.
_ONE_DASH: Final = re.compile(r"-[^-].*", re.DOTALL)


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line, like every other error."""

    #: Words of one dash (``papers tag ID -negative``, ``papers note ID -then more``) are words
    #: of the command's last positional, as a word of a search may be negated, unless they are
    #: one of its options (``-h``, note's ``-a``); a word that looks like one of its long
    #: options given one dash or a letter off (``-home``, ``-hme``) is refused, as an unknown
    #: ``--option`` is (``--hme``): a misspelt option is not silently a tag. A word that starts
    #: with a dash and looks like an option anyway goes after ``--``.
    dash_words = False

    def error(self, message: str) -> NoReturn:
        # One line, like every other error; the usage is one `--help` away. The message quotes
        # the command line, which may hold anything (a file name pasted with its escapes).
        self.exit(2, printable(f"{PROG}: error: {message} (see `{self.prog} --help`)") + "\n")

    def dash_word(self, word: str) -> bool:
        """Whether ``word`` is a word of one dash this command takes as a word (``dash_words``)."""
        return (
            self.dash_words
            and _ONE_DASH.fullmatch(word) is not None
            and word not in self._option_string_actions
        )

    def _parse_optional(
        self, arg_string: str
    ) -> tuple[argparse.Action | None, str, str | None] | None:
        """A word of one dash is a word for a command of ``dash_words``; else as argparse has
        it (an option, a negative number, an unknown option)."""
        if not self.dash_word(arg_string):
            return super()._parse_optional(arg_string)
        longs = {s[2:]: s for a in self._actions for s in a.option_strings if s.startswith("--")}
        like = difflib.get_close_matches(arg_string[1:], list(longs), n=1, cutoff=0.75)
        if like:
            what = [a for a in self._actions if not a.option_strings][-1].metavar
            self.error(
                f"{arg_string} looks like the option {longs[like[0]]}; a {what} that starts "
                f"with - goes after --: {self.prog} ID -- {arg_string}"
            )
        return None  # a word


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


def timeout_seconds(text: str) -> float:
    """An option's value that is a timeout: seconds, see ``timeout_problem``."""
    from storage.pdfs.timeout import timeout_problem  # (storage.pdfs: not at every start)

    return _seconds(text, timeout_problem)


def pause_seconds(text: str) -> float:
    """An option's value that is a pause or a wait: seconds, see ``pause_problem``."""
    from storage.pdfs.timeout import pause_problem

    return _seconds(text, pause_problem)


def _seconds(text: str, problem_of: Callable[[float], str]) -> float:
    """``text`` as a number of seconds that ``problem_of`` finds no problem with."""
    try:
        value = float(text)
    except ValueError:
        said = printable(text)
        raise argparse.ArgumentTypeError(f"not a number of seconds: {said!r}") from None
    if problem := problem_of(value):
        raise argparse.ArgumentTypeError(f"{problem}, not {printable(text.strip())}")
    return value


def byte_size(text: str) -> int:
    """An option's value that is a size: ``500MB``, ``2GB`` (powers of 1024)."""
    from storage.sources.limits import parse_size

    try:
        return parse_size(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def list_name_arg(text: str) -> str:
    """An option's value that names a list (``--list NAME``): an empty or blank name is
    refused (it was taken as none given, the file's name used in silence)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("a list's name cannot be empty")
    return text


#: The libraries the running command opened (``open_library``): ``keep_memos`` once it is done.
OPENED: list[Library] = []


def keep_memos() -> None:
    """What the command that ran leaves for the next: the triage it read or wrote, kept
    (``Library.keep_triage_memo``)."""
    while OPENED:
        OPENED.pop().keep_triage_memo()


def open_library(args: argparse.Namespace, *, command: bool = True) -> Library:
    """The library of ``--home`` / ``$PAPERS_HOME`` / the user data folder; ``command``: for a
    command that ends after what it does (``Library.short_lived``), not the app. A command's
    HOME is made when it has something to store (``Library``'s ``make``): one that fails or
    only reads leaves no folder behind; the app's at once.

    Both files are read (and every record checked) before a command runs, so that a damaged
    file is reported by name and never written over. A valid ``papers.cache`` of the current
    ``papers.json`` stands for reading it: it is written only from a parse in which every
    record was read, and names that exact version of the file (its papers are then read only
    as far as the command needs).
    """
    library = Library(library_home(getattr(args, "home", None)), make=not command)
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
