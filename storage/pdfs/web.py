"""The web side of a PDF download (``storage.pdfs.download``): the opener of a batch, what a
server's answer says in its headers, and a network failure in a few words.

The standard library's ``urllib`` does the HTTP: one request at a time needs no more, and it
adds no dependency. Only ``http`` and ``https`` addresses are fetched, redirects too.
"""

from __future__ import annotations

import email.utils
import http.client
import time
import urllib.error
import urllib.parse
import urllib.request
import zlib
from typing import IO, Any, Final

#: What the standard library raises for an answer that is no HTTP (a cut chunked body, a bad
#: status line, a bad address) besides ``URLError`` and ``OSError``.
NETWORK_ERRORS: Final = (urllib.error.URLError, OSError, ValueError, http.client.HTTPException)


class DownloadError(Exception):
    """A paper's PDF could not be had: the cause, in one line; ``lasting`` when its link will
    not mend by itself (HTTP 404 or 410, an answer that is no PDF: ``storage.pdfs.failures``)."""

    def __init__(self, cause: str, *, lasting: bool = False) -> None:
        super().__init__(cause)
        self.lasting = lasting


class _Redirects(urllib.request.HTTPRedirectHandler):
    """Redirects followed to ``http`` and ``https`` addresses only."""

    def redirect_request(
        self, req: urllib.request.Request, fp: IO[bytes], code: int, msg: str, headers: Any,
        newurl: str,
    ) -> urllib.request.Request | None:  # fmt: skip
        if not newurl.lower().startswith(("http://", "https://")):
            raise DownloadError(f"redirected to a non-web address ({newurl[:80]!r})")
        return super().redirect_request(req, fp, code, msg, headers, newurl)


def build_opener() -> urllib.request.OpenerDirector:
    """A batch's opener: redirects followed to web addresses only."""
    return urllib.request.build_opener(_Redirects())


def user_agent() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        mine = version("papers-tui")
    except PackageNotFoundError:
        mine = "0"
    return f"papers-tui/{mine} (a reading list; one request at a time)"


def retry_after(value: str | None, now: float | None = None) -> float | None:
    """Seconds a ``Retry-After`` header asks for (a number, or an HTTP date); None for none."""
    if not value:
        return None
    text = value.strip()
    if text.isdigit():
        return float(text)
    try:
        when = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError):
        return None
    if when is None:
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


#: The content codings a PDF may come in (``Content-Encoding``), as ``zlib`` reads them: a
#: server may compress what it was not asked to (nothing here sends ``Accept-Encoding``).
_CODINGS: Final = {"gzip": 16 + zlib.MAX_WBITS, "x-gzip": 16 + zlib.MAX_WBITS, "deflate": 0}


def content_coding(headers: Any) -> str:
    """The response's content coding ("" for none); ``DownloadError`` for one not read here."""
    coding = " ".join((headers.get("Content-Encoding") or "").lower().split())
    if coding in ("", "identity"):
        return ""
    if coding not in _CODINGS:
        raise DownloadError(f"the server sent it {coding[:40]!r}-encoded, which is not read here")
    return coding


class Decoded:
    """A compressed response read as the bytes it stands for, a bounded piece at a time (a
    small body may stand for gigabytes: the cap stops it as it comes). Its end must be the
    compressed stream's end, else it was cut short; a part of it is never resumed (no
    ``.part.json``: the next run starts again)."""

    def __init__(self, response: Any, coding: str) -> None:
        self.headers = response.headers
        self._response = response
        self._read = getattr(response, "read1", response.read)
        # deflate is zlib's format, as RFC 9110 says; some servers send it raw
        self._zlib = coding == "deflate"
        self._decoder = zlib.decompressobj(_CODINGS[coding] or zlib.MAX_WBITS)
        self._started = False

    def read1(self, size: int) -> bytes:
        while True:
            pending = self._decoder.unconsumed_tail
            if pending:
                return self._decompress(pending, size)
            if self._decoder.eof:
                return b""
            raw = self._read(size)
            if not raw:
                raise DownloadError("its compressed body was cut short (starts again next time)")
            out = self._decompress(raw, size)
            if out:
                return out

    read = read1

    def _decompress(self, raw: bytes, size: int) -> bytes:
        try:
            out = self._decoder.decompress(raw, size)
        except zlib.error:
            if not (self._zlib and not self._started):
                raise DownloadError("its compressed body is damaged") from None
            self._zlib, self._decoder = False, zlib.decompressobj(-zlib.MAX_WBITS)
            return self._decompress(raw, size)  # raw deflate, without zlib's header
        self._started = True
        return out


def content_length(value: str | None) -> int | None:
    """A ``Content-Length``'s bytes (None: none, or no number)."""
    return int(value) if value and value.strip().isdigit() else None


def range_start(value: str | None) -> int | None:
    """The first byte a ``Content-Range: bytes START-END/SIZE`` covers."""
    if not value or not value.startswith("bytes "):
        return None
    first = value[6:].split("-", 1)[0].strip()
    return int(first) if first.isdigit() else None


def range_size(value: str | None) -> int | None:
    """The whole file's size a ``Content-Range: bytes */SIZE`` names."""
    total = (value or "").rpartition("/")[2].strip()
    return int(total) if total.isdigit() else None


def network_cause(exc: BaseException, url: str = "") -> str:
    """A network failure in a few words, naming the host of ``url`` (the PDF's link) when
    given: which server a queue of papers from several sites could not reach."""
    reason = getattr(exc, "reason", exc)
    host = host_of(url)
    if isinstance(reason, TimeoutError) or "timed out" in str(reason):
        return f"no answer in time from {host}" if host else "no answer in time"
    if isinstance(reason, OSError) and reason.strerror:
        return f"cannot connect{f' to {host}' if host else ''} ({reason.strerror})"
    return f"cannot download ({reason})"


def host_of(url: str) -> str:
    """The server of ``url`` (``host:port``), without the user and password a link may hold;
    "" for none."""
    try:
        netloc = urllib.parse.urlsplit(url).netloc
    except ValueError:  # (a broken IPv6 address)
        return ""
    return netloc.rpartition("@")[2]
