"""Paths typed into the app's prompts: where they point, and how Tab completes them.

A path field shows only printable text (``shown``): a file named with a newline or an ESC
shows as ``␊`` or ``␛``, one visible symbol for each hidden character, never as the characters
themselves, which the field would hand to the terminal. So the field's text is not always the
file's name; ``typed_path`` maps it back, one part of the path at a time: a part that names
nothing on disk as it stands is the entry of that folder whose shown form it is.
"""

from __future__ import annotations

import contextlib
import os
import re
from pathlib import Path

from storage.text.sanitize import printable

#: Completions listed at most (a folder of thousands of files lists this many).
SHOWN_CANDIDATES = 12

# ``printable`` makes a tab, a newline or a line separator a space, which suits a title; in a
# name they show as symbols, so that a field's text never passes for another name ("a b").
_WHITESPACE = str.maketrans({"\t": "␉", "\n": "␊", "\u2028": "\ufffd", "\u2029": "\ufffd"})
#: What a hidden character shows as: its Control Picture, ``␡`` or ``�``.
_SYMBOLS = re.compile("[\u2400-\u241f\u2421\ufffd]")


def shown(text: str) -> str:
    """A path or a file's name as a path field shows it: a visible symbol for each character
    a terminal would obey or hide."""
    return printable(text.translate(_WHITESPACE))


def typed_path(text: str) -> Path:
    """The path typed into a prompt that was filled with a folder to start from.

    As in Emacs, typing an absolute path after the folder starts again at the root: in
    ``/home/me/papers//data/list.jsonl`` or ``/home/me/papers/~/list.jsonl`` the last ``//``
    or ``/~/`` begins the path meant. ``~`` is the home folder. A part as the field shows it
    stands for the real name (see the module's docstring).
    """
    text = text.strip()
    start = max(text.rfind("//") + 1, text.rfind("/~/") + 1)
    path = Path(text[start:])
    with contextlib.suppress(RuntimeError):  # ``~name`` of no user (``~r`` on the way to
        path = path.expanduser()  # ``~rob``): the path as typed
    return real_path(path)


def real_path(path: Path) -> Path:
    """``path`` with each part that names nothing as it stands replaced by the one entry of its
    folder shown as that part; the path as it stands when there is none (a file still to be
    written) or more than one (``a\\x9bb`` and ``a\\x9db`` both show as ``a�b``: no guess)."""
    if _exists(path):
        return path
    resolved = Path(path.anchor)
    parts = path.parts[1:] if path.anchor else path.parts
    for i, part in enumerate(parts):
        if not _exists(resolved / part):
            real = _entry_shown_as(resolved, part)
            if real is None:
                return resolved.joinpath(*parts[i:])
            part = real
        resolved = resolved / part
    return resolved


def _exists(path: Path) -> bool:
    try:
        return os.path.lexists(path)
    except (OSError, ValueError):  # a NUL in the name, a name too long
        return False


def _entry_shown_as(folder: Path, part: str) -> str | None:
    """The one name in ``folder`` shown as ``part`` (None: none, or several)."""
    names = _entries_shown_as(folder, part)
    return names[0] if len(names) == 1 else None


def _entries_shown_as(folder: Path, part: str) -> list[str]:
    """The names in ``folder`` shown as ``part``, other than ``part`` itself."""
    if not _SYMBOLS.search(part) or shown(part) != part:
        return []  # no symbol a hidden character shows as, or not a field's text
    try:
        with os.scandir(folder) as entries:
            return [e.name for e in entries if e.name != part and shown(e.name) == part]
    except OSError:
        return []


def unsure_name(path: Path) -> str:
    """Why a file written at ``path`` (``typed_path``'s) would not be the one its field
    shows ("" when it would): the first part of it that names nothing on disk holds a symbol
    a hidden character shows as (``␛``, ``�``), so that it stands for several names alike
    (``a\x9bb`` and ``a\x9db`` both show as ``a�b``) or for a new name whose symbol is the
    symbol itself, not the character the field showed with it. Either way a file named
    otherwise than the one meant was written, in silence."""
    if _exists(path):
        return ""
    folder = Path(path.anchor)
    for part in path.parts[1:] if path.anchor else path.parts:
        if not _exists(folder / part):
            symbol = _SYMBOLS.search(part)
            if symbol is None:
                return ""
            alike = len(_entries_shown_as(folder, part))
            if alike > 1:
                return (
                    f"{shown(part)} stands for {alike:,} names that show alike (their hidden "
                    "characters differ): rename one of them, or name another file"
                )
            return (
                f"{shown(part)} names nothing, and {symbol.group()} stands for a hidden "
                "character in a name: name the file without it"
            )
        folder = folder / part
    return ""


def complete(text: str) -> tuple[str, list[str]]:
    """Tab on ``text``: the text extended as far as every match agrees, and the names that
    match (folders end with ``/``), all as a path field shows them. Hidden files match only when
    asked for (``.``)."""
    head, _, partial = text.rpartition("/") if "/" in text else ("", "", text)
    folder = typed_path(head + "/") if "/" in text else Path(".")
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError:
        return text, []
    names = []
    for entry in entries:
        name = shown(entry.name)
        if name.startswith(partial) and (partial[:1] == "." or name[:1] != "."):
            try:
                is_folder = entry.is_dir()
            except OSError:
                is_folder = False
            names.append(name + ("/" if is_folder else ""))
    if not names:
        return text, []
    common = os.path.commonprefix(names)
    prefix = head + "/" if "/" in text else ""
    more = ["…"] if len(names) > SHOWN_CANDIDATES else []
    return prefix + common, names[:SHOWN_CANDIDATES] + more
