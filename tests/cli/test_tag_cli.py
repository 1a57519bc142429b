"""``papers tag`` says what it did: the tags it replaced or cleared are printed, to be typed
back (no ``papers undo`` brings tags back: it undid an earlier decision instead), as ``papers
note`` prints a note it replaced; a tag typed as the paper pane writes it, ``#name``, is
``name``; a tag may start with a dash, as words of a note may, while an option misspelt is
still refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.test_cli import ok, run
from tests.cli.test_note_cli import field_of, sample_home


@pytest.fixture
def setup(tmp_path: Path) -> tuple[Path, dict[str, str], str]:
    return sample_home(tmp_path)


def tags_of(home: Path, env: dict[str, str], pid: str) -> list[str]:
    return list(field_of(home, env, pid, "tags"))  # type: ignore[call-overload]


def test_tags_cleared_or_replaced_are_printed_to_be_typed_back(
    setup: tuple[Path, dict[str, str], str],
) -> None:
    """``papers tag ID`` said "tags: none": the tags were gone, not printed, and ``papers
    undo`` undid the star before them, not the clearing."""
    home, env, pid = setup
    assert ok(run("--home", home, "tag", pid, "reread", "rl", "to read", env=env)) == (
        "tags: reread, rl, to-read\n"
    )
    other = json.loads(ok(run("--home", home, "list", "--json", env=env)))[1]["id"]
    ok(run("--home", home, "mark", other, "starred", env=env))
    out = ok(run("--home", home, "tag", pid, env=env))
    assert out == "tags cleared; the tags it replaced: reread, rl, to-read\n"
    assert tags_of(home, env, pid) == []
    assert ok(run("--home", home, "tag", pid, env=env)) == "no tags to clear\n"
    assert ok(run("--home", home, "tag", pid, "", env=env)) == "no tags to clear\n"
    # typed back as printed (the shell splits it at the spaces): the tags as they were
    typed = out.rpartition(": ")[2].split()
    assert ok(run("--home", home, "tag", pid, *typed, env=env)) == "tags: reread, rl, to-read\n"
    out = ok(run("--home", home, "tag", pid, "done", env=env))
    assert out == "tags: done; the tags it replaced: reread, rl, to-read\n"
    assert ok(run("--home", home, "tag", pid, "Done", env=env)) == "tags unchanged: done\n"
    assert tags_of(home, env, pid) == ["done"]


def test_a_tag_typed_as_the_pane_writes_it_is_its_name(
    setup: tuple[Path, dict[str, str], str],
) -> None:
    """The pane writes tags as ``#name``: ``papers tag ID '#c'`` stored ``#c``, shown
    ``##c``. One ``#`` is taken off; a tag that is only ``#`` names none: refused, the tags
    left as they were (dropped, it would have cleared them)."""
    home, env, pid = setup
    out = ok(run("--home", home, "tag", pid, "#c", "#to read", "b,#d", "##e", env=env))
    assert out == "tags: c, to-read, b, d, #e\n"
    assert tags_of(home, env, pid) == ["c", "to-read", "b", "d", "#e"]
    for typed in (["#"], ["a", "#"], ["a, #, b"], ["##"]):
        refused = run("--home", home, "tag", pid, *typed, env=env)
        assert refused.returncode == 2 and refused.stdout == "", typed
        assert refused.stderr.count("\n") == 1 and "Traceback" not in refused.stderr
        assert "is not a tag: write its name after the #" in refused.stderr
    assert tags_of(home, env, pid) == ["c", "to-read", "b", "d", "#e"]


def test_a_tag_may_start_with_a_dash_and_a_misspelt_option_is_refused(
    setup: tuple[Path, dict[str, str], str],
) -> None:
    """``papers tag ID -negative`` said "unrecognized arguments" (a leading-dash tag needed
    ``--``). A word of one dash is a tag (a note's word) unless it is one of the command's
    options, or one of its long options written with one dash or a letter off (``-hme``):
    those, and ``--anything`` unknown, are refused, nothing changed."""
    home, env, pid = setup
    assert ok(run("--home", home, "tag", pid, "-negative", "-5", env=env)) == (
        "tags: -negative, -5\n"
    )
    ok(run("--home", home, "tag", pid, "a", "--home", home, "-b", "c", env=env))
    assert tags_of(home, env, pid) == ["a", "-b", "c"]
    ok(run("--home", home, "tag", pid, "--", "-x", env=env))
    assert tags_of(home, env, pid) == ["-x"]
    for typed, says in (
        (["--hme", "y"], "unrecognized option --hme (did you mean --home?)"),
        (["y", "-hme", "z"], "-hme looks like the option --home"),
        (["-home", "z"], "-home looks like the option --home"),
        (["-hepl"], "-hepl looks like the option --help"),
    ):
        refused = run("--home", home, "tag", pid, *typed, env=env)
        assert refused.returncode == 2 and refused.stdout == "", typed
        assert refused.stderr.count("\n") == 1 and says in refused.stderr, refused.stderr
    assert tags_of(home, env, pid) == ["-x"]
    # a note takes such words alike; its own -a stays its option
    ok(run("--home", home, "note", pid, "-negative", "results", env=env))
    ok(run("--home", home, "note", pid, "-a", "-then", "more", env=env))
    records = json.loads(ok(run("--home", home, "list", "--json", env=env)))
    (note,) = [r["note"] for r in records if r["id"] == pid]
    assert note == "-negative results\n-then more"
    refused = run("--home", home, "note", pid, "x", "-apend", env=env)
    assert refused.returncode == 2 and "-apend looks like the option --append" in refused.stderr


def test_a_tag_with_a_control_character_or_its_symbol_is_refused(
    setup: tuple[Path, dict[str, str], str],
) -> None:
    """``papers tag ID $'a\\eb'`` stored the ESC and printed ``a␛b``; typed back as printed,
    ``a␛b`` was another tag. Both are refused in one line, the tags left as they were, as the
    app's tag prompt refuses them."""
    home, env, pid = setup
    ok(run("--home", home, "tag", pid, "kept", env=env))
    for typed in ("a\x1bb", "a␛b", "x,a\x07b", "a\x9bb"):
        refused = run("--home", home, "tag", pid, typed, env=env)
        assert refused.returncode == 2 and refused.stdout == "", typed
        assert refused.stderr.count("\n") == 1 and "\x1b" not in refused.stderr
        assert "is not a tag: a tag holds no control character" in refused.stderr, typed
    assert tags_of(home, env, pid) == ["kept"]


def test_a_tag_of_commas_alone_is_refused_as_a_lone_hash_is(
    setup: tuple[Path, dict[str, str], str],
) -> None:
    """``papers tag ID ,`` cleared every tag, while ``papers tag ID '#'`` was refused: both
    name no tag, and are refused in one line; no TAG, or an empty one, still clears them."""
    home, env, pid = setup
    ok(run("--home", home, "tag", pid, "kept", env=env))
    for typed in ([","], ["a", ";"], [" , , "]):
        refused = run("--home", home, "tag", pid, *typed, env=env)
        assert refused.returncode == 2 and refused.stdout == "", typed
        assert refused.stderr.count("\n") == 1 and "is not a tag: write names" in refused.stderr
    assert tags_of(home, env, pid) == ["kept"]
    assert ok(run("--home", home, "tag", pid, "a,", env=env)).startswith("tags: a;")
    assert ok(run("--home", home, "tag", pid, "", env=env)).startswith("tags cleared;")
