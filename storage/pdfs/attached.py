"""A paper's attachment (its reference manager's copy of the PDF) as its local copy.

An import of a Zotero, JabRef, Mendeley or EndNote export keeps where each paper's PDF lies
(the ``file`` fact, an absolute path: ``storage.sources.attachments``). ``link_attachments``
makes that file the paper's copy in the folder of copies: a symbolic link named as a download
would be (``Title (id).pdf``), so that ``p`` opens it, the list marks it and ``pdf:`` searches
its text, with nothing downloaded and no second copy on the disk; where the folder takes no
links (a FAT drive), the file is copied. Only a regular file that is a PDF by the rule a
download is held to (``%PDF-`` in its first 1024 bytes: ``storage.pdfs.check``) and is under
the size cap is taken: a path naming a folder, a device, a pipe or an HTML snapshot is passed
over, as is a paper that has its copy already. The reference manager's file is never written,
moved or removed; removing the link leaves it.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from storage.models import Paper
from storage.pdfs.check import is_pdf
from storage.pdfs.folder import PdfFolder, folder_problem, pdf_name

#: An attachment larger than this is not taken, nor a download (``DownloadOptions``).
MAX_BYTES: Final = 100 * 1024 * 1024


def attachment_of(paper: Paper) -> str:
    """The path of the paper's attachment as its list named it ("" for none)."""
    value = paper.fact("file")
    return value if isinstance(value, str) else ""


def usable(path: str, max_bytes: int = MAX_BYTES) -> Path | None:
    """The attachment at ``path`` when it can be the paper's copy (see the module), else None:
    an absolute path to a regular file (links followed) with ``%PDF-`` in its first 1024 bytes."""
    if not path or "\x00" in path or not os.path.isabs(path):
        return None
    try:
        found = os.stat(path)
    except (OSError, ValueError):
        return None
    if not stat.S_ISREG(found.st_mode) or not 0 < found.st_size <= max_bytes:
        return None
    return Path(path) if is_pdf(Path(path)) else None  # a pipe put there since: not waited on


@dataclass(slots=True)
class Linked:
    """What ``link_attachments`` did: the copies made, the attachments passed over."""

    #: The new copies (links, or copies where the folder takes no links).
    done: list[Path] = field(default_factory=list)
    #: ``(paper, path)`` of attachments that are not there, or are no PDF.
    missing: list[tuple[Paper, str]] = field(default_factory=list)
    #: Papers that had their copy already.
    had: int = 0
    #: Why none could be linked: the folder cannot be one (``folder_problem``); "" when it can.
    unusable_folder: str = ""

    def summary(self) -> str:
        """One line: "3 PDFs linked from their attachments, 1 attachment not found"."""
        from storage.text.words import count

        if self.unusable_folder:
            return f"{count(len(self.missing), 'attachment')} not linked: {self.unusable_folder}"
        parts = []
        if self.done:
            parts.append(f"{count(len(self.done), 'PDF')} linked from their attachments")
        if self.missing:
            parts.append(f"{count(len(self.missing), 'attachment')} not found or not a PDF")
        return ", ".join(parts)


def link_attachments(
    papers: Iterable[Paper], folder: PdfFolder, max_bytes: int = MAX_BYTES
) -> Linked:
    """Make each paper's usable attachment its copy in ``folder`` (see the module)."""
    report = Linked()
    copies: dict[str, Path] | None = None
    for paper in papers:
        path = attachment_of(paper)
        if not path:
            continue
        if copies is None:
            report.unusable_folder = folder_problem(folder.path)
            copies = {} if report.unusable_folder else folder.copies()
        if report.unusable_folder:  # a link to nothing, a file: said once, not per paper
            report.missing.append((paper, path))
            continue
        if paper.id in copies and is_pdf(copies[paper.id]):  # not a text file under its name
            report.had += 1
            continue
        made = link_attachment(paper, folder, max_bytes)
        if made is None:
            report.missing.append((paper, path))
        else:
            report.done.append(made)
            copies[paper.id] = made
    return report


def link_attachment(paper: Paper, folder: PdfFolder, max_bytes: int = MAX_BYTES) -> Path | None:
    """The paper's copy made from its attachment (None: it has none usable), for a paper
    without a copy (its callers know it has none)."""
    source = usable(attachment_of(paper), max_bytes)
    return _link(source, paper, folder) if source is not None else None


def _link(source: Path, paper: Paper, folder: PdfFolder) -> Path | None:
    """A link to ``source`` named as the paper's copy, made under a hidden name and renamed
    (a reader of the folder never sees half of it); a copy where links cannot be made."""
    target = folder.path / pdf_name(paper)
    temporary = folder.path / f".{paper.id}.pdf.link"
    try:
        folder.path.mkdir(parents=True, exist_ok=True)
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
        try:
            os.symlink(source, temporary)  # the path checked, as it is (no ``..`` folded)
        except (OSError, NotImplementedError):
            # not a download's part (which a download would resume from): a name of its own,
            # written whole, then renamed
            with open(source, "rb") as given, open(temporary, "xb") as copy:
                shutil.copyfileobj(given, copy)
                copy.flush()
                os.fsync(copy.fileno())
        os.replace(temporary, target)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        return None
    return target
