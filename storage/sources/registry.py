"""Every format papers-tui reads, declared once, and the front door that picks one for a file.

To read a new format, write its module beside this one (a ``Reader``: names, suffixes,
``sniff``, ``read``; see ``records.py``) and add it to ``READERS``. Folder imports, the error
for a file no reader takes, and the format lists in help texts all follow from the table.

The reader whose ``sniff`` fits a file best reads it (``Fit``): text that opens as JSON beats
a name that says JSON, which beats a CSV header row or name, which beats the plain-text list
(which takes anything). A tie goes to the reader listed first.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from storage.errors import NotAList, OtherDocument, SourceError
from storage.models import FailedFile, RecordError, file_names
from storage.sources.arxiv_atom import ARXIV_ATOM
from storage.sources.arxiv_email import ARXIV_EMAIL
from storage.sources.bibtex import BIBTEX
from storage.sources.csl_json import CSL_JSON
from storage.sources.csv_lists import CSV_TSV
from storage.sources.dblp_xml import DBLP_XML
from storage.sources.endnote import ENDNOTE
from storage.sources.endnote_xml import ENDNOTE_XML
from storage.sources.ieee_text import IEEE_TEXT
from storage.sources.json_lists import JSON, JSON_LINES, add_json_line, refuse_no_json_lines
from storage.sources.library_files import LIBRARY
from storage.sources.limits import (
    InputStream,
    ListFile,
    ReadLimits,
    not_there,
    read_bounded,
    stream_list_name,
)
from storage.sources.markdown import MARKDOWN
from storage.sources.medline import MEDLINE
from storage.sources.plain_text import PLAIN_TEXT
from storage.sources.records import (
    SNIFF_CHARS,
    Fit,
    Reader,
    ReadResult,
    RecordStream,
    SourceRecord,
    decode,
    not_utf8,
    opening,
)
from storage.sources.ris import RIS
from storage.sources.sciencedirect_text import SCIENCEDIRECT_TEXT
from storage.sources.wos import WEB_OF_SCIENCE
from storage.sources.zotero_rdf import ZOTERO_RDF
from storage.text.words import count

#: The readers, in the order that breaks a tie between equally strong fits: a library's own
#: files and CSL-JSON before other JSON, an arXiv email before other text.
READERS: tuple[Reader, ...] = (
    LIBRARY, CSL_JSON, JSON, JSON_LINES, BIBTEX, RIS, ENDNOTE, ENDNOTE_XML, WEB_OF_SCIENCE,
    MEDLINE, CSV_TSV, ARXIV_ATOM, ARXIV_EMAIL, IEEE_TEXT, SCIENCEDIRECT_TEXT, MARKDOWN,
    PLAIN_TEXT, ZOTERO_RDF, DBLP_XML,
)  # fmt: skip

#: The readers as help texts name them: the native plain-text list first, common formats next.
SHOWN_ORDER: tuple[Reader, ...] = (
    PLAIN_TEXT, JSON, JSON_LINES, CSV_TSV, BIBTEX, RIS, ENDNOTE, ENDNOTE_XML, ZOTERO_RDF,
    DBLP_XML, WEB_OF_SCIENCE, MEDLINE, CSL_JSON, MARKDOWN, ARXIV_ATOM, ARXIV_EMAIL, IEEE_TEXT,
    SCIENCEDIRECT_TEXT, LIBRARY,
)  # fmt: skip

#: The readers of XML documents, which tell one of another kind (``OtherDocument``).
XML_READERS: tuple[Reader, ...] = (ENDNOTE_XML, ZOTERO_RDF, ARXIV_ATOM, DBLP_XML)

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
    tried = ", ".join(r.name for r in readers)
    if reader is None:
        raise SourceError(f"{path}: not a paper list in a format papers-tui reads (tried {tried})")
    try:
        return reader.read(text, path)
    except NotAList as exc:
        raise SourceError(f"{exc} (tried {tried})") from None
    except OtherDocument as exc:  # said alike whichever XML reader the name or sniff chose
        xml = ", ".join(r.label for r in XML_READERS if r in readers)
        said = f"{path}: an XML document whose root is <{exc.root}>, not a paper list in a format"
        raise OtherDocument(f"{said} papers-tui reads (its XML formats: {xml})", exc.root) from None


def read_source(path: Path, limits: ReadLimits | None = None) -> ReadResult:
    """Read one list file, whatever its format: a regular file within the size cap."""
    raw = read_bounded(path, limits or ReadLimits())
    return read_text_content(decode(raw, path), path)


#: A file is first read this far: a file no longer than this is read whole, as ``read_source``
#: reads it; a longer one whose start says JSON Lines is then read line by line.
HEAD_BYTES = 1024**2
_UTF8_BOM = b"\xef\xbb\xbf"


def open_source(
    path: Path | InputStream, limits: ReadLimits | None = None
) -> ReadResult | RecordStream:
    """One list file, whatever its format, as ``read_source`` reads it; a JSON Lines list longer
    than ``HEAD_BYTES`` as a ``RecordStream`` instead, read line by line when its records are.
    An ``InputStream`` (standard input) is read whole (``read_stream``).

    The records, the errors and the failures are those of ``read_source``, in the same order.
    """
    limits = limits or ReadLimits()
    if isinstance(path, InputStream):
        return read_stream(path, limits)
    with ListFile(path, limits) as file:
        head = file.read(HEAD_BYTES)
        if not _reads_by_line(file, head, path):
            return read_text_content(decode(head + file.read_all(), path), path)
        version = file.version
    errors: list[RecordError] = []
    return RecordStream(
        source=str(path),
        list_name=path.stem,
        records=_json_lines(path, limits, version, errors),
        errors=errors,
        expected=lambda: _line_count(path, limits),
        size=version[1],
    )


def read_stream(given: InputStream, limits: ReadLimits | None = None) -> ReadResult:
    """A list given on a descriptor (``papers import -``), whatever its format, found from
    its content as a file's is (its name says none); read once, whole, up to the size cap, as
    a pipe is. Named ``given.name`` in messages; when its content names no list, its list is
    ``given.list_name``, or ``given.name`` and letters its content gives (``stream_list_name``)."""
    path = Path(given.name)
    with ListFile(path, limits or ReadLimits(), given) as file:
        raw = file.read_all()
    text = decode(raw, path) if raw.strip() else ""
    if not text.strip():  # (nothing, or a byte order mark and blank lines)
        raise SourceError(f"{given.name} is empty: nothing to import")
    result = read_text_content(text, path)
    if result.list_name == path.stem:  # the content names no list: one of its own, or the
        # next list piped in, named the same, would be this one (its papers joined to it)
        result.list_name = given.list_name or stream_list_name(given.name, raw)
    return result


def _reads_by_line(file: ListFile, head: bytes, path: Path) -> bool:
    """Whether the file whose first bytes are ``head`` is a JSON Lines list longer than them,
    of UTF-8 lines: the whole text would go to the same reader (sniffs look at its start)."""
    if not file.regular or len(head) < HEAD_BYTES or b"\x00" in head[:65536]:
        return False  # read whole: short, a pipe, or to be refused as read_source refuses it
    try:
        text = head[: head.rfind(b"\n") + 1].decode("utf-8-sig")
    except UnicodeDecodeError:
        return False
    if len(text.lstrip()) < SNIFF_CHARS or opening(text) != "{":
        return False
    return reader_for(text, path) is JSON_LINES


def _json_lines(
    path: Path, limits: ReadLimits, version: tuple[int, int, int], errors: list[RecordError]
) -> Iterator[SourceRecord]:
    """The records of a JSON Lines list, line by line, as ``JSON_LINES.read`` reads the text."""
    result = ReadResult(source=str(path), list_name=path.stem)  # one record at a time
    number = found = 0
    at = 0  # where the line starts in the text (a BOM is not text)
    with ListFile(path, limits) as file:
        if file.version != version:
            raise SourceError(f"{path}: changed while it was being imported; import it again")
        for raw in _first_without_bom(file.lines()):
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise not_utf8(path, at + exc.start) from None
            at += len(raw) + 1
            for line in text.splitlines():  # the line ends of ``str.splitlines``, as the reader
                if not line.strip():
                    continue
                number += 1
                add_json_line(result, number, line)
                errors.extend(result.errors)
                result.errors.clear()
                if result.records:
                    found += 1
                    yield result.records.pop()
    refuse_no_json_lines(path, found, errors)


def _first_without_bom(lines: Iterator[bytes]) -> Iterator[bytes]:
    """``lines``, the first without the UTF-8 byte order mark it may open with."""
    for first in lines:
        yield first.removeprefix(_UTF8_BOM)
        break
    yield from lines


def _line_count(path: Path, limits: ReadLimits) -> int:
    """How many lines of ``path`` hold something: as many as the records and errors, nearly."""
    with ListFile(path, limits) as file:
        return sum(1 for line in file.lines() if line.strip())


@dataclass(slots=True)
class OpenedFiles:
    """The list files of an import, opened (``open_files``): those read, those of a folder
    that could not be read and why, and those of a folder passed over as documents of other
    kinds (XML no reader takes)."""

    results: list[ReadResult | RecordStream]
    failed: list[FailedFile]
    passed: list[str]


#: What an import is given: a path (a file, a folder), or a list on a descriptor.
Given = Path | InputStream


def import_files_of(paths: Iterable[Given]) -> list[tuple[Given, bool]]:
    """The list files ``paths`` name (``list_files``), each with whether a folder gave it; an
    ``InputStream`` as it is."""
    found: list[tuple[Given, bool]] = []
    for given in paths:
        if isinstance(given, InputStream):
            found.append((given, False))
        else:
            found += [(file, given.is_dir()) for file in list_files(given)]
    return found


def open_files(files: Sequence[tuple[Given, bool]], limits: ReadLimits | None) -> OpenedFiles:
    """Each file opened (``open_source``), with whether a folder gave it: a file named that
    cannot be read raises ``SourceError``; one of a folder is named in ``failed`` and the
    others are read, or, when it is a document of another kind, in ``passed``. Nothing read
    at all raises ``SourceError`` saying why."""
    opened = OpenedFiles([], [], [])
    for file, in_folder in files:
        try:
            opened.results.append(open_source(file, limits))
        except OtherDocument:
            if not in_folder:
                raise
            opened.passed.append(str(file))
        except SourceError as exc:
            if not in_folder:
                raise
            opened.failed.append(FailedFile(str(file), str(exc)))
    if not opened.results:
        raise SourceError(_nothing_read(opened.failed, opened.passed))
    return opened


def _nothing_read(failed: Sequence[FailedFile], passed: Sequence[str]) -> str:
    """Why an import of folders imported nothing: their files could not be read, or were of
    other kinds."""
    other = f"{count(len(passed), 'XML file')} of other kinds ({file_names(passed)})"
    if not failed:
        return f"no paper list to import: {other}"
    said = (
        str(failed[0])
        if len(failed) == 1
        else f"no file could be read ({len(failed)} tried): {failed[0]}"
    )
    return f"{said}; {other} passed over" if passed else said


def list_files(path: Path) -> list[Path]:
    """The list files a path names: the file itself, or a folder's list files (recursively).

    A folder gives its regular files with a list suffix, not hidden, not behind a symlinked
    folder (no loops); what the path itself is, ``read_source`` checks.
    """
    if not path.exists():
        raise SourceError(f"{path}: {not_there(path)}")
    if path.is_dir():
        # not only regular files: a FIFO or a dangling link named as a list is said, not
        # passed over in silence (``read_source`` refuses it in words)
        files = sorted(
            p
            for p in path.rglob("*")
            if not p.is_dir()
            and p.suffix.lower() in LIST_SUFFIXES
            and not any(part.startswith(".") for part in p.relative_to(path).parts)
        )
        files = [p for p in files if not _library_own(p, path)]
        if not files:
            suffixes = ", ".join(sorted(LIST_SUFFIXES))
            raise SourceError(f"{path}: the folder holds no list files ({suffixes})")
        return files
    return [path]


def _library_own(file: Path, top: Path) -> bool:
    """Whether ``file`` of a folder is one of a papers-tui library's own files beside its
    ``papers.json``, which is what is imported of it: its triage.json comes with it (whatever
    state it is in), and its settings, saved searches, PDFs' failures and sync state hold no
    papers (they were each "a file not read", the import of a used library exiting 1)."""
    from storage.files.saved_searches import SEARCHES_FILE
    from storage.files.triage_file import TRIAGE_FILE
    from storage.files.ui_state import UI_FILE
    from storage.pdfs.failures import FAILURES_FILE
    from storage.sync.device import SYNC_DIR

    folder = file.parent
    if folder.name == SYNC_DIR and folder != top:
        folder = folder.parent
    elif file.name not in (TRIAGE_FILE, UI_FILE, SEARCHES_FILE, FAILURES_FILE):
        return False
    return (folder / "papers.json").is_file()
