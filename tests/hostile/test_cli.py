"""Every `papers` command on a hostile library: no control character from the data reaches the
terminal, no traceback, and what goes to a pipe is the exact text.

The commands run in-process (``tui.cli.main.main``) with standard output and error that say
they are terminals, so that the terminal path is the one taken; a few run for real in a
pseudo-terminal. ``COMMANDS`` must name every command of the parser (a test says so).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from benchmarks._pty import spawn
from storage import Library
from storage.export import FORMATS, GROUPINGS
from tests.helpers import home_files
from tests.hostile.conftest import write_hostile_lists
from tests.hostile.hostile import HOSTILE, TerminalBuffer, leaks
from tui.cli.main import build_parser, main

OSC52 = HOSTILE["OSC 52 clipboard"]
CLEAR = HOSTILE["clear screen"]


@dataclass
class Result:
    code: int
    out: str
    err: str


def run(*args: str | Path, terminal: bool = True) -> Result:
    out = TerminalBuffer() if terminal else io.StringIO()
    err = TerminalBuffer()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main([str(a) for a in args])
        except SystemExit as exc:  # argparse's usage errors
            code = exc.code if isinstance(exc.code, int) else 2
    return Result(code, out.getvalue(), err.getvalue())


@dataclass
class Context:
    home: Path
    ids: list[str]
    tmp: Path

    def list_file(self) -> Path:
        return write_hostile_lists(self.tmp / "more")[0]


Case = Callable[[Context], list[str | Path]]

#: Every command, with the invocations that put hostile data (or hostile arguments) in its
#: output: its normal lines, its JSON, its errors.
COMMANDS: dict[str, list[Case]] = {
    "import": [
        lambda c: [c.list_file()],
        lambda c: [c.list_file(), "--list", f"Named {OSC52}"],
        lambda c: [c.tmp / f"missing {CLEAR}.json"],
        lambda c: [write_hostile_lists(c.tmp / "folder")[0].parent],
        lambda c: [c.list_file(), "--catalog", c.tmp / f"nothing {OSC52}.json"],
    ],
    "list": [
        lambda c: [],
        lambda c: ["--json"],
        lambda c: ["--status", "starred"],
        lambda c: ["--status", CLEAR],
    ],
    "search": [
        lambda c: ["Title"],
        lambda c: ["Title", "--json", "--limit", "50"],
        lambda c: [f"tag:{OSC52}"],
        lambda c: ["tag:plain"],
        lambda c: ["Title", "--limit", CLEAR],
    ],
    "mark": [
        lambda c: [*c.ids[12:20], "starred"],
        lambda c: [c.ids[0], "starred"],
        lambda c: [OSC52, "read"],
        lambda c: [c.ids[1], f"starred{CLEAR}"],
    ],
    "undo": [lambda c: []],
    "redo": [lambda c: []],
    "note": [lambda c: [c.ids[0], f"mine {OSC52}"], lambda c: [c.ids[0]]],
    "tag": [lambda c: [c.ids[0], f"t{CLEAR}", "x"], lambda c: [c.ids[0]], lambda c: [OSC52]],
    "export": [
        *(
            (lambda c, f=fmt: ["--status", "all", "--format", f])  # type: ignore[misc]
            for fmt in FORMATS
        ),
        *(
            (lambda c, g=group: ["--status", "all", "--group-by", g])  # type: ignore[misc]
            for group in GROUPINGS
        ),
        lambda c: ["--status", "all", "-o", c.tmp / f"out {OSC52}.md"],
        lambda c: ["-o", c.tmp / f"no folder {CLEAR}" / "x.md"],
    ],
    "stats": [lambda c: [], lambda c: ["--json"]],
    "similar": [lambda c: [c.ids[0]], lambda c: [c.ids[3], "--json"], lambda c: [OSC52]],
    # Commands on their way (DESIGN.md's contract): walked as soon as the parser has them.
    "remove": [lambda c: c.ids[20:23], lambda c: ["--list", f"List 0 {CLEAR}"], lambda c: [OSC52]],
    "sync": [lambda c: [c.tmp / f"synced {OSC52}"], lambda c: [c.tmp / "missing" / CLEAR]],
    "queue": [
        lambda c: [],
        lambda c: ["--json"],
        lambda c: ["move", c.ids[12], "--to", "top"],
        lambda c: ["move", c.ids[40], "--to", "1"],
        lambda c: ["move", OSC52, "--to", CLEAR],
        lambda c: ["sort", "venue"],
        lambda c: ["sort", OSC52],
    ],
    "next": [lambda c: [], lambda c: ["--json"]],
    # (no download reaches beyond the machine: only arguments that fail before any request)
    "pdf": [
        lambda c: ["--folder", c.tmp / f"pdfs {CLEAR}", OSC52],
        lambda c: ["--pause", CLEAR],
        lambda c: ["--status", "starred", c.ids[0]],
    ],
    # Fetches talk to the local stand-in (``context``), whose papers carry hostile text.
    "fetch": [
        lambda c: ["iclr2025"],
        lambda c: ["iclr2025", "--all", "--reviews"],
        lambda c: ["paperlists:iclr2025", "--all"],
        lambda c: [OSC52],
        lambda c: [f"openreview:ICLR.cc/{CLEAR}/Conference"],
        lambda c: [f"openreview:ICLR.cc/2031/{OSC52.strip(chr(27))}"],
        lambda c: [f"arxiv:ti:{OSC52}"],
        lambda c: ["iclr2025", "--list", f"Named {CLEAR}"],
    ],
    "enrich": [
        lambda c: [],
        lambda c: ["--from", "iclr2025", "--all"],
        lambda c: ["--from", OSC52],
    ],
    # (a server that starts would not return: its own tests are in tests/web)
    "serve": [lambda c: ["--port", CLEAR], lambda c: ["--port", "8000", "--port", OSC52]],
}


def parser_commands() -> set[str]:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return set(sub.choices)


CASES = [
    (name, i)
    for name, cases in COMMANDS.items()
    if name in parser_commands()
    for i in range(len(cases))
]


def test_every_command_is_walked() -> None:
    missing = sorted(parser_commands() - set(COMMANDS))
    assert not missing, f"add hostile cases for {missing} to COMMANDS in {__file__}"


@pytest.fixture
def context(
    hostile_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Context]:
    from tests.fetch import shapes
    from tests.fetch.services import Services, environment, serving

    ids = [p.id for p in Library(hostile_home).papers()]
    found = Services()
    made = shapes.made_up(len(HOSTILE), fate="") + shapes.made_up(2, seed=2)
    for paper, text in zip(made, HOSTILE.values(), strict=False):
        paper.title = f"Fetched {text} title"
        paper.authors = [f"Author {text}"]
        paper.ratings, paper.confidences = [f"6: {text}", 8], [text, 3]
    found.v2["ICLR.cc/2025/Conference"] = shapes.v2_venue(made, "ICLR.cc/2025/Conference")
    found.paperlists["iclr2025"] = [shapes.paperlists_record(m, "iclr", 2025) for m in made]
    with serving(found) as base:
        for key, value in environment(base).items():
            monkeypatch.setenv(key, value)
        yield Context(hostile_home, ids, tmp_path)


@pytest.mark.parametrize(("command", "number"), CASES, ids=[f"{c}-{i}" for c, i in CASES])
def test_no_control_character_reaches_the_terminal(
    command: str, number: int, context: Context
) -> None:
    args = COMMANDS[command][number](context)
    result = run("--home", context.home, command, *args)
    assert result.code in (0, 1, 2), result
    for stream in (result.out, result.err):
        assert not leaks(stream.replace("\n", "")), (leaks(stream), stream[:2000])
    assert "Traceback" not in result.err and "internal error" not in result.err, result.err
    if result.code:
        assert result.err.count("\n") == 1, result.err  # an error is one line
    if "--json" in args and result.code == 0:
        json.loads(result.out)


@pytest.mark.parametrize("fmt", FORMATS)
def test_an_export_to_a_pipe_is_the_exact_text(fmt: str, context: Context) -> None:
    args = ("--home", context.home, "export", "--status", "all", "--format", fmt)
    piped = run(*args, terminal=False)
    shown = run(*args)
    target = context.tmp / f"file.{fmt}"
    assert run(*args, "-o", target).code == 0
    written = target.read_text(encoding="utf-8")
    assert piped.out == written
    if fmt.endswith("json"):  # escaped on a terminal: the same data
        assert json.loads(shown.out) == json.loads(written)
    if fmt not in ("markdown", "bibtex"):  # a file keeps the data's characters where its
        # format allows them (BibTeX is ASCII with LaTeX's escapes; Markdown shows them)
        assert leaks(written.replace("\n", ""))
    assert not leaks(shown.out.replace("\n", ""))


def real_papers() -> list[str]:
    script = Path(sys.executable).with_name("papers")
    return [str(script)] if script.exists() else [sys.executable, "-m", "tui"]


@pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")
@pytest.mark.parametrize(
    "args",
    [
        ["list"],
        ["stats"],
        ["export", "--status", "all", "--format", "csv"],
        ["export", "--status", "all", "--format", "ris"],  # its file keeps the text too
        ["list", "--json"],
    ],
    ids=" ".join,
)
def test_in_a_real_terminal(args: list[str], hostile_home: Path) -> None:
    terminal = spawn([*real_papers(), "--home", str(hostile_home), *args])
    try:
        while terminal.read(10.0) >= 0:
            pass
        assert terminal.proc.wait(timeout=30) == 0, bytes(terminal.screen[-500:])
    finally:
        terminal.close(quit_keys=None)
    screen = bytes(terminal.screen)
    # Our commands print no escape sequence of their own: any would have come from the data.
    for raw in (b"\x1b", b"\xc2\x9b", b"\xc2\x9d", "\u202e".encode(), "\u2066".encode()):
        assert raw not in screen, (raw, screen[:300])
    assert home_files(hostile_home)  # still a library
