"""The CLI and the files derived from ``papers.json``: reused when valid, never trusted when not.

``papers.cache`` (the papers in chunks) and ``search.index`` (the search index) let a command
read only what it prints; a damaged ``papers.json`` is still reported by name, and no command
writes it.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from storage import Library, Status
from storage.cache.papers_cache import PAPERS_CACHE_FILE
from storage.cache.search_index import INDEX_FILE, UPDATE_FILE
from tests.cli.test_bad_input import SAMPLE, make_env, one_line_error, run
from tests.helpers import home_files


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("derived")
    home = root / "home"
    result = run("--home", home, "import", SAMPLE, env=make_env(root))
    assert result.returncode == 0, result.stderr
    return home


@pytest.fixture
def home(template: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "home"
    shutil.copytree(template, copy)
    return copy


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return make_env(tmp_path)


def ok(*args: str | Path, env: dict[str, str]) -> str:
    result = run(*args, env=env)
    assert result.returncode == 0 and result.stderr == "", (args, result.stderr)
    return result.stdout


def test_search_saves_its_index_and_answers_the_same_from_it(
    home: Path, env: dict[str, str]
) -> None:
    first = ok("--home", home, "search", "difusion", "model", env=env)
    index = home / INDEX_FILE
    assert first and index.exists()
    made = index.stat().st_mtime_ns
    assert ok("--home", home, "search", "difusion", "model", env=env) == first
    assert index.stat().st_mtime_ns == made  # loaded, not built again
    as_json = ok("--home", home, "search", "graph", "--json", env=env)
    index.unlink()
    assert ok("--home", home, "search", "graph", "--json", env=env) == as_json


def test_damaged_derived_files_change_no_answer(home: Path, env: dict[str, str]) -> None:
    listing = ok("--home", home, "list", env=env)
    found = ok("--home", home, "search", "language", "model", env=env)
    for name in (PAPERS_CACHE_FILE, INDEX_FILE):
        path = home / name
        data = bytearray(path.read_bytes())
        data[-500] ^= 0xFF
        path.write_bytes(bytes(data))
    assert ok("--home", home, "search", "language", "model", env=env) == found
    assert ok("--home", home, "list", env=env) == listing
    assert ok("--home", home, "stats", env=env)


@pytest.mark.parametrize(
    "damage",
    [b'{"papers": {"1": ', b"", b'{"papers": {"1": {"foo": 1}}}'],
    ids=["truncated", "empty", "bad record"],
)
def test_a_damaged_papers_file_is_reported_despite_valid_derived_files(
    home: Path, env: dict[str, str], damage: bytes
) -> None:
    ok("--home", home, "search", "graph", env=env)  # papers.cache and index of the good file
    ids = ok("--home", home, "list", env=env).split()
    papers = home / "papers.json"
    papers.write_bytes(damage)
    before = home_files(home)
    for args in (
        ["list"],
        ["search", "graph"],
        ["mark", ids[0], "read"],
        ["stats"],
        ["export"],
        ["similar", ids[0]],
    ):
        line = one_line_error(run("--home", home, *args, env=env), 1)
        assert line.startswith(f"papers: error: {papers} is damaged ("), (args, line)
        assert home_files(home) == before, args


def test_mark_reads_ids_from_papers_cache(home: Path, env: dict[str, str]) -> None:
    ids = [line.split()[0] for line in ok("--home", home, "list", env=env).splitlines()]
    marked = ok("--home", home, "mark", ids[3][:6], ids[30], "starred", env=env)
    assert [line.split()[0] for line in marked.splitlines()] == [ids[3], ids[30]]
    starred = ok("--home", home, "list", "--status", "starred", env=env)
    assert [line.split()[0] for line in starred.splitlines()] == [ids[3], ids[30]]
    assert "2 / 38 triaged" in ok("--home", home, "stats", env=env)


@pytest.mark.slow(15)
def test_similar_of_a_large_library_is_there_after_its_import_or_says_it_waits_once(
    tmp_path: Path, env: dict[str, str]
) -> None:
    from storage.cache.refresh import LARGE
    from storage.cache.similar_index import BUILD_LOCK, SIMILAR_FILE

    rng = random.Random(5)
    words = [f"w{i}" for i in range(3000)]
    lines = [
        json.dumps({"title": f"Paper {i}", "abstract": " ".join(rng.choices(words, k=40))})
        for i in range(LARGE)
    ]
    source = tmp_path / "large.jsonl"
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    home = tmp_path / "home"
    ok("--home", home, "import", source, env=env)
    assert (home / f"{SIMILAR_FILE}.ok").exists()  # made by the import, from its index's words
    assert not (home / BUILD_LOCK).exists()  # no build of its own was started
    for made in home.glob(f"{SIMILAR_FILE}*"):
        made.unlink()
    first_id = ok("--home", home, "list", env=env).split()[0]
    result = run("--home", home, "similar", first_id, env=env)
    assert result.returncode == 0, result.stderr
    assert result.stderr == (
        f"similar.index of {LARGE:,} papers is not made yet: waiting for it "
        "(once; later runs read it)\n"
    )
    assert ok("--home", home, "similar", first_id, env=env) == result.stdout  # read, silent


@pytest.mark.parametrize(
    "command",
    [("import", str(SAMPLE)), ("list",), ("search", "graph"), ("mark", "FIRST", "read")],
    ids=["import", "list", "search", "mark"],
)
def test_the_commands_that_print_do_not_load_textual(
    home: Path, env: dict[str, str], command: tuple[str, ...]
) -> None:
    """Textual is the app's: a command that prints does not pay for loading it (a tenth of
    a second of every start, and of an import into a large library)."""
    first = ok("--home", home, "list", env=env).split(maxsplit=1)[0]
    args = [first if arg == "FIRST" else arg for arg in command]
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "tui", "--home", str(home), *args],
        env=env,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        cwd=Path(__file__).parents[2],
    )
    assert done.returncode == 0, done.stderr[-2000:]
    loaded = [line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines() if "|" in line]
    assert "storage.library" in loaded  # (the times were printed)
    assert not [name for name in loaded if name.split(".")[0] == "textual"], args


def test_a_command_makes_what_it_derives_itself_and_the_app_has_a_child_make_it(
    home: Path,
) -> None:
    """``papers import`` ends right after its builds (its library is ``short_lived``); the app
    lives on, and gives a child process the builds' memory (``storage.cache.refresh``)."""
    program = (
        "import argparse, sys, tui.app\n"
        "from tui.cli.common import open_library\n"
        "from tui.cli.main import main\n"
        "class App:\n"
        "    def __init__(self, library, **_):\n"
        "        print('app', library.short_lived)\n"
        "        raise KeyboardInterrupt\n"
        "tui.app.PapersApp = App\n"
        "sys.modules['tui.cli.main']._on_a_terminal = lambda: True  # output: the test's pipe\n"
        "main(['--home', sys.argv[1]])\n"
        "print('command', open_library(argparse.Namespace(home=sys.argv[1])).short_lived)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", program, str(home)], capture_output=True, text=True, check=True
    )
    assert done.stdout.split("\n")[:2] == ["app False", "command True"]


def test_a_mark_leaves_the_next_command_the_triage_it_wrote(
    home: Path, env: dict[str, str]
) -> None:
    from storage.cache.triage_memo import MEMO_FILE, TriageMemo
    from storage.files.triage_model import SCHEMA

    pid = ok("--home", home, "list", "--json", env=env)
    first = json.loads(pid)[0]["id"]
    ok("--home", home, "mark", first, "starred", env=env)
    memo = TriageMemo(home).read(home / "triage.json", SCHEMA)
    assert memo is not None and memo[1].statuses == {first: Status.STARRED}
    assert first in memo[1].positions  # starred: in the reading queue
    # a decision made elsewhere (the app, another machine's sync): the file is read again
    Library(home).set_status(first, Status.SKIPPED)
    assert TriageMemo(home).read(home / "triage.json", SCHEMA) is None
    assert ok("--home", home, "list", "--status", "skipped", env=env).startswith(first)
    memo = TriageMemo(home).read(home / "triage.json", SCHEMA)  # what the list read
    assert memo is not None and memo[1].statuses == {first: Status.SKIPPED}
    assert (home / MEMO_FILE).stat().st_size < 10_000


def test_a_damaged_triage_file_is_reported_by_name_though_the_memo_is_there(
    home: Path, env: dict[str, str]
) -> None:
    from tests.unit.test_triage_memo import rewrite_in_place

    first = json.loads(ok("--home", home, "list", "--json", env=env))[0]["id"]
    ok("--home", home, "mark", first, "read", env=env)
    ok("--home", home, "list", env=env)  # the memo of this version kept
    triage = home / "triage.json"
    rewrite_in_place(triage, '"read"', '"rexd"')  # same size, same time
    for args in (["search", "model"], ["list"], ["stats"], ["mark", first, "skipped"]):
        line = one_line_error(run("--home", home, *args, env=env), 1)
        assert line.startswith(f"papers: error: {triage} is damaged ("), (args, line)


#: Files in HOME and a command that reads each: the library's own files are refused in one
#: line when they are no file, what is derived or kept aside is passed by (and made again).
FIFO_READERS = {
    "papers.json": ["list"],
    "triage.json": ["stats"],
    "searches.json": ["search", "--list-saved"],
    "papers.key": ["search", "model"],
    "papers.cache": ["list"],
    "search.index": ["search", "model"],
    "search.index.ok": ["search", "model"],
    "similar.index": ["similar", "PAPER"],
    "triage.cache": ["list"],
    "imports.replay": ["import", str(SAMPLE)],
    "sync/folder-0.json": ["sync", "--status"],
}


@pytest.mark.parametrize("name", sorted(FIFO_READERS))
def test_a_fifo_in_home_is_never_waited_on(home: Path, env: dict[str, str], name: str) -> None:
    """A FIFO's reader waits for a writer for ever: each file of HOME is opened only when it
    is a file."""
    first = json.loads(ok("--home", home, "list", "--json", env=env))[0]["id"]
    ok("--home", home, "mark", first, "read", env=env)  # triage.json, and its memo
    ok("--home", home, "similar", first, env=env)  # every derived file made
    args = ["similar", first] if name == "similar.index" else FIFO_READERS[name]
    path = home / name
    path.unlink(missing_ok=True)
    path.parent.mkdir(exist_ok=True)
    os.mkfifo(path)
    result = run("--home", home, *args, env=env, timeout=30)
    if name in ("papers.json", "triage.json", "searches.json"):
        line = one_line_error(result, 1)
        assert line == f"papers: error: {path}: a FIFO, not a file", line
        assert stat.S_ISFIFO(path.lstat().st_mode)  # left as it was
    else:
        assert result.returncode == 0 and result.stderr == "", result.stderr
        assert result.stdout


def test_an_update_of_the_index_that_is_a_fifo_is_passed_by(
    home: Path, env: dict[str, str], tmp_path: Path
) -> None:
    """After an import the search index is search.index and the update beside it: an update
    that is no file is passed by, and the search builds the index anew."""
    extra = tmp_path / "more.txt"
    extra.write_text(
        "More\n\nWe study quokka optimisation in depth and propose a method that solves it "
        "well; experiments on many benchmarks show large gains over strong baselines.\n",
        encoding="utf-8",
    )
    ok("--home", home, "search", "model", env=env)  # search.index of the sample
    ok("--home", home, "import", extra, env=env)
    update = home / UPDATE_FILE
    assert update.is_file()
    update.unlink()
    os.mkfifo(update)
    result = run("--home", home, "search", "quokka", env=env, timeout=30)
    assert result.returncode == 0 and result.stderr == "", result.stderr
    assert "quokka" in result.stdout.lower()


def test_a_library_folder_whose_triage_is_a_fifo_is_imported_without_it(
    home: Path, env: dict[str, str], tmp_path: Path
) -> None:
    """`papers import other/papers.json` reads the decisions beside it: not from a FIFO."""
    other = tmp_path / "other"
    shutil.copytree(home, other)
    (other / "triage.json").unlink(missing_ok=True)
    os.mkfifo(other / "triage.json")
    result = run("--home", tmp_path / "new", "import", other / "papers.json", env=env, timeout=30)
    assert result.returncode == 0, result.stderr
    assert "38 added" in result.stdout
    assert f"{other / 'triage.json'}: does not parse" in result.stderr
