"""``papers search``: the set of papers with every word, the partial-match line, has:note, and
the saved-search flags, run as real subprocesses in a temporary HOME."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.test_cli import make_env, ok, run

PAPERS = [
    {
        "title": "Graph Neural Networks for Molecules",
        "abstract": "A graph neural network predicts molecular properties.",
    },
    {
        "title": "Neural Fields",
        "abstract": "Neural networks as continuous signals.",
    },
    {
        "title": "Diffusion Samplers",
        "abstract": "Sampling with diffusion models and flow matching.",
    },
    {
        "title": "Flow Matching for Proteins",
        "abstract": "Conditional flow matching generates protein backbones.",
    },
]


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return make_env(tmp_path)


@pytest.fixture
def home(tmp_path: Path, env: dict[str, str]) -> Path:
    """A HOME with the four papers above imported."""
    source = tmp_path / "papers.jsonl"
    source.write_text("".join(json.dumps(p) + "\n" for p in PAPERS), encoding="utf-8")
    home = tmp_path / "home"
    assert "4 added" in ok(run("--home", home, "import", source, env=env))
    return home


def titles(out: str) -> list[str]:
    return [line.split(maxsplit=2)[2] for line in out.splitlines()]


def search(home: Path, env: dict[str, str], *args: str) -> tuple[str, str]:
    done = run("--home", home, "search", *args, env=env)
    assert done.returncode == 0, done.stderr
    return done.stdout, done.stderr


def test_search_lists_the_papers_with_every_word(home: Path, env: dict[str, str]) -> None:
    out, err = search(home, env, "graph", "neural", "network")
    assert titles(out) == ["Graph Neural Networks for Molecules"] and err == ""
    out, err = search(home, env, "graph", "neural", "zebra")
    assert titles(out) == ["Graph Neural Networks for Molecules"]
    assert err == "no paper has all 3 words; showing those with 2 of 3\n"
    out, _ = search(home, env, "diffusion", "OR", "proteins")
    assert sorted(titles(out)) == ["Diffusion Samplers", "Flow Matching for Proteins"]


def test_a_mistyped_qualifier_says_it_is_read_as_words(home: Path, env: dict[str, str]) -> None:
    out, err = search(home, env, "is:skiped")
    assert out == ""
    assert err.splitlines() == [
        "is:skiped is read as words (is: takes inbox, read, skipped or starred)",
        "no paper matches 'is:skiped' (4 papers searched)",
    ]
    out, err = search(home, env, "graph is:")  # it said "is:VALUE", not what is: takes
    assert titles(out) == ["Graph Neural Networks for Molecules"]
    assert err == (
        "is: without a value filters nothing "
        "(is:STATE, no space; is: takes inbox, read, skipped or starred)\n"
    )


def venue_without_ratings(folder: Path) -> Path:
    """A list of three papers with no review ratings, where no oral paper is Bengio's (two
    link code): searches that find nothing, each for its own reason."""
    rows = [
        {"title": "Oral With Code", "authors": ["Ada Lovelace"], "status": "Oral"},
        {"title": "Poster By Bengio", "authors": ["Yoshua Bengio"], "status": "Poster"},
        {"title": "Plain Poster", "authors": ["Alan Turing"], "status": "Poster"},
    ]
    rows[0]["github"] = rows[1]["github"] = "https://github.com/example/code"
    source = folder / "venue.jsonl"
    source.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return source


def test_a_search_that_finds_nothing_says_why(tmp_path: Path, env: dict[str, str]) -> None:
    """On ICLR 2025's list, which has no review ratings, ``papers search 'rating:>6'`` and
    ``'status:oral has:code author:bengio'`` (no oral paper is Bengio's) printed nothing at
    all, exit code 0, as if the library were empty. One line on stderr says that nothing
    matched, of how many papers, and why when the index can tell; stdout stays empty (a
    script piping the ids gets none) and the exit code 0: finding nothing is no error."""
    source = venue_without_ratings(tmp_path)
    home = tmp_path / "venue"
    ok(run("--home", home, "import", source, env=env))
    said = {
        "rating:>6": "no paper in this library has a rating "
        "(ratings come with `papers fetch VENUE --reviews`)",
        "status:oral has:code author:bengio": "none matches both status:oral (1 paper) and "
        "author:bengio (1 paper)",
        "poster citations:>10": "no paper in this library has a citation count "
        "(a list that gives them, as Scopus exports do)",
        "turing -poster": "none matches both 'turing' (1 paper) and -poster (1 paper)",
        "is:starred code": "no paper in this library is starred",
        "zebrafish status:oral": "'zebrafish' matches no paper",
    }
    for query, why in said.items():
        for json_flag in ([], ["--json"]):
            done = run("--home", home, "search", query, *json_flag, env=env)
            assert done.returncode == 0, done
            assert done.stdout == ("[]\n" if json_flag else ""), done
            assert done.stderr == f"no paper matches {query!r} (3 papers searched): {why}\n"
    # one part, and nothing to say but that it matches none; a search that finds papers
    # says nothing of the kind
    out, err = search(home, env, "status:spotlight")
    assert out == "" and err == "no paper matches 'status:spotlight' (3 papers searched)\n"
    out, err = search(home, env, "status:oral has:code")
    assert titles(out) == ["Oral With Code (Oral) [code]"] and err == ""
    out, err = search(home, env, "-rating:>6")  # a negated one keeps them all: nothing said
    assert len(titles(out)) == 3 and err == ""


def test_has_code_in_a_library_without_code_says_so(home: Path, env: dict[str, str]) -> None:
    """No paper of the four links code: ``graph has:code`` says so, not only "nothing"."""
    out, err = search(home, env, "graph", "has:code")
    assert out == ""
    assert err == (
        "no paper matches 'graph has:code' (4 papers searched): "
        "no paper in this library links code (a GitHub repository)\n"
    )


def test_a_query_of_no_word_is_one_line_as_an_empty_one(home: Path, env: dict[str, str]) -> None:
    """ "!!!" listed the whole library, where "" says a QUERY is needed."""
    for query in ("!!!", "?", ":"):
        done = run("--home", home, "search", query, env=env)
        assert done.returncode == 2 and done.stdout == "", done
        assert done.stderr.startswith(f"papers: error: the QUERY {query!r} has no word"), done
    assert titles(search(home, env, "-zebra")[0])  # an exclusion alone is a query


def test_has_note_reads_the_notes(home: Path, env: dict[str, str]) -> None:
    (first,) = json.loads(search(home, env, "molecules", "--json")[0])
    ok(run("--home", home, "note", first["id"], "check the baselines", env=env))
    out, _ = search(home, env, "has:note")
    assert titles(out) == ["Graph Neural Networks for Molecules"]


def test_save_run_list_and_delete_searches(home: Path, env: dict[str, str]) -> None:
    out, err = search(home, env, "--save", "Flows", "flow", "matching")
    assert sorted(titles(out)) == ["Diffusion Samplers", "Flow Matching for Proteins"]
    assert err == "saved search 'Flows': flow matching\n"
    search(home, env, "--save", "gnn", "graph neural")
    out, _ = search(home, env, "--saved", "flows")  # names ignore case
    assert sorted(titles(out)) == ["Diffusion Samplers", "Flow Matching for Proteins"]
    out, _ = search(home, env, "--saved", "FLOWS", "proteins")  # words after narrow it
    assert titles(out) == ["Flow Matching for Proteins"]
    assert search(home, env, "--list-saved")[0] == "Flows  flow matching\ngnn    graph neural\n"
    listed = json.loads(search(home, env, "--list-saved", "--json")[0])
    assert listed == [
        {"name": "Flows", "query": "flow matching"},
        {"name": "gnn", "query": "graph neural"},
    ]
    search(home, env, "--save", "flows", "flow OR diffusion")  # replaced, in its place
    assert search(home, env, "--list-saved")[0].splitlines()[0] == "flows  flow OR diffusion"
    out, _ = search(home, env, "--delete-saved", "Flows")
    assert out == "deleted saved search 'flows': flow OR diffusion\n"
    assert search(home, env, "--list-saved")[0] == "gnn  graph neural\n"


def test_saved_search_errors_are_one_line(home: Path, env: dict[str, str]) -> None:
    missing = run("--home", home, "search", "--saved", "nope", env=env)
    assert missing.returncode == 1
    assert missing.stderr == "papers: error: no saved search is called 'nope' (saved: none yet)\n"
    assert run("--home", home, "search", "--delete-saved", "nope", env=env).returncode == 1
    for args in (["--list-saved", "extra"], [], ["--save", "x", "--saved", "y", "q"]):
        done = run("--home", home, "search", *args, env=env)
        assert done.returncode == 2 and done.stderr.count("\n") == 1, (args, done.stderr)
    empty = run("--home", home, "search", "--save", " ", "query", env=env)
    assert empty.returncode == 1 and "needs a name" in empty.stderr


@pytest.mark.parametrize(("what", "args"), [("name", ["a\x1bb", "q"]), ("query", ["n", "a\x1bb"])])
def test_a_control_character_in_a_saved_search_shows_as_everywhere(
    what: str, args: list[str], home: Path, env: dict[str, str]
) -> None:
    """``papers search --save $'a\\x1bb'`` said ``'a\\x1bb'``, Python's escape, where every
    other message shows ESC as ``␛``."""
    done = run("--home", home, "search", "--save", *args, env=env)
    assert done.returncode == 1
    assert done.stderr == f"papers: error: a search {what} cannot hold control characters: 'a␛b'\n"
