"""The storage side of the borders: where an export may land, how much an import reads, what
a paper's link may be (the commands and the app on top: tests/hostile/)."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from storage import Library
from storage.errors import LibraryError, SourceError
from storage.export.destination import TargetExistsError, export_target, write_export
from storage.sources import limits
from storage.sources.limits import (
    DEFAULT_MAX_BYTES,
    ReadLimits,
    parse_size,
    read_bounded,
    size_text,
)
from storage.sources.links import web_url

# -- export_target / write_export ---------------------------------------------------------


def test_a_new_file_is_written(tmp_path: Path) -> None:
    where = export_target(tmp_path / "out.md", "starred.md")
    assert (where.path, where.named, where.exists) == (tmp_path / "out.md", True, False)
    assert write_export(tmp_path / "out.md", "text", "starred.md") == tmp_path / "out.md"
    assert (tmp_path / "out.md").read_text() == "text"


def test_an_existing_file_is_replaced_only_when_named_and_asked(tmp_path: Path) -> None:
    target = tmp_path / "out.md"
    target.write_text("mine")
    where = export_target(target, "starred.md")
    assert where.exists and where.named  # what the app asks about before replacing
    with pytest.raises(TargetExistsError, match="left as it is"):
        write_export(target, "new", "starred.md")
    assert target.read_text() == "mine"
    write_export(target, "new", "starred.md", replace=True)
    assert target.read_text() == "new"


def test_a_folders_default_file_is_never_replaced_unasked(tmp_path: Path) -> None:
    (tmp_path / "starred.md").write_text("mine")
    where = export_target(tmp_path, "starred.md")
    assert where.path == tmp_path / "starred.md" and not where.named and where.exists
    with pytest.raises(TargetExistsError, match="give its full name"):
        write_export(tmp_path, "new", "starred.md", replace=True)
    assert (tmp_path / "starred.md").read_text() == "mine"


def test_a_symlink_is_written_through(tmp_path: Path) -> None:
    real = tmp_path / "real.md"
    real.write_text("old")
    link = tmp_path / "link.md"
    link.symlink_to(real)
    where = export_target(link, "x.md")
    assert where.path == link and where.file == real and where.exists
    write_export(link, "new", "x.md", replace=True)
    assert link.is_symlink() and real.read_text() == "new"


def test_the_library_folder_is_out_of_bounds(library: Library, tmp_path: Path) -> None:
    for target in (library.home / "notes.md", library.home, library.triage_path):
        with pytest.raises(LibraryError, match="inside the library folder"):
            export_target(target, "starred.md", library.home)
    # Without being told HOME, a library folder is still recognised by its files.
    with pytest.raises(LibraryError, match="papers-tui library folder"):
        export_target(library.triage_path, "starred.md")


def test_special_files_are_refused(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "fifo")
    with pytest.raises(LibraryError, match="is a FIFO"):
        export_target(tmp_path / "fifo", "x.md")
    with pytest.raises(LibraryError, match="no such folder"):
        export_target(tmp_path / "missing" / "x.md", "x.md")


# -- read_bounded -------------------------------------------------------------------------


def test_a_regular_file_within_the_cap_is_read(tmp_path: Path) -> None:
    path = tmp_path / "list.txt"
    path.write_bytes(b"x" * 100)
    assert read_bounded(path, ReadLimits(max_bytes=100)) == b"x" * 100
    with pytest.raises(SourceError, match="100 bytes, larger than 99 bytes"):
        read_bounded(path, ReadLimits(max_bytes=99))


def test_a_folder_and_a_fifo_are_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(SourceError, match="is a folder"):
        read_bounded(tmp_path, ReadLimits())
    os.mkfifo(tmp_path / "fifo")
    with pytest.raises(SourceError, match="is a FIFO"):
        read_bounded(tmp_path / "fifo", ReadLimits())
    # Asked to read it, a FIFO waits for its writer a bounded time (no hang), and one that
    # writes nothing is an empty file.
    monkeypatch.setattr(limits, "FIFO_WAIT_S", 0.2)
    with pytest.raises(SourceError, match="nothing wrote to this FIFO within"):
        read_bounded(tmp_path / "fifo", ReadLimits(special_files=True))
    writer = threading.Thread(target=lambda: (tmp_path / "fifo").open("wb").close())
    writer.start()
    assert read_bounded(tmp_path / "fifo", ReadLimits(special_files=True)) == b""
    writer.join(5)


@pytest.mark.parametrize(
    ("text", "size"),
    [
        ("2GB", 2 * 1024**3),
        ("500M", 500 * 1024**2),
        ("1.5 GiB", int(1.5 * 1024**3)),
        ("100000", 100_000),
        ("64kb", 64 * 1024),
    ],
)
def test_sizes(text: str, size: int) -> None:
    assert parse_size(text) == size


@pytest.mark.parametrize("text", ["", "lots", "0", "-1GB", "2 GBs", "1e9"])
def test_what_is_no_size(text: str) -> None:
    with pytest.raises(ValueError, match="not a size"):
        parse_size(text)


def test_sizes_for_people() -> None:
    assert size_text(DEFAULT_MAX_BYTES) == "256 MB"
    assert size_text(int(7.2 * 1024**3)) == "7.2 GB"
    assert size_text(512) == "512 bytes"


# -- web_url ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("given", "kept"),
    [
        ("https://openreview.net/forum?id=abc", "https://openreview.net/forum?id=abc"),
        ("  HTTP://Example.org/a b", ""),
        (" HTTP://example.org/ab \n", "http://example.org/ab"),
        ("https://example.org/x\n# heading", ""),
        ("https://example.org/{x}|y", "https://example.org/%7Bx%7D%7Cy"),
        ("https://example.org/\u202etxt", ""),
        ("https://example.org/\x1b[2J", ""),
        ("https://例え.jp/論文", "https://例え.jp/論文"),
        ("ftp://example.org/x", ""),
        ("javascript:alert(1)", ""),
        ("https:///path", ""),
        ("https://[::1", ""),
        ("https://example.org/" + "a" * 5000, ""),
    ],
)
def test_a_web_url_is_one_line_of_http(given: str, kept: str) -> None:
    assert web_url(given) == kept
