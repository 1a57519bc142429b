"""``papers serve`` over plain HTTP and websockets: who gets in, what starts, how it ends.

The real server runs as a subprocess on a free port of 127.0.0.1 (``--port 0``) with a
temporary HOME; requests are made with ``http.client`` and aiohttp's websocket client. A tab
is a websocket: its app child types what the test sends, as the page's xterm.js would.
"""

from __future__ import annotations

import asyncio
import http.client
import ipaddress
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from benchmarks._browser import Served, alive, papers_command, serve
from storage import Library, Status

pytestmark = pytest.mark.usefixtures("needs_serve")

WEB_MODULES = ("textual_serve", "aiohttp", "aiohttp_jinja2", "tui.web_server")
UPGRADE = {
    "Connection": "Upgrade",
    "Upgrade": "websocket",
    "Sec-WebSocket-Version": "13",
    "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
}


def get(
    served: Served, path: str, headers: dict[str, str] | None = None
) -> tuple[int, dict[str, str], str]:
    """GET ``path`` from the server at 127.0.0.1: status, headers, body."""
    connection = http.client.HTTPConnection("127.0.0.1", served.port, timeout=10)
    try:
        connection.request("GET", path, headers=headers or {})
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read().decode()
    finally:
        connection.close()


@asynccontextmanager
async def tab(served: Served, cookie: str = "") -> AsyncIterator[Tab]:
    """A browser tab as the page opens one: the websocket, and what its app draws."""
    import aiohttp

    headers = {"Origin": f"http://127.0.0.1:{served.port}"}
    if cookie:
        headers["Cookie"] = cookie
    async with aiohttp.ClientSession() as session:
        url = f"http://127.0.0.1:{served.port}/ws?width=120&height=36"
        async with session.ws_connect(url, headers=headers) as websocket:
            yield Tab(websocket)


class Tab:
    """The websocket of a tab: keys in, the app's terminal output collected."""

    def __init__(self, websocket: Any) -> None:
        self.websocket = websocket
        self.drawn = b""
        #: What the server told the page besides the screen (``["deliver_file_start", key]``…).
        self.told: list[list[Any]] = []

    async def press(self, keys: str) -> None:
        await self.websocket.send_str(json.dumps(["stdin", keys]))

    async def wait_for(self, marker: bytes, timeout: float = 20.0) -> None:
        """Read the app's output until ``marker`` is in it."""
        await self.read_until(lambda: marker in self.drawn, repr(marker), timeout)

    async def read_until(self, done: Any, what: str, timeout: float = 20.0) -> None:
        """Read what the server sends the page until ``done()``."""
        import aiohttp

        deadline = time.monotonic() + timeout
        while not done():
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"{what} never came; last drawn: {self.drawn[-300:]!r}")
            message = await self.websocket.receive(timeout=left)
            if message.type == aiohttp.WSMsgType.BINARY:
                self.drawn += message.data
            elif message.type == aiohttp.WSMsgType.TEXT:
                self.told.append(json.loads(message.data))
            elif message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED):
                raise ConnectionError(f"the tab closed before {what} came")

    async def export(self) -> str:
        """Export the list shown (``e``, then enter): the key of the download it offers."""
        told = len(self.told)

        def offered() -> list[str]:
            return [said[1] for said in self.told[told:] if said[0] == "deliver_file_start"]

        self.drawn = b""
        await self.press("e")
        await self.wait_for(b"Download as")
        await self.press("\r")
        await self.read_until(offered, "the download")
        [key] = offered()
        return key


def wait_until(test: Any, timeout: float = 15.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if test():
            return True
        time.sleep(0.02)
    return bool(test())


@pytest.fixture
def served(seeded_home: Path) -> Any:
    server = serve(seeded_home)
    yield server
    server.stop(signal.SIGKILL)


def test_papers_and_its_other_commands_never_load_the_web_server(seeded_home: Path) -> None:
    script = f"""
import sys
from tui.cli import main
import tui.app, tui.links, tui.screens.export, tui.web
main(["--home", {str(seeded_home)!r}, "list", "--status", "starred"])
try:
    main(["serve", "--help"])
except SystemExit:
    pass
print(sorted(m for m in sys.modules if m.startswith({WEB_MODULES!r})))
"""
    ran = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert ran.stdout.strip().splitlines()[-1] == "[]", ran.stdout + ran.stderr


def test_on_loopback_the_page_opens_but_only_by_this_machines_name(served: Served) -> None:
    status, headers, body = get(served, "/")
    assert status == 200
    assert 'data-session-websocket-url="ws://127.0.0.1:' in body
    assert "googleapis" not in body  # no page of a third party is fetched
    assert headers["Referrer-Policy"] == "no-referrer"
    # a page that points its own name at 127.0.0.1 (DNS rebinding) gets nothing
    status, _, body = get(served, "/", {"Host": f"papers.attacker.invalid:{served.port}"})
    assert status == 403 and "this machine's address" in body
    status, _, _ = get(served, "/ws", {**UPGRADE, "Host": "papers.attacker.invalid"})
    assert status == 403
    # a page of another site may not open a tab on the library
    foreign = {**UPGRADE, "Origin": "http://papers.attacker.invalid"}
    status, _, body = get(served, "/ws?width=80&height=24", foreign)
    assert status == 403 and "another site" in body
    time.sleep(0.3)
    assert served.children() == []


async def test_off_loopback_a_request_without_the_token_gets_403_and_starts_no_app(
    seeded_home: Path,
) -> None:
    server = serve(seeded_home, "--host", "0.0.0.0")
    try:
        [token] = set(re.findall(r"\?token=([\w-]+)", "".join(server.output)))
        for path, headers in (
            ("/", {}),
            ("/?token=wrong", {}),
            ("/ws?width=80&height=24", UPGRADE),
            ("/ws?width=80&height=24&token=wrong", UPGRADE),
            ("/static/js/textual.js", {}),
            ("/download/anything", {}),
            ("/", {"Cookie": f"papers-serve-{server.port}=wrong"}),
        ):
            status, _, body = get(server, path, headers)
            assert status == 403, (path, status)
            assert "token" in body
        time.sleep(0.5)
        assert server.children() == [], "a request without the token started an app"

        # with it: the page, a cookie for its scripts, downloads and websocket
        status, headers, _ = get(server, f"/?token={token}")
        assert status == 200
        cookie = headers["Set-Cookie"].split(";")[0]
        assert cookie == f"papers-serve-{server.port}={token}"
        assert "HttpOnly" in headers["Set-Cookie"] and "SameSite=Strict" in headers["Set-Cookie"]
        assert get(server, "/static/js/textual.js", {"Cookie": cookie})[0] == 200
        async with tab(server, cookie) as opened:
            await opened.wait_for(b"triaged")
            assert len(server.children()) == 1
        assert wait_until(lambda: server.children() == [])
        assert server.output.count(f"?token={token}") <= 1  # printed once
    finally:
        server.stop(signal.SIGKILL)


def interface_addresses() -> set[str]:
    """This machine's IPv4 addresses, interface by interface (Linux's ``SIOCGIFADDR``): not
    the way ``papers serve`` finds them. Empty where that ioctl is not."""
    import fcntl
    import struct

    found = set()
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        for _, name in socket.if_nameindex():
            asked = struct.pack("256s", name.encode()[:15])
            try:
                answer = fcntl.ioctl(probe.fileno(), 0x8915, asked)  # SIOCGIFADDR
            except OSError:
                continue  # no IPv4 address
            found.add(socket.inet_ntoa(answer[20:24]))
    return {address for address in found if not address.startswith("127.")}


def test_on_every_address_it_prints_the_machines_addresses_not_its_name(
    seeded_home: Path,
) -> None:
    """--host 0.0.0.0 printed http://HOSTNAME:PORT/, a name a tablet on the same network often
    cannot resolve (here it names 127.0.0.1 alone): the machine's own addresses instead, each
    one that answers with the page, then the loopback one."""
    server = serve(seeded_home, "--host", "0.0.0.0")
    try:
        assert wait_until(lambda: "ctrl+c stops it" in "".join(server.output))
        said = "".join(server.output)
        printed = re.findall(r"http://([^/\s]+):(\d+)/\?token=([\w-]+)", said)
        assert {port for _, port, _ in printed} == {str(server.port)}
        [token] = {token for _, _, token in printed}
        hosts = [host for host, _, _ in printed]
        assert hosts[-1] == "127.0.0.1", said
        assert socket.gethostname() not in hosts
        for host in hosts[:-1]:
            assert not ipaddress.ip_address(host).is_loopback  # an address, not a name
            with socket.socket() as probe:
                probe.bind((host, 0))  # one of this machine's own
        own = interface_addresses()
        if own:
            assert own & set(hosts), (own, said)
            # a printed address serves the page (asked from a child: this process connects
            # to loopback only)
            host = sorted(own & set(hosts))[0]
            asked = (
                "import http.client, sys;"
                f"c = http.client.HTTPConnection({host!r}, {server.port}, timeout=10);"
                f"c.request('GET', '/?token={token}');"
                "print(c.getresponse().status)"
            )
            ran = subprocess.run([sys.executable, "-c", asked], capture_output=True, text=True)
            assert ran.stdout.strip() == "200", ran.stderr
        assert get(server, f"/?token={token}")[0] == 200  # and the loopback one
    finally:
        server.stop(signal.SIGKILL)


@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGINT])
async def test_stopping_the_server_saves_each_tabs_decisions_and_ends_its_app(
    seeded_home: Path, how: signal.Signals
) -> None:
    server = serve(seeded_home)
    first = Library(seeded_home).papers()[0]
    try:
        async with tab(server) as opened:
            await opened.wait_for(b"triaged")
            [child] = server.children()
            await opened.press("s")
            await opened.wait_for(b"Starred 1")  # shown: now stop the server at once
            server.proc.send_signal(how)
            assert server.proc.wait(timeout=30) == 0
    finally:
        server.stop(signal.SIGKILL)
    assert Library(seeded_home).triage().status(first.id) == Status.STARRED
    assert wait_until(lambda: not alive(child), timeout=5)
    assert "stopped" in "".join(server.output)
    assert "Traceback" not in "".join(server.output)


async def test_a_killed_server_takes_its_apps_with_it_decisions_saved(seeded_home: Path) -> None:
    server = serve(seeded_home)
    first = Library(seeded_home).papers()[0]
    try:
        async with tab(server) as opened:
            await opened.wait_for(b"triaged")
            [child] = server.children()
            await opened.press("x")
            await opened.wait_for(b"Skipped 1")
            server.proc.kill()
            server.proc.wait(timeout=10)
            assert wait_until(lambda: not alive(child), timeout=15), "the app outlived the server"
    finally:
        server.stop(signal.SIGKILL)
    assert Library(seeded_home).triage().status(first.id) == Status.SKIPPED


async def test_a_second_signal_while_the_last_decision_waits_for_the_disk_loses_nothing(
    seeded_home: Path,
) -> None:
    """A SIGTERM that came while the app was saving (after its event loop had closed and set
    the signal back to its default, as a killed server's tab met it: its pipes closed, the app
    ended, then the death signal came) ended it with the decision shown but not written."""
    server = serve(seeded_home)
    library = Library(seeded_home)
    first = library.papers()[0]
    try:
        async with tab(server) as opened:
            await opened.wait_for(b"triaged")
            [child] = server.children()
            with library.triage_lock:  # a slow disk: the decision waits for it
                await opened.press("x")
                await opened.wait_for(b"Skipped 1")
                os.kill(child, signal.SIGTERM)
                await asyncio.sleep(0.3)  # the app has ended and waits for the disk
                os.kill(child, signal.SIGTERM)
                await asyncio.sleep(0.2)
                assert alive(child), "a second signal ended the app before its decision was saved"
            assert wait_until(lambda: not alive(child), timeout=15), "the app did not end"
    finally:
        server.stop(signal.SIGKILL)
    assert Library(seeded_home).triage().status(first.id) == Status.SKIPPED


def test_a_taken_port_is_one_line_and_exit_code_1(seeded_home: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        ran = subprocess.run(
            [*papers_command(), "serve", "--home", str(seeded_home), "--port", str(port)],
            capture_output=True,
            text=True,
            timeout=30,
        )
    assert ran.returncode == 1
    assert ran.stderr == (
        f"papers: error: port {port} on 127.0.0.1 is taken (another program listens there): "
        "choose another with --port\n"
    )
    assert ran.stdout == ""


@pytest.mark.parametrize("port", ["65536", "-1", "http"])
def test_a_port_that_is_no_port_is_a_usage_error(seeded_home: Path, port: str) -> None:
    ran = subprocess.run(
        [*papers_command(), "serve", "--home", str(seeded_home), "--port", port],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert ran.returncode == 2
    assert ran.stderr.count("\n") == 1 and "--port" in ran.stderr


def test_each_tab_is_its_own_app_on_the_same_library(served: Served, seeded_home: Path) -> None:
    async def two_tabs() -> None:
        async with tab(served) as one, tab(served) as two:
            await asyncio.gather(one.wait_for(b"triaged"), two.wait_for(b"triaged"))
            assert len(served.children()) == 2
            await one.press("s")  # the first paper starred in one tab…
            await two.wait_for(b"Starred 1")  # …the other tab shows it within a second
            await two.press("j")
            await two.press("x")  # the second paper skipped in the other
            await one.wait_for(b"Skipped 1")

    asyncio.run(two_tabs())
    first = Library(seeded_home).papers()[0]
    statuses = Library(seeded_home).triage().statuses
    assert {pid for pid, s in statuses.items() if s == Status.STARRED} == {first.id}
    skipped = [pid for pid, s in statuses.items() if s == Status.SKIPPED]
    assert len(skipped) == 1 and skipped != [first.id]


async def test_an_export_is_downloaded_whole_once_and_one_cut_off_fails_in_one_line(
    served: Served, seeded_home: Path
) -> None:
    exported = subprocess.run(
        [*papers_command(), "export", "--home", str(seeded_home), "--status", "inbox"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    async with tab(served) as opened:
        await opened.wait_for(b"triaged")
        [child] = served.children()
        key = await opened.export()
        status, headers, body = await asyncio.to_thread(get, served, f"/download/{key}")
        assert status == 200
        assert headers["Content-Disposition"] == "attachment; filename=papers-inbox.md"
        assert body == exported  # what ``papers export`` writes, whole
        assert (await asyncio.to_thread(get, served, f"/download/{key}"))[0] == 404  # once

        # an export never asked for, then one whose app stops answering, then is killed
        never_asked = await opened.export()
        key = await opened.export()
        os.kill(child, signal.SIGSTOP)
        fetching = asyncio.create_task(asyncio.to_thread(get, served, f"/download/{key}"))
        await asyncio.sleep(0.5)
        assert not fetching.done()
        # a second request of it gets none of its chunks
        assert (await asyncio.to_thread(get, served, f"/download/{key}"))[0] == 404
        os.kill(child, signal.SIGKILL)
        with pytest.raises(http.client.IncompleteRead):  # not a part of the file, as if whole
            await asyncio.wait_for(fetching, 20)
        with pytest.raises(ConnectionError):  # and the tab of the killed app is closed
            await opened.wait_for(b"never drawn")
        assert (await asyncio.to_thread(get, served, f"/download/{never_asked}"))[0] == 404
    cut = "download of papers-inbox.md cut off: its tab closed before it was sent"
    assert wait_until(lambda: cut in "".join(served.output)), served.output
    assert "Traceback" not in "".join(served.output)
