"""What the paper pane says of a PDF that is not there as a PDF: a download that failed for
good (a 404, a page instead of the PDF) and a file named as the paper's copy that is no PDF.
Against a real server on 127.0.0.1 and real PDF files."""

from __future__ import annotations

from pathlib import Path

from storage import Library
from storage.models import Paper
from storage.pdfs.download import Event
from storage.pdfs.failures import PdfFailures
from storage.pdfs.folder import pdf_name
from tests.pdf_files import paper_pdf
from tests.pdf_server import PdfServer, library_list
from tests.tui.helpers import messages, plist, ready, wait_for
from tui.app import PapersApp
from tui.pdfs import CAUSE_CELLS
from tui.widgets.paper_pane import PaperPane

WIDE = (120, 36)

#: What a login page served as a paper's PDF is saved as by an older version.
LOGIN_PAGE = b"<!DOCTYPE html><html><body>Please log in</body></html>\n"


def starred_library(home: Path, server: PdfServer, tmp_path: Path) -> list[Paper]:
    """Three starred papers whose PDFs the server has (k0 first in the queue, k2 last)."""
    titles = {f"k{n}": f"Sampler study {n}" for n in range(3)}
    for n, key in enumerate(titles):
        path = paper_pdf(tmp_path / f"{key}.pdf", titles[key], 1, seed=n)
        server.pdfs[key] = path.read_bytes()
    library = Library(home)
    library.import_file(library_list(tmp_path / "list.json", server, titles))
    papers = library.papers()
    for paper in papers:
        library.set_status(paper.id, "starred")
    return papers


def pane_text(app: PapersApp) -> str:
    return app.main_screen.query_one(PaperPane).text.plain


def pdf_row(app: PapersApp) -> str:
    """The pane's PDF row, its lines wrapped under its label joined again."""
    lines = pane_text(app).splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("PDF    "))
    row = [lines[start]]
    for line in lines[start + 1 :]:
        if not (line.startswith(" " * 7) and line.strip()):
            break
        row.append(line.strip())
    return " ".join(row)


async def test_the_pane_says_why_a_pdf_failed_for_good_not_the_link_p_opens(
    home: Path, tmp_path: Path, server: PdfServer
) -> None:
    """After P, a paper whose link answered 404, or sent a login page, showed "PDF http://…
    (p opens it)" as before the download: the cause kept in pdf-failures.json is shown, with
    its server and the command that asks again, on one line."""
    papers = starred_library(home, server, tmp_path)
    server.behaviour["k1"] = "missing"
    server.behaviour["k2"] = "html"
    app = PapersApp(Library(home), import_sample=False)
    async with app.run_test(size=WIDE) as pilot:
        screen = await ready(pilot)
        await pilot.press("2")
        screen.pdfs.folder.path.mkdir(parents=True, exist_ok=True)
        await pilot.press("P")
        await wait_for(
            pilot, lambda: any(m.startswith("1 PDF downloaded") for m in messages(app)), 20
        )
        host = server.base.removeprefix("http://")
        await pilot.press("j")  # k1: 404
        await wait_for(pilot, lambda: "failed:" in pane_text(app))
        said = f"PDF    failed: HTTP 404 Not Found at {host} (papers pdf --retry {papers[1].id})"
        assert pdf_row(app) == said, pane_text(app)
        assert f"\n{' ' * 7}(papers pdf --retry {papers[1].id})\n" in pane_text(app)  # kept whole
        await pilot.press("j")  # k2: a login page
        await wait_for(pilot, lambda: papers[2].id in pane_text(app))
        said = f"PDF    failed: not a PDF at {host} (papers pdf --retry {papers[2].id})"
        assert pdf_row(app) == said, pane_text(app)  # (papers pdf --failed: what the server sent)
        assert "opens it" not in pane_text(app)
        await pilot.press("k", "k")  # k0: its copy
        await wait_for(pilot, lambda: "local: Sampler study 0" in pane_text(app))


async def test_a_failures_cause_from_a_server_is_shown_printable_and_cut(
    home: Path, tmp_path: Path, server: PdfServer
) -> None:
    """The cause is a server's words (its reason phrase): markup, ESC, a bidirectional
    override and a long phrase are shown as text, visible, and cut to one line."""
    papers = starred_library(home, server, tmp_path)
    hostile = "HTTP 404 [bold red]Gone[/] \x1b]52;c;aGk=\x07 \u202eevil " + "x" * 300
    PdfFailures(home).learn(Event("failed", papers[0], 1, 1, message=hostile, lasting=True))
    app = PapersApp(Library(home), import_sample=False)
    async with app.run_test(size=WIDE) as pilot:
        await ready(pilot)
        await pilot.press("2")
        await wait_for(pilot, lambda: "failed:" in pane_text(app))
        row = pdf_row(app)
        state = app.main_screen.pdfs.state(papers[0])  # one line, however wide the pane
        assert "\n" not in state and len(state) < CAUSE_CELLS + 80, state
        assert "[bold red]Gone[/]" in row and "\x1b" not in row and "\u202e" not in row
        assert "x" * (CAUSE_CELLS + 1) not in row and "…" in row
        assert row.endswith(f"(papers pdf --retry {papers[0].id})")


async def test_a_page_saved_as_a_papers_pdf_is_no_copy_and_the_pane_says_so(
    home: Path, tmp_path: Path, server: PdfServer
) -> None:
    """A login page an older version saved as ``Title (id).pdf`` counted as the paper's copy:
    the row's mark, "local: …" in the pane (p opened the page), and P said every paper had
    its PDF here. It is no copy now; the pane says the file is not a PDF, and P replaces it
    with the PDF."""
    papers = starred_library(home, server, tmp_path)
    folder = home / "pdfs"
    folder.mkdir()
    page = folder / pdf_name(papers[0])
    page.write_bytes(LOGIN_PAGE)
    for paper in papers[1:]:  # the others have their PDFs here
        (folder / pdf_name(paper)).write_bytes(server.pdfs[paper.url.rsplit("=", 1)[1]])
    app = PapersApp(Library(home), import_sample=False)
    async with app.run_test(size=WIDE) as pilot:
        screen = await ready(pilot)
        await pilot.press("2")
        await wait_for(pilot, lambda: "not a PDF" in pane_text(app))
        said = f"PDF    not a PDF: the file named as its copy (papers pdf {papers[0].id} replaces"
        assert pdf_row(app).startswith(said), pane_text(app)
        assert not screen.pdfs.has_copy(papers[0].id) and screen.pdfs.has_copy(papers[1].id)
        assert "⎙" not in plist(app).render_line(0).text
        assert "⎙" in plist(app).render_line(1).text
        await pilot.press("P")
        await wait_for(
            pilot, lambda: any(m.startswith("1 PDF downloaded") for m in messages(app)), 20
        )
        assert not any(m.startswith("Every one of the") for m in messages(app))
        assert [r.paper for r in server.requests] == ["k0"]
        assert page.read_bytes() == server.pdfs["k0"]
        await wait_for(pilot, lambda: "local: Sampler study 0" in pane_text(app))
        assert "⎙" in plist(app).render_line(0).text


async def test_a_failure_papers_pdf_keeps_in_another_terminal_shows_while_the_app_runs(
    home: Path, tmp_path: Path, server: PdfServer
) -> None:
    """`papers pdf` in another terminal fails a paper's link for good (then it mends): the
    pane of that paper says so within a poll, without a key, and forgets it."""
    from storage.pdfs.download import DownloadOptions, download_pdfs
    from storage.pdfs.folder import PdfFolder

    papers = starred_library(home, server, tmp_path)
    server.behaviour["k0"] = "gone"
    app = PapersApp(Library(home), import_sample=False)
    async with app.run_test(size=WIDE) as pilot:
        await ready(pilot)
        await pilot.press("2")
        await wait_for(pilot, lambda: "(p opens it)" in pane_text(app))
        failures = PdfFailures(home)  # as `papers pdf` keeps them
        folder, fast = PdfFolder(home / "pdfs"), DownloadOptions(pause=0.0)
        download_pdfs(papers[:1], folder, fast, failures.learn)
        await wait_for(pilot, lambda: "failed: HTTP 410 Gone at " in pane_text(app))
        server.behaviour.pop("k0")
        download_pdfs(papers[:1], folder, fast, failures.learn)
        await wait_for(pilot, lambda: "local: Sampler study 0" in pane_text(app))
