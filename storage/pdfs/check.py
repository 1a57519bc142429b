"""What makes a file a PDF here: one rule for downloads and for reference managers' attachments.

A PDF has ``%PDF-`` within its first ``HEADER_WITHIN`` bytes: the PDF Reference's
implementation notes (Appendix H) let readers accept the header anywhere there, and real
servers send a byte-order mark, white space or a stray line before it; pypdf reads such files.
An HTML login or error page has no ``%PDF-`` in its head. A download is whole when, besides
all the bytes its server announced, it has ``%%EOF`` within its last ``EOF_WITHIN`` bytes.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import IO, Final

from storage.files.atomic import open_regular

#: What a PDF's header starts with.
PDF_MAGIC: Final = b"%PDF-"
#: ``%PDF-`` must be within this many bytes of a file's start (the PDF Reference's 1024).
HEADER_WITHIN: Final = 1024
#: ``%%EOF`` must be within this many bytes of a downloaded PDF's end. Real files carry NUL
#: padding to a disk block, spaces or a few KB of garbage after it (2 KB refused them);
#: 64 KB, a download's read, holds any such padding seen and costs one read per file. A
#: longer tail is not a PDF's end. A file cut short is still refused by its missing bytes
#: (the ``Content-Length`` announced) and, without one, by a tail with no ``%%EOF``.
EOF_WITHIN: Final = 64 * 1024


def has_pdf_header(head: bytes) -> bool:
    """True when ``%PDF-`` is within the first ``HEADER_WITHIN`` bytes of ``head`` (a file's
    start: at least that many bytes of it, or all of a shorter file)."""
    return PDF_MAGIC in head[:HEADER_WITHIN]


def read_head(path: Path) -> bytes | None:
    """The first ``HEADER_WITHIN`` bytes of the regular file at ``path`` (a symbolic link
    followed: a copy made from an attachment is one; ``open_regular``: a pipe is never waited
    on); None for anything else (a pipe, a folder, nothing there)."""
    try:
        with open_regular(path) as handle:
            return handle.read(HEADER_WITHIN)
    except (OSError, ValueError):
        return None


def is_pdf(path: Path) -> bool:
    """True when ``path`` is a regular file (or a link to one) with ``%PDF-`` in its head: a
    copy of a paper's that is one, not a text file or a page under a PDF's name."""
    head = read_head(path)
    return head is not None and has_pdf_header(head)


def pdf_problem(handle: IO[bytes]) -> str:
    """What is wrong with the downloaded file open as ``handle`` as a whole PDF ("" for
    nothing)."""
    try:
        handle.flush()
        handle.seek(0)
        head = handle.read(HEADER_WITHIN)
        size = handle.seek(0, os.SEEK_END)
        handle.seek(max(0, size - EOF_WITHIN))
        tail = handle.read()
    except OSError as exc:
        return f"cannot read it back ({exc.strerror or exc})"
    if not has_pdf_header(head):
        return f"not a PDF (no %PDF- in its first {HEADER_WITHIN:,} bytes)"
    if b"%%EOF" not in tail:
        return f"damaged or cut short (no %%EOF in its last {EOF_WITHIN // 1024} KB)"
    return ""
