"""``papers sync [DIR]``: merge this library with others through a folder a sync tool carries."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from tui.cli.common import PROG, Parser, Subparsers, UsageError, open_library, path_arg
from tui.cli.output import columns, complain, say

if TYPE_CHECKING:
    from tui.config import Config

DESCRIPTION = (
    "Merge this library with the libraries of your other devices through DIR, any folder a "
    "file-sync tool or git carries (Syncthing, Dropbox, iCloud, a git repository, a USB "
    "stick). Each device writes only its own files there; decisions, notes, tags, undos, "
    "papers and removals made on any device reach every other, the latest change of a paper "
    "winning. A new machine joins by syncing an empty library. Problems with the folder's "
    "files are one line each on stderr; the exit code is 1 when changes made here could not "
    "be written into DIR (they wait, and go with the next sync)."
)


def add_sync(sub: Subparsers, common: Parser) -> None:
    """``papers sync [DIR] [--status] [--name NAME]``."""
    p = sub.add_parser(
        "sync",
        parents=[common],
        help="merge this library with others through a synced folder",
        description=DESCRIPTION,
    )
    p.add_argument(
        "folder",
        nargs="?",
        type=path_arg,
        metavar="DIR",
        help='the synced folder (default: [sync] folder = "…" in config.toml)',
    )
    p.add_argument(
        "--status",
        action="store_true",
        help="show the devices seen and what waits to be sent or received; change nothing",
    )
    p.add_argument(
        "--name",
        metavar="NAME",
        help="this device's name in the folder (kept; default: [sync] name in config.toml)",
    )
    p.set_defaults(run=cmd_sync, reports=lambda args: not args.status)


def cmd_sync(args: argparse.Namespace) -> int:
    from storage.sync import sync_library
    from storage.sync.status import sync_status

    library = open_library(args)
    config = _sync_config(library.home)
    configured = None if args.folder else config.sync_folder
    if args.status and not args.folder and configured is None:
        say(*_status_without_folder(library.home))
        return 0
    if args.folder:
        folder = Path(args.folder)
    elif configured is None:
        raise UsageError('give the synced folder DIR, or set [sync] folder = "…" in config.toml')
    else:
        folder = configured
    if args.status:
        status = sync_status(library, folder)
        say(*status.lines(columns))
        for problem in status.problems:
            complain(f"{PROG}: note: {problem}")
        return 0
    from tui.memory import collector_paused

    with collector_paused():  # papers it brings: every paper read and written again
        # [sync] name names this device as the app's syncs name it (without it, a library
        # synced from the command line went by the machine's name, the app's by the config's)
        report = sync_library(library, folder, name=args.name or config.sync_name or None)
    say(report.summary())
    for problem in report.problems:
        complain(f"{PROG}: note: {problem}")
    return 1 if report.waiting else 0


def _sync_config(home: Path) -> Config:
    """config.toml (its ``[sync]`` folder and name), its problems (and a whole file's) said
    once."""
    from storage.locations import config_paths
    from tui.config import load_config

    config = load_config(config_paths(home))
    for problem in config.problems_of("sync"):  # a config that does not parse is said, and ignored
        complain(f"{PROG}: note: {problem}")
    return config


def _status_without_folder(home: Path) -> list[str]:
    """``--status`` with no folder given or set: what this library knows by itself (this
    device, the folders it synced with before and when), and how to name one."""
    import orjson

    from storage.files.atomic import read_regular
    from storage.sync.device import SYNC_DIR, device_path, load_device
    from storage.sync.status import when

    known = device_path(home).exists()
    device, _moved = load_device(home, save=False)
    lines = [
        'folder: none set (give one: papers sync DIR, or [sync] folder = "…" in config.toml)',
        f"this device: {device.name} "
        + (f"({device.short})" if known else "(its id is made at its first sync)"),
    ]
    synced: list[tuple[int, str]] = []
    for path in sorted((home / SYNC_DIR).glob("folder-*.json")):
        try:
            data = orjson.loads(read_regular(path))
        except (OSError, orjson.JSONDecodeError):
            continue
        if isinstance(data, dict) and isinstance(data.get("folder"), str):
            at = data.get("synced_at")
            moment = at if isinstance(at, int) and not isinstance(at, bool) else 0
            synced.append((moment, data["folder"]))
    if not synced:
        lines.append("synced before: never")
    for moment, folder in sorted(synced, reverse=True):
        lines.append(f"synced before with {folder}, last {when(moment)} (--status DIR: its state)")
    return lines
