"""PDFs (storage.pdfs, storage.cache.pdf_text): links, names, downloads from a real local
server (429s, broken files, resumes), the text read and searched with pdf:."""

from __future__ import annotations

import contextlib
import json
import os
import threading
import time
from pathlib import Path

import pytest

from storage.cache.pdf_text import PdfTexts, update_texts
from storage.models import Paper
from storage.pdfs.download import (
    DownloadOptions,
    DownloadReport,
    Event,
    download_pdfs,
    retry_after,
)
from storage.pdfs.folder import TITLE_BYTES, PdfFolder, pdf_name, safe_title
from storage.pdfs.links import pdf_url
from tests.pdf_files import paper_pdf
from tests.pdf_server import PdfServer

FAST = DownloadOptions(pause=0.0, max_wait=5.0, default_wait=0.1)


@pytest.fixture(scope="module")
def pdf_bytes(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    folder = tmp_path_factory.mktemp("made")
    made = {}
    for n, key in enumerate(["aaaa01", "bbbb02", "cccc03", "dddd04"]):
        marker = f"The quokka lemma {key} holds for every bounded sampler."
        path = paper_pdf(folder / f"{key}.pdf", f"Paper {key}", 3, seed=n, marker=marker)
        made[key] = path.read_bytes()
    return made


@pytest.fixture
def server(pdf_bytes: dict[str, bytes]):  # type: ignore[no-untyped-def]
    running = PdfServer(pdfs=dict(pdf_bytes)).start()
    yield running
    running.stop()


def paper(server: PdfServer, key: str, title: str = "") -> Paper:
    return Paper(f"{key}000000"[:12], title or f"Paper {key}", "abstract", url=server.forum(key))


# -- where the PDF is -----------------------------------------------------------------------


#: Every address in these tests is this machine's (the paths are what OpenReview and arXiv use).
SITE = "http://127.0.0.1:9"


def test_pdf_links_from_openreview_arxiv_and_a_pdf_field() -> None:
    def url_of(page: str, **more: object) -> str:
        return pdf_url(Paper("a", "t", "x", url=page, **more))  # type: ignore[arg-type]

    assert url_of(f"{SITE}/forum?id=Ab-9_x") == f"{SITE}/pdf?id=Ab-9_x"  # OpenReview
    assert url_of(f"{SITE}/abs/2401.01234v2") == f"{SITE}/pdf/2401.01234v2"  # arXiv
    assert url_of(f"{SITE}/abs/hep-th/9901001") == f"{SITE}/pdf/hep-th/9901001"  # an old id
    relative = url_of(f"{SITE}/forum?id=Q", extra=(("pdf", "/pdf/1f2e.pdf"),))
    assert relative == f"{SITE}/pdf/1f2e.pdf"  # OpenReview's content.pdf: a path on its site
    assert url_of(f"{SITE}/paper.PDF").endswith(".PDF")
    for page in (f"{SITE}/a/b", "", "javascript:alert(1)", f"{SITE}/forum", f"{SITE}/abs/notanid"):
        assert url_of(page) == ""
    assert url_of("", extra=(("pdf", "file:///etc/passwd"),)) == ""
    spaced = url_of("", extra=(("pdf", f"{SITE}/papers/My Paper v2.pdf"),))
    assert spaced == f"{SITE}/papers/My%20Paper%20v2.pdf"  # a file name with spaces


def test_a_pdf_field_no_url_parser_takes_is_no_address() -> None:
    """``urljoin`` raises ValueError for a malformed IPv6 host (``//[bad``): a list's ``pdf``
    field so made crashed the app as it showed the paper, ``papers export`` and ``papers pdf``;
    it is no address, and the page's PDF is the paper's."""
    port = "http://[::1]:x/a.pdf", "http://127.0.0.1:99999/a.pdf", "http://127.0.0.1:8a/a.pdf"
    for given in ("//[bad/x.pdf", "http://[::1/x.pdf", *port):  # a port no connection takes
        paper = Paper("a", "t", "x", url=f"{SITE}/forum?id=Q", extra=(("pdf", given),))
        assert pdf_url(paper) == f"{SITE}/pdf?id=Q"
        assert pdf_url(Paper("a", "t", "x", extra=(("pdf", given),))) == ""


def test_a_lists_pdf_field_is_kept_and_read_against_the_page(tmp_path: Path) -> None:
    import json

    from storage import Library

    listed = tmp_path / "list.json"
    records = [
        {"title": "A", "abstract": "First.", "url": f"{SITE}/forum?id=A1", "pdf": "/pdf/aa.pdf"},
        {"title": "B", "abstract": "Second abstract.", "pdf_url": f"{SITE}/b.pdf"},
    ]  # fmt: skip
    listed.write_text(json.dumps(records), encoding="utf-8")
    library = Library(tmp_path / "home")
    library.import_file(listed)
    found = {p.title: pdf_url(p) for p in library.papers()}
    assert found == {"A": f"{SITE}/pdf/aa.pdf", "B": f"{SITE}/b.pdf"}


def test_file_names_replace_what_file_systems_refuse() -> None:
    name = pdf_name(Paper("0123456789ab", 'A/B: "C" <d> e|f? g*\\h\x1b[2J\u202e.', "x"))
    assert name.endswith(" (0123456789ab).pdf")
    assert not set(name) & set('/\\:*?"<>|\x1b\u202e')
    assert safe_title("  ...  ") == "paper" and safe_title("Title. ") == "Title"
    long = safe_title("é" * 500)
    assert len(long.encode()) <= TITLE_BYTES + 3 and long.endswith("…")
    assert len(pdf_name(Paper("0123456789ab", "x" * 1000, "y")).encode()) < 200


def test_retry_after_in_seconds_or_as_a_date() -> None:
    assert retry_after("120") == 120.0
    assert retry_after(None) is None and retry_after("soon") is None
    in_a_minute = retry_after("Wed, 01 Dec 2100 00:01:00 GMT", now=4_131_302_400.0)
    assert in_a_minute == 60.0


# -- downloading ----------------------------------------------------------------------------


def test_a_copy_renamed_in_within_the_folders_clock_tick_is_seen(tmp_path: Path) -> None:
    """A kernel stamps a folder's changes with a coarse clock (a few ms; FAT: 2 s): a copy
    renamed into it within the tick of the scan before left its time as it was, and the
    scan kept was taken for the folder's contents (the app's marks missed a PDF that
    `papers pdf` had just written, until the folder changed again)."""
    folder = PdfFolder(tmp_path / "pdfs")
    folder.path.mkdir()
    (folder.path / ".aaaa01.pdf.part").write_bytes(b"%PDF-")  # a download under way
    stamp = folder.path.stat().st_mtime_ns
    assert folder.copies() == {}
    (folder.path / ".aaaa01.pdf.part").rename(folder.path / "Title (aaaa01).pdf")
    os.utime(folder.path, ns=(stamp, stamp))  # within the same tick
    assert folder.copies() == {"aaaa01": folder.path / "Title (aaaa01).pdf"}


def test_a_folder_stamped_ahead_of_this_clock_is_listed_once_until_it_changes(
    tmp_path: Path,
) -> None:
    """A folder on a share whose server's clock runs an hour ahead: its time was never "a
    while ago" by this clock, so no scan of it was kept and the app listed it in full every
    second. Its scan is kept now until its time moves, and what changed then is seen."""
    folder = PdfFolder(tmp_path / "pdfs")
    folder.path.mkdir()
    (folder.path / "Title (aaaa01).pdf").write_bytes(b"%PDF-1.4 one")
    ahead = time.time_ns() + 3600 * 1_000_000_000
    os.utime(folder.path, ns=(ahead, ahead))
    assert folder.changed()
    assert set(folder.copies()) == {"aaaa01"}
    assert not folder.changed() and not folder.changed()
    (folder.path / "Title (bbbb02).pdf").write_bytes(b"%PDF-1.4 two")
    os.utime(folder.path, ns=(ahead + 1_000_000_000,) * 2)  # the server's time for it
    assert folder.changed()
    assert set(folder.copies()) == {"aaaa01", "bbbb02"}
    assert not folder.changed()
    # a clock a moment ahead, the folder written just now: not kept, as by this clock
    (folder.path / "Title (cccc03).pdf").write_bytes(b"%PDF-1.4 three")
    soon = time.time_ns() + 1_000_000_000
    os.utime(folder.path, ns=(soon, soon))
    assert set(folder.copies()) == {"aaaa01", "bbbb02", "cccc03"}
    assert folder.changed()


def test_downloads_one_at_a_time_with_pauses_into_named_checked_files(
    tmp_path: Path, server: PdfServer, pdf_bytes: dict[str, bytes]
) -> None:
    papers = [paper(server, k, f"Title {k}: a/b") for k in ("aaaa01", "bbbb02", "cccc03")]
    events: list[Event] = []
    folder = PdfFolder(tmp_path / "pdfs")
    options = DownloadOptions(pause=0.2)
    report = download_pdfs(papers, folder, options, events.append)
    assert len(report.done) == 3 and not report.failed
    for p in papers:
        copy = folder.copy_of(p.id)
        assert copy is not None and copy.name == pdf_name(p)
        assert copy.read_bytes() == pdf_bytes[p.url.rsplit("=", 1)[1]]
    assert server.most_at_once == 1
    gaps = [b.start - a.end for a, b in zip(server.requests, server.requests[1:], strict=False)]
    assert min(gaps) >= 0.18
    assert {e.kind for e in events} >= {"start", "bytes", "done"}
    again = download_pdfs(papers, folder, FAST)  # nothing to do: each one already here
    assert again.skipped == 3 and not again.done and len(server.requests) == 3
    assert sorted(p.name for p in folder.path.iterdir()) == sorted(pdf_name(p) for p in papers)


def test_a_429_is_waited_for_as_retry_after_says_and_shown(
    tmp_path: Path, server: PdfServer
) -> None:
    server.behaviour["aaaa01"] = "busy:2:1"
    events: list[Event] = []
    start = time.monotonic()
    report = download_pdfs([paper(server, "aaaa01")], PdfFolder(tmp_path), FAST, events.append)
    assert len(report.done) == 1
    assert time.monotonic() - start >= 2.0  # two waits of one second
    waits = [e for e in events if e.kind == "wait"]
    assert len(waits) == 2 and waits[0].seconds == 1.0 and "429" in waits[0].message


def test_a_retry_after_longer_than_the_bound_fails_the_paper_not_the_batch(
    tmp_path: Path, server: PdfServer
) -> None:
    server.behaviour["aaaa01"] = "busy:9:3600"
    papers = [paper(server, "aaaa01"), paper(server, "bbbb02")]
    report = download_pdfs(papers, PdfFolder(tmp_path), FAST)
    assert len(report.done) == 1 and len(report.failed) == 1
    assert "3,600 s" in report.failed[0] and report.failed[0].startswith(papers[0].id)


@pytest.mark.parametrize(
    ("how", "cause"),
    [
        ("html", "not a PDF (the server sent text/html"),
        ("big", "cap"),
        ("huge", "cap"),
        ("missing", "HTTP 404"),
    ],
)
def test_broken_answers_fail_in_one_line_and_leave_nothing(
    tmp_path: Path, server: PdfServer, how: str, cause: str
) -> None:
    server.behaviour["aaaa01"] = how
    options = DownloadOptions(pause=0.0, max_bytes=2 * 1024 * 1024)
    target = paper(server, "aaaa01", "Broken")
    report = download_pdfs([target], PdfFolder(tmp_path), options)
    assert not report.done and len(report.failed) == 1
    assert cause in report.failed[0] and "\n" not in report.failed[0]
    assert report.failed[0].startswith(f"{target.id}  Broken: ")
    assert list(tmp_path.iterdir()) == []  # no part, no file


def test_a_download_cut_short_resumes_where_it_stopped(
    tmp_path: Path, server: PdfServer, pdf_bytes: dict[str, bytes]
) -> None:
    server.behaviour["aaaa01"] = "truncated"
    target = paper(server, "aaaa01")
    folder = PdfFolder(tmp_path)
    first = download_pdfs([target], folder, FAST)
    assert "cut short" in first.failed[0] and folder.copy_of(target.id) is None
    part = folder.part_of(target.id)
    assert 0 < part.stat().st_size < len(pdf_bytes["aaaa01"])
    second = download_pdfs([target], folder, FAST)
    assert len(second.done) == 1
    assert server.requests[-1].headers.get("Range") == f"bytes={len(pdf_bytes['aaaa01']) // 2}-"
    assert folder.copy_of(target.id).read_bytes() == pdf_bytes["aaaa01"]  # type: ignore[union-attr]
    assert not part.exists()


def test_a_size_under_a_kilobyte_is_said_in_bytes(tmp_path: Path, server: PdfServer) -> None:
    """A small PDF cut short said "after 0 KB of 1 KB"."""
    import io

    from pypdf import PdfWriter

    writer = PdfWriter()
    writer.add_blank_page(612, 792)
    made = io.BytesIO()
    writer.write(made)
    small = made.getvalue()
    assert len(small) < 1024
    server.pdfs["aaaa01"], server.behaviour["aaaa01"] = small, "truncated"
    report = download_pdfs([paper(server, "aaaa01")], PdfFolder(tmp_path), FAST)
    half, whole = len(small) // 2, len(small)
    assert f"cut short after {half} bytes of {whole} bytes (resumes next time)" in report.failed[0]


@pytest.mark.parametrize("how", ["ok", "noetag"])
def test_a_part_of_a_file_changed_since_is_not_joined_to_the_new_one(
    how: str, tmp_path: Path, server: PdfServer, pdf_bytes: dict[str, bytes]
) -> None:
    """Cut short, then the server's file is another version (a new arXiv version): the rest
    is not added to the old start. With an ``ETag`` the server sends all of the new one
    (``If-Range``); without, its size differs from the part's file: started again."""
    server.behaviour["aaaa01"] = "truncated"
    target = paper(server, "aaaa01")
    folder = PdfFolder(tmp_path)
    assert "cut short" in download_pdfs([target], folder, FAST).failed[0]
    newer = pdf_bytes["bbbb02"]  # another file of another size
    assert len(newer) != len(pdf_bytes["aaaa01"])
    server.pdfs["aaaa01"], server.behaviour["aaaa01"] = newer, how
    again = download_pdfs([target], folder, FAST)
    assert len(again.done) == 1 and not again.failed, again.failed
    assert folder.copy_of(target.id).read_bytes() == newer  # type: ignore[union-attr]
    if how == "ok":
        assert server.requests[-1].headers.get("If-Range", "").startswith('"')
    assert sorted(p.name for p in tmp_path.iterdir()) == [pdf_name(target)]  # nothing else


def test_a_second_batch_into_the_same_folder_waits_its_turn(
    tmp_path: Path, server: PdfServer
) -> None:
    """Two downloads at once would write one part together: the second batch does nothing
    and says why."""
    server.behaviour["aaaa01"] = "held"
    folder = PdfFolder(tmp_path)
    first: list[object] = []
    thread = threading.Thread(
        target=lambda: first.append(download_pdfs([paper(server, "aaaa01")], folder, FAST))
    )
    thread.start()
    try:
        deadline = time.monotonic() + 30
        while not folder.part_of("aaaa01000000").exists() and time.monotonic() < deadline:
            time.sleep(0.02)
        second = download_pdfs([paper(server, "aaaa01")], folder, FAST)
        assert second.busy and not second.done and "another download" in second.summary()
    finally:
        server.release.set()
        thread.join(60)
    assert len(first[0].done) == 1  # type: ignore[attr-defined]
    assert sorted(p.name for p in tmp_path.iterdir()) == [pdf_name(paper(server, "aaaa01"))]


def test_the_folder_lock_is_held_once_when_its_holder_removes_it_as_another_opens_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The holder removes the lock file as its batch ends: a batch that had opened it just
    before, and locks it after a third batch made and locked a new one, must not hold the
    folder too. The timing is forced: the second batch's lock call first ends the first batch
    and starts the third."""
    import fcntl

    from storage.pdfs.download import LOCK_NAME, _batch_lock

    real_flock = fcntl.flock
    first, third = _batch_lock(tmp_path), _batch_lock(tmp_path)
    assert first.__enter__() is True
    held: dict[str, bool] = {}

    def flock(fd: int, operation: int) -> None:
        if not held:  # the second batch, between its open and its lock
            held["first"] = True
            first.__exit__(None, None, None)  # its lock file removed
            held["third"] = third.__enter__()  # a new lock file, locked
        real_flock(fd, operation)

    monkeypatch.setattr(fcntl, "flock", flock)
    with _batch_lock(tmp_path) as second:
        assert held["third"] is True and second is False
    third.__exit__(None, None, None)
    assert not (tmp_path / LOCK_NAME).exists()  # the folder keeps no file of ours
    with _batch_lock(tmp_path) as later:
        assert later is True


def test_a_pdf_after_white_space_is_a_pdf(tmp_path: Path, server: PdfServer) -> None:
    server.pdfs["aaaa01"] = b"\r\n" + server.pdfs["aaaa01"]
    report = download_pdfs([paper(server, "aaaa01")], PdfFolder(tmp_path), FAST)
    assert len(report.done) == 1, report.failed


#: What real servers put around a PDF that pypdf reads: before ``%PDF-`` (within the first
#: 1024 bytes), after the last ``%%EOF`` (padding, garbage).
AROUND = {
    "bom": (b"\xef\xbb\xbf", b""),
    "junk line": (b"GARBAGE HEADER LINE\n", b""),
    "1019 spaces": (b" " * 1019, b""),
    "NUL padding": (b"", b"\0" * 3000),
    "spaces": (b"", b" " * 5000),
    "garbage": (b"", bytes(range(256)) * 16),
    "60 KB of NULs": (b"", b"\0" * 60 * 1024),
}


@pytest.mark.parametrize("around", AROUND)
def test_a_pdf_with_bytes_before_its_header_or_after_its_end_is_a_pdf(
    tmp_path: Path, server: PdfServer, pdf_bytes: dict[str, bytes], around: str
) -> None:
    from pypdf import PdfReader

    before, after = AROUND[around]
    sent = before + pdf_bytes["aaaa01"] + after
    server.pdfs["aaaa01"] = sent
    folder = PdfFolder(tmp_path)
    report = download_pdfs([paper(server, "aaaa01")], folder, FAST)
    assert len(report.done) == 1, report.failed
    copy = folder.copy_of("aaaa01000000")
    assert copy is not None and copy.read_bytes() == sent
    assert len(PdfReader(copy).pages) == 3  # as a reader takes it


@pytest.mark.parametrize(
    ("body", "cause"),
    [
        (b"<html>" + b"<p>Please log in</p>" * 100 + b"</html>", "the server sent text/html"),
        (b" " * 1020 + b"%PDF-1.7\n%%EOF\n", "the server sent text/html"),  # past 1024 bytes
    ],
    ids=["html page", "pdf after 1024 bytes"],
)
def test_a_body_without_pdf_in_its_first_1024_bytes_is_no_pdf(
    tmp_path: Path, server: PdfServer, body: bytes, cause: str
) -> None:
    server.pdfs["aaaa01"], server.behaviour["aaaa01"] = body, "page"
    report = download_pdfs([paper(server, "aaaa01")], PdfFolder(tmp_path), FAST)
    (failed,) = report.failed
    assert f"not a PDF ({cause}: a login or error page?)" in failed
    assert list(tmp_path.iterdir()) == []


def test_a_pdf_compressed_though_not_asked_for_is_read_as_the_pdf(
    tmp_path: Path, server: PdfServer, pdf_bytes: dict[str, bytes]
) -> None:
    """Some servers gzip whatever they send (nothing here asks them to): the bytes kept are the
    PDF's, for every coding a server uses; a coding not read here fails that paper alone."""
    ways = {"aaaa01": "gzip", "bbbb02": "deflate", "cccc03": "rawdeflate", "dddd04": "br"}
    server.behaviour.update(ways)
    folder = PdfFolder(tmp_path)
    report = download_pdfs([paper(server, key) for key in ways], folder, FAST)
    assert len(report.done) == 3
    for key in ("aaaa01", "bbbb02", "cccc03"):
        assert folder.copy_of(f"{key}000000").read_bytes() == pdf_bytes[key]  # type: ignore[union-attr]
    (failed,) = report.failed
    assert "Paper dddd04" in failed and "sent it 'br'-encoded, which is not read here" in failed


def test_a_compressed_pdf_cut_short_starts_again_and_is_capped_as_it_comes(
    tmp_path: Path, server: PdfServer, pdf_bytes: dict[str, bytes]
) -> None:
    server.behaviour["aaaa01"] = "gzipcut"
    folder = PdfFolder(tmp_path)
    report = download_pdfs([paper(server, "aaaa01")], folder, FAST)
    assert "compressed body was cut short" in report.failed[0], report.failed
    again = download_pdfs([paper(server, "aaaa01")], folder, FAST)
    assert len(again.done) == 1, again.failed
    assert "Range" not in server.requests[-1].headers  # the compressed part was not resumed
    assert folder.copy_of("aaaa01000000").read_bytes() == pdf_bytes["aaaa01"]  # type: ignore[union-attr]
    # a small body that stands for more than the cap is stopped as it comes
    server.behaviour["bbbb02"] = "gzip"
    server.pdfs["bbbb02"] = pdf_bytes["bbbb02"] + b"%" * 50_000_000
    capped = DownloadOptions(pause=0.0, max_bytes=20_000_000)
    report = download_pdfs([paper(server, "bbbb02")], folder, capped)
    assert "over the" in report.failed[0] and folder.copy_of("bbbb02000000") is None


def test_a_pdf_the_reader_cannot_handle_stops_no_other(tmp_path: Path) -> None:
    """pypdf raises more than its own errors (NotImplementedError for a filter it lacks):
    one such PDF is unreadable, the others are read."""
    good = paper_pdf(tmp_path / "good.pdf", "Good", 1, seed=1, marker="The giraffe lemma.")
    odd = paper_pdf(tmp_path / "odd.pdf", "Odd", 1, seed=2, marker="Nothing here.")
    odd.write_bytes(odd.read_bytes().replace(b"/FlateDecode", b"/FlateRecode"))  # no such
    home = tmp_path / "home"
    home.mkdir()
    texts = update_texts(home, {"aaaa01000000": odd, "bbbb02000000": good})
    assert "giraffe" in texts.entries["bbbb02000000"]["text"]
    assert "NotImplementedError" in texts.entries["aaaa01000000"]["error"]


def test_a_chunked_body_cut_short_keeps_what_came_and_resumes(
    tmp_path: Path, server: PdfServer, pdf_bytes: dict[str, bytes]
) -> None:
    """http.client's IncompleteRead (not an OSError) failed the whole batch; now the paper
    alone, its bytes kept, and the others are fetched."""
    server.behaviour["aaaa01"] = "chunkcut"
    folder = PdfFolder(tmp_path)
    report = download_pdfs([paper(server, "aaaa01"), paper(server, "bbbb02")], folder, FAST)
    assert len(report.done) == 1 and "cut short" in report.failed[0], report.failed
    assert folder.part_of("aaaa01000000").stat().st_size > 0
    again = download_pdfs([paper(server, "aaaa01")], folder, FAST)
    assert len(again.done) == 1
    assert folder.copy_of("aaaa01000000").read_bytes() == pdf_bytes["aaaa01"]  # type: ignore[union-attr]


def test_a_server_that_trickles_is_given_up_on(
    tmp_path: Path, server: PdfServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    import storage.pdfs.download as download

    monkeypatch.setattr(download, "SLOW_WINDOW_S", 0.3)
    monkeypatch.setattr(download, "MIN_RATE", 10**9)  # any server is slower than that
    server.behaviour["aaaa01"], server.slow_gap = "slow", 0.2  # 4 kB each 0.2 s
    report = download_pdfs([paper(server, "aaaa01")], PdfFolder(tmp_path), FAST)
    assert "too slow" in report.failed[0] and "resumes next time" in report.failed[0]


def test_a_damaged_pdf_without_its_end_is_refused(tmp_path: Path, server: PdfServer) -> None:
    server.pdfs["aaaa01"] = server.pdfs["aaaa01"][:-2000]  # no %%EOF
    report = download_pdfs([paper(server, "aaaa01")], PdfFolder(tmp_path), FAST)
    assert "no %%EOF" in report.failed[0] and list(tmp_path.iterdir()) == []


# -- what others put in the folder (a sync folder) -------------------------------------------

#: What may have a part's name in a folder others write into: each is removed as the entry it
#: is (never what it points to) and the download starts afresh.
IN_PLACE_OF_A_PART = ["link", "link to nothing", "link to a pipe", "pipe", "socket", "hard link"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes")
@pytest.mark.parametrize("what", IN_PLACE_OF_A_PART)
def test_a_part_that_is_no_file_of_ours_is_replaced_never_written_through(
    tmp_path: Path,
    server: PdfServer,
    pdf_bytes: dict[str, bytes],
    monkeypatch: pytest.MonkeyPatch,
    what: str,
) -> None:
    """A part ``.ID.pdf.part`` that is a symbolic link was written through (the file it
    points to, even outside the folder, overwritten), then renamed as the copy; a pipe made
    the download wait for ever; a second name of a file, with a ``.part.json`` saying it
    resumes, truncated that file."""
    import socket

    outside, folder = tmp_path / "mine", PdfFolder(tmp_path / "pdfs")
    outside.mkdir()
    folder.path.mkdir()
    victim = outside / "notes.txt"
    victim.write_bytes(b"my own notes\n" * 100)
    target = paper(server, "aaaa01")
    part = folder.part_of(target.id)
    if what == "link":
        part.symlink_to(victim)
    elif what == "link to nothing":
        part.symlink_to(outside / "made-by-a-download")
    elif what == "link to a pipe":
        os.mkfifo(outside / "pipe")
        part.symlink_to(outside / "pipe")
    elif what == "pipe":
        os.mkfifo(part)
    elif what == "socket":
        monkeypatch.chdir(folder.path)  # a short name: a socket's path has at most 107 bytes
        listening = socket.socket(socket.AF_UNIX)
        listening.bind(part.name)
    else:  # the user's file under the part's name too, said to be the start of this file
        os.link(victim, part)
        said = {"url": pdf_url(target), "validator": '"another"', "size": 0}
        part.with_name(part.name + ".json").write_text(json.dumps(said), encoding="utf-8")
    done: list[DownloadReport] = []
    thread = threading.Thread(
        target=lambda: done.append(download_pdfs([target], folder, FAST)), daemon=True
    )
    thread.start()
    thread.join(20)
    assert not thread.is_alive(), "the download waits for ever on what has the part's name"
    (report,) = done
    assert len(report.done) == 1 and not report.failed, report.failed
    assert victim.read_bytes() == b"my own notes\n" * 100  # the user's file unchanged
    assert not (outside / "made-by-a-download").exists()
    copy = folder.copy_of(target.id)
    assert copy is not None and not copy.is_symlink() and copy.read_bytes() == pdf_bytes["aaaa01"]
    assert sorted(p.name for p in folder.path.iterdir()) == [pdf_name(target)]  # no part left


def test_a_folder_with_a_parts_name_fails_that_paper_in_one_line(
    tmp_path: Path, server: PdfServer
) -> None:
    folder = PdfFolder(tmp_path)
    first, second = paper(server, "aaaa01"), paper(server, "bbbb02")
    in_the_way = folder.part_of(first.id)
    in_the_way.mkdir()
    (in_the_way / "kept.txt").write_text("kept", encoding="utf-8")
    report = download_pdfs([first, second], folder, FAST)
    assert len(report.done) == 1 and len(report.failed) == 1
    (failed,) = report.failed
    assert failed.startswith(first.id) and str(in_the_way) in failed and "\n" not in failed
    assert "a folder has the name of the download's part" in failed
    assert (in_the_way / "kept.txt").read_text(encoding="utf-8") == "kept"


def test_what_says_a_parts_version_is_never_written_through_a_link(
    tmp_path: Path, server: PdfServer
) -> None:
    """``.ID.pdf.part.json``, written as a download starts, overwrote what a link there
    pointed to."""
    victim = tmp_path / "notes.txt"
    victim.write_text("my own notes", encoding="utf-8")
    folder = PdfFolder(tmp_path / "pdfs")
    folder.path.mkdir()
    server.behaviour["aaaa01"] = "truncated"  # cut short: what it says is kept for a resume
    target = paper(server, "aaaa01")
    said = folder.part_of(target.id).with_name(f".{target.id}.pdf.part.json")
    said.symlink_to(victim)
    report = download_pdfs([target], folder, FAST)
    assert "cut short" in report.failed[0]
    assert victim.read_text(encoding="utf-8") == "my own notes"
    assert not said.is_symlink() and json.loads(said.read_bytes())["url"] == pdf_url(target)
    assert len(download_pdfs([target], folder, FAST).done) == 1  # resumed from it
    assert server.requests[-1].headers.get("Range")


def test_the_folders_lock_is_never_made_through_a_link(tmp_path: Path, server: PdfServer) -> None:
    from storage.pdfs.download import LOCK_NAME

    folder = PdfFolder(tmp_path / "pdfs")
    folder.path.mkdir()
    (folder.path / LOCK_NAME).symlink_to(tmp_path / "made-by-a-download")
    assert len(download_pdfs([paper(server, "aaaa01")], folder, FAST).done) == 1
    assert not (tmp_path / "made-by-a-download").exists()
    assert not (folder.path / LOCK_NAME).is_symlink()


@pytest.mark.parametrize("what", ["text file", "link to a text file", "link to a PDF"])
def test_a_copy_is_already_here_only_when_it_is_a_pdf(
    tmp_path: Path, server: PdfServer, pdf_bytes: dict[str, bytes], what: str
) -> None:
    """Any file with the copy's name counted as "already here": a text file, or a link to
    one, now is downloaded again and replaced (the link itself, never what it points to); a
    link to a PDF (what an attachment makes) stays the copy."""
    outside, folder = tmp_path / "mine", PdfFolder(tmp_path / "pdfs")
    outside.mkdir()
    folder.path.mkdir()
    victim = outside / "notes.txt"
    victim.write_text("my own notes", encoding="utf-8")
    theirs = outside / "theirs.pdf"
    theirs.write_bytes(pdf_bytes["bbbb02"])
    target = paper(server, "aaaa01")
    copy = folder.path / pdf_name(target)
    if what == "text file":
        copy.write_text("my own notes", encoding="utf-8")
    else:
        copy.symlink_to(victim if what == "link to a text file" else theirs)
    report = download_pdfs([target], folder, FAST)
    assert victim.read_text(encoding="utf-8") == "my own notes"
    assert theirs.read_bytes() == pdf_bytes["bbbb02"]
    if what == "link to a PDF":
        assert report.skipped == 1 and not report.done and not server.requests
        assert copy.is_symlink() and copy.resolve() == theirs
    else:
        assert report.done == [copy] and not report.skipped
        assert not copy.is_symlink() and copy.read_bytes() == pdf_bytes["aaaa01"]
    assert sorted(p.name for p in folder.path.iterdir()) == [copy.name]


def test_a_file_named_as_a_copy_that_is_no_pdf_is_no_copy(
    tmp_path: Path, pdf_bytes: dict[str, bytes]
) -> None:
    """A login page an older version saved as ``Title (id).pdf``, or a text put there by
    hand, counted as the paper's copy (the app's mark, ``pdf_path``, its text read): it is
    none, and ``not_pdfs`` names it; a PDF beside it under another name is the copy."""
    folder = PdfFolder(tmp_path / "pdfs")
    folder.path.mkdir()
    page = folder.path / "Paper (aaaa01000000).pdf"
    page.write_bytes(b"<!DOCTYPE html><html><body>Please log in</body></html>")
    (folder.path / "Notes (bbbb02000000).pdf").write_text("my notes", encoding="utf-8")
    real = folder.path / "Paper (cccc03000000).pdf"
    real.write_bytes(pdf_bytes["cccc03"])
    (folder.path / "Linked (dddd04000000).pdf").symlink_to(real)
    assert sorted(folder.copies()) == ["cccc03000000", "dddd04000000"]
    assert folder.not_pdfs() == {
        "aaaa01000000": page,
        "bbbb02000000": folder.path / "Notes (bbbb02000000).pdf",
    }
    renamed = folder.path / "Paper, renamed (aaaa01000000).pdf"  # its PDF beside the page
    renamed.write_bytes(pdf_bytes["aaaa01"])
    assert folder.copies()["aaaa01000000"] == renamed
    assert "aaaa01000000" not in folder.not_pdfs()
    page.unlink()
    renamed.unlink()
    # a copy made by hand, empty when the folder was read, is a PDF once written
    made = folder.path / "By hand (aaaa01000000).pdf"
    made.touch()
    assert "aaaa01000000" in folder.not_pdfs()
    made.write_bytes(pdf_bytes["aaaa01"])
    os.utime(folder.path)  # (another change of the folder: read again)
    assert folder.copies()["aaaa01000000"] == made and not folder.not_pdfs().get("aaaa01000000")


def test_a_paper_without_a_known_pdf_says_so(tmp_path: Path) -> None:
    report = download_pdfs([Paper("abcd", "No link", "x")], PdfFolder(tmp_path), FAST)
    assert "no PDF address known" in report.failed[0]


def test_old_partial_downloads_are_swept(tmp_path: Path) -> None:
    folder = PdfFolder(tmp_path)
    stale, fresh = folder.part_of("aaaa"), folder.part_of("bbbb")
    stale.write_bytes(b"%PDF-")
    fresh.write_bytes(b"%PDF-")
    old = time.time() - 8 * 24 * 3600
    import os

    os.utime(stale, (old, old))
    assert folder.sweep() == 1 and fresh.exists() and not stale.exists()


def test_a_server_down_is_asked_once_a_batch_the_server_a_redirect_led_to(
    tmp_path: Path, server: PdfServer
) -> None:
    """A server that cannot be reached is asked for one paper a batch, its others not tried;
    when a redirect led there, the server down is the one it led to, not the one that
    answered with it (whose other papers are still asked for)."""
    import socket

    with socket.socket() as sock:  # a port of this machine that nothing listens on
        sock.bind(("127.0.0.1", 0))
        down = f"127.0.0.1:{sock.getsockname()[1]}"
    server.behaviour["aaaa01"] = f"redirect:http://{down}/pdf/aaaa01"
    on_it = [
        Paper(f"dddd0{n}000000", "Down", "abstract", url=f"http://{down}/forum?id={n}")
        for n in range(2)
    ]
    papers = [paper(server, "aaaa01"), on_it[0], paper(server, "bbbb02"), on_it[1]]
    report = download_pdfs(papers, PdfFolder(tmp_path), FAST)
    assert [r.paper for r in server.requests] == ["aaaa01", "bbbb02"]
    assert len(report.done) == 1 and len(report.failed) == 1
    assert report.failed[0].endswith(f"cannot connect to {down} (Connection refused)")
    (server_down,) = report.down.values()
    assert (server_down.host, server_down.failed, server_down.not_tried) == (down, 1, 2)
    said = f"cannot reach {down} (Connection refused): 3 PDFs not downloaded"
    assert report.failures() == [f"{said}; try again when it answers"]
    assert (
        report.summary()
        == "1 PDF downloaded, 1 failed, 2 not tried (their server cannot be reached)"
    )


def test_what_a_failure_to_connect_says_of_its_server() -> None:
    """A name not resolved, a refused connection, no route, a connection not taken in time:
    the server cannot be reached (its other papers are not asked for); an answer that does not
    come after the connection was taken is the paper's own. (The errors as urllib raises
    them, made here: resolving a name would reach beyond the machine.)"""
    import errno
    import socket
    import urllib.error

    from storage.pdfs.web import Unreachable, network_error

    url = "https://openreview.net/pdf?id=x"
    unresolved = urllib.error.URLError(socket.gaierror(-2, "Name or service not known"))
    refused = urllib.error.URLError(
        ConnectionRefusedError(errno.ECONNREFUSED, "Connection refused")
    )
    no_route = urllib.error.URLError(OSError(errno.EHOSTUNREACH, "No route to host"))
    not_taken = urllib.error.URLError(TimeoutError("timed out"))
    for error, why in (
        (unresolved, "Name or service not known"),
        (refused, "Connection refused"),
        (no_route, "No route to host"),
        (not_taken, "no connection taken in time"),
    ):
        found = network_error(error, url)
        assert isinstance(found, Unreachable) and (found.host, found.why) == ("openreview.net", why)
    slow = network_error(TimeoutError("timed out"), url)  # after the connection: bare
    assert (
        not isinstance(slow, Unreachable) and str(slow) == "no answer in time from openreview.net"
    )


def test_a_server_that_takes_no_connection_in_time_is_asked_once_a_batch(
    tmp_path: Path, server: PdfServer
) -> None:
    """Offline behind a firewall that drops what it refuses, a connection is never taken:
    each paper on that server waited out the whole timeout (60 s), one after another. A
    connection not taken in time is a server that cannot be reached; a server that takes the
    connection and is slow to answer stays the paper's own failure."""
    import dataclasses
    import socket

    full = socket.socket()  # a listening socket whose queue is full: a connection waits
    full.bind(("127.0.0.1", 0))
    full.listen(0)
    port = full.getsockname()[1]
    waiting = []
    for _ in range(3):
        client = socket.socket()
        client.setblocking(False)
        with contextlib.suppress(BlockingIOError):
            client.connect(("127.0.0.1", port))
        waiting.append(client)
    try:
        time.sleep(0.2)
        on_it = [
            Paper(f"eeee0{n}000000", "Dropped", "abstract", url=f"http://127.0.0.1:{port}/p{n}.pdf")
            for n in range(3)
        ]
        papers = [*on_it, paper(server, "aaaa01")]
        options = dataclasses.replace(FAST, timeout=1.0)
        started = time.monotonic()
        report = download_pdfs(papers, PdfFolder(tmp_path), options)
        assert time.monotonic() - started < 5  # one timeout, not three
        assert [r.paper for r in server.requests] == ["aaaa01"] and len(report.done) == 1
        (down,) = report.down.values()
        assert (down.host, down.failed, down.not_tried) == (f"127.0.0.1:{port}", 1, 2)
        said = f"cannot reach 127.0.0.1:{port} (no connection taken in time): 3 PDFs"
        assert report.failures()[0].startswith(said), report.failures()
        # the system takes the connections of a socket that listens and never answers: each
        # paper on it is asked, and fails on its own
        with socket.socket() as silent:
            silent.bind(("127.0.0.1", 0))
            silent.listen(16)
            quiet = silent.getsockname()[1]
            slow = [
                Paper(
                    f"ffff0{n}000000", "Slow", "abstract", url=f"http://127.0.0.1:{quiet}/{n}.pdf"
                )
                for n in range(2)
            ]
            report = download_pdfs(slow, PdfFolder(tmp_path), options)
        assert not report.down and len(report.failed) == 2
        assert all(f"no answer in time from 127.0.0.1:{quiet}" in f for f in report.failed), (
            report.failed
        )
    finally:
        for client in waiting:
            client.close()
        full.close()


def test_only_failures_that_will_not_mend_are_kept_and_a_copy_forgets_them(
    tmp_path: Path, server: PdfServer
) -> None:
    """404, 410 and a page that is no PDF are kept per paper and link (``pdf-failures.json``);
    a refused connection, a 500, a 429 past its waits may mend: never kept."""
    import socket

    from storage.pdfs.failures import PdfFailures

    with socket.socket() as sock:  # a port of this machine that nothing listens on
        sock.bind(("127.0.0.1", 0))
        down = f"http://127.0.0.1:{sock.getsockname()[1]}/forum?id=x"
    ways = {"aaaa01": "missing", "bbbb02": "gone", "cccc03": "html", "dddd04": "broken"}
    server.behaviour.update(ways)
    server.behaviour["eeee05"] = "busy:9:0"
    server.pdfs["eeee05"] = server.pdfs["aaaa01"]
    papers = [paper(server, key) for key in [*ways, "eeee05"]]
    papers.append(Paper("ffff06000000", "Down", "abstract", url=down))
    home = tmp_path / "home"
    home.mkdir()
    folder = PdfFolder(tmp_path / "pdfs")
    failures = PdfFailures(home)
    report = download_pdfs(papers, folder, FAST, failures.learn)
    assert len(report.failed) == 6 and "Connection refused" in report.failed[-1]
    kept = PdfFailures(home)  # as the next process reads them
    assert [bool(kept.of(p)) for p in papers] == [True, True, True, False, False, False]
    assert kept.sort_out(papers, folder.copies())[1] == []  # failed once: asked for again
    download_pdfs(papers[:3], folder, FAST, kept.learn)
    kept = PdfFailures(home)
    passed = kept.sort_out(papers, folder.copies())[1]
    assert [p.id for p, _ in passed] == [p.id for p in papers[:3]]
    assert kept.of(papers[2]).kind == "not a PDF"  # type: ignore[union-attr]
    server.behaviour.pop("aaaa01")  # mended: its copy forgets it
    download_pdfs(papers[:1], folder, FAST, kept.learn)
    assert [bool(PdfFailures(home).of(p)) for p in papers[:3]] == [False, True, True]


# -- the text -------------------------------------------------------------------------------


def test_the_text_is_read_searched_and_kept_while_the_copy_is_the_same(
    tmp_path: Path, server: PdfServer
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    folder = PdfFolder(home / "pdfs")
    papers = [paper(server, k) for k in ("aaaa01", "bbbb02")]
    download_pdfs(papers, folder, FAST)
    texts = update_texts(home, folder.copies())
    assert len(texts) == 2 and texts.pages() == {p.id: 3 for p in papers}
    found = PdfTexts.open(home).search("quokka lemma")
    assert set(found) == {p.id for p in papers}
    match = found[papers[0].id]
    assert match.page == 3 and "quokka lemma" in match.line.lower()
    assert PdfTexts.open(home).papers_with("quokka lemma aaaa01") == {papers[0].id}
    assert PdfTexts.open(home).papers_with("quok") == {p.id for p in papers}  # a prefix
    assert PdfTexts.open(home).papers_with("uokka") == set()  # not inside a word
    # a copied HOME (times changed) keeps its texts: nothing is read again
    import os

    for copy in folder.copies().values():
        os.utime(copy, (1, 1))
    again = PdfTexts.open(home)
    assert again.stale(folder.copies()) == []
    # a damaged copy is an entry with its cause, not a crash
    damaged = folder.copies()[papers[1].id]
    damaged.write_bytes(b"%PDF-1.4\n garbage \n%%EOF\n")
    redone = update_texts(home, folder.copies())
    assert papers[1].id not in redone and redone.problem(papers[1].id).startswith("unreadable")


def test_a_damaged_text_file_is_made_again(tmp_path: Path) -> None:
    (tmp_path / "pdf-text.cache").write_bytes(b"papers-tui pdf-text 1\n garbage")
    assert len(PdfTexts.open(tmp_path)) == 0


def test_an_entry_that_holds_other_than_what_is_written_is_no_entry(tmp_path: Path) -> None:
    """A checksum says the file is as written, not that what was written is true: an entry
    with a value of another kind (a page count that is no count) is dropped, its copy read
    again; the sound ones are kept."""
    stamp = {"name": "A (a1).pdf", "size": 10, "mtime_ns": -5, "digest": "d"}
    entries = {
        "read": {**stamp, "text": "x", "pages": 3},
        "uncounted": {**stamp, "text": "x"},  # (a hostile PDF's count is not kept)
        "unreadable": {**stamp, "error": "encrypted"},
    }
    for n, bad in enumerate(
        [
            {"pages": "12"}, {"pages": -3}, {"pages": 10**12}, {"pages": 2.5}, {"pages": True},
            {"pages": None}, {"size": "10"}, {"size": -1}, {"mtime_ns": 1.5}, {"name": 7},
            {"digest": None}, {"text": 12}, {"error": 3}, {"error": "x", "text": "y"},
        ]
    ):  # fmt: skip
        entries[f"bad{n}"] = {**stamp, "text": "x", "pages": 3, **bad}
    entries["list"] = [stamp]  # type: ignore[assignment]
    PdfTexts(tmp_path / "pdf-text.cache", entries).save()  # type: ignore[arg-type]
    texts = PdfTexts.open(tmp_path)
    assert sorted(texts.entries) == ["read", "uncounted", "unreadable"]
    assert texts.pages() == {"read": 3}
    assert texts.stale({"bad0": tmp_path / "pdf-text.cache"}) == ["bad0"]  # read again


def test_a_paper_not_asked_for_its_server_down_keeps_a_lasting_failure_it_had(
    tmp_path: Path,
) -> None:
    """Each paper of a server that cannot be reached is kept as failed (``unreached``), but
    one not asked for says nothing new of its link: a 404 it had stays, to be counted on."""
    import socket

    from storage.pdfs.download import Event
    from storage.pdfs.failures import PdfFailures

    with socket.socket() as sock:  # a port of this machine that nothing listens on
        sock.bind(("127.0.0.1", 0))
        down = f"http://127.0.0.1:{sock.getsockname()[1]}"
    papers = [
        Paper(f"{key}00000000", f"Down {key}", "abstract", url=f"{down}/forum?id={key}")
        for key in ("aaaa", "bbbb", "cccc")
    ]
    home = tmp_path / "home"
    home.mkdir()
    failures = PdfFailures(home)
    failures.learn(Event("failed", papers[1], 1, 1, message="HTTP 404 Not Found", lasting=True))
    report = download_pdfs(papers, PdfFolder(tmp_path / "pdfs"), FAST, failures.learn)
    assert len(report.failed) == 1 and sum(s.not_tried for s in report.down.values()) == 2
    kept = PdfFailures(home)
    first, had, new = (kept.last(p) for p in papers)
    assert first is not None and not first.lasting and "Connection refused" in first.cause
    assert had is not None and had.lasting and had.cause == "HTTP 404 Not Found"
    assert new is not None and not new.lasting and new.cause == first.cause
