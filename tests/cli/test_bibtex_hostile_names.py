"""``papers export --format bibtex`` of a name holding an escape sequence: the name's field and
the title's show a control character alike, and the citation key is made of the name's letters."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from storage.export.tex import tex_ascii
from tests.cli.test_bad_input import make_env, run

#: How the BibTeX export writes a control character it shows (ESC: ``␛``, in ASCII LaTeX).
SHOWN_ESC = tex_ascii("\N{SYMBOL FOR ESCAPE}")


def exported(tmp_path: Path, rows: list[dict[str, object]]) -> str:
    listed = tmp_path / "list.jsonl"
    listed.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    env, home = make_env(tmp_path), tmp_path / "home"
    assert run("--home", home, "import", listed, env=env).returncode == 0
    done = run("--home", home, "export", "--status", "all", "--format", "bibtex", env=env)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize(
    ("name", "key"),
    [
        ("Mallory \x1b[2J", "malloryevil"),  # the sequence is no part of the name: "2jevil"
        ("Eve \x1b[31mSmith\x1b[0m", "smithevil"),  # "31msmith0mevil"
        ("\x1b[2J", "anonevil"),  # nothing of a name is left
    ],
)
def test_a_name_with_an_escape_sequence(name: str, key: str, tmp_path: Path) -> None:
    """The ESC was dropped from ``author`` and shown (U+241B) in ``title``; the key was made of
    the sequence's digits and letters."""
    abstract = "An evil abstract, long enough to be one."
    text = exported(
        tmp_path, [{"title": "Evil \x1b[2J Paper", "authors": [name], "abstract": abstract}]
    )
    [entry_key] = re.findall(r"^@\w+\{([^,]*),$", text, re.MULTILINE)
    assert entry_key == key
    [title] = [line for line in text.splitlines() if line.startswith("  title = ")]
    [author] = [line for line in text.splitlines() if line.startswith("  author = ")]
    assert SHOWN_ESC in title
    assert author.count(SHOWN_ESC) == name.count("\x1b"), author


def test_ordinary_names_keep_their_keys(tmp_path: Path) -> None:
    abstract = "An abstract of this paper, long enough to be one: {}."
    names = ["Kaiming He", "Zoë O'Brien", "Jan van der Berg"]
    titles = ["Deep Residual Learning", "On Things", "Attention"]
    text = exported(
        tmp_path,
        [
            {"title": title, "authors": [name], "abstract": abstract.format(title)}
            for name, title in zip(names, titles, strict=True)
        ],
    )
    keys = re.findall(r"^@\w+\{([^,]*),$", text, re.MULTILINE)
    assert keys == ["hedeep", "obrienthings", "bergattention"]
