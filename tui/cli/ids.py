"""Paper ids on the command line, ``-`` standing for those on standard input.

``papers search diffusion | papers mark - read``: the commands that take paper ids (``mark``,
``remove``, ``pdf``; ``note``, ``tag``, ``similar`` and ``queue move``, which take one) read
them from standard input when an id is ``-``: ids one or more a line, separated by spaces, a
prefix alone on its line; blank lines and ``#`` comments skipped; a line of ``papers list``,
``search`` or ``next`` (an id, then its status and title, or its title) gives its first column,
a line of ``papers queue`` (its place, an id, its title) its second; JSON (``papers list
--json``, filtered by ``jq`` or not, or JSON lines) gives the ``id`` of each object. A line or
item that is none of these is an error naming it, before anything is changed: a line read wrong
could mark the wrong paper.

A title can be made of words of hex digits (``Cafe 2024``, ``Deface ABBA``), and in a large
library each such word is a prefix of some paper's id: read as prefixes, a title line marked
papers nobody named. So a prefix is read only alone on its line, and a line of ``next`` or
``queue`` whose title is such words (an id then prefixes, typed, looks the same) gives its id
only when the words are that paper's title.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from storage import Library
from storage.errors import LibraryError
from storage.text.sanitize import printable
from tui.cli.common import PROG, UsageError, open_library
from tui.cli.output import is_terminal

#: What the help of an ID argument adds (``one_from_stdin``: of a command taking one).
STDIN_HELP: Final = (
    "'-' reads them from standard input: ids, lines of `papers list` or `queue`, or their JSON"
)


def one_from_stdin(command: str) -> str:
    """What the help of a command's one ID argument adds: ``-`` reads it from standard input,
    with the command's own example (``papers next | papers tag - …``)."""
    return f"'-' reads it from standard input (`papers next | papers {command} - …`)"


#: Standard input holds ids (13 bytes each), or listing lines: 100,000 papers fit many times.
MAX_STDIN: Final = 64 * 1024 * 1024

_COMMENT: Final = re.compile(r"(?:^|\s)#.*")
_HEX: Final = re.compile(r"[0-9a-fA-F]+")
_FULL_ID: Final = re.compile(r"[0-9a-fA-F]{12}")
_PLACE: Final = re.compile(r"[0-9]+")


@dataclass(frozen=True, slots=True)
class _TitledLine:
    """A line that is an id followed by words of hex digits: a line of ``papers next`` or
    ``queue`` whose title is such words, or an id and prefixes typed on one line."""

    number: int
    paper_id: str
    title: list[str]
    #: The words after the id with no comment cut from them (a `#` in a title is none).
    whole: list[str]
    shown: str


@dataclass(slots=True)
class _StdinIds:
    """The ids read from standard input, and the lines to check against the library."""

    ids: list[str]
    titled: list[_TitledLine]

    def checked(self, library: Library) -> list[str]:
        """The ids, each line of ``titled`` read as a listing line only when its words are
        its paper's title (as printed, and by ``papers queue`` with its venue status after
        it): else it is an error naming the line, before anything changes."""
        for line in self.titled:
            paper = library.paper(line.paper_id)
            title = printable(paper.display_title).split()
            venue = printable(f"({paper.venue_status})").split() if paper.venue_status else []
            if line.title not in (title, title + venue) and not any(
                _printed(line.whole, words) for words in (title, title + venue)
            ):
                raise LibraryError(
                    f"standard input, line {line.number}: {line.shown!r} holds an id and words "
                    "that could be id prefixes, not its paper's title (as `papers next` or "
                    "`queue` print it): give a prefix alone on its line; nothing was changed"
                )
        return self.ids


def _printed(words: list[str], title: list[str]) -> bool:
    """Whether ``words`` are ``title``, or ``title`` then a comment (``# …``)."""
    rest = words[len(title) :]
    return words[: len(title)] == title and (not rest or rest[0].startswith("#"))


def ids_and_library(args: argparse.Namespace, words: Sequence[str]) -> tuple[list[str], Library]:
    """``words`` with a ``-`` among them replaced by the ids on standard input, and the library
    (opened after standard input is read: a usage error there creates no HOME)."""
    if "-" not in words:
        return list(words), open_library(args)
    if list(words).count("-") > 1:
        raise UsageError("give '-' (the ids on standard input) once")
    at = list(words).index("-")
    given = stdin_ids()
    library = open_library(args)
    return [*words[:at], *given.checked(library), *words[at + 1 :]], library


def one_id_and_library(args: argparse.Namespace, word: str, command: str) -> tuple[str, Library]:
    """``word``, or (``-``) the one id on standard input, and the library."""
    if word != "-":
        return word, open_library(args)
    given = stdin_ids()
    if len(given.ids) > 1:
        raise UsageError(
            f"standard input holds {len(given.ids):,} paper ids; `{PROG} {command}` takes one"
        )
    library = open_library(args)
    return given.checked(library)[0], library


def stdin_ids() -> _StdinIds:
    """The paper ids on standard input, in order, each once (see the module)."""
    stream = sys.stdin
    if stream is None or stream.closed:
        raise UsageError("'-' reads paper ids from standard input, which is closed")
    if is_terminal(stream):
        raise UsageError(
            "'-' reads paper ids from standard input, which is the terminal: pipe them in "
            f"(`{PROG} search QUERY | {PROG} mark - read`)"
        )
    raw = getattr(stream, "buffer", None)
    data = raw.read(MAX_STDIN + 1) if raw is not None else stream.read(MAX_STDIN + 1).encode()
    if len(data) > MAX_STDIN:
        raise LibraryError("standard input holds more than 64 MB: that is no list of paper ids")
    # a byte order mark (a file saved by Notepad, PowerShell's pipe) is no part of an id
    text = data.decode("utf-8", "replace").removeprefix("\ufeff")
    is_json = text.lstrip(" \t\r\n")[:1] in ("[", "{")
    found = _StdinIds(_json_ids(text), []) if is_json else _line_ids(text)
    if not found.ids:
        raise UsageError("'-' reads paper ids from standard input, and it holds none")
    found.ids = list(dict.fromkeys(found.ids))
    return found


def _json_ids(text: str) -> list[str]:
    """The ``id`` of each paper of ``papers list --json`` or ``search --json`` (an array of
    objects, maybe filtered by jq), or of JSON lines of such objects."""
    import orjson

    text = text.lstrip("\ufeff")
    try:
        found = orjson.loads(text)
        papers = found if isinstance(found, list) else [found]
    except orjson.JSONDecodeError:
        try:  # JSON lines (``jq -c '.[]'``)
            papers = [orjson.loads(line) for line in text.splitlines() if line.strip()]
        except orjson.JSONDecodeError as exc:
            raise LibraryError(
                f"standard input is not JSON that holds papers ({exc}); nothing was changed"
            ) from None
    ids: list[str] = []
    for number, paper in enumerate(papers, start=1):
        pid = paper.get("id") if isinstance(paper, dict) else paper
        if not isinstance(pid, str) or not _HEX.fullmatch(pid):
            shown = repr(pid)[:60]
            raise LibraryError(
                f"standard input, JSON item {number}: no paper id (an object with an 'id', "
                f"as `papers list --json` writes, or an id), but {shown}; nothing was changed"
            )
        ids.append(pid)
    return ids


def _line_ids(text: str) -> _StdinIds:
    """The ids of lines of text (see the module)."""
    found = _StdinIds([], [])
    for number, line in enumerate(text.splitlines(), start=1):
        words = _COMMENT.sub("", line).split()
        if not words:
            continue
        whole = line.split()  # (a title is data: a `#` in it starts no comment)
        shown = " ".join(words)
        shown = shown if len(shown) <= 60 else shown[:59] + "…"
        if len(words) == 1 and _HEX.fullmatch(words[0]):
            found.ids.append(words[0])  # an id, or a prefix alone on its line
            continue
        if all(_FULL_ID.fullmatch(word) for word in words):
            found.ids += words  # ids, one or more a line
            continue
        if _FULL_ID.fullmatch(words[0]):
            at = 0  # a line of `papers list`, `search` or `next`: id, (status,) title
        elif _PLACE.fullmatch(words[0]) and _FULL_ID.fullmatch(words[1]):
            at = 1  # a line of `papers queue`: place, id, title
        elif all(_HEX.fullmatch(word) for word in words):
            raise LibraryError(
                f"standard input, line {number}: {shown!r} could be id prefixes or a title: "
                "give a prefix alone on its line; nothing was changed"
            )
        else:
            raise LibraryError(
                f"standard input, line {number}: {shown!r} is not a paper id (ids, one or "
                "more a line, a prefix alone on its line, or the lines of `papers list`, `next` "
                "or `queue`); nothing was changed"
            )
        rest = words[at + 1 :]
        if all(_HEX.fullmatch(word) for word in rest):
            # a title of hex words (`Cafe 2024`), or an id and prefixes, or a title cut at a
            # `#` in it (`#Exploration: …`, ``papers queue``'s place and id left): the
            # library tells, from the whole line
            found.titled.append(_TitledLine(number, words[at], rest, whole[at + 1 :], shown))
        found.ids.append(words[at])
    return found
