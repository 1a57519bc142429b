"""A venue's decisions against its papers in one vocabulary (``storage.sources.decisions``):
a Paper Copilot list imported from its file says them as ``papers fetch`` does (Withdrawn,
Rejected, Desk rejected, Under review), run as real subprocesses in a temporary HOME."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.test_cli import make_env, ok, run

#: Paper Copilot's shape (papercopilot/paperlists iclr/iclr2025.json): its own status words.
RECORDS = [
    ("Cop00001xy", "Poster", "Sparse Attention Without Tears"),
    ("Cop00002xy", "Oral", "Flow Matching for Proteins"),
    ("Cop00003xy", "Withdraw", "Graph Samplers Reconsidered"),
    ("Cop00004xy", "Reject", "Diffusion Without Noise"),
    ("Cop00005xy", "Desk Reject", "A Benchmark of Benchmarks"),
    ("Cop00006xy", "Active", "Neural Fields at Scale"),
]


def _copilot_file(folder: Path) -> Path:
    path = folder / "iclr2025.json"
    records = [
        {
            "id": note,
            "title": title,
            "track": "main",
            "status": status,
            "author": "Ann Lee;Kai Wu",
            "site": f"http://127.0.0.1:9/forum?id={note}",
            "abstract": f"We study {title.lower()} and show when it works, with experiments.",
        }
        for note, status, title in RECORDS
    ]
    path.write_text(json.dumps(records), encoding="utf-8")
    return path


def test_a_paper_copilot_file_says_its_decisions_as_the_fetch_does(tmp_path: Path) -> None:
    """``status:withdrawn`` and ``status:rejected`` missed the file's "Withdraw" and "Reject"
    (kept as written), and ``papers stats`` counted them apart from a fetched list's."""
    env, home = make_env(tmp_path), tmp_path / "home"
    assert "6 added" in ok(run("--home", home, "import", _copilot_file(tmp_path), env=env))

    def found(query: str) -> set[str]:
        out = ok(run("--home", home, "search", query, "--json", env=env))
        return {paper["title"] for paper in json.loads(out)}

    assert found("status:withdrawn") == {"Graph Samplers Reconsidered"}
    assert found("status:rejected") == {"Diffusion Without Noise", "A Benchmark of Benchmarks"}
    assert found("status:desk") == {"A Benchmark of Benchmarks"}
    assert found('status:"under review"') == {"Neural Fields at Scale"}
    listed = json.loads(ok(run("--home", home, "list", "--json", env=env)))
    assert [p["venue_status"] for p in listed] == [
        "Poster", "Oral", "Withdrawn", "Rejected", "Desk rejected", "Under review",
    ]  # fmt: skip
    stats = json.loads(ok(run("--home", home, "stats", "--json", env=env)))
    assert set(stats["by_venue_status"]) == {
        "Oral", "Poster", "Withdrawn", "Rejected", "Desk rejected", "Under review",
    }  # fmt: skip


def test_papers_not_accepted_stay_unpublished_in_the_exports(tmp_path: Path) -> None:
    """The words changed, not what they mean: a withdrawn, rejected or desk-rejected paper is
    cited as ``@misc`` (never in ICLR's proceedings), an accepted one in them."""
    env, home = make_env(tmp_path), tmp_path / "home"
    ok(run("--home", home, "import", _copilot_file(tmp_path), env=env))
    bib = ok(run("--home", home, "export", "--status", "all", "--format", "bibtex", env=env))
    kinds = {
        title: entry.lstrip("@").split("{", 1)[0]
        for entry in bib.split("\n@")
        for title in [t for _, _, t in RECORDS if t in entry]
    }
    assert kinds == {
        "Sparse Attention Without Tears": "inproceedings",
        "Flow Matching for Proteins": "inproceedings",
        "Graph Samplers Reconsidered": "misc",
        "Diffusion Without Noise": "misc",
        "A Benchmark of Benchmarks": "misc",
        "Neural Fields at Scale": "misc",
    }
    markdown = ok(run("--home", home, "export", "--status", "all", env=env))
    assert "Withdrawn" in markdown and "Desk rejected" in markdown
