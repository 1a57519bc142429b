"""Paper ids on the command line, ``-`` standing for those on standard input.

``papers search diffusion | papers mark - read``: the commands that take paper ids (``mark``,
``remove``, ``pdf``; ``note``, ``tag``, ``similar`` and ``queue move``, which take one) read
them from standard input when an id is ``-``: one or more a line, separated by spaces; blank
lines and ``#`` comments skipped; a line of ``papers list``, ``search`` or ``next`` (an id, then
its status and title) gives its first column, a line of ``papers queue`` (its place, an id,
its title) its second; JSON (``papers list --json``, filtered by ``jq`` or not, or JSON lines)
gives the ``id`` of each object. A line or item that is none of these is an error naming it,
before anything is changed: a line read wrong could mark the wrong paper.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence
from typing import Final

from storage.errors import LibraryError
from tui.cli.common import PROG, UsageError
from tui.cli.output import is_terminal

#: What the help of an ID argument adds (``ONE_FROM_STDIN``: of a command taking one).
STDIN_HELP: Final = (
    "'-' reads them from standard input: ids, lines of `papers list` or `queue`, or their JSON"
)
ONE_FROM_STDIN: Final = "'-' reads it from standard input (`papers next | papers note - …`)"

#: Standard input holds ids (13 bytes each), or listing lines: 100,000 papers fit many times.
MAX_STDIN: Final = 64 * 1024 * 1024

_COMMENT: Final = re.compile(r"(?:^|\s)#.*")
_HEX: Final = re.compile(r"[0-9a-fA-F]+")
_FULL_ID: Final = re.compile(r"[0-9a-f]{12}")


def paper_ids(words: Sequence[str]) -> list[str]:
    """``words`` with a ``-`` among them replaced by the ids on standard input."""
    if "-" not in words:
        return list(words)
    if list(words).count("-") > 1:
        raise UsageError("give '-' (the ids on standard input) once")
    at = list(words).index("-")
    return [*words[:at], *stdin_ids(), *words[at + 1 :]]


def one_paper_id(word: str, command: str) -> str:
    """``word``, or (``-``) the one id on standard input."""
    if word != "-":
        return word
    ids = stdin_ids()
    if len(ids) > 1:
        raise UsageError(
            f"standard input holds {len(ids):,} paper ids; `{PROG} {command}` takes one"
        )
    return ids[0]


def stdin_ids() -> list[str]:
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
    text = data.decode("utf-8", "replace")
    ids = _json_ids(text) if text.lstrip("\ufeff \t\r\n")[:1] in ("[", "{") else _line_ids(text)
    if not ids:
        raise UsageError("'-' reads paper ids from standard input, and it holds none")
    return list(dict.fromkeys(ids))


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


def _line_ids(text: str) -> list[str]:
    """The ids of lines of text (see the module)."""
    ids: list[str] = []
    for number, line in enumerate(text.splitlines(), start=1):
        words = _COMMENT.sub("", line).split()
        if not words:
            continue
        if all(_HEX.fullmatch(word) for word in words):
            ids += words  # ids (or prefixes), one or more a line
        elif _FULL_ID.fullmatch(words[0]):
            ids.append(words[0])  # a line of `papers list`: id, status, title
        elif len(words) > 2 and words[0].isdigit() and _FULL_ID.fullmatch(words[1]):
            ids.append(words[1])  # a line of `papers queue`: place, id, title
        else:
            shown = " ".join(words)
            shown = shown if len(shown) <= 60 else shown[:59] + "…"
            raise LibraryError(
                f"standard input, line {number}: {shown!r} is not a paper id (ids, one or more "
                "a line, or the lines of `papers list` or `papers queue`); nothing was changed"
            )
    return ids
