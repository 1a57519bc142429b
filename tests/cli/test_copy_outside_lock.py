"""``papers note`` and ``papers tag`` print what they replace before writing the change, but not
under triage.json's lock: a reader that takes nothing (``papers note ID new | sleep 60``) made
every other writer wait the lock's 15 s, then fail. A writer that changes the note or the tags
while their copy waits on the reader has its own value printed too before it is replaced.

The reader that takes nothing is a real pipe, filled by the test, then given one page of room:
the command's copy, longer than a page, cannot all go in: once its start is there, it waits.
"""

from __future__ import annotations

import fcntl
import json
import os
import struct
import subprocess
import termios
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.cli.test_cli import PAPERS, ok, run
from tests.cli.test_note_cli import field_of, sample_home

PAGE = 4096


def _queued(fd: int) -> int:
    """The bytes waiting in the pipe whose reading end is ``fd``."""
    return int(struct.unpack("i", fcntl.ioctl(fd, termios.FIONREAD, b"\0" * 4))[0])


@contextmanager
def stuck_on_output(*args: str | Path, env: dict[str, str]) -> Iterator[list[bytes]]:
    """Run ``papers ARGS`` with standard output a pipe that nobody reads, until the command
    waits on it; on leaving, read the pipe to its end (the command goes on and ends: exit 0)
    and put what it printed in the list yielded."""
    read_end, write_end = os.pipe()
    fcntl.fcntl(write_end, fcntl.F_SETFL, os.O_NONBLOCK)
    full = 0
    try:
        while True:
            full += os.write(write_end, b"-" * PAGE)
    except BlockingIOError:
        pass
    fcntl.fcntl(write_end, fcntl.F_SETFL, 0)
    assert len(os.read(read_end, PAGE)) == PAGE  # one page of room
    command = subprocess.Popen(
        [*PAPERS, *map(str, args)], env=env, stdout=write_end, stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
    )  # fmt: skip
    os.close(write_end)
    printed: list[bytes] = []
    try:
        deadline = time.monotonic() + 60
        while _queued(read_end) <= full - PAGE:  # the copy's start is in (it cannot all be)
            assert command.poll() is None, command.stderr.read() if command.stderr else ""
            assert time.monotonic() < deadline, "the command never wrote its copy"
            time.sleep(0.05)
        yield printed
    finally:
        chunks = []
        while chunk := os.read(read_end, 1 << 16):
            chunks.append(chunk)
        os.close(read_end)
        _, err = command.communicate(timeout=60)
    assert command.returncode == 0, err
    printed.append(b"".join(chunks).lstrip(b"-"))


def quick(*args: str | Path, env: dict[str, str]) -> str:
    """The output of a command that must succeed at once (not after the lock's 15 s)."""
    start = time.monotonic()
    out = ok(run(*args, env=env, timeout=60))
    assert time.monotonic() - start < 10
    return out


def test_a_note_printed_to_a_reader_that_takes_nothing_holds_no_lock(tmp_path: Path) -> None:
    home, env, pid = sample_home(tmp_path)
    old = "an old note " * 1000  # 12,000 characters: longer than the pipe's room
    ok(run("--home", home, "note", pid, old, env=env))
    (second, *_) = [r["id"] for r in json.loads(ok(run("--home", home, "list", "--json", env=env)))
                    if r["id"] != pid]  # fmt: skip
    with stuck_on_output("--home", home, "note", pid, "new", env=env) as printed:
        quick("--home", home, "mark", second, "read", env=env)
        quick("--home", home, "tag", second, "later", env=env)
    assert printed[0].decode().splitlines() == [
        "note saved; the note it replaced, as it was:",
        old.strip(),
    ]
    assert field_of(home, env, pid, "note") == "new"
    assert field_of(home, env, second, "status") == "read"


def test_a_note_changed_while_its_copy_waits_is_printed_before_it_is_replaced(
    tmp_path: Path,
) -> None:
    home, env, pid = sample_home(tmp_path)
    old = "an old note " * 1000
    ok(run("--home", home, "note", pid, old, env=env))
    with stuck_on_output("--home", home, "note", pid, "mine", env=env) as printed:
        said = quick("--home", home, "note", pid, "theirs", env=env)
        assert said.splitlines()[0] == "note saved; the note it replaced, as it was:"
    assert printed[0].decode().splitlines() == [
        "note saved; the note it replaced, as it was:",
        old.strip(),
        "the note changed meanwhile (another writer); the note it replaced, as it was:",
        "theirs",
    ]
    assert field_of(home, env, pid, "note") == "mine"


def test_tags_printed_to_a_reader_that_takes_nothing_hold_no_lock(tmp_path: Path) -> None:
    home, env, pid = sample_home(tmp_path)
    old = [f"topic-{n:03d}-" + "x" * 80 for n in range(60)]  # some 5,500 characters
    ok(run("--home", home, "tag", pid, *old, env=env))
    with stuck_on_output("--home", home, "tag", pid, "new", env=env) as printed:
        quick("--home", home, "mark", pid, "starred", env=env)
        quick("--home", home, "tag", pid, "theirs", env=env)
    assert printed[0].decode().splitlines() == [
        f"tags: new; the tags it replaced: {', '.join(old)}",
        "the tags changed meanwhile (another writer); the tags it replaced: theirs",
    ]
    assert field_of(home, env, pid, "tags") == ["new"]
    assert field_of(home, env, pid, "status") == "starred"
