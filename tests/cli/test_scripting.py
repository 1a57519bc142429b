"""``papers`` in scripts and odd environments (real subprocesses): an output whose encoding is
not UTF-8, a Ctrl+C. Every case: one line or the data, the
promised exit code, never a traceback."""

from __future__ import annotations

import errno
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.cli import test_bad_input
from tests.cli.test_bad_input import Seeded, make_env, run
from tests.conftest import REAL_LIST

# The fixtures of test_bad_input: the bundled sample imported once, a copy of it, a clean env.
seeded, home, env = test_bad_input.seeded, test_bad_input.home, test_bad_input.env

#: Standard outputs that cannot hold every character: Python told so, and a C locale with
#: Python's UTF-8 coercion (PEP 538, PEP 540) turned off, as older Pythons and some
#: embedders run.
NARROW = {
    "ascii": {"PYTHONIOENCODING": "ascii"},
    "latin-1": {"PYTHONIOENCODING": "latin-1"},
    "C locale": {"LC_ALL": "C", "PYTHONCOERCECLOCALE": "0", "PYTHONUTF8": "0"},
}


@pytest.mark.parametrize("where", list(NARROW))
@pytest.mark.parametrize(
    "args",
    [
        ["list"],
        ["search", "benchmark"],
        ["similar", "FIRST"],
        ["fetch", "--help"],
        ["sync", "--help"],
    ],
    ids=" ".join,
)
def test_text_beyond_the_output_encoding_shows_as_escapes(
    args: list[str], where: str, seeded: Seeded, tmp_path: Path
) -> None:
    """The sample's titles hold ``…``, the help ``…`` too: they were an internal error halfway
    through ``papers list`` (or a traceback, for ``--help``); now they show as ``\\u2026``."""
    args = [seeded.ids[0] if a == "FIRST" else a for a in args]
    done = run("--home", seeded.home, *args, env=make_env(tmp_path, **NARROW[where]))
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    if args[0] == "list":
        assert len(done.stdout.splitlines()) == len(seeded.ids)
    if args[0] in ("list", "fetch", "sync"):  # the titles' …, the help's
        assert "\\u2026" in done.stdout


@pytest.mark.parametrize("where", list(NARROW))
@pytest.mark.parametrize(
    "args",
    [
        ["list", "--json"],
        ["search", "model", "--json", "--limit", "100"],
        ["export", "--status", "all", "--format", "json"],
        ["export", "--status", "all", "--format", "bibtex"],
        ["export", "--status", "all"],
    ],
    ids=" ".join,
)
def test_json_and_exports_reach_a_pipe_as_utf8_whatever_the_encoding(
    args: list[str], where: str, seeded: Seeded, tmp_path: Path
) -> None:
    """Data is not a message: a script reading ``papers export`` or ``--json`` gets the same
    UTF-8 bytes as with a UTF-8 locale (those of ``-o FILE``), not an internal error."""
    utf8 = run("--home", seeded.home, *args, env=make_env(tmp_path / "utf8"))
    narrow = subprocess.run(
        [*test_bad_input.PAPERS, "--home", str(seeded.home), *args],
        env=make_env(tmp_path / "narrow", **NARROW[where]),
        capture_output=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert narrow.returncode == 0, narrow.stderr
    assert narrow.stderr == b""
    assert narrow.stdout.decode("utf-8") == utf8.stdout
    if "--json" in args:
        assert len(json.loads(narrow.stdout)) > 1


def test_an_undo_in_an_ascii_output_is_said_not_an_error(home: Path, tmp_path: Path) -> None:
    """``papers undo`` prints ``inbox → read``: the undo was made, then the arrow was an
    internal error and exit code 1, and a script took the undo for failed."""
    ascii_env = make_env(tmp_path, PYTHONIOENCODING="ascii")
    first = json.loads(run("--home", home, "list", "--json", env=ascii_env).stdout)[0]["id"]
    assert run("--home", home, "mark", first, "read", env=ascii_env).returncode == 0
    undone = run("--home", home, "undo", env=ascii_env)
    assert undone.returncode == 0, undone.stderr
    assert undone.stderr == ""
    assert undone.stdout.startswith(f"{first}  read \\u2192 inbox")


@pytest.mark.parametrize("where", list(NARROW))
def test_stats_in_a_narrow_output_is_aligned_as_printed(
    where: str, seeded: Seeded, tmp_path: Path
) -> None:
    """``PYTHONIOENCODING=ascii papers stats``: the bundled list named 'ICLR 2025 论文列表'
    prints as ``\\u8bba…``, and the columns were laid out for the four characters, not the
    escapes (nor the day's bar of ``█``, six characters each)."""
    narrow = subprocess.run(
        [*test_bad_input.PAPERS, "--home", str(seeded.home), "stats"],
        env=make_env(tmp_path, **NARROW[where]),
        capture_output=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert narrow.returncode == 0 and narrow.stderr == b"", narrow.stderr
    lines = narrow.stdout.decode("ascii").splitlines()
    per_list = lines[lines.index(next(ln for ln in lines if ln.startswith("Per list"))) :]
    table = per_list[: per_list.index("")]
    assert any("\\u8bba" in line for line in table), table
    assert len({len(line) for line in table}) == 1, table  # every column lines up
    utf8 = run("--home", seeded.home, "stats", env=make_env(tmp_path / "utf8")).stdout
    bars = [line for line in utf8.splitlines() if "█" in line]
    assert bars and len(bars) == len([ln for ln in lines if "#" in ln])
    assert [len(ln) for ln in lines if "#" in ln] == [len(bar) for bar in bars]


def interruptible(env: dict[str, str], *args: str | Path) -> subprocess.Popen[str]:
    """``papers ARGS`` started as a terminal's Ctrl+C finds it: a shell without job control
    ignores SIGINT for the commands it starts in the background, and Python then keeps it
    ignored."""
    return subprocess.Popen(
        [*test_bad_input.PAPERS, *map(str, args)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # noqa: PLW1509
    )


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX FIFOs and signals")
def test_ctrl_c_during_an_import_is_one_line_and_no_import(tmp_path: Path) -> None:
    """Ctrl+C while ``papers import`` waits on its input (a FIFO nobody writes to yet): the
    process ended with exit code 130 and not a word, leaving a script's log to guess; now one
    line says so, and nothing was imported."""
    fifo = tmp_path / "list.jsonl"
    os.mkfifo(fifo)
    home = tmp_path / "home"
    with interruptible(make_env(tmp_path), "--home", home, "import", "--any-file", fifo) as proc:
        deadline = time.monotonic() + 30
        while True:  # the import has opened the FIFO: it now waits for its first byte
            try:
                writer = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
                break
            except OSError as exc:
                assert exc.errno == errno.ENXIO and time.monotonic() < deadline
                time.sleep(0.02)
        try:
            proc.send_signal(signal.SIGINT)
            out, err = proc.communicate(timeout=30)
        finally:
            os.close(writer)
    assert proc.returncode == 130
    assert (out, err) == ("", "papers: interrupted\n")
    assert not (home / "papers.json").exists()


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.skipif(not REAL_LIST.is_file(), reason="real data not found")
def test_ctrl_c_once_the_papers_are_stored_says_they_are_imported(tmp_path: Path) -> None:
    """Ctrl+C while the import made its search files, its papers stored: it said only
    "interrupted", and the user took the import for not made (found by the fetch review)."""
    real = [json.loads(line) for line in REAL_LIST.read_text(encoding="utf-8").splitlines()]
    source = tmp_path / "many.jsonl"
    with source.open("w", encoding="utf-8") as out:
        for n in range(20_000):  # some seconds of making its search files, after the store
            paper = real[n % len(real)]
            paper = {**paper, "title": f"{paper['title']} {n}"}
            paper["abstract"] = f"{paper['abstract']} Variant {n}."
            out.write(json.dumps(paper) + "\n")
    home = tmp_path / "home"
    env = make_env(tmp_path)
    with interruptible(env, "--home", home, "import", source) as proc:
        deadline = time.monotonic() + 120
        # the papers stored and cached: the search files are being made (seconds of work)
        while not (home / "papers.cache").exists():
            assert proc.poll() is None and time.monotonic() < deadline
            time.sleep(0.005)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert out.startswith("Imported many: 20,000 added"), (out, err)
    assert err.endswith(
        "papers: interrupted while the import made its search files; the papers are "
        "imported, and the next command that needs those files makes them\n"
    ), err
    assert "Traceback" not in err
    found = run("--home", home, "search", "Variant 12345", "--json", env=env, timeout=120)
    assert found.returncode == 0, found.stderr
    assert any(p["title"].endswith(" 12345") for p in json.loads(found.stdout))
    listed = run("--home", home, "list", env=env, timeout=120)
    assert len(listed.stdout.splitlines()) == 20_000


@pytest.mark.parametrize(
    ("args", "command"),
    [
        (["stats", "--bogus"], "stats"),
        (["list", "extra"], "list"),
        (["search", "x", "--limt", "3"], "search"),
    ],
)
def test_an_unknown_argument_points_to_its_commands_help(
    args: list[str], command: str, home: Path, env: dict[str, str]
) -> None:
    """``papers stats --bogus`` said see `papers --help`, which lists none of stats' options."""
    line = test_bad_input.one_line_error(run("--home", home, *args, env=env), 2)
    assert line.endswith(f"(see `papers {command} --help`)"), line


@pytest.mark.parametrize("command", [["list"], ["export", "--format", "csv"]])
def test_a_status_filter_is_spelt_as_mark_takes_it(
    command: list[str], seeded: Seeded, home: Path, env: dict[str, str]
) -> None:
    """``papers mark ID Skip`` (any case, ``skip``, ``star``, ``new``) and then ``papers list
    --status Skip``: the filter was refused (exit 2, "invalid choice") though mark took it."""
    skipped = seeded.ids[:2]
    assert run("--home", home, "mark", *skipped, "Skip", env=env).returncode == 0
    for spelt in ("Skip", "SKIPPED", "skip"):
        done = run("--home", home, *command, "--status", spelt, env=env)
        assert done.returncode == 0, done.stderr
        assert all(pid in done.stdout for pid in skipped) and seeded.starred not in done.stdout
    starred = run("--home", home, *command, "--status", "Star", env=env)
    assert starred.returncode == 0 and seeded.starred in starred.stdout, starred.stderr
    wrong = run("--home", home, *command, "--status", "red", env=env)
    assert wrong.returncode == 2 and "invalid choice: 'red'" in wrong.stderr
