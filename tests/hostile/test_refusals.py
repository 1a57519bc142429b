"""What an import must not read and an export must not write: refused with one line, at once,
the library byte for byte as it was, and no special or library file replaced.

Special files are made in the test's folder (a FIFO, a socket, a sparse file of gigabytes, a
device node where the system lets the test make one), never taken from the system's paths.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import stat
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from storage import Library
from tests.helpers import DERIVED_FILES, home_files
from tests.hostile.hostile import sound_paper
from tests.hostile.test_cli import Result, run

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="FIFOs, sockets, device nodes")

ONE_PAPER = json.dumps({"title": "T", "abstract": sound_paper()["abstract"]}) + "\n"


def fifo(path: Path) -> Path:
    os.mkfifo(path)
    return path


@pytest.fixture
def unix_socket(tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "sock.jsonl"
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(path))
    yield path
    server.close()


def device(path: Path) -> Path:
    """A character device node like /dev/null (1, 3), where the test may make one."""
    try:
        os.mknod(path, 0o600 | stat.S_IFCHR, os.makedev(1, 3))
    except (PermissionError, AttributeError, OSError):
        pytest.skip("making a device node needs privileges")
    return path


def sparse(path: Path, size: int) -> Path:
    with path.open("wb") as out:
        out.truncate(size)
    return path


def refused(result: Result, says: str, code: int = 1) -> None:
    assert result.code == code, result
    assert result.out == "", result
    assert result.err.count("\n") == 1 and result.err.startswith("papers: error: "), result.err
    assert says in result.err, result.err
    assert "Traceback" not in result.err


# -- imports ----------------------------------------------------------------------------------

IMPORTS: dict[str, tuple[Callable[[Path], list[str | Path]], str]] = {
    "a FIFO": (lambda t: [fifo(t / "list.jsonl")], "is a FIFO, not a regular file"),
    "a FIFO as the catalog": (
        lambda t: [t / "one.jsonl", "--catalog", fifo(t / "catalog.json")],
        "is a FIFO",
    ),
    "a symlink to a FIFO": (
        lambda t: [link(t / "via.txt", fifo(t / "list.txt"))],
        "is a FIFO",
    ),
    "a huge sparse file": (
        lambda t: [sparse(t / "huge.jsonl", 7 * 1024**3)],
        "7 GB, larger than 256 MB, the most an import reads (--max-size raises it)",
    ),
    "over --max-size": (
        lambda t: [t / "one.jsonl", "--max-size", "100B"],
        "larger than 100 bytes",
    ),
    "a binary file": (lambda t: [write(t / "bin.json", b"\x00\x01" * 100)], "binary data"),
    "an empty file": (lambda t: [write(t / "empty.txt", b"")], "is empty"),
    "not UTF-8": (lambda t: [write(t / "latin.txt", "caf\xe9 " * 30)], "not UTF-8"),
    "a folder without lists": (lambda t: [mkdir(t / "nothing")], "holds no list files"),
    "a missing file": (lambda t: [t / "missing.jsonl"], "no such file"),
}


def write(path: Path, data: bytes | str) -> Path:
    path.write_bytes(data if isinstance(data, bytes) else data.encode("latin-1"))
    return path


def mkdir(path: Path) -> Path:
    path.mkdir()
    return path


def link(path: Path, target: Path) -> Path:
    path.symlink_to(target)
    return path


@pytest.mark.parametrize("case", list(IMPORTS))
def test_an_import_refused_leaves_the_library_as_it_was(
    case: str, hostile_home: Path, tmp_path: Path
) -> None:
    (tmp_path / "one.jsonl").write_text(ONE_PAPER)
    make, says = IMPORTS[case]
    args = make(tmp_path)
    before = home_files(hostile_home)
    started = time.monotonic()
    result = run("--home", hostile_home, "import", *args)
    assert time.monotonic() - started < 5, "refused at once, not after reading"
    refused(result, says)
    assert home_files(hostile_home) == before


def test_a_socket_is_not_read(hostile_home: Path, unix_socket: Path) -> None:
    before = home_files(hostile_home)
    refused(run("--home", hostile_home, "import", unix_socket), "is a socket")
    assert home_files(hostile_home) == before


def test_a_device_is_not_opened(hostile_home: Path, tmp_path: Path) -> None:
    before = home_files(hostile_home)
    refused(run("--home", hostile_home, "import", device(tmp_path / "null")), "character device")
    assert home_files(hostile_home) == before


def test_a_bad_max_size_is_a_usage_error(hostile_home: Path) -> None:
    refused(run("--home", hostile_home, "import", "x", "--max-size", "lots"), "not a size", 2)


def feed(path: Path, data: bytes, after: float = 0.0) -> threading.Thread:
    """A writer that opens the FIFO (``after`` seconds from now) and writes ``data`` (as
    ``zcat … >`` would)."""

    def write_all() -> None:
        time.sleep(after)
        with contextlib.suppress(BrokenPipeError), path.open("wb") as out:
            out.write(data)  # a reader that stops at its cap breaks the pipe

    thread = threading.Thread(target=write_all, daemon=True)
    thread.start()
    return thread


def test_any_file_reads_a_pipe_within_the_cap(hostile_home: Path, tmp_path: Path) -> None:
    pipe = fifo(tmp_path / "piped.jsonl")
    writer = feed(pipe, ONE_PAPER.encode())
    result = run("--home", hostile_home, "import", pipe, "--any-file")
    writer.join(5)
    assert result.code == 0 and "1 added" in result.out, result


def test_a_fifo_whose_writer_comes_later_is_read(hostile_home: Path, tmp_path: Path) -> None:
    """`mkfifo p; papers import p --any-file &` then `zcat list.gz > p`: the import waits for
    its writer (it once read the FIFO as an empty file when the writer came a moment late)."""
    pipe = fifo(tmp_path / "later.jsonl")
    writer = feed(pipe, ONE_PAPER.encode(), after=1.5)
    result = run("--home", hostile_home, "import", pipe, "--any-file")
    writer.join(5)
    assert result.code == 0 and "1 added" in result.out, result


def test_an_endless_pipe_stops_at_the_cap(hostile_home: Path, tmp_path: Path) -> None:
    pipe = fifo(tmp_path / "zero.jsonl")
    writer = feed(pipe, b"x" * (3 * 1024**2))
    before = home_files(hostile_home)
    result = run("--home", hostile_home, "import", pipe, "--any-file", "--max-size", "1MB")
    writer.join(5)
    refused(result, "larger than 1 MB")
    assert home_files(hostile_home) == before


# -- exports ----------------------------------------------------------------------------------

EXPORTS: dict[str, tuple[Callable[[Path, Path], Path], str]] = {
    "a FIFO": (lambda h, t: fifo(t / "out.md"), "is a FIFO, not a regular file"),
    "a symlink to a FIFO": (
        lambda h, t: link(t / "via.md", fifo(t / "out.md")),
        "a FIFO, not a regular file",
    ),
    "papers.json": (lambda h, t: h / "papers.json", "inside the library folder"),
    "triage.json": (lambda h, t: h / "triage.json", "inside the library folder"),
    "the backup": (lambda h, t: h / "triage.json.bak", "inside the library folder"),
    "the lock": (lambda h, t: h / ".lock", "inside the library folder"),
    "the cache": (lambda h, t: h / "papers.cache", "inside the library folder"),
    "a new file in HOME": (lambda h, t: h / "starred.md", "inside the library folder"),
    "HOME itself": (lambda h, t: h, "inside the library folder"),
    "HOME by another path": (
        lambda h, t: h / ".." / h.name / "triage.json",
        "inside the library folder",
    ),
    "a symlink into HOME": (
        lambda h, t: link(t / "decisions.json", h / "triage.json"),
        "inside the library folder",
    ),
    "another library": (lambda h, t: other_library(t) / "triage.json", "library folder"),
    "a folder's existing default": (
        lambda h, t: existing(t / "exports" / "starred.md"),
        "already exists; give its full name to replace it",
    ),
}


def other_library(tmp_path: Path) -> Path:
    home = tmp_path / "other"
    library = Library(home)
    library.import_file(write(tmp_path / "o.jsonl", ONE_PAPER))
    library.set_status(library.papers()[0].id, "starred")
    return home


def existing(path: Path) -> Path:
    path.parent.mkdir()
    path.write_text("mine")
    return path.parent


def everything(folder: Path) -> dict[str, tuple[int, bytes]]:
    """Every entry under ``folder``: its kind and, for files, its bytes (links not followed;
    derived files, which any read may rewrite, by their kind only)."""
    found = {}
    for path in sorted(folder.rglob("*")):
        mode = path.lstat().st_mode
        data = path.read_bytes() if stat.S_ISREG(mode) and path.name not in DERIVED_FILES else b""
        found[str(path.relative_to(folder))] = (stat.S_IFMT(mode), data)
    return found


@pytest.mark.parametrize("case", list(EXPORTS))
def test_an_export_never_replaces_a_special_or_library_file(
    case: str, hostile_home: Path, tmp_path: Path
) -> None:
    make, says = EXPORTS[case]
    target = make(hostile_home, tmp_path)
    before = everything(tmp_path)
    # (the format given: a name such as papers.cache names none, refused before this guard)
    result = run("--home", hostile_home, "export", "--format", "markdown", "-o", target)
    refused(result, says)
    assert everything(tmp_path) == before  # HOME, the FIFO, the link, the other library


def test_an_export_to_a_device_is_refused(hostile_home: Path, tmp_path: Path) -> None:
    target = device(tmp_path / "null")
    refused(run("--home", hostile_home, "export", "-o", target), "is a character device")
    assert stat.S_ISCHR(target.lstat().st_mode)


@pytest.mark.skipif(not Path("/dev/stdout").exists(), reason="no /dev/stdout")
def test_an_export_to_dev_stdout_piped_writes_to_the_pipe(
    hostile_home: Path, tmp_path: Path
) -> None:
    """`papers export -o /dev/stdout | less`: it said "cannot write (No such file or
    directory)", its temporary file tried in /proc/PID/fd (the magic link leads to no path);
    then that the pipe was a FIFO. It is standard output: the export goes there."""
    import subprocess

    from tests.cli.test_cli import PAPERS, make_env

    done = subprocess.run(
        [*PAPERS, "--home", str(hostile_home), "export", "-o", "/dev/stdout"],
        env=make_env(tmp_path), capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert done.stdout.startswith("# Starred papers")


def test_an_export_to_a_socket_is_refused(hostile_home: Path, unix_socket: Path) -> None:
    export = ("export", "--format", "markdown", "-o", unix_socket)
    refused(run("--home", hostile_home, *export), "is a socket")
    assert stat.S_ISSOCK(unix_socket.lstat().st_mode)


def test_an_export_writes_through_a_link_and_replaces_a_named_file(
    hostile_home: Path, tmp_path: Path
) -> None:
    real = tmp_path / "notes" / "starred.md"
    real.parent.mkdir()
    real.write_text("old")
    via = link(tmp_path / "starred-link.md", real)
    assert run("--home", hostile_home, "export", "-o", via).code == 0
    assert via.is_symlink() and real.read_text().startswith("# Starred")
    assert run("--home", hostile_home, "export", "--format", "csv", "-o", real).code == 0
    assert real.read_text().startswith("id,title,status")
    dangling = link(tmp_path / "later-link.md", tmp_path / "later.md")
    assert run("--home", hostile_home, "export", "-o", dangling).code == 0
    assert dangling.is_symlink() and (tmp_path / "later.md").read_text().startswith("# ")
