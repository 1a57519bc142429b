"""The qualifier registry: each qualifier declared once, and every help text made from it."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from storage.models import Paper
from storage.search import QUALIFIERS, SearchIndex, parse_query, search_hint
from storage.search import qualifiers as registry
from storage.search.qualifiers import (
    QualifierKind,
    qualifier_help,
    qualifier_markdown,
)
from tui.cli import build_parser

ROOT = Path(__file__).resolve().parents[2]
README_BLOCK = re.compile(r"<!-- qualifiers -->\n(.*?)\n<!-- /qualifiers -->", re.DOTALL)


def test_readme_lists_the_registry() -> None:
    """The README's qualifier list is ``qualifier_markdown()``, between its markers."""
    found = README_BLOCK.search((ROOT / "README.md").read_text(encoding="utf-8"))
    assert found, "README.md: no <!-- qualifiers --> … <!-- /qualifiers --> block"
    assert found.group(1) == qualifier_markdown(), (
        "README.md's qualifier list drifted from storage/search/qualifiers.py: paste in "
        "storage.search.qualifier_markdown()"
    )


def test_cli_search_help_lists_every_qualifier(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "80")  # the help is as wide as the terminal: 78 here
    with pytest.raises(SystemExit) as done:
        build_parser().parse_args(["search", "--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert qualifier_help() in out
    for kind in QUALIFIERS:
        assert f"  {kind.syntax} " in out, kind.key
        assert kind.example in out, kind.key


def test_search_hint_is_one_line_with_the_hinted_qualifiers() -> None:
    hint = search_hint()
    assert "\n" not in hint
    assert len(hint) < 100  # it fits the search box of an 80-column-wide app, after its key
    for kind in QUALIFIERS:
        if kind.hint:
            assert kind.hint in hint


def test_the_registry_is_complete_and_its_examples_parse() -> None:
    keys = [kind.key for kind in QUALIFIERS]
    assert len(keys) == len(set(keys))
    assert set(keys) == registry.QUALIFIER_KEYS
    for kind in QUALIFIERS:
        assert kind.key == kind.key.lower() and kind.help and kind.syntax.startswith(kind.key)
        query = parse_query(f"{kind.example} -{kind.example}")
        assert [(q.key, q.negated) for q in query.qualifiers] == [
            (kind.key, False),
            (kind.key, True),
        ], kind.key
        assert not query.words, kind.key


def test_reading_the_registry_loads_no_numerical_library() -> None:
    """The CLI's help and the app's hint read the registry before any search: no numpy."""
    code = (
        "import sys, storage.search; storage.search.qualifier_help(); "
        "storage.search.parse_query('is:starred'); "
        "print(sorted(m for m in ('numpy', 'rapidfuzz') if m in sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert done.stdout.strip() == "[]"


def test_a_qualifier_declared_once_parses_and_filters(monkeypatch: pytest.MonkeyPatch) -> None:
    """One entry is enough: parsing and filtering find a new qualifier in the registry."""
    keyword = QualifierKind(
        key="keyword",
        value="WORD",
        help="one of the paper's keywords starts with WORD",
        example="keyword:graphs",
        select=lambda facts, q: facts.where(
            lambda paper: any(k.lower().startswith(q.value) for k in paper.keywords)
        ),
    )
    monkeypatch.setitem(registry._BY_KEY, "keyword", keyword)
    papers = [
        Paper(id="a", title="Graph curvature", abstract="ricci flow", keywords=("Graphs",)),
        Paper(id="b", title="Graph sampling", abstract="random walks", keywords=("Sampling",)),
    ]
    index = SearchIndex(papers)
    assert [h.paper_id for h in index.search("keyword:graph")] == ["a"]
    assert [h.paper_id for h in index.search("graph -keyword:graph")] == ["b"]


def test_year_and_venue_from_the_reference_fields() -> None:
    from storage.models import Paper
    from storage.search import SearchIndex

    papers = [
        Paper(id="a" * 12, title="Graph sampling one", abstract="Sampling graphs.",
              extra=(("year", 2021), ("journal", "Nature Machine Intelligence"))),
        Paper(id="b" * 12, title="Graph sampling two", abstract="Sampling graphs again.",
              venue="ICLR 2025", list="iclr2025"),
        Paper(id="c" * 12, title="Graph sampling three", abstract="Sampling graphs thrice.",
              extra=(("publisher", "MIT Press"),)),
    ]  # fmt: skip
    index = SearchIndex(papers)

    def found(query: str) -> list[str]:
        return sorted(index.rank(query, limit=None).ids)

    assert found("year:>=2024") == ["b" * 12]  # the venue's year
    assert found("year:2021 graph") == ["a" * 12]  # the reference's year
    assert found("venue:nature") == ["a" * 12]
    assert found("venue:iclr") == ["b" * 12]
    assert found("venue:mit") == ["c" * 12]


def test_a_range_typed_backwards_is_the_same_range() -> None:
    """``year:2025..2020`` found nothing, without a word: a range is its two bounds in any
    order."""
    from storage.models import Paper
    from storage.search import SearchIndex

    papers = [
        Paper(id="a" * 12, title="Graph one", abstract="Sampling graphs.",
              extra=(("year", 2021), ("rating", 6.5))),
        Paper(id="b" * 12, title="Graph two", abstract="Sampling graphs again.",
              extra=(("year", 2019), ("rating", 3.0))),
    ]  # fmt: skip
    index = SearchIndex(papers)
    for query, wanted in (("year:2025..2020", ["a" * 12]), ("rating:7..5", ["a" * 12])):
        assert sorted(index.rank(query, limit=None).ids) == wanted, query


def test_a_note_gives_examples_of_the_numbers_its_qualifier_takes() -> None:
    """``year:abc`` was said to take ">6, >=6.5, <4, 5..7 or 6", a rating's examples."""
    from storage.search.query import parse_query

    assert parse_query("year:abc").unread == (
        "year:abc is read as words (year: takes a year: >=2024, <2020, 2020..2024 or 2025)",
    )
    assert parse_query("citations:many").unread == (
        "citations:many is read as words (citations: takes a number: >100, <10, 10..50 or 0)",
    )


def test_an_or_beside_a_qualifier_is_said_to_join_nothing() -> None:
    """``status:oral OR status:spotlight`` wanted both statuses (no paper has), silently."""
    from storage.search.query import OR_QUALIFIER_NOTE, parse_query

    for query in ("status:oral OR status:spotlight", "diffusion OR is:starred", "is:read OR x"):
        assert parse_query(query).unread == (OR_QUALIFIER_NOTE,), query
    for query in ("diffusion OR flow", "is:starred diffusion OR flow", "a OR b is:read"):
        assert parse_query(query).unread == (), query


def test_an_is_value_of_two_states_is_said() -> None:
    """``is:s`` found the skipped and the starred papers together, as if it named one state."""
    query = parse_query("is:s diffusion")
    assert query.qualifiers == ()
    assert query.unread == ("is:s is read as words (is: takes inbox, read, skipped or starred)",)
    typed = parse_query("is:s")  # on its way to is:starred: not said while being typed
    assert typed.unread_typing and typed.unread_notes(typed=True) == ()
    assert [q.value for q in parse_query("is:st is:sk").qualifiers] == ["st", "sk"]


@pytest.mark.parametrize("kind", QUALIFIERS, ids=lambda kind: kind.key)
def test_a_qualifier_with_no_value_says_what_it_takes(kind: QualifierKind) -> None:
    """``graph is:`` said nothing in the app's box while ``is:`` ended it, and only "is:
    without a value filters nothing (is:VALUE, no space)" from ``papers search``: not which
    values ``is:`` takes, as ``is:skiped`` says them. Each key with values to say (``takes``)
    says them at once, and once settled; a key that takes any name says its ``NAME``."""
    typing = parse_query(f"graph {kind.key}:")
    settled = parse_query(f"graph {kind.key}: more")
    assert parse_query(f'graph {kind.key}:"" more').unread == settled.unread
    assert typing.unread == settled.unread and len(settled.unread) == 1
    (note,) = settled.unread
    said = f"{kind.key}: without a value filters nothing ({kind.key}:{kind.value}, no space"
    if kind.takes:
        assert note == f"{said}; {kind.key}: takes {kind.takes})"
        assert typing.unread_notes(typed=True) == (f"{kind.key}: takes {kind.takes}",)
    else:  # any name: nothing more to say, nor while it is being typed
        assert note == f"{said})"
        assert typing.unread_notes(typed=True) == ()
