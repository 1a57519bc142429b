"""Paper ids from standard input: ``papers search QUERY | papers mark - read`` (real processes).

``-`` in place of ids reads them from standard input (one or more a line, blank lines and
``#`` comments skipped, a line of ``papers list`` giving its first column, one of ``papers
queue`` its second); an empty input, a terminal, or a line that is no id is one line on
stderr, the library left as it was.
"""

from __future__ import annotations

import json
import os
import pty
import re
import subprocess
from pathlib import Path

import pytest

from tests.cli import test_bad_input
from tests.cli.test_bad_input import PAPERS, Seeded, one_line_error, run
from tests.helpers import home_files

# The fixtures of test_bad_input: the bundled sample imported once, a copy of it, a clean env.
seeded, home, env = test_bad_input.seeded, test_bad_input.home, test_bad_input.env


def piped(*args: str | Path, stdin: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """``papers ARGS`` with ``stdin`` written to its standard input (a pipe)."""
    return subprocess.run(
        [*PAPERS, *map(str, args)],
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
    )


def statuses(home: Path, env: dict[str, str]) -> dict[str, str]:
    listing = run("--home", home, "list", "--json", env=env)
    assert listing.returncode == 0, listing.stderr
    return {r["id"]: r["status"] for r in json.loads(listing.stdout)}


def test_search_piped_into_mark(home: Path, env: dict[str, str]) -> None:
    found = run("--home", home, "search", "diffusion", "--limit", "3", env=env)
    assert found.returncode == 0, found.stderr
    hits = [line.split()[0] for line in found.stdout.splitlines()]
    assert len(hits) == 3
    done = piped("--home", home, "mark", "-", "read", stdin=found.stdout, env=env)
    assert done.returncode == 0, done.stderr
    assert [line.split()[0] for line in done.stdout.splitlines()] == hits
    now = statuses(home, env)
    assert [now[pid] for pid in hits] == ["read"] * 3


def test_similar_piped_into_mark(home: Path, env: dict[str, str]) -> None:
    """``papers similar ID | papers mark - starred``: the heading went into the pipe, and
    mark refused its line as no paper id. Piped, there is no heading (on a terminal there is)."""
    first = run("--home", home, "search", "diffusion", "--limit", "1", env=env).stdout.split()[0]
    found = run("--home", home, "similar", first, "--limit", "3", env=env)
    assert found.returncode == 0, found.stderr
    assert found.stderr == "" and "Papers like" not in found.stdout
    like = [line.split()[0] for line in found.stdout.splitlines()]
    assert len(like) == 3 and first not in like
    done = piped("--home", home, "mark", "-", "starred", stdin=found.stdout, env=env)
    assert done.returncode == 0, done.stderr
    now = statuses(home, env)
    assert [now[pid] for pid in like] == ["starred"] * 3 and now[first] == "inbox"


def test_ids_one_or_more_a_line_with_comments_and_a_prefix(
    seeded: Seeded, home: Path, env: dict[str, str]
) -> None:
    a, b, c, d, e = seeded.ids[:5]
    listing = run("--home", home, "list", "--status", "inbox", env=env).stdout.splitlines()
    (line_of_e,) = [line for line in listing if line.startswith(e)]
    text = (
        f"# picked by hand\n{a}\n\n  {b} {a}  # two\n {c[:6].upper()}  # a prefix, alone\n"
        f"{line_of_e}\n"
    )
    done = piped("--home", home, "mark", d, "-", "skipped", stdin=text, env=env)
    assert done.returncode == 0, done.stderr
    now = statuses(home, env)
    assert {pid for pid, s in now.items() if s == "skipped"} == {a, b, c, d, e}


def test_the_reading_queue_piped_into_mark(seeded: Seeded, home: Path, env: dict[str, str]) -> None:
    """``papers queue | head -2 | papers mark - read``: a queue line (place, id, title) gives
    its id, the second column."""
    starred = run("--home", home, "mark", *seeded.ids[:2], "starred", env=env)
    assert starred.returncode == 0, starred.stderr
    queue = run("--home", home, "queue", env=env)
    assert queue.returncode == 0, queue.stderr
    lines = queue.stdout.splitlines()[:2]
    heads = [line.split()[1] for line in lines]
    assert len(heads) == 2 and lines[0].split()[0] == "1"
    done = piped("--home", home, "mark", "-", "read", stdin="\n".join(lines), env=env)
    assert done.returncode == 0, done.stderr
    now = statuses(home, env)
    assert [now[pid] for pid in heads] == ["read", "read"]


#: Abstracts whose ids begin with ``cafe`` and ``2024`` (found by trying made-up words), so that
#: the title ``Cafe 2024`` reads as two unique id prefixes of other papers of its library.
PREFIXED = {
    "cafe": "We study graph sampling in the zgqh setting and report what it costs.",
    "2024": "We study graph sampling in the octc setting and report what it costs.",
}


@pytest.fixture
def hex_titles(tmp_path: Path, env: dict[str, str]) -> dict[str, str]:
    """A library whose reading queue's head is titled ``Cafe 2024`` (words made of hex digits)
    beside a paper whose id begins ``cafe`` and one whose id begins ``2024``: by title, the
    ids of the head, ``cafe…`` and ``2024…``."""
    records = [
        {"title": "Cafe 2024", "abstract": "Coffee shops as a benchmark for graph sampling."},
        *({"title": f"Sampling {p}", "abstract": a} for p, a in PREFIXED.items()),
        {"title": "Deface ABBA", "abstract": "Defacing graphs, a study of sampling attacks."},
    ]
    source = tmp_path / "hex.json"
    source.write_text(json.dumps(records), encoding="utf-8")
    home = tmp_path / "home"
    imported = run("--home", home, "import", source, env=env)
    assert imported.returncode == 0, imported.stderr
    ids = {
        r["title"]: r["id"]
        for r in json.loads(run("--home", home, "list", "--json", env=env).stdout)
    }
    for prefix in PREFIXED:  # (a change of the id rule would make this test pass for nothing)
        assert ids[f"Sampling {prefix}"].startswith(prefix), ids
    starred = run("--home", home, "mark", ids["Cafe 2024"], "starred", env=env)
    assert starred.returncode == 0, starred.stderr
    return ids


def test_a_title_of_hex_words_is_no_ids(
    hex_titles: dict[str, str], tmp_path: Path, env: dict[str, str]
) -> None:
    """``papers next`` and ``papers queue`` print an id, then the title: a title ``Cafe 2024``
    was read as two id prefixes more, which marked the papers ``cafe…`` and ``2024…`` too
    (from ``next``), or stopped at the place ``1`` read as an id (from ``queue``)."""
    home, head = tmp_path / "home", hex_titles["Cafe 2024"]
    others = [hex_titles[f"Sampling {prefix}"] for prefix in PREFIXED]
    line = run("--home", home, "next", env=env).stdout
    assert line == f"{head}  Cafe 2024\n"
    done = piped("--home", home, "mark", "-", "read", stdin=line, env=env)
    assert done.returncode == 0, done.stderr
    assert [statuses(home, env)[pid] for pid in (head, *others)] == ["read", "inbox", "inbox"]
    done = piped("--home", home, "note", "-", "hex", stdin=line, env=env)
    assert done.returncode == 0, done.stderr
    assert run("--home", home, "mark", head, "starred", env=env).returncode == 0
    queue = run("--home", home, "queue", env=env).stdout
    assert queue == f"1  {head}  Cafe 2024\n"
    done = piped("--home", home, "mark", "-", "skipped", stdin=queue, env=env)
    assert done.returncode == 0, done.stderr
    assert [statuses(home, env)[pid] for pid in (head, *others)] == ["skipped", "inbox", "inbox"]


def test_hex_words_beside_others_are_no_prefixes(
    hex_titles: dict[str, str], tmp_path: Path, env: dict[str, str]
) -> None:
    """A prefix is read alone on its line: words of hex digits beside others (a title, ``Cafe
    2024`` or ``Deface ABBA``, or an id with words that are not its paper's title) are an error
    naming the line, nothing changed, not papers whose ids happen to begin so."""
    home, head = tmp_path / "home", hex_titles["Cafe 2024"]
    before = home_files(home)
    for text, shown in (
        ("Cafe 2024\n", "Cafe 2024"),
        (f"{head}\nDeface ABBA  # a title\n", "Deface ABBA"),
        (f"{head} cafe\n", f"{head} cafe"),
        (f"1 {head} Cafe\n", f"1 {head} Cafe"),
        (f"2024 {head}\n", f"2024 {head}"),
    ):
        line = one_line_error(piped("--home", home, "mark", "-", "read", stdin=text, env=env), 1)
        number = text.count("\n")
        assert f"standard input, line {number}: {shown!r}" in line, line
        assert "a prefix alone on its line" in line, line
    assert home_files(home) == before
    done = piped(
        "--home", home, "mark", "-", "read", stdin=f"{head}\n  CAFE  # a prefix\n", env=env
    )
    assert done.returncode == 0, done.stderr
    now = statuses(home, env)
    assert [now[head], now[hex_titles["Sampling cafe"]], now[hex_titles["Sampling 2024"]]] == [
        "read",
        "read",
        "inbox",
    ]


def test_a_queue_line_whose_title_holds_a_hash_gives_its_id(
    tmp_path: Path, env: dict[str, str]
) -> None:
    """``papers queue | papers pdf -`` with a title such as ``#Exploration: …`` in the queue:
    the ``#`` was read as a comment's start, leaving the place and the id, which were taken
    for an id and prefixes not its title ("holds an id and words that could be id
    prefixes"): nothing done. A title is data; a comment after a line is still one, and an
    id followed by a prefix and a comment is still refused."""
    records = [
        {
            "title": "#Exploration: A Study of Count-Based Exploration for Deep RL",
            "abstract": "Count-based exploration with hash codes of states, at scale.",
        },
        {
            "title": "#InsTag: Instruction Tagging for Analyzing Supervised Fine-tuning",
            "abstract": "Tagging instructions to measure the diversity of fine-tuning data.",
            "status": "Poster",
        },
        {"title": "A #1 baseline", "abstract": "The first baseline of a ranking, studied again."},
    ]
    source = tmp_path / "hash.json"
    source.write_text(json.dumps(records), encoding="utf-8")
    home = tmp_path / "home"
    assert run("--home", home, "import", source, env=env).returncode == 0
    ids = [r["id"] for r in json.loads(run("--home", home, "list", "--json", env=env).stdout)]
    assert run("--home", home, "mark", *ids, "starred", env=env).returncode == 0
    queue = run("--home", home, "queue", env=env).stdout
    assert "#InsTag: Instruction Tagging for Analyzing Supervised Fine-tuning (Poster)" in queue
    done = piped("--home", home, "mark", "-", "read", stdin=queue, env=env)
    assert done.returncode == 0, done.stderr
    assert statuses(home, env) == dict.fromkeys(ids, "read")
    line = f"{ids[2]}  A #1 baseline  # the one to read first\n"  # (next's line, commented)
    done = piped("--home", home, "mark", "-", "skipped", stdin=line, env=env)
    assert done.returncode == 0, done.stderr
    before = home_files(home)
    for text in (f"{ids[2]} abba  # a note\n", f"1 {ids[2]}  # a note\n"):
        said = one_line_error(piped("--home", home, "mark", "-", "read", stdin=text, env=env), 1)
        assert "a prefix alone on its line" in said, said
    assert home_files(home) == before


def test_json_of_papers_piped_into_mark(seeded: Seeded, home: Path, env: dict[str, str]) -> None:
    """``papers search QUERY --json | papers mark - read``, or the objects one a line (``jq -c
    '.[]'``): each object's ``id``; an object without one changes nothing."""
    found = run("--home", home, "search", "diffusion", "--limit", "3", "--json", env=env)
    assert found.returncode == 0, found.stderr
    hits = [paper["id"] for paper in json.loads(found.stdout)]
    assert len(hits) == 3
    done = piped("--home", home, "mark", "-", "read", stdin=found.stdout, env=env)
    assert done.returncode == 0, done.stderr
    lines = "\ufeff" + "\n".join(json.dumps({"id": pid}) for pid in seeded.ids[5:7]) + "\n"
    done = piped("--home", home, "mark", "-", "skipped", stdin=lines, env=env)
    assert done.returncode == 0, done.stderr
    now = statuses(home, env)
    assert [now[pid] for pid in hits] == ["read"] * 3
    assert [now[pid] for pid in seeded.ids[5:7]] == ["skipped"] * 2
    before = home_files(home)
    bad = piped("--home", home, "mark", "-", "starred", stdin='[{"title": "x"}]', env=env)
    assert bad.returncode == 1 and "JSON item 1: no paper id" in bad.stderr, bad.stderr
    assert len(bad.stderr.splitlines()) == 1 and home_files(home) == before


def test_remove_and_note_read_ids_too(seeded: Seeded, home: Path, env: dict[str, str]) -> None:
    done = piped("--home", home, "remove", "-", stdin=f"{seeded.ids[0]}\n", env=env)
    assert done.returncode == 0, done.stderr
    assert seeded.ids[0] not in statuses(home, env)
    line = run("--home", home, "next", env=env).stdout  # "id  title" of the queue's head
    done = piped("--home", home, "note", "-", "read", "first", stdin=line, env=env)
    assert done.returncode == 0, done.stderr
    listing = json.loads(run("--home", home, "list", "--json", env=env).stdout)
    assert [r["note"] for r in listing if r["id"] == seeded.starred] == ["read first"]


def test_empty_input_garbage_and_too_many_change_nothing(
    seeded: Seeded, home: Path, env: dict[str, str]
) -> None:
    before = home_files(home)
    for stdin in ("", "\n  \n", "# only a comment\n"):
        line = one_line_error(piped("--home", home, "mark", "-", "read", stdin=stdin, env=env), 2)
        assert "standard input, and it holds none" in line
    garbage = f"{seeded.ids[0]}\nhello world\n"
    line = one_line_error(piped("--home", home, "mark", "-", "read", stdin=garbage, env=env), 1)
    assert "standard input, line 2: 'hello world' is not a paper id" in line
    two = "\n".join(seeded.ids[:2])
    line = one_line_error(piped("--home", home, "similar", "-", stdin=two, env=env), 2)
    assert "standard input holds 2 paper ids; `papers similar` takes one" in line
    line = one_line_error(piped("--home", home, "mark", "-", "-", "read", stdin="", env=env), 2)
    assert "give '-' (the ids on standard input) once" in line
    assert home_files(home) == before


def test_a_terminal_is_not_read(home: Path, env: dict[str, str]) -> None:
    """``papers mark - read`` typed at a prompt would wait for ids nobody pipes in."""
    before = home_files(home)
    leader, follower = pty.openpty()
    try:
        done = subprocess.run(
            [*PAPERS, "--home", str(home), "mark", "-", "read"],
            env=env,
            stdin=follower,
            capture_output=True,
            text=True,
            timeout=60,
        )
    finally:
        os.close(follower)
        os.close(leader)
    line = one_line_error(done, 2)
    assert "standard input, which is the terminal: pipe them in" in line
    assert home_files(home) == before


def test_help_says_so(env: dict[str, str]) -> None:
    for command in ("mark", "remove", "pdf", "note", "tag", "similar"):
        done = run(command, "--help", env=env)
        assert "'-' reads" in " ".join(done.stdout.split()), command


def test_the_readme_names_the_columns_each_command_prints(
    seeded: Seeded, home: Path, env: dict[str, str]
) -> None:
    """The README said a line of ``papers next`` is (id, status, title): it is (id, title)."""
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    paragraph = readme[readme.index("The commands that take paper ids") :].split("\n\n")[0]
    named = dict(re.findall(r"`(?:papers )?(\w+)` \(([a-z, ]+)\)", " ".join(paragraph.split())))
    assert set(named) == {"search", "next", "queue"}, named
    for command, args in (("search", ["diffusion"]), ("next", []), ("queue", [])):
        line = run("--home", home, command, *args, env=env).stdout.splitlines()[0]
        columns = re.split(r"\s{2,}", line.strip())
        names = named[command].split(", ")
        assert len(columns) == len(names), (command, columns, names)
        assert columns[names.index("id")] in seeded.ids


def test_a_byte_order_mark_before_the_ids_is_no_part_of_them(
    seeded: Seeded, home: Path, env: dict[str, str]
) -> None:
    """Ids saved by an editor that writes a byte order mark (Notepad, PowerShell's pipe): the
    first line was refused as ``'\\ufeff3f9c…' is not a paper id``."""
    a, b = seeded.ids[:2]
    done = piped("--home", home, "mark", "-", "read", stdin=f"\ufeff{a}\n{b}\n", env=env)
    assert done.returncode == 0, done.stderr
    now = statuses(home, env)
    assert now[a] == now[b] == "read"
