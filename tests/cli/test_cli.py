"""The ``papers`` command, run as users run it: real subprocesses of the installed script.

Every test works in its own temporary HOME (``--home`` in most, ``$PAPERS_HOME`` in one), with
XDG_* folders pointed into ``tmp_path`` so that nothing touches the real user folders. A seeded
HOME (the two bundled lists imported, one paper starred) is built once per module and copied.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import shutil
import subprocess
import sys
import unicodedata
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path
from urllib.parse import unquote

import pytest

from tests.helpers import home_files

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "storage" / "sample"
DATA = REPO.parent / "shared" / "data"
ICLR = DATA / "iclr2025.jsonl"
needs_data = pytest.mark.skipif(
    not ICLR.is_file(), reason=f"real data not found: {ICLR} (../shared/data is absent)"
)

REQUIRED_KEYS = {
    "id", "title", "status", "github", "url", "list", "abstract", "authors", "venue_status",
}  # fmt: skip
STATUSES = ("inbox", "read", "skipped", "starred")
COMMANDS = (
    "import", "list", "search", "mark", "undo", "redo", "note", "tag", "export", "stats",
    "similar",
)  # fmt: skip


# -- running papers -------------------------------------------------------------------------


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


def ok(result: subprocess.CompletedProcess[str]) -> str:
    """The stdout of a command that must succeed (exit 0, no traceback)."""
    assert result.returncode == 0, (result.args, result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    return result.stdout


def nothing_to(result: subprocess.CompletedProcess[str], what: str) -> None:
    """An undo or redo with nothing to undo (redo): said on stderr, exit code 1 (as ``git
    stash pop`` with no stash: ``while papers undo; do :; done`` ends), stdout empty."""
    assert (result.returncode, result.stdout) == (1, ""), (result.args, result.stderr)
    assert result.stderr == f"papers: nothing to {what}\n"


def seed_paragraphs() -> list[str]:
    """The abstracts of the bundled lists, in file order (the header line dropped)."""
    found: list[str] = []
    for path in sorted(SAMPLE.glob("*.txt")):
        paragraphs = re.split(r"\n[ \t\r\f\v]*\n", path.read_text(encoding="utf-8"))
        found += [p.strip() for p in paragraphs if p.strip()][1:]
    return found


def key(text: str) -> str:
    folded = unicodedata.normalize("NFKC", text).casefold()
    return "".join(ch for ch in folded if ch.isalnum())


# -- fixtures -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Seeded:
    home: Path
    records: list[dict]  # `list --json` before the star
    parasolver: str  # its id; starred in the seeded HOME
    collabedit: str
    helmet: str
    lists: tuple[str, str]  # list names in import order


@pytest.fixture(scope="module")
def seeded(tmp_path_factory: pytest.TempPathFactory) -> Seeded:
    root = tmp_path_factory.mktemp("seeded")
    env = make_env(root)
    home = root / "home"
    out = ok(run("--home", home, "import", SAMPLE, env=env))
    assert "38 added, 0 updated, 0 skipped" in out
    records = json.loads(ok(run("--home", home, "list", "--json", env=env)))

    def find(word: str) -> str:
        (pid,) = [r["id"] for r in records if word in r["abstract"]]
        return pid

    parasolver = find("ParaSolver")
    ok(run("--home", home, "mark", parasolver, "starred", env=env))
    names = tuple(dict.fromkeys(r["list"] for r in records))
    assert len(names) == 2
    return Seeded(
        home, records, parasolver, find("COLLABEDIT"), find("HELMET"), (names[0], names[1])
    )


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return make_env(tmp_path)


@pytest.fixture
def home(seeded: Seeded, tmp_path: Path) -> Path:
    """A copy of the seeded HOME for this test alone."""
    target = tmp_path / "home"
    shutil.copytree(seeded.home, target)
    return target


def listed(home: Path, env: dict[str, str], *args: str) -> list[dict]:
    return json.loads(ok(run("--home", home, "list", "--json", *args, env=env)))


def statuses(home: Path, env: dict[str, str]) -> dict[str, str]:
    return {r["id"]: r["status"] for r in listed(home, env)}


# -- version and help -----------------------------------------------------------------------


def test_version(env: dict[str, str]) -> None:
    assert ok(run("--version", env=env)) == f"papers {version('papers-tui')}\n"


def test_python_m_tui_is_the_same_command(env: dict[str, str]) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "tui", "--version"], env=env, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout == f"papers {version('papers-tui')}\n"


HELP_MENTIONS = {
    None: ["import", "list", "search", "mark", "export", "stats", "--home", "--version"],
    "import": ["--catalog", "--list", "FILE"],
    "list": ["--status", "--json", "inbox", "starred", "all"],
    "search": ["QUERY", "--limit", "--json"],
    "mark": ["ID", "STATUS"],
    "export": ["--status", "--format", "markdown", "csv", "json", "bibtex", "-o"],
    "stats": ["--json"],
}


@pytest.mark.parametrize("command", [None, *COMMANDS])
def test_help_of_every_command(command: str | None, env: dict[str, str]) -> None:
    args = ["--help"] if command is None else [command, "--help"]
    out = ok(run(*args, env=env))
    prog = "papers" if command is None else f"papers {command}"
    assert out.startswith(f"usage: {prog} "), out
    for word in HELP_MENTIONS.get(command, []) + ["--home"]:
        assert word in out, (command, word)


# -- HOME -----------------------------------------------------------------------------------


def test_papers_home_variable_and_home_flag(tmp_path: Path) -> None:
    by_env = tmp_path / "env-home"
    env = make_env(tmp_path, PAPERS_HOME=str(by_env))
    seed = sorted(SAMPLE.glob("*.txt"))[0]
    assert "19 added, 0 updated, 0 skipped" in ok(run("import", seed, env=env))
    assert {p.name for p in by_env.iterdir()} >= {"papers.json"}
    assert len(ok(run("list", env=env)).splitlines()) == 19
    # --home beats $PAPERS_HOME
    by_flag = tmp_path / "flag-home"
    assert ok(run("--home", by_flag, "list", env=env)) == ""
    assert ok(run("list", "--home", by_flag, env=env)) == ""  # after the command too
    assert not (by_flag / "papers.json").exists()
    # nothing went to the user data folder
    assert not (tmp_path / "xdg-data").exists()
    assert not (tmp_path / "user").exists()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="XDG folders are Linux's")
def test_default_home_is_the_user_data_folder(env: dict[str, str], tmp_path: Path) -> None:
    seed = sorted(SAMPLE.glob("*.txt"))[1]
    assert "19 added" in ok(run("import", seed, env=env))
    assert (tmp_path / "xdg-data" / "papers-tui" / "papers.json").is_file()


# -- import ---------------------------------------------------------------------------------


def test_list_of_an_empty_library_says_why_nothing_is_listed(
    env: dict[str, str], tmp_path: Path
) -> None:
    """A new HOME has no papers (the app starts on a sample; the commands do not): ``list``
    prints none, exit 0, and says on stderr how a list comes in; a library with papers, of
    which none has the status asked for, says nothing."""
    empty = run("--home", tmp_path / "new", "list", env=env)
    assert ok(empty) == ""
    assert "the library is empty: `papers import FILE`" in empty.stderr
    assert json.loads(ok(run("--home", tmp_path / "new", "list", "--json", env=env))) == []
    run("--home", tmp_path / "full", "import", SAMPLE, env=env)
    starred = run("--home", tmp_path / "full", "list", "--status", "starred", env=env)
    assert ok(starred) == "" and starred.stderr == ""
    # its papers.json a link to a drive not mounted: said so, no import advised
    (tmp_path / "linked").mkdir()
    (tmp_path / "linked" / "papers.json").symlink_to(tmp_path / "unmounted" / "papers.json")
    linked = run("--home", tmp_path / "linked", "list", env=env)
    assert ok(linked) == "" and "which is missing" in linked.stderr
    assert "library is empty" not in linked.stderr, linked.stderr


def test_import_seeds_then_reimport_skips_all(env: dict[str, str], tmp_path: Path) -> None:
    home = tmp_path / "home"
    first = ok(run("--home", home, "import", *sorted(SAMPLE.glob("*.txt")), env=env))
    assert re.search(r": 38 added, 0 updated, 0 skipped\b", first), first
    again = ok(run("--home", home, "import", SAMPLE, env=env))
    assert re.search(r": 0 added, 0 updated, 38 skipped\b", again), again
    assert len(listed(home, env)) == 38


def test_seeded_list_order_ids_and_json_contract(seeded: Seeded) -> None:
    records = seeded.records
    assert len(records) == 38
    for record in records:
        assert record.keys() >= REQUIRED_KEYS
        assert re.fullmatch(r"[0-9a-f]{12}", record["id"])
        assert isinstance(record["github"], list) and isinstance(record["authors"], list)
        assert all(u.startswith("https://github.com/") for u in record["github"])
        assert record["status"] == "inbox"
        assert isinstance(record["title"], str) and 0 < len(record["title"]) <= 110
    assert len({r["id"] for r in records}) == 38
    # list order: the lists in import order (file order), each paper in its file's order
    assert [r["abstract"] for r in records] == seed_paragraphs()
    assert [r["list"] for r in records] == [seeded.lists[0]] * 19 + [seeded.lists[1]] * 19
    assert set(seeded.lists) == {"ICLR 2025 论文列表", "ICLR 2025 Papers"}
    by_id = {r["id"]: r for r in records}
    assert by_id[seeded.parasolver]["title"].startswith("ParaSolver")
    assert by_id[seeded.parasolver]["github"] == ["https://github.com/Jianrong-Lu/ParaSolver"]
    assert by_id[seeded.collabedit]["github"] == ["https://github.com/LINs-lab/CollabEdit"]


def test_import_list_name(env: dict[str, str], tmp_path: Path) -> None:
    home = tmp_path / "home"
    seed = sorted(SAMPLE.glob("*.txt"))[1]
    out = ok(run("--home", home, "import", seed, "--list", "My reading", env=env))
    assert out.startswith("Imported My reading: 19 added, 0 updated, 0 skipped")
    records = listed(home, env)
    assert [r["list"] for r in records] == ["My reading"] * 19
    assert [r["abstract"] for r in records] == seed_paragraphs()[19:]


def test_import_two_files_into_one_list_keeps_file_order(
    env: dict[str, str], tmp_path: Path
) -> None:
    home = tmp_path / "home"
    ok(run("--home", home, "import", *sorted(SAMPLE.glob("*.txt")), "--list", "All", env=env))
    assert [r["abstract"] for r in listed(home, env)] == seed_paragraphs()


def test_second_import_into_one_list_appends(env: dict[str, str], tmp_path: Path) -> None:
    home = tmp_path / "home"
    first, second = sorted(SAMPLE.glob("*.txt"))
    ok(run("--home", home, "import", first, "--list", "All", env=env))
    ok(run("--home", home, "import", second, "--list", "All", env=env))
    assert [r["abstract"] for r in listed(home, env)] == seed_paragraphs()


def test_import_folder_skips_hidden_and_other_files(env: dict[str, str], tmp_path: Path) -> None:
    folder = tmp_path / "lists"
    (folder / "sub").mkdir(parents=True)
    (folder / ".hidden").mkdir()
    shutil.copy(sorted(SAMPLE.glob("*.txt"))[0], folder / "sub" / "first.txt")
    (folder / ".hidden" / "junk.txt").write_bytes(b"\x00\x01 not a list")
    (folder / "picture.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    home = tmp_path / "home"
    out = ok(run("--home", home, "import", folder, env=env))
    assert "19 added, 0 updated, 0 skipped" in out
    assert {r["list"] for r in listed(home, env)} == {"ICLR 2025 论文列表"}


def test_import_jsonl_with_a_truncated_last_line_imports_the_rest(
    env: dict[str, str], tmp_path: Path
) -> None:
    rows = [
        {
            "title": f"Paper number {n}",
            "abstract": f"We study problem {n} with a new method and report results on "
            f"several benchmarks; this is abstract number {n}.",
            "authors": ["A. Author"],
        }
        for n in range(4)
    ]
    text = "\n".join(json.dumps(r) for r in rows)
    path = tmp_path / "cut.jsonl"
    path.write_text(text[: len(text) - 30], encoding="utf-8")
    result = run("--home", tmp_path / "home", "import", path, env=env)
    assert "3 added, 0 updated, 0 skipped" in ok(result)
    assert result.stderr.count("\n") == 1 and "record 4" in result.stderr
    assert [r["title"] for r in listed(tmp_path / "home", env)] == [
        "Paper number 0",
        "Paper number 1",
        "Paper number 2",
    ]


@needs_data
def test_import_catalog_gives_every_seed_its_real_title(
    seeded: Seeded, home: Path, env: dict[str, str]
) -> None:
    parasolver = seeded.parasolver
    catalog: dict[str, dict] = {}
    for line in ICLR.read_text(encoding="utf-8").splitlines():
        entry = json.loads(line)
        catalog[key(entry["abstract"])] = entry
    out = ok(run("--home", home, "import", SAMPLE, "--catalog", ICLR, env=env))
    assert re.search(r": 0 added, 38 updated, 0 skipped\b", out), out
    records = listed(home, env)
    assert len(records) == 38
    for record in records:
        entry = catalog[key(record["abstract"])]
        assert record["title"] == " ".join(entry["title"].split())
        assert record["title_derived"] is False
        assert record["authors"] == entry["authors"]
        assert record["url"] == entry["url"]
        assert record["venue_status"] == entry["status"]
        assert set(entry["github"]) <= set(record["github"])
    # the decision survived the import
    starred = [r for r in records if r["status"] == "starred"]
    assert [r["id"] for r in starred] == [parasolver]
    assert (
        starred[0]["title"]
        == "ParaSolver: A Hierarchical Parallel Integral Solver for Diffusion Models"
    )


# -- list -----------------------------------------------------------------------------------


def test_list_status_filters(seeded: Seeded, home: Path, env: dict[str, str]) -> None:
    ids = [r["id"] for r in seeded.records]
    read, skipped = ids[0], ids[20]
    ok(run("--home", home, "mark", read, "read", env=env))
    ok(run("--home", home, "mark", skipped, "skipped", env=env))
    expected = {
        "read": [read],
        "skipped": [skipped],
        "starred": [seeded.parasolver],
        "inbox": [i for i in ids if i not in {read, skipped, seeded.parasolver}],
        "all": ids,
    }
    for status, wanted in expected.items():
        records = listed(home, env, "--status", status)
        assert [r["id"] for r in records] == wanted, status
        if status != "all":
            assert {r["status"] for r in records} == {status}
    text = ok(run("--home", home, "list", "--status", "read", env=env))
    assert text.count("\n") == 1
    assert re.match(rf"^{read}  read     \S", text), text


def test_list_text_matches_json(seeded: Seeded, home: Path, env: dict[str, str]) -> None:
    lines = ok(run("--home", home, "list", env=env)).splitlines()
    assert [line.split()[0] for line in lines] == [r["id"] for r in seeded.records]
    (star,) = [line for line in lines if line.startswith(seeded.parasolver)]
    assert star.split()[1] == "starred" and star.endswith("[code]")


def test_reading_writes_nothing_and_marking_leaves_papers_json(
    seeded: Seeded, home: Path, env: dict[str, str]
) -> None:
    before = home_files(home)
    for args in (
        ["list"],
        ["list", "--status", "starred", "--json"],
        ["search", "diffusion", "--json"],
        ["export", "--status", "all", "--format", "csv"],
        ["stats", "--json"],
    ):
        ok(run("--home", home, *args, env=env))
    assert home_files(home) == before
    ok(run("--home", home, "mark", seeded.collabedit, "read", env=env))
    after = home_files(home)
    assert after["papers.json"] == before["papers.json"]  # a decision never rewrites it
    assert after["triage.json"] != before["triage.json"]


# -- search ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "wanted"),
    [
        ("parasolver", "parasolver"),
        ("parasolvr", "parasolver"),  # a typo
        ("paraslover", "parasolver"),  # letters swapped
        ("collaborative knowledge editing", "collabedit"),
        ("helmet", "helmet"),
    ],
)
def test_search_puts_the_wanted_paper_first(
    seeded: Seeded, env: dict[str, str], query: str, wanted: str
) -> None:
    out = ok(run("--home", seeded.home, "search", *query.split(), env=env))
    assert out.splitlines()[0].startswith(getattr(seeded, wanted) + "  ")


def test_search_limit_and_json(seeded: Seeded, env: dict[str, str]) -> None:
    records = json.loads(
        ok(run("--home", seeded.home, "search", "diffusion", "--limit", "3", "--json", env=env))
    )
    assert 1 <= len(records) <= 3
    assert all(r.keys() >= REQUIRED_KEYS for r in records)
    one = ok(run("--home", seeded.home, "search", "parasolver", "--limit", "1", env=env))
    assert one.count("\n") == 1 and one.startswith(seeded.parasolver)
    hits = json.loads(ok(run("--home", seeded.home, "search", "parasolver", "--json", env=env)))
    assert hits[0]["id"] == seeded.parasolver and hits[0]["status"] == "starred"
    assert ok(run("--home", seeded.home, "search", "zzqqxxjj", env=env)) == ""


# -- mark, undo, redo -----------------------------------------------------------------------


def test_mark_several_ids_prefixes_and_every_status(
    seeded: Seeded, home: Path, env: dict[str, str]
) -> None:
    ids = [r["id"] for r in seeded.records]
    out = ok(run("--home", home, "mark", ids[0], ids[1][:6], ids[2].upper(), "read", env=env))
    assert [line.split()[:2] for line in out.splitlines()] == [[i, "read"] for i in ids[:3]]
    ok(run("--home", home, "mark", ids[3], "skip", env=env))  # aliases: skip, star
    ok(run("--home", home, "mark", ids[4], "star", env=env))
    ok(run("--home", home, "mark", seeded.parasolver, ids[0], "inbox", env=env))
    now = statuses(home, env)
    assert {i: s for i, s in now.items() if s != "inbox"} == {
        ids[1]: "read",
        ids[2]: "read",
        ids[3]: "skipped",
        ids[4]: "starred",
    }
    again = ok(run("--home", home, "mark", ids[4], "starred", env=env))
    assert again.startswith(f"{ids[4]}  already starred  ")


def test_undo_and_redo_across_processes(seeded: Seeded, home: Path, env: dict[str, str]) -> None:
    ids = [r["id"] for r in seeded.records]
    ok(run("--home", home, "mark", ids[0], ids[1], "read", env=env))
    ok(run("--home", home, "mark", ids[2], "skipped", env=env))
    out = ok(run("--home", home, "undo", env=env))
    assert out.splitlines() == [f"{ids[2]}  skipped → inbox  " + title(seeded, ids[2])]
    out = ok(run("--home", home, "undo", env=env))
    assert sorted(line.split()[0] for line in out.splitlines()) == sorted(ids[:2])
    assert all("read → inbox" in line for line in out.splitlines())
    assert statuses(home, env)[ids[0]] == "inbox"
    ok(run("--home", home, "undo", env=env))  # the seeded star
    nothing_to(run("--home", home, "undo", env=env), "undo")
    assert set(statuses(home, env).values()) == {"inbox"}
    assert "inbox → starred" in ok(run("--home", home, "redo", env=env))
    assert "inbox → read" in ok(run("--home", home, "redo", env=env))
    now = statuses(home, env)
    assert now[seeded.parasolver] == "starred" and now[ids[0]] == now[ids[1]] == "read"
    assert now[ids[2]] == "inbox"
    # a new decision drops what could have been redone
    ok(run("--home", home, "mark", ids[5], "read", env=env))
    nothing_to(run("--home", home, "redo", env=env), "redo")


def title(seeded: Seeded, pid: str) -> str:
    (found,) = [r["title"] for r in seeded.records if r["id"] == pid]
    return found


# -- note and tag ---------------------------------------------------------------------------


def test_note_and_tags(seeded: Seeded, home: Path, env: dict[str, str]) -> None:
    pid = seeded.parasolver
    note = "Read §3 *first* [then] the (appendix) & `code`"
    assert ok(run("--home", home, "note", pid[:5], *note.split(" "), env=env)) == "note saved\n"
    tags = ok(run("--home", home, "tag", pid, "Diffusion", "fast sampling", "diffusion", env=env))
    assert tags == "tags: diffusion, fast-sampling\n"
    (record,) = [r for r in listed(home, env) if r["id"] == pid]
    assert record["note"] == note and record["tags"] == ["diffusion", "fast-sampling"]
    markdown = ok(run("--home", home, "export", env=env))
    assert "  Read §3 *first* [then] the (appendix) & `code`" in markdown  # the user's Markdown
    assert "  - Tags: diffusion, fast-sampling" in markdown
    cleared = ok(run("--home", home, "note", pid, env=env))
    assert cleared == f"note cleared; the note it replaced, as it was:\n{note}\n"
    cleared = ok(run("--home", home, "tag", pid, env=env))  # (it said "tags: none")
    assert cleared == "tags cleared; the tags it replaced: diffusion, fast-sampling\n"
    (record,) = [r for r in listed(home, env) if r["id"] == pid]
    assert record["note"] == "" and record["tags"] == []
    assert record["status"] == "starred"  # notes and tags leave the status alone


def test_multiline_note_is_the_users_markdown_inside_its_entry(
    seeded: Seeded, home: Path, env: dict[str, str]
) -> None:
    markdown_it = pytest.importorskip("markdown_it")
    note = "first line\n- a list item\n---\n1. numbered\n=== not a heading\n# a heading"
    ok(run("--home", home, "note", seeded.parasolver, note, env=env))
    markdown = ok(run("--home", home, "export", env=env))
    tokens = markdown_it.MarkdownIt("commonmark").parse(markdown)
    # the note's Markdown stays inside the paper's list item: the list of papers ends last
    papers_list = [t for t in tokens if t.type.startswith("bullet_list") and t.level == 0]
    assert [t.type for t in papers_list] == ["bullet_list_open", "bullet_list_close"]
    assert tokens.index(papers_list[1]) == len(tokens) - 1
    inner = [t for t in tokens if t.level > 0]
    assert any(t.type == "heading_open" for t in inner)  # "# a heading": the user's heading
    assert any(t.type == "ordered_list_open" for t in inner)
    assert any(t.type == "inline" and t.content == "a list item" for t in inner)


# -- export ---------------------------------------------------------------------------------

#: (an HTML element closed, ``<b>bold</b>``, is the title's rich text, read as its text by the
#: JSON reader: one left open is characters)
SPECIAL_TITLE = "A* search: [baz] (qux) <b>bold #1 & | pipe! snake_case_name, 2^n, A*B*C ~"
LATEX_TITLE = r"$\tau$-bench: a plain title"
CUSTOM = [
    {
        "title": SPECIAL_TITLE,
        "abstract": "We introduce a method whose title is full of Markdown syntax, and show "
        "that exporting it keeps every character literal. Code: github.com/owner/repo-one.",
        "authors": ["Ada Lovelace", "Alan Turing"],
        "url": "https://example.org/paper(1)?id=1&x=2",
        "code": "https://github.com/owner/repo.two",
        "status": "Accept (Oral)",
    },
    {
        "title": LATEX_TITLE,
        "abstract": "A second paper about something else entirely, with enough words to be "
        "an abstract and no links at all in its text.",
        "url": "https://openreview.net/forum?id=abc123",
    },
    {
        "title": "Left in the inbox",
        "abstract": "A third paper that nobody stars, so that no export of the starred list "
        "ever shows it, whichever format is asked for.",
    },
]


@pytest.fixture
def custom(tmp_path: Path, env: dict[str, str]) -> tuple[Path, list[dict]]:
    """A HOME holding the CUSTOM list ("Picks 2025"), its first two papers starred."""
    path = tmp_path / "Picks 2025.json"
    path.write_text(json.dumps(CUSTOM), encoding="utf-8")
    home = tmp_path / "custom-home"
    assert "3 added" in ok(run("--home", home, "import", path, env=env))
    records = listed(home, env)
    ok(run("--home", home, "mark", records[0]["id"], records[1]["id"], "starred", env=env))
    return home, records


def inline_links(markdown: str) -> list[tuple[str, str]]:
    """(text, href) of every link, as a CommonMark parser reads them."""
    markdown_it = pytest.importorskip("markdown_it")
    links: list[tuple[str, str]] = []
    for block in markdown_it.MarkdownIt("commonmark").parse(markdown):
        children = block.children or []
        for i, token in enumerate(children):
            if token.type == "link_open":
                end = next(j for j in range(i, len(children)) if children[j].type == "link_close")
                text = "".join(t.content for t in children[i + 1 : end])
                links.append((text, unquote(str(token.attrs["href"]))))
    return links


def test_export_markdown_is_commonmark_with_links(
    custom: tuple[Path, list[dict]], env: dict[str, str]
) -> None:
    home, records = custom
    markdown = ok(run("--home", home, "export", env=env))
    lines = markdown.splitlines()
    assert lines[0] == "# Starred papers: Picks 2025 (2 papers)"
    assert markdown.endswith("\n") and not markdown.endswith("\n\n")
    assert inline_links(markdown) == [
        (SPECIAL_TITLE, "https://example.org/paper(1)?id=1&x=2"),
        ("code", "https://github.com/owner/repo-one"),  # the task line: title — code — PDF
        ("owner/repo-one", "https://github.com/owner/repo-one"),
        ("owner/repo.two", "https://github.com/owner/repo.two"),
        ("τ-bench: a plain title", "https://openreview.net/forum?id=abc123"),  # display form
        ("PDF", "https://openreview.net/pdf?id=abc123"),
    ]
    assert lines[2].startswith("- [ ] **[")  # a task: a checkbox in GitHub and Obsidian
    assert "  - Authors: Ada Lovelace, Alan Turing" in lines
    assert " · Oral" in lines[2]
    assert "Left in the inbox" not in markdown
    assert records[0]["venue_status"] == "Oral"


def test_export_markdown_heading_of_the_seeds(seeded: Seeded, env: dict[str, str]) -> None:
    markdown = ok(run("--home", seeded.home, "export", env=env))
    list_name = next(r["list"] for r in seeded.records if r["id"] == seeded.parasolver)
    assert markdown.splitlines()[0] == f"# Starred papers: {list_name} (1 paper)"
    assert "[Jianrong-Lu/ParaSolver](https://github.com/Jianrong-Lu/ParaSolver)" in markdown
    everything = ok(run("--home", seeded.home, "export", "--status", "all", env=env))
    assert everything.splitlines()[0] == "# All papers: 2 lists (38 papers)"
    assert everything.count("\n- [ ] **") == 38


def test_export_to_a_file_and_a_folder(
    custom: tuple[Path, list[dict]], env: dict[str, str], tmp_path: Path
) -> None:
    home, _ = custom
    expected = ok(run("--home", home, "export", env=env))
    target = tmp_path / "out" / "starred.md"
    target.parent.mkdir()
    result = run("--home", home, "export", "-o", target, env=env)
    assert ok(result) == ""
    assert result.stderr == f"Wrote 2 starred papers to {target}\n"
    assert target.read_text(encoding="utf-8") == expected
    folder = tmp_path / "folder"
    folder.mkdir()
    ok(run("--home", home, "export", "--format", "csv", "--output", folder, env=env))
    assert (folder / "starred.csv").read_text(encoding="utf-8").startswith("id,title,status,")


def test_export_takes_its_format_from_the_file_name(
    custom: tuple[Path, list[dict]], env: dict[str, str], tmp_path: Path
) -> None:
    """``-o refs.bib`` wrote Markdown into a .bib file (the format was Markdown unless told)."""
    home, _ = custom
    starts = {
        "refs.bib": "% Written by papers-tui",
        "refs.BIBTEX": "% Written by papers-tui",
        "refs.ris": "TY  - ",
        "refs.csl.json": '[\n  {\n    "id": ',
        "backup.json": '[\n  {\n    "id": ',
        "table.csv": "id,title,status,",
        "list.md": "# Starred papers",
        "list.txt": "# Starred papers",
    }
    for name, start in starts.items():
        ok(run("--home", home, "export", "-o", tmp_path / name, env=env))
        assert (tmp_path / name).read_text(encoding="utf-8").startswith(start), name
    assert '"type": ' in (tmp_path / "refs.csl.json").read_text(encoding="utf-8")
    assert '"title_derived": ' in (tmp_path / "backup.json").read_text(encoding="utf-8")
    ok(run("--home", home, "export", "--format", "markdown", "-o", tmp_path / "x.bib", env=env))
    assert (tmp_path / "x.bib").read_text(encoding="utf-8").startswith("# Starred papers")


def test_export_to_a_name_of_a_format_it_cannot_write_is_refused(
    custom: tuple[Path, list[dict]], env: dict[str, str], tmp_path: Path
) -> None:
    """``-o starred.pdf`` (or .docx, .html) wrote Markdown under that name, in silence."""
    home, _ = custom
    for name in ("starred.pdf", "notes.DOCX", "page.html"):
        done = run("--home", home, "export", "-o", tmp_path / name, env=env)
        assert done.returncode == 2 and not (tmp_path / name).exists(), name
        [line] = done.stderr.splitlines()
        assert "no export writes" in line and "--format markdown" in line
    for name in ("notes", "q.2025"):  # no suffix, or none of letters: Markdown
        ok(run("--home", home, "export", "-o", tmp_path / name, env=env))
        assert (tmp_path / name).read_text(encoding="utf-8").startswith("# Starred papers")
    ok(run("--home", home, "export", "--format", "markdown", "-o", tmp_path / "a.pdf", env=env))


def test_export_csv_json_bibtex(custom: tuple[Path, list[dict]], env: dict[str, str]) -> None:
    home, records = custom
    starred = [records[0]["id"], records[1]["id"]]

    text = ok(run("--home", home, "export", "--format", "csv", env=env))
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [r["id"] for r in rows] == starred
    assert rows[0]["title"] == SPECIAL_TITLE
    assert rows[0]["authors"] == "Ada Lovelace; Alan Turing"
    assert (
        rows[0]["github"] == "https://github.com/owner/repo-one https://github.com/owner/repo.two"
    )
    assert rows[0]["abstract"] == CUSTOM[0]["abstract"]
    assert {r["status"] for r in rows} == {"starred"}

    all_rows = list(
        csv.DictReader(
            io.StringIO(
                ok(run("--home", home, "export", "--format", "csv", "--status", "all", env=env))
            )
        )
    )
    assert [r["id"] for r in all_rows] == [r["id"] for r in records]

    data = json.loads(ok(run("--home", home, "export", "--format", "json", env=env)))
    assert [d["id"] for d in data] == starred
    assert all(d.keys() >= REQUIRED_KEYS for d in data)
    assert data[0]["github"] == [
        "https://github.com/owner/repo-one",
        "https://github.com/owner/repo.two",
    ]
    assert data[1]["title"] == LATEX_TITLE  # JSON keeps the title as given
    inbox = json.loads(
        ok(run("--home", home, "export", "--format", "json", "--status", "inbox", env=env))
    )
    assert [d["title"] for d in inbox] == ["Left in the inbox"]

    bib = ok(run("--home", home, "export", "--format", "bibtex", env=env))
    # "Picks 2025" names no venue: @misc with the year; a paper without authors is kept
    assert bib.count("@misc{") == 2 and bib.isascii()
    assert bib.startswith("% Written by papers-tui") and "\n@misc{lovelace2025" in bib
    assert "  author = {Ada Lovelace and Alan Turing}," in bib
    assert "  year = {2025}," in bib
    assert bib.count("{") == bib.count("}")  # bibtex counts every brace, escaped or not
    assert (
        r"title = {{A* search: [baz] (qux) \textless{}b\textgreater{}bold"
        r" \#1 \& \textbar{} pipe! snake\_case\_name"
    ) in bib


# -- stats ----------------------------------------------------------------------------------


def test_stats(seeded: Seeded, home: Path, env: dict[str, str]) -> None:
    ids = [r["id"] for r in seeded.records]
    ok(run("--home", home, "mark", ids[0], ids[20], "read", env=env))
    stats = json.loads(ok(run("--home", home, "stats", "--json", env=env)))
    assert set(stats) == {
        "total", "triaged", "progress", "by_status", "by_list", "by_venue_status", "queue",
        "per_day", "rate_per_day", "days_to_empty_inbox",
    }  # fmt: skip
    assert stats["total"] == 38 and stats["triaged"] == 3
    assert stats["progress"] == round(3 / 38, 4)
    assert stats["by_status"] == {"inbox": 35, "read": 2, "skipped": 0, "starred": 1}
    assert list(stats["by_list"]) == list(seeded.lists)
    assert [sum(c.values()) for c in stats["by_list"].values()] == [19, 19]
    assert sum(d["read"] + d["starred"] for d in stats["per_day"]) == 3
    text = ok(run("--home", home, "stats", env=env))
    assert text.splitlines()[0] == "3 / 38 triaged (7.9%)"
    assert "inbox 35  read 2  skipped 0  starred 1" in text
