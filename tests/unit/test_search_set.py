"""A search result is a set: papers with every word, else the closest; OR, field scoping,
``has:note``, words that do not narrow, and saved searches."""

from __future__ import annotations

import threading
from pathlib import Path

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from storage.errors import DamagedFileError, NewerFileError
from storage.files.saved_searches import SEARCHES_FILE, SavedSearch, SavedSearches, SearchNameError
from storage.search import SearchIndex, parse_query
from storage.search.matching import COMMON_MIN_PAPERS, FUNCTION_WORDS
from storage.search.query import Term
from tests.unit.test_search import (
    ATLAS,
    ATLAS_WORDS,
    CORPUS,
    FLOW_APART,
    GPT,
    KALEIDOSCOPE_ABSTRACT,
    KALEIDOSCOPE_TITLE,
    MIXTURE,
    MONTE_CARLO,
    ORW,
    PARASOLVER,
    RICCI,
    RICCI_ONLY,
    SAMPLER,
    paper,
)


@pytest.fixture(scope="module")
def index() -> SearchIndex:
    return SearchIndex(CORPUS)


def ids(index: SearchIndex, query: str, **kwargs: object) -> list[str]:
    return index.rank(query, limit=None, **kwargs).ids  # type: ignore[arg-type]


# --------------------------------------------------------------------------- the set


def test_every_word_is_needed(index: SearchIndex) -> None:
    assert ids(index, "ricci curvature") == [RICCI.id]  # RICCI_ONLY has "ricci" alone
    assert set(ids(index, "ricci")) == {RICCI.id, RICCI_ONLY.id}
    ranking = index.rank("difusion samplr ", limit=None)  # typos still match, as they rank
    assert ranking.ids == [SAMPLER.id, MONTE_CARLO.id]
    # while typed, "samplr" is also a slip of the start of "sampling" (PARASOLVER's abstract)
    typed = index.rank("difusion samplr", limit=None).ids
    assert typed[0] == SAMPLER.id and set(typed) == {SAMPLER.id, MONTE_CARLO.id, PARASOLVER.id}
    assert ranking.partial is None and ranking.partial_note() == ""


def test_no_paper_with_every_word_gives_the_closest(index: SearchIndex) -> None:
    ranking = index.rank("ricci curvature flow zebra", limit=None)
    assert ranking.ids == [RICCI.id]  # 3 of 4; RICCI_ONLY (1 of 4) is not among the closest
    assert ranking.partial == (3, 4)
    assert ranking.partial_note() == "no paper has all 4 words; showing those with 3 of 4"
    two = index.rank("kaleidoscope zebra", limit=None)
    assert set(two.ids) == {KALEIDOSCOPE_TITLE.id, KALEIDOSCOPE_ABSTRACT.id}
    assert two.partial_note() == "no paper has both words; showing those with 1 of 2"
    assert index.rank("zebra quagga", limit=None).ids == []  # none of the words: nothing


def test_filters_stay_hard_under_a_partial_match(index: SearchIndex) -> None:
    statuses = {RICCI_ONLY.id: "starred"}
    ranking = index.rank("is:starred ricci curvature", limit=None, statuses=statuses)
    assert ranking.ids == [RICCI_ONLY.id] and ranking.partial == (1, 2)
    assert index.rank('"flow matching" zebra', limit=None).ids == []  # a phrase is a filter


def test_the_ranking_inside_the_set_is_the_any_word_ranking(index: SearchIndex) -> None:
    """The set keeps the order the papers had when every paper with any word was listed."""
    ranking = index.rank("diffusion sampler", limit=None)
    scores = [ranking.hit(i).score for i in range(len(ranking))]
    assert scores == sorted(scores, reverse=True)
    assert ranking.ids == [SAMPLER.id, MONTE_CARLO.id]  # title beats abstract, as before


WORDS = ["diffusion", "ricci", "flow", "atlas", "samplr", "models", "curvature", "matching"]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(words=st.lists(st.sampled_from(WORDS), min_size=1, max_size=3, unique=True))
def test_the_set_is_the_papers_each_word_finds(words: list[str]) -> None:
    """A paper is listed when each word alone finds it (words typed whole: a space after)."""
    index = SearchIndex(CORPUS)
    each = [set(ids(index, f"{word} ")) for word in words]
    ranking = index.rank(" ".join(words) + " ", limit=None)
    every = set.intersection(*each)
    if every:
        assert set(ranking.ids) == every and ranking.partial is None
    else:
        assert ranking.partial is not None
        matched, of = ranking.partial
        assert of == len(words) and 0 < matched < of
        for pid in ranking.ids:
            assert sum(pid in found for found in each) == matched


# --------------------------------------------------------------------------- common words


def test_function_words_do_not_narrow(index: SearchIndex) -> None:
    assert "the" in FUNCTION_WORDS and "of" in FUNCTION_WORDS
    assert "the" not in ATLAS.title.lower() + ATLAS.abstract.lower()
    ranking = index.rank("the atlas of vision models", limit=None)
    assert ranking.ids[0] == ATLAS.id and ranking.partial is None
    assert ids(index, "ricci of curvature") == [RICCI.id]
    # alone, they are what the query asks for
    the = set(ids(index, "the "))
    assert MIXTURE.id in the and ATLAS.id not in the


def test_a_word_in_most_papers_narrows_nothing_in_a_large_library() -> None:
    common = [
        paper(f"Topic {i} model", f"A model of topic number {i}.", pid=f"p{i:03}")
        for i in range(COMMON_MIN_PAPERS)
    ]
    rare = paper("Quokka census", "Counting quokkas on an island.", pid="quokka")
    index = SearchIndex([*common, rare])
    ranking = index.rank("quokka model", limit=None)
    assert ranking.ids == ["quokka"] and ranking.partial is None  # "model": 100 of 101 papers
    small = SearchIndex([*common[:5], rare])  # in a handful of papers it is a word like any
    assert small.rank("quokka model", limit=None).partial == (1, 2)


def test_a_query_of_common_words_only_needs_them_all(index: SearchIndex) -> None:
    both = set(ids(index, "of the "))
    assert both and all(
        {"of", "the"} <= set(p.title.lower().split() + p.abstract.lower().split())
        for p in CORPUS
        if p.id in both
    )


# --------------------------------------------------------------------------- OR


def test_or_joins_two_terms(index: SearchIndex) -> None:
    found = set(ids(index, "parasolver OR kaleidoscope"))
    assert found == {PARASOLVER.id, KALEIDOSCOPE_TITLE.id, KALEIDOSCOPE_ABSTRACT.id}
    assert index.rank("parasolver OR kaleidoscope", limit=None).partial is None
    # lower-case "or" is a word: no paper has both words
    assert index.rank("parasolver or kaleidoscope", limit=None).partial == (1, 2)


def test_or_binds_the_terms_next_to_it(index: SearchIndex) -> None:
    # (ricci OR kaleidoscope) AND embeddings
    assert ids(index, "ricci OR kaleidoscope embeddings") == [
        KALEIDOSCOPE_TITLE.id,
        KALEIDOSCOPE_ABSTRACT.id,
    ]
    assert set(ids(index, "atlas OR ricci OR gpt-4o")) == {
        ATLAS.id,
        ATLAS_WORDS.id,
        RICCI.id,
        RICCI_ONLY.id,
        GPT.id,
    }


def test_or_with_a_phrase(index: SearchIndex) -> None:
    found = ids(index, '"flow matching" OR kaleidoscope')
    assert set(found) == {ORW.id, KALEIDOSCOPE_TITLE.id, KALEIDOSCOPE_ABSTRACT.id}
    assert FLOW_APART.id not in found  # its words are there, not in a row


def test_or_while_typing(index: SearchIndex) -> None:
    assert ids(index, "diffusion OR") == ids(index, "diffusion")  # nothing joined yet
    assert KALEIDOSCOPE_TITLE.id in ids(index, "parasolver OR kalei")


def test_or_parsing() -> None:
    query = parse_query('graph/neural OR gnn "flow matching" OR diffusion -x OR y')
    assert query.words == ("graph", "neural", "gnn", "diffusion", "y")
    assert query.phrases == ("flow matching",)
    assert query.either == (
        (Term(words=(0, 1)), Term(words=(2,))),
        (Term(phrase=0), Term(words=(3,))),
    )
    assert parse_query("a OR b OR c").either == ((Term((0,)), Term((1,)), Term((2,))),)
    assert parse_query("OR a").either == () and parse_query("a or b").words == ("a", "or", "b")
    assert parse_query("a OR is:starred b").either == ()


# --------------------------------------------------------------------------- title: and abstract:


def test_title_and_abstract_scoping(index: SearchIndex) -> None:
    assert ids(index, "title:kaleidoscope") == [KALEIDOSCOPE_TITLE.id]
    assert ids(index, "abstract:kaleidoscope") == [KALEIDOSCOPE_ABSTRACT.id]
    assert ids(index, "title:kaleidoscpe") == [KALEIDOSCOPE_TITLE.id]  # a typo
    assert ids(index, "title:kaleido") == [KALEIDOSCOPE_TITLE.id]  # a prefix
    assert KALEIDOSCOPE_TITLE.id not in ids(index, "-title:kaleidoscope")
    assert ids(index, "title:kaleidoscope embeddings") == [KALEIDOSCOPE_TITLE.id]


def test_title_phrase_wants_the_words_in_a_row_in_the_title(index: SearchIndex) -> None:
    assert ids(index, 'title:"flow matching"') == [ORW.id]
    assert ids(index, 'title:"graph matching"') == [FLOW_APART.id]
    assert ids(index, 'abstract:"flow matching"') == [ORW.id]
    assert ids(index, 'abstract:"diffusion sampler"') == [MONTE_CARLO.id]
    assert ids(index, 'title:"diffusion sampler"') == [SAMPLER.id]
    assert ids(index, 'title:"sampler diffusion"') == []


def test_scoped_words_are_marked_in_their_field_only(index: SearchIndex) -> None:
    ranking = index.rank("title:atlas", limit=None)
    assert set(ranking.ids) == {ATLAS.id, ATLAS_WORDS.id}
    hit = ranking.hit(ranking.ids.index(ATLAS_WORDS.id))
    assert "atlas" in hit.fields["title"]
    assert "atlas" not in hit.fields.get("abstract", frozenset())
    negated = index.rank("atlas -title:ricci", limit=None).hit(0)
    assert "ricci" not in negated.matched
    segments = SearchIndex(CORPUS[: CORPUS.index(ATLAS_WORDS)])  # ATLAS in the first segment
    segments.add(CORPUS[CORPUS.index(ATLAS_WORDS) :])  # ATLAS_WORDS in the second
    by_id = {h.paper_id: h for h in segments.search("atlas", limit=None)}
    assert "atlas" in by_id[ATLAS_WORDS.id].fields["abstract"]  # each segment its own fields
    by_id = {h.paper_id: h for h in segments.search("title:atlas", limit=None)}
    assert "abstract" not in by_id[ATLAS_WORDS.id].fields


# --------------------------------------------------------------------------- has:note


def test_has_note(index: SearchIndex) -> None:
    notes = {ATLAS.id: "read the map section", GPT.id: "  ", "unknown-id": "x"}
    assert ids(index, "has:note", notes=notes) == [ATLAS.id]  # a blank note is none
    assert ids(index, "has:notes", notes={GPT.id}) == [GPT.id]
    assert ids(index, "vision has:n", notes=notes) == [ATLAS.id]
    assert ATLAS.id not in ids(index, "-has:note", notes=notes)
    assert ids(index, "has:note") == []
    assert ids(index, "has:code") == [PARASOLVER.id, RICCI.id]


# --------------------------------------------------------------------------- saved searches


def test_saved_searches_round_trip(tmp_path: Path) -> None:
    searches = SavedSearches(tmp_path)
    assert searches.all() == []
    searches.save("Diffusion", "diffusion OR flow matching")
    searches.save("graphs", "  graph   neural network ")
    assert searches.all() == [
        SavedSearch("Diffusion", "diffusion OR flow matching"),
        SavedSearch("graphs", "graph neural network"),
    ]
    searches.save("diffusion", "diffusion -video")  # same name, any case: replaced in place
    again = SavedSearches(tmp_path)  # another process, say
    assert [(s.name, s.query) for s in again.all()] == [
        ("diffusion", "diffusion -video"),
        ("graphs", "graph neural network"),
    ]
    assert again.get("GRAPHS") == SavedSearch("graphs", "graph neural network")
    assert again.get("nope") is None
    assert again.delete("Graphs") and not again.delete("graphs")
    assert [s.name for s in searches.all()] == ["diffusion"]
    document = orjson.loads((tmp_path / SEARCHES_FILE).read_bytes())
    assert document == {
        "format": 1,
        "searches": [{"name": "diffusion", "query": "diffusion -video"}],
    }


def test_a_deleted_search_is_restored_in_its_place_unless_saved_again(tmp_path: Path) -> None:
    searches = SavedSearches(tmp_path)
    for name in ("a", "b", "c"):
        searches.save(name, name + "query")
    gone = searches.get("b")
    assert gone is not None and searches.delete("b")
    assert searches.restore(gone, 1)
    assert [s.name for s in searches.all()] == ["a", "b", "c"]
    searches.delete("b")
    searches.save("B", "newer")  # saved again since: the newer one stays
    assert not searches.restore(gone, 1)
    assert [(s.name, s.query) for s in searches.all()] == [
        ("a", "aquery"),
        ("c", "cquery"),
        ("B", "newer"),
    ]


def test_saved_search_names_and_queries_are_checked(tmp_path: Path) -> None:
    searches = SavedSearches(tmp_path)
    for name, query in [("", "x"), ("  ", "x"), ("ok", " "), ("bad\x1bname", "x"), ("n" * 61, "x")]:
        with pytest.raises(SearchNameError):
            searches.save(name, query)
    with pytest.raises(SearchNameError, match="none yet"):
        searches.find("missing")
    assert not (tmp_path / SEARCHES_FILE).exists()


def test_a_damaged_or_newer_file_is_left_as_it_is(tmp_path: Path) -> None:
    path = tmp_path / SEARCHES_FILE
    path.write_text("{not json")
    with pytest.raises(DamagedFileError):
        SavedSearches(tmp_path).save("x", "y")
    assert path.read_text() == "{not json"
    path.write_text('{"format": 1, "searches": [{"name": 3}]}')
    with pytest.raises(DamagedFileError):
        SavedSearches(tmp_path).all()
    path.write_text('{"format": 99, "searches": []}')
    with pytest.raises(NewerFileError):
        SavedSearches(tmp_path).all()


def test_saves_from_two_threads_all_survive(tmp_path: Path) -> None:
    searches = SavedSearches(tmp_path)

    def save(start: int) -> None:
        for i in range(start, start + 10):
            searches.save(f"s{i:02}", f"query {i}")

    threads = [threading.Thread(target=save, args=(n,)) for n in (0, 10)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(s.name for s in searches.all()) == [f"s{i:02}" for i in range(20)]
