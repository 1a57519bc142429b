"""The app's start does not wait for the scan of the PDF folder (Pilot, real PDF files).

The folder was scanned as the main screen was made, on the screen's thread, before its first
frame: 47 ms for 3,000 copies, and as long as a slow disk or a network share takes. It is
scanned in a thread worker now; the list is drawn at once, and its marks (``⎙``) and the pane's
"local:" come when the scan is done. ``PdfFolder.scan`` is wrapped only to hold it back (a
disk slow on demand) and to see on which thread it ran; the scan itself is the real one.
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest

from storage import Library
from storage.pdfs.folder import PdfFolder, pdf_name
from tests.pdf_files import paper_pdf
from tests.tui.helpers import plist, ready, wait_for
from tui.app import PapersApp
from tui.widgets.paper_pane import PaperPane

WIDE = (120, 36)


def library_with_copies(home: Path, tmp_path: Path, folder: Path) -> list[str]:
    """Three papers, the first two with their PDF in ``folder`` (the second's file name with
    an ESC and a newline in its title part, as a file manager may let through)."""
    listed = tmp_path / "list.jsonl"
    records = [
        {
            "title": f"Sampler study {n}",
            "abstract": f"We study sampler {n} with care, at some length.",
            "url": f"http://127.0.0.1:9/forum?id=k{n}",
        }
        for n in range(3)
    ]
    listed.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    library = Library(home)
    library.import_file(listed)
    papers = library.papers()
    folder.mkdir(parents=True, exist_ok=True)
    paper_pdf(folder / pdf_name(papers[0]), papers[0].title, 1, seed=0)
    paper_pdf(folder / f"Sampler\x1b[31m\nstudy ({papers[1].id}).pdf", papers[1].title, 1, seed=1)
    return [p.id for p in papers]


def pane(app: PapersApp) -> str:
    return app.main_screen.query_one(PaperPane).text.plain


async def test_the_list_is_drawn_before_the_scan_and_marked_once_it_is_done(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ids = library_with_copies(home, tmp_path, home / "pdfs")
    held = threading.Event()
    threads: list[str] = []
    real_scan = PdfFolder.scan

    def slow_scan(self: PdfFolder) -> tuple[dict[str, Path], dict[str, Path]]:
        threads.append(threading.current_thread().name)
        held.wait(60)  # a slow disk, until the test lets it answer (60 s: a bound)
        return real_scan(self)

    monkeypatch.setattr(PdfFolder, "scan", slow_scan)
    app = PapersApp(Library(home), import_sample=False)
    assert threads == []  # making the app scanned nothing
    async with app.run_test(size=WIDE) as pilot:
        screen = app.main_screen
        await wait_for(pilot, lambda: screen.index is not None and plist(app).current is not None)
        assert not screen.pdfs.scanned  # drawn, searchable, the scan under way
        assert "Sampler study 0" in plist(app).render_line(0).text
        assert "⎙" not in plist(app).render_line(0).text
        held.set()
        await wait_for(pilot, lambda: "⎙" in plist(app).render_line(0).text)
        assert "⎙" in plist(app).render_line(1).text
        assert "⎙" not in plist(app).render_line(2).text
        await wait_for(pilot, lambda: "local: " in pane(app))
        await pilot.press("j")
        await wait_for(pilot, lambda: "local: Sampler" in pane(app))
        assert "\x1b" not in pane(app)  # the file's name made visible, not sent as it is
        assert screen.pdfs.has_copy(ids[1])
    assert threads and threads[0] != threading.main_thread().name, threads


async def test_a_folder_that_is_a_link_is_scanned_and_one_that_cannot_be_read_is_none(
    home: Path, tmp_path: Path
) -> None:
    elsewhere = tmp_path / "elsewhere"
    ids = library_with_copies(home, tmp_path, elsewhere)
    (home / "pdfs").symlink_to(elsewhere)
    app = PapersApp(Library(home), import_sample=False)
    async with app.run_test(size=WIDE) as pilot:
        screen = await ready(pilot)
        await wait_for(pilot, lambda: "⎙" in plist(app).render_line(0).text)
        assert screen.pdfs.has_copy(ids[0]) and screen.pdfs.has_copy(ids[1])
    if os.geteuid() == 0:  # root reads any folder
        return
    elsewhere.chmod(0)
    try:
        app = PapersApp(Library(home), import_sample=False)
        async with app.run_test(size=WIDE) as pilot:
            screen = await ready(pilot)  # scanned: none readable, no error
            assert not screen.pdfs.copies_known
            assert "⎙" not in plist(app).render_line(0).text
    finally:
        elsewhere.chmod(0o755)


async def test_P_pressed_during_the_scan_waits_for_it_with_the_screen_kept_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """P pressed while the start's scan ran (a slow disk, a share) scanned the folder again on
    the screen's thread, waiting there for the scan under way: no key was read, nothing drawn,
    until both ended. The downloads now start once the scan is done, the keys read meanwhile."""
    from tests.cli.test_cli import make_env
    from tests.cli.test_queue_cli import pdf_home
    from tests.pdf_server import PdfServer
    from tests.tui.helpers import messages

    server = PdfServer().start()
    try:
        home, ids = pdf_home(tmp_path, make_env(tmp_path), server, 3)
        held = threading.Event()
        real_scan = PdfFolder.scan

        def slow_scan(self: PdfFolder) -> tuple[dict[str, Path], dict[str, Path]]:
            held.wait(60)  # a slow disk, until the test lets it answer (60 s: a bound)
            return real_scan(self)

        monkeypatch.setattr(PdfFolder, "scan", slow_scan)
        app = PapersApp(Library(home), import_sample=False)
        async with app.run_test(size=WIDE) as pilot:
            screen = app.main_screen
            await wait_for(pilot, lambda: screen.index is not None)
            await pilot.press("2")  # the reading queue (every paper starred)
            await wait_for(pilot, lambda: plist(app).current is not None)
            await pilot.press("P", "j")
            await wait_for(pilot, lambda: plist(app).current.id == ids[1])  # type: ignore[union-attr]
            assert not screen.pdfs.scanned and not server.requests  # the scan still under way
            held.set()
            done = "3 PDFs downloaded"
            await wait_for(pilot, lambda: any(m.startswith(done) for m in messages(app)), 20)
        assert sorted(r.paper for r in server.requests) == ["p00", "p01", "p02"]
    finally:
        server.stop()
