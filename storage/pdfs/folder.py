"""The folder of local PDF copies: their names, which papers have one, leftovers swept.

A copy is named ``Title (id).pdf``: the title for people browsing the folder, the id for
this program, which knows a paper's copy by the ``(id).pdf`` its name ends with (a title
changed since, or renamed by hand before the id, still names the same paper). A file so named
is a copy only when it is a PDF (``%PDF-`` in its head, ``storage.pdfs.check``): a login page
an older version saved, or a file put there by hand, is no copy (``PdfFolder.not_pdfs`` names
it, for the user to be told; the next download replaces it). Every character
a file system may refuse (``/ \\ : * ? " < > |``, controls, a trailing dot or space) or that
would mislead a terminal (bidirectional controls) is replaced, and the title cut to
``TITLE_BYTES`` bytes of UTF-8 (file systems allow 255 a name).

A download in progress is ``.ID.pdf.part`` in the folder: never a file with the final name
until it is whole and checked (``storage.pdfs.download``). A part left by a download that
stopped is where the next one resumes; one older than ``PART_KEPT_S``, or of a paper that
has its copy, is swept.
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
import time
import unicodedata
from pathlib import Path
from typing import Final

from storage.models import Paper
from storage.pdfs.check import HEADER_WITHIN, has_pdf_header

#: The folder of copies inside HOME unless ``[pdf] folder`` names another.
PDF_DIR: Final = "pdfs"
#: The most bytes of a title kept in a file name (with the id and ``.pdf``: under 160).
TITLE_BYTES: Final = 120
#: A partial download this old is given up on.
PART_KEPT_S: Final = 7 * 24 * 3600
PART_SUFFIX: Final = ".pdf.part"

_REFUSED: Final = re.compile(r'[/\\:*?"<>|\x00-\x1f\x7f-\x9f]')
_COPY: Final = re.compile(r"\((?P<id>[0-9a-f]{4,32})\)\.pdf$")
#: How long after a change a folder's scan is not kept (``PdfFolder.copies``): past any clock tick.
_SETTLED_NS: Final = 3_000_000_000
_PART: Final = re.compile(r"^\.(?P<id>[0-9a-f]{4,32})\.pdf\.part(?:\.json)?$")


def safe_title(title: str) -> str:
    """A title as a file name may hold it (see the module)."""
    text = unicodedata.normalize("NFC", title)
    text = "".join(
        "_" if unicodedata.category(ch) in ("Cf", "Zl", "Zp", "Co", "Cs") else ch for ch in text
    )
    text = " ".join(_REFUSED.sub("_", text).split())
    cut = text.encode("utf-8")[:TITLE_BYTES].decode("utf-8", "ignore")
    if len(cut) < len(text):
        cut = cut.rstrip() + "…"
    return cut.strip(" .") or "paper"


def pdf_name(paper: Paper) -> str:
    """The file name of a paper's local copy: ``Title (id).pdf``."""
    return f"{safe_title(paper.display_title)} ({paper.id}).pdf"


def part_name(paper_id: str) -> str:
    """The file name of a paper's download in progress."""
    return f".{paper_id}{PART_SUFFIX}"


class PdfFolder:
    """The folder of local copies; what it holds is read again only when it changed."""

    def __init__(self, path: Path) -> None:
        self.path = path
        #: The folder's stamp when scanned, its copies, the files named as copies but no PDF.
        self._seen: tuple[int, dict[str, Path], dict[str, Path]] | None = None
        #: The files (name, inode) found to be PDFs: a scan after a change reads the heads of
        #: the files new since alone (a folder of 3,000 copies is not opened 3,000 times); a
        #: file that was none is read again (a copy made by hand may have been empty then).
        self._pdfs: set[tuple[str, int]] = set()

    def copies(self) -> dict[str, Path]:
        """Paper id → its local copy (a regular file, or a link to one, that is a PDF)."""
        return self.scan()[0]

    def not_pdfs(self) -> dict[str, Path]:
        """Paper id → a file named as its copy that is no PDF (a page saved under the name),
        when it has no copy that is one."""
        return self.scan()[1]

    def changed(self) -> bool:
        """Whether ``scan`` would read the folder again (one stat): it changed since it was
        last read (or a moment before: see ``scan``), or was not read yet, or went."""
        seen = self._seen
        try:
            stamp = self.path.stat().st_mtime_ns
        except OSError:
            return seen is not None
        return seen is None or seen[0] != stamp

    def scan(self) -> tuple[dict[str, Path], dict[str, Path]]:
        """``copies`` and ``not_pdfs`` of one reading of the folder."""
        try:
            stamp = self.path.stat().st_mtime_ns
        except OSError:
            self._seen = None
            return {}, {}
        if self._seen is not None and self._seen[0] == stamp:
            return self._seen[1], self._seen[2]
        found: dict[str, Path] = {}
        pages: dict[str, Path] = {}
        pdfs: set[tuple[str, int]] = set()
        for entry in self.listing():
            match = _COPY.search(entry.name)
            if match and not entry.name.startswith(".") and _is_file(entry):
                key = (entry.name, _inode(entry))
                if key in self._pdfs or _is_pdf(entry.path):
                    pdfs.add(key)
                    found.setdefault(match["id"], Path(entry.path))
                else:
                    pages.setdefault(match["id"], Path(entry.path))
        pages = {pid: path for pid, path in pages.items() if pid not in found}
        self._pdfs = pdfs
        # A folder changed a moment ago may change again within its clock's tick (a kernel's
        # coarse clock, FAT's 2 s): its time would not move, and a copy renamed into it just
        # after this scan would go unseen until the next change. Such a scan is not kept (its
        # stamp none a folder has: ``changed`` says so until one is). A time further ahead
        # of this clock than that (a share whose server's clock runs ahead) says nothing of
        # when it changed: never "a moment ago" by this clock, it was listed in full every
        # second for as long as the lead lasted (an hour ahead: an hour). Its scan is kept,
        # read again when the time moves, as a past one's.
        settled = abs(time.time_ns() - stamp) > _SETTLED_NS
        self._seen = (stamp if settled else -1, found, pages)
        return found, pages

    def listing(self) -> list[os.DirEntry[str]]:
        """The folder's entries, read once: the one listing of a scan, the costly part of it
        (thousands of copies; a slow disk, a share), which the app makes off its screen's
        thread (``tui.pdfs``); none when the folder cannot be read."""
        listed: list[os.DirEntry[str]] = []
        with contextlib.suppress(OSError), os.scandir(self.path) as entries:
            for entry in entries:  # (those read before an error, as a scan kept them)
                listed.append(entry)
        return listed

    def copy_of(self, paper_id: str) -> Path | None:
        """The paper's local copy, if there is one."""
        return self.copies().get(paper_id)

    def part_of(self, paper_id: str) -> Path:
        """Where the paper's download in progress is (or would be); beside it, ``….json``
        says which version of the file it is the start of (``storage.pdfs.download``)."""
        return self.path / part_name(paper_id)

    def sweep(self, now: float | None = None) -> int:
        """Remove partial downloads given up on (see the module), and what says which version
        each is of; returns how many files went."""
        now = time.time() if now is None else now
        copies = self.copies()
        gone = 0
        with contextlib.suppress(OSError), os.scandir(self.path) as entries:
            for entry in entries:
                match = _PART.match(entry.name)
                if not match or entry.is_symlink():
                    continue
                with contextlib.suppress(OSError):
                    old = now - entry.stat().st_mtime > PART_KEPT_S
                    if old or match["id"] in copies:
                        os.unlink(entry.path)
                        gone += 1
        return gone


def folder_problem(path: Path) -> str:
    """Why ``path`` cannot be the folder of copies, in one line ("" when it is a folder, or
    can be made): a file, or a symbolic link (it or a folder above it) to nothing, which
    ``mkdir`` can only call "File exists"."""
    from storage.locations import is_library_folder

    if is_library_folder(path):
        return f"{path}: a papers-tui library folder; PDFs go to a folder of their own"
    for place in (path, *path.parents):
        if place.exists():
            return "" if place != path or place.is_dir() else f"{path}: not a folder"
        if place.is_symlink():
            with contextlib.suppress(OSError):
                target = os.readlink(place)
                return f"{place}: a symbolic link to {target}, which does not exist"
    return ""


#: How a copy's head is read: never waiting on a pipe put there since it was listed.
_READ: Final = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)


def _is_pdf(path: str) -> bool:
    """``storage.pdfs.check.is_pdf`` of a file just listed as a regular file (or a link to
    one), in the fewest system calls: a folder of 3,000 copies is read at the app's start."""
    try:
        fd = os.open(path, _READ)
    except BlockingIOError:  # a file under a lease on a network share: wait as open does
        return has_pdf_header(_read_head(path))
    except OSError:
        return False
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):  # (a pipe put there since: not read)
            return False
        return has_pdf_header(os.read(fd, HEADER_WITHIN))
    except OSError:
        return False
    finally:
        os.close(fd)


def _read_head(path: str) -> bytes:
    from storage.pdfs.check import read_head

    return read_head(Path(path)) or b""


def _inode(entry: os.DirEntry[str]) -> int:
    try:
        return entry.inode()
    except OSError:
        return -1


def _is_file(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_file()
    except OSError:
        return False
