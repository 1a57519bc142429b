"""The poll looks at the PDF folder off the screen's thread (Pilot, a real folder of real
PDFs).

Each second the screen asks whether the folder of copies, ``pdf-failures.json`` or the PDFs'
texts changed: a stat of each, made on the screen's thread. On a share that hangs (a network
folder whose server went away) a stat waits until it answers, and no key was read meanwhile.
A file lease (``F_SETLEASE``, as ``test_pdf_failures_off_thread`` holds a file with) holds an
open, never a stat; the folder here is a real one whose look (``PdfFolder.changed``, the
poll's stat of it) says on which thread it ran and waits until the test lets it go on: a
share as hung as the test needs.
"""

from __future__ import annotations

import threading
from pathlib import Path

from storage import Library
from storage.pdfs.folder import PdfFolder
from tests.tui.helpers import plist, ready, wait_for
from tests.tui.test_pdf_search_after_scan import library_with_texts
from tui.app import PapersApp

WIDE = (120, 36)


class HungFolder(PdfFolder):
    """A real folder of copies whose looks say on which thread they ran, and wait while
    ``go`` is clear (a hung share; at most ``HOLD_S``)."""

    HOLD_S = 60.0  # (the test lets it go before: a bound for a test gone wrong, as in
    # test_home_poll_off_thread, where 10 s ran out on a loaded machine)

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.threads: list[threading.Thread] = []
        self.go = threading.Event()
        self.waiting = threading.Event()

    def changed(self) -> bool:
        self.threads.append(threading.current_thread())
        self.waiting.set()
        self.go.wait(self.HOLD_S)
        self.waiting.clear()
        return super().changed()


async def test_keys_are_read_while_the_polls_look_at_the_folder_hangs(
    home: Path, tmp_path: Path
) -> None:
    ids = library_with_texts(home, tmp_path)
    app = PapersApp(Library(home), import_sample=False)
    async with app.run_test(size=WIDE) as pilot:
        screen = await ready(pilot)
        await pilot.press("5")  # every paper
        await wait_for(pilot, lambda: plist(app).current.id == ids[0])  # type: ignore[union-attr]
        folder = HungFolder(screen.pdfs.folder.path)
        screen.pdfs.folder = folder
        await wait_for(pilot, folder.waiting.is_set)  # the poll's look, hung
        await pilot.press("j")  # read and acted on while it hangs
        await wait_for(pilot, lambda: plist(app).current.id == ids[1])  # type: ignore[union-attr]
        assert folder.waiting.is_set()  # the key answered before the share did
        assert len(folder.threads) == 1  # one look at a time: no thread more each second
        copy = screen.pdfs.copy_of(ids[0])
        assert copy is not None
        copy.unlink()  # deleted meanwhile: once the share answers, the app knows
        folder.go.set()
        await wait_for(pilot, lambda: not screen.pdfs.has_copy(ids[0]))
        assert screen.pdfs.has_copy(ids[1])
    assert [t for t in folder.threads if t is threading.main_thread()] == []
