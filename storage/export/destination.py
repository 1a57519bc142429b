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
  A link is checked as its target is (a link to a FIFO is refused as the FIFO is, a link to a
  folder is that folder); a link to nothing makes the file it names, as the shell's ``>``
  does (a link made ahead of the file), in a folder that is there.
- An existing file is replaced only when the user named it and said so (``replace``): the
  command's ``-o FILE`` names it; a folder's default file is never replaced unasked.
- The temporary file an export writes beside its file (``.NAME.papers-export.WHERE.PID.….tmp``)
  is left there when the export is killed; every export into a folder sweeps those of its
  writers that are gone (WHERE is this machine's, PID runs no more) or that nobody has written
  for ten minutes, and nothing else: a file of another name, a link, another user's file.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import socket
import stat
import sys
import time
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Final

from storage.errors import LibraryError
from storage.files.atomic import (
    STALE_TEMPORARY_S,
    atomic_write_parts,
    link_target,
    special_kind,
)
from storage.files.batches import in_batches
from storage.locations import is_library_folder

#: What names an export's temporary file, after the file's own name: ``papers-export.WHERE.PID.``
#: (WHERE: this machine and its process ids' namespace, whose PID the name gives).
_MARK: Final = "papers-export"
_LEFTOVER: Final = re.compile(
    r"\..+\.papers-export\.([0-9a-f]{8})\.([0-9]+)\.[a-z0-9_]+\.tmp", re.S
)


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
            there = path.parent.exists() or path.parent.is_symlink()
            raise LibraryError(f"{path.parent}: {'not a folder' if there else 'no such folder'}")
        file = link_target(path)
        try:  # through the path: /dev/stdout's magic link has no real path (pipe:[…])
            mode = os.stat(path).st_mode
        except FileNotFoundError:
            mode = None
    except OSError as exc:
        raise LibraryError(f"{path}: cannot write ({exc.strerror or exc})") from None
    linked = file != path
    kind = special_kind(mode) if mode is not None else ""
    if kind:  # a folder here is a link to one, or a folder made a moment ago
        what = f"links to {file}, {kind}" if linked else f"is {kind}"
        raise LibraryError(f"{path}: {what}, not a regular file; exports write files only")
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
    sweep_leftovers(where.file.parent)
    batches = in_batches([text] if isinstance(text, str) else text)
    parts = (batch.encode("utf-8") for batch in batches)
    marker = f"{_MARK}.{_where()}.{os.getpid()}."
    try:
        atomic_write_parts(where.file, parts, backup=False, marker=marker)
    except OSError as exc:
        raise LibraryError(f"{where.path}: cannot write ({exc.strerror or exc})") from None
    return where.path


def sweep_leftovers(folder: Path, now: float | None = None) -> list[Path]:
    """Remove from ``folder`` the temporary files of exports that were killed (see the
    module); returns those removed. Only regular files of this user, named as an export
    names its temporary, whose writer is gone or silent for ``STALE_TEMPORARY_S``."""
    moment = time.time() if now is None else now
    here = _where()
    removed: list[Path] = []
    with contextlib.suppress(OSError), os.scandir(folder) as entries:
        for entry in entries:
            found = _LEFTOVER.fullmatch(entry.name)
            if found is None:
                continue
            with contextlib.suppress(OSError):
                st = entry.stat(follow_symlinks=False)
                if not stat.S_ISREG(st.st_mode) or st.st_uid != _uid():
                    continue
                gone = found[1] == here and not _running(int(found[2]))
                if gone or moment - st.st_mtime > STALE_TEMPORARY_S:
                    os.unlink(entry.path)
                    removed.append(Path(entry.path))
    return removed


@cache
def _where() -> str:
    """This machine and its process ids' namespace (a container has its own), as 8 hex
    characters: a writer's PID tells whether it runs only where this is the same. The
    machine is its host name and its boot's id: every Linux machine's first namespace has the
    same number, and two machines of one host name (``localhost``, a laptop's default) that
    share a synced folder took each other's live temporaries for their own dead ones."""
    namespace = boot = ""
    with contextlib.suppress(OSError):
        namespace = os.readlink("/proc/self/ns/pid")
    with contextlib.suppress(OSError, UnicodeDecodeError):
        boot = Path("/proc/sys/kernel/random/boot_id").read_text(encoding="ascii").strip()
    place = f"{socket.gethostname()}|{namespace}|{boot}".encode("utf-8", "replace")
    return hashlib.blake2s(place, digest_size=4).hexdigest()


def _uid() -> int:
    return os.getuid() if hasattr(os, "getuid") else -1


def _running(pid: int) -> bool:
    """Whether a process ``pid`` runs (on Windows, where asking kills it, assumed so)."""
    if sys.platform == "win32" or pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, OSError):
        return True  # another user's, or a number no process has: leave it to its age
    return True
