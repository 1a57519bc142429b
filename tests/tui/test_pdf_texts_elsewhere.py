"""The text of PDFs read by another process while the app runs (`papers pdf` in a second
terminal): the app saw the new copy (its row's ⎙, the pane's "local:") but kept the texts it
had loaded at start, so the pane never gave the copy's pages, ``pdf:`` found nothing in it
and the queue's length sort read it as unread, until a restart or a download of its own."""

from __future__ import annotations

import asyncio
from pathlib import Path

from storage import Library
from tests.cli.test_cli import make_env, run
from tests.pdf_server import PdfServer
from tests.tui.helpers import messages, plist, ready, wait_for
from tests.tui.test_queue_keys import WIDE, pane_text, pdf_library
from tui.app import PapersApp


async def test_texts_read_by_papers_pdf_elsewhere_are_shown_and_searched(
    home: Path, tmp_path: Path, server: PdfServer
) -> None:
    ids = pdf_library(home, server, tmp_path)
    app = PapersApp(Library(home), import_sample=False)
    async with app.run_test(size=WIDE) as pilot:
        screen = await ready(pilot)
        await pilot.press("2")
        await wait_for(pilot, lambda: screen.pdfs.texts is not None)  # its reading at start
        env = make_env(tmp_path)
        done = await asyncio.to_thread(run, "--home", home, "pdf", ids[0], "--pause", "0", env=env)
        assert done.returncode == 0, done.stderr
        assert "text of 1 PDF ready" in done.stderr
        await wait_for(pilot, lambda: "local: Sampler study 0" in pane_text(app))
        await wait_for(pilot, lambda: "2 pages" in pane_text(app))
        await pilot.press("slash", *"pdf:wombat", "escape")
        await wait_for(pilot, lambda: len(plist(app).rows) == 1)
        assert plist(app).current is not None and plist(app).current.id == ids[0]
        assert "p. 2: A wombat theorem" in pane_text(app)


async def test_pdf_results_arriving_as_the_app_ends_are_let_go(home: Path) -> None:
    """A text read or a download that ends as the app is ending (``q`` pressed, a signal)
    shows nothing: its widgets may be gone already (a query of them raised as the screens
    were taken down, a traceback on the way out); the download's busy mark is still let go."""
    from storage.pdfs.download import DownloadReport

    app = PapersApp(Library(home))  # the bundled sample
    async with app.run_test(size=WIDE) as pilot:
        screen = await ready(pilot)
        screen.pdfs.busy = True
        app.ending = True  # (what ``begin_ending`` sets first)
        screen._texts_ready(2, 2)
        screen._downloaded(DownloadReport(skipped=1))
        await pilot.pause()
        assert not any("ready for pdf:" in m or "PDF" in m for m in messages(app))
        assert not screen.pdfs.busy
        app.ending = False


async def test_a_download_stopped_or_failed_as_the_app_ends_is_let_go(home: Path) -> None:
    """So are P's run that ends before its first download (stopped as the app ends while it
    read the disk, or the folder unusable), a download's progress in flight, and a scan of
    the folder: each queried the screen's widgets (the list's border, a notification, the
    action a scan held, P's own), which may be gone as the screens come down. The run's busy
    mark is still let go."""
    app = PapersApp(Library(home))  # the bundled sample
    async with app.run_test(size=WIDE) as pilot:
        screen = await ready(pilot)
        pdfs = screen.pdfs
        pdfs.busy, pdfs.runs = True, pdfs.runs + 1
        held: list[str] = []
        screen.after_pdf_scan["test"] = (0, lambda: held.append("ran"))
        app.ending = True  # (what ``begin_ending`` sets first)
        screen._progress("PDF 1 of 3: 40 kB")
        screen._download_failed("PDFs not downloaded: no room left", pdfs.runs)
        screen._pdfs_scanned(({}, {}))
        await pilot.pause()
        assert not any("PDF" in m for m in messages(app))
        assert "pdfs" not in screen._list_notes
        assert held == []
        assert not pdfs.busy
        app.ending = False
