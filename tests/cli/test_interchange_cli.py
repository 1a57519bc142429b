"""``papers import``, ``export`` and ``remove`` as users run them: backups that restore,
formats that read back, removals that undo, and one-line errors."""

from __future__ import annotations

import json
import shutil
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
    assert "38 added" in out and "1 decision restored" in out  # the note is no decision:
    assert "notes or tags of 1 paper taken from the file" in out
    assert listed(fresh, env) == listed(home, env)


def test_undo_and_redo_of_a_restored_backup_give_back_its_queue_order(
    seeded: Seeded, home: Path, env: dict[str, str], tmp_path: Path
) -> None:
    """Redone, the import's restored decisions starred the queue anew in list order (the
    paper that was #2 came last): the order is part of the undo step, as a mark's is."""
    ids = [r["id"] for r in seeded.records if r["id"] != seeded.parasolver][:4]
    ok(run("--home", home, "mark", ids[2], ids[0], ids[3], ids[1], "starred", env=env))
    ok(run("--home", home, "queue", "move", ids[3], "--to", "top", env=env))
    ok(run("--home", home, "note", ids[0], "read it second", env=env))
    queue = [r["id"] for r in json.loads(ok(run("--home", home, "queue", "--json", env=env)))]
    assert queue == [ids[3], seeded.parasolver, ids[2], ids[0], ids[1]]
    backup = tmp_path / "backup.json"
    ok(run("--home", home, "export", "--status", "all", "--format", "json", "-o", backup, env=env))
    fresh = tmp_path / "fresh"
    assert "5 decisions restored" in ok(run("--home", fresh, "import", backup, env=env))
    restored = listed(fresh, env)
    for step in ("undo", "redo"):
        ok(run("--home", fresh, step, env=env))
    again = [r["id"] for r in json.loads(ok(run("--home", fresh, "queue", "--json", env=env)))]
    assert again == queue
    # the rest as restored (the note too), but for when: a redo gives the statuses again now
    assert [{**r, "decided_at": None} for r in listed(fresh, env)] == [
        {**r, "decided_at": None} for r in restored
    ]


def _scholar_bib(path: Path, titles: list[str]) -> Path:
    """A BibTeX list as Google Scholar writes one: @inproceedings entries, no abstracts."""
    path.write_text(
        "".join(
            f"@inproceedings{{p{i}2024,\n  title = {{{t}}},\n  author = {{Roe, Ann}},\n"
            f"  booktitle = {{ICLR}},\n  year = {{2024}}\n}}\n"
            for i, t in enumerate(titles)
        ),
        encoding="utf-8",
    )
    return path


@pytest.mark.parametrize("status", ["starred", "all"])
def test_a_markdown_export_restores_the_queue_in_its_order(
    env: dict[str, str], tmp_path: Path, status: str
) -> None:
    """The review's case: the Markdown of a queue (written in its order) imported into an
    empty HOME gave its stars back ordered by paper id, as it carries no places and no
    times. The file's order now comes back (the queue's; for every status, the list's), there
    and onto the Inbox of a library with a queue of its own (behind it), and an undo and a
    redo of the import keep it."""
    words = ("Sparse Attention", "Diffusion Samplers", "Learned Indexes", "Graph Kernels",
             "Tiny Transformers", "Robust Retrieval")  # fmt: skip
    bib = _scholar_bib(tmp_path / "scholar.bib", [f"{w} for Long Contexts" for w in words])
    home = tmp_path / "home"
    ok(run("--home", home, "import", bib, env=env))
    ids = [r["id"] for r in listed(home, env)]
    queue = sorted(ids, reverse=True)[:5]  # against the ids' order
    ok(run("--home", home, "mark", *queue, "starred", env=env))
    ok(run("--home", home, "mark", sorted(ids)[0], "read", env=env))
    assert queue_of(home, env) == queue
    if status == "all":  # the papers in the list's order
        queue = [pid for pid in ids if pid in queue]
    assert queue != sorted(queue)  # (by id, as they came before)
    path = tmp_path / "queue.md"
    ok(run("--home", home, "export", "--status", status, "-o", path, env=env))
    fresh = tmp_path / "fresh"
    restored = 6 if status == "all" else 5
    assert f"{restored} decisions restored" in ok(run("--home", fresh, "import", path, env=env))
    assert queue_of(fresh, env) == queue
    other = tmp_path / "other"  # the same papers in its Inbox, and a queue of its own
    mine = _scholar_bib(tmp_path / "mine.bib", ["A Paper of My Own, Queued Before"])
    ok(run("--home", other, "import", bib, mine, env=env))
    [own] = [r["id"] for r in listed(other, env) if r["id"] not in ids]
    ok(run("--home", other, "mark", own, "starred", env=env))
    assert f"{restored} decisions restored" in ok(run("--home", other, "import", path, env=env))
    assert queue_of(other, env) == [own, *queue]
    ok(run("--home", other, "undo", env=env))
    assert queue_of(other, env) == [own]
    ok(run("--home", other, "redo", env=env))
    assert queue_of(other, env) == [own, *queue]


def queue_of(home: Path, env: dict[str, str]) -> list[str]:
    return [r["id"] for r in json.loads(ok(run("--home", home, "queue", "--json", env=env)))]


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
    assert "1 decision restored" in out and "1 decision of the file differs from yours" in out
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


@pytest.mark.parametrize(
    ("fmt", "suffix"), [("bibtex", "bib"), ("ris", "ris"), ("csl-json", "csl.json")]
)
def test_a_reference_export_carries_the_notes_and_tags_and_brings_them_back(
    seeded: Seeded, home: Path, env: dict[str, str], tmp_path: Path, fmt: str, suffix: str
) -> None:
    """The review's case: tags ``sae interp`` and a two-line note on a paper of the Inbox,
    ``papers export --status inbox --format ris`` held neither (nor did BibTeX or CSL-JSON):
    they are where Zotero reads them, and come back as the note and tags, once."""
    ok(run("--home", home, "tag", seeded.collabedit, "sae", "interp", env=env))
    ok(run("--home", home, "note", seeded.collabedit, "First line.\nSecond line.", env=env))
    path = tmp_path / f"inbox.{suffix}"
    ok(run("--home", home, "export", "--status", "inbox", "--format", fmt, "-o", path, env=env))
    text = path.read_text(encoding="utf-8")
    if fmt == "ris":
        assert "KW  - sae\nKW  - interp\n" in text
        assert "N1  - First line.\n  Second line.\n" in text
    elif fmt == "bibtex":
        assert "annote = {First line.\nSecond line.}" in text and "mendeley-tags = {sae," in text
    else:
        [item] = [i for i in json.loads(text) if "First line." in i.get("note", "")]
        assert item["note"].startswith("First line.\nSecond line.")  # the code links after
        assert item["keyword"] == "sae, interp" and item["custom"]["tags"] == ["sae", "interp"]
    fresh = tmp_path / "fresh"
    ok(run("--home", fresh, "import", path, env=env))
    [mine] = [r for r in listed(fresh, env) if r["id"] == seeded.collabedit]
    assert (mine["note"], mine["tags"]) == ("First line.\nSecond line.", ["sae", "interp"])
    assert mine["keywords"] == []  # the tags are no keywords of the source
    again = ok(run("--home", home, "import", path, env=env))  # into its own library
    assert "0 added" in again and "differ" not in again and "restored" not in again
    [same] = [r for r in listed(home, env) if r["id"] == seeded.collabedit]
    assert (same["note"], same["tags"]) == ("First line.\nSecond line.", ["sae", "interp"])


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


def test_dry_run_accounts_for_every_record_and_writes_nothing(
    env: dict[str, str], tmp_path: Path
) -> None:
    from tests.helpers import home_files

    abstract = "An abstract about graph sampling with enough words to be read as one."
    lines = [
        json.dumps({"title": "First", "abstract": abstract}),
        json.dumps({"title": "First", "abstract": abstract + "  "}),  # the same paper again
        json.dumps({"title": "Other", "abstract": abstract}),  # its abstract, another title
        "{broken",
        json.dumps({"title": "Third", "abstract": abstract.replace("graph", "tree")}),
    ]
    source = tmp_path / "list.jsonl"
    source.write_text("\n".join(lines) + "\n")
    fresh = tmp_path / "fresh"
    ok(run("--home", fresh, "import", SAMPLE, env=env))
    before = home_files(fresh)
    result = run("--home", fresh, "import", "--dry-run", source, env=env)
    assert result.returncode == 0, result.stderr
    out = result.stdout + result.stderr
    assert out.startswith("Would import list: 2 added, 0 updated, 0 skipped (unchanged), 1 merged")
    assert "1 kept apart, 1 record error (5 records read)" in out
    assert "list.jsonl: record 2: First → " in out and "the same paper twice" in out
    assert "list.jsonl: record 3: Other → " in out and "not its title" in out
    assert "record 4: not JSON" in out and "Nothing was written (--dry-run)." in out
    assert home_files(fresh) == before
    real = ok(run("--home", fresh, "import", source, env=env))
    assert real.startswith("Imported list: 2 added, 0 updated, 0 skipped (unchanged), 1 merged")


def test_a_folder_imports_every_file_it_can_and_names_the_others(
    env: dict[str, str], tmp_path: Path
) -> None:
    folder = tmp_path / "lists"
    folder.mkdir()
    (folder / "good.jsonl").write_text(
        json.dumps({"title": "Good", "abstract": "An abstract long enough to be read as one."})
    )
    (folder / "broken.json").write_text('{"papers": [')
    (folder / "binary.csv").write_bytes(b"title,abstract\n\x00\x01\x02")
    result = run("--home", tmp_path / "home", "import", folder, env=env)
    assert result.returncode == 1
    assert "Imported good: 1 added" in result.stdout
    failed = [line for line in result.stderr.splitlines() if "file not read:" in line]
    assert len(failed) == 2 and any("broken.json" in f for f in failed), result.stderr
    assert any("binary.csv" in f for f in failed) and "Traceback" not in result.stderr


def test_a_text_that_is_no_paper_list_is_refused(env: dict[str, str], tmp_path: Path) -> None:
    passwd = tmp_path / "passwd"  # shaped like /etc/passwd, made here: no system path is read
    passwd.write_text(
        "root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n"
        "bin:x:2:2:bin:/bin:/usr/sbin/nologin\nsys:x:3:3:sys:/dev:/usr/sbin/nologin\n"
        "games:x:5:60:games:/usr/games:/usr/sbin/nologin\n"
    )
    result = run("--home", tmp_path / "home", "import", passwd, env=env)
    assert result.returncode == 1 and result.stdout == ""
    [line] = result.stderr.splitlines()
    assert "not a paper list: no paragraph reads as an abstract (tried " in line
    assert "plain text" in line and "BibTeX" in line


def test_a_text_whose_paragraphs_mostly_are_no_abstracts_is_refused(
    env: dict[str, str], tmp_path: Path
) -> None:
    """A program's help saved as a .txt beside a paper list, the folder imported: one of its
    paragraphs reads as prose, and every other one (its usage line, its options) became a
    paper, in a list named by its usage line. It is no list: said, and the list is read."""
    folder = tmp_path / "lists"
    folder.mkdir()
    shutil.copy(sorted(SAMPLE.glob("*.txt"))[0], folder / "seeds.txt")
    (folder / "help.txt").write_text(
        "usage: tool mark [-h] [--home DIR] ID [ID ...] STATUS\n\n"
        "Decide papers by id: the status given to each, saved at once and undone by the undo "
        "of the app or of tool undo, as a decision made there.\n\n"
        "positional arguments:\n  ID          a paper id\n  STATUS      read, skip or star\n\n"
        "options:\n  -h, --help  show this help message and exit\n"
        "  --home DIR  library folder (default: $TOOL_HOME)\n"
    )
    result = run("--home", tmp_path / "home", "import", folder, env=env)
    assert "19 added" in result.stdout and "usage" not in result.stdout, result.stdout
    [line] = [line for line in result.stderr.splitlines() if "help.txt" in line]
    assert "not a paper list: only 1 of its 3 paragraphs read as abstracts" in line


def test_markdown_export_is_a_reading_list_that_reads_back(
    env: dict[str, str], tmp_path: Path
) -> None:
    rows = [
        {"title": f"Kernel Methods (KBG) [{i}]", "url": f"https://openreview.net/forum?id=pap{i:05d}",
         "abstract": f"Paper {i} on kernels with (KBG) bounds, long enough to be an abstract."}
        for i in range(4)
    ]  # fmt: skip
    source = tmp_path / "picks.json"
    source.write_text(json.dumps({"name": "Picks 2025", "papers": rows}))
    home = tmp_path / "home"
    ok(run("--home", home, "import", source, env=env))
    ids = [r["id"] for r in json.loads(ok(run("--home", home, "list", "--json", env=env)))]
    ok(run("--home", home, "mark", ids[0], ids[1], "starred", env=env))
    ok(run("--home", home, "mark", ids[2], "read", env=env))
    text = ok(run("--home", home, "export", "--status", "all", env=env))
    lines = text.splitlines()
    assert lines[0] == "# All papers: Picks 2025 (4 papers)"  # the one list they are in
    assert "\\(" not in text and "(KBG)" in text  # MathJax reads \( as math
    assert lines[2].startswith("- [ ] **[Kernel Methods (KBG) &#91;0&#93;](")
    assert "— [PDF](https://openreview.net/pdf?id=pap00000)" in lines[2]
    assert any(line.startswith("- [x] **[Kernel Methods (KBG) &#91;2&#93;]") for line in lines)
    path = tmp_path / "reading.md"
    path.write_text(text)
    out = ok(run("--home", home, "import", path, env=env))
    assert "0 added, 0 updated" in out
