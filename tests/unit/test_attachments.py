"""A reference manager's attachments: read from each export's own shape, checked, linked as
the paper's copy (``storage.sources.attachments``, ``storage.pdfs.attached``)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from storage import Library
from storage.models import Paper
from storage.pdfs.attached import link_attachment, link_attachments, usable
from storage.pdfs.folder import PdfFolder, pdf_name
from storage.sources.attachments import attachment, is_local
from storage.sources.registry import read_source
from tests.pdf_files import paper_pdf

ABSTRACT = (
    "We study sparse attention over long documents and show that it scales to a million "
    "tokens with little loss in accuracy on retrieval benchmarks."
)


def a_pdf(path: Path, marker: str = "") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    return paper_pdf(path, "Sparse Attention for Long Documents", 1, marker=marker)


# ----------------------------------------------------------------------------- the field


def test_zoteros_field_gives_its_pdf_not_its_snapshot(tmp_path: Path) -> None:
    value = (
        "Snapshot:/home/me/Zotero/storage/AB12/page.html:text/html;"
        "Full Text PDF:/home/me/Zotero/storage/AB12/Lee - 2024 - Sparse.pdf:application/pdf"
    )
    assert attachment(value, tmp_path) == "/home/me/Zotero/storage/AB12/Lee - 2024 - Sparse.pdf"
    assert attachment("Snapshot:/home/me/page.html:text/html", tmp_path) == ""


def test_escaped_colons_and_semicolons_are_part_of_the_path(tmp_path: Path) -> None:
    value = r"Full Text:/data/a\:b\;c.pdf:application/pdf"
    assert attachment(value, tmp_path) == "/data/a:b;c.pdf"


def test_better_bibtex_bare_paths_and_file_addresses(tmp_path: Path) -> None:
    assert attachment("/home/me/x.html;/home/me/x.pdf", None) == "/home/me/x.pdf"
    assert attachment("file:///home/me/My%20Paper.pdf", None) == "/home/me/My Paper.pdf"
    assert attachment("~/papers/x.pdf", None) == str(Path("~/papers/x.pdf").expanduser())


def test_jabrefs_relative_path_is_read_beside_the_file(tmp_path: Path) -> None:
    assert attachment(":pdfs/lee.pdf:PDF", tmp_path) == str(tmp_path / "pdfs" / "lee.pdf")
    assert attachment(":pdfs/lee.pdf:PDF", None) == ""  # no folder known: no attachment


def test_mendeleys_path_without_its_leading_slash_is_found_from_the_root(tmp_path: Path) -> None:
    pdf = a_pdf(tmp_path / "Mendeley Desktop" / "Lee 2024.pdf")
    beside = tmp_path / "elsewhere"
    beside.mkdir()
    assert attachment(f":{str(pdf).lstrip('/')}:pdf", beside) == str(pdf)


def test_a_windows_path_is_kept_as_written_and_hostile_values_give_none(tmp_path: Path) -> None:
    assert attachment(r"Full Text PDF:C\:\\Users\\me\\x.pdf:application/pdf", tmp_path) == (
        "C:\\Users\\me\\x.pdf"
    )
    for value in ("", "   ", ";;;", "x\x00y.pdf", "/" + "a" * 5000 + ".pdf", 17, None):
        assert attachment(value, tmp_path) == ""


def test_a_link_field_is_local_only_for_a_file_address_or_a_path() -> None:
    assert is_local("file:///home/me/x.pdf") and is_local("/home/me/x.pdf")
    assert is_local("C:\\Users\\x.pdf") and is_local("~/x.pdf")
    assert not is_local("http://127.0.0.1:9/pdf/2401.01234")
    assert not is_local("internal-pdf://1234/x.pdf")  # EndNote's own folder: not known here
    assert not is_local("") and not is_local("x.pdf")


# ----------------------------------------------------------------------------- the file


def test_only_a_regular_pdf_file_is_usable(tmp_path: Path) -> None:
    pdf = a_pdf(tmp_path / "x.pdf")
    assert usable(str(pdf)) == pdf
    html = tmp_path / "page.pdf"
    html.write_text("<html>a login page</html>")
    empty = tmp_path / "empty.pdf"
    empty.write_bytes(b"")
    linked = tmp_path / "link.pdf"
    linked.symlink_to(pdf)
    assert usable(str(linked)) == linked
    assert usable(str(html)) is None and usable(str(empty)) is None
    assert usable(str(tmp_path)) is None  # a folder
    assert usable("x.pdf") is None  # relative
    assert usable(str(tmp_path / "gone.pdf")) is None
    assert usable(str(pdf), max_bytes=10) is None


@pytest.mark.parametrize(
    ("before", "taken"),
    [
        (b"\r\n", True),  # a line break first: a download with it is taken too
        (b"\xef\xbb\xbf", True),  # a UTF-8 byte-order mark
        (b"GARBAGE HEADER LINE\n", True),
        (b" " * 1019, True),  # %PDF- ends at the 1024th byte
        (b" " * 1020, False),  # past the first 1024 bytes
        (b"<html>" + b"<p>Please log in</p>" * 60, False),  # a page, then a PDF: a page
    ],
    ids=["crlf", "bom", "junk line", "1019 spaces", "1020 spaces", "html page"],
)
def test_an_attachment_is_a_pdf_by_the_rule_a_download_is_held_to(
    tmp_path: Path, before: bytes, taken: bool
) -> None:
    """%PDF- anywhere in the first 1024 bytes, as for a download (one check for both)."""
    pdf = a_pdf(tmp_path / "made.pdf")
    odd = tmp_path / "odd.pdf"
    odd.write_bytes(before + pdf.read_bytes())
    assert (usable(str(odd)) == odd) is taken


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes")
def test_a_pipe_named_as_the_attachment_is_passed_over_without_waiting(tmp_path: Path) -> None:
    fifo = tmp_path / "x.pdf"
    os.mkfifo(fifo)
    assert usable(str(fifo)) is None


def _attached_library(home: Path, source_dir: Path, pdf: Path | str) -> Library:
    bib = source_dir / "zotero.bib"
    bib.write_text(
        "@article{lee2024,\n  title = {Sparse Attention for Long Documents},\n"
        f"  abstract = {{{ABSTRACT}}},\n  author = {{Lee, Ann}},\n"
        f"  file = {{Full Text PDF:{pdf}:application/pdf}},\n}}\n"
    )
    library = Library(home)
    library.import_files([bib])
    return library


def _attached_beside_a_victim(tmp_path: Path) -> tuple[Path, Paper, PdfFolder, Path]:
    """A paper whose attachment is ``pdf``, its empty PDF folder, and a file of the user's
    (``victim``, "my own notes") that nothing may write."""
    pdf = a_pdf(tmp_path / "Zotero" / "x.pdf")
    library = _attached_library(tmp_path / "home", tmp_path, pdf)
    (paper,) = library.papers()
    folder = PdfFolder(tmp_path / "home" / "pdfs")
    folder.path.mkdir()
    victim = tmp_path / "notes.txt"
    victim.write_text("my own notes", encoding="utf-8")
    return pdf, paper, folder, victim


def test_link_attachments_makes_a_link_named_as_a_download_and_leaves_the_file(
    tmp_path: Path,
) -> None:
    pdf = a_pdf(tmp_path / "Zotero" / "storage" / "AB12" / "Lee - 2024.pdf")
    before = pdf.read_bytes()
    library = _attached_library(tmp_path / "home", tmp_path, pdf)
    (paper,) = library.papers()
    assert paper.fact("file") == str(pdf)
    folder = PdfFolder(tmp_path / "home" / "pdfs")
    linked = link_attachments([paper], folder)
    copy = folder.path / pdf_name(paper)
    assert linked.done == [copy] and not linked.missing
    assert copy.is_symlink() and copy.resolve() == pdf.resolve()
    assert folder.copy_of(paper.id) == copy
    again = link_attachments([paper], folder)
    assert again.had == 1 and not again.done
    copy.unlink()  # the link removed: the reference manager's file stays
    assert pdf.read_bytes() == before and not pdf.is_symlink()
    assert link_attachment(paper, folder) == copy


def test_an_attachment_not_there_is_reported_and_nothing_is_made(tmp_path: Path) -> None:
    library = _attached_library(tmp_path / "home", tmp_path, tmp_path / "gone.pdf")
    (paper,) = library.papers()
    folder = PdfFolder(tmp_path / "home" / "pdfs")
    linked = link_attachments([paper], folder)
    assert linked.missing == [(paper, str(tmp_path / "gone.pdf"))] and not linked.done
    assert "1 attachment not found or not a PDF" in linked.summary()
    assert folder.copies() == {}


def test_a_folder_that_cannot_be_made_gets_nothing_and_says_so(tmp_path: Path) -> None:
    pdf = a_pdf(tmp_path / "x.pdf")
    library = _attached_library(tmp_path / "home", tmp_path, pdf)
    (paper,) = library.papers()
    taken = tmp_path / "a file where the folder would be"
    taken.write_text("not a folder")
    linked = link_attachments([paper], PdfFolder(taken))
    assert linked.missing and not linked.done and taken.read_text() == "not a folder"
    assert linked.summary() == f"1 attachment not linked: {taken}: not a folder"
    # a folder that links to nothing (a disk not mounted): said so, not "not found"
    dangling = tmp_path / "pdfs"
    dangling.symlink_to(tmp_path / "unmounted" / "pdfs")
    linked = link_attachments([paper], PdfFolder(dangling))
    assert not linked.done and "a symbolic link to" in linked.summary()
    assert "not found" not in linked.summary() and dangling.is_symlink()


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes")
@pytest.mark.parametrize("what", ["link", "pipe", "link made meanwhile, no links here"])
def test_the_temporary_link_name_is_never_written_through(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, what: str
) -> None:
    """``.ID.pdf.link``, the name a copy is made under, holding a link or a pipe (a sync
    folder): the entry goes, what a link points to is never written, nothing waits."""
    pdf, paper, folder, victim = _attached_beside_a_victim(tmp_path)
    temporary = folder.path / f".{paper.id}.pdf.link"
    if what == "link":
        temporary.symlink_to(victim)
    elif what == "pipe":
        os.mkfifo(temporary)
    else:  # a folder that takes no links, and a link put there between the checks
        real_symlink = os.symlink

        def no_links(source: object, at: object) -> None:
            real_symlink(victim, temporary)
            raise OSError("links are not taken here")

        monkeypatch.setattr(os, "symlink", no_links)
    made = link_attachment(paper, folder)
    assert victim.read_text(encoding="utf-8") == "my own notes"
    if what == "link made meanwhile, no links here":
        assert made is None and not temporary.exists() and not temporary.is_symlink()
    else:
        assert made == folder.path / pdf_name(paper) and made.resolve() == pdf.resolve()
        assert sorted(p.name for p in folder.path.iterdir()) == [made.name]


@pytest.mark.parametrize("what", ["text file", "link to a text file"])
def test_a_copy_that_is_no_pdf_is_replaced_by_the_attachment(tmp_path: Path, what: str) -> None:
    """Any file with the copy's name counted as the paper's copy ("had"): a text file, or a
    link to one, is replaced by the link to the attachment (the entry, not what it points
    to)."""
    pdf, paper, folder, victim = _attached_beside_a_victim(tmp_path)
    copy = folder.path / pdf_name(paper)
    if what == "text file":
        copy.write_text("my own notes", encoding="utf-8")
    else:
        copy.symlink_to(victim)
    linked = link_attachments([paper], folder)
    assert linked.done == [copy] and not linked.had
    assert copy.resolve() == pdf.resolve() and victim.read_text(encoding="utf-8") == "my own notes"
    assert link_attachments([paper], folder).had == 1  # a link to the PDF is the copy


# ----------------------------------------------------------------------------- the readers


def _file_of(path: Path) -> str:
    (record,) = read_source(path).records
    return dict(record.extra).get("file", "")


def test_each_reference_managers_export_gives_the_attachment(tmp_path: Path) -> None:
    pdf = a_pdf(tmp_path / "storage" / "AB12" / "Lee 2024.pdf")
    csv = tmp_path / "zotero.csv"
    csv.write_text(
        '"Key","Item Type","Publication Year","Author","Title","Abstract Note","File Attachments"\n'
        f'"AB12","journalArticle","2024","Lee, Ann","Sparse Attention","{ABSTRACT}",'
        f'"{tmp_path}/storage/AB12/page.html; {pdf}"\n'
    )
    ris = tmp_path / "mendeley.ris"
    ris.write_text(
        f"TY  - JOUR\nTI  - Sparse Attention\nAU  - Lee, Ann\nAB  - {ABSTRACT}\n"
        f"L1  - file://{str(pdf).replace(' ', '%20')}\nER  - \n"
    )
    web = tmp_path / "web.ris"
    web.write_text(
        f"TY  - JOUR\nTI  - Sparse Attention\nAB  - {ABSTRACT}\n"
        "L1  - http://127.0.0.1:9/pdf/2401.01234\nER  - \n"
    )
    enw = tmp_path / "endnote.enw"
    enw.write_text(f"%0 Journal Article\n%T Sparse Attention\n%X {ABSTRACT}\n%> {pdf}\n")
    jabref = tmp_path / "jabref.bib"
    jabref.write_text(
        f"@article{{lee, title = {{Sparse Attention}}, abstract = {{{ABSTRACT}}},\n"
        "  file = {:storage/AB12/Lee 2024.pdf:PDF}}\n"
    )
    for path in (csv, ris, enw, jabref):
        assert _file_of(path) == str(pdf), path.name
    (record,) = read_source(web).records
    assert "file" not in dict(record.extra)
    assert dict(record.extra)["pdf"] == "http://127.0.0.1:9/pdf/2401.01234"
    (record,) = read_source(ris).records
    assert "pdf" not in dict(record.extra)  # a local file is no web address of the PDF


def test_our_json_and_csv_exports_carry_the_attachment_back(tmp_path: Path) -> None:
    from storage.export import export

    pdf = a_pdf(tmp_path / "odd;name:x.pdf")
    escaped = str(pdf).replace(":", "\\:").replace(";", "\\;")
    library = _attached_library(tmp_path / "home", tmp_path, escaped)
    papers = library.papers()
    assert papers[0].fact("file") == str(pdf)
    for kind in ("json", "csv"):
        written = tmp_path / f"out.{kind}"
        written.write_text(export(papers, library.triage(), kind))
        assert _file_of(written) == str(pdf), kind


def test_the_pdf_among_several_attachment_lines_is_taken_not_the_snapshot(tmp_path: Path) -> None:
    pdf = a_pdf(tmp_path / "storage" / "AB12" / "Lee 2024.pdf")
    ris = tmp_path / "zotero.ris"
    ris.write_text(
        f"TY  - JOUR\nTI  - Sparse Attention\nAB  - {ABSTRACT}\n"
        f"L1  - {tmp_path}/storage/AB12/snapshot.html\nL1  - {pdf}\n"
        "L1  - http://127.0.0.1:9/pdf/2401.01234\nER  - \n"
    )
    enw = tmp_path / "endnote.enw"
    enw.write_text(
        f"%0 Journal Article\n%T Sparse Attention\n%X {ABSTRACT}\n"
        f"%> {tmp_path}/storage/AB12/snapshot.html\n%> {pdf}\n"
    )
    assert _file_of(ris) == str(pdf) and _file_of(enw) == str(pdf)
    (record,) = read_source(ris).records
    assert dict(record.extra)["pdf"] == "http://127.0.0.1:9/pdf/2401.01234"


def test_odd_addresses_in_a_file_field_neither_crash_nor_pass_for_local_files(
    tmp_path: Path,
) -> None:
    beside = a_pdf(tmp_path / "real.pdf")
    assert attachment("file://[x/a.pdf", tmp_path) == ""  # no address: no error either
    assert attachment("file:///C:/Users/me/x.pdf", None) == "C:/Users/me/x.pdf"
    assert attachment("file://server/share/x.pdf", None) == "//server/share/x.pdf"
    assert attachment("File:/home/me/x.pdf:PDF", None) == "/home/me/x.pdf"  # JabRef's "File"
    # JabRef's online link is no local file: the PDF beside the .bib is
    online = r":http\://127.0.0.1\:9/pdf/2101.00001v1:PDF;:real.pdf:PDF"
    assert attachment(online, tmp_path) == str(beside)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps([{"title": "J", "abstract": ABSTRACT, "file": "file://[x/a.pdf"}]))
    (record,) = read_source(bad).records
    assert "file" not in dict(record.extra)


def test_endnote_keeps_its_own_folder_out_and_a_web_pdf_as_the_link(tmp_path: Path) -> None:
    pdf = a_pdf(tmp_path / "real.pdf")
    enw = tmp_path / "endnote.enw"
    enw.write_text(
        f"%0 Journal Article\n%T Sparse Attention\n%X {ABSTRACT}\n"
        f"%> internal-pdf://1234/x.pdf\n%> http://127.0.0.1:9/pdf/2401.01234.pdf\n%> file://{pdf}\n"
    )
    (record,) = read_source(enw).records
    extra = dict(record.extra)
    assert extra["file"] == str(pdf) and extra["pdf"] == "http://127.0.0.1:9/pdf/2401.01234.pdf"


def test_a_long_word_among_the_authors_is_read_in_linear_time() -> None:
    from storage.sources.authors import names_of as _authors

    # a pattern that could split one word into given names in many ways took seconds at
    # 600 letters and hours at 5,000
    assert len(_authors("Lee, A" + "a" * 5000 + "!")) == 2
    assert _authors("Lee, A.B.") == ("A.B. Lee",)
