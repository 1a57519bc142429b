"""The app lists its PDF folder off the screen's thread, every time (Pilot, real PDF files in a
real folder, a real server on 127.0.0.1).

Only the first scan, at start, ran in a worker: when the folder changed after it (``papers
pdf`` filling it in another terminal, the app's own downloads, the text reading after them,
an import, ``P``'s look for copies), it was listed again on the screen's thread, a listing of
the whole folder each second while the other terminal downloaded: with thousands of copies
(or a slow disk, a share) the keys waited for each. The folder here is a real one whose
listing (``PdfFolder.listing``, the one a scan makes) also says on which thread it ran, and
waits, when told, until the test lets it go on: a disk as slow as the test needs.
"""

from __future__ import annotations

import os
import sys
import threading
from pathlib import Path

import pytest

from storage import Library
from storage.pdfs.folder import PdfFolder, pdf_name
from tests.pdf_files import paper_pdf
from tests.pdf_server import PdfServer, library_list
from tests.tui.helpers import messages, plist, ready, wait_for
from tests.tui.test_queue_keys import fake_browser
from tui.app import PapersApp

WIDE = (120, 36)
#: Copies of other papers, ``papers pdf`` filling the folder in another terminal.
OTHERS = 1500


class WatchedFolder(PdfFolder):
    """A real folder of copies whose listings say on which thread they ran, and wait while
    ``go`` is clear (a slow disk; at most ``HOLD_S``)."""

    HOLD_S = 60.0  # (the test lets it go before: a bound for a test gone wrong; 5 s
    # was less than a loaded machine took over the steps that assert the listing still held)

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.threads: list[threading.Thread] = []
        self.go = threading.Event()
        self.go.set()

    def listing(self) -> list[os.DirEntry[str]]:
        self.threads.append(threading.current_thread())
        self.go.wait(self.HOLD_S)
        return super().listing()


def on_screen_thread(folder: WatchedFolder) -> list[str]:
    return [t.name for t in folder.threads if t is threading.main_thread()]


def library_of(home: Path, tmp_path: Path, server: PdfServer, n: int) -> list[str]:
    """``n`` papers on ``server``, each starred (the reading queue), their PDFs there."""
    titles = {f"k{i}": f"Sampler study {i}" for i in range(n)}
    for i, key in enumerate(titles):
        server.pdfs[key] = paper_pdf(tmp_path / f"{key}.pdf", titles[key], 1, seed=i).read_bytes()
    library = Library(home)
    library.import_file(library_list(tmp_path / "list.json", server, titles))
    ids = [p.id for p in library.papers()]
    library.set_statuses(ids, "starred")
    return ids


def watch(app: PapersApp, path: Path) -> WatchedFolder:
    path.mkdir(parents=True, exist_ok=True)
    folder = WatchedFolder(path)
    app.main_screen.pdfs.folder = folder
    return folder


def row(app: PapersApp, n: int) -> str:
    return plist(app).render_line(n).text


@pytest.mark.skipif(sys.platform == "win32", reason="a POSIX shell script as the browser")
async def test_keys_go_on_while_a_folder_filled_elsewhere_is_listed(
    home: Path, tmp_path: Path, server: PdfServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened = fake_browser(tmp_path, monkeypatch)
    ids = library_of(home, tmp_path, server, 2)
    app = PapersApp(Library(home), import_sample=False)
    async with app.run_test(size=WIDE) as pilot:
        await ready(pilot)
        await pilot.press("2")  # the reading queue (every paper starred)
        await wait_for(pilot, lambda: plist(app).current is not None)
        folder = watch(app, home / "pdfs")
        folder.go.clear()  # the next listing is slow
        for n in range(OTHERS):  # another terminal's downloads, and the first paper's copy
            (folder.path / f"Other paper {n} ({n:012x}).pdf").write_bytes(b"%PDF-1.4\n%%EOF\n")
        paper = Library(home).paper(ids[0])
        paper_pdf(folder.path / pdf_name(paper), paper.title, 1, seed=0)
        await wait_for(pilot, lambda: bool(folder.threads))  # the app's look at the disk
        await pilot.press("j")  # read and acted on while the folder is listed
        await wait_for(pilot, lambda: plist(app).current.id == ids[1])  # type: ignore[union-attr]
        await pilot.press("k")
        await wait_for(pilot, lambda: plist(app).current.id == ids[0])  # type: ignore[union-attr]
        assert "⎙" not in row(app, 0)  # the listing still under way
        await pilot.press("p")  # waits for it: the copy it finds, not the web's
        await pilot.pause(0.3)
        assert not opened.exists()
        folder.go.set()
        await wait_for(pilot, lambda: "⎙" in row(app, 0))
        await wait_for(pilot, lambda: opened.is_file() and "file://" in opened.read_text(), 10)
        assert "⎙" not in row(app, 1)
        assert app.main_screen.pdfs.has_copy(ids[0])
    assert folder.threads and on_screen_thread(folder) == []


async def test_P_lists_the_folder_off_the_screens_thread(
    home: Path, tmp_path: Path, server: PdfServer
) -> None:
    """``P``'s look for copies, each PDF's arrival, and the text reading after them."""
    ids = library_of(home, tmp_path, server, 2)
    app = PapersApp(Library(home), import_sample=False)
    async with app.run_test(size=WIDE) as pilot:
        screen = await ready(pilot)
        await pilot.press("2")
        folder = watch(app, home / "pdfs")
        await pilot.press("P")
        done = "2 PDFs downloaded"
        await wait_for(pilot, lambda: any(m.startswith(done) for m in messages(app)), 20)
        await wait_for(pilot, lambda: "⎙" in row(app, 0) and "⎙" in row(app, 1))
        await wait_for(
            pilot, lambda: screen.pdfs.texts is not None and len(screen.pdfs.texts) == 2, 60
        )  # (read in a child process: 10-14 s on a loaded machine, past 20 s in a loaded run)
        assert screen.pdfs.has_copy(ids[0]) and screen.pdfs.has_copy(ids[1])
    assert folder.threads and on_screen_thread(folder) == []


async def test_an_import_that_links_copies_lists_the_folder_off_the_screens_thread(
    home: Path, tmp_path: Path, server: PdfServer
) -> None:
    """The import dialog's import makes the copies of its papers' attachments (a reference
    manager's PDFs): the folder is read again after it, in a worker."""
    from textual.widgets import Input

    from tests.tui.helpers import opened
    from tui.screens.importer import ImportScreen
    from tui.screens.main import MainScreen

    library_of(home, tmp_path, server, 1)
    attachment = paper_pdf(tmp_path / "zotero" / "lee.pdf", "Sparse attention", 1, seed=3)
    bib = tmp_path / "zotero.bib"
    bib.write_text(
        "@article{lee, title = {Sparse attention}, author = {Lee, Ann},\n"
        "  abstract = {We study sparse attention over long documents and show that it scales to "
        "a million tokens with little loss.},\n"
        f"  file = {{Full Text PDF:{attachment}:application/pdf}}}}\n"
    )
    app = PapersApp(Library(home), import_sample=False)
    async with app.run_test(size=WIDE) as pilot:
        screen = await ready(pilot)
        folder = watch(app, home / "pdfs")
        await opened(pilot, "a", ImportScreen)
        app.screen.query_one("#import-path", Input).value = str(bib)
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, MainScreen), 10)
        added = next(p.id for p in Library(home).papers() if p.title == "Sparse attention")
        await wait_for(pilot, lambda: screen.pdfs.has_copy(added), 10)
    assert folder.threads and on_screen_thread(folder) == []


class SlowFolder(PdfFolder):
    """A real folder each of whose listings waits for a turn the test gives (at most
    ``HOLD_S``): a share as slow as the test needs."""

    HOLD_S = 10.0

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.turns = threading.Semaphore(0)
        self.listings = 0

    def listing(self) -> list[os.DirEntry[str]]:
        self.listings += 1
        self.turns.acquire(timeout=self.HOLD_S)
        return super().listing()


async def test_P_starts_once_its_scan_ends_though_another_follows(
    home: Path, tmp_path: Path, server: PdfServer
) -> None:
    """``P`` pressed while the folder is listed waits for that listing alone: the folder
    changing meanwhile (``papers pdf`` filling it in another terminal) asks for another,
    which ``P`` does not wait for. It did, its waiting moved to each next listing: on a slow
    share filled elsewhere, ``P`` never started."""
    library_of(home, tmp_path, server, 2)
    app = PapersApp(Library(home), import_sample=False)
    async with app.run_test(size=WIDE) as pilot:
        screen = await ready(pilot)
        await pilot.press("2")
        path = home / "pdfs"
        path.mkdir(parents=True, exist_ok=True)
        folder = SlowFolder(path)
        screen.pdfs.folder = folder
        (path / f"Other paper 0 ({0:012x}).pdf").write_bytes(b"%PDF-1.4\n%%EOF\n")
        await wait_for(pilot, lambda: folder.listings == 1)  # the poll's listing, held
        await pilot.press("P")  # waits for it
        await pilot.pause(0.2)
        assert not screen.pdfs.busy
        (path / f"Other paper 1 ({1:012x}).pdf").write_bytes(b"%PDF-1.4\n%%EOF\n")
        await wait_for(pilot, lambda: screen.pdfs.scan_again)  # another terminal's copy
        folder.turns.release()  # the first listing ends; the one after it is held
        await wait_for(pilot, lambda: folder.listings >= 2)
        await wait_for(pilot, lambda: screen.pdfs.busy)  # the downloads began (held: 10 s)
        for _ in range(8):
            folder.turns.release()
        done = "2 PDFs downloaded"
        await wait_for(pilot, lambda: any(m.startswith(done) for m in messages(app)), 20)
