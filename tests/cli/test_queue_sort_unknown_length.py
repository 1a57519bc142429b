"""``papers queue sort length`` (and ``Q``'s "By length") puts a paper of no known length
last: neither a PDF read nor an abstract (a BibTeX entry of a title alone) counted as an
abstract of 0 words, the shortest paper of all, and went to the head of the queue, where
the sort by rating puts a paper without a rating last."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.test_cli import make_env, ok, run


def test_a_paper_of_no_known_length_goes_last(tmp_path: Path) -> None:
    env = make_env(tmp_path)
    home = tmp_path / "home"
    bare = tmp_path / "bare.bib"
    bare.write_text("@article{a, title={A paper known by its title alone}}\n", encoding="utf-8")
    listed = tmp_path / "papers.jsonl"
    records = [
        {"title": "Long", "abstract": " ".join(["We study long abstracts"] * 40) + "."},
        {"title": "Short", "abstract": "We study short abstracts of a few words only here."},
    ]
    listed.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    ok(run("--home", home, "import", bare, env=env))
    ok(run("--home", home, "import", listed, env=env))
    ids = {
        r["title"]: r["id"] for r in json.loads(ok(run("--home", home, "list", "--json", env=env)))
    }
    bare_id = ids["A paper known by its title alone"]
    for pid in (bare_id, ids["Long"], ids["Short"]):
        ok(run("--home", home, "mark", pid, "starred", env=env))
    ok(run("--home", home, "queue", "sort", "length", env=env))
    queue = [r["id"] for r in json.loads(ok(run("--home", home, "queue", "--json", env=env)))]
    assert queue == [ids["Short"], ids["Long"], bare_id]
