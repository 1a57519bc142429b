"""The browser tab's driver writes each packet whole, from any thread: a download's chunks
(the input thread) and the screen's frames (the app's thread) at once, to a server that
reads slowly, reach it as the packets they were (a real pipe, a real child process)."""

from __future__ import annotations

import subprocess
import sys
import time

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
