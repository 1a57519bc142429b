"""A local stand-in for the web services a fetch talks to, on 127.0.0.1, for tests and benchmarks.

One ``http.server`` in a thread answers, in the shapes the real services answer in:

- ``/or2``: OpenReview API v2: ``/groups?id=`` (``{"groups": [...]}``), ``/notes`` by
  ``content.venueid`` or ``invitation``, paged by ``limit`` with ``offset`` or ``sort=id`` +
  ``after``, ``{"notes": [...], "count": N}``, ``details=directReplies`` adding the replies,
  values wrapped as ``{"value": x}``; ``/login``;
- ``/or1``: API v1: the same routes, plain values, ``offset`` paging, ``invitation`` per note;
- ``/pl``: Paper Copilot's files, ``/pl/{conf}/{conf}{year}.json``;
- ``/arxiv/query``: the arXiv API's Atom pages by ``search_query`` or ``id_list``, ``start``
  and ``max_results``.

``faults`` holds scripted misbehaviour (a status with headers, an HTML page, a cut-off or huge
body, silence, a wrong shape), each for a path prefix and a number of requests. Every request
is logged with its time. The records themselves are built by ``shapes.py``.
"""

from __future__ import annotations

import contextlib
import gzip
import re
import socket
import struct
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

import orjson


@dataclass
class Fault:
    """One scripted misbehaviour for requests whose path starts with ``prefix``."""

    prefix: str
    #: ``status`` (with ``headers`` and ``body``), ``html``, ``cut`` (Content-Length larger
    #: than the body sent), ``huge`` (a body of ``size`` bytes), ``silent`` (no answer for
    #: ``seconds``), ``body`` (200 with ``body`` as given), ``reset`` (the connection reset
    #: after ``body``, a TCP RST), ``gzip`` (``body`` sent gzip-compressed), ``trickle`` (200
    #: and ``body`` a byte every ``seconds``), ``hold`` (no answer until ``release`` is set,
    #: then the usual one: a request the test lets through when it chooses).
    kind: str
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes = b""
    size: int = 0
    seconds: float = 0.0
    #: How many requests it answers (then the service answers normally).
    times: int = 1
    #: How many matching requests it lets through first.
    skip: int = 0
    #: ``hold``: set to let the request held go on.
    release: threading.Event = field(default_factory=threading.Event)
    #: Query parameters a request must have too (``{"content.venueid": …}``: one query's).
    params: dict[str, str] = field(default_factory=dict)


@dataclass
class Logged:
    path: str
    query: dict[str, str]
    at: float
    headers: dict[str, str]


@dataclass
class Venue:
    """A venue on OpenReview: its group and its notes (each in the API's own shape)."""

    group: dict[str, Any]
    notes: list[dict[str, Any]]
    #: API v2 only: the group is there but has no ``domain`` (a v1 venue seen from v2).
    replies: dict[str, list[dict[str, Any]]] = field(default_factory=dict)


@dataclass
class Services:
    """What the stand-in serves; change it between requests as a test needs."""

    v2: dict[str, Venue] = field(default_factory=dict)
    v1: dict[str, Venue] = field(default_factory=dict)
    paperlists: dict[str, Any] = field(default_factory=dict)
    #: arXiv: entries (Atom XML strings, by shapes.atom_entry) by query, and by id.
    arxiv_queries: dict[str, list[str]] = field(default_factory=dict)
    arxiv_ids: dict[str, str] = field(default_factory=dict)
    faults: list[Fault] = field(default_factory=list)
    log: list[Logged] = field(default_factory=list)
    token: str = ""
    #: OpenReview: the most notes one answer holds, whatever its ``limit`` asks (a page cut
    #: short before the end, its ``count`` still that of every note); None: as asked.
    page_cap: int | None = None
    #: OpenReview v2: ``after`` (and ``sort``) ignored, pages by ``offset`` only.
    ignores_after: bool = False
    #: OpenReview v2: the replies a note's details give under ``replies`` (every reply of the
    #: forum, nested ones too: ``details=replies``) whatever ``details`` asks.
    replies_as_replies: bool = False

    def requests_to(self, prefix: str) -> list[Logged]:
        return [r for r in self.log if r.path.startswith(prefix)]


class _Handler(BaseHTTPRequestHandler):
    services: Services
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # quiet
        pass

    def do_POST(self) -> None:  # noqa: N802 - http.server's name
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        if self.path.endswith("/login"):
            data = orjson.loads(body or b"{}")
            if data.get("id") == "reader@example.org" and data.get("password") == "secret":
                self.services.token = "token-123"
                self._json(200, {"token": "token-123", "user": {"id": "~Reader1"}})
            else:
                self._json(400, {"name": "InvalidCredentials", "message": "Invalid username"})
            return
        self._json(404, {"message": "no such route"})

    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        parts = urlsplit(self.path)
        query = {k: v[-1] for k, v in parse_qs(parts.query, keep_blank_values=True).items()}
        self.services.log.append(
            Logged(
                parts.path, query, time.monotonic(), {k.lower(): v for k, v in self.headers.items()}
            )
        )
        if self._fault(parts.path, query):
            return
        path = parts.path
        try:
            if path.startswith("/or2/") or path.startswith("/or1/"):
                self._openreview(path[5:], query, version=2 if path.startswith("/or2") else 1)
            elif path.startswith("/pl/"):
                name = path.rsplit("/", 1)[-1].removesuffix(".json")
                if (
                    name in self.services.paperlists
                    and path == f"/pl/{name.rstrip('0123456789')}/{name}.json"
                ):
                    self._json(200, self.services.paperlists[name])
                else:
                    self._send(404, b"404: Not Found", "text/plain")
            elif path == "/arxiv/query":
                self._arxiv(query)
            else:
                self._send(404, b"<html><body>Not Found</body></html>", "text/html")
        except (BrokenPipeError, ConnectionResetError):
            pass

    # -- faults -----------------------------------------------------------------------------
    def _fault(self, path: str, query: dict[str, str]) -> bool:
        for fault in self.services.faults:
            if (
                fault.times > 0
                and path.startswith(fault.prefix)
                and all(query.get(k) == v for k, v in fault.params.items())
            ):
                if fault.skip > 0:
                    fault.skip -= 1
                    return False
                fault.times -= 1
                if fault.kind == "hold":
                    fault.release.wait(60)
                    return False
                self._play(fault)
                return True
        return False

    def _play(self, fault: Fault) -> None:
        if fault.kind == "status":
            kind = fault.headers.get("Content-Type", "application/json")
            rest = {k: v for k, v in fault.headers.items() if k != "Content-Type"}
            self._send(fault.status, fault.body, kind, rest)
        elif fault.kind == "html":
            self._send(fault.status, b"<!DOCTYPE html><html><body>Oops</body></html>", "text/html")
        elif fault.kind == "body":
            kind = fault.headers.get("Content-Type", "application/json")
            rest = {k: v for k, v in fault.headers.items() if k != "Content-Type"}
            self._send(200, fault.body, kind, rest)
        elif fault.kind == "cut":
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(fault.body) + 1000))
            self.end_headers()
            self.wfile.write(fault.body)
            self.wfile.flush()
            self.close_connection = True
        elif fault.kind == "huge":
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            chunk = b" " * 65536
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                for _ in range(fault.size // len(chunk)):
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                self.wfile.write(b"0\r\n\r\n")
            self.close_connection = True
        elif fault.kind == "silent":
            time.sleep(fault.seconds)
            self.close_connection = True
        elif fault.kind == "reset":
            self.wfile.write(fault.body)
            self.wfile.flush()
            # SO_LINGER of 0: close() sends a RST, as a dropped connection does
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.close_connection = True
        elif fault.kind == "gzip":
            self._send(
                200,
                gzip.compress(fault.body),
                fault.headers.get("Content-Type", "application/json"),
                {"Content-Encoding": "gzip"},
            )
        elif fault.kind == "trickle":
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(fault.body)))
            self.end_headers()
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                for byte in fault.body:
                    self.wfile.write(bytes([byte]))
                    self.wfile.flush()
                    time.sleep(fault.seconds)
            self.close_connection = True

    # -- OpenReview --------------------------------------------------------------------------
    def _openreview(self, route: str, query: dict[str, str], version: int) -> None:
        venues = self.services.v2 if version == 2 else self.services.v1
        if route == "groups":
            # one store of groups behind both APIs: each answers for the other's venues too
            others = self.services.v1 if version == 2 else self.services.v2
            venue = venues.get(query.get("id", "")) or others.get(query.get("id", ""))
            if venue is None:
                if version == 2:
                    self._json(
                        404,
                        {"name": "NotFoundError", "message": f"Group Not Found: {query.get('id')}"},
                    )
                else:
                    self._json(200, {"groups": []})
                return
            self._json(200, {"groups": [venue.group]})
            return
        if route != "notes":
            self._json(404, {"message": "no such route"})
            return
        notes = [n for v in venues.values() for n in v.notes if _matches(n, query, version)]
        if version == 2 and self.services.ignores_after:
            query = {k: v for k, v in query.items() if k not in ("after", "sort")}
        if query.get("sort") == "id":
            notes.sort(key=lambda n: n["id"])
        if query.get("after"):
            notes = [n for n in notes if n["id"] > query["after"]]
            count_total = None
        else:
            count_total = len(notes)
        offset = int(query.get("offset") or 0)
        limit = min(int(query.get("limit") or 1000), self.services.page_cap or 1000)
        page = notes[offset : offset + limit]
        if query.get("details") in ("directReplies", "replies"):
            replies = {k: r for v in venues.values() for k, r in v.replies.items()}
            key = "replies" if self.services.replies_as_replies else query["details"]
            page = [{**n, "details": {key: replies.get(n["id"], [])}} for n in page]
        answer: dict[str, Any] = {"notes": page}
        if count_total is not None:
            answer["count"] = count_total
        self._json(200, answer)

    # -- arXiv -------------------------------------------------------------------------------
    def _arxiv(self, query: dict[str, str]) -> None:
        from tests.fetch.shapes import atom_feed

        start = int(query.get("start") or 0)
        size = int(query.get("max_results") or 10)
        if query.get("id_list"):
            # as arXiv answers an id list: it counts and pages the ids asked, those it does not
            # have too, which give no entry (autobib/autobib#183: ``id_list=1201.56789`` says
            # totalResults 1 and has no entry; lukasschwab/arxiv.py#82: the page at ``start=1``
            # of ``0000.0000,1707.08567`` is 1707.08567 again)
            # an old-style id with its subject class (``math.GT/0309136``) is answered with
            # the paper's own id, which has none (``math/0309136``: arXiv/arxiv-browse's
            # ``Identifier`` keeps the archive alone, as arXiv's "identifier for services"
            # page writes ``math.CA/0611800v2`` as ``arXiv:math/0611800v2``)
            ids = [
                re.sub(r"v\d+$", "", re.sub(r"^([a-z-]+)\.[A-Za-z-]+/", r"\1/", i))
                for i in query["id_list"].split(",")
            ]
            known = self.services.arxiv_ids
            page = [known[i] for i in ids[start : start + size] if i in known]
            total = len(ids)
        else:
            entries = self.services.arxiv_queries.get(query.get("search_query", ""), [])
            page, total = entries[start : start + size], len(entries)
        body = atom_feed(page, total=total, start=start, per_page=size)
        self._send(200, body.encode(), "application/atom+xml; charset=utf-8")

    # -- sending -----------------------------------------------------------------------------
    def _json(self, status: int, data: Any) -> None:
        self._send(status, orjson.dumps(data), "application/json; charset=utf-8")

    def _send(
        self, status: int, body: bytes, content_type: str, headers: dict[str, str] | None = None
    ) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(body)


def _matches(note: dict[str, Any], query: dict[str, str], version: int) -> bool:
    content = note.get("content", {})
    if "content.venueid" in query:
        venueid = content.get("venueid")
        if isinstance(venueid, dict):
            venueid = venueid.get("value")
        return bool(venueid == query["content.venueid"])
    if "invitation" in query:
        if version == 2:
            return query["invitation"] in note.get("invitations", [])
        return bool(note.get("invitation") == query["invitation"])
    return False


@contextlib.contextmanager
def serving(services: Services) -> Iterator[str]:
    """Serve ``services`` on 127.0.0.1 while the block runs; yields the base URL."""
    handler = type("Handler", (_Handler,), {"services": services})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def environment(base: str) -> dict[str, str]:
    """The variables that point every service of papers at the stand-in (and no proxy)."""
    return {
        "PAPERS_OPENREVIEW_API": f"{base}/or2",
        "PAPERS_OPENREVIEW_API_V1": f"{base}/or1",
        "PAPERS_PAPERLISTS_URL": f"{base}/pl",
        "PAPERS_ARXIV_API": f"{base}/arxiv/query",
    }


PROXY_VARIABLES = (
    "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY",
    "http_proxy", "https_proxy", "all_proxy", "no_proxy",
)  # fmt: skip


def wait_until(condition: Callable[[], bool], seconds: float = 5.0) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.01)
    return condition()
