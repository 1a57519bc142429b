"""The web side of a PDF download (``storage.pdfs.download``): the one client of a batch,
what a server's answer says in its headers, and a network failure in a few words.

The client follows redirects to ``http`` and ``https`` addresses only, and tells a server that
cannot be reached at all (its name not resolved, the connection refused, no route to it, no
connection taken in time: ``Unreachable``) from a failure of one paper's request (an HTTP
error, a connection taken and no answer in time, a connection cut): every paper on such a
server would fail alike, a pause apiece, so the batch asks it for no more.
"""

from __future__ import annotations

import email.utils
import errno
import http.client
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
import zlib
from collections.abc import Callable
from typing import IO, Any, Final

from storage.stopping import shut_sockets

#: What the standard library raises for an answer that is no HTTP (a cut chunked body, a bad
#: status line, a bad address) besides ``URLError`` and ``OSError``.
NETWORK_ERRORS: Final = (urllib.error.URLError, OSError, ValueError, http.client.HTTPException)
#: A connection's failures that say nothing answers at the server's address (besides a name
#: that does not resolve): another request to it would fail alike.
_UNREACHABLE_ERRNOS: Final = frozenset(
    getattr(errno, name)
    for name in ("ECONNREFUSED", "ENETUNREACH", "EHOSTUNREACH", "ENETDOWN", "EHOSTDOWN")
    if hasattr(errno, name)
)


class DownloadError(Exception):
    """A paper's PDF could not be had: the cause, in one line; ``lasting`` when its link will
    not mend by itself (HTTP 404 or 410, an answer that is no PDF: ``storage.pdfs.failures``)."""

    def __init__(self, cause: str, *, lasting: bool = False) -> None:
        super().__init__(cause)
        self.lasting = lasting


class Unreachable(DownloadError):
    """The server could not be reached at all: ``host`` (``host:port``), and ``why`` as the
    system says it (``Name or service not known``, ``Connection refused``). It may answer in
    an hour: never ``lasting``."""

    def __init__(self, cause: str, host: str, why: str) -> None:
        super().__init__(cause)
        self.host = host
        self.why = why


class _Redirects(urllib.request.HTTPRedirectHandler):
    """Redirects followed to ``http`` and ``https`` addresses only; ``to`` is the address the
    last one led to (the server a failure after it is of)."""

    to = ""

    def redirect_request(
        self, req: urllib.request.Request, fp: IO[bytes], code: int, msg: str, headers: Any,
        newurl: str,
    ) -> urllib.request.Request | None:  # fmt: skip
        if not newurl.lower().startswith(("http://", "https://")):
            raise DownloadError(f"redirected to a non-web address ({newurl[:80]!r})")
        self.to = newurl
        return super().redirect_request(req, fp, code, msg, headers, newurl)


class Client:
    """A batch's HTTP client, one request at a time (the standard library's ``urllib``: it
    needs no more, and adds no dependency). ``stop`` ends the request under way at once."""

    def __init__(self) -> None:
        self._redirects = _Redirects()
        #: The sockets of the request under way (its redirects' too), shut by ``stop``.
        self._sockets: list[socket.socket] = []
        self._stopped = False
        handlers: list[urllib.request.BaseHandler] = [
            self._redirects, _Handler(self._note)
        ]  # fmt: skip
        if hasattr(urllib.request, "HTTPSHandler"):  # (a Python built without ssl has none)
            handlers.append(_SecureHandler(self._note))
        self._opener = urllib.request.build_opener(*handlers)

    def open(self, request: urllib.request.Request, timeout: float) -> Any:
        """The response to ``request``; ``HTTPError`` for an HTTP error, ``DownloadError``
        (``Unreachable`` for a server that cannot be reached) for anything else."""
        self._redirects.to = ""
        self._sockets.clear()  # (one request at a time: the last one's are closed)
        try:
            response = self._opener.open(request, timeout=timeout)
        except urllib.error.HTTPError as exc:
            if self._stopped:
                exc.close()
                raise DownloadError(STOPPED) from None
            raise
        except DownloadError:
            raise
        except NETWORK_ERRORS as exc:
            raise network_error(exc, self._redirects.to or request.full_url) from None
        if self._stopped:  # (its answer came as it was stopped: dropped, the part untouched)
            response.close()
            raise DownloadError(STOPPED)
        return response

    def stop(self) -> None:
        """Shut the connections of the request under way: a read blocked on one ends at once
        (a server holding its answer, or stalled in the middle of a PDF). The client is used
        no more: a connection it makes from now on is shut as it is made."""
        self._stopped = True
        shut_sockets(list(self._sockets))

    def _note(self, sock: socket.socket) -> None:
        self._sockets.append(sock)
        if self._stopped:  # (a connect that was under way as the client was stopped)
            shut_sockets([sock])


#: What a request of a stopped client raises (on the thread the batch has gone on without).
STOPPED: Final = "the download was stopped"


def _noting(
    base: type[http.client.HTTPConnection], note: Callable[[socket.socket], None]
) -> type[http.client.HTTPConnection]:
    """``base`` with the socket of each connection it makes handed to ``note`` (``Client.stop``
    shuts them); for HTTPS, the TLS socket as it begins its handshake (a server that takes the
    connection and says nothing holds the handshake too)."""

    class Noting(base):  # type: ignore[valid-type,misc]
        def connect(self) -> None:
            context = getattr(self, "_context", None)  # (HTTPS: the connection's own context)
            if context is not None:
                context.sslsocket_class = _noting_tls(context.sslsocket_class, note)
            super().connect()
            note(self.sock)

    return Noting


def _noting_tls(base: Any, note: Callable[[Any], None]) -> Any:
    """An ``ssl.SSLSocket`` class whose sockets go to ``note`` before their handshake."""

    class NotingTls(base):
        def do_handshake(self, block: bool = False) -> None:
            note(self)
            super().do_handshake(block)

    return NotingTls


class _Noted:
    """A handler whose connections hand their sockets to ``note`` (``_noting``)."""

    def __init__(self, note: Callable[[socket.socket], None]) -> None:
        super().__init__()
        self._note = note

    def do_open(self, http_class: Any, req: Any, **http_conn_args: Any) -> Any:
        opened: Callable[..., Any] = super().do_open  # type: ignore[misc]
        return opened(_noting(http_class, self._note), req, **http_conn_args)


class _Handler(_Noted, urllib.request.HTTPHandler):
    pass


class _SecureHandler(_Noted, urllib.request.HTTPSHandler):
    pass


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


def network_error(exc: BaseException, url: str) -> DownloadError:
    """A failure to get an answer from ``url``'s server, as ``network_cause`` says it:
    ``Unreachable`` when nothing answers at its address at all, or a connection to it is not
    taken in time (urllib wraps what fails as it connects and sends the request in a
    ``URLError``; a timeout waiting for the answer after that comes bare). Offline behind a
    firewall that drops what it refuses, each paper waited out the whole timeout."""
    cause = network_cause(exc, url)
    reason = getattr(exc, "reason", exc)
    host = host_of(url)
    down = (
        isinstance(reason, socket.gaierror) or getattr(reason, "errno", None) in _UNREACHABLE_ERRNOS
    )
    if host and isinstance(reason, OSError) and reason.strerror and down:
        return Unreachable(cause, host, reason.strerror)
    if host and isinstance(exc, urllib.error.URLError) and isinstance(reason, TimeoutError):
        return Unreachable(cause, host, "no connection taken in time")
    return DownloadError(cause)


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
