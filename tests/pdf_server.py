"""A real HTTP server on 127.0.0.1 serving PDFs the tests make, and misbehaving on request.

``PdfServer`` serves ``/forum?id=X`` (a page), ``/pdf?id=X`` and ``/pdf/X`` (the PDF of paper
``X``). What each id gets is set in ``behaviour``: ``ok`` (the PDF, with ``Range`` support),
``html`` (a login page instead), ``page`` (the paper's bytes, as ``text/html``), ``truncated``
(half the bytes, then the connection closes; the first request alone), ``chunkcut`` (the same,
chunked: no last chunk), ``noetag`` (``ok`` without the ``ETag`` every other answer names its
file's version by), ``big`` (a ``Content-Length`` over any cap), ``huge`` (no length, more
bytes than any cap), ``busy:N:S`` (429 with ``Retry-After: S``, seconds or an HTTP date, the
first N times), ``slow`` (the bytes a few KB at a time), ``held`` (as ``slow``, but from the
start of the file the first ``HELD_BYTES``, then nothing until ``release`` is set: a download
caught on its way on a machine of any speed), ``missing`` (404), ``gone`` (410), ``broken``
(500), ``gzip`` / ``deflate`` / ``rawdeflate`` (the PDF compressed, with ``Content-Encoding``,
though not asked for; a range is of the compressed bytes), ``gzipcut`` (half the compressed
bytes, the first request alone), ``br`` (a ``Content-Encoding`` the client cannot read),
``redirect:URL`` (302 to ``URL``), ``unavailable`` (503 with ``Retry-After: 0``, every time),
``silent`` (no answer at all, until ``release`` is set or the server stops: a client's timeout).
Every request is recorded, with when it started and ended, so that tests can check one-at-a-
time and the pauses.
"""

from __future__ import annotations

import hashlib
import http.server
import threading
import time
import zlib
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

#: What a ``held`` answer sends before it waits: more than a client's first read of 64 KB,
#: which it then writes into its part file.
HELD_BYTES = 72 * 1024


@dataclass
class Request:
    path: str
    paper: str
    headers: dict[str, str]
    start: float
    end: float = 0.0
    status: int = 0


@dataclass
class PdfServer:
    """Start with ``start()``, stop with ``stop()``; ``base`` is its address."""

    pdfs: dict[str, bytes] = field(default_factory=dict)
    behaviour: dict[str, str] = field(default_factory=dict)
    requests: list[Request] = field(default_factory=list)
    #: Seconds between two chunks of a ``slow`` answer.
    slow_gap: float = 0.05
    #: What a ``held`` answer waits for.
    release: threading.Event = field(default_factory=threading.Event)
    #: The port to listen on (0: one the system picks; a fixed one: a server that was down,
    #: now up at the address its papers name).
    port: int = 0
    _asked: Counter[str] = field(default_factory=Counter)
    _active: int = 0
    most_at_once: int = 0

    def start(self) -> PdfServer:
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: object) -> None:  # quiet
                return

            def do_GET(self) -> None:  # noqa: N802 - http.server's name
                server._serve(self)

        self._server = http.server.ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()
        return self

    @property
    def base(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def forum(self, paper: str) -> str:
        return f"{self.base}/forum?id={paper}"

    def stop(self) -> None:
        self.release.set()  # (a ``silent`` or ``held`` answer waits no more)
        self._server.shutdown()
        self._server.server_close()

    def _serve(self, handler: http.server.BaseHTTPRequestHandler) -> None:
        parts = urlsplit(handler.path)
        paper = (parse_qs(parts.query).get("id") or [""])[0]
        if parts.path.startswith("/pdf/"):
            paper = parts.path.removeprefix("/pdf/")
        request = Request(handler.path, paper, dict(handler.headers), time.monotonic())
        self.requests.append(request)
        self._active += 1
        self.most_at_once = max(self.most_at_once, self._active)
        try:
            request.status = self._answer(handler, paper)
        except (BrokenPipeError, ConnectionResetError):
            request.status = -1
        finally:
            self._active -= 1
            request.end = time.monotonic()

    def _answer(self, handler: http.server.BaseHTTPRequestHandler, paper: str) -> int:
        how = self.behaviour.get(paper, "ok")
        self._asked[paper] += 1
        body = self.pdfs.get(paper)
        if how.startswith("busy:"):
            _, times, wait = how.split(":", 2)  # (a date has colons)
            if self._asked[paper] <= int(times):
                return self._send(handler, 429, b"slow down", {"Retry-After": wait})
        if how == "unavailable":
            return self._send(handler, 503, b"try later", {"Retry-After": "0"})
        if how == "silent":  # the request read, nothing sent: the client's timeout ends it
            self.release.wait(30)
            handler.close_connection = True
            return 0
        if how.startswith("redirect:"):
            return self._send(handler, 302, b"", {"Location": how.removeprefix("redirect:")})
        if how == "missing" or body is None:
            return self._send(handler, 404, b"not found")
        if how in ("gone", "broken"):
            return self._send(handler, 410 if how == "gone" else 500, b"no PDF here")
        if how == "html":
            page = b"<!DOCTYPE html><html><body>Please log in</body></html>"
            return self._send(handler, 200, page, {"Content-Type": "text/html"})
        if how == "page":
            return self._send(handler, 200, body, {"Content-Type": "text/html"})
        if how == "big":
            handler.send_response(200)
            handler.send_header("Content-Type", "application/pdf")
            handler.send_header("Content-Length", str(10**12))
            handler.end_headers()
            handler.wfile.write(body[:1000])
            handler.close_connection = True
            return 200
        if how == "huge":
            handler.send_response(200)
            handler.send_header("Content-Type", "application/pdf")
            handler.send_header("Connection", "close")
            handler.end_headers()
            handler.wfile.write(body)
            for _ in range(200):
                handler.wfile.write(b"%" * 65536)
            handler.close_connection = True
            return 200
        start = 0
        wanted = handler.headers.get("Range", "")
        status, headers = 200, {"Content-Type": "application/pdf", "Accept-Ranges": "bytes"}
        if how != "noetag":  # as real servers name a version of a file
            headers["ETag"] = f'"{hashlib.sha1(body).hexdigest()[:16]}"'
            if handler.headers.get("If-Range", headers["ETag"]) != headers["ETag"]:
                wanted = ""  # the file changed since: all of it (RFC 9110 If-Range)
        if wanted.startswith("bytes=") and how != "norange":
            start = int(wanted[6:].split("-")[0])
            if start >= len(body):
                return self._send(handler, 416, b"", {"Content-Range": f"bytes */{len(body)}"})
            status = 206
            headers["Content-Range"] = f"bytes {start}-{len(body) - 1}/{len(body)}"
        if how in ("gzip", "gzipcut", "deflate", "rawdeflate", "br"):
            wbits = {"deflate": zlib.MAX_WBITS, "rawdeflate": -zlib.MAX_WBITS}.get(how, 31)
            packer = zlib.compressobj(9, zlib.DEFLATED, wbits)
            body = packer.compress(body) + packer.flush()
            headers["Content-Encoding"] = "deflate" if "deflate" in how else how[:4]
            if "Content-Range" in headers:
                headers["Content-Range"] = f"bytes {start}-{len(body) - 1}/{len(body)}"
            if how == "gzipcut" and self._asked[paper] == 1:
                how, headers["Content-Encoding"] = "truncated", "gzip"
        part = body[start:]
        if how == "truncated" and self._asked[paper] == 1:
            handler.send_response(status)
            for name, value in headers.items():
                handler.send_header(name, value)
            handler.send_header("Content-Length", str(len(part)))
            handler.end_headers()
            handler.wfile.write(part[: len(part) // 2])
            handler.wfile.flush()
            handler.close_connection = True
            return status
        if how == "chunkcut":  # chunked, cut after half, no last chunk (the first request)
            handler.send_response(status)
            for name, value in headers.items():
                handler.send_header(name, value)
            handler.send_header("Transfer-Encoding", "chunked")
            handler.end_headers()
            half = part[: len(part) // 2]
            handler.wfile.write(b"%x\r\n%s\r\n" % (len(half), half))
            handler.wfile.flush()
            handler.close_connection = True
            self.behaviour[paper] = "ok"
            return status
        if how in ("slow", "held"):
            handler.send_response(status)
            for name, value in headers.items():
                handler.send_header(name, value)
            handler.send_header("Content-Length", str(len(part)))
            handler.end_headers()
            for i in range(0, len(part), 4096):
                if how == "held" and start == 0 and i == HELD_BYTES:
                    self.release.wait(60)
                handler.wfile.write(part[i : i + 4096])
                handler.wfile.flush()
                time.sleep(self.slow_gap)
            return status
        return self._send(handler, status, part, headers)

    @staticmethod
    def _send(
        handler: http.server.BaseHTTPRequestHandler,
        status: int,
        body: bytes,
        headers: dict[str, str] | None = None,
    ) -> int:
        handler.send_response(status)
        for name, value in (headers or {}).items():
            handler.send_header(name, value)
        handler.send_header("Content-Length", str(len(body)))
        handler.end_headers()
        handler.wfile.write(body)
        return status


def library_list(path: Path, server: PdfServer, titles: dict[str, str]) -> Path:
    """A JSON list of papers whose pages are the server's forum pages (id → title); the
    server's ids are the OpenReview ids, not the library's."""
    import json

    records = [
        {
            "title": title,
            "abstract": f"We study {title.lower()} with care; the abstract of paper {key}.",
            "url": server.forum(key),
        }
        for key, title in titles.items()
    ]
    path.write_text(json.dumps(records), encoding="utf-8")
    return path
