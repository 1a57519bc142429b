"""Quitting the app (``q``) while ``P`` downloads a PDF whose server stalled in the middle of
it: the download's thread waited out its 60 s timeout before it saw the stop (a test's event
loop, or anything waiting for that thread, with it). It now ends within a second or so, as
stopped: no failure kept for the paper, no file under a PDF's name, the part kept to resume
(Pilot, a real server on 127.0.0.1)."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from storage import Library
from storage.models import Paper
from storage.pdfs.failures import PdfFailures
from tests.pdf_files import paper_pdf
from tests.pdf_server import HELD_BYTES, PdfServer
from tests.tui.helpers import messages, ready, wait_for
from tui.app import PapersApp


@pytest.fixture
def server(tmp_path: Path) -> Iterator[PdfServer]:
    made = paper_pdf(tmp_path / "made.pdf", "A long paper", 40, seed=3).read_bytes()
    assert len(made) > HELD_BYTES  # (the held answer stalls within the file)
    running = PdfServer(pdfs={"held01": made}, behaviour={"held01": "held"}).start()
    yield running
    running.release.set()
    running.stop()


def _held_paper_starred(home: Path, tmp_path: Path, server: PdfServer) -> Paper:
    """The reading queue of one paper, whose PDF the server holds in the middle."""
    listed = tmp_path / "queue.json"
    record = {"title": "A held paper", "abstract": "We study held answers at some length."}
    listed.write_text(json.dumps([{**record, "url": server.forum("held01")}]), encoding="utf-8")
    library = Library(home)
    library.import_file(listed)
    (target,) = library.papers()
    library.set_status(target.id, "starred")
    return target


async def test_quitting_during_a_stalled_download_stops_it_at_once(
    home: Path, tmp_path: Path, server: PdfServer
) -> None:
    target = _held_paper_starred(home, tmp_path, server)
    app = PapersApp(Library(home), import_sample=False)
    async with app.run_test() as pilot:
        screen = await ready(pilot)
        folder = screen.pdfs.folder
        part = folder.part_of(target.id)
        await pilot.press("2", "P")
        # all the server sends before it stalls (less the part's unwritten buffer)
        await wait_for(pilot, lambda: part.exists() and part.stat().st_size >= HELD_BYTES // 2)
        await pilot.pause(0.5)  # (the read under way blocks by then)
        assert screen.pdfs.busy
        await pilot.press("q")
        quit_at = time.monotonic()
    while screen.pdfs.busy and time.monotonic() - quit_at < 10:
        await asyncio.sleep(0.05)
    ended = time.monotonic() - quit_at  # 0.1-0.3 s; 10 s and more before (a busy CI: room)
    assert not screen.pdfs.busy and ended < 8, ended
    assert PdfFailures(home).of(target) is None
    assert not [p for p in folder.path.iterdir() if p.name.endswith(".pdf")]
    assert part.stat().st_size > 0  # kept, to resume


async def test_p_again_stops_the_downloads_and_p_then_resumes_them(
    home: Path, tmp_path: Path, server: PdfServer
) -> None:
    """``P`` on a queue of 500 papers downloaded for 8 minutes, and only quitting stopped it
    (``P`` again said "being downloaded already"). ``P`` again now stops it, as quitting
    does: no failure kept, the part kept; ``P`` once more resumes it."""
    target = _held_paper_starred(home, tmp_path, server)
    app = PapersApp(Library(home), import_sample=False)
    async with app.run_test() as pilot:
        screen = await ready(pilot)
        part = screen.pdfs.folder.part_of(target.id)
        await pilot.press("2", "P")
        await wait_for(pilot, lambda: part.exists() and part.stat().st_size >= HELD_BYTES // 2)
        await pilot.pause(0.5)
        assert screen.pdfs.busy
        await pilot.press("P")
        await wait_for(pilot, lambda: not screen.pdfs.busy, timeout=8)
        said = messages(app)
        assert any(m.startswith("Stopping the downloads: P again resumes") for m in said)
        await wait_for(pilot, lambda: any("stopped (the rest resumes" in m for m in messages(app)))
        assert PdfFailures(home).of(target) is None and part.stat().st_size > 0
        server.release.set()  # the server answers in full now: P resumes and ends
        await pilot.press("P")
        await wait_for(pilot, lambda: screen.pdfs.has_copy(target.id), timeout=15)
