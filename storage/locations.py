"""Where papers-tui keeps its files: HOME for the library, a config folder for ``config.toml``
(key maps, the sync folder)."""

from __future__ import annotations

import os
from pathlib import Path

from platformdirs import user_config_path, user_data_path

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
