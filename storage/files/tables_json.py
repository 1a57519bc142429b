"""The text of a TinyDB file: its tables as JSON, written and read a slice at a time.

A large table (``papers.json``'s papers: 180 MB at 100,000 papers) is written a slice of
``_DOCUMENTS_AT_ONCE`` documents at a time, each slice on a line of its own (a newline is
whitespace to JSON: the file is the same JSON, and any JSON reader reads it). Read back a line
at a time, it is never all in memory as text: parsing 180 MB at once held the text, the
parser's own tree of it and the objects it made (780 MB at its peak; a line at a time, the
objects and one line). A file laid out otherwise (written by hand, by another program, by an
older papers-tui) is parsed whole, as before.

Reading a line at a time is exactly reading the whole: each line is parsed on its own, as the
members of an object, and the lines must join into one object as they were written (a slice
after the first starts with its comma, a table's last line closes it); anything else and the
whole text is parsed instead, which then says what is wrong.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from itertools import islice
from pathlib import Path
from typing import Any

import orjson

from storage.errors import DamagedFileError

Tables = dict[str, dict[str, Any]]

#: Documents of a large table encoded at a time, and a line (see ``encoded_tables``).
_DOCUMENTS_AT_ONCE = 1000


def encoded_tables(tables: Tables) -> Iterator[bytes]:
    """The JSON of ``tables`` (``orjson.dumps``'s, but for newlines) in parts: a large table a
    line of documents at a time, so that writing (and reading) a library never holds its
    whole text in memory."""
    if not all(isinstance(name, str) for name in tables):
        yield orjson.dumps(tables)  # what it says of a key that is not text
        return
    yield b"{"
    for number, (name, table) in enumerate(tables.items()):
        yield (b"," if number else b"") + orjson.dumps(name) + b":"
        if not isinstance(table, dict) or len(table) <= _DOCUMENTS_AT_ONCE:
            yield orjson.dumps(table)
            continue
        documents = iter(table.items())
        separator = b"{\n"
        while part := dict(islice(documents, _DOCUMENTS_AT_ONCE)):
            yield separator + orjson.dumps(part)[1:-1] + b"\n"  # without its braces
            separator = b","
        yield b"}"
    yield b"}"


def parse_tables(raw: bytes, path: Path) -> Tables:
    """Parse a TinyDB file, or raise ``DamagedFileError`` naming what is wrong."""
    if not raw.strip():
        raise DamagedFileError(path, "the file is empty", backup_path(path))
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        raise DamagedFileError(path, f"not valid JSON: {exc}", backup_path(path)) from None
    return _checked(data, path)


def _checked(data: Any, path: Path) -> Tables:
    if not isinstance(data, dict):
        raise DamagedFileError(
            path, "not a TinyDB file: the top level is not an object", backup_path(path)
        )
    for name, table in data.items():
        if not isinstance(table, dict) or not all(isinstance(d, dict) for d in table.values()):
            raise DamagedFileError(
                path, f"not a TinyDB file: table {name!r} is malformed", backup_path(path)
            )
    return data


def backup_path(path: Path) -> Path:
    """Where the last good version of ``path`` is kept."""
    return path.with_name(path.name + ".bak")


def parse_lines(lines: Iterable[bytes], path: Path, reread: Callable[[], bytes]) -> Tables:
    """The tables of a file read a line at a time (``lines``, each with its newline), as
    ``encoded_tables`` lays them out; otherwise the whole text (``reread``) parsed at once.
    ``DamagedFileError`` when the file is not a TinyDB file."""
    found = _in_lines(lines)
    if found is None:
        return parse_tables(reread(), path)
    return _checked(found, path)


def _in_lines(lines: Iterable[bytes]) -> dict[str, Any] | None:
    """The object the lines hold, if they are laid out as ``encoded_tables`` writes them."""
    tables: dict[str, Any] = {}
    current: dict[str, Any] | None = None  # the large table whose lines these are
    first_slice = True
    ended = False
    for number, line in enumerate(lines):
        if ended:
            return None  # something after the end
        body = line[:-1] if line.endswith(b"\n") else line
        if current is not None and not body.startswith(b"}"):
            if body.startswith(b",") == first_slice:
                return None  # a slice's comma where there is none, or none where there is
            members = _members(body[1:] if body.startswith(b",") else body)
            if members is None:
                return None
            current.update(members)
            first_slice = False
            continue
        # the file's first line, or a large table's last: '{' or '}', then small tables, then
        # either the opening of the next large table or the end of the file's object
        if (number == 0) != body.startswith(b"{") or (number and current is None):
            return None
        rest = body[1:]
        if number:
            if not rest.startswith((b",", b"}")):
                return None
            if rest.startswith(b","):
                rest = rest[1:]
                if not rest or rest.startswith(b"}"):
                    return None  # a comma before the end ('},}'): not JSON
        opens = rest.endswith(b":{")
        members = _members(rest + b"}" if opens else rest[:-1]) if rest != b"}" else {}
        if members is None or (not opens and not rest.endswith(b"}")):
            return None
        if any(name in tables for name in members):
            return None  # a table twice: let the whole parse decide
        tables.update(members)
        if opens:
            name = next(reversed(members))
            current, first_slice = tables[name], True
            if not isinstance(current, dict) or current:
                return None
        else:
            current, ended = None, True
    return tables if ended else None


def _members(text: bytes) -> dict[str, Any] | None:
    """The members ``text`` holds (``"a":1,"b":{}``), or None when it holds something else."""
    if not text:
        return {}
    try:
        found = orjson.loads(b"{" + text + b"}")
    except orjson.JSONDecodeError:
        return None
    return found if isinstance(found, dict) else None
