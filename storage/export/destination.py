"""Where an export lands: one file, written whole, for both the ``papers export`` command and
the app."""

from __future__ import annotations

from pathlib import Path

from storage.errors import LibraryError
from storage.files import atomic_write


def write_export(target: Path, text: str, default_name: str) -> Path:
    """Write an export's ``text`` to ``target`` and return the file written.

    A folder gets a file ``default_name`` inside it; ``~`` is the home folder. The file is
    replaced atomically (a reader never sees half an export). A missing folder or a failed
    write raises ``LibraryError`` with one line naming the path.
    """
    target = target.expanduser()
    try:  # even asking whether a path is a folder fails on a name too long
        if target.is_dir():
            target = target / default_name
        if not target.parent.is_dir():
            raise LibraryError(f"{target.parent}: no such folder")
        atomic_write(target, text.encode("utf-8"), backup=False)
    except OSError as exc:
        raise LibraryError(f"{target}: cannot write ({exc.strerror or exc})") from None
    return target
