"""Errors the storage layer raises: each carries a one-line message meant for people."""

from __future__ import annotations

from pathlib import Path


class LibraryError(Exception):
    """Base of every error papers-tui reports to the user as one line."""


class SourceError(LibraryError):
    """A list file that cannot be read at all (missing, empty, binary, not a paper list)."""


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
