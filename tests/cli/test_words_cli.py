"""Words and numbers in what ``papers`` prints: plurals, thousands separators, and columns
aligned by the cells a terminal gives each character (a CJK list name takes two a character).

Real subprocesses in a temporary HOME; the column widths are measured as Textual draws text
(``rich.cells.cell_len``), which is how a terminal lays out these characters.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rich.cells import cell_len

from tests.cli.test_cli import SAMPLE, make_env, ok, run

#: The bundled sample's first list is named by its header, in Chinese ("ICLR 2025 paper list").
CJK_LIST = "ICLR 2025 论文列表"


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return make_env(tmp_path)


@pytest.fixture
def home(tmp_path: Path, env: dict[str, str]) -> Path:
    """The sample imported, plus a list with combining accents in its name."""
    home = tmp_path / "home"
    ok(run("--home", home, "import", SAMPLE, env=env))
    accents = tmp_path / "accents.jsonl"
    paper = {"title": "Ré-sumé", "abstract": "We introduce ACCENTS, a list named with accents."}
    accents.write_text(json.dumps(paper), encoding="utf-8")
    ok(run("--home", home, "import", accents, "--list", "Cafe\u0301 list", env=env))
    return home


def cell_starts(line: str, words: list[str]) -> list[int]:
    """Where each of ``words`` starts in ``line``, in terminal cells."""
    starts, at = [], 0
    for word in words:
        at = line.index(word, at)
        starts.append(cell_len(line[:at]))
        at += len(word)
    return starts


def test_stats_columns_line_up_under_a_cjk_list_name(home: Path, env: dict[str, str]) -> None:
    lines = ok(run("--home", home, "stats", env=env)).splitlines()
    start = lines.index(next(line for line in lines if line.startswith("Per list")))
    head, *rows = lines[start : start + 4]
    assert [r.split()[0] for r in rows] == ["ICLR", "ICLR", "Cafe\u0301"]
    assert CJK_LIST in rows[0] and "Cafe\u0301 list" in rows[2]
    # the right edge of every number column is the right edge of its heading
    headings = ["inbox", "read", "skipped", "starred", "done"]
    ends = [s + cell_len(h) for s, h in zip(cell_starts(head, headings), headings, strict=True)]
    for row in rows:
        cells = row.split()[-5:]
        row_ends = [s + cell_len(c) for s, c in zip(cell_starts(row, cells), cells, strict=True)]
        assert row_ends == ends, (head, row)
    assert rows[0].endswith("0%") and rows[2].endswith("0%")


def test_a_list_named_at_length_keeps_the_stats_counts_on_the_screen(
    home: Path, env: dict[str, str], tmp_path: Path
) -> None:
    """A list named by a script with 5,000 characters padded every row of "Per list" to its
    width: every count was off a 120-column terminal. Its name is cut, the JSON keeps it as
    the library does (its first 499 characters and …: ``caps.list_named``)."""
    from storage.caps import list_named

    source = tmp_path / "long.jsonl"
    source.write_text(json.dumps({"title": "Long", "abstract": "A list with a long name."}))
    name = "论" * 2500 + "L" * 2500  # two cells a character, then one
    ok(run("--home", home, "import", source, "--list", name, env=env))
    lines = ok(run("--home", home, "stats", env=env)).splitlines()
    start = lines.index(next(line for line in lines if line.startswith("Per list")))
    table = lines[start : start + 5]
    assert all(cell_len(line) <= 100 for line in table), table
    assert table[-1].strip().startswith("论论论") and "…" in table[-1]
    stats = json.loads(ok(run("--home", home, "stats", "--json", env=env)))
    assert list_named(name) in json.dumps(stats, ensure_ascii=False)


def test_saved_searches_line_up_by_cells(home: Path, env: dict[str, str]) -> None:
    for name, query in (("论文 图", "graph"), ("Flows", "flow matching")):
        run("--home", home, "search", "--save", name, query, env=env)
    lines = ok(run("--home", home, "search", "--list-saved", env=env)).splitlines()
    assert cell_starts(lines[0], ["graph"]) == cell_starts(lines[1], ["flow matching"])


def test_counts_read_as_sentences(home: Path, env: dict[str, str], tmp_path: Path) -> None:
    ids = [r["id"] for r in json.loads(ok(run("--home", home, "list", "--json", env=env)))]
    ok(run("--home", home, "mark", ids[0], "starred", env=env))
    out = tmp_path / "out"
    out.mkdir()
    one = run("--home", home, "export", "-o", out / "one.md", env=env)
    assert one.stderr == f"Wrote 1 starred paper to {out / 'one.md'}\n"
    every = run("--home", home, "export", "--status", "all", "-o", out / "all.md", env=env)
    assert every.stderr == f"Wrote 39 papers to {out / 'all.md'}\n"
    removed = ok(run("--home", home, "remove", ids[1], env=env))
    assert removed.startswith("Removed 1 paper;")


def test_the_venue_of_a_header_naming_a_paper_list(home: Path, env: dict[str, str]) -> None:
    """Both seed headers ("ICLR 2025 论文列表", "ICLR 2025 Papers") name the venue ICLR 2025; the
    list keeps the header as its name."""
    records = json.loads(ok(run("--home", home, "list", "--json", env=env)))
    seeds = {r["list"]: r["venue"] for r in records if r["list"].startswith("ICLR")}
    assert seeds == {CJK_LIST: "ICLR 2025", "ICLR 2025 Papers": "ICLR 2025"}
