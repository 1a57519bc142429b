"""A PDF download stopped while its server holds the answer (takes the request and answers
nothing, or sends the head and part of the PDF, then nothing) ends within a second or so:
it was checked only between reads, so quitting the app during a stalled download left the
download waiting out its 60 s timeout. Stopped, it is no failure of the paper, leaves no file
under a PDF's name, no thread behind, and its part resumes next time (a real server on
127.0.0.1)."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from storage.models import Paper
from storage.pdfs.download import DownloadOptions, Event, download_pdfs
from storage.pdfs.failures import PdfFailures
from storage.pdfs.folder import PdfFolder
from tests.pdf_files import paper_pdf
from tests.pdf_server import HELD_BYTES, PdfServer

#: A timeout no stop should wait for.
PATIENT = DownloadOptions(pause=0.0, timeout=30.0)
#: A stop takes 0.1-0.3 s (before, the 30 s timeout): room for a busy machine (CI).
STOPPED_S = 8.0


@pytest.fixture
def server(tmp_path: Path) -> Iterator[PdfServer]:
    made = paper_pdf(tmp_path / "made.pdf", "A long paper", 40, seed=3).read_bytes()
    assert len(made) > HELD_BYTES  # (the held answer stalls within the file)
    running = PdfServer(pdfs={"held01": made, "next02": made}).start()
    running.behaviour["held01"] = "held"
    yield running
    running.release.set()
    running.stop()


@pytest.fixture
def silent() -> Iterator[tuple[str, threading.Event]]:
    """A server on 127.0.0.1 that takes each connection and its request, and answers nothing;
    its address, and an event set once a request came."""
    asked = threading.Event()
    taken: list[socket.socket] = []
    listening = socket.create_server(("127.0.0.1", 0))

    def take() -> None:
        while True:
            try:
                connection, _ = listening.accept()
            except OSError:  # (closed: the test is over)
                return
            taken.append(connection)
            connection.recv(65536)  # (the request, or the TLS handshake's first message)
            asked.set()

    threading.Thread(target=take, daemon=True).start()
    yield f"http://127.0.0.1:{listening.getsockname()[1]}", asked
    listening.close()
    for connection in taken:
        connection.close()


def stop_when(ready: Callable[[], bool]) -> tuple[threading.Event, list[float]]:
    """A stop set once ``ready()`` (polled); the time it was set."""
    stop = threading.Event()
    when: list[float] = []

    def watch() -> None:
        deadline = time.monotonic() + 20
        while not ready() and time.monotonic() < deadline:
            time.sleep(0.02)
        time.sleep(0.3)  # (the read under way blocks by then)
        when.append(time.monotonic())
        stop.set()

    threading.Thread(target=watch, daemon=True).start()
    return stop, when


def check_stopped(
    home: Path,
    folder: PdfFolder,
    papers: list[Paper],
    stop: tuple[threading.Event, list[float]],
    events: list[Event],
) -> None:
    """Download ``papers`` (their events into ``events``), stopped as ``stop`` says: ended
    within seconds of the stop, as stopped, no failure, no PDF, no thread left."""
    failures = PdfFailures(home)
    stopped, when = stop

    def progress(event: Event) -> None:
        events.append(event)
        failures.learn(event)

    report = download_pdfs(papers, folder, PATIENT, progress, cancelled=stopped.is_set)
    ended = time.monotonic()
    assert when and ended - when[0] < STOPPED_S, ended - when[0]
    assert report.cancelled and not report.failed and not report.done, report.summary()
    assert [e.kind for e in events if e.kind not in ("start", "bytes")] == []
    assert "stopped" in report.summary()
    assert all(PdfFailures(home).of(p) is None for p in papers)
    assert not [p for p in folder.path.iterdir() if p.name.endswith(".pdf")]
    deadline = time.monotonic() + 2
    while time.monotonic() < deadline and any(
        t.name == "papers-pdf-download" for t in threading.enumerate()
    ):
        time.sleep(0.02)
    assert not [t for t in threading.enumerate() if t.name == "papers-pdf-download"]


@pytest.mark.parametrize("scheme", ["http", "https"])
def test_a_stop_ends_a_download_whose_server_never_answers(
    scheme: str, tmp_path: Path, silent: tuple[str, threading.Event]
) -> None:
    """Over HTTPS the server holds the TLS handshake: the socket is shut as it begins."""
    base, asked = silent
    base = base.replace("http:", f"{scheme}:")
    papers = [
        Paper("quiet1000000", "Quiet", "abstract", url=f"{base}/forum?id=quiet"),
        Paper("after2000000", "After", "abstract", url=f"{base}/forum?id=after"),
    ]
    folder = PdfFolder(tmp_path / "pdfs")
    check_stopped(tmp_path, folder, papers, stop_when(asked.is_set), [])
    assert list(folder.path.iterdir()) == []  # nothing came: no part either


def test_a_stop_ends_a_download_stalled_in_its_pdf_and_its_part_resumes(
    tmp_path: Path, server: PdfServer
) -> None:
    papers = [
        Paper("held01000000", "Held", "abstract", url=server.forum("held01")),
        Paper("next02000000", "Next", "abstract", url=server.forum("next02")),
    ]
    folder = PdfFolder(tmp_path / "pdfs")
    part = folder.part_of(papers[0].id)
    events: list[Event] = []
    held = stop_when(lambda: any(e.received >= HELD_BYTES for e in events))  # all it sends
    check_stopped(tmp_path, folder, papers, held, events)
    assert [r.paper for r in server.requests] == ["held01"]  # the next one not asked for
    kept = part.stat().st_size
    assert 0 < kept <= HELD_BYTES
    server.behaviour["held01"] = "ok"
    again = download_pdfs(papers[:1], folder, PATIENT)
    assert len(again.done) == 1, again.summary()
    assert server.requests[-1].headers.get("Range") == f"bytes={kept}-"
    assert again.done[0].read_bytes() == server.pdfs["held01"]
