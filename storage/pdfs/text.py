"""A PDF read to text, page by page, with pypdf.

Chosen by measurement (``python -m benchmarks.pdfs``, 100 paper-like PDFs of 10-30 pages):
pypdf reads a page in ~15 ms and finds every word written; pdfminer.six finds the same words
in ~85 ms a page (over two minutes for the 100 papers); poppler's ``pdftotext`` takes ~3 ms a
page with the same words but is a system program, not a Python package. pypdf is pure Python
(one wheel, no dependencies) and is imported only here, in the process that reads the PDFs.

Words broken across lines by a hyphen are joined (``compu-`` / ``tation`` reads
``computation``), so that a search finds them; pages are separated by a form feed.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Final

#: Pages read of one PDF at most (a 2,000-page thesis is not a paper).
MAX_PAGES: Final = 300
#: Characters kept of one PDF's text at most.
MAX_CHARS: Final = 2_000_000
PAGE_BREAK: Final = "\f"

_HYPHENATED: Final = re.compile(r"(\w)-\n(\w+)")
_SPACES: Final = re.compile(r"[ \t\u00a0]+")


class PdfTextError(Exception):
    """A PDF that could not be read (damaged, encrypted): the cause, one line."""


def read_pdf_text(path: Path) -> tuple[str, int]:
    """The text of the PDF at ``path`` (pages separated by a form feed) and its page count.

    Whatever pypdf raises on a PDF it cannot read (its own errors, and others: a filter it
    does not implement, an obsolete name it refuses) is ``PdfTextError``: one PDF it cannot
    read never stops the others'. Its warnings about damaged files (hundreds for one PDF)
    are not printed: the PDF's entry says whether it was read."""
    import logging

    from pypdf import PdfReader

    logging.getLogger("pypdf").setLevel(logging.ERROR)
    try:
        reader = PdfReader(str(path))
        if reader.is_encrypted:
            try:
                reader.decrypt("")
            except Exception:  # noqa: BLE001 - pypdf raises several kinds for this
                raise PdfTextError("encrypted") from None
        pages = len(reader.pages)
        texts = []
        size = 0
        for page in reader.pages[:MAX_PAGES]:
            text = clean_page(page.extract_text() or "")
            texts.append(text)
            size += len(text)
            if size > MAX_CHARS:
                break
    except PdfTextError:
        raise
    except RecursionError:
        raise PdfTextError("unreadable (nested too deeply)") from None
    except Exception as exc:  # noqa: BLE001 - see above: any of pypdf's, one PDF's failure
        raise PdfTextError(f"unreadable ({type(exc).__name__}: {str(exc)[:120]})") from None
    return PAGE_BREAK.join(texts)[:MAX_CHARS], pages


def clean_page(text: str) -> str:
    """A page's text as kept: one kind of line break, runs of spaces as one, hyphenated
    words joined, no form feed of its own."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace(PAGE_BREAK, "\n")
    text = _HYPHENATED.sub(r"\1\2\n", text)
    return "\n".join(_SPACES.sub(" ", line).strip() for line in text.split("\n"))
