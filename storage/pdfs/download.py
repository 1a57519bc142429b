"""Downloading papers' PDFs into the folder of local copies: politely, checked, resumable.

One request at a time, with a pause between two (``DownloadOptions.pause``). A server that
answers 429 or 503 with ``Retry-After`` is waited for, up to ``max_wait`` seconds (the wait is
reported); one asking for longer fails that paper with the time it asked for. Each file is
written to ``.ID.pdf.part`` in the folder and checked before it takes its name: it has
``%PDF-`` in its first 1024 bytes (an HTML login page does not: ``storage.pdfs.check``), stays
under ``max_bytes`` (a larger file is refused from its ``Content-Length``, or stopped when it
grows past the cap), arrives whole (the ``Content-Length`` it announced, and ``%%EOF`` in its
last 64 KB), then is fsynced and
renamed to ``Title (id).pdf`` (``storage.pdfs.folder``). A download cut short (the
connection lost, the process killed) leaves only its part, from which the next one resumes
with a ``Range`` request; a file with the final name is always whole. The part is only ever a
regular file of ours, never written through a link nor waited on as a pipe
(``storage.pdfs.parts``); a copy already there counts only when it is a PDF.
A stop (``cancelled``: quitting the app) ends the request under way within a second, even
while its server holds its answer (``storage.stopping``): its part is kept, its paper is no
failure.

Two failures stop more than their paper: a write the folder refuses (read-only, full) stops
the batch, and a server that cannot be reached at all (its name not resolved, the connection
refused: ``storage.pdfs.web.Unreachable``) is asked for no other paper in the batch; either
would fail every paper after alike, a pause apiece. The HTTP is ``storage.pdfs.web``'s: only
``http`` and ``https`` addresses are fetched, redirects too.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import http.client
import os
import stat
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Final

from storage.models import Paper
from storage.pdfs.attached import MAX_BYTES, attachment_of, link_attachment
from storage.pdfs.check import HEADER_WITHIN, has_pdf_header, is_pdf, pdf_problem
from storage.pdfs.folder import PdfFolder, pdf_name
from storage.pdfs.links import pdf_url
from storage.pdfs.parts import (
    PartError,
    Version,
    open_part,
    remove_part,
    remove_sidecar,
    settle,
)
from storage.pdfs.web import (
    NETWORK_ERRORS,
    Client,
    Decoded,
    DownloadError,
    Unreachable,
    content_coding,
    content_length,
    host_of,
    network_cause,
    range_size,
    range_start,
    retry_after,
    user_agent,
)
from storage.sources.limits import size_text
from storage.stopping import Stopped, stoppable
from storage.text.words import count

_CHUNK: Final = 64 * 1024
#: Seconds without an answer before a request fails: ``DownloadOptions``' default, and so
#: ``papers pdf``'s and the app's ``P``'s, unless ``[pdf] timeout`` (``tui.config``) or
#: ``--timeout`` says another.
TIMEOUT_S: Final = 60.0
#: A download slower than this (bytes a second) over ``SLOW_WINDOW_S`` is given up (its part
#: kept): a server that trickles would hold up every paper after it.
MIN_RATE: Final = 1024
SLOW_WINDOW_S: Final = 60.0
#: A wait shorter than this is said as none ("asking again at once"), not as "waiting 0 s": a
#: ``Retry-After`` of 0, or of a date already past (as ``storage.fetch.web`` says it).
AT_ONCE: Final = 0.05
_ASKING_AGAIN: Final = "asking again at once as it allows (Retry-After)"
_NO_ADDRESS: Final = "no PDF address known (no OpenReview or arXiv page, no pdf field)"
#: The lock of a folder that a batch downloads into (one batch at a time).
LOCK_NAME: Final = ".papers-pdf.lock"
#: Times a batch locks the lock file again when the one it locked was removed meanwhile (each
#: time, another batch ended in between); the last is taken as it is.
_LOCK_TRIES: Final = 20
#: How names in the folder are opened: never through a symbolic link, never waiting on a pipe.
_NO_LINK: Final = getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
#: Writes refused for the folder's sake or the process's, not the paper's (read-only, full, a
#: quota, a file size limit, no permission): every paper after would fail the same way.
_FOLDER_ERRNOS: Final = frozenset(
    getattr(errno, name) for name in ("EROFS", "ENOSPC", "EDQUOT", "EFBIG", "EACCES", "EPERM")
    if hasattr(errno, name)
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class DownloadOptions:
    """How downloads behave; the defaults suit a public server."""

    #: Seconds between two requests.
    pause: float = 1.0
    #: A PDF larger than this is refused.
    max_bytes: int = MAX_BYTES
    #: The longest ``Retry-After`` waited for (a longer one fails the paper).
    max_wait: float = 120.0
    #: The wait after a 429 or 503 that names none.
    default_wait: float = 10.0
    #: Times a paper is asked for again after a 429 or 503.
    retries: int = 3
    #: Seconds without an answer before a request fails.
    timeout: float = TIMEOUT_S


@dataclass(frozen=True, slots=True)
class Event:
    """What a download is doing, for a progress line."""

    #: ``start``, ``bytes``, ``wait``, ``done``, ``linked``, ``skipped``, ``failed`` or
    #: ``unreached`` (not asked for: its server could not be reached for another paper of the
    #: batch; ``message`` is that failure's cause).
    kind: str
    paper: Paper
    #: The paper's place in the batch (1-based) and the batch's size.
    index: int
    total: int
    received: int = 0
    #: The file's size when known (0: unknown).
    size: int = 0
    #: Seconds waited (``wait``).
    seconds: float = 0.0
    #: The cause of a failure, or what a wait is for.
    message: str = ""
    path: Path | None = None
    #: A failure that will not mend by itself (``DownloadError.lasting``).
    lasting: bool = False
    #: A failure of this machine's, not of the link (the folder refused a write).
    local: bool = False

    @property
    def at_once(self) -> bool:
        """A wait of none (a ``Retry-After`` of 0, or of a date gone by): said as no wait."""
        return self.kind == "wait" and self.seconds < AT_ONCE


@dataclass(slots=True)
class DownServer:
    """A server the batch could not reach at all (``Unreachable``), asked for no more."""

    host: str
    #: Why, as the system says it: ``Name or service not known``, ``Connection refused``.
    why: str
    #: The failure's line (``cannot connect to openreview.net (Connection refused)``): each
    #: paper on the server not asked for after fails with it (``Event`` ``unreached``).
    cause: str = ""
    #: Papers that failed on it: the first (more only when redirected to it from another).
    failed: int = 0
    #: Papers on it not asked for after.
    not_tried: int = 0

    def line(self) -> str:
        """``cannot reach openreview.net (Name or service not known): 6 PDFs not
        downloaded; try again when it answers``."""
        lost = count(self.failed + self.not_tried, "PDF")
        why = f"cannot reach {self.host} ({self.why})"
        return f"{why}: {lost} not downloaded; try again when it answers"


@dataclass(slots=True)
class DownloadReport:
    """What a batch of downloads did."""

    done: list[Path] = field(default_factory=list)
    #: Copies made from the papers' attachments, nothing downloaded (``storage.pdfs.attached``).
    linked: list[Path] = field(default_factory=list)
    #: Papers that had their copy already.
    skipped: int = 0
    #: One line per paper that failed: ``id  title: cause``.
    failed: list[str] = field(default_factory=list)
    #: True when the batch was stopped before its end.
    cancelled: bool = False
    #: True when another batch was downloading into the folder: this one did nothing.
    busy: bool = False
    #: Papers not asked for once the folder refused a write (``_FolderError``).
    not_tried: int = 0
    #: The servers that could not be reached at all, by host (lower case).
    down: dict[str, DownServer] = field(default_factory=dict)
    #: The cause of each paper that failed, by its id, but those of a server down (``down``).
    causes: dict[str, str] = field(default_factory=dict)

    def summary(self) -> str:
        """``3 downloaded, 1 already here, 1 failed``."""
        if self.busy:
            return (
                "nothing downloaded: another download into this folder is running "
                "(try again when it ends)"
            )
        parts = [f"{count(len(self.done), 'PDF')} downloaded"]
        if self.linked:
            parts.append(f"{len(self.linked):,} linked from their attachments")
        if self.skipped:
            parts.append(f"{self.skipped:,} already here")
        if self.failed:
            parts.append(f"{self.failed and len(self.failed):,} failed")
        if passed := sum(server.not_tried for server in self.down.values()):
            parts.append(f"{passed:,} not tried (their server cannot be reached)")
        if self.not_tried:
            parts.append(f"{self.not_tried:,} not tried (the folder refused a write)")
        if self.cancelled:
            parts.append("stopped (the rest resumes next time)")
        return ", ".join(parts)

    def failures(self, most: int = 3, named: int = 3) -> list[str]:
        """The failures in at most ``most`` lines and one more, whatever their number: a line
        a server down (``DownServer.line``), a line a cause with its count and the first
        ``named`` papers' ids, the most PDFs first (a notification that stays short)."""
        groups = [(s.failed + s.not_tried, s.line()) for s in self.down.values()]
        kinds: dict[str, list[str]] = {}  # the causes without their details, as failures.py
        for paper_id, cause in self.causes.items():
            kinds.setdefault(cause.split(" (", 1)[0], []).append(paper_id)
        for kind, ids in kinds.items():
            causes = {self.causes[paper_id] for paper_id in ids}
            said = causes.pop() if len(causes) == 1 else kind  # the whole cause, when one
            which = ", ".join(ids[:named]) + ("…" if len(ids) > named else "")
            groups.append((len(ids), f"{said}: {count(len(ids), 'PDF')} ({which})"))
        groups.sort(key=lambda group: -group[0])  # (stable: in the batch's order among equals)
        lines = [line for _, line in groups[:most]]
        if rest := sum(n for n, _ in groups[most:]):
            said = "(papers pdf --failed lists the failures and why)"  # (--retry downloads)
            lines.append(f"… and {count(rest, 'other PDF')} not downloaded {said}")
        return lines


class _FolderError(DownloadError):
    """The folder refused a write (``_FOLDER_ERRNOS``): the batch stops there."""


def _write_error(where: str, exc: OSError) -> DownloadError:
    kind = _FolderError if exc.errno in _FOLDER_ERRNOS else DownloadError
    return kind(f"cannot write {where} ({exc.strerror or exc})")


class _Wait(Exception):
    """The server asks to come back in ``seconds``."""

    def __init__(self, seconds: float, status: int) -> None:
        super().__init__(seconds)
        self.seconds = seconds
        self.status = status


def download_pdfs(
    papers: Sequence[Paper],
    folder: PdfFolder,
    options: DownloadOptions = DownloadOptions(),
    progress: Callable[[Event], None] = lambda event: None,
    cancelled: Callable[[], bool] = lambda: False,
    sleep: Callable[[float], None] = time.sleep,
) -> DownloadReport:
    """Download the PDFs of ``papers`` that have no local copy yet, one at a time; a paper
    whose attachment is a PDF on this machine gets it as its copy instead
    (``storage.pdfs.attached``)."""
    report = DownloadReport()
    folder.path.mkdir(parents=True, exist_ok=True)
    with _batch_lock(folder.path) as held:
        if not held:
            report.busy = True
            return report
        _download_all(papers, folder, options, progress, cancelled, sleep, report)
    return report


@contextlib.contextmanager
def _batch_lock(path: Path) -> Iterator[bool]:
    """Hold the folder's lock for a batch (True), or say another batch holds it (False): two
    at once would write one paper's part together (a block of zeros in a PDF called whole).

    The holder removes the lock file as its batch ends (the folder keeps no file of ours), so
    a batch that opened it just before may lock a file no longer there while a third locks
    the new one: a lock is held only once the file locked is the one at the path (the same
    inode), else the one at the path is opened and locked again."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows: no second process is guarded against
        yield True
        return
    lock = path / LOCK_NAME
    for attempt in range(_LOCK_TRIES):
        try:  # never through a link (it would make or lock the file it points to)
            fd = os.open(lock, os.O_RDWR | os.O_CREAT | _NO_LINK, 0o644)
        except OSError as exc:
            if exc.errno in (errno.ELOOP, errno.EMLINK, errno.ENXIO) and attempt < _LOCK_TRIES - 1:
                with contextlib.suppress(OSError):
                    os.unlink(lock)  # a link or a socket in its place: the entry itself goes
                continue
            yield True  # a folder that takes no file: the downloads say why, paper by paper
            return
        if not stat.S_ISREG(os.fstat(fd).st_mode) and attempt < _LOCK_TRIES - 1:
            os.close(fd)  # a pipe or a device in its place: not ours to lock
            with contextlib.suppress(OSError):
                os.unlink(lock)
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            yield False
            return
        if _is_at(fd, lock) or attempt == _LOCK_TRIES - 1:  # (the last: inodes that mislead)
            break
        os.close(fd)  # removed by the batch before, as this one opened it
    try:
        yield True
    finally:  # gone with the batch, still held: the folder keeps no file of ours
        with contextlib.suppress(OSError):
            os.unlink(lock)
        os.close(fd)


def _is_at(fd: int, path: Path) -> bool:
    """True when the open file ``fd`` is the one at ``path`` (not removed, not replaced)."""
    try:
        here, opened = os.stat(path), os.fstat(fd)
    except OSError:
        return False
    return (here.st_dev, here.st_ino) == (opened.st_dev, opened.st_ino)


def _download_all(
    papers: Sequence[Paper],
    folder: PdfFolder,
    options: DownloadOptions,
    progress: Callable[[Event], None],
    cancelled: Callable[[], bool],
    sleep: Callable[[float], None],
    report: DownloadReport,
) -> None:
    folder.sweep()
    client = Client()
    asked = False
    total = len(papers)

    def fail(paper: Paper, index: int, exc: DownloadError) -> None:
        """The paper's failure said and kept; a server that cannot be reached, as down."""
        cause = str(exc)
        report.failed.append(_line(paper, cause))
        if isinstance(exc, Unreachable):
            server = DownServer(exc.host, exc.why, cause)
            down = report.down.setdefault(exc.host.lower(), server)
            down.failed += 1
        else:
            report.causes[paper.id] = cause
        local = isinstance(exc, _FolderError)
        progress(
            Event("failed", paper, index, total, message=cause, lasting=exc.lasting, local=local)
        )

    def wait(seconds: float) -> bool:
        """Sleep in short steps; False when cancelled meanwhile."""
        end = time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0:
            if cancelled():
                return False
            sleep(min(left, 0.2))
        return not cancelled()

    for index, paper in enumerate(papers, start=1):
        if cancelled():
            report.cancelled = True
            break
        have = folder.copy_of(paper.id)
        if have is not None and is_pdf(have):  # a text file under its name is fetched again
            report.skipped += 1
            progress(Event("skipped", paper, index, total, path=have))
            continue
        linked = link_attachment(paper, folder, options.max_bytes) if attachment_of(paper) else None
        if linked is not None:  # the reference manager's copy: nothing to download
            report.linked.append(linked)
            progress(Event("linked", paper, index, total, path=linked))
            continue
        url = pdf_url(paper)
        if not url:
            fail(paper, index, DownloadError(_NO_ADDRESS))
            continue
        down = report.down.get(host_of(url).lower())
        if down is not None:  # not asked: each paper would be a pause and the same line
            down.not_tried += 1  # (kept as failed, for ``papers pdf --failed`` to list it)
            progress(Event("unreached", paper, index, total, message=down.cause))
            continue
        tries = 0
        while True:
            if asked and not wait(options.pause):
                report.cancelled = True
                break
            asked = True
            progress(Event("start", paper, index, total))
            job = _Job(paper, index, total, folder, options, progress, cancelled)
            try:  # (a stop ends it at once, a server holding its answer or not: ``stopping``)
                fetch = functools.partial(_fetch, client, url, job)
                path = stoppable(fetch, cancelled, client.stop, name="papers-pdf-download")
            except Stopped:  # its part kept, to resume; no failure of the paper
                report.cancelled = True
                break
            except _Wait as asked_to:
                tries += 1
                seconds = asked_to.seconds
                if seconds > options.max_wait:
                    cause = (
                        f"HTTP {asked_to.status}: the server asks to wait {seconds:,.0f} s "
                        f"(more than {options.max_wait:,.0f} s): try again later"
                    )
                elif tries > options.retries:
                    cause = f"HTTP {asked_to.status} again after {tries - 1} waits: try again later"
                else:
                    message = f"HTTP {asked_to.status}: the server asks to wait {seconds:,.0f} s"
                    if seconds < AT_ONCE:  # 0, or a date already past
                        message = f"HTTP {asked_to.status}: {_ASKING_AGAIN}"
                    progress(Event("wait", paper, index, total, seconds=seconds, message=message))
                    if wait(seconds):
                        asked = False  # the wait was the pause
                        continue
                    report.cancelled = True
                    break
                fail(paper, index, DownloadError(cause))
            except DownloadError as exc:
                fail(paper, index, exc)
                if isinstance(exc, _FolderError):  # (each paper's pause, each the same line)
                    report.not_tried = total - index
                    return
            else:
                if path is None:
                    report.cancelled = True
                else:
                    report.done.append(path)
                    progress(Event("done", paper, index, total, path=path))
            break
        if report.cancelled:
            break


def _line(paper: Paper, cause: str) -> str:
    return f"{paper.id}  {paper.display_title}: {cause}"


@dataclass(frozen=True, slots=True)
class _Job:
    """One paper's download: what it reports to, where it writes."""

    paper: Paper
    index: int
    total: int
    folder: PdfFolder
    options: DownloadOptions
    progress: Callable[[Event], None]
    cancelled: Callable[[], bool]

    def event(self, kind: str, **values: Any) -> Event:
        return Event(kind, self.paper, self.index, self.total, **values)


class _StartAgain(Exception):
    """The part is no start of the file (removed): the request is made again, from its start."""


def _fetch(client: Client, url: str, job: _Job) -> Path | None:
    """One request for one paper's PDF; its path once whole and checked (None: cancelled,
    the part kept). Raises ``_Wait`` or ``DownloadError``. The part is opened before the
    request (``storage.pdfs.parts``: a regular file of ours, never a link or a pipe) and
    written through that one open file alone."""
    part = job.folder.part_of(job.paper.id)
    try:
        out = open_part(part)
    except PartError as exc:
        raise DownloadError(str(exc)) from None
    except OSError as exc:
        raise _write_error(f"in {job.folder.path}", exc) from None
    with out:
        try:
            return _fetch_into(client, url, job, part, out)
        except _StartAgain:
            pass
        finally:  # nothing received: no part left (a failure leaves the folder as it was)
            with contextlib.suppress(OSError):
                if not os.fstat(out.fileno()).st_size and _is_at(out.fileno(), part):
                    remove_part(part)
    return _fetch(client, url, job)  # from its start: once, the part is gone


def http_cause(exc: urllib.error.HTTPError) -> str:
    """What an HTTP error says, on one line: ``HTTP 404 Not Found``; a redirect loop (urllib
    gives up after 4 visits of one address or 10 redirects) as such, not as urllib's three
    lines ("… would lead to an infinite loop.\nThe last 30x error message was:\nFound")."""
    reason = str(exc.reason)
    if reason.startswith(urllib.request.HTTPRedirectHandler.inf_msg):
        return f"HTTP {exc.code}: redirected in a loop (or more than 10 times)"
    return f"HTTP {exc.code} {' '.join(reason.split())}".rstrip()


def _fetch_into(client: Client, url: str, job: _Job, part: Path, out: IO[bytes]) -> Path | None:
    offset = os.fstat(out.fileno()).st_size  # of the file open, not of a name looked at before
    version = Version.read(part) if offset else None
    if offset and (version is None or version.url != url or not version.can_resume):
        out.truncate(0)  # a part whose version cannot be told: it might not be this file's start
        remove_sidecar(part)
        offset, version = 0, None
    headers = {"User-Agent": user_agent(), "Accept": "application/pdf"}
    if offset and version is not None:
        headers["Range"] = f"bytes={offset}-"
        if version.validator:  # the rest only if the file is still that one, else all of it
            headers["If-Range"] = version.validator
    request = urllib.request.Request(url, headers=headers)
    try:
        response = client.open(request, job.options.timeout)
    except urllib.error.HTTPError as exc:
        with contextlib.closing(exc):
            if exc.code in (429, 503):
                seconds = retry_after(exc.headers.get("Retry-After"))
                wait = job.options.default_wait if seconds is None else seconds
                raise _Wait(wait, exc.code) from None
            if exc.code != 416 or not offset:
                gone = exc.code in (404, 410)  # nothing there: asking again will not mend it
                raise DownloadError(http_cause(exc), lasting=gone) from None
            whole = range_size(exc.headers.get("Content-Range")) == offset
        if whole and not pdf_problem(out):  # 416: the part is the whole file (cut at its end)
            return _finish(out, part, job)
        remove_part(part)  # 416: the part is no start of the file; start again
        raise _StartAgain from None
    changed = False
    with contextlib.closing(response):
        coding = content_coding(response.headers)
        if coding and offset:  # the range was of the encoded bytes: no join with the part
            response.close()
            remove_part(part)
            raise _StartAgain
        length = content_length(response.headers.get("Content-Length"))
        if response.status == 206:
            content_range = response.headers.get("Content-Range")
            if range_start(content_range) != offset:
                remove_part(part)
                raise DownloadError("the server resumed at the wrong place (starts again)")
            total = range_size(content_range)
            if version is not None and version.size and total is not None and total != version.size:
                changed = True  # another version of the file (a new arXiv version, say)
        elif offset:  # the server sent the whole file (a new version of it): start again
            offset = 0
        if changed:
            response.close()
            remove_part(part)
            raise _StartAgain
        size = offset + length if length is not None else 0
        if not offset and not coding:  # what the next run resumes against, if cut short
            Version.of(url, response.headers, length).write(part)
        if size > job.options.max_bytes:  # an encoded body's length: the PDF is larger still
            remove_part(part)
            cap = size_text(job.options.max_bytes)
            raise DownloadError(f"{size_text(size)} is over the {cap} cap")
        body = Decoded(response, coding) if coding else response
        try:
            whole = _receive(body, out, offset, size if length and not coding else None, job)
        except _NotPdf:
            remove_part(part)
            raise
        except OSError as exc:
            raise _write_error(f"in {job.folder.path}", exc) from None
    if not whole:
        return None
    problem = pdf_problem(out)
    if problem:
        remove_part(part)
        raise DownloadError(problem)
    return _finish(out, part, job)


def _finish(out: IO[bytes], part: Path, job: _Job) -> Path:
    """The checked part under its final name (renamed, the folder synced): a file there that
    is no PDF (or a link to one) is replaced as the entry it is, never written through."""
    final = job.folder.path / pdf_name(job.paper)
    try:
        settle(out, part, final)
    except OSError as exc:
        raise _write_error(final.name, exc) from None
    remove_part(part)  # what it says of the version: the part is the file now
    return final


def _receive(response: Any, out: IO[bytes], offset: int, size: int | None, job: _Job) -> bool:
    """Write the response's body into the part open as ``out`` from ``offset``, checking it
    as it comes; True when it is all there and on disk, False when cancelled (the part kept)."""
    received = offset
    head = b""
    confirmed = bool(offset)
    cap = job.options.max_bytes
    read = getattr(response, "read1", response.read)  # what has come, not a whole 64 kB
    window_start, window_bytes = time.monotonic(), 0
    out.seek(offset)
    out.truncate()
    while True:
        if job.cancelled():
            out.flush()
            return False
        try:
            chunk = read(_CHUNK)
        except http.client.IncompleteRead as exc:  # a chunked body cut short: keep it
            out.write(exc.partial)
            out.flush()
            received += len(exc.partial)
            cut = f"cut short after {size_text(received)} (resumes next time)"
            raise DownloadError(cut) from None
        except NETWORK_ERRORS as exc:
            out.flush()
            if job.cancelled():  # its connection shut by the stop (``Client.stop``)
                return False
            raise DownloadError(f"{network_cause(exc)} after {size_text(received)}") from None
        if not chunk:
            if job.cancelled():  # (not the end of the file: what the stop's shut reads)
                out.flush()
                return False
            break
        if not confirmed:  # %PDF- in its first 1024 bytes (a resumed part was checked)
            head = (head + chunk)[:HEADER_WITHIN]
            confirmed = has_pdf_header(head)
            if not confirmed and len(head) >= HEADER_WITHIN:
                raise _NotPdf(_not_pdf(response), lasting=True)
        received += len(chunk)
        if received > cap:
            raise _NotPdf(f"over the {size_text(cap)} cap")
        out.write(chunk)
        job.progress(job.event("bytes", received=received, size=size or 0))
        window_bytes += len(chunk)
        if (spent := time.monotonic() - window_start) >= SLOW_WINDOW_S:
            if window_bytes < MIN_RATE * spent:
                out.flush()
                rate = f"{window_bytes / spent:,.0f} bytes a second"
                raise DownloadError(
                    f"too slow ({rate}) after {size_text(received)} (resumes next time)"
                )
            window_start, window_bytes = time.monotonic(), 0
    out.flush()
    if not confirmed:  # all of it shorter than 1024 bytes, and no %PDF- in it
        raise _NotPdf(_not_pdf(response), lasting=True)
    if size is not None and received < size:
        cut = f"cut short after {size_text(received)} of {size_text(size)} (resumes next time)"
        raise DownloadError(cut)
    os.fsync(out.fileno())
    return True


class _NotPdf(DownloadError):
    """What arrives is no PDF (a page: ``lasting``) or too large: the part goes."""


def _not_pdf(response: Any) -> str:
    """The cause of a body without ``%PDF-`` in its head, naming what the server called it."""
    kind = response.headers.get_content_type()
    said = "" if kind == "application/pdf" else f"the server sent {kind}: "
    return f"not a PDF ({said}a login or error page?)"
