"""``papers export`` options that only Markdown heeds (``--group-by``, ``--abstracts``), asked
of another format: the export was written as if they had not been asked, without a word. Now
a usage error (one line, exit 2, nothing written) naming the option and the formats it
applies to, whether ``--format`` or ``-o FILE``'s name chose the format."""

from __future__ import annotations

from pathlib import Path

import pytest

from storage.export import FORMATS
from tests.cli import test_bad_input
from tests.cli.test_bad_input import Seeded, one_line_error, run
from tests.helpers import home_files

# The fixtures of test_bad_input: the bundled sample imported once, a copy of it, a clean env.
seeded, home, env = test_bad_input.seeded, test_bad_input.home, test_bad_input.env

OPTIONS = {"--group-by": ["--group-by", "tag"], "--abstracts": ["--abstracts"]}
NOT_MARKDOWN = [fmt for fmt in FORMATS if fmt != "markdown"]


def test_markdown_alone_heeds_them() -> None:
    """What the README and the help promise: sections and abstracts are Markdown's."""
    from storage.export import formats_heeding

    assert formats_heeding("group_by") == formats_heeding("abstracts") == ["markdown"]


@pytest.mark.parametrize("fmt", NOT_MARKDOWN)
@pytest.mark.parametrize("option", list(OPTIONS))
def test_an_option_the_format_ignores_is_refused(
    option: str, fmt: str, seeded: Seeded, home: Path, env: dict[str, str], tmp_path: Path
) -> None:
    before = home_files(home)
    out = tmp_path / "out"
    args = ["--home", home, "export", "--status", "all", "--format", fmt, *OPTIONS[option]]
    line = one_line_error(run(*args, "-o", out, env=env), 2)
    assert line == (
        f"papers: error: {option} applies to --format markdown only, not {fmt} "
        "(see `papers export --help`)"
    )
    assert not out.exists() and home_files(home) == before
    one_line_error(run(*args, env=env), 2)  # to standard output alike


@pytest.mark.parametrize("name", ["refs.bib", "refs.ris", "papers.csv", "all.csl.json"])
def test_an_option_the_files_format_ignores_is_refused(
    name: str, seeded: Seeded, home: Path, env: dict[str, str], tmp_path: Path
) -> None:
    """``papers export -o refs.bib --abstracts``: the name chose BibTeX, and says so."""
    out = tmp_path / name
    line = one_line_error(run("--home", home, "export", "--abstracts", "-o", out, env=env), 2)
    assert line.startswith("papers: error: --abstracts applies to --format markdown only, not ")
    assert f"which the name {out} says" in line
    assert not out.exists()


def test_markdown_takes_them(
    seeded: Seeded, home: Path, env: dict[str, str], tmp_path: Path
) -> None:
    for args in (
        ["--group-by", "tag", "--abstracts"],
        ["--format", "markdown", "--group-by", "venue"],
        ["--abstracts", "-o", tmp_path / "starred.md"],
        ["--format", "json", "--group-by", "none"],  # the default, said: nothing ignored
    ):
        done = run("--home", home, "export", "--status", "all", *args, env=env)
        assert done.returncode == 0, (args, done.stderr)
    grouped = run("--home", home, "export", "--status", "all", "--group-by", "tag", env=env)
    assert "## untagged" in grouped.stdout
