"""The browser tab's driver writes each packet whole, from any thread: a download's chunks
(the input thread) and the screen's frames (the app's thread) at once, to a server that
reads slowly, reach it as the packets they were (a real pipe, a real child process)."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

#: Packets of each kind the child writes, each well over a pipe's atomic 4 kB.
PACKETS = 60
SIZE = 40_000

CHILD = f"""
import asyncio
import threading
from textual.app import App
from tui.web_driver import PacketDriver

async def made():
    return PacketDriver(App())  # a driver is made in the app's running loop

driver = asyncio.run(made())

def frames():
    for i in range({PACKETS}):
        driver.write(f"frame {{i}} ".ljust({SIZE}, "x"))

def chunks():
    for i in range({PACKETS}):
        driver.write_binary_encoded(("deliver_chunk", "key", f"chunk {{i}} ".ljust({SIZE}, "y")))

threads = [threading.Thread(target=frames), threading.Thread(target=chunks)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
"""


def read_slowly(stream) -> bytes:  # type: ignore[no-untyped-def]
    """All of ``stream``, read in small pieces with pauses: the pipe stays full, as it does
    when the server is busy."""
    got = bytearray()
    while piece := stream.read1(8_192):
        got += piece
        time.sleep(0.0005)
    return bytes(got)


def packets(stream: bytes) -> list[tuple[bytes, bytes]]:
    found = []
    at = 0
    while at < len(stream):
        kind = stream[at : at + 1]
        assert kind in (b"D", b"M", b"P"), f"not a packet at byte {at}: {stream[at : at + 20]!r}"
        size = int.from_bytes(stream[at + 1 : at + 5], "big")
        found.append((kind, stream[at + 5 : at + 5 + size]))
        at += 5 + size
    return found


def test_frames_and_download_chunks_written_at_once_arrive_whole() -> None:
    pipe = subprocess.PIPE  # the driver reads its standard input as it does under the server
    child = subprocess.Popen([sys.executable, "-c", CHILD], stdin=pipe, stdout=pipe)
    assert child.stdout is not None
    written = read_slowly(child.stdout)
    assert child.wait(timeout=60) == 0
    got = packets(written)
    frames = [payload.decode() for kind, payload in got if kind == b"D"]
    chunks = [payload for kind, payload in got if kind == b"P"]
    assert frames == [f"frame {i} ".ljust(SIZE, "x") for i in range(PACKETS)]
    assert len(chunks) == PACKETS
    for i, chunk in enumerate(chunks):
        assert f"chunk {i} ".ljust(SIZE, "y").encode() in chunk


def test_a_packet_written_in_part_is_written_to_its_end() -> None:
    """The page showed garbage mid-frame, then never changed again, though its keys still
    decided papers on disk: the next packet's head read as the frame's text, as when
    ``os.write`` writes part of a frame (here: its pipe non-blocking and full) and Textual's
    driver wrote the rest nowhere."""
    pipe = subprocess.PIPE
    code = "import os\nos.set_blocking(1, False)\n" + CHILD  # full, as the server reads slowly
    child = subprocess.Popen([sys.executable, "-c", code], stdin=pipe, stdout=pipe, stderr=pipe)
    assert child.stdout is not None and child.stderr is not None
    written = read_slowly(child.stdout)
    assert child.wait(timeout=60) == 0, child.stderr.read().decode()[-2000:]
    got = packets(written)
    assert [p.decode() for kind, p in got if kind == b"D"] == [
        f"frame {i} ".ljust(SIZE, "x") for i in range(PACKETS)
    ]
    assert len([p for kind, p in got if kind == b"P"]) == PACKETS


def packet(kind: bytes, payload: bytes) -> bytes:
    """A packet as textual-serve sends it down a child's standard input."""
    return kind + len(payload).to_bytes(4, "big") + payload


def web_child(home: Path) -> subprocess.Popen[bytes]:
    """A real ``papers`` tab's app (``tui.web_child``) on ``home``, its packets on its
    standard input and output, as the server runs it."""
    import os

    from tui.web_child import DRIVER, SERVER_VARIABLE

    environment = {
        **os.environ,
        "TEXTUAL_DRIVER": DRIVER,
        SERVER_VARIABLE: str(os.getpid()),
        "COLUMNS": "120",
        "ROWS": "36",
    }
    command = [sys.executable, "-m", "tui.web_child", "--home", str(home)]
    pipe = subprocess.PIPE
    return subprocess.Popen(command, stdin=pipe, stdout=pipe, stderr=pipe, env=environment)


def test_keys_sent_with_the_quit_of_a_closed_tab_are_taken_before_it(seeded_home: Path) -> None:
    """A tab's keys and textual-serve's quit (the tab closed or reloaded) read at once: the
    driver posted the keys through a task each and the quit straight to the app's queue,
    where it came first; the app ended and dropped the keys (a real ``papers`` child, the
    packets written in one piece as the server's pipe may deliver them)."""
    import re
    import threading

    from storage import Library, Status

    child = web_child(seeded_home)
    assert child.stdin is not None and child.stdout is not None
    shown = bytearray()
    painted = threading.Event()

    def read() -> None:  # the frames, until the Inbox is painted and on to the end
        assert child.stdout is not None
        while piece := child.stdout.read1(65_536):
            shown.extend(piece)
            text = re.sub(rb"\x1b\[[0-9;?]*[A-Za-z]", b"", bytes(shown[-200_000:]))
            if b"0 / 38 triaged" in text:
                painted.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        assert painted.wait(60), shown[-2000:]
        keys = b"".join(packet(b"D", b"s") for _ in range(6))
        child.stdin.write(keys + packet(b"M", b'{"type": "quit"}'))  # one write, one read
        child.stdin.flush()
        assert child.wait(timeout=30) == 0
    finally:
        if child.poll() is None:
            child.kill()
    statuses = Library(seeded_home).triage().statuses
    assert sum(1 for s in statuses.values() if s == Status.STARRED) == 6


def test_alt_and_a_digit_in_the_search_box_is_esc_then_the_digit_in_a_tab(
    seeded_home: Path,
) -> None:
    """A tab's Alt+1 (the page's terminal sends ESC 1, as it sends Esc then 1 typed at once)
    in the search box leaves it for the Inbox, as in a terminal (``tui.terminal``): the
    browser's driver read it as ``¡``, which the search box typed, and the ``s`` after it
    too; now ``s`` stars the paper under the cursor (a real ``papers`` child)."""
    import re
    import threading

    from storage import Library, Status

    child = web_child(seeded_home)
    assert child.stdin is not None and child.stdout is not None
    shown = bytearray()
    painted = threading.Event()

    def read() -> None:
        assert child.stdout is not None
        while piece := child.stdout.read1(65_536):
            shown.extend(piece)
            text = re.sub(rb"\x1b\[[0-9;?]*[A-Za-z]", b"", bytes(shown[-200_000:]))
            if b"0 / 38 triaged" in text:
                painted.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()

    def send(data: bytes) -> None:
        assert child.stdin is not None
        child.stdin.write(data)
        child.stdin.flush()

    try:
        assert painted.wait(60), shown[-2000:]
        send(packet(b"D", b"/"))
        time.sleep(1.0)
        send(packet(b"D", b"\x1b1"))  # one key of the page's: Alt+1
        time.sleep(1.0)
        send(packet(b"D", b"s"))
        time.sleep(1.0)
        send(packet(b"M", b'{"type": "quit"}'))
        assert child.wait(timeout=30) == 0
    finally:
        if child.poll() is None:
            child.kill()
    statuses = Library(seeded_home).triage().statuses
    assert sum(1 for s in statuses.values() if s == Status.STARRED) == 1
