"""``papers import``, ``export`` and ``remove`` as users run them: backups that restore,
formats that read back, removals that undo, and one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli import test_cli
from tests.cli.test_cli import SAMPLE, Seeded, listed, ok, run

# The fixtures of test_cli: a seeded HOME (built once per module), a copy of it, a clean env.
seeded, home, env = test_cli.seeded, test_cli.home, test_cli.env


def test_json_export_restores_a_library_in_an_empty_home(
    seeded: Seeded, home: Path, env: dict[str, str], tmp_path: Path
) -> None:
    ok(run("--home", home, "note", seeded.collabedit, "a *note*\n- with a list", env=env))
    ok(run("--home", home, "tag", seeded.collabedit, "to read", "kE", env=env))
    backup = tmp_path / "backup.json"
    ok(run("--home", home, "export", "--status", "all", "--format", "json", "-o", backup, env=env))
    fresh = tmp_path / "fresh"
    out = ok(run("--home", fresh, "import", backup, env=env))
    assert "38 added" in out and "2 decisions restored" in out
    assert listed(fresh, env) == listed(home, env)


def test_import_into_a_library_takes_decisions_for_the_inbox_only(
    seeded: Seeded, home: Path, env: dict[str, str], tmp_path: Path
) -> None:
    backup = tmp_path / "backup.json"
    ok(run("--home", home, "mark", seeded.helmet, "read", env=env))
    ok(run("--home", home, "export", "--status", "all", "--format", "json", "-o", backup, env=env))
    other = tmp_path / "other"
    ok(run("--home", other, "import", SAMPLE, env=env))
    ok(run("--home", other, "mark", seeded.parasolver, "skipped", env=env))
    out = ok(run("--home", other, "import", backup, env=env))
    assert "1 decision restored" in out and "1 decision of the file differ" in out
    statuses = {r["id"]: r["status"] for r in listed(other, env)}
    assert statuses[seeded.parasolver] == "skipped" and statuses[seeded.helmet] == "read"
    ok(run("--home", other, "import", backup, "--take-theirs", env=env))
    assert {r["id"]: r["status"] for r in listed(other, env)}[seeded.parasolver] == "starred"


@pytest.mark.parametrize(
    ("fmt", "suffix"), [("bibtex", "bib"), ("ris", "ris"), ("csl-json", "json"), ("csv", "csv")]
)
def test_every_reference_format_imports_back(
    seeded: Seeded, home: Path, env: dict[str, str], tmp_path: Path, fmt: str, suffix: str
) -> None:
    path = tmp_path / f"all.{suffix}"
    ok(run("--home", home, "export", "--status", "all", "--format", fmt, "-o", path, env=env))
    fresh = tmp_path / "fresh"
    assert "38 added" in ok(run("--home", fresh, "import", path, env=env))
    before = {r["title"] for r in listed(home, env)}
    assert {r["title"] for r in listed(fresh, env)} == before
    again = ok(run("--home", home, "import", path, env=env))  # into its own library: no copies
    assert "0 added" in again and len(listed(home, env)) == 38


def test_remove_papers_and_a_list_then_undo(
    seeded: Seeded, home: Path, env: dict[str, str]
) -> None:
    out = ok(run("--home", home, "remove", seeded.parasolver[:6], seeded.helmet, env=env))
    assert out.startswith("Removed 2 papers; `papers undo` puts them back.")
    assert seeded.parasolver in out and len(listed(home, env)) == 36
    ok(run("--home", home, "undo", env=env))
    records = listed(home, env)
    assert len(records) == 38
    assert {r["id"]: r["status"] for r in records}[seeded.parasolver] == "starred"
    out = ok(run("--home", home, "remove", "--list", seeded.lists[0], env=env))
    assert out.startswith(f"Removed 19 papers and the list {seeded.lists[0]};")
    assert {r["list"] for r in listed(home, env)} == {seeded.lists[1]}
    ok(run("--home", home, "undo", env=env))
    assert [r["id"] for r in listed(home, env)] == [r["id"] for r in seeded.records]


@pytest.mark.parametrize(
    ("args", "message", "code"),
    [
        (["remove"], "give paper ids, or --list NAME", 2),
        (["remove", "abc123", "--list", "x"], "give paper ids, or --list NAME", 2),
        (["remove", "ffffffffffff"], "no paper has the id", 1),
        (["remove", "--list", "No such list"], "no list is named 'No such list'", 1),
    ],
)
def test_remove_errors_are_one_line(
    home: Path, env: dict[str, str], args: list[str], message: str, code: int
) -> None:
    result = run("--home", home, *args, env=env)
    assert result.returncode == code and message in result.stderr
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr


def test_a_file_nothing_reads_names_the_formats_tried(env: dict[str, str], tmp_path: Path) -> None:
    readme = tmp_path / "README.md"
    readme.write_text("# Project\n\nSome prose that is long enough to be a paragraph of text.\n")
    result = run("--home", tmp_path / "home", "import", readme, env=env)
    assert result.returncode == 1 and result.stderr.count("\n") == 1
    assert "tried" in result.stderr and "BibTeX" in result.stderr


def test_import_reports_merges_and_markdown_exports_abstracts(
    env: dict[str, str], tmp_path: Path
) -> None:
    abstract = r"We use $\alpha$ schedules to sample faster than any baseline we know of today."
    (tmp_path / "a.jsonl").write_text(json.dumps({"title": "Fast", "abstract": abstract}))
    # another writing: Unicode for the LaTeX, another case and spacing
    unicode_form = abstract.replace(r"$\alpha$", "α").replace("We use", "WE  USE")
    (tmp_path / "b.jsonl").write_text(json.dumps({"title": "Fast", "abstract": unicode_form}))
    home = tmp_path / "home"
    ok(run("--home", home, "import", tmp_path / "a.jsonl", env=env))
    out = ok(run("--home", home, "import", tmp_path / "b.jsonl", env=env))
    assert "1 merged" in out and "the same abstract, written differently" in out
    assert "b.jsonl: record 1: Fast → " in out  # where the record is, and whom it joined
    text = ok(run("--home", home, "export", "--status", "all", "--abstracts", env=env))
    assert "  > WE USE α schedules" in text
