"""The app's PDFs: which papers have a local copy, what the pane says of a paper's PDF, the
text searched with ``pdf:``, downloads and text reading off the screen's thread.

The copies are known from one scan of the folder (``storage.pdfs.folder``), made again when
the folder changes, each in a thread worker (``MainScreen.scan_pdfs``: the first, at start,
took 47 ms of the screen's thread for 3,000 copies, before its first frame; each after it,
while ``papers pdf`` filled the folder in another terminal, a listing of the whole folder
once a second, stalling the keys), one at a time, its result taken on the screen's thread
(``take``); until the first, no paper has one (``scanned``); ``p`` or ``P`` pressed while one
runs is done once it is taken, the screen kept up (``MainBase.after_pdf_scan``). So is
``pdf-failures.json`` read (``read_failures`` in a worker, ``take_failures`` here: at start,
when it changed, after ``P``'s downloads; ``P`` reads it, and the attachments of the papers
it would pass over, in its own worker): HOME and the folder may be on a slow or hung disk,
and a key waited for each read. The poll's stats of the folder, of that file and of the
texts' are made in a worker too (``look``, one at a time; ``MainScreen._look_at_disk``). The texts
(``storage.cache.pdf_text``) are read by a child process (see ``extract_elsewhere``) in a
thread worker, then loaded here for the search's worker to read.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Collection
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from storage.cache.pdf_text import TEXT_FILE, PdfMatch, PdfTexts
from storage.models import Paper, Status
from storage.pdfs.attached import attachment_of
from storage.pdfs.folder import PdfFolder
from storage.pdfs.links import pdf_url
from storage.search.query import parse_query
from storage.text.words import count

if TYPE_CHECKING:
    from storage.pdfs.download import Event
    from storage.pdfs.failures import Failure, PdfFailures

#: The most cells of a failure's cause (a server's reason phrase, which it chooses) and of
#: its server's name the pane shows: its PDF row stays one line of a pane.
CAUSE_CELLS = 48
HOST_CELLS = 30


class FailuresRead(NamedTuple):
    """``pdf-failures.json`` as one read found it (``AppPdfs.read_failures``)."""

    failures: PdfFailures
    #: The file's stamp, taken before the read (a write meanwhile is seen as a change).
    stamp: tuple[int, int, int] | None
    #: When the read began, among the reads of this app (a later one sees a newer file).
    order: int


class DiskLook(NamedTuple):
    """What changed on disk since it was last read (``AppPdfs.look``)."""

    #: The folder of copies (a scan reads it again).
    folder: bool
    #: ``pdf-failures.json``.
    failures: bool
    #: ``pdf-text.cache``.
    texts: bool


class AppPdfs:
    """The local copies and their text, as the screen shows and searches them."""

    def __init__(self, home: Path, folder: Path) -> None:
        self.home = home
        self.folder = PdfFolder(folder)
        self._copies: dict[str, Path] = {}
        #: The files named as copies that are no PDF, as last scanned.
        self._not_pdfs: dict[str, Path] = {}
        #: The links that failed for good (``pdf-failures.json``) and the stamp read.
        self._failures: PdfFailures | None = None
        self._failures_stamp: tuple[int, int, int] | None = None
        #: The reads of it begun (``read_failures``), and the order of the one taken.
        self._failures_reads = itertools.count(1)
        self._failures_order = 0
        self._texts: PdfTexts | None = None
        #: The stamp of ``pdf-text.cache`` the texts were loaded from (``texts_changed``).
        self._texts_stamp: tuple[int, int, int] | None = None
        self._lock = threading.Lock()
        #: Held by a scan (one at a time: the folder's memo of the PDFs it has seen).
        self._scan_lock = threading.Lock()
        #: Set once the folder was scanned (the first scan, off the screen's thread).
        self.scanned = False
        #: Set while a scan runs (``MainScreen.scan_pdfs``), and when another was asked for
        #: meanwhile (it follows); how many were started (``MainBase.after_pdf_scan`` waits
        #: for one started after a given one). The screen's thread alone reads and sets them.
        self.scanning = False
        self.scan_again = False
        self.scans_started = 0
        #: Set while ``pdf-failures.json`` is read (``MainScreen.read_pdf_failures``).
        self.reading_failures = False
        #: Set while a download or a reading of texts runs (one at a time).
        self.busy = False
        #: ``P``'s runs begun (``busy`` is the latest's), and whether its downloads began:
        #: before, it reads the disk (``pdf-failures.json``, attachments), which a hung share
        #: holds, and ``P`` again lets it go at once (``MainScreen.action_download_pdfs``).
        self.runs = 0
        self.downloading = False

    # -- copies ---------------------------------------------------------------------------
    def read_folder(self) -> tuple[dict[str, Path], dict[str, Path]]:
        """The copies and the files named as copies that are no PDF, read from the folder
        (off the screen's thread: a listing of it when it changed; ``take`` them on it)."""
        with self._scan_lock:
            return self.folder.scan()

    def take(self, found: tuple[dict[str, Path], dict[str, Path]] | None) -> bool:
        """Know what ``read_folder`` read (None: it failed, and the copies known stay), on
        the screen's thread; True when the copies, or the files that are no PDF, changed."""
        self.scanned = True  # (a scan that failed: p and P held for it go on, too)
        if found is None:
            return False
        before = (self._copies, self._not_pdfs)
        self._copies, self._not_pdfs = found
        return found != before

    def look(self) -> DiskLook:
        """What changed since it was read: the folder, ``pdf-failures.json``, the texts
        (three stats, off the screen's thread: a stat on a hung share waits, and the poll's,
        once a second on the screen's thread, froze every key until the share answered)."""
        return DiskLook(self.folder.changed(), self.failures_stale(), self.texts_changed())

    @property
    def not_pdfs_known(self) -> dict[str, Path]:
        """The files named as copies that are no PDF, as last scanned (see ``take``)."""
        return self._not_pdfs

    def failures_stale(self) -> bool:
        """Whether ``pdf-failures.json`` changed since it was last read (a download of ours,
        or ``papers pdf`` in another terminal; one stat), or was never read."""
        from storage.pdfs.failures import FAILURES_FILE

        if self._failures is None:
            return True
        return _stamp_of(self.home / FAILURES_FILE) != self._failures_stamp

    def read_failures(self) -> FailuresRead:
        """``pdf-failures.json`` as it is now, and its stamp (taken before the read: a write
        meanwhile is seen as a change), off the screen's thread (``take_failures`` it there):
        HOME may be on a slow or hung disk."""
        from storage.pdfs.failures import FAILURES_FILE, PdfFailures

        order = next(self._failures_reads)  # (atomic: reads begin in several threads)
        stamp = _stamp_of(self.home / FAILURES_FILE)
        return FailuresRead(PdfFailures(self.home), stamp, order)

    def take_failures(self, read: FailuresRead) -> bool:
        """Know the failures ``read_failures`` read: True when the file had changed. A read
        begun before the one taken last is passed over: reads end in any order (one held by
        a slow share, the downloads' own after it), and the older one, taken last, put the
        pane back to the failures of before until the next look at the disk."""
        if read.order < self._failures_order:
            return False
        changed = self._failures is None or read.stamp != self._failures_stamp
        self._failures, self._failures_stamp = read.failures, read.stamp
        self._failures_order = read.order
        return changed

    def failure_of(self, paper: Paper) -> Failure | None:
        """Why the paper's PDF link failed for good, as last read (None: it has not, or the
        file was not read yet: it is read off the screen's thread, ``read_failures``)."""
        return self._failures.of(paper) if self._failures is not None else None

    @property
    def copies_known(self) -> dict[str, Path]:
        """The copies as last scanned (``take`` them)."""
        return self._copies

    def has_copy(self, paper_id: str) -> bool:
        """Whether the paper has a local copy (as last scanned: a row's mark)."""
        return paper_id in self._copies

    def copy_of(self, paper_id: str) -> Path | None:
        return self._copies.get(paper_id)

    # -- texts ----------------------------------------------------------------------------
    def load_texts(self) -> PdfTexts:
        """The texts as saved now (off the screen's thread: it reads the whole file)."""
        stamp = self._stamp()  # (before the read: a write meanwhile is seen as a change)
        texts = PdfTexts.open(self.home)
        with self._lock:
            self._texts = texts
            self._texts_stamp = stamp
        return texts

    def texts_changed(self) -> bool:
        """Whether ``pdf-text.cache`` changed since the texts were loaded: another process
        (``papers pdf`` in a second terminal) read PDFs into it. False while none are loaded
        (the first ``pdf:`` search or pane that needs them loads them)."""
        with self._lock:
            if self._texts is None:
                return False
            loaded = self._texts_stamp
        return self._stamp() != loaded

    def _stamp(self) -> tuple[int, int, int] | None:
        return _stamp_of(self.home / TEXT_FILE)

    @property
    def texts(self) -> PdfTexts | None:
        with self._lock:
            return self._texts

    def loaded_texts(self) -> PdfTexts:
        """The texts loaded, else loaded now (not again when there are none: ``PdfTexts``
        has a length, and an empty one was read again at each ``pdf:`` search)."""
        texts = self.texts
        return texts if texts is not None else self.load_texts()

    def papers_with(self, value: str) -> Collection[str]:
        """``PdfTextSearch`` for the search's worker: of the papers with a copy as last
        scanned (a copy deleted keeps its text until ``papers pdf``, and was still found)."""
        copies = self._copies  # (replaced whole by ``take``: read once here)
        return {pid for pid in self.loaded_texts().papers_with(value) if pid in copies}

    def has_texts(self) -> bool:
        """``PdfTextSearch``: whether any PDF has a text."""
        return self.loaded_texts().has_texts()

    def matched(self, paper_id: str, query: str) -> PdfMatch | None:
        """Where the ``pdf:`` words of ``query`` are in the paper's PDF (None: no such)."""
        texts = self.texts
        if texts is None or "pdf:" not in query.casefold():
            return None
        for qualifier in parse_query(query).qualifiers:
            if qualifier.key == "pdf" and not qualifier.negated:
                found = texts.search(qualifier.value).get(paper_id)
                if found is not None:
                    return found
        return None

    # -- what the pane says ----------------------------------------------------------------
    def state(self, paper: Paper, key: str = "p") -> str:
        """The paper's PDF for the pane: its local copy, else the address ``key`` (the open
        PDF command's, remapped or not) opens; a file named as its copy that is no PDF, or
        a link that failed for good (``pdf-failures.json``), said instead, with the command
        that asks again."""
        copy = self.copy_of(paper.id)
        if copy is not None:
            texts = self.texts
            pages = texts.pages().get(paper.id) if texts is not None else None
            extra = f" · {count(pages, 'page')}" if pages else ""
            problem = texts.problem(paper.id) if texts is not None else ""
            if problem:
                extra += f" · its text: {problem}"
            return f"local: {copy.name}{extra} ({key} opens it)"
        attached = attachment_of(paper)
        if attached:  # not looked at here (a key's frame): ``p`` checks it is a PDF
            return f"attached: {attached} ({key} opens it)"
        failure = self.failure_of(paper)
        again = f"papers pdf {'--retry ' if failure is not None else ''}{paper.id}"
        if paper.id in self._not_pdfs:  # a page an older version saved, a file put there
            return f"not a PDF: the file named as its copy ({again} replaces it)"
        if failure is not None:
            return failed_line(failure, again)
        url = pdf_url(paper)
        if url:
            return f"{url} ({key} opens it)"
        return "none known (no OpenReview or arXiv page, no pdf field)"


def failed_line(failure: Failure, again: str) -> str:
    """``failed: HTTP 404 Not Found at arxiv.org (papers pdf --retry ID)``: one line, the
    cause without its details (``not a PDF``; ``papers pdf --failed`` gives them) and the
    server, text a server or a file chose, made printable and cut."""
    from storage.pdfs.web import host_of
    from storage.text.sanitize import printable
    from tui.text import cut_cells

    cause = cut_cells(printable(" ".join(failure.kind.split())), CAUSE_CELLS)
    host = cut_cells(printable(host_of(failure.url)), HOST_CELLS)
    return f"failed: {cause}{f' at {host}' if host else ''} ({again})"


def _stamp_of(path: Path) -> tuple[int, int, int] | None:
    try:
        found = path.stat()
    except OSError:
        return None
    return (found.st_ino, found.st_size, found.st_mtime_ns)


def progress_note(event: Event) -> str:
    """What the list's bottom border says of a download's ``event``."""
    from storage.sources.limits import size_text

    where = f"PDF {event.index}/{event.total}"
    if event.kind == "bytes":
        size = f" of {size_text(event.size)}" if event.size else ""
        return f"{where}: {size_text(event.received)}{size}"
    if event.at_once:  # a Retry-After of 0, or of a date gone by: no wait
        return f"{where}: asking again at once as the server allows"
    if event.kind == "wait":
        return f"{where}: waiting {event.seconds:,.0f} s (the server asked)"
    if event.kind == "failed":
        return f"{where}: failed ({event.message})"
    if event.kind == "unreached":  # its server not reached for another paper
        return f"{where}: not asked for ({event.message})"
    return f"{where}: {event.paper.display_title[:40]}"


def queue_line(
    paper_id: str, status: Status, queue: list[str], decided_at: dict[str, float], had_place: bool
) -> str:
    """The paper's place in the reading queue for the pane ("" when it has none)."""
    if status is Status.STARRED and paper_id in queue:
        return f"#{queue.index(paper_id) + 1} of {len(queue):,} in the queue"
    if status is Status.READ and had_place and paper_id in decided_at:
        return f"read from the queue on {date.fromtimestamp(decided_at[paper_id]).isoformat()}"
    return ""
