"""File names a terminal would obey, in the app's path fields: shown as symbols, found on disk.

A path field holds ``tui.paths.shown`` text only; ``typed_path`` maps what it holds back to the
real name, part by part. These tests drive the two functions on real folders.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.hostile.hostile import HOSTILE, leaks
from tui.paths import complete, shown, typed_path

NAMES = [f"x {text}.jsonl" for text in HOSTILE.values() if "/" not in text and "\x00" not in text]
NAMES += ["a\nb.jsonl", "a\tb.jsonl", "a\u2028b\u2029.jsonl", "ends with a newline\n"]


@pytest.mark.parametrize("name", NAMES)
def test_each_name_shows_safely_and_maps_back(name: str, tmp_path: Path) -> None:
    folder = tmp_path / f"in {name.rstrip()}"
    folder.mkdir()
    (folder / name).write_text("{}")
    field = f"{tmp_path}/{shown(folder.name)}/{shown(name)}"
    assert leaks(field) == []
    assert typed_path(field) == folder / name


def test_shown_is_one_character_for_one() -> None:
    for name in NAMES:
        assert len(shown(name)) == len(name)
    assert len({shown("a\tb"), shown("a b"), shown("a\nb"), shown("a\u2028b")}) == 4


def test_a_name_that_exists_as_typed_wins(tmp_path: Path) -> None:
    """A real file named with the symbol itself is that file, not the hidden one."""
    (tmp_path / "a\x1bb").write_text("hidden")
    (tmp_path / "a␛b").write_text("symbol")
    assert typed_path(f"{tmp_path}/a␛b") == tmp_path / "a␛b"


def test_two_names_shown_alike_are_not_guessed(tmp_path: Path) -> None:
    (tmp_path / "a\x9bb").write_text("")
    (tmp_path / "a\x9db").write_text("")
    assert typed_path(f"{tmp_path}/a\N{REPLACEMENT CHARACTER}b") == tmp_path / "a�b"


def test_a_file_still_to_be_written_keeps_its_typed_name(tmp_path: Path) -> None:
    (tmp_path / "out \x1b").mkdir()
    assert typed_path(f"{tmp_path}/out ␛/new.md") == tmp_path / "out \x1b" / "new.md"
    assert typed_path(f"{tmp_path}/nowhere ␛/new.md") == tmp_path / "nowhere ␛" / "new.md"


def test_completion_lists_and_extends_in_the_shown_form(tmp_path: Path) -> None:
    (tmp_path / "list \x1b[2J one.jsonl").write_text("")
    (tmp_path / "list \x1b[2J two.jsonl").write_text("")
    (tmp_path / "list \x1b[2J folder").mkdir()
    completed, names = complete(f"{tmp_path}/li")
    assert completed == f"{tmp_path}/list ␛[2J "
    assert names == ["list ␛[2J folder/", "list ␛[2J one.jsonl", "list ␛[2J two.jsonl"]
    completed, names = complete(f"{completed}o")
    assert typed_path(completed) == tmp_path / "list \x1b[2J one.jsonl"
    completed, _ = complete(f"{tmp_path}/list ␛[2J f")
    assert completed == f"{tmp_path}/list ␛[2J folder/"


@settings(max_examples=60, deadline=None)
@given(
    st.text(
        st.characters(blacklist_categories=("Cs",), blacklist_characters="/\x00"),
        min_size=1,
        max_size=12,
    )
)
def test_any_name_completes_to_itself(tmp_path_factory: pytest.TempPathFactory, name: str) -> None:
    if name in (".", "..") or shown(name).strip() != shown(name):
        return  # not a file's name; a field's text is stripped at its ends
    folder = tmp_path_factory.mktemp("names")
    try:
        (folder / name).write_text("")
    except OSError:  # a name the file system refuses (too long in bytes)
        return
    completed, _ = complete(f"{folder}/{shown(name)[:1]}")
    assert completed == f"{folder}/{shown(name)}"
    assert leaks(completed) == []
    assert typed_path(completed) == folder / name
