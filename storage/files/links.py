"""A library file that is a symbolic link to a file that is not there.

Dotfile managers link ``papers.json`` and ``triage.json`` into HOME, and a link may lead to a
drive that is not mounted, a synced folder not yet arrived. Read through, such a link is no
file: the library read as empty, without a word, as if every decision were gone. A write
through it still creates the file it names (a link made before its target is how dotfile
managers work: ``storage.files.atomic.link_target``); what is missing is said instead, by
``missing_link``, in one line naming the link, its target and where a write would go.
"""

from __future__ import annotations

import os
from pathlib import Path


def dangling_target(path: Path) -> Path | None:
    """The file ``path`` links to, when ``path`` is a symbolic link (or a chain of them) to a
    file that does not exist; None otherwise (no link, a link to a file, a loop of links)."""
    if not path.is_symlink():
        return None
    try:
        os.stat(path)
    except FileNotFoundError:
        return Path(os.path.realpath(path))
    except OSError:
        return None  # a loop of links: said as an error by whatever opens it
    return None


def missing_link(path: Path, shown: str, written: str) -> str | None:
    """One line saying that ``path`` links to a file that is missing (None: it does not):
    what is not shown (``shown``: "no decisions are shown"), and where ``written`` ("a
    decision") would go."""
    target = dangling_target(path)
    if target is None:
        return None
    if target.parent.is_dir():
        then = f"{written} made now is written there (a new {target.name})"
    else:
        then = f"{written} cannot be written until it is back ({target.parent} is missing too)"
    return f"{path} links to {target}, which is missing (a drive not mounted?): {shown}; {then}"
