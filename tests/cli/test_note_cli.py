"""``papers note`` as a reader keeps notes from the shell: no undo brings a note back, so a
note replaced or cleared is printed as it was, ``--append`` adds a line without losing the
rest, and what is said is what was done (clearing said "note saved")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.test_cli import SAMPLE, make_env, ok, run


def sample_home(tmp_path: Path) -> tuple[Path, dict[str, str], str]:
    """The sample imported into a HOME: the HOME, the environment, its first paper's id."""
    env = make_env(tmp_path)
    home = tmp_path / "home"
    ok(run("--home", home, "import", SAMPLE, env=env))
    pid = json.loads(ok(run("--home", home, "list", "--json", env=env)))[0]["id"]
    return home, env, pid


@pytest.fixture
def setup(tmp_path: Path) -> tuple[Path, dict[str, str], str]:
    return sample_home(tmp_path)


def field_of(home: Path, env: dict[str, str], pid: str, name: str) -> object:
    """The paper's ``name`` as ``papers list --json`` gives it."""
    records = json.loads(ok(run("--home", home, "list", "--json", env=env)))
    (value,) = [r[name] for r in records if r["id"] == pid]
    return value


def note_of(home: Path, env: dict[str, str], pid: str) -> str:
    return str(field_of(home, env, pid, "note"))


def test_a_note_cleared_with_an_empty_text_says_cleared_and_prints_it(
    setup: tuple[Path, dict[str, str], str],
) -> None:
    home, env, pid = setup
    note = "Key idea: rank loss beats MSE\n- [ ] reproduce table 1"
    assert ok(run("--home", home, "note", pid, note, env=env)) == "note saved\n"
    # "" (what a script passes for an empty variable) clears it: it said "note saved"
    out = ok(run("--home", home, "note", pid, "", env=env))
    assert out == f"note cleared; the note it replaced, as it was:\n{note}\n"
    assert note_of(home, env, pid) == ""
    assert ok(run("--home", home, "note", pid, "  ", env=env)) == "no note to clear\n"


def test_a_note_replaced_is_printed_and_append_keeps_it(
    setup: tuple[Path, dict[str, str], str],
) -> None:
    home, env, pid = setup
    ok(run("--home", home, "note", pid, "read §3 first", env=env))
    out = ok(run("--home", home, "note", "--append", pid, "then", "the appendix", env=env))
    assert out == "note saved (added to the note)\n"
    assert note_of(home, env, pid) == "read §3 first\nthen the appendix"
    out = ok(run("--home", home, "note", pid, "a new note", env=env))
    assert out == "note saved; the note it replaced, as it was:\nread §3 first\nthen the appendix\n"
    assert ok(run("--home", home, "note", pid, "a new note", env=env)) == "note unchanged\n"
    other = json.loads(ok(run("--home", home, "list", "--json", env=env)))[1]["id"]
    assert ok(run("--home", home, "note", other, "first words", "-a", env=env)) == "note saved\n"
    assert note_of(home, env, other) == "first words"


def test_append_without_text_is_a_usage_error(
    setup: tuple[Path, dict[str, str], str],
) -> None:
    home, env, pid = setup
    ok(run("--home", home, "note", pid, "keep me", env=env))
    done = run("--home", home, "note", pid, "--append", env=env)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "--append needs the TEXT to add" in done.stderr
    assert note_of(home, env, pid) == "keep me"


def test_words_after_an_option_in_the_middle_are_the_commands_words_too(
    setup: tuple[Path, dict[str, str], str],
) -> None:
    """``papers note ID --append more words`` and ``papers tag ID --home DIR a b`` were
    refused ("unrecognized arguments: more words"): argparse gives a positional that takes
    the rest of the line only the words before the first option."""
    home, env, pid = setup
    ok(run("--home", home, "note", pid, "first", env=env))
    ok(run("--home", home, "note", pid, "--append", "more", "words", env=env))
    ok(run("--home", home, "note", pid, "and", "--append", "again", env=env))
    assert note_of(home, env, pid) == "first\nmore words\nand again"
    ok(run("--home", home, "tag", pid, "--home", home, "a", "b", env=env))
    (record,) = [
        r for r in json.loads(ok(run("--home", home, "list", "--json", env=env))) if r["id"] == pid
    ]
    assert record["tags"] == ["a", "b"]
    refused = run("--home", home, "note", pid, "x", "--bogus", "y", env=env)
    assert refused.returncode == 2 and "unrecognized option --bogus" in refused.stderr
