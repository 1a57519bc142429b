"""A removed paper's PDF failure outlives its removal for an undo (in-process: a real library,
real downloads from a server on 127.0.0.1, ``pdf-failures.json`` as written).

A paper whose PDF answered 404 once was removed; the next batch (``papers pdf``, or ``P`` in
the app, each of which prunes the failures first) forgot the failure, the paper being gone.
The removal undone, the paper was back without it: the pane and ``papers pdf --failed`` no
longer said why its PDF was not here, and its next 404 was counted as the first again, so it
was asked for on one run more. The failure is kept now until a month after a batch first
found its paper gone.
"""

from __future__ import annotations

import json
import time
from dataclasses import replace
from pathlib import Path

from storage import Library
from storage.models import Paper
from storage.pdfs.download import DownloadOptions, download_pdfs
from storage.pdfs.failures import FAILURES_FILE, REMOVED_KEPT_S, PdfFailures
from storage.pdfs.folder import PdfFolder
from tests.pdf_files import paper_pdf
from tests.pdf_server import PdfServer, library_list

#: No pause between two requests, no asking again: the test does not wait.
NOW = DownloadOptions(pause=0.0, retries=0)


def library_of_two(home: Path, tmp_path: Path, server: PdfServer) -> tuple[Library, list[Paper]]:
    """Two papers on ``server``: the first's PDF missing (404), the second's there."""
    server.behaviour["p00"] = "missing"
    pdf = paper_pdf(tmp_path / "made" / "p01.pdf", "Study one", 1, seed=1)
    server.pdfs["p01"] = pdf.read_bytes()
    titles = {"p00": "Study zero", "p01": "Study one"}
    library = Library(home)
    library.import_file(library_list(tmp_path / "list.json", server, titles))
    return library, library.papers()


def batch(library: Library, papers: list[Paper], folder: PdfFolder) -> PdfFailures:
    """One batch, as ``papers pdf`` runs it: the failures pruned first, then the downloads."""
    failures = PdfFailures(library.home)
    failures.prune({paper.id for paper in library.papers()}, time.time())
    todo, _passed = failures.sort_out(papers, folder.copies())
    download_pdfs(todo, folder, NOW, failures.learn)
    return failures


def test_an_undone_removal_finds_the_papers_failure_as_it_was(
    home: Path, tmp_path: Path, server: PdfServer
) -> None:
    library, (missing, there) = library_of_two(home, tmp_path, server)
    folder = PdfFolder(tmp_path / "pdfs")
    batch(library, [missing], folder)
    failure = PdfFailures(home).of(missing)
    assert failure is not None and failure.seen == 1 and "404" in failure.cause

    library.remove([missing.id])
    batch(library, [there], folder)  # the next batch, of another paper
    assert [r.paper for r in server.requests] == ["p00", "p01"]
    library.undo()  # the paper back

    kept = PdfFailures(home).of(missing)  # what the pane and --failed say why with
    assert kept is not None and replace(kept, gone=None) == failure
    assert kept.gone is not None  # found gone by that batch (the next one forgets it)
    batch(library, [missing], folder)  # its second 404 in a row (it was counted the first)
    again = PdfFailures(home).of(missing)
    assert again is not None and again.seen == 2 and again.gone is None
    _todo, passed = PdfFailures(home).sort_out([missing], folder.copies())
    assert [paper.id for paper, _ in passed] == [missing.id]  # passed over from now on
    assert [r.paper for r in server.requests] == ["p00", "p01", "p00"]


def test_a_month_after_it_was_found_gone_it_goes(
    home: Path, tmp_path: Path, server: PdfServer
) -> None:
    library, (missing, there) = library_of_two(home, tmp_path, server)
    folder = PdfFolder(tmp_path / "pdfs")
    batch(library, [missing], folder)
    library.remove([missing.id])
    batch(library, [there], folder)
    path = home / FAILURES_FILE
    data = json.loads(path.read_text(encoding="utf-8"))
    data["papers"][missing.id]["gone"] -= REMOVED_KEPT_S - 60  # a minute short of a month
    path.write_text(json.dumps(data), encoding="utf-8")
    assert PdfFailures(home).prune({there.id}, time.time()) == 0
    data["papers"][missing.id]["gone"] -= 120  # a minute past it
    path.write_text(json.dumps(data), encoding="utf-8")
    assert PdfFailures(home).prune({there.id}, time.time()) == 1
    assert json.loads(path.read_text(encoding="utf-8"))["papers"] == {}
