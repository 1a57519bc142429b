"""Bad input to the ``papers`` command: one line on stderr, exit 1 (2 for usage), HOME untouched.

Every case runs against a copy of one seeded HOME (the bundled lists imported and one paper
starred, so that both ``papers.json`` and ``triage.json`` exist) and checks that every file in
HOME is byte-for-byte what it was. Damaged library files are reported by name and never
written over. A reader that leaves early (``papers list | head -1``) causes no traceback.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.helpers import home_files

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "storage" / "sample"
TWENTY_MB = 20 * 1024 * 1024


def papers_command() -> list[str]:
    """The installed console script beside this Python, else ``python -m tui``."""
    for name in ("papers", "papers.exe"):
        script = Path(sys.executable).with_name(name)
        if script.is_file():
            return [str(script)]
    return [sys.executable, "-m", "tui"]


PAPERS = papers_command()


def make_env(root: Path, **extra: str) -> dict[str, str]:
    """A clean environment: user folders inside ``root``, no PAPERS_* leaking in."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"PAPERS_HOME", "PAPERS_DEBUG", "PYTHONUNBUFFERED"}
    }
    env.update(
        HOME=str(root / "user"),
        XDG_CONFIG_HOME=str(root / "xdg-config"),
        XDG_DATA_HOME=str(root / "xdg-data"),
        XDG_CACHE_HOME=str(root / "xdg-cache"),
        XDG_STATE_HOME=str(root / "xdg-state"),
    )
    env.update(extra)
    return env


def run(
    *args: str | Path, env: dict[str, str], timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*PAPERS, *map(str, args)],
        env=env,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=timeout,
        stdin=subprocess.DEVNULL,
    )


def one_line_error(result: subprocess.CompletedProcess[str], code: int) -> str:
    """The error line of a command that must fail with ``code`` and say one line."""
    assert result.returncode == code, (result.args, result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("papers: error: "), result.stderr
    assert "internal error" not in lines[0]
    assert result.stdout == ""
    return lines[0]


@dataclass(frozen=True)
class Seeded:
    home: Path
    ids: list[str]
    starred: str


@pytest.fixture(scope="module")
def seeded(tmp_path_factory: pytest.TempPathFactory) -> Seeded:
    root = tmp_path_factory.mktemp("seeded")
    env = make_env(root)
    home = root / "home"
    imported = run("--home", home, "import", SAMPLE, env=env)
    assert imported.returncode == 0 and "38 added" in imported.stdout, imported.stderr
    listing = run("--home", home, "list", "--json", env=env)
    ids = [r["id"] for r in json.loads(listing.stdout)]
    assert run("--home", home, "mark", ids[7], "starred", env=env).returncode == 0
    assert {"papers.json", "triage.json"} <= {p.name for p in home.iterdir()}
    return Seeded(home, ids, ids[7])


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return make_env(tmp_path)


@pytest.fixture
def home(seeded: Seeded, tmp_path: Path) -> Path:
    target = tmp_path / "home"
    shutil.copytree(seeded.home, target)
    return target


# -- bad list files -------------------------------------------------------------------------

PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)) * 8
PAPER = {
    "title": "A paper",
    "abstract": "We study a problem with a new method and report results on several "
    "benchmarks, with enough words in the abstract to count as one.",
}


def twenty_mb_paragraph(path: Path) -> None:
    words = b"lorem ipsum dolor sit amet consectetur adipiscing elit "
    path.write_bytes((words * (TWENTY_MB // len(words) + 1))[:TWENTY_MB])


def twenty_mb_wrapped_paragraph(path: Path) -> None:
    line = b"lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod\n"
    path.write_bytes(line * (TWENTY_MB // len(line)))


BAD_FILES: dict[str, tuple[str, bytes | Callable[[Path], None], str]] = {
    # case: (file name, content or writer, what the error line says)
    "empty file": ("empty.txt", b"", "the file is empty"),
    "blank file": ("blank.txt", b" \n\n\t\n", "the file is empty"),
    "binary file": ("list.txt", PNG, "not a text file"),
    "binary, no NUL": ("list.csv", "café ñ résumé".encode("latin-1") * 20, "not UTF-8 text"),
    "truncated JSON": ("list.json", json.dumps([PAPER, PAPER]).encode()[:-25], "not valid JSON"),
    "JSON object, no papers": ("list.json", b'{"name": "x", "n": 2}', "holds no list of papers"),
    "JSON list of numbers": ("list.json", b"[1, 2, 3]", "holds no list of papers"),
    "JSON string": ("list.json", b'"papers"', "not valid JSON"),
    # (a record with a title and no abstract is a paper known by its title)
    "JSON papers without abstracts or titles": (
        "list.json",
        b'[{"authors": "A"}, {"url": "https://example.org"}]',
        "no abstract and no title",
    ),
    "CSV without abstract or title column": (
        "list.csv",
        b"authors,url\nAda Lovelace,https://example.org\n",
        "no abstract or title column",
    ),
    "header line only": ("list.txt", b"My reading list\n", "too short to be an abstract"),
    "EndNote XML cut short": (
        "refs.xml",
        b'<?xml version="1.0"?><xml><records><record><titles><title>Sparse At',
        "the XML is cut short: it ends at line 1, column 67, inside record 1, <title>",
    ),
    "EndNote XML declaring entities": (
        "refs.xml",
        b'<!DOCTYPE xml [<!ENTITY a "ha"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]>'
        b"<xml><records><record><titles><title>&b;</title></titles></record></records></xml>",
        "declares an entity ('a')",
    ),
    "EndNote XML of no records": ("refs.xml", b"<xml><records/></xml>", "of no records"),
    "20 MB one paragraph": ("huge.txt", twenty_mb_paragraph, "too long for an abstract"),
    "20 MB hard-wrapped paragraph": (
        "wrapped.txt",
        twenty_mb_wrapped_paragraph,
        "too long for an abstract",
    ),
}


@pytest.mark.parametrize("case", list(BAD_FILES))
def test_bad_list_file(case: str, home: Path, env: dict[str, str], tmp_path: Path) -> None:
    name, content, says = BAD_FILES[case]
    path = tmp_path / "input" / name
    path.parent.mkdir()
    if callable(content):
        content(path)
    else:
        path.write_bytes(content)
    before = home_files(home)
    start = time.monotonic()
    result = run("--home", home, "import", path, env=env)
    elapsed = time.monotonic() - start
    line = one_line_error(result, 1)
    assert says in line and name in line, line
    assert home_files(home) == before
    # a bound against a reader gone quadratic on the 20 MB files (minutes), not a timing: a
    # loaded 2-core machine took 10.6 s for what takes 1 s alone
    assert elapsed < 30, f"{case}: {elapsed:.1f} s"


# -- bad arguments --------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    args: Callable[[Seeded, Path], list[str | Path]]
    code: int
    says: str


CASES: dict[str, Case] = {
    "missing path": Case(lambda s, t: ["import", t / "nope.txt"], 1, "no such file"),
    # (an empty list name was none: the file's name was used in silence)
    "empty list name": Case(
        lambda s, t: ["import", SAMPLE, "--list", ""], 2, "a list's name cannot be empty"
    ),
    "blank list name": Case(
        lambda s, t: ["import", SAMPLE, "--list", " "], 2, "a list's name cannot be empty"
    ),
    "empty fetched list name": Case(  # (``env`` sends paperlists to a closed local port)
        lambda s, t: ["fetch", "paperlists:iclr2025", "--list", ""],
        2,
        "a list's name cannot be empty",
    ),
    "folder without lists": Case(
        lambda s, t: ["import", empty_folder(t)], 1, "holds no list files"
    ),
    "empty catalog": Case(
        lambda s, t: ["import", SAMPLE, "--catalog", empty_file(t)], 1, "the file is empty"
    ),
    "missing catalog": Case(
        lambda s, t: ["import", SAMPLE, "--catalog", t / "nope.jsonl"], 1, "no such file"
    ),
    "unknown id": Case(lambda s, t: ["mark", "0123456789ab", "read"], 1, "'0123456789ab'"),
    "known and unknown ids": Case(
        lambda s, t: ["mark", s.ids[0], "fedcba987654", "read"], 1, "'fedcba987654'"
    ),
    "prefix too short": Case(lambda s, t: ["mark", s.ids[0][:3], "read"], 1, "too short"),
    "unknown id, note": Case(lambda s, t: ["note", "0123456789ab", "hi"], 1, "no paper"),
    "unknown id, tag": Case(lambda s, t: ["tag", "0123456789ab", "x"], 1, "no paper"),
    "unknown id, similar": Case(lambda s, t: ["similar", "0123456789ab"], 1, "no paper"),
    "export to a missing folder": Case(
        lambda s, t: ["export", "-o", t / "no" / "such" / "x.md"], 1, "no such folder"
    ),
    "export into a file as if a folder": Case(
        lambda s, t: ["export", "-o", empty_file(t) / "x.md"], 1, "catalog.jsonl: not a folder"
    ),
    "an empty arXiv feed": Case(
        lambda s, t: ["import", empty_feed(t)], 1, "empty.xml: no papers found to import"
    ),
    "unknown status": Case(lambda s, t: ["mark", s.ids[0], "maybe"], 2, "unknown status"),
    "status before id": Case(lambda s, t: ["mark", "read", s.ids[0]], 2, "unknown status"),
    "mark without status": Case(lambda s, t: ["mark", s.ids[0]], 2, "then a status"),
    "list unknown status": Case(lambda s, t: ["list", "--status", "maybe"], 2, "--status"),
    "export unknown status": Case(lambda s, t: ["export", "--status", "maybe"], 2, "--status"),
    "export unknown format": Case(lambda s, t: ["export", "--format", "docx"], 2, "--format"),
    "search limit 0": Case(lambda s, t: ["search", "x", "--limit", "0"], 2, "--limit"),
    "search limit text": Case(lambda s, t: ["search", "x", "--limit", "ten"], 2, "--limit"),
    # "-5" was taken for a negated query word, and --limit said "expected one argument"
    "search limit negative": Case(
        lambda s, t: ["search", "x", "--limit", "-5"], 2, "--limit: must be at least 1"
    ),
    "search limit negative fraction": Case(
        lambda s, t: ["search", "-x", "--limit", "-1.5"], 2, "--limit: not a number: '-1.5'"
    ),
    "similar limit negative": Case(
        lambda s, t: ["similar", s.ids[0], "--limit", "-5"], 2, "--limit: must be at least 1"
    ),
    "fetch max negative": Case(
        lambda s, t: ["fetch", "iclr2025", "--max", "-5"], 2, "--max: must be at least 1"
    ),
    "tag only #": Case(lambda s, t: ["tag", s.ids[0], "#"], 2, "'#' is not a tag"),
    "tag misspelt option": Case(lambda s, t: ["tag", s.ids[0], "--hme", "x"], 2, "--hme"),
    "search without query": Case(lambda s, t: ["search"], 2, "QUERY"),
    "import without files": Case(lambda s, t: ["import"], 2, "FILE"),
    "unknown command": Case(lambda s, t: ["frobnicate"], 2, "frobnicate"),
    "unknown option": Case(lambda s, t: ["list", "--colour"], 2, "--colour"),
    "search unknown option": Case(lambda s, t: ["search", "x", "--limt", "3"], 2, "--limt"),
    # an unset variable in a script: not the default library, not the current folder
    "empty home": Case(lambda s, t: ["stats", "--home", ""], 2, "--home: an empty path"),
    "import empty path": Case(lambda s, t: ["import", ""], 2, "FILE: an empty path"),
    "import empty catalog": Case(
        lambda s, t: ["import", SAMPLE, "--catalog", ""], 2, "--catalog: an empty path"
    ),
    "export to empty path": Case(lambda s, t: ["export", "-o", ""], 2, "--output: an empty path"),
    "fetch empty source": Case(lambda s, t: ["fetch", ""], 2, "SOURCE: an empty source name"),
    "fetch blank source": Case(
        lambda s, t: ["fetch", "iclr2025", " "], 2, "SOURCE: an empty source name"
    ),
    "enrich from empty source": Case(
        lambda s, t: ["enrich", "--from", ""], 2, "--from: an empty source name"
    ),
    "sync into the library": Case(lambda s, t: ["sync", t / "home"], 1, "the library's own folder"),
}


def empty_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "empty-folder"
    (folder / "sub").mkdir(parents=True)
    (folder / "notes.pdf").write_bytes(b"%PDF-1.4")
    return folder


def empty_feed(tmp_path: Path) -> Path:
    """An arXiv API answer that found nothing: its name was not said ("no papers found")."""
    path = tmp_path / "empty.xml"
    path.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom">'
        "<title>ArXiv Query: search_query=all:zebrafish</title>"
        "<id>http://arxiv.org/api/q</id>"
        '<opensearch:totalResults xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">'
        "0</opensearch:totalResults></feed>\n"
    )
    return path


def empty_file(tmp_path: Path) -> Path:
    path = tmp_path / "catalog.jsonl"
    path.write_bytes(b"")
    return path


@pytest.mark.parametrize("case", list(CASES))
def test_bad_arguments(
    case: str, seeded: Seeded, home: Path, env: dict[str, str], tmp_path: Path
) -> None:
    spec = CASES[case]
    args = spec.args(seeded, tmp_path)
    before = home_files(home)
    env = {**env, "PAPERS_PAPERLISTS_URL": "http://127.0.0.1:9/pl"}  # no test goes further
    line = one_line_error(run("--home", home, *args, env=env), spec.code)
    assert spec.says in line, line
    if spec.code == 2:
        assert "--help" in line  # the usage is one --help away
    assert home_files(home) == before


def test_ambiguous_prefix(home: Path, env: dict[str, str], tmp_path: Path) -> None:
    """A prefix that two papers' ids share names neither of them."""
    rows = [
        {
            "title": f"Paper {n}",
            "abstract": f"Paper number {n} studies a question with a method and reports results.",
        }
        for n in range(2000)
    ]
    extra = tmp_path / "many.jsonl"
    extra.write_text("\n".join(json.dumps(r) for r in rows), encoding="utf-8")
    assert "2,000 added" in run("--home", home, "import", extra, env=env).stdout
    ids = [r["id"] for r in json.loads(run("--home", home, "list", "--json", env=env).stdout)]
    assert len(ids) == 2038
    shared = Counter(i[:4] for i in ids).most_common(1)[0]
    assert shared[1] >= 2  # 2,038 ids in 65,536 four-character prefixes: a clash is certain
    before = home_files(home)
    line = one_line_error(run("--home", home, "mark", shared[0], "read", env=env), 1)
    assert "ambiguous" in line and f"'{shared[0]}'" in line
    # the papers it may be, to take one of (the line named none)
    clashing = sorted(i for i in ids if i.startswith(shared[0]))
    assert all(pid in line for pid in clashing[:3]), line
    assert home_files(home) == before


# -- damaged library files ------------------------------------------------------------------


def half(data: bytes) -> bytes:
    return data[: len(data) // 2]


DAMAGE: dict[str, tuple[str, Callable[[bytes, Seeded], bytes], str]] = {
    # case: (file, new content from the old, what the error line says)
    "papers.json truncated": ("papers.json", lambda b, s: half(b), "not valid JSON"),
    "papers.json empty": ("papers.json", lambda b, s: b"", "the file is empty"),
    "papers.json not JSON": ("papers.json", lambda b, s: b"not json\n", "not valid JSON"),
    "papers.json a list": ("papers.json", lambda b, s: b"[1,2]", "not an object"),
    "papers.json bad table": (
        "papers.json",
        lambda b, s: b'{"papers": [1, 2]}',
        "table 'papers' is malformed",
    ),
    "papers.json bad record": (
        "papers.json",
        lambda b, s: b'{"papers": {"1": {"foo": 1}}}',
        "malformed",
    ),
    "triage.json truncated": ("triage.json", lambda b, s: half(b), "not valid JSON"),
    "triage.json not JSON": ("triage.json", lambda b, s: b"not json", "not valid JSON"),
    "triage.json a list": ("triage.json", lambda b, s: b"[1,2]", "not an object"),
    "triage.json bad status": (
        "triage.json",
        lambda b, s: b.replace(b'"starred"', b'"maybe"'),
        "malformed",
    ),
    "triage.json bad history": (
        "triage.json",
        lambda b, s: b'{"history": {"1": {"what": 1}}}',
        "malformed",
    ),
    "triage.json undo step not numbered": (
        "triage.json",
        lambda b, s: b.replace(b'"history":{"1":', b'"history":{"abc":').replace(
            b'"history": {"1":', b'"history": {"abc":'
        ),
        "a step of the undo log is numbered 'abc'",
    ),
}


def damage(home: Path, seeded: Seeded, case: str) -> tuple[Path, str]:
    name, change, says = DAMAGE[case]
    path = home / name
    new = change(path.read_bytes(), seeded)
    assert new != path.read_bytes()
    path.write_bytes(new)
    return path, says


@pytest.mark.parametrize("case", list(DAMAGE))
def test_damaged_library_file(case: str, seeded: Seeded, home: Path, env: dict[str, str]) -> None:
    name = DAMAGE[case][0]  # its last good version, as every rewrite of the file keeps
    shutil.copyfile(home / name, home / f"{name}.bak")
    path, says = damage(home, seeded, case)
    before = home_files(home)
    for args in (["list"], ["mark", seeded.ids[0], "read"]):
        line = one_line_error(run("--home", home, *args, env=env), 1)
        assert line.startswith(f"papers: error: {path} is damaged (")
        assert says in line, line
        assert home_files(home) == before
        # the last good version named whatever the damage (not "start afresh", which loses
        # every decision while a good copy is there: a file of the wrong shape did)
        assert f"the last good version is {path}.bak" in line, line


@pytest.mark.parametrize("case", ["papers.json truncated", "triage.json not JSON"])
def test_no_command_writes_over_a_damaged_file(
    case: str, seeded: Seeded, home: Path, env: dict[str, str], tmp_path: Path
) -> None:
    path, _ = damage(home, seeded, case)
    before = home_files(home)
    commands: list[list[str | Path]] = [
        ["import", SAMPLE],
        ["undo"],
        ["note", seeded.ids[0], "a note"],
        ["tag", seeded.ids[0], "x"],
        ["export", "-o", tmp_path / "out.md"],
    ]
    for args in commands:
        line = one_line_error(run("--home", home, *args, env=env), 1)
        assert str(path) in line, (args, line)
        assert home_files(home) == before, args
    assert not (tmp_path / "out.md").exists()


# -- a reader that leaves early ---------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["list"],
        ["list", "--json"],
        ["search", "diffusion"],
        ["export", "--status", "all", "--format", "json"],
        ["stats"],
    ],
    ids=" ".join,
)
def test_closed_pipe_is_no_traceback(args: list[str], seeded: Seeded, tmp_path: Path) -> None:
    closed_pipe_is_no_traceback(args, seeded, make_env(tmp_path))


def test_closed_pipe_unbuffered(seeded: Seeded, tmp_path: Path) -> None:
    closed_pipe_is_no_traceback(["list"], seeded, make_env(tmp_path, PYTHONUNBUFFERED="1"))


def closed_pipe_is_no_traceback(args: list[str], seeded: Seeded, env: dict[str, str]) -> None:
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader is gone before the first byte
    try:
        result = subprocess.run(
            [*PAPERS, "--home", str(seeded.home), *args],
            env=env,
            stdout=write_end,
            stderr=subprocess.PIPE,
            stdin=subprocess.DEVNULL,
            timeout=60,
        )
    finally:
        os.close(write_end)
    assert result.stderr.decode() == ""
    assert result.returncode == 0


def test_head_one_is_no_traceback(seeded: Seeded, env: dict[str, str]) -> None:
    """`papers list --json | head -c 100`: the reader takes a little and closes."""
    with subprocess.Popen(
        [*PAPERS, "--home", str(seeded.home), "list", "--json"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
    ) as proc:
        assert proc.stdout is not None and proc.stderr is not None
        first = os.read(proc.stdout.fileno(), 100)
        proc.stdout.close()
        err = proc.stderr.read().decode()
        code = proc.wait(timeout=60)
    assert first.startswith(b"[")
    assert err == ""
    assert code == 0


def test_the_app_without_a_terminal_says_so_in_one_line(home: Path, tmp_path: Path) -> None:
    """Input from a file and output to a pipe: no screen written into the pipe, no wait for
    keys that never come, no traceback."""
    keys = tmp_path / "keys.txt"
    keys.write_text("jjq\n", encoding="utf-8")
    with keys.open("rb") as stdin:
        done = subprocess.run(
            [*PAPERS, "--home", str(home)],
            env=make_env(tmp_path),
            stdin=stdin,
            capture_output=True,
            text=True,
            timeout=30,
        )
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.startswith("papers: error: the app needs a terminal"), done.stderr
    assert len(done.stderr.splitlines()) == 1


def run_with_stdout_closed(
    args: list[str], seeded: Seeded, tmp_path: Path
) -> subprocess.CompletedProcess[str]:
    """``papers ARGS >&-``: the child starts with no file descriptor 1 at all."""
    return subprocess.run(
        [*PAPERS, "--home", str(seeded.home), *args],
        env=make_env(tmp_path),
        stdin=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        timeout=60,
        preexec_fn=lambda: os.close(1),  # noqa: PLW1509 - the child's stdout, closed
    )


@pytest.mark.parametrize(
    "args",
    [
        ["list"],
        ["search", "diffusion"],
        ["stats"],
        ["export", "--status", "all", "--format", "bibtex"],
        ["list", "--json"],
    ],
    ids=" ".join,
)
def test_output_to_a_closed_standard_output_is_an_error(
    args: list[str], seeded: Seeded, tmp_path: Path
) -> None:
    """``papers export >&-``: what the command printed went nowhere, so it says so and exits
    1, as ``>/dev/full`` does (it reported success, the export lost)."""
    done = run_with_stdout_closed(args, seeded, tmp_path)
    assert done.returncode == 1, done.stderr
    assert done.stderr == "papers: error: standard output is closed\n"


def test_a_closed_standard_output_that_is_not_written_is_no_error(
    seeded: Seeded, tmp_path: Path
) -> None:
    """``papers export -o FILE >&-``: nothing was to go to standard output, nothing is lost."""
    out = tmp_path / "out.md"
    done = run_with_stdout_closed(["export", "-o", str(out)], seeded, tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr
    assert out.read_text(encoding="utf-8").startswith("#")


def test_a_negated_qualifier_is_a_word_of_the_query(home: Path, env: dict[str, str]) -> None:
    """``papers search diffusion -is:read``, as its help writes it (not an unknown option)."""
    found = json.loads(run("--home", home, "search", "model", "--json", env=env).stdout)
    first = found[0]["id"]
    assert run("--home", home, "mark", first, "read", env=env).returncode == 0
    done = run("--home", home, "search", "model", "-is:read", "--json", env=env)
    assert done.returncode == 0, done.stderr
    ids = [hit["id"] for hit in json.loads(done.stdout)]
    assert ids and first not in ids
    # a word argparse would read as -h and more
    hard = run("--home", home, "search", "model", "-hardware", "--json", env=env)
    assert hard.returncode == 0 and json.loads(hard.stdout), hard.stderr


def test_a_note_or_tag_that_is_a_number_reads_as_text(
    seeded: Seeded, home: Path, env: dict[str, str]
) -> None:
    """A hand's edit of ``triage.json`` (a note 7, a tag 2025): read as the text it shows, by
    every command (``search has:note`` was an internal error)."""
    path = home / "triage.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    [doc] = [d for d in data["decisions"].values() if d.get("status") == "starred"]
    doc["note"], doc["tags"] = 7, [2025, "ok"]
    path.write_text(json.dumps(data), encoding="utf-8")
    for args in (["search", "has:note", "--json"], ["search", "tag:2025", "--json"]):
        done = run("--home", home, *args, env=env)
        assert done.returncode == 0, done.stderr
        assert [hit["id"] for hit in json.loads(done.stdout)] == [seeded.starred]
    starred = run("--home", home, "list", "--json", "--status", "starred", env=env)
    listed = json.loads(starred.stdout)
    assert listed[0]["note"] == "7" and listed[0]["tags"] == ["2025", "ok"]


def test_a_huge_size_limit_is_no_limit(home: Path, env: dict[str, str]) -> None:
    done = run("--home", home, "import", SAMPLE, "--max-size", "9" * 30 + "TB", env=env)
    assert done.returncode == 0 and "internal error" not in done.stderr, done.stderr


def test_a_backup_whose_place_is_taken_blocks_no_decision(
    seeded: Seeded, home: Path, env: dict[str, str]
) -> None:
    backup = home / "triage.json.bak"
    backup.unlink(missing_ok=True)
    backup.mkdir()  # a folder where the backup goes
    done = run("--home", home, "mark", seeded.ids[0], "read", env=env)
    assert done.returncode == 0, done.stderr
    listed = json.loads(run("--home", home, "list", "--json", "--status", "read", env=env).stdout)
    assert [p["id"] for p in listed] == [seeded.ids[0]]
    assert not [p for p in home.iterdir() if p.name.endswith(".tmp")]


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX resource limits")
def test_a_write_the_disk_refuses_names_the_file(
    seeded: Seeded, home: Path, env: dict[str, str]
) -> None:
    """A full disk (here: a file size limit, which fails the write as ENOSPC does, naming no
    file): the error said only "No space left on device", or named the temporary file."""
    import resource
    import signal

    def small_files() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # the write fails rather than kill
        resource.setrlimit(resource.RLIMIT_FSIZE, (64, 64))

    before = home_files(home)
    done = subprocess.run(
        [*PAPERS, "--home", str(home), "note", seeded.ids[0], "a note " * 40],
        env=env, capture_output=True, text=True, timeout=60, preexec_fn=small_files,
    )  # fmt: skip
    line = one_line_error(done, 1)
    assert line.startswith(f"papers: error: {home / 'triage.json'}: "), line
    assert home_files(home) == before


def test_a_library_folder_that_cannot_be_made_is_said_in_words(
    env: dict[str, str], tmp_path: Path
) -> None:
    """A HOME on a read-only mount, or under a file: the line read 'cannot create the library
    folder ([Errno 30] Read-only file system: 'PATH')', Python's repr of the error (found by
    a hostile review)."""
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    done = run("--home", blocker / "home", "list", env=env)
    assert done.returncode == 1
    assert done.stderr == (
        f"papers: error: {blocker / 'home'}: has a file in its path: the library is a folder\n"
    )
    # --home naming the file itself (a typo for its folder) said "cannot create the library
    # folder (File exists)"
    done = run("--home", blocker, "stats", env=env)
    assert done.returncode == 1
    assert done.stderr == f"papers: error: {blocker}: is a file: the library is a folder\n"
