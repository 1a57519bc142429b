"""Everything the commands print goes through here: data made safe for the terminal it reaches.

Text from files (titles, list names, venue statuses, notes, file names in messages) may hold
escape sequences; printed raw, they would clear the screen or write the clipboard. So:

- lines for people (``say``, ``complain``) show control and bidirectional characters as
  visible symbols, wherever they go (a line break inside a value is a space);
- JSON (``write_json``, JSON exports) and the other exports (``write_document``) reach a pipe
  or a file as written (a script gets the exact text; JSON escapes C0 controls and ESC itself)
  and a terminal made safe: JSON with every control and bidirectional character escaped as
  ``\\uXXXX`` (the same data for a parser), other formats with them made visible.
"""

from __future__ import annotations

import contextlib
import errno
import sys
import time
from collections.abc import Callable, Collection, Iterable, Sequence
from typing import TextIO

import orjson

from storage import Library, LibraryError, Status
from storage.files.triage_file import TriageState
from storage.models import Paper
from storage.text.sanitize import ascii_json, json_safe, printable, printable_block


def say(*lines: str) -> None:
    """Print lines for people on standard output, each one line, every character visible."""
    sys.stdout.write("".join(printable(line) + "\n" for line in lines))


def say_kept(*lines: str) -> None:
    """``say`` what a change replaces and nothing else keeps (a note, tags: no undo brings
    them back): its only copy, not a report of the change that a closed standard output
    drops (``tui.cli.main._ClosedOutput``); ``kept_or_not_changed`` then has it out before
    the change is written."""
    keep = getattr(sys.stdout, "keep_a_copy", None)  # (``tui.cli.main._ReportOutput``)
    if keep is not None:
        keep()
    say(*lines)


class CopyNotPrinted(LibraryError):
    """Standard output could not take the only copy of what a change would replace (a note,
    tags): the change is not made (``kept_or_not_changed``)."""


def kept_or_not_changed(left: str) -> None:
    """Have what ``say_kept`` printed out now, before the change that replaces it (a note,
    tags) is written: an output that cannot take it (closed, ``>&-``; a full disk; a reader
    gone) raises ``CopyNotPrinted``, saying ``left`` (what is left as it was), and the change
    is not made. (It was saved, then the error said the only copy of what it replaced was
    lost.)"""
    try:
        sys.stdout.flush()
    except OSError as exc:  # (an output of its own: ``_ReportOutput`` keeps its failure)
        failed: OSError | None = exc
    else:
        failed = getattr(sys.stdout, "failed", None)
    if failed is not None:
        raise CopyNotPrinted(f"{output_failure(failed)}: {left}")


def output_failure(exc: OSError) -> str:
    """How standard output failed, as an error line says it."""
    if exc.errno == errno.EBADF:
        return "standard output is closed"
    return f"standard output: {exc.strerror or exc}"


def list_names(names: Iterable[str]) -> str:
    """Lists' names for a line of a report, each cut as the app's toast and the stats' table
    cut one (``tui.text.NAME_CELLS``): a list named by a script in 100,000 characters made a
    line of 100,000 characters. ``--json`` and the exports keep the whole name."""
    from tui.text import NAME_CELLS, cut_cells

    return ", ".join(cut_cells(printable(name), NAME_CELLS) for name in names)


def complain(message: str) -> None:
    """Print one line on standard error (an error, a warning), the data in it visible; an
    error output that cannot take it (a terminal gone: EIO) loses the line, and the exit code
    still says what happened (the line raised: a traceback into the same dead output, and
    exit code 1 whatever the error was)."""
    with contextlib.suppress(OSError, ValueError):
        sys.stderr.write(printable(message) + "\n")


def write_json(data: object) -> None:
    """Print ``data`` as indented JSON (on a terminal: ``\\u009b``, ``\\u202e`` escaped too)."""
    write_document(orjson.dumps(data, option=orjson.OPT_INDENT_2).decode() + "\n", is_json=True)


def write_document(text: str, *, is_json: bool = False) -> None:
    """Print an export: to a pipe or a file as written, to a terminal made safe.

    An output whose encoding cannot hold every character (``PYTHONIOENCODING=ascii``, a C or
    Latin-1 locale Python does not coerce to UTF-8): to a pipe or a file the document goes as
    UTF-8, the encoding of every format written and the bytes ``-o FILE`` writes (a title's
    ``é`` was an internal error, half the document out); to a terminal, JSON's other
    characters as ``\\uXXXX`` too (the same data), the other formats' as ``\\xe9`` escapes
    (``unicode_output``).
    """
    terminal = is_terminal(sys.stdout)
    if terminal:
        text = json_safe(text) if is_json else printable_block(text)
    if holds_any_text(sys.stdout):
        sys.stdout.write(text)
    elif terminal:
        sys.stdout.write(ascii_json(text) if is_json else text)
    elif (raw := getattr(sys.stdout, "buffer", None)) is not None:
        sys.stdout.flush()  # what was written as text goes first
        raw.write(text.encode("utf-8", "surrogateescape"))
    else:
        sys.stdout.write(text)


def names_standard_output(path: str) -> bool:
    """Whether ``path`` is the file standard output is open on (``-o /dev/stdout``, whatever
    the shell opened: ``>> log.md`` appends, ``| less`` is a pipe): replaced whole as an
    ``-o`` file is, what the shell had appended to went, and a pipe was refused as a FIFO."""
    import os

    try:
        named, ours = os.stat(path), os.fstat(sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # (no such file; an output of no fd)
        return False
    return (named.st_dev, named.st_ino) == (ours.st_dev, ours.st_ino)


def holds_any_text(stream: TextIO) -> bool:
    """Whether ``stream``'s encoding writes every character (a UTF: not ASCII, not Latin-1)."""
    import codecs

    try:
        return codecs.lookup(stream.encoding).name.startswith("utf")
    except (AttributeError, LookupError, TypeError):  # a stream without one: text as it is
        return True


def unicode_output() -> None:
    """Standard output made to take any text: where its encoding cannot hold a character
    (``PYTHONIOENCODING=ascii``, ``LC_ALL=C`` with Python's UTF-8 coercion off), the
    character shows as an escape (``\\xe9``, ``\\u2192``), as standard error already shows
    it, rather than every ``papers list``, ``undo`` or ``sync --help`` that met a title's
    ``é`` or the help's ``…`` ending in an internal error or a traceback."""
    if not holds_any_text(sys.stdout):
        with contextlib.suppress(AttributeError, ValueError):  # not a TextIOWrapper, closed
            sys.stdout.reconfigure(errors="backslashreplace")  # type: ignore[union-attr]


def as_printed(text: str) -> str:
    """``text`` as standard output prints it: where its encoding cannot hold a character
    (``unicode_output``), with the escape that stands for it (``\\u8bba``), so that what is
    measured for a column is what shows."""
    if holds_any_text(sys.stdout):
        return text
    encoding = sys.stdout.encoding
    return text.encode(encoding, "backslashreplace").decode(encoding)


class ProgressLines:
    """Progress of a long command on standard error, when that is a terminal: a plain line
    (the command writes no escape sequence of its own) at most every ``every`` seconds, the
    first ``every`` seconds in, so that a command done sooner says nothing."""

    def __init__(self, every: float = 2.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.live = is_terminal(sys.stderr)
        self.every = every
        self.clock = clock
        self.started = self.last = clock()

    def due(self) -> bool:
        """Whether a line is due now (and, if so, the next one ``every`` seconds from now)."""
        now = self.clock()
        if not self.live or now - self.last < self.every:
            return False
        self.last = now
        return True

    def long(self) -> bool:
        """Whether the command has run long enough to say what it does (on a terminal)."""
        return self.live and self.clock() - self.started >= self.every


def is_terminal(stream: TextIO) -> bool:
    """True when ``stream`` is a terminal (a closed or replaced stream is not)."""
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def columns(rows: Sequence[Sequence[str]], right: Collection[int] = ()) -> list[str]:
    """Rows of cells as lines, each column as wide as its widest cell on the terminal: a CJK
    character takes two cells, a combining accent none, so a list named in Chinese does not
    push the columns after it. Cells are made printable first, and written as the output's
    encoding prints them (``as_printed``: what shows is what is measured); the columns in
    ``right`` are aligned right, the last column is not padded."""
    from rich.cells import cell_len  # the measure Textual draws with: the CLI and the app agree

    shown = [[as_printed(printable(cell)) for cell in row] for row in rows]
    widths = [max(cell_len(row[i]) for row in shown) for i in range(len(shown[0]))] if shown else []
    lines = []
    for row in shown:
        cells = []
        for i, cell in enumerate(row):
            pad = " " * (widths[i] - cell_len(cell))
            last = i == len(row) - 1
            cells.append(pad + cell if i in right else cell if last else cell + pad)
        lines.append("  ".join(cells))
    return lines


def paper_line(paper: Paper, triage: TriageState) -> str:
    """One paper for ``papers list``: id, status, title, venue status, a code mark."""
    code = " [code]" if paper.github else ""
    venue = f" ({paper.venue_status})" if paper.venue_status else ""
    return f"{paper.id}  {triage.status(paper.id).value:<7}  {paper.display_title}{venue}{code}"


def print_papers(
    papers: Iterable[Paper],
    triage: TriageState,
    as_json: bool,
    more: Callable[[Paper], dict[str, object]] | None = None,
) -> None:
    """Papers one line each, or (``as_json``) as a JSON array of their records, written as
    they are made (``list --json`` of 100,000 papers is 200 MB: made whole, it peaked at 2 GB);
    ``more`` gives a record's fields beyond the paper's (``papers queue``: its local PDF)."""
    if as_json:
        from storage.export import in_batches, paper_record  # every exporter: only for JSON
        from storage.export.json_array import json_array_pieces

        records = (
            paper_record(p, triage) if more is None else {**paper_record(p, triage), **more(p)}
            for p in papers
        )
        for batch in in_batches(json_array_pieces(records)):
            write_document(batch, is_json=True)
    else:
        say(*(paper_line(p, triage) for p in papers))


def print_changes(library: Library, changes: Sequence[tuple[str, Status, Status]]) -> None:
    """What an undo or redo changed, one paper a line."""
    for pid, old, new in changes:
        say(f"{pid}  {old.value} → {new.value}  {library.paper(pid).display_title}")
