"""Every format papers-tui reads, declared once, and the front door that picks one for a file.

To read a new format, write its module beside this one (a ``Reader``: names, suffixes,
``sniff``, ``read``; see ``records.py``) and add it to ``READERS``. Folder imports, the error
for a file no reader takes, and the format lists in help texts all follow from the table.

The reader whose ``sniff`` fits a file best reads it (``Fit``): text that opens as JSON beats
a name that says JSON, which beats a CSV header row or name, which beats the plain-text list
(which takes anything). A tie goes to the reader listed first.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from storage.errors import SourceError
from storage.sources.arxiv_email import ARXIV_EMAIL
from storage.sources.bibtex import BIBTEX
from storage.sources.csl_json import CSL_JSON
from storage.sources.csv_lists import CSV_TSV
from storage.sources.json_lists import JSON, JSON_LINES
from storage.sources.library_files import LIBRARY
from storage.sources.limits import ReadLimits, read_bounded
from storage.sources.plain_text import PLAIN_TEXT
from storage.sources.records import Fit, Reader, ReadResult, decode
from storage.sources.ris import RIS

#: The readers, in the order that breaks a tie between equally strong fits: a library's own
#: files and CSL-JSON before other JSON, an arXiv email before other text.
READERS: tuple[Reader, ...] = (
    LIBRARY, CSL_JSON, JSON, JSON_LINES, BIBTEX, RIS, CSV_TSV, ARXIV_EMAIL, PLAIN_TEXT,
)  # fmt: skip

#: The readers as help texts name them: the native plain-text list first, common formats next.
SHOWN_ORDER: tuple[Reader, ...] = (
    PLAIN_TEXT, JSON, JSON_LINES, CSV_TSV, BIBTEX, RIS, CSL_JSON, ARXIV_EMAIL, LIBRARY,
)  # fmt: skip

#: The suffixes of the files a folder import picks up.
LIST_SUFFIXES = frozenset(suffix for reader in READERS for suffix in reader.suffixes)


def readable_formats(*, folder: bool = False) -> str:
    """The formats for people, as help texts name them: ``text, JSON, JSONL, CSV, …``.

    With ``folder``, ``… or a folder`` (of such files).
    """
    labels = [r.label for r in SHOWN_ORDER]
    return ", ".join(labels) + (" or a folder" if folder else "")


def reader_for(text: str, path: Path, readers: Sequence[Reader] = READERS) -> Reader | None:
    """The reader whose format ``text`` (named ``path``) fits best; None when none fits."""
    best: Reader | None = None
    best_fit = Fit.NO
    for reader in readers:
        fit = reader.sniff(text, path)
        if fit > best_fit:
            best, best_fit = reader, fit
    return best


def read_text_content(text: str, path: Path, readers: Sequence[Reader] = READERS) -> ReadResult:
    """Read decoded ``text`` with the reader it fits best (content first, the name second)."""
    reader = reader_for(text, path, readers)
    if reader is None:
        tried = ", ".join(r.name for r in readers)
        raise SourceError(f"{path}: not a paper list in a format papers-tui reads (tried {tried})")
    return reader.read(text, path)


def read_source(path: Path, limits: ReadLimits | None = None) -> ReadResult:
    """Read one list file, whatever its format: a regular file within the size cap."""
    raw = read_bounded(path, limits or ReadLimits())
    return read_text_content(decode(raw, path), path)


def list_files(path: Path) -> list[Path]:
    """The list files a path names: the file itself, or a folder's list files (recursively).

    A folder gives its regular files with a list suffix, not hidden, not behind a symlinked
    folder (no loops); what the path itself is, ``read_source`` checks.
    """
    if not path.exists():
        raise SourceError(f"{path}: no such file or folder")
    if path.is_dir():
        files = sorted(
            p
            for p in path.rglob("*")
            if p.is_file()
            and p.suffix.lower() in LIST_SUFFIXES
            and not any(part.startswith(".") for part in p.relative_to(path).parts)
        )
        if not files:
            suffixes = ", ".join(sorted(LIST_SUFFIXES))
            raise SourceError(f"{path}: the folder holds no list files ({suffixes})")
        return files
    return [path]
