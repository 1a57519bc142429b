"""config.toml's problems said by the commands that use the settings: each once, in TOML.

``papers mark ID starred`` read ``[queue] new`` and said nothing when it was wrong;
``papers sync --status`` said the ``[keys]`` problems (which it does not use) twice; a
``[Sync]`` table was ignored in silence, and sync then asked for ``[sync] folder``.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from tests.cli.test_cli import PAPERS, make_env
from tests.cli.test_sync import paper_list


def run(env: dict[str, str], home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*PAPERS, "--home", str(home), *args], env=env, capture_output=True, text=True, timeout=120
    )


def test_each_command_says_the_problems_of_the_settings_it_uses(tmp_path: Path) -> None:
    env = make_env(tmp_path)
    home = tmp_path / "home"
    assert run(env, home, "import", str(paper_list(tmp_path / "l.jsonl", 3))).returncode == 0
    (home / "config.toml").write_text(
        '[keys]\nstar = 5\n[queue]\nnew = true\n[Sync]\nfolder = "S"\n', encoding="utf-8"
    )
    paper = run(env, home, "list").stdout.split()[0]
    marked = run(env, home, "mark", paper, "starred")
    assert marked.returncode == 0
    notes = marked.stderr.splitlines()
    assert [n for n in notes if "[queue]" in n] == [
        f'papers: note: {home / "config.toml"}: [queue] new = true: ignored (new = "top"|"end")'
    ]
    assert not any("[keys]" in n for n in notes)  # not a setting mark uses
    assert any("[Sync]: no such table, ignored (did you mean [sync]?)" in n for n in notes)

    status = run(env, home, "sync", "--status")
    assert status.returncode == 0
    said = status.stderr.splitlines()
    assert sum("[Sync]: no such table" in line for line in said) == 1
    assert not any("[keys]" in line or "[queue]" in line for line in said)
