"""Paths typed into the app's prompts: where they point, and how Tab completes them."""

from __future__ import annotations

import os
from pathlib import Path

#: Completions listed at most (a folder of thousands of files lists this many).
SHOWN_CANDIDATES = 12


def typed_path(text: str) -> Path:
    """The path typed into a prompt that was filled with a folder to start from.

    As in Emacs, typing an absolute path after the folder starts again at the root: in
    ``/home/me/papers//data/list.jsonl`` or ``/home/me/papers/~/list.jsonl`` the last ``//``
    or ``/~/`` begins the path meant. ``~`` is the home folder.
    """
    text = text.strip()
    start = max(text.rfind("//") + 1, text.rfind("/~/") + 1)
    return Path(text[start:]).expanduser()


def complete(text: str) -> tuple[str, list[str]]:
    """Tab on ``text``: the text extended as far as every match agrees, and the names that
    match (folders end with ``/``). Hidden files match only when asked for (``.``)."""
    head, _, partial = text.rpartition("/") if "/" in text else ("", "", text)
    folder = typed_path(head + "/") if "/" in text else Path(".")
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError:
        return text, []
    names = []
    for entry in entries:
        if entry.name.startswith(partial) and (partial[:1] == "." or entry.name[:1] != "."):
            try:
                is_folder = entry.is_dir()
            except OSError:
                is_folder = False
            names.append(entry.name + ("/" if is_folder else ""))
    if not names:
        return text, []
    common = os.path.commonprefix(names)
    prefix = head + "/" if "/" in text else ""
    more = ["…"] if len(names) > SHOWN_CANDIDATES else []
    return prefix + common, names[:SHOWN_CANDIDATES] + more
