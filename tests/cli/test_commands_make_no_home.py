"""A command that fails or only reads leaves a missing HOME missing; one that stores something
makes it (real processes, temporary folders).

``papers mark abcd read`` with ``PAPERS_HOME`` naming a folder not there failed (no such
paper) and left the folder behind, empty; ``papers undo`` left it holding lock files: the next
look found a library folder that nothing had filled. ``papers import`` was mended first
(``test_failed_import_makes_no_home``); every command now makes HOME only when a change has
something to store.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.cli.test_bad_input import PAPERS, make_env
from tests.cli.test_import_stdin import PAPERS_JSONL

#: Commands on a HOME not there, that fail (no such paper, nothing to undo, a folder not
#: there) or only read: none may leave anything behind.
LEAVE_NOTHING: dict[str, list[str]] = {
    "mark": ["mark", "abcd", "read"],
    "undo": ["undo"],
    "redo": ["redo"],
    "note": ["note", "abcd", "a note"],
    "tag": ["tag", "abcd", "maths"],
    "remove": ["remove", "abcd"],
    "remove --list": ["remove", "--list", "Some list"],
    "queue": ["queue"],
    "queue move": ["queue", "move", "abcd", "--to", "1"],
    "queue sort": ["queue", "sort", "rating"],
    "next": ["next"],
    "export": ["export", "--status", "all"],
    "export -o": ["export", "--status", "all", "-o", "{tmp}/out.md"],
    "list": ["list"],
    "list --json": ["list", "--json"],
    "search": ["search", "diffusion"],
    "search --list": ["search", "--list"],
    "similar": ["similar", "abcd"],
    "stats": ["stats"],
    "stats --json": ["stats", "--json"],
    "sync missing folder": ["sync", "{tmp}/no-sync-folder"],
    "sync --status": ["sync", "--status", "{tmp}/sync"],
    "pdf": ["pdf"],
    "pdf ID": ["pdf", "abcd"],
    "pdf --failed": ["pdf", "--failed"],
    "enrich": ["enrich"],
    "fetch": ["fetch", "iclr2025", "--max", "1"],
}


def _papers(home: Path, tmp_path: Path, *args: str, stdin: bytes = b"") -> tuple[int, str, str]:
    """``papers ARGS`` in ``PAPERS_HOME=home``: its exit code, output and error output."""
    env = make_env(
        tmp_path,
        PAPERS_HOME=str(home),
        # a fetch is refused at once (no test reaches beyond this machine)
        PAPERS_OPENREVIEW_API="http://127.0.0.1:9/api",
        PAPERS_OPENREVIEW_API_V1="http://127.0.0.1:9/api1",
        PAPERS_PAPERLISTS_URL="http://127.0.0.1:9/pl",
        PAPERS_ARXIV_API="http://127.0.0.1:9/query",
    )
    words = [arg.format(tmp=tmp_path) for arg in args]
    done = subprocess.run([*PAPERS, *words], env=env, input=stdin, capture_output=True, timeout=60)
    err = done.stderr.decode("utf-8", "replace")
    assert "Traceback" not in err and "internal error" not in err, err
    return done.returncode, done.stdout.decode("utf-8", "replace"), err


@pytest.mark.parametrize("args", list(LEAVE_NOTHING.values()), ids=list(LEAVE_NOTHING))
def test_a_failing_or_reading_command_makes_no_home(args: list[str], tmp_path: Path) -> None:
    (tmp_path / "sync").mkdir()
    home = tmp_path / "new" / "home"  # neither it nor the folder it goes in is there
    _papers(home, tmp_path, *args)
    assert not (tmp_path / "new").exists(), sorted(p.name for p in home.iterdir())
    assert list((tmp_path / "sync").iterdir()) == []


def test_a_command_that_stores_makes_home(tmp_path: Path) -> None:
    """A saved search, a sync and an import store something: HOME is made for it, and what
    they stored is read back."""
    saved = tmp_path / "a" / "home"
    code, _, err = _papers(saved, tmp_path, "search", "--save", "routing", "sparse routing")
    assert code == 0, err
    code, out, err = _papers(saved, tmp_path, "search", "--list")
    assert code == 0 and "routing" in out, (out, err)

    (tmp_path / "sync").mkdir()
    synced = tmp_path / "b" / "home"
    code, _, err = _papers(synced, tmp_path, "sync", str(tmp_path / "sync"))
    assert code == 0, err
    assert synced.is_dir() and list((tmp_path / "sync").iterdir())

    imported = tmp_path / "c" / "home"
    code, _, err = _papers(imported, tmp_path, "import", "-", stdin=PAPERS_JSONL)
    assert code == 0, err
    code, _, err = _papers(imported, tmp_path, "undo")
    assert code == 1 and "nothing to undo" in err  # a HOME with no step yet: said as before
