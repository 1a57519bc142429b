"""The app's PDFs: which papers have a local copy, what the pane says of a paper's PDF, the
text searched with ``pdf:``, downloads and text reading off the screen's thread.

The copies are known from one scan of the folder (``storage.pdfs.folder``), made again when
the folder changes; the texts (``storage.cache.pdf_text``) are read by a child process (see
``extract_elsewhere``) in a thread worker, then loaded here for the search's worker to read.
"""

from __future__ import annotations

import threading
from collections.abc import Collection
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

from storage.cache.pdf_text import TEXT_FILE, PdfMatch, PdfTexts
from storage.models import Paper, Status
from storage.pdfs.attached import attachment_of
from storage.pdfs.folder import PdfFolder
from storage.pdfs.links import pdf_url
from storage.search.query import parse_query
from storage.text.words import count

if TYPE_CHECKING:
    from storage.pdfs.download import Event


class AppPdfs:
    """The local copies and their text, as the screen shows and searches them."""

    def __init__(self, home: Path, folder: Path) -> None:
        self.home = home
        self.folder = PdfFolder(folder)
        self._copies: dict[str, Path] = {}
        self._texts: PdfTexts | None = None
        #: The stamp of ``pdf-text.cache`` the texts were loaded from (``texts_changed``).
        self._texts_stamp: tuple[int, int, int] | None = None
        self._lock = threading.Lock()
        #: Set while a download or a reading of texts runs (one at a time).
        self.busy = False

    # -- copies ---------------------------------------------------------------------------
    def rescan(self) -> dict[str, Path]:
        """Read the folder again (after a download; cheap when it did not change)."""
        self._copies = self.folder.copies()
        return self._copies

    @property
    def copies_known(self) -> dict[str, Path]:
        """The copies as last scanned (``rescan`` gives another dict when they changed)."""
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
        try:
            found = (self.home / TEXT_FILE).stat()
        except OSError:
            return None
        return (found.st_ino, found.st_size, found.st_mtime_ns)

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
        copies = self._copies  # (replaced whole by ``rescan``: read once here)
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
        PDF command's, remapped or not) opens."""
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
        url = pdf_url(paper)
        if url:
            return f"{url} ({key} opens it)"
        return "none known (no OpenReview or arXiv page, no pdf field)"


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
