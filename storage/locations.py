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
