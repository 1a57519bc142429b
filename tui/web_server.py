"""The web server of ``papers serve``: textual-serve's, made safe to leave running.

textual-serve (Textualize's package) serves a page running xterm.js and, for each browser
tab, starts the app in a child process behind a websocket (``AppService``). Around it:

- **Who may come in.** Bound to a loopback address, the server answers only requests whose
  ``Host`` names this machine (a web page that re-points its own name at 127.0.0.1 gets
  nothing). On any other address it wants the secret token printed at start, in the URL
  (``/?token=…``) or in the cookie that URL sets; without it every request, the websocket
  first, gets 403 and no app is started. A websocket opened by a page of another origin is
  refused in both cases (websockets are not held by the same-origin rule).
- **The page.** textual-serve's own, less the font fetched from a third party, with a
  viewport for phones and the websocket of the address the page came from
  (``web_page/app_index.html``); the token never leaves in a ``Referer``.
- **The children.** Each tab's app is ``python -m tui.web_child --home HOME`` (the same
  library), in a session of its own so that ctrl+c reaches the server only; at most
  ``MAX_SESSIONS`` at once.
- **Stopping.** SIGINT, SIGTERM and SIGHUP close every websocket; each child is asked to quit
  as a closed tab asks it (its decisions are saved as it exits), then killed if it has not
  after ``STOP_SECONDS``.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import hmac
import ipaddress
import json
import logging
import os
import signal
import socket
import sys
from collections.abc import AsyncGenerator, Awaitable, Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import aiohttp_jinja2
import jinja2
from aiohttp import WSCloseCode, web
from aiohttp.typedefs import Handler
from textual_serve.app_service import AppService
from textual_serve.download_manager import Download, DownloadManager
from textual_serve.server import Server

from storage.errors import LibraryError
from tui.web_child import DRIVER, ORIGIN_VARIABLE, SERVER_VARIABLE

#: Seconds a child is given to quit (and save) once asked, before it is ended by force.
STOP_SECONDS = 12.0
#: Browser tabs served at once (each is an app process of its own).
MAX_SESSIONS = 16
#: Seconds a download waits for its next chunk from the tab's app before it is given up.
CHUNK_SECONDS = 30.0
#: Bytes of a download asked of the app at a time.
CHUNK_BYTES = 64 * 1024
#: Seconds an ended app is given to finish its last words (its error) and exit.
ENDED_SECONDS = 5.0
#: Bytes of an app's standard error kept (its last line is why it ended).
SAID_BYTES = 16 * 1024
#: The message that tells the page why its app ended: ``["papers_ended", LINE]``.
ENDED_MESSAGE = "papers_ended"
PAGE_FOLDER = Path(__file__).with_name("web_page")

log = logging.getLogger("papers-serve")


class ServeError(LibraryError):
    """``papers serve`` cannot start: the port is taken, the host is not this machine's…"""


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a name or an address, IPv6 in brackets or not) is this machine."""
    name = host.strip("[]").lower().rstrip(".")
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def listen(host: str, port: int) -> socket.socket:
    """A socket listening on ``host``:``port`` (0: any free port), or why there is none."""
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as exc:
        reason = exc.strerror if isinstance(exc, socket.gaierror) else str(exc)
        raise ServeError(f"cannot listen on {host!r}: {reason}") from None
    family, kind, proto, _, address = min(found, key=lambda info: info[0] != socket.AF_INET)
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
    except OSError as exc:
        sock.close()
        raise ServeError(_bind_problem(exc, host, port)) from None
    sock.setblocking(False)
    return sock


def _bind_problem(exc: OSError, host: str, port: int) -> str:
    if exc.errno == errno.EADDRINUSE:
        return (
            f"port {port} on {host} is taken (another program listens there): "
            "choose another with --port"
        )
    if exc.errno == errno.EACCES:
        return f"not allowed to listen on port {port} (below 1024 needs root): choose another"
    if exc.errno == errno.EADDRNOTAVAIL:
        return f"{host} is not an address of this machine: choose one of its own with --host"
    return f"cannot listen on {host}:{port}: {exc.strerror or exc}"


class DownloadFailed(Exception):
    """A download the tab's app stopped sending (the tab was closed, or the app is stuck)."""


class Downloads(DownloadManager):
    """textual-serve's downloads (an export or a screenshot, sent by the tab's app a chunk at
    a time), each sent once, with a longer wait for each chunk and an end that says why.
    textual-serve 1.1.3 gives up after 4 s (a busy machine can take that long) with a
    traceback in the log (it marks done a chunk it never got), ends the download of a tab
    closed meanwhile as if it were whole, and lets two requests of one download share its
    chunks."""

    def __init__(self) -> None:
        super().__init__()
        self._taken: set[str] = set()

    async def take(self, delivery_key: str) -> Download:
        """The download ``delivery_key``, to be sent once: ``KeyError`` if there is none, or
        it is being sent already."""
        if delivery_key in self._taken:
            raise KeyError(delivery_key)
        download = await self.get_download_metadata(delivery_key)
        self._taken.add(delivery_key)
        return download

    async def cancel_app_downloads(self, app_service_id: str) -> None:
        """A tab's app ends: the downloads being sent fail, those never asked for are let go."""
        for key, download in list(self._active_downloads.items()):
            if download.app_service.app_service_id != app_service_id:
                continue
            if key in self._taken:
                await download.incoming_chunks.put(None)
            else:
                del self._active_downloads[key]

    async def download(self, delivery_key: str) -> AsyncGenerator[bytes, None]:
        """The chunks of the download ``delivery_key``, asked of its app one at a time until
        it sends an empty one; ``DownloadFailed`` when it stops answering."""
        download = await self.get_download_metadata(delivery_key)
        chunks = download.incoming_chunks
        try:
            while True:
                asked = await download.app_service.send_meta(
                    {
                        "type": "deliver_chunk_request",
                        "key": delivery_key,
                        "size": CHUNK_BYTES,
                        "name": download.name,
                    }
                )
                if not asked:
                    raise DownloadFailed("the tab's app has ended")
                try:
                    chunk = await asyncio.wait_for(chunks.get(), CHUNK_SECONDS)
                except TimeoutError:
                    raise DownloadFailed(
                        f"the tab's app sent nothing for {CHUNK_SECONDS:.0f} s"
                    ) from None
                if chunk is None:  # the tab closed (``cancel_app_downloads``)
                    raise DownloadFailed("its tab closed before it was sent")
                if not chunk:  # the app's last, empty chunk: the whole file is sent
                    return
                yield chunk
        finally:
            self._active_downloads.pop(delivery_key, None)
            self._taken.discard(delivery_key)


class ChildApp(AppService):
    """One browser tab's app: ``papers`` on the same library, told the page's origin."""

    def __init__(
        self,
        home: Path,
        origin: str,
        *,
        write_bytes: Callable[[bytes], Awaitable[None]],
        write_str: Callable[[str], Awaitable[None]],
        close: Callable[[], Awaitable[None]],
        download_manager: DownloadManager,
    ) -> None:
        super().__init__(
            "papers",
            write_bytes=write_bytes,
            write_str=write_str,
            close=close,
            download_manager=download_manager,
        )
        self.home = home
        self.origin = origin

    async def _open_app_process(self, width: int = 80, height: int = 24) -> Any:
        environment = self._build_environment(width=width, height=height)
        environment[ORIGIN_VARIABLE] = self.origin
        environment["TEXTUAL_DRIVER"] = DRIVER
        environment[SERVER_VARIABLE] = str(os.getpid())
        pipe = asyncio.subprocess.PIPE
        self._process = process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "tui.web_child",
            "--home",
            str(self.home),
            stdin=pipe,
            stdout=pipe,
            stderr=pipe,
            env=environment,
            start_new_session=True,  # ctrl+c in the server's terminal reaches the server only
        )
        self._stdin = process.stdin
        return process

    async def run(self) -> None:
        """Pass the app's output to its tab until it ends, then close the tab: an app that
        was killed (out of memory, a signal) leaves no page that looks alive but answers
        nothing, and no download waiting for it. An app that could not start, or ended on an
        error (a library file damaged meanwhile), has its one-line error said to the page
        (``["papers_ended", LINE]``, shown in the page's closing dialog) and in the server's
        log once, where textual-serve printed it twice, raw, to the log alone. It does what
        textual-serve's own ``run`` does with the packets, in its place (``tui/upstream.py``)."""
        process = self._process
        assert process is not None and process.stdout is not None
        said = bytearray()
        reading = asyncio.create_task(_read_into(process.stderr, said))
        started = False
        try:
            started = await _prelude(process.stdout)
            if started:
                await self._pass_packets(process.stdout)
        except (asyncio.IncompleteReadError, ConnectionResetError):
            pass
        except asyncio.CancelledError:  # stopped by force (``stop``): no last words to wait for
            reading.cancel()
            await self.remote_close()
            return
        # the app has closed its output: its last words (an error) and its exit follow
        try:
            await asyncio.wait_for(reading, ENDED_SECONDS)
            await asyncio.wait_for(process.wait(), ENDED_SECONDS)
        except TimeoutError:
            reading.cancel()
        reason = ending_reason(bytes(said), process.returncode, started=started)
        if reason is not None:
            log.warning("a tab's app %s: %s", "ended" if started else "did not start", reason)
            with contextlib.suppress(Exception):  # the tab may be gone already
                await self.remote_write_str(json.dumps([ENDED_MESSAGE, reason]))
        await self.remote_close()

    async def _pass_packets(self, stdout: asyncio.StreamReader) -> None:
        """The app's packets (screen data, meta, download chunks) to the tab, until it ends."""
        while True:
            kind = await stdout.readexactly(1)
            size = int.from_bytes(await stdout.readexactly(4), "big")
            payload = await stdout.readexactly(size)
            if kind == b"D":
                await self.on_data(payload)
            elif kind == b"M":
                await self.on_meta(payload)
            elif kind == b"P":
                await self.on_packed(payload)

    @property
    def pid(self) -> int | None:
        """The child's process id, once started."""
        return None if self._process is None else self._process.pid

    async def stop(self) -> None:
        """Ask the app to quit (it saves as it exits); end it by force after STOP_SECONDS."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(super().stop(), STOP_SECONDS)
        process = self._process
        if process is None or process.returncode is not None:
            return
        for end, wait in ((process.terminate, 3.0), (process.kill, 3.0)):
            with contextlib.suppress(ProcessLookupError):
                end()
            try:
                await asyncio.wait_for(process.wait(), wait)
                return
            except TimeoutError:
                continue


async def _read_into(stream: asyncio.StreamReader | None, said: bytearray) -> None:
    """Keep what ``stream`` (an app's standard error) says, its last ``SAID_BYTES``."""
    if stream is None:
        return
    while chunk := await stream.read(4096):
        said += chunk
        del said[:-SAID_BYTES]


async def _prelude(stdout: asyncio.StreamReader) -> bool:
    """Whether the app started: Textual's driver writes ``__GANGLION__`` first (within ten
    lines); an app that ended before, on an error, wrote nothing of it."""
    for _ in range(10):
        line = await stdout.readline()
        if not line:
            return False
        if line == b"__GANGLION__\n":
            return True
    return False


def ending_reason(said: bytes, code: int | None, *, started: bool) -> str | None:
    """Why a tab's app ended, as the page and the log say it: the last line it wrote on its
    standard error (``papers: error: …/triage.json is damaged …``, the line the terminal app
    prints), with every character visible; None for an app that ended as asked (a closed
    tab, the server stopping)."""
    from storage.text.sanitize import printable

    if started and code in (0, None):
        return None
    if code is not None and code < 0:
        # stopped by a signal (the server's own, or the machine's): not an error, and what
        # the app wrote before it (a warning as it started) is no reason for its end
        return None
    lines = [line.strip() for line in said.decode("utf-8", "replace").splitlines()]
    lines = [line for line in lines if line]
    if lines:
        return printable(lines[-1])[:1000]
    if started or code is None:
        return None
    return f"the app could not start (exit code {code}), and said nothing"


class PapersServer(Server):
    """textual-serve's server for the library in ``home``, on a socket already listening."""

    def __init__(self, home: Path, sock: socket.socket, *, token: str | None) -> None:
        host, port = sock.getsockname()[:2]
        super().__init__("papers", host=host, port=port, title="papers")
        self.templates_path = PAGE_FOLDER
        self.home = home
        self.sock = sock
        self.token = token
        self.loopback = is_loopback(host)
        self.cookie = f"papers-serve-{port}"
        self.sockets: set[web.WebSocketResponse] = set()
        self.children: set[ChildApp] = set()
        self.download_manager: Downloads = Downloads()

    # -- the web application ---------------------------------------------------------------
    async def _make_app(self) -> web.Application:
        @web.middleware
        async def guard(request: web.Request, handler: Handler) -> web.StreamResponse:
            return await self.guard(request, handler)

        app = web.Application(middlewares=[guard])
        aiohttp_jinja2.setup(app, loader=jinja2.FileSystemLoader(self.templates_path))
        app.add_routes(
            [
                web.get("/", self.page, name="index"),
                web.get("/ws", self.session, name="websocket"),
                web.get("/download/{key}", self.download, name="download"),
                web.static("/static", self.statics_path, name="static"),
            ]
        )
        app.on_shutdown.append(self.on_shutdown)
        return app

    async def guard(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Every request passes here first: refused (403) before any handler runs."""
        refusal = self.refusal(request)
        if refusal is not None:
            log.warning("refused %s %s: %s", request.remote, request.path, refusal)
            return web.Response(status=403, text=f"papers serve: {refusal}\n")
        return await handler(request)

    def refusal(self, request: web.Request) -> str | None:
        """Why ``request`` may not reach the library (None: it may)."""
        try:
            host = request.url.host or ""
        except ValueError:  # a Host header that is no host
            host = ""
        if self.loopback and not is_loopback(host):
            return f"this server answers only at this machine's address ({self.public_url})"
        origin = request.headers.get("Origin")
        if request.path == "/ws" and origin is not None:
            try:
                same = urlsplit(origin).netloc.lower() == request.host.lower()
            except ValueError:
                same = False
            if not same:
                return "a page of another site may not open this library"
        if self.token is not None and not self._token_shown(request):
            return "open the address with its token, as papers serve printed it"
        return None

    def _token_shown(self, request: web.Request) -> bool:
        assert self.token is not None
        for shown in (request.query.get("token"), request.cookies.get(self.cookie)):
            if shown and hmac.compare_digest(shown.encode(), self.token.encode()):
                return True
        return False

    async def page(self, request: web.Request) -> web.StreamResponse:
        """The page: xterm.js and the websocket of this address."""
        scheme = "wss" if request.secure else "ws"
        font_size = min(max(_whole(request.query.get("fontsize"), 16), 6), 64)
        context = {
            "font_size": font_size,
            "app_websocket_url": f"{scheme}://{request.host}/ws",
            "config": {"static": {"url": "/static/"}},
            "application": {"name": self.title},
        }
        response = aiohttp_jinja2.render_template("app_index.html", request, context)
        response.headers["Cache-Control"] = "no-store"
        response.headers["Referrer-Policy"] = "no-referrer"  # opened links never see the token
        response.headers["X-Frame-Options"] = "DENY"  # no other page draws this one in a frame
        if self.token is not None and request.query.get("token"):
            response.set_cookie(self.cookie, self.token, httponly=True, samesite="Strict")
        return response

    async def download(self, request: web.Request) -> web.StreamResponse:
        """A file the tab's app offers (``App.deliver_text``), as it sends it; a download it
        stops sending is cut off, so that the browser says it failed rather than keep a part."""
        key = request.match_info["key"]
        try:
            offered = await self.download_manager.take(key)
        except KeyError:
            text = "papers serve: no such download (it was taken already)\n"
            raise web.HTTPNotFound(text=text) from None
        response = web.StreamResponse()
        response.content_type = offered.mime_type or "application/octet-stream"
        if offered.encoding:
            response.charset = offered.encoding
        disposition = "inline" if offered.open_method == "browser" else "attachment"
        response.headers["Content-Disposition"] = f"{disposition}; filename={offered.file_name}"
        await response.prepare(request)
        try:
            async for chunk in self.download_manager.download(key):
                await response.write(chunk)
        except DownloadFailed as failed:
            log.warning("download of %s cut off: %s", offered.file_name, failed)
            if request.transport is not None:
                request.transport.abort()
            return response
        await response.write_eof()
        return response

    async def session(self, request: web.Request) -> web.StreamResponse:
        """A browser tab's websocket: its own app child, for as long as the tab is open."""
        if len(self.children) >= MAX_SESSIONS:
            text = f"papers serve: {MAX_SESSIONS} tabs are open already: close one\n"
            return web.Response(status=503, text=text)
        websocket = web.WebSocketResponse(heartbeat=15)
        width = min(max(_whole(request.query.get("width"), 80), 10), 1000)
        height = min(max(_whole(request.query.get("height"), 24), 5), 500)
        origin = request.headers.get("Origin") or f"{request.scheme}://{request.host}"

        async def close() -> None:
            await websocket.close()

        child = ChildApp(
            self.home,
            origin,
            write_bytes=websocket.send_bytes,
            write_str=websocket.send_str,
            close=close,
            download_manager=self.download_manager,
        )
        self.sockets.add(websocket)
        try:
            await websocket.prepare(request)
            self.children.add(child)
            await child.start(width, height)
            log.info("tab opened (app %s)", child.pid)
            await self._process_messages(websocket, child)
        except asyncio.CancelledError:
            await websocket.close()
        except Exception as error:  # noqa: BLE001 - a bad message ends this tab, not the server
            log.warning("tab closed after an error: %s", error)
        finally:
            await child.stop()
            self.children.discard(child)
            self.sockets.discard(websocket)
            log.info("tab closed (app %s)", child.pid)
        return websocket

    async def on_shutdown(self, app: web.Application) -> None:
        """Close every tab: each child is asked to quit, and saves as it exits."""
        closing = [
            ws.close(code=WSCloseCode.GOING_AWAY, message=b"papers serve stopped")
            for ws in list(self.sockets)
        ]
        await asyncio.gather(*closing, return_exceptions=True)
        await asyncio.gather(*(child.stop() for child in list(self.children)))

    # -- running ---------------------------------------------------------------------------
    async def run(self, started: Callable[[], None]) -> None:
        """Serve until SIGINT, SIGTERM or SIGHUP; ``started`` is called once listening."""
        runner = web.AppRunner(
            await self._make_app(), access_log=None, shutdown_timeout=STOP_SECONDS + 3
        )
        await runner.setup()
        await web.SockSite(runner, self.sock).start()
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            loop.add_signal_handler(number, stop.set)
        started()
        try:
            await stop.wait()
        finally:
            await runner.cleanup()
            await asyncio.gather(*(child.stop() for child in list(self.children)))


def _whole(text: str | None, default: int) -> int:
    try:
        return int(text) if text is not None else default
    except ValueError:
        return default
