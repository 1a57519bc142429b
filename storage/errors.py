"""Errors the storage layer raises: each carries a one-line message meant for people."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from storage.models import ImportReport


class LibraryError(Exception):
    """Base of every error papers-tui reports to the user as one line."""


class SourceError(LibraryError):
    """A list file that cannot be read at all (missing, empty, binary, not a paper list)."""


class NotAList(SourceError):
    """The file is text, but no paper list: the front door names the formats it tried."""


class OtherDocument(SourceError):
    """The file is a document of another kind, not a paper list nor a damaged one: XML whose
    root element (``root``) no reader takes, an SVG, a Maven POM, an RSS feed, a part of a
    Word document. A folder import passes it over (``ImportReport.passed``); a file named
    alone is refused in one line."""

    def __init__(self, message: str, root: str) -> None:
        super().__init__(message)
        self.root = root


class DamagedFileError(LibraryError):
    """A library file that does not parse: it is left untouched, never written over."""

    def __init__(self, path: Path, reason: str, backup: Path | None = None) -> None:
        self.path = path
        self.reason = reason
        self.backup = backup
        if backup is not None and backup.exists():
            hint = f"the last good version is {backup}: copy it over {path.name} to recover"
        else:
            hint = f"move it aside to start {path.name} afresh"
        super().__init__(f"{path} is damaged ({reason}); it was left as it is: {hint}")


class NewerFileError(LibraryError):
    """A library file written by a newer papers-tui than this one."""


class UnknownPaperError(LibraryError):
    """An id (or id prefix) that names no paper, or more than one."""


class LockTimeoutError(LibraryError):
    """Another papers process held the library lock for too long."""


class ImportInterrupted(KeyboardInterrupt):
    """Ctrl+C once an import had stored its papers: the import stands, and ``report`` says
    what it did. ``decisions_taken``: whether it had also taken the decisions its list
    carries (if not, importing the list again takes them). Of the files derived from the
    papers (the cache, the search and similarity indexes), what it had not made yet the next
    command that needs them makes."""

    def __init__(self, report: ImportReport, *, decisions_taken: bool) -> None:
        super().__init__()
        self.report = report
        self.decisions_taken = decisions_taken
