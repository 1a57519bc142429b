"""Where papers-tui keeps its files: HOME for the library, a config folder for ``config.toml``
(key maps, the sync folder)."""

from __future__ import annotations

import errno
import os
from pathlib import Path

from platformdirs import user_config_path, user_data_path

from storage.errors import SourceError

APP_NAME = "papers-tui"
HOME_ENV = "PAPERS_HOME"
CONFIG_FILE = "config.toml"


def library_home(explicit: str | os.PathLike[str] | None = None) -> Path:
    """HOME: ``--home DIR``, else ``$PAPERS_HOME``, else the platform's user data folder."""
    if explicit:
        return Path(explicit).expanduser()
    env = os.environ.get(HOME_ENV)
    if env:
        return Path(env).expanduser()
    return user_data_path(APP_NAME, appauthor=False)


def make_home(home: Path) -> None:
    """Create HOME (and the folders it is in) if it is missing; ``SourceError`` (one line)
    when it cannot be.

    A symbolic link on the way to a folder that is not there (``ln -s ~/Sync/papers HOME``
    before the folder came) is followed: the folder it names is made when the folder that
    holds it is there, as a missing HOME is made and as a library file's link to a missing
    file is written through (``storage.files.links``). When that folder is missing too (a
    drive not mounted?), nothing is made, and the link is named: an empty library made there
    would hide the real one once the drive is back. It said "is a file: the library is a
    folder" of such a link."""
    for _ in range(8):  # each pass makes the folder one link names; links a chain deep
        try:
            home.mkdir(parents=True, exist_ok=True)
            return
        except OSError as exc:
            where = Path(exc.filename) if exc.filename else home
            if exc.errno == errno.EEXIST and where.is_symlink():
                _make_link_target(where, home)
                continue
            if exc.errno in (errno.EEXIST, errno.ENOTDIR):  # a file there, or on its way
                what = "is a file" if exc.errno == errno.EEXIST else "has a file in its path"
                raise SourceError(f"{home}: {what}: the library is a folder") from None
            why = exc.strerror or exc  # not Python's "[Errno 30] Read-only file system: PATH"
            raise SourceError(f"{home}: cannot create the library folder ({why})") from None
    raise SourceError(f"{home}: cannot create the library folder (links lead on and on)")


def check_home(home: Path) -> None:
    """Raise the ``SourceError`` that ``make_home`` would for a HOME that is a file or has a
    file on its way, making nothing: HOME itself is made only when there is something to
    write (``Library``'s ``make``), and such a HOME said so at once, not as a library file
    that is "Not a directory"."""
    for folder in (home, *home.parents):
        if folder.is_symlink() and not folder.exists():
            _link_target(folder, home)  # a drive not mounted is said now; the folder made later
            return
        if folder.exists():
            if not folder.is_dir():
                make_home(home)  # raises: a file is there, or on its way (nothing is made)
            return


def _make_link_target(link: Path, home: Path) -> None:
    """Make the missing folder the symbolic link ``link`` (HOME, or a folder on HOME's way)
    names, if the folder that holds it is there; else ``SourceError`` saying what it is."""
    target = _link_target(link, home)
    said = _link_said(link, home)
    try:
        target.mkdir(exist_ok=True)
    except OSError as exc:
        why = exc.strerror or exc
        raise SourceError(
            f"{said} to {target}, which does not exist and cannot be made ({why})"
        ) from None


def _link_target(link: Path, home: Path) -> Path:
    """The missing folder the symbolic link ``link`` names, when the folder that holds it is
    there (it can be made); else ``SourceError`` saying what it is."""
    said = _link_said(link, home)
    try:
        os.stat(link)
    except FileNotFoundError:
        target = Path(os.path.realpath(link))  # the end of a chain of links
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise SourceError(f"{said} in a loop of links (one leads back to another)") from None
        why = exc.strerror or exc
        raise SourceError(f"{home}: cannot create the library folder ({why})") from None
    else:  # it leads to a file (a folder would have been taken as it is)
        raise SourceError(f"{said} to {os.path.realpath(link)}, a file: the library is a folder")
    if not target.parent.is_dir():
        raise SourceError(
            f"{said} to {target}, which does not exist, nor does {target.parent} "
            "(a drive not mounted?): mount it, or make the folder"
        )
    return target


def _link_said(link: Path, home: Path) -> str:
    """How an error names the symbolic link ``link``: HOME, or a folder on HOME's way."""
    return f"{home}: " + ("" if link == home else f"{link} on its way ") + "is a symbolic link"


def config_paths(home: Path) -> list[Path]:
    """Config files in the order they are read: the platform's config folder, then HOME."""
    return [user_config_path(APP_NAME, appauthor=False) / CONFIG_FILE, home / CONFIG_FILE]


def is_library_folder(folder: Path) -> bool:
    """True when ``folder`` holds a papers-tui library (its lock file beside one of its files)."""
    from storage.files.locks import LOCK_FILE
    from storage.files.papers_file import PAPERS_FILE
    from storage.files.triage_file import TRIAGE_FILE

    return (folder / LOCK_FILE).exists() and any(
        (folder / name).exists() for name in (PAPERS_FILE, TRIAGE_FILE)
    )
