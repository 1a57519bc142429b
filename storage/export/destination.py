"""Where an export lands: one regular file, written whole, never one of a library's own files.

Used by the ``papers export`` command and by the app, in two steps so that the app can ask
before replacing a file: ``export_target`` says which file a path means and whether it exists
(refusing what an export must never write), and ``write_export`` writes it.

- A folder gets a file of the default name inside it; ``~`` is the home folder.
- Only a regular file is written: a FIFO, a device or a socket is refused (renaming a file over
  them would leave whoever reads them with nothing, or replace ``/dev/null`` for everyone).
- Nothing inside the library's folder (HOME), nor in any other papers-tui library folder, is
  ever written: ``-o ~/.local/share/papers-tui/triage.json`` would destroy the decisions.
- A symbolic link is written through: its target is replaced, atomically, and the link stays.
- An existing file is replaced only when the user named it and said so (``replace``): the
  command's ``-o FILE`` names it; a folder's default file is never replaced unasked.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from storage.errors import LibraryError
from storage.files.atomic import atomic_write_parts, in_batches, link_target, special_kind
from storage.locations import is_library_folder


class TargetExistsError(LibraryError):
    """The export's file exists and the user has not said to replace it."""


@dataclass(frozen=True, slots=True)
class ExportTarget:
    """The file an export would write, found and checked before anything is written."""

    #: The file as the user sees it: the path given, or the folder's file of the default name.
    path: Path
    #: What is replaced: ``path`` itself, or the file its symbolic links lead to.
    file: Path
    #: The user named this file (rather than a folder that got the default name).
    named: bool
    #: A file is there now: replacing it needs the user's word.
    exists: bool


def export_target(target: Path, default_name: str, home: Path | None = None) -> ExportTarget:
    """The file an export to ``target`` writes, for a library in ``home``.

    Raises ``LibraryError`` (one line naming the path) for what an export never writes: a
    missing folder, a special file, a library's own files.
    """
    path = target.expanduser()
    try:  # even asking whether a path is a folder fails on a name too long
        named = not path.is_dir()
        if not named:
            path = path / default_name
        if not path.parent.is_dir():
            raise LibraryError(f"{path.parent}: no such folder")
        file = link_target(path)
        try:  # through the path: /dev/stdout's magic link has no real path (pipe:[…])
            mode = os.stat(path).st_mode
        except FileNotFoundError:
            mode = None
    except OSError as exc:
        raise LibraryError(f"{path}: cannot write ({exc.strerror or exc})") from None
    kind = special_kind(mode) if mode is not None else ""
    if kind:  # a folder here is a link to one, or a folder made a moment ago
        raise LibraryError(f"{path}: is {kind}, not a regular file; exports write files only")
    folder = file.parent.resolve()
    if home is not None and folder.is_relative_to(home.expanduser().resolve()):
        raise LibraryError(f"{path}: inside the library folder {home}; export somewhere else")
    if is_library_folder(folder):
        raise LibraryError(f"{path}: in a papers-tui library folder; export somewhere else")
    return ExportTarget(path=path, file=file, named=named, exists=mode is not None)


def write_export(
    target: Path,
    text: str | Iterable[str],
    default_name: str,
    *,
    home: Path | None = None,
    replace: bool = False,
) -> Path:
    """Write an export's ``text`` (whole, or its pieces: ``export_pieces``) to ``target`` (see
    ``export_target``); returns the file's path.

    An existing file is replaced only with ``replace`` and only when ``target`` named it
    (``TargetExistsError`` otherwise). The file is replaced atomically: a reader never sees
    half an export, and one that fails half written (a full disk) leaves the file as it was.
    Pieces are written as they come, a batch at a time (``in_batches``). A failed write raises
    ``LibraryError`` with one line naming the path.
    """
    where = export_target(target, default_name, home)
    if where.exists and not (replace and where.named):
        if where.named:
            raise TargetExistsError(f"{where.path}: already exists; it was left as it is")
        raise TargetExistsError(f"{where.path}: already exists; give its full name to replace it")
    batches = in_batches([text] if isinstance(text, str) else text)
    try:
        atomic_write_parts(where.file, (batch.encode("utf-8") for batch in batches), backup=False)
    except OSError as exc:
        raise LibraryError(f"{where.path}: cannot write ({exc.strerror or exc})") from None
    return where.path
