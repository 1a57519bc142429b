"""The reading queue and PDFs in the app (Pilot): move keys, a sort as one undo step, r
from the queue, the pane's PDF state, p and P against a real local server, pdf: search."""

from __future__ import annotations

import json
import stat
import sys
import time
from pathlib import Path

import pytest
from textual.pilot import Pilot

from storage import Library, Status
from storage.models import Paper
from storage.pdfs.download import Event
from tests.pdf_files import paper_pdf
from tests.pdf_server import PdfServer, library_list
from tests.tui.helpers import (
    big_library,
    make_app,
    messages,
    opened,
    plist,
    ready,
    settled,
    wait_for,
)
from tui.app import PapersApp
from tui.pdfs import progress_note
from tui.screens.dialogs import BulkDecision
from tui.screens.queue_sort import QueueSortDialog
from tui.stray_keys import GAP_S
from tui.widgets.paper_pane import PaperPane

WIDE = (120, 36)


def queued(home: Path, n: int = 5) -> list[str]:
    """Star ``n`` papers one by one, a minute apart an hour ago (their times order them)."""
    import time

    import storage.files.triage_file as triage_file

    library = Library(home)
    ids = [p.id for p in library.papers()][:n]
    real = triage_file.now
    try:
        for i, pid in enumerate(ids):
            triage_file.now = lambda i=i: time.time() - 3600 + 60 * i  # type: ignore[misc]
            library.set_status(pid, "starred")
    finally:
        triage_file.now = real
    return ids


def pane_text(app: PapersApp) -> str:
    return app.main_screen.query_one(PaperPane).text.plain


async def test_move_keys_reorder_the_queue_at_once_and_on_disk(seeded_home: Path) -> None:
    ids = queued(seeded_home)
    app = make_app(seeded_home)
    async with app.run_test(size=WIDE) as pilot:
        await ready(pilot)
        await pilot.press("2")
        assert [p.id for p in plist(app).row_papers()] == ids
        assert "reading queue" in app.main_screen.view.list_title(0, plist(app).rows)
        assert "reading queue · 1 / 5" in app.main_screen.view.list_title(0, plist(app).rows)
        await pilot.press("5")  # elsewhere the pane says where the paper stands in the queue
        assert "#1 of 5 in the queue" in pane_text(app)
        await pilot.press("2")
        await pilot.press("j", "j", "right_square_bracket")  # the third paper one place down
        assert [p.id for p in plist(app).row_papers()] == [ids[0], ids[1], ids[3], ids[2], ids[4]]
        assert plist(app).current.id == ids[2] and plist(app).cursor == 3  # type: ignore[union-attr]
        await pilot.press("left_curly_bracket")  # to the top
        assert plist(app).row_papers()[0].id == ids[2] and plist(app).cursor == 0
        await pilot.press("G", "left_square_bracket")  # the last one up one place
        order = [p.id for p in plist(app).row_papers()]
        assert order == [ids[2], ids[0], ids[1], ids[4], ids[3]]
        await settled(pilot)
        assert Library(seeded_home).queue() == order
        await pilot.press("u")  # one move, one undo step
        await settled(pilot)
        await wait_for(pilot, lambda: [p.id for p in plist(app).row_papers()][-1] == ids[4])
        assert Library(seeded_home).queue() == [ids[2], ids[0], ids[1], ids[3], ids[4]]
        await pilot.press("1", "right_square_bracket")  # not the queue: says where it is
        assert any("Starred tab" in m for m in messages(app))
    assert Library(seeded_home).statuses() == dict.fromkeys(ids, Status.STARRED)


async def test_a_move_between_tied_places_writes_the_paper_moved_alone(seeded_home: Path) -> None:
    """Papers starred on two devices before they synced stand at one place. ``]`` onto such a
    place numbered the whole queue again, each place a change for sync (205 in a review's
    queue); it writes the place of the paper moved alone."""
    ids = queued(seeded_home)
    tied = sorted(ids)[:2]  # (by id, the paper moved goes between them by no id)
    rest = [pid for pid in ids if pid not in tied]
    library = Library(seeded_home)
    library.place_in_queue({rest[0]: 1.0, tied[0]: 2.0, tied[1]: 2.0, rest[1]: 3.0, rest[2]: 4.0})
    assert library.queue() == [rest[0], *tied, *rest[1:]]
    before = library.triage().positions
    app = make_app(seeded_home)
    async with app.run_test(size=WIDE) as pilot:
        await ready(pilot)
        await pilot.press("2", "right_square_bracket")
        order = [tied[0], rest[0], tied[1], *rest[1:]]
        assert [p.id for p in plist(app).row_papers()] == order
        await settled(pilot)
    after = Library(seeded_home)
    assert after.queue() == order
    changed = {pid for pid in ids if after.triage().positions[pid] != before[pid]}
    assert changed == {rest[0]}


async def test_u_and_ctrl_r_of_an_imports_restored_queue_keep_its_order(
    seeded_home: Path, tmp_path: Path
) -> None:
    """The app undoes and redoes through the library as ``papers undo`` does: a backup's
    queue, restored by an import, comes back in its order (it came back in list order)."""
    from storage.export import export

    ids = queued(seeded_home)
    source = Library(seeded_home)
    source.move_in_queue(ids[3], "top")
    source.move_in_queue(ids[0], "bottom")
    order = source.queue()
    backup = tmp_path / "backup.json"
    backup.write_text(export(source.papers(), source.triage(), "json"), encoding="utf-8")
    home = tmp_path / "restored"
    Library(home).import_file(backup)
    app = make_app(home)
    async with app.run_test(size=WIDE) as pilot:
        await ready(pilot)
        await pilot.press("2")
        assert [p.id for p in plist(app).row_papers()] == order
        await pilot.press("u")
        await wait_for(pilot, lambda: not plist(app).row_papers())
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: len(plist(app).row_papers()) == 5)
        await settled(pilot)
        assert [p.id for p in plist(app).row_papers()] == order
    assert Library(home).queue() == order


async def sort_by_when_starred(pilot: Pilot[None], app: PapersApp, ids: list[str]) -> None:
    """In the queue of ``ids`` (starred in that order): the last moved to the top, then the
    queue sorted back by when its papers were starred (``Q``), one step."""
    await pilot.press("2", "G", "left_curly_bracket")  # the last to the top
    await pilot.press("Q")
    await wait_for(pilot, lambda: isinstance(app.screen, QueueSortDialog))
    await pilot.press("down", "down", "down", "down", "enter")  # by when starred
    await wait_for(pilot, lambda: [p.id for p in plist(app).row_papers()] == ids)
    await settled(pilot)


async def test_a_sort_is_one_step_and_r_takes_the_head_out_with_its_day(
    seeded_home: Path,
) -> None:
    ids = queued(seeded_home, 6)
    app = make_app(seeded_home)
    async with app.run_test(size=WIDE) as pilot:
        await ready(pilot)
        await sort_by_when_starred(pilot, app, ids)
        assert Library(seeded_home).queue() == ids
        said = "Queue sorted by when you starred them, oldest first. One step: u undoes it."
        assert said in messages(app)  # the whole order, not its first clause
        await pilot.press("u")
        await settled(pilot)
        await wait_for(pilot, lambda: plist(app).row_papers()[0].id == ids[5])
        head = plist(app).current
        assert head is not None and head.id == ids[5] and plist(app).cursor == 0
        await pilot.press("r")  # read: out of the queue, the next one is the head
        assert plist(app).current.id == ids[0]  # type: ignore[union-attr]
        await settled(pilot)
    library = Library(seeded_home)
    assert library.status(ids[5]) is Status.READ and ids[5] not in library.queue()
    stats = library.stats()
    assert stats.queue is not None and stats.queue.waiting == 5
    assert sum(n for _w, n in stats.queue.per_week) == 1


async def test_the_undo_and_redo_of_a_sort_say_it_was_the_sort(seeded_home: Path) -> None:
    """They said "Undid a move in the reading queue: …", as for a move by hand."""
    ids = queued(seeded_home, 6)
    app = make_app(seeded_home)
    async with app.run_test(size=WIDE) as pilot:
        await ready(pilot)
        await sort_by_when_starred(pilot, app, ids)
        await pilot.press("u")
        # (the sort moved one paper, the fewest places: its title is named)
        undid = "Undid the sort of the reading queue by when you starred them: "
        await wait_for(pilot, lambda: any(m.startswith(undid) for m in messages(app)))
        await settled(pilot)
        await pilot.press("ctrl+r")
        redid = "Redid the sort of the reading queue by when you starred them: "
        await wait_for(pilot, lambda: any(m.startswith(redid) for m in messages(app)))
        await settled(pilot)
        await pilot.press("u", "u")  # the sort, then the move by hand: said as before
        moved = "Undid a move in the reading queue: "
        await wait_for(pilot, lambda: any(m.startswith(moved) for m in messages(app)))
        await settled(pilot)
    assert Library(seeded_home).queue() == ids


async def test_a_sort_that_moves_nothing_says_so_and_makes_no_step(seeded_home: Path) -> None:
    ids = queued(seeded_home, 4)
    app = make_app(seeded_home)
    async with app.run_test(size=WIDE) as pilot:
        await ready(pilot)
        await pilot.press("2", "Q")
        await wait_for(pilot, lambda: isinstance(app.screen, QueueSortDialog))
        await pilot.press("down", "down", "down", "down", "enter")  # by when starred: as it is
        said = "Nothing moved: the queue is already sorted by when you starred them, oldest"
        await wait_for(pilot, lambda: any(m.startswith(said) for m in messages(app)))
        await settled(pilot)
        assert not any(m.startswith("Queue sorted") for m in messages(app))
    library = Library(seeded_home)
    assert library.queue() == ids
    assert library.undo_step().moves == []  # the last step is still the last star


async def test_a_rating_sort_without_ratings_says_none_has_one(seeded_home: Path) -> None:
    """It said "Nothing moved: the queue is in that order already (by rating, highest first
    (papers without one last))", as if the ratings agreed with the order."""
    ids = queued(seeded_home, 3)
    library = Library(seeded_home)
    assert not any(library.paper(pid).fact("rating") for pid in ids)
    app = make_app(seeded_home)
    async with app.run_test(size=WIDE) as pilot:
        await ready(pilot)
        await pilot.press("2", "Q")
        await wait_for(pilot, lambda: isinstance(app.screen, QueueSortDialog))
        await pilot.press("enter")  # by rating
        said = "None of the 3 starred papers has a rating: the queue keeps its order."
        await wait_for(pilot, lambda: said in messages(app))
        await settled(pilot)
    assert Library(seeded_home).queue() == ids


async def test_moving_past_the_head_or_the_end_says_so(seeded_home: Path) -> None:
    """[ on the head of the queue (] on its last paper) did nothing and said nothing."""
    ids = queued(seeded_home, 3)
    app = make_app(seeded_home)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        await pilot.press("2", "left_square_bracket")
        await wait_for(pilot, lambda: "at the head of the queue already" in " ".join(messages(app)))
        await pilot.press("G", "right_square_bracket")
        await wait_for(pilot, lambda: "at the end of the queue already" in " ".join(messages(app)))
        await settled(pilot)
    assert Library(seeded_home).queue() == ids


async def test_ctrl_q_quits_from_a_dialog_too(seeded_home: Path) -> None:
    """An app binding stops at a modal screen: ctrl+q ("Quit from any screen") did nothing
    over a dialog until it was made a priority binding."""
    queued(seeded_home, 2)
    app = make_app(seeded_home)
    quits: list[bool] = []

    async def quit_() -> None:
        quits.append(True)

    app.action_quit = quit_  # type: ignore[method-assign]
    async with app.run_test(size=WIDE) as pilot:
        await ready(pilot)
        await pilot.press("2", "Q")
        await wait_for(pilot, lambda: isinstance(app.screen, QueueSortDialog))
        await pilot.press("ctrl+q")
        await wait_for(pilot, lambda: bool(quits))


async def test_a_new_star_joins_the_end_or_the_top_as_config_says(seeded_home: Path) -> None:
    ids = queued(seeded_home, 2)
    (seeded_home / "config.toml").write_text('[queue]\nnew = "top"\n', encoding="utf-8")
    app = make_app(seeded_home)
    async with app.run_test(size=WIDE) as pilot:
        await ready(pilot)
        newcomer = plist(app).current
        assert newcomer is not None
        await pilot.press("s", "2")
        assert [p.id for p in plist(app).row_papers()] == [newcomer.id, *ids]
        await settled(pilot)
    assert Library(seeded_home).queue() == [newcomer.id, *ids]


def pdf_library(home: Path, server: PdfServer, tmp_path: Path) -> list[str]:
    titles = {f"k{n}": f"Sampler study {n}" for n in range(3)}
    for n, key in enumerate(titles):
        marker = f"A wombat theorem {key} bounds the sampler error."
        server.pdfs[key] = paper_pdf(
            tmp_path / f"{key}.pdf", titles[key], 2, seed=n, marker=marker
        ).read_bytes()
    server.behaviour["k2"] = "html"
    library = Library(home)
    library.import_file(library_list(tmp_path / "list.json", server, titles))
    ids = [p.id for p in library.papers()]
    for pid in ids:
        library.set_status(pid, "starred")
    return ids


def fake_browser(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A BROWSER that writes each address it is given to the file returned."""
    opened = tmp_path / "opened.txt"
    browser = tmp_path / "browser.sh"
    browser.write_text(f'#!/bin/sh\necho "$1" >> "{opened}"\n')
    browser.chmod(browser.stat().st_mode | stat.S_IXUSR)
    for name in ("DISPLAY", "WAYLAND_DISPLAY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("BROWSER", str(browser))
    return opened


def starred_attached(home: Path, tmp_path: Path, attachment: str) -> Paper:
    """A Zotero entry whose attachment is at ``attachment``, imported (no copy made: the
    library's import) and starred."""
    bib = tmp_path / "zotero.bib"
    bib.write_text(
        "@article{lee, title = {Sparse attention}, author = {Lee, Ann},\n"
        "  abstract = {We study sparse attention over long documents and show that it scales to "
        "a million tokens with little loss.},\n"
        f"  file = {{Full Text PDF:{attachment}:application/pdf}}}}\n"
    )
    library = Library(home)
    library.import_files([bib])
    (paper,) = [p for p in library.papers() if p.title == "Sparse attention"]
    library.set_status(paper.id, "starred")
    return paper


@pytest.mark.skipif(sys.platform == "win32", reason="a POSIX shell script as the browser")
async def test_p_opens_the_pdf_and_P_downloads_the_queue_then_pdf_search_finds_its_words(
    home: Path, tmp_path: Path, server: PdfServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened = fake_browser(tmp_path, monkeypatch)
    ids = pdf_library(home, server, tmp_path)
    app = PapersApp(Library(home), import_sample=False)
    async with app.run_test(size=WIDE) as pilot:
        screen = await ready(pilot)
        await pilot.press("2")
        assert "p opens it" in pane_text(app) and "/pdf?id=k0" in pane_text(app)
        await pilot.press("p")  # no local copy: the source's PDF
        await wait_for(pilot, lambda: opened.is_file() and "/pdf?id=k0" in opened.read_text())
        screen.pdfs.folder.path.mkdir(parents=True, exist_ok=True)
        await pilot.press("P")
        await wait_for(
            pilot, lambda: any(m.startswith("2 PDFs downloaded") for m in messages(app)), 20
        )
        failure = next(m for m in messages(app) if m.startswith("2 PDFs downloaded"))
        assert "1 failed" in failure and "not a PDF" in failure and ids[2] in failure
        assert screen.pdfs.has_copy(ids[0]) and not screen.pdfs.has_copy(ids[2])
        assert "local: Sampler study 0" in pane_text(app)
        row = plist(app).render_line(0).text
        assert "⎙" in row
        await wait_for(
            pilot, lambda: screen.pdfs.texts is not None and len(screen.pdfs.texts) == 2, 60
        )  # (read in a child process: 10-14 s on a loaded machine, past 20 s in a loaded run)
        await pilot.press("slash", *"pdf:wombat", "escape")
        await wait_for(pilot, lambda: len(plist(app).rows) == 2)
        assert "p. 2: A wombat theorem" in pane_text(app)
        await pilot.pause(1.0)  # (a letter right after leaving the box is held back: a stray)
        await pilot.press("p")  # the local copy now
        await wait_for(pilot, lambda: "file://" in opened.read_text())
        assert server.most_at_once == 1
        assert set(screen.pdfs.papers_with("wombat")) == {ids[0], ids[1]}
        copy = screen.pdfs.copy_of(ids[0])
        assert copy is not None
        copy.unlink()  # deleted by hand: its text stays until papers pdf, but is not searched
        await wait_for(pilot, lambda: not screen.pdfs.has_copy(ids[0]))
        assert set(screen.pdfs.papers_with("wombat")) == {ids[1]}


async def test_P_asks_again_for_a_pdf_that_failed_for_good_and_says_why(
    home: Path, tmp_path: Path, server: PdfServer
) -> None:
    """`papers pdf` passes over a paper whose link failed for good (a page that is no PDF,
    on two runs): P is the asking, so it says why that paper failed before and asks again;
    what it learns is what `papers pdf` reads (kept as it fails, forgotten once its copy is
    made)."""
    from storage.pdfs.failures import PdfFailures

    ids = pdf_library(home, server, tmp_path)
    paper = Library(home).paper(ids[2])
    app = PapersApp(Library(home), import_sample=False)
    async with app.run_test(size=WIDE) as pilot:
        await ready(pilot)
        await pilot.press("2", "P")
        await wait_for(
            pilot, lambda: any(m.startswith("2 PDFs downloaded") for m in messages(app)), 20
        )
        failure = PdfFailures(home).of(paper)
        assert failure is not None and failure.kind == "not a PDF"
        await pilot.press("P")  # the second run it fails so: papers pdf passes it over now
        await wait_for(
            pilot, lambda: sum(m.startswith("0 PDFs downloaded") for m in messages(app)) == 1, 20
        )
        assert PdfFailures(home).passed(paper, time.time()) is not None
        server.behaviour.pop("k2")  # (a login page no more)
        asked = len(server.requests)
        await pilot.press("P")
        await wait_for(
            pilot, lambda: any(m.startswith("1 PDF downloaded") for m in messages(app)), 20
        )
        said = [m for m in messages(app) if m.startswith("Downloading 1 PDF")][-1]
        assert said.endswith(f"\nIt failed before ({failure.cause}): asked for again."), said
        assert [r.paper for r in server.requests[asked:]] == ["k2"]
        assert PdfFailures(home).of(paper) is None


def test_the_progress_note_says_a_retry_after_of_0_as_no_wait() -> None:
    """The list's border said "waiting 0 s (the server asked)" for a ``Retry-After`` of 0 or
    of a date gone by: no wait, said as none (it shows too briefly for a Pilot to catch)."""
    paper = Paper("aaaa01000000", "A paper", "abstract")
    at_once = Event("wait", paper, 2, 5, seconds=0.0, message="HTTP 429: asking again at once")
    assert progress_note(at_once) == "PDF 2/5: asking again at once as the server allows"
    waited = Event("wait", paper, 2, 5, seconds=5.0, message="HTTP 429: the server asks")
    assert progress_note(waited) == "PDF 2/5: waiting 5 s (the server asked)"


async def test_pdfs_downloaded_or_deleted_elsewhere_show_while_the_app_runs(
    home: Path, tmp_path: Path, server: PdfServer
) -> None:
    """`papers pdf` in another terminal, or a file deleted: the rows' marks and the pane
    follow within a poll, without a restart."""
    from storage.pdfs.download import DownloadOptions, download_pdfs

    ids = pdf_library(home, server, tmp_path)
    app = PapersApp(Library(home), import_sample=False)
    async with app.run_test(size=WIDE) as pilot:
        screen = await ready(pilot)
        await pilot.press("2")
        assert "⎙" not in plist(app).render_line(0).text
        papers = [p for p in Library(home).papers() if p.id == ids[0]]
        options = DownloadOptions(pause=0.0)
        done = download_pdfs(papers, screen.pdfs.folder, options)  # as `papers pdf` would
        assert len(done.done) == 1
        await wait_for(pilot, lambda: "⎙" in plist(app).render_line(0).text)
        await wait_for(pilot, lambda: "local: Sampler study 0" in pane_text(app))
        done.done[0].unlink()
        await wait_for(pilot, lambda: "⎙" not in plist(app).render_line(0).text)
        await wait_for(pilot, lambda: "local:" not in pane_text(app))


@pytest.mark.skipif(sys.platform == "win32", reason="a POSIX shell script as the browser")
async def test_p_opens_a_papers_attachment_as_its_copy(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened = fake_browser(tmp_path, monkeypatch)
    attachment = paper_pdf(tmp_path / "Lee - 2024.pdf", "Sparse attention", 1, marker="okapi")
    paper = starred_attached(home, tmp_path, str(attachment))
    app = PapersApp(Library(home), import_sample=False)
    async with app.run_test(size=WIDE) as pilot:
        screen = await ready(pilot)
        await pilot.press("2")
        said = f"attached: {attachment} (p opens it)"  # a long path is broken in the pane
        assert "".join(said.split()) in "".join(pane_text(app).split())
        assert not screen.pdfs.has_copy(paper.id)
        await pilot.press("p")
        await wait_for(pilot, lambda: opened.is_file() and "file://" in opened.read_text())
        assert screen.pdfs.has_copy(paper.id)
        copy = screen.pdfs.copy_of(paper.id)
        assert copy is not None and copy.is_symlink()
        assert attachment.resolve().as_uri() in opened.read_text()  # the file itself opened
        await wait_for(pilot, lambda: "local: Sparse attention" in pane_text(app))
        assert "⎙" in plist(app).render_line(0).text


async def test_p_on_an_attachment_not_here_says_so_and_opens_nothing_local(
    home: Path, tmp_path: Path
) -> None:
    paper = starred_attached(home, tmp_path, f"{tmp_path}/gone\x1b[31m.pdf")
    app = PapersApp(Library(home), import_sample=False)
    async with app.run_test(size=WIDE) as pilot:
        screen = await ready(pilot)
        await pilot.press("2", "p")
        await wait_for(pilot, lambda: any("attachment is not here" in m for m in messages(app)))
        said = next(m for m in messages(app) if "attachment is not here" in m)
        assert "\x1b" not in said and "gone" in said
        await wait_for(pilot, lambda: any("No PDF known" in m for m in messages(app)))
        assert not screen.pdfs.has_copy(paper.id)


def starred_with_a_bad_pdf_field(home: Path, tmp_path: Path, attachment: str = "") -> Paper:
    """A starred paper whose list's ``pdf`` field no URL parser takes (``//[bad``: ``urljoin``
    raises ValueError), with an attachment at ``attachment`` (none for "")."""
    record = {
        "title": "Sparse attention",
        "abstract": "We study sparse attention over long documents and show that it scales.",
        "url": "http://127.0.0.1:9/forum?id=abc",
        "pdf": "//[bad/x.pdf",
    }
    if attachment:
        record["file"] = attachment
    listed = tmp_path / "hostile.jsonl"
    listed.write_text(json.dumps(record) + "\n", encoding="utf-8")
    library = Library(home)
    library.import_files([listed])
    (paper,) = library.papers()
    library.set_status(paper.id, "starred")
    return paper


@pytest.mark.skipif(sys.platform == "win32", reason="a POSIX shell script as the browser")
async def test_p_on_an_attachment_not_here_with_a_bad_pdf_field_keeps_the_app_up(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The attachment's worker ran with Textual's default ``exit_on_error``, and the ``pdf``
    field made ``pdf_url`` raise in it: ``p`` closed the whole app with a traceback. The
    attachment is said missing, the page's PDF opened, the app takes decisions on."""
    opened = fake_browser(tmp_path, monkeypatch)
    paper = starred_with_a_bad_pdf_field(home, tmp_path, f"{tmp_path}/gone.pdf")
    app = PapersApp(Library(home), import_sample=False)
    async with app.run_test(size=WIDE) as pilot:
        await ready(pilot)
        await pilot.press("2", "p")
        await wait_for(pilot, lambda: any("attachment is not here" in m for m in messages(app)))
        page_pdf = "http://127.0.0.1:9/pdf?id=abc"
        await wait_for(pilot, lambda: opened.is_file() and page_pdf in opened.read_text())
        assert app.is_running
        await pilot.press("r")  # the app takes decisions still, and writes them
        await settled(pilot)
        assert Library(home).status(paper.id) == Status.READ
    assert app.return_code in (0, None)


async def test_a_bad_pdf_field_shows_the_pages_pdf_in_the_pane(home: Path, tmp_path: Path) -> None:
    """The pane asked ``pdf_url`` as it showed the paper: the app closed as it started."""
    starred_with_a_bad_pdf_field(home, tmp_path)
    app = PapersApp(Library(home), import_sample=False)
    async with app.run_test(size=WIDE) as pilot:
        await ready(pilot)
        await pilot.press("2")
        page_pdf = "http://127.0.0.1:9/pdf?id=abc (p opens it)"
        await wait_for(pilot, lambda: page_pdf in " ".join(pane_text(app).split()))
        assert app.is_running


async def test_the_stats_screen_shows_the_queue(seeded_home: Path) -> None:
    from tui.screens.stats import StatsScreen

    ids = queued(seeded_home, 4)
    Library(seeded_home).set_status(ids[0], "read")
    app = make_app(seeded_home)
    async with app.run_test(size=WIDE) as pilot:
        await ready(pilot)
        await pilot.press("S")
        await wait_for(pilot, lambda: isinstance(app.screen, StatsScreen))
        summary = app.screen.summary().plain  # type: ignore[attr-defined]
        # read today, the first from the queue: said as read today, not as a week's pace
        assert "Reading queue: 3 papers waiting; 1 paper read from it today: " in summary
        assert "Read from the queue per week: " in summary


async def test_P_with_a_pdf_folder_that_links_to_nothing_says_so(
    home: Path, tmp_path: Path, server: PdfServer
) -> None:
    """``HOME/pdfs`` a symbolic link to a disk not mounted: the download's worker died on
    mkdir's "File exists", and the app said nothing at all."""
    pdf_library(home, server, tmp_path)
    (home / "pdfs").symlink_to(tmp_path / "unmounted" / "pdfs")
    app = PapersApp(Library(home), import_sample=False)
    async with app.run_test(size=WIDE) as pilot:
        screen = await ready(pilot)
        await pilot.press("2", "P")
        said = "a symbolic link to "
        await wait_for(pilot, lambda: any(said in m for m in messages(app)))
        assert not screen.pdfs.busy
        assert not any(m.startswith("Downloading") for m in messages(app))


async def test_P_into_a_folder_that_cannot_be_made_says_why(
    home: Path, tmp_path: Path, server: PdfServer
) -> None:
    """``[pdf] folder`` under a file: the download's worker died on the OSError unsaid."""
    pdf_library(home, server, tmp_path)
    (tmp_path / "a-file").write_text("not a folder\n")
    folder = tmp_path / "a-file" / "pdfs"
    (home / "config.toml").write_text(f'[pdf]\nfolder = "{folder}"\n')
    app = PapersApp(Library(home), import_sample=False)
    async with app.run_test(size=WIDE) as pilot:
        screen = await ready(pilot)
        await pilot.press("2", "P")
        said = "PDFs not downloaded: "
        await wait_for(pilot, lambda: any(m.startswith(said) for m in messages(app)), 20)
        assert not screen.pdfs.busy


async def test_P_with_an_empty_queue_says_it_is_empty(seeded_home: Path) -> None:
    """Nothing starred, nothing marked: P said "Every one of the papers of the queue has its
    PDF here." of a queue with no paper in it."""
    app = make_app(seeded_home)
    async with app.run_test(size=WIDE) as pilot:
        screen = await ready(pilot)
        await pilot.press("P")
        said = "The reading queue is empty"
        await wait_for(pilot, lambda: any(m.startswith(said) for m in messages(app)))
        assert not any("has its PDF here" in m for m in messages(app))
        assert not screen.pdfs.busy


def test_the_pdf_texts_of_a_library_without_any_are_read_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``pdf:`` searches asked for the texts loaded, else loaded them: none loaded and none
    there read the same empty file at each search (an empty ``PdfTexts`` is false)."""
    from storage.cache.pdf_text import PdfTexts
    from tui.pdfs import AppPdfs

    opened: list[Path] = []
    real_open = PdfTexts.open

    def counted(home: Path) -> PdfTexts:
        opened.append(home)
        return real_open(home)

    monkeypatch.setattr(PdfTexts, "open", staticmethod(counted))
    pdfs = AppPdfs(tmp_path, tmp_path / "pdfs")
    for _ in range(3):
        assert not pdfs.papers_with("attention") and not pdfs.has_texts()
    assert len(opened) == 1


@pytest.mark.skipif(sys.platform == "win32", reason="a POSIX shell script as the browser")
async def test_the_pane_names_the_open_pdf_key_as_remapped(
    home: Path, tmp_path: Path, server: PdfServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With ``open_pdf = "v"`` in config.toml the pane said "(p opens it)", and p did not."""
    opened = fake_browser(tmp_path, monkeypatch)
    pdf_library(home, server, tmp_path)
    (home / "config.toml").write_text('[keys]\nopen_pdf = "v"\n', encoding="utf-8")
    app = PapersApp(Library(home), import_sample=False)
    async with app.run_test(size=WIDE) as pilot:
        await ready(pilot)
        await pilot.press("2")
        assert "(v opens it)" in pane_text(app) and "p opens" not in pane_text(app)
        await pilot.press("v")
        await wait_for(pilot, lambda: opened.is_file() and "/pdf?id=k0" in opened.read_text())


async def test_a_move_outside_the_queues_order_says_what_to_do_with_the_keys_as_remapped(
    seeded_home: Path,
) -> None:
    """A move in the Starred tab while a search or the marked papers alone were shown said
    "the reading queue is the Starred tab (2): move papers there", in the Starred tab; and
    the keys it named were the defaults, whatever config.toml said."""
    ids = queued(seeded_home)
    keys = ['star = "f"', 'clear_search = "ctrl+e"', 'marked_view = "V"', 'tab_starred = "F"']
    (seeded_home / "config.toml").write_text("[keys]\n" + "\n".join(keys) + "\n")
    app = make_app(seeded_home)
    async with app.run_test(size=WIDE) as pilot:
        await ready(pilot)

        async def says(said: str) -> None:
            await wait_for(pilot, lambda: any(m.startswith(said) for m in messages(app)))

        moves = "The reading queue moves in its own order"
        await pilot.press("1", "right_square_bracket")
        await says(f"{moves}: go to the Starred tab (F) first.")
        await pilot.press("F", "slash", *"sampler", "enter")
        await wait_for(pilot, lambda: app.main_screen.view.query == "sampler")
        await pilot.pause(GAP_S)  # (letters right after leaving the box are held back)
        await pilot.press("right_square_bracket")
        await says(f"{moves}: clear the search (ctrl+e) first.")
        await pilot.press("ctrl+e", "escape")
        await wait_for(pilot, lambda: not app.main_screen.view.query)
        await pilot.pause(GAP_S)
        await pilot.press("space", "V", "right_square_bracket")
        await says(f"{moves}: show the whole list (V) first.")
        assert not any("Starred tab" in m for m in messages(app)[1:])
        assert Library(seeded_home).queue() == ids  # nothing moved
        await pilot.press("V", "space", *"iiiii")  # the queue emptied
        await wait_for(pilot, lambda: not app.main_screen.queue_ids())
        await pilot.press("Q")
        await says("The reading queue is empty: star papers (f) to queue them.")
        await pilot.press("P")
        await says("The reading queue is empty: star papers (f), or mark some (space)")


async def test_the_marked_papers_of_the_queue_alone_say_their_places(seeded_home: Path) -> None:
    """In the Starred tab with the marked papers alone shown (M), the list's title counts
    them (``marked only · 1 / 2``) and the pane said no place: where a paper stood in the
    queue was shown nowhere."""
    ids = queued(seeded_home)
    app = make_app(seeded_home)
    async with app.run_test(size=WIDE) as pilot:
        await ready(pilot)
        await pilot.press("2", "j", "j", "space", "space", "M")  # (space goes on to the next)
        await wait_for(pilot, lambda: len(plist(app).row_papers()) == 2)
        await pilot.pause()
        current = plist(app).current
        assert current is not None and current.id in ids[2:4]
        assert f"#{ids.index(current.id) + 1} of 5 in the queue" in pane_text(app)
        await pilot.press("M")  # the whole queue again: its title says the place
        await pilot.pause()
        assert "in the queue" not in pane_text(app)


async def test_a_filter_of_the_queue_keeps_its_order_and_so_does_its_export(
    seeded_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``tag:moe`` in the Starred tab listed the queue's #moe papers in the order of their
    lists, not the queue's (the paper moved to the head came last), and ``e`` wrote them so:
    a filter has no best first, and the reading queue's order is the user's. Elsewhere a
    filter keeps the list order."""
    from tui.screens.export import ExportScreen

    monkeypatch.chdir(tmp_path)
    ids = queued(seeded_home)
    library = Library(seeded_home)
    for pid in (ids[1], ids[4]):
        library.set_tags(pid, ["moe"])
    library.move_in_queue(ids[4], "top")
    titles = {p.id: p.display_title for p in library.papers()}
    app = make_app(seeded_home)
    async with app.run_test(size=WIDE) as pilot:
        screen = await ready(pilot)
        await pilot.press("2", "slash", *"tag:moe")
        await wait_for(pilot, lambda: len(plist(app).row_papers()) == 2)
        assert [p.id for p in plist(app).row_papers()] == [ids[4], ids[1]]
        await pilot.press("escape")  # the filter kept
        await pilot.pause(GAP_S)
        await pilot.press("e")
        await wait_for(pilot, lambda: isinstance(app.screen, ExportScreen))
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.screen is screen and any(tmp_path.glob("*.md")))
        (written,) = tmp_path.glob("*.md")
        text = written.read_text(encoding="utf-8")
        assert 0 < text.index(titles[ids[4]]) < text.index(titles[ids[1]])
        await pilot.press("5")  # the same filter in All: the list's order
        await wait_for(pilot, lambda: len(plist(app).row_papers()) == 2)
        assert [p.id for p in plist(app).row_papers()] == [ids[1], ids[4]]


@pytest.mark.slow(15)
async def test_a_search_of_the_queue_finds_its_papers_past_the_best_of_the_library(
    home: Path, tmp_path: Path
) -> None:
    """In a library of more papers than a search lists (the best 5,000), the Starred tab
    searched for a word every paper has, or filtered by a tag none has, said "No paper in
    Starred matches the search" of a queue whose every paper matched: the search took the
    best of the whole library, then the queue's papers among them."""
    from tui.view import SEARCH_LIMIT

    starred = big_library(home, tmp_path, SEARCH_LIMIT + 100)
    app = PapersApp(Library(home), import_sample=False)
    async with app.run_test(size=WIDE) as pilot:
        screen = await ready(pilot)
        await pilot.press("2", "slash", *"model")
        await wait_for(pilot, lambda: screen.view.found is not None, 20)
        await settled(pilot)
        assert sorted(p.id for p in plist(app).row_papers()) == sorted(starred)
        assert "best" not in screen.view.list_title(0, plist(app).rows)  # all of them
        await pilot.press("ctrl+l", *"-tag:none")
        await wait_for(pilot, lambda: screen.view.query == "-tag:none", 20)
        await settled(pilot)
        assert [p.id for p in plist(app).row_papers()] == starred  # the queue's order
        await pilot.press("escape", "1")  # the Inbox: filters only, so every paper they take
        await settled(pilot)
        assert len(plist(app).rows) == SEARCH_LIMIT + 100 - len(starred)
        assert "best" not in screen.view.list_title(0, plist(app).rows)
        await pilot.press("slash", "ctrl+u", *"model")  # words: the best 5,000, and said so
        await wait_for(pilot, lambda: screen.view.query == "model", 20)
        await settled(pilot)
        assert len(plist(app).rows) == SEARCH_LIMIT
        assert "best 5,000" in screen.view.list_title(0, plist(app).rows)


async def test_j_and_k_move_in_the_queue_sort_as_in_the_list(seeded_home: Path) -> None:
    """Only the arrows moved in Q's list of sorts: ``Q j j Enter`` sorted by rating (the
    first), not by venue (the third), as the similar papers' ``m j j Enter`` once did."""
    from textual.widgets import OptionList

    queued(seeded_home, 3)
    app = make_app(seeded_home)
    async with app.run_test(size=WIDE) as pilot:
        await ready(pilot)
        await pilot.press("2", "Q")
        await wait_for(pilot, lambda: isinstance(app.screen, QueueSortDialog))
        choices = app.screen.query_one(OptionList)
        start = choices.highlighted or 0
        await pilot.press("j", "j")
        assert choices.highlighted == start + 2
        await pilot.press("k")
        assert choices.highlighted == start + 1
        await pilot.press("j", "enter")  # the third: by venue status
        said = "venue status"
        await wait_for(pilot, lambda: any(said in m for m in messages(app)))
        await settled(pilot)
        assert not any("rating" in m for m in messages(app))


async def test_papers_starred_together_sort_by_when_starred_in_the_list_order(
    seeded_home: Path,
) -> None:
    """Three papers marked and starred at once (``D`` ``s``) had one time (to the second, in
    the app): the sort by when starred left them as the queue had them. They are a millisecond
    apart in the order they were decided, in the app as on disk."""
    ids = [p.id for p in Library(seeded_home).papers()][:3]
    app = make_app(seeded_home)
    async with app.run_test(size=WIDE) as pilot:
        await ready(pilot)
        await pilot.press("space", "space", "space")
        await opened(pilot, "D", BulkDecision)
        await pilot.press("s")
        await wait_for(pilot, lambda: all(app.session.status(p) is Status.STARRED for p in ids))
        await sort_by_when_starred(pilot, app, ids)
        times = [app.session.state.decided_at[pid] for pid in ids]
        assert times == sorted(set(times)), times
    on_disk = Library(seeded_home).triage().decided_at
    assert [on_disk[pid] for pid in ids] == sorted({on_disk[pid] for pid in ids})
