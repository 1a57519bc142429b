"""``P`` reads the failures kept and the attachments off the screen's thread (Pilot, real
files, a real server on 127.0.0.1).

``P`` read ``pdf-failures.json``, and looked at each attachment of the papers whose link
failed for good, on the screen's thread before its downloads began: on a slow or hung disk
(a network share) no key was read until the disk answered. Here the file is held by a real
lease (``F_SETLEASE``) of another process, as a share's other client holds a file: an open
of it waits until that process lets it go (at most ``HOLD_S``), a stat does not.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from storage import Library
from storage.pdfs.failures import FAILURES_FILE
from storage.pdfs.links import pdf_url
from tests.pdf_files import paper_pdf
from tests.pdf_server import PdfServer
from tests.tui.helpers import messages, plist, ready, wait_for
from tui.app import PapersApp

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux leases")

WIDE = (120, 36)
#: How long the other process holds its lease at most (the test lets it go before, as the
#: block that holds it ends): a bound for a test gone wrong. 8 s was less than a loaded machine
#: took over the steps that assert the lease still held.
HOLD_S = 60.0

_HOLDER = """
import fcntl, os, select, signal, sys
signal.signal(signal.SIGIO, signal.SIG_IGN)  # told of each open that waits: it holds on
fd = os.open(sys.argv[1], os.O_RDONLY)
try:
    fcntl.fcntl(fd, fcntl.F_SETLEASE, fcntl.F_WRLCK)
except OSError as exc:
    print(f"no lease: {exc}", flush=True)
    sys.exit(0)
print("held", flush=True)
select.select([sys.stdin], [], [], float(sys.argv[2]))
fcntl.fcntl(fd, fcntl.F_SETLEASE, fcntl.F_UNLCK)
"""


@contextmanager
def held(path: Path) -> Iterator[Callable[[], None]]:
    """``path`` under another process's write lease until the block ends, or the callable
    it gives is called (at most ``HOLD_S``)."""
    holder = subprocess.Popen(
        [sys.executable, "-c", _HOLDER, str(path), str(HOLD_S)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout is not None and holder.stdin is not None
    said = holder.stdout.readline().strip()
    if said != "held":
        holder.wait(5)
        pytest.skip(f"this file system takes no lease ({said})")

    def release() -> None:
        if not holder.stdin.closed:
            holder.stdin.close()
        holder.wait(HOLD_S + 5)

    try:
        yield release
    finally:
        release()


def still_held(path: Path) -> bool:
    """Whether an open of ``path`` would wait (the lease not let go yet)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except BlockingIOError:
        return True
    os.close(fd)
    return False


def library_of(home: Path, tmp_path: Path, server: PdfServer, attachment: Path | None) -> list[str]:
    """Two starred papers whose PDFs the server has; the first's link failed for good on two
    runs (``papers pdf`` passes it over), with ``attachment`` as its reference manager's PDF."""
    records = []
    for n in range(2):
        key = f"k{n}"
        server.pdfs[key] = paper_pdf(tmp_path / f"{key}.pdf", f"Study {n}", 1, seed=n).read_bytes()
        record = {
            "title": f"Sampler study {n}",
            "abstract": f"We study sampler {n} with care; the abstract of paper {key}.",
            "url": server.forum(key),
        }
        if n == 0 and attachment is not None:
            record["file"] = str(attachment)
        records.append(record)
    listed = tmp_path / "list.json"
    listed.write_text(json.dumps(records), encoding="utf-8")
    library = Library(home)
    library.import_file(listed)
    papers = library.papers()
    library.set_statuses([p.id for p in papers], "starred")
    first = papers[0]
    entry = {"url": pdf_url(first), "cause": "HTTP 404 Not Found", "at": time.time(), "seen": 2}
    failures = {"format": 1, "papers": {first.id: entry | {"lasting": True}}}
    (home / FAILURES_FILE).write_text(json.dumps(failures), encoding="utf-8")
    return [p.id for p in papers]


async def keys_answer_while_P_reads(app: PapersApp, held_path: Path, ids: list[str]) -> None:
    async with app.run_test(size=WIDE) as pilot:
        await ready(pilot)
        await pilot.press("2")  # the reading queue
        await wait_for(pilot, lambda: plist(app).current is not None)
        with held(held_path):
            await pilot.press("P")
            await pilot.press("j")  # read and acted on while P's read waits
            await wait_for(pilot, lambda: plist(app).current.id == ids[1])  # type: ignore[union-attr]
            assert still_held(held_path)  # the key answered before the disk did
            assert not any(m.startswith("Downloading") for m in messages(app))
        done = "1 PDF downloaded"  # once the disk answers, P goes on: the other paper
        await wait_for(pilot, lambda: any(m.startswith(done) for m in messages(app)), 20)
        said = next(m for m in messages(app) if m.startswith("Downloading 2 PDFs"))
        assert said.endswith("\n1 of them failed before (HTTP 404 Not Found): asked for again.")


async def test_keys_answer_while_P_reads_a_held_failures_file(
    home: Path, tmp_path: Path, server: PdfServer
) -> None:
    ids = library_of(home, tmp_path, server, None)
    server.behaviour["k0"] = "missing"
    app = PapersApp(Library(home), import_sample=False)
    await keys_answer_while_P_reads(app, home / FAILURES_FILE, ids)


async def test_keys_answer_while_P_looks_at_a_held_attachment(
    home: Path, tmp_path: Path, server: PdfServer
) -> None:
    """The paper passed over has an attachment (which the download would take): ``P`` looked
    at it, on a share held by another client, before saying what it does."""
    attachment = tmp_path / "zotero" / "study.pdf"  # no PDF within: the paper is passed over
    attachment.parent.mkdir()
    attachment.write_text("not a PDF\n")
    ids = library_of(home, tmp_path, server, attachment)
    server.behaviour["k0"] = "missing"
    app = PapersApp(Library(home), import_sample=False)
    await keys_answer_while_P_reads(app, attachment, ids)


def pane(app: PapersApp) -> str:
    from tui.widgets.paper_pane import PaperPane

    return app.main_screen.query_one(PaperPane).text.plain


async def test_the_pane_reads_the_failures_off_the_screens_thread(
    home: Path, tmp_path: Path, server: PdfServer
) -> None:
    """The pane says why a paper's PDF failed for good (``pdf-failures.json``): the file was
    read on the screen's thread by the first pane that showed a PDF link, and again whenever
    ``papers pdf`` changed it. Held (a share's other client), the app's start waited for it,
    no key read; now the keys answer, and the pane says it once the file is read."""
    ids = library_of(home, tmp_path, server, None)
    app = PapersApp(Library(home), import_sample=False)
    with held(home / FAILURES_FILE) as release:
        async with app.run_test(size=WIDE) as pilot:
            await ready(pilot)
            await pilot.press("2")  # the reading queue: its first paper's link failed
            await wait_for(pilot, lambda: plist(app).current is not None)
            await pilot.press("j")
            await wait_for(pilot, lambda: plist(app).current.id == ids[1])  # type: ignore[union-attr]
            await pilot.press("k")
            await wait_for(pilot, lambda: plist(app).current.id == ids[0])  # type: ignore[union-attr]
            assert still_held(home / FAILURES_FILE)  # the keys answered before the disk did
            assert "failed:" not in pane(app)
            release()
            await wait_for(pilot, lambda: "failed: HTTP 404 Not Found at 127.0.0.1" in pane(app))


async def test_P_again_lets_go_of_a_run_still_reading_a_held_file(
    home: Path, tmp_path: Path, server: PdfServer
) -> None:
    """``P`` again while ``P``'s read of ``pdf-failures.json`` waits on a held file (a hung
    share): it said "Stopping the downloads", and said so at each ``P`` after it until the
    disk answered, no download begun, none to begin. Nothing is written before the downloads
    begin: the run is let go at once, and ``P`` once more starts another, whose downloads go
    on once the disk answers (the one let go ends saying nothing)."""
    ids = library_of(home, tmp_path, server, None)
    server.behaviour["k0"] = "missing"
    app = PapersApp(Library(home), import_sample=False)
    async with app.run_test(size=WIDE) as pilot:
        screen = await ready(pilot)
        await pilot.press("2")
        await wait_for(pilot, lambda: plist(app).current is not None)
        with held(home / FAILURES_FILE) as release:
            await pilot.press("P")
            await wait_for(pilot, lambda: screen.pdfs.busy)
            await pilot.pause(0.3)  # (its read waits by then)
            await pilot.press("P")
            await wait_for(pilot, lambda: not screen.pdfs.busy)
            assert still_held(home / FAILURES_FILE)  # let go before the disk answered
            assert any(m.startswith("Stopped before any download: P again") for m in messages(app))
            await pilot.press("P")  # another run, whose read waits in turn
            await wait_for(pilot, lambda: screen.pdfs.busy)
            assert still_held(home / FAILURES_FILE)
            release()
        done = "1 PDF downloaded"
        await wait_for(pilot, lambda: any(m.startswith(done) for m in messages(app)), 20)
        await wait_for(pilot, lambda: not any(w.group == "pdf" for w in screen.workers))
        assert sum(m.startswith("Downloading 2 PDFs") for m in messages(app)) == 1
        assert not any(m.startswith("Stopping") for m in messages(app))
        assert screen.pdfs.has_copy(ids[1]) and not screen.pdfs.busy


async def test_P_is_free_once_its_downloads_end_though_its_last_read_waits(
    home: Path, tmp_path: Path, server: PdfServer
) -> None:
    """After its downloads ``P`` reads ``pdf-failures.json`` again (for the pane); held (a
    hung share), the summary waited for it, and ``P`` said "Stopping the downloads" until the
    disk answered, every download done. The summary is said, and ``P`` free, at once."""
    from tests.pdf_server import HELD_BYTES

    ids = library_of(home, tmp_path, server, None)
    (home / FAILURES_FILE).write_text(json.dumps({"format": 1, "papers": {}}), encoding="utf-8")
    server.behaviour["k1"] = "held"
    long = paper_pdf(tmp_path / "long.pdf", "Study 1", 40, seed=1).read_bytes()
    assert len(long) > HELD_BYTES  # (the held answer stalls within the file)
    server.pdfs["k1"] = long
    app = PapersApp(Library(home), import_sample=False)
    async with app.run_test(size=WIDE) as pilot:
        screen = await ready(pilot)
        await pilot.press("2")
        await wait_for(pilot, lambda: plist(app).current is not None)
        part = screen.pdfs.folder.part_of(ids[1])
        await pilot.press("P")  # the second held on its way
        await wait_for(pilot, lambda: part.exists() and part.stat().st_size >= HELD_BYTES // 2)
        with held(home / FAILURES_FILE):
            server.release.set()
            done = "2 PDFs downloaded"
            await wait_for(pilot, lambda: any(m.startswith(done) for m in messages(app)))
            assert not screen.pdfs.busy
            assert still_held(home / FAILURES_FILE)  # said before the disk answered
            await wait_for(pilot, lambda: screen.pdfs.has_copy(ids[1]))
            await pilot.press("P")
            every = "Every one of the papers of the queue has its PDF here."
            await wait_for(pilot, lambda: every in messages(app))
            assert not any(m.startswith("Stopping") for m in messages(app))
        # its read taken, the texts read, before the app ends
        await wait_for(pilot, lambda: not any(w.group == "pdf" for w in screen.workers))
        # (read in a child process: a 40-page PDF's text took over 10 s on a loaded machine)
        texts = screen.pdfs
        await wait_for(pilot, lambda: texts.texts is not None and len(texts.texts) == 2, 60)
