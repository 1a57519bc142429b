"""A record's local PDF: the attachment a reference manager's export names, as a path.

Reference managers export where their copy of a paper's PDF lies, each in its own way:

- Zotero's BibTeX, JabRef: ``file = {Full Text PDF:/home/me/Zotero/storage/AB12/x.pdf:
  application/pdf;Snapshot:/…/page.html:text/html}`` (``description:path:type``, items
  separated by ``;``, ``:`` and ``;`` inside a path escaped by a backslash; JabRef's paths are
  relative to the ``.bib``'s folder);
- Better BibTeX: ``file = {/home/me/Zotero/storage/AB12/x.pdf}`` (bare paths, ``;`` between);
- Mendeley: ``file = {:home/me/Documents/Mendeley Desktop/x.pdf:pdf}`` (the leading ``/`` of
  the path dropped, ``$\\backslash$`` for a Windows backslash);
- Zotero's CSV: a ``File Attachments`` column, paths separated by ``; ``;
- RIS (``L1``) and EndNote's tagged format (``%>``): a ``file://`` address or a path, where
  the same tag can also hold a web address (that stays the PDF's link, ``pdf``).

A web address among a file field's items (JabRef's link to a PDF online) is no attachment:
``web_pdf`` gives it, the PDF's link. ``attachment`` picks the first PDF among the items (by
its type, else a path ending in ``.pdf``) and makes it absolute: ``~`` expanded, a relative
path read against the folder of the file that names it. Nothing here touches the file:
whether it is there and is a PDF is asked when it is linked (``storage.pdfs.attached``), as
it may appear, move or go later.
"""

from __future__ import annotations

import re
from pathlib import Path, PureWindowsPath
from typing import Final
from urllib.parse import unquote, urlsplit

#: Field names (lower case, as readers give them) that name local attachments.
FILE_FIELDS: Final = ("file", "files", "file_attachments", "attachments", "attachment")
#: The longest path kept (as any text fact of a paper: ``storage.sources.fields``).
MAX_PATH_CHARS: Final = 1000

_ITEM_SPLIT: Final = re.compile(r"(?<!\\);")
_PART_SPLIT: Final = re.compile(r"(?<!\\):")
#: What the last part of a ``description:path:type`` item can say: a file type or MIME type.
_TYPE: Final = re.compile(r"^(?:[A-Za-z0-9.+-]{0,20}|[a-z]+/[A-Za-z0-9.+-]{1,60})$")
_SCHEME: Final = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")
_WINDOWS_DRIVE: Final = re.compile(r"^[A-Za-z]:[\\/]")
#: Where a path from the root starts (Linux, macOS): Mendeley's paths without their ``/``.
_ROOT_FOLDERS: Final = frozenset(
    {"home", "Users", "media", "mnt", "Volumes", "tmp", "opt", "srv", "run", "data", "root"}
)


def _unescaped(text: str) -> str:
    """A path as BibTeX's file field escapes it, read: ``\\:`` ``\\;`` ``\\\\`` and Mendeley's
    ``$\\backslash$``."""
    text = text.replace("$\\backslash$", "\\").replace("{\\textbackslash}", "\\")
    return re.sub(r"\\([\\:;])", r"\1", text)


def _items(value: str, *, web: bool = False) -> list[tuple[str, str]]:
    """The ``(path, type)`` of each item of a file field ("" for a type not given); with
    ``web``, the ``(address, type)`` of each item that is a web address instead."""
    found: list[tuple[str, str]] = []
    for raw in _ITEM_SPLIT.split(value):
        item = raw.strip()
        if not item:
            continue
        parts = _PART_SPLIT.split(item)
        if len(parts) >= 3 and _TYPE.match(parts[-1].strip()):  # JabRef's ``File:/x.pdf:PDF``
            path, kind = _unescaped(":".join(parts[1:-1]).strip()), parts[-1].strip().lower()
        else:
            path, kind = _unescaped(item), ""
        online = path[:8].lower().startswith(("http://", "https://"))
        if web:
            if online:
                found.append((path, kind))
            continue
        if path.lower().startswith("file:"):
            path = file_url_path(path)
        elif _SCHEME.match(path):
            continue  # a web address (JabRef's online link), EndNote's ``internal-pdf://``
        if path:
            found.append((path, kind))
    return found


def web_pdf(value: object) -> str:
    """The address of the first PDF a file field links on the web ("" for none): JabRef's
    online link, ``:http\\://arxiv.org/pdf/1312.6114v10:PDF``, which names no file here."""
    if not isinstance(value, str):
        return ""
    for link, kind in _items(value[: 16 * MAX_PATH_CHARS], web=True):
        if _is_pdf(link, kind) or "/pdf/" in link.lower():
            return link
    return ""


def file_field(path: str) -> str:
    """A file field naming the PDF at ``path``, as Zotero's BibTeX writes one
    (``PDF:/x/a\\:b.pdf:application/pdf``): what ``attachment`` reads back as ``path``."""
    escaped = path.replace("\\", "\\\\").replace(":", "\\:").replace(";", "\\;")
    return f"PDF:{escaped}:application/pdf"


def file_url_path(url: str) -> str:
    """The path a ``file:`` address names ("" for none it can name): ``file:///C:/x.pdf`` is
    ``C:/x.pdf``, ``file://server/share/x.pdf`` the share ``//server/share/x.pdf``."""
    try:
        parts = urlsplit(url)
    except ValueError:  # ``file://[x/…``: no address
        return ""
    path = unquote(parts.path)
    if parts.netloc and parts.netloc.lower() != "localhost":
        return f"//{parts.netloc}{path}"
    if re.match(r"^/[A-Za-z]:[\\/]", path):
        return path[1:]
    return path


def _is_pdf(path: str, kind: str) -> bool:
    return "pdf" in kind or path.lower().endswith(".pdf")


def is_local(value: str) -> bool:
    """Whether a link tag's value (RIS's ``L1``) names a local file rather than a web
    address: a ``file:`` address, or an absolute path."""
    text = value.strip()
    if not text or "\n" in text:
        return False
    if text[:5].lower() == "file:":
        return True
    if _SCHEME.match(text):
        return False  # http, https, and EndNote's ``internal-pdf://`` (its own folder)
    return text.startswith(("/", "~")) or _WINDOWS_DRIVE.match(text) is not None


def looks_like_pdf(link: str) -> bool:
    """Whether a path or ``file:`` address names a PDF by its name (``….pdf``)."""
    return link.strip().lower().split("?")[0].endswith(".pdf")


def attachment(value: object, base: Path | None) -> str:
    """The absolute path of the first PDF a file field names ("" for none): relative paths
    read against ``base`` (the folder of the file that names it; None: not known, and a
    relative path is no attachment)."""
    if not isinstance(value, str) or not value.strip():
        return ""
    whole = value.strip()
    if whole.lower().endswith(".pdf") and len(whole) <= MAX_PATH_CHARS:
        # one path that holds a ``;`` or ``:`` (our own exports write the path as it is)
        path = resolved(whole, base)
        try:
            if path and (";" in whole or ":" in whole) and Path(path).is_file():
                return path
        except (OSError, ValueError):
            pass
    for path, kind in _items(value[: 16 * MAX_PATH_CHARS]):
        if path and _is_pdf(path, kind):
            return resolved(path, base)
    return ""


def resolved(path: str, base: Path | None) -> str:
    """``path`` made absolute ("" when it cannot be: relative with no ``base``, a NUL, too
    long). A Windows path (``C:\\…``) is kept as it is, for a Windows machine to read."""
    if "\x00" in path or len(path) > MAX_PATH_CHARS or not path.strip():
        return ""
    if _WINDOWS_DRIVE.match(path) or PureWindowsPath(path).drive:
        return path
    try:
        given = Path(path).expanduser()
    except RuntimeError:  # ``~nobody``: no such user
        return ""
    if given.is_absolute():
        return str(given)
    if base is None:
        return ""
    near = base / given
    root = Path("/") / given
    try:
        # Mendeley drops the path's leading ``/``: a path not beside the file that is there
        # from the root, or starts where absolute paths do (``home/me/…``), is from the root
        first = given.parts[0] if given.parts else ""
        if not near.exists() and (first in _ROOT_FOLDERS or root.is_file()):
            return str(root)
    except (OSError, ValueError):
        pass
    return str(near)
