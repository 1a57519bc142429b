"""SearchIndex: ranking, typos and prefixes, qualifiers, highlights, updates, and real relevance."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchmarks.corpus import load_real_papers, relevance_queries
from storage.models import Paper, Status
from storage.search import (
    Query,
    SearchIndex,
    max_typos,
    parse_query,
    tokenize,
)
from storage.text.highlight import highlight_spans

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"


def paper(
    title: str,
    abstract: str,
    *,
    authors: tuple[str, ...] = (),
    github: tuple[str, ...] = (),
    venue_status: str = "Poster",
    lists: tuple[str, ...] = ("ICLR 2025",),
    name: str = "",
    pid: str = "",
) -> Paper:
    """A paper with an id derived from its abstract."""
    return Paper(
        id=pid or hashlib.sha1(abstract.encode()).hexdigest()[:12],
        title=title,
        abstract=abstract,
        authors=authors,
        github=github,
        venue_status=venue_status,
        list=lists[0],
        lists=lists,
        name=name,
    )


PARASOLVER = paper(
    "ParaSolver: A Hierarchical Parallel Integral Solver for Diffusion Models",
    "We solve the sampling of diffusion models in parallel with a hierarchical integral solver.",
    authors=("Jianrong Lu", "Zhiyu Zhu"),
    github=("https://github.com/example/parasolver",),
    venue_status="Spotlight",
)
SAMPLER = paper(
    "Learned Reference-based Diffusion Sampler for multi-modal distributions",
    "Sampling from multi-modal distributions is hard; we learn a reference process.",
    authors=("Maxence Noble", "Alain Durmus"),
    venue_status="Oral",
)
MONTE_CARLO = paper(
    "Efficient Monte Carlo Estimation for Bayesian Inference",
    "We propose a diffusion sampler and compare the diffusion sampler with Langevin dynamics, "
    "showing that a diffusion sampler is a good sampler.",
    authors=("Ana Diaz",),
)
RICCI = paper(
    "Graph Neural Ricci Flow: Evolving Feature from a Curvature Perspective",
    "Ricci curvature of graphs guides message passing; we study its flow.",
    authors=("Jialong Chen", "Yoshua Bengio"),
    github=("https://github.com/example/ricci",),
    venue_status="Oral",
    lists=("ICLR 2025", "Reading group"),
)
RICCI_ONLY = paper(
    "Ricci Ricci Ricci: Discrete Geometry Notes",
    "Ricci tensors, Ricci solitons and more Ricci identities for discrete spaces.",
    authors=("Olivier Bengio-Martin",),
)
ORW = paper(
    "Online Reward-Weighted Fine-Tuning of Flow Matching with Wasserstein Regularization",
    "We introduce ORW-CFM-W2, an online reward-weighted conditional flow matching method.",
    authors=("Jiajun Fan",),
    lists=("Reading group",),
)
FLOW_APART = paper(
    "Flow of Ideas in Graph Matching Competitions",
    "A flow network is used for matching nodes; no generative modelling here.",
)
MIXTURE = paper(
    "Be More Diverse than the Most Diverse: Optimal Mixtures of Generative Models",
    "We propose Mixture-UCB, a bandit algorithm selecting a mixture of generative models.",
)
GPT = paper(
    "Judging Judges: GPT-4o as an Evaluator of Open-Ended Answers",
    "We measure how GPT-4o agrees with human raters on open-ended answers.",
)
ATLAS = paper(
    "Atlas: Mapping Representations of Vision Models",
    "A map of what vision models encode.",
)
ATLAS_WORDS = paper(
    "An Atlas of Atlases for Atlas Construction",
    "Atlas construction with atlas registration of atlas images: atlas atlas atlas.",
)
KALEIDOSCOPE_TITLE = paper(
    "Kaleidoscope Embeddings for Symmetric Data",
    "Embeddings for data with symmetry.",
)
KALEIDOSCOPE_ABSTRACT = paper(
    "Symmetric Representation Learning",
    "A kaleidoscope view: kaleidoscope groups give kaleidoscope embeddings of symmetric data.",
)

CORPUS = [
    PARASOLVER,
    SAMPLER,
    MONTE_CARLO,
    RICCI,
    RICCI_ONLY,
    ORW,
    FLOW_APART,
    MIXTURE,
    GPT,
    ATLAS,
    ATLAS_WORDS,
    KALEIDOSCOPE_TITLE,
    KALEIDOSCOPE_ABSTRACT,
]
BY_ID = {p.id: p for p in CORPUS}


@pytest.fixture(scope="module")
def index() -> SearchIndex:
    return SearchIndex(CORPUS)


def ids(hits: list) -> list[str]:
    return [h.paper_id for h in hits]


def top(index: SearchIndex, query: str, **kwargs: object) -> str:
    hits = index.search(query, **kwargs)  # type: ignore[arg-type]
    assert hits, f"no hit for {query!r}"
    return hits[0].paper_id


# --------------------------------------------------------------------------- words


def test_corpus_ids_are_unique() -> None:
    assert len(BY_ID) == len(CORPUS)


def test_tokenize_normalises_and_keeps_compounds() -> None:
    words = tokenize("ORW-CFM-W2 and GPT‑4o on Ｆｉｎｅ ﬁles, Schölkopf {$\\tau$}-bench")
    for expected in ("orw", "cfm", "w2", "orwcfmw2", "gpt", "4o", "gpt4o", "fine", "files"):
        assert expected in words
    assert "scholkopf" in words
    assert "taubench" in words and "tau" in words and "bench" in words


def test_typo_budget_grows_with_length() -> None:
    assert [max_typos(w) for w in ("gan", "flow", "sampler", "difusion")] == [0, 1, 1, 2]


def test_exact_word(index: SearchIndex) -> None:
    assert top(index, "parasolver") == PARASOLVER.id


@pytest.mark.parametrize("query", ["difusion samplr", "diffusoin sampler", "Diffusion Sampler"])
def test_typos_find_the_title(index: SearchIndex, query: str) -> None:
    assert top(index, query) == SAMPLER.id


def test_short_words_need_exact_spelling(index: SearchIndex) -> None:
    assert index.search("gpy") == []  # 3 letters: no typo allowed (gpt would be one edit away)


@pytest.mark.parametrize("typed", ["para", "paras", "parasol", "parasolv"])
def test_prefix_while_typing(index: SearchIndex, typed: str) -> None:
    assert top(index, typed) == PARASOLVER.id


def test_prefix_of_last_word_among_others(index: SearchIndex) -> None:
    assert top(index, "ricci curv") == RICCI.id


def test_title_beats_abstract(index: SearchIndex) -> None:
    hits = ids(index.search("kaleidoscope"))
    assert hits[:2] == [KALEIDOSCOPE_TITLE.id, KALEIDOSCOPE_ABSTRACT.id]
    sampler_hits = ids(index.search("diffusion sampler"))
    assert sampler_hits.index(SAMPLER.id) < sampler_hits.index(MONTE_CARLO.id)


def test_all_words_beat_some(index: SearchIndex) -> None:
    hits = ids(index.search("ricci curvature flow"))
    assert hits[0] == RICCI.id
    # A paper with some of the words is no match while one has them all (issue 14: a result
    # is the set of papers with every word); it was listed after RICCI before.
    assert RICCI_ONLY.id not in hits


def test_name_match_ranks_first(index: SearchIndex) -> None:
    assert top(index, "atlas") == ATLAS.id
    assert top(index, "atlsa") == ATLAS.id  # a typo of the name


def test_words_in_title_order_rank_first(index: SearchIndex) -> None:
    assert top(index, "flow matching") == ORW.id  # title phrase beats "Flow of … Matching"


def test_quoted_phrase_is_required(index: SearchIndex) -> None:
    hits = ids(index.search('"flow matching"', limit=None))
    assert ORW.id in hits
    assert FLOW_APART.id not in hits


def test_open_quote_matches_while_typing(index: SearchIndex) -> None:
    assert ORW.id in ids(index.search('"flow match', limit=None))
    assert FLOW_APART.id not in ids(index.search('"flow match', limit=None))


@pytest.mark.parametrize("query", ["orw-cfm-w2", "orwcfmw2", "ORW-CFM-W2", "cfm w2"])
def test_hyphenated_names(index: SearchIndex, query: str) -> None:
    assert top(index, query) == ORW.id


@pytest.mark.parametrize("query", ["gpt-4o", "gpt4o", "GPT-4o judges"])
def test_gpt_4o(index: SearchIndex, query: str) -> None:
    assert top(index, query) == GPT.id


def test_mixture_ucb(index: SearchIndex) -> None:
    assert top(index, "mixture-ucb") == MIXTURE.id
    assert top(index, "mixtureucb") == MIXTURE.id


# --------------------------------------------------------------------------- qualifiers

STATUSES: dict[str, Status] = {
    PARASOLVER.id: Status.STARRED,
    RICCI.id: Status.STARRED,
    SAMPLER.id: Status.READ,
    ORW.id: Status.SKIPPED,
}


def in_list_order(hits: list) -> bool:
    order = {p.id: i for i, p in enumerate(CORPUS)}
    positions = [order[h.paper_id] for h in hits]
    return positions == sorted(positions)


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("is:starred", {PARASOLVER.id, RICCI.id}),
        ("is:star", {PARASOLVER.id, RICCI.id}),
        ("is:read", {SAMPLER.id}),
        ("is:skipped", {ORW.id}),
        ("is:skip", {ORW.id}),
        ("is:inbox", {p.id for p in CORPUS} - set(STATUSES)),
    ],
)
def test_is_qualifiers(index: SearchIndex, query: str, expected: set[str]) -> None:
    hits = index.search(query, limit=None, statuses=STATUSES)
    assert set(ids(hits)) == expected
    assert in_list_order(hits)
    assert all(h.score == 0.0 for h in hits)


def test_is_without_statuses_means_inbox(index: SearchIndex) -> None:
    assert len(index.search("is:inbox", limit=None)) == len(CORPUS)
    assert index.search("is:starred", limit=None) == []


def test_status_strings_are_accepted(index: SearchIndex) -> None:
    hits = index.search("is:starred", limit=None, statuses={RICCI.id: "starred"})
    assert ids(hits) == [RICCI.id]


def test_has_code(index: SearchIndex) -> None:
    hits = index.search("has:code", limit=None)
    assert set(ids(hits)) == {PARASOLVER.id, RICCI.id}


def test_a_ranking_of_filters_alone_says_it_is_in_list_order(index: SearchIndex) -> None:
    """No word ranks the papers of ``has:code``: a list with its own order (the reading
    queue) keeps it for them; words rank."""
    assert index.rank("has:code", limit=None).listed
    assert not index.rank("has:code sampler", limit=None).listed


def test_a_ranking_joined_by_a_narrower_one_keeps_its_order_and_words(
    index: SearchIndex,
) -> None:
    """The best of a library, then the papers of a narrower search past them (the app's
    decided papers past its 5,000 best), each hit with the words its own search matched."""
    best = index.rank("sampler", limit=1)
    more = index.rank("sampler", limit=None)
    joined = best.joined(more)
    assert len(more.ids) > 1 and joined.ids == more.ids and joined.ids[0] == best.ids[0]
    assert [h.matched for h in joined.hits()] == [h.matched for h in more.hits()]
    assert joined.joined_more and not best.joined_more


@pytest.mark.parametrize("value", ["oral", "ORAL", "Or"])
def test_status_qualifier(index: SearchIndex, value: str) -> None:
    hits = index.search(f"status:{value}", limit=None)
    assert set(ids(hits)) == {SAMPLER.id, RICCI.id}


def test_status_spotlight_prefix(index: SearchIndex) -> None:
    assert ids(index.search("status:spot", limit=None)) == [PARASOLVER.id]


@pytest.mark.parametrize("value", ["accepted", "Accepted", "accept"])
def test_status_accepted_is_every_status_of_an_accepted_paper(value: str) -> None:
    """A venue fetched with ``--all`` names no paper "accepted": its accepted papers are Oral,
    Spotlight or Poster (Accepted when the note names none). ``status:accepted`` found none of
    them, the first filter a researcher types to drop the rejected ones."""
    statuses = ["Oral", "Spotlight", "Poster", "Accepted", "Rejected", "Desk rejected",
                "Withdrawn", "Under review", "Decision pending", "Workshop", ""]  # fmt: skip
    papers = [
        paper(f"Paper {i}", f"A study number {i} of sampling.", venue_status=s, pid=f"p{i}")
        for i, s in enumerate(statuses)
    ]
    index = SearchIndex(papers)
    accepted = {f"p{i}" for i in range(4)}
    assert set(ids(index.search(f"status:{value}", limit=None))) == accepted
    rest = set(ids(index.search(f"-status:{value}", limit=None)))
    assert rest == {p.id for p in papers} - accepted


@pytest.mark.parametrize(
    ("value", "found"),
    [
        ("rejected", {"p1", "p2"}),
        ("reject", {"p1", "p2"}),
        ("desk", {"p2"}),
        ("oral", {"p0", "p4"}),
        ("poster", {"p3", "p5"}),
        ('"desk rejected"', {"p2"}),
        ("ejected", set()),
    ],
)
def test_status_takes_a_statuss_words_from_their_start(value: str, found: set[str]) -> None:
    """``status:rejected`` missed "Desk rejected" (and ``-status:rejected`` kept them), and
    ``status:oral`` missed "Accept (Oral)": the value had to start the whole status."""
    statuses = ["Oral", "Rejected", "Desk rejected", "Poster", "Accept (Oral)",
                "ICLR 2024 poster", "Withdrawn"]  # fmt: skip
    papers = [
        paper(f"Paper {i}", f"A study number {i} of sampling.", venue_status=s, pid=f"p{i}")
        for i, s in enumerate(statuses)
    ]
    index = SearchIndex(papers)
    assert set(ids(index.search(f"status:{value}", limit=None))) == found
    rest = set(ids(index.search(f"-status:{value}", limit=None)))
    assert rest == {p.id for p in papers} - found


def test_status_finds_a_decision_a_library_stored_in_older_words() -> None:
    """A library imported before kept a Paper Copilot file's "Withdraw", "Reject", "Desk
    Reject" and "Active" as written: ``status:withdrawn`` and ``status:rejected`` missed them.
    The index reads them as today's import names them (``storage.sources.decisions``)."""
    statuses = ["Withdraw", "Reject", "Desk Reject", "Active", "Poster", "Interactive"]
    papers = [
        paper(f"Paper {i}", f"A study number {i} of sampling.", venue_status=s, pid=f"p{i}")
        for i, s in enumerate(statuses)
    ]
    index = SearchIndex(papers)

    def found(query: str) -> set[str]:
        return set(ids(index.search(query, limit=None)))

    assert found("status:withdrawn") == {"p0"}
    assert found("status:rejected") == {"p1", "p2"}
    assert found('status:"desk rejected"') == {"p2"}
    assert found('status:"under review"') == {"p3"}
    assert found("status:withdraw") == {"p0"}  # the old word still finds it
    assert found("status:accepted") == {"p4", "p5"}
    assert [p.venue_status for p in papers] == statuses  # the stored words are left as they are


@pytest.mark.parametrize(
    "query", ["author:bengio", "author:Bengio", "author:bengoi", "author:beng"]
)
def test_author_qualifier(index: SearchIndex, query: str) -> None:
    hits = index.search(query, limit=None)
    assert set(ids(hits)) == {RICCI.id, RICCI_ONLY.id}
    ricci = next(h for h in hits if h.paper_id == RICCI.id)
    assert ricci.fields["authors"] == frozenset({"bengio"})


def test_an_author_named_whole_finds_that_name() -> None:
    """A name is no word of prose: "kang" found Wang, Yang and Tang (a typo away), "chen"
    Cheng and "li" Liu (their starts), beside the Kangs, Chens and Lis. A name given whole
    finds that name; a start finds its completions only when no name is that word, a typo
    only when none begins so; an initial is a start."""
    names = ["Min Kang", "Wei Wang", "Lei Tang", "Jia Cheng", "Hao Chen", "Yang Li", "Bo Liu",
             "Yanghao Li", "Yoshua Bengio", "Kangwook Lee"]  # fmt: skip
    papers = [
        paper(f"Paper {n}", f"Abstract number {n} about nothing in particular at all.",
              authors=(name,), pid=f"{n:012d}")
        for n, name in enumerate(names)
    ]  # fmt: skip
    index = SearchIndex(papers)

    def found(query: str) -> set[str]:
        return {names[int(h.paper_id)] for h in index.search(query, limit=None)}

    assert found("author:kang") == {"Min Kang"}
    assert found("author:chen") == {"Hao Chen"}
    assert found('author:"yang li"') == {"Yang Li"}
    assert found("author:kangw") == {"Kangwook Lee"}  # a start: its completions
    assert found("author:bengoi") == {"Yoshua Bengio"}  # no name begins so: a typo away
    assert found('author:"y bengio"') == {"Yoshua Bengio"}  # an initial


def test_author_full_name(index: SearchIndex) -> None:
    assert ids(index.search('author:"yoshua bengio"', limit=None)) == [RICCI.id]
    assert ids(index.search("author:yoshua-bengio", limit=None)) == [RICCI.id]
    assert index.search('author:"jialong bengio"', limit=None) == []  # two different authors


def test_author_prefix(index: SearchIndex) -> None:
    assert ids(index.search("author:jia", limit=None)) == [PARASOLVER.id, RICCI.id, ORW.id]


def test_list_qualifier(index: SearchIndex) -> None:
    assert ids(index.search("list:reading", limit=None)) == [RICCI.id, ORW.id]
    assert ids(index.search("list:GROUP wasserstein", limit=None)) == [ORW.id]


def test_tag_qualifier(index: SearchIndex) -> None:
    tags = {ATLAS.id: ["todo", "vision"], GPT.id: ["Todo-later"]}
    hits = index.search("tag:todo", limit=None, tags=tags)
    assert ids(hits) == [GPT.id, ATLAS.id]
    assert ids(index.search("tag:vision", limit=None, tags=tags)) == [ATLAS.id]
    assert index.search("tag:todo", limit=None) == []
    # a tag typed with its space ("to read" is kept as "to-read"): found as it was written
    kept = {ATLAS.id: ["to-read"]}
    assert ids(index.search('tag:"to read"', limit=None, tags=kept)) == [ATLAS.id]
    # the pane writes a tag #name, and #name typed as a tag is name: tag:#vision asks for it
    assert ids(index.search("tag:#vision", limit=None, tags=tags)) == [ATLAS.id]


def test_qualifiers_combine_with_text(index: SearchIndex) -> None:
    hits = index.search("is:starred has:code diffusion", limit=None, statuses=STATUSES)
    assert ids(hits) == [PARASOLVER.id]
    hits = index.search("is:starred curvature", limit=None, statuses=STATUSES)
    assert ids(hits) == [RICCI.id]


def test_negated_qualifier(index: SearchIndex) -> None:
    hits = index.search("-is:starred -has:code", limit=None, statuses=STATUSES)
    assert PARASOLVER.id not in ids(hits) and RICCI.id not in ids(hits)
    assert len(hits) == len(CORPUS) - 2


def test_exclusion(index: SearchIndex) -> None:
    hits = ids(index.search("diffusion -parallel", limit=None))
    assert SAMPLER.id in hits and MONTE_CARLO.id in hits
    assert PARASOLVER.id not in hits
    only_excluded = ids(index.search("-ricci", limit=None))
    assert RICCI.id not in only_excluded and RICCI_ONLY.id not in only_excluded
    assert len(only_excluded) == len(CORPUS) - 2


def test_excluding_a_compound_and_a_phrase(index: SearchIndex) -> None:
    assert ORW.id not in ids(index.search("flow -orw-cfm-w2", limit=None))
    hits = ids(index.search('flow -"flow matching"', limit=None))
    assert ORW.id not in hits and FLOW_APART.id in hits


def test_an_excluded_word_leaves_out_its_plural_or_singular_as_a_word_matches_both() -> None:
    """``diffusion -model`` listed the papers about diffusion "models": a word of a search
    matches its plural or singular, and leaving it out leaves out both."""
    singular = paper("A diffusion model", "One diffusion model for images, trained once.")
    plural = paper("Diffusion models", "Many diffusion models for video, sampled fast.")
    neither = paper("Diffusion sampling", "A sampler for diffusion, faster than before.")
    gas = paper("Diffusion in a gas", "How heat spreads through a gas by diffusion.")
    index = SearchIndex([singular, plural, neither, gas])
    for text in ("diffusion -model", "diffusion -models", "-model"):
        assert set(ids(index.search(text, limit=None))) == {neither.id, gas.id}, text
    assert ids(index.search("diffusion -gas", limit=None)) == ids(
        index.search("diffusion -gas -ga", limit=None)
    )
    assert gas.id not in ids(index.search("diffusion -gas", limit=None))
    compound = paper("A state-space model", "Statespaces and a state-space model for text.")
    index = SearchIndex([compound, neither])
    assert ids(index.search("-state-spaces", limit=None)) == [neither.id]


def test_a_word_a_line_end_broke_at_its_hyphen_is_found_whole() -> None:
    """An abstract copied from a PDF's columns breaks words at a line's end (``at-⏎tention``,
    ``mod-⏎els``: 93 of them in the real ICLR 2025 list): ``attention`` missed the paper, which
    only ever wrote it so; now the index reads it as ``at-tention``, the parts and the whole."""
    broken = paper("Sparse heads", "We prune at-\ntention heads of lan-\r\n  guage mod-\nels.")
    other = paper("Dense heads", "A study of heads in convolutional nets, pruned and grown.")
    index = SearchIndex([broken, other])
    for text in ("attention", "language models", "models"):
        assert ids(index.search(text, limit=None)) == [broken.id], text
    apart = tokenize("A gap -\nthen a dash; a line ends in a hyphen-\n\nA new paragraph.")
    assert "gapthen" not in apart and "hyphena" not in apart and "hyphen" in apart


def test_unknown_qualifier_is_free_text(index: SearchIndex) -> None:
    assert top(index, "ricci:curvature") == RICCI.id
    assert parse_query("foo:bar").words == ("foo", "bar")


def test_a_value_a_qualifier_does_not_take_is_words_with_a_note() -> None:
    query = parse_query("is:skiped rating:>x -has:pdf diffusion foo:bar title:")
    assert query.words == ("is", "skiped", "rating", "x", "diffusion", "foo", "bar")
    assert query.unread == (
        "is:skiped is read as words (is: takes inbox, read, skipped or starred)",
        "rating:>x is read as words (rating: takes a number: >6, >=6.5, <4, 5..7 or 6)",
        "has:pdf is read as words (has: takes code or note)",
        "title: without a value filters nothing (title:WORD, no space; title: takes a word)",
    )
    assert query.unread_typing  # title: ends the text: it may be being typed, and says how
    assert query.unread_notes(typed=True) == (*query.unread[:-1], "title: takes a word")
    # a prefix of a value, and a key whose every value is one, need no note
    assert parse_query("is:st has:n author:x venue:??").unread == ()
    # a number still being typed: the app leaves it out until it is one
    for text in ("diffusion rating:>", "year:>=", "rating:5..", "citations:10..", "year:-"):
        typing = parse_query(text)
        assert typing.unread_typing and typing.unread_notes(typed=True) == (), text
        assert len(typing.unread_notes()) == 1
    for text in ("rating:>x", "rating:> diffusion", "is:skiped", "year:1..2..3"):
        assert not parse_query(text).unread_typing, text


def test_a_lone_dash_and_an_empty_qualifier_are_said_to_do_nothing() -> None:
    """`-` alone and `author:` with nothing after it did nothing, and said nothing."""
    dash = "a lone - leaves nothing out (-word, no space)"
    empty = "author: without a value filters nothing (author:NAME, no space)"
    query = parse_query("diffusion - video author: smith")
    assert query.words == ("diffusion", "video", "smith") and not query.excluded
    assert query.unread == (dash, empty) and not query.unread_typing
    for text, note in (("diffusion -", dash), ("diffusion author:", empty)):
        typing = parse_query(text)  # may be "-video", "author:smith" being typed
        assert typing.unread == (note,) and typing.unread_notes(typed=True) == (), text
    assert parse_query('author:"" x').unread == (empty,)
    for text in ("-video", "state-of-the-art", "a-b", 'x -"a phrase"', "author:smith"):
        assert parse_query(text).unread == (), text


def test_only_qualifiers_keep_list_order_and_limit(index: SearchIndex) -> None:
    hits = index.search("", limit=None)
    assert ids(hits) == [p.id for p in CORPUS]
    assert ids(index.search("-nothingsuchword", limit=3)) == [p.id for p in CORPUS[:3]]
    assert index.search("diffusion", limit=0) == []


# --------------------------------------------------------------------------- parsing


def test_parse_query() -> None:
    query = parse_query(
        'Difusion  -image "Flow Matching" is:star author:"Y. Bengio" -has:code samp'
    )
    assert query.words == ("difusion", "samp")
    assert query.excluded == ("image",)
    assert query.phrases == ("flow matching",)
    assert [(q.key, q.value, q.negated) for q in query.qualifiers] == [
        ("is", "star", False),
        ("author", "y. bengio", False),
        ("has", "code", True),
    ]
    assert query.typing
    assert not parse_query("sampler ").typing
    assert parse_query('"open phr').open_phrase
    assert parse_query("is:").is_empty  # a qualifier being typed filters nothing yet
    assert parse_query("is:nonsense").words == ("is", "nonsense")
    assert parse_query("ORW-CFM-W2").words == ("orw-cfm-w2",)
    assert parse_query("") == Query()


# --------------------------------------------------------------------------- highlights


def test_hits_say_which_words_matched_where(index: SearchIndex) -> None:
    hit = index.search("difusion samplr")[0]
    assert hit.paper_id == SAMPLER.id
    assert {"diffusion", "sampler"} <= hit.fields["title"]
    assert hit.matched == frozenset().union(*hit.fields.values())
    assert index.highlight_terms(hit) == hit.matched
    spans = highlight_spans(SAMPLER.title, hit.fields["title"])
    assert [SAMPLER.title[a:b] for a, b in spans] == ["Diffusion", "Sampler"]


def test_highlights_of_compounds_and_names(index: SearchIndex) -> None:
    hit = index.search("orwcfmw2")[0]
    assert hit.fields["abstract"] == frozenset({"orwcfmw2"})
    spans = highlight_spans(ORW.abstract, hit.matched)
    assert [ORW.abstract[a:b] for a, b in spans] == ["ORW-CFM-W2"]
    hit = index.search("parasolver")[0]
    assert {"title", "name", "abstract"} <= set(hit.fields) or {"title", "name"} <= set(hit.fields)
    assert [PARASOLVER.title[a:b] for a, b in highlight_spans(PARASOLVER.title, hit.matched)] == [
        "ParaSolver"
    ]


def test_hits_are_read_only_and_explained_when_read(index: SearchIndex) -> None:
    hits = index.search("models", limit=None)
    assert len(hits) >= 3
    with pytest.raises(AttributeError):
        hits[0].paper_id = "x"  # type: ignore[misc]
    for hit in hits:
        p = BY_ID[hit.paper_id]
        words = set(tokenize(p.title, camel_case=True)) | set(tokenize(p.abstract))
        assert hit.matched and hit.matched <= words
    assert hits == index.search("models", limit=None)


def test_hits_keep_their_words_after_an_add() -> None:
    index = SearchIndex(CORPUS)
    hits = index.search("ricci curvature", limit=None)
    index.add([Paper(id=RICCI.id, title="Renamed", abstract="Nothing here.")] + CORPUS[:3])
    assert hits[0].paper_id == RICCI.id
    assert hits[0].fields["title"] == frozenset({"ricci", "curvature"})


def test_highlight_spans_of_camel_case_parts() -> None:
    assert highlight_spans("ParaSolver rocks", {"solver"}) == [(4, 10)]
    assert highlight_spans("nothing here", set()) == []


def test_matched_words_are_in_the_paper(index: SearchIndex) -> None:
    for query in ("difusion samplr", "ricci curv", "flow", "atlas", "gpt-4o"):
        for hit in index.search(query, limit=None):
            p = BY_ID[hit.paper_id]
            text_words = set(tokenize(p.title, camel_case=True)) | set(tokenize(p.abstract))
            text_words |= set(tokenize(" ".join(p.authors)))
            assert hit.matched <= text_words, (query, hit)


# --------------------------------------------------------------------------- updates


def test_add_appends_and_replaces() -> None:
    index = SearchIndex(CORPUS[:-2])
    assert index.search("kaleidoscope") == []
    index.add(CORPUS[-2:])
    assert top(index, "kaleidoscope") == KALEIDOSCOPE_TITLE.id
    revised = Paper(
        id=ATLAS.id, title="Cartography of Vision Models", abstract=ATLAS.abstract, name=""
    )
    index.add([revised])
    assert ATLAS.id not in ids(index.search("atlas", limit=None))
    assert top(index, "cartography") == ATLAS.id
    assert len(index) == len(CORPUS)
    assert [p.id for p in index.papers()] == [p.id for p in CORPUS]  # replaced keeps its place
    assert index.paper(ATLAS.id) == revised


def test_incremental_matches_fresh_build() -> None:
    incremental = SearchIndex(CORPUS[:4])
    for one in CORPUS[4:]:  # one segment per add, compacted when there are too many
        incremental.add([one])
    incremental.add([CORPUS[3], CORPUS[5]])  # re-index unchanged papers
    fresh = SearchIndex(CORPUS)
    for query in ("difusion samplr", "ricci", "flow matching", "atlas", "", "has:code"):
        assert ids(incremental.search(query, limit=None)) == ids(fresh.search(query, limit=None))


def test_empty_index() -> None:
    assert SearchIndex([]).search("anything") == []
    assert SearchIndex([]).search("") == []


# --------------------------------------------------------------------------- properties

WORDS = ["diffusion", "ricci", "flow", "atlas", "samplr", "gpt-4o", "bengio", "orw", "x", ""]
QUALIFIERS = ["is:starred", "is:inbox", "-is:read", "has:code", "status:oral", "list:reading"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.text(max_size=60))
def test_no_text_raises(text: str) -> None:
    index = SearchIndex(CORPUS)
    index.search(text, limit=5, statuses=STATUSES, tags={ATLAS.id: ["todo"]})
    index.search(text, limit=None)


def allowed(p: Paper, status: Status, key: str, value: str) -> bool:
    """What a qualifier means, written out plainly."""
    if key == "is":
        return status.value.startswith(value) or (value == "star" and status == Status.STARRED)
    if key == "has":
        return bool(p.github)
    if key == "status":
        return any(w.startswith(value) for w in re.findall(r"\w+", p.venue_status.lower()))
    return any(value in x.lower() for x in p.lists)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    words=st.lists(st.sampled_from(WORDS), max_size=3),
    excluded=st.lists(st.sampled_from(["diffusion", "ricci", "flow", "models"]), max_size=2),
    qualifiers=st.lists(st.sampled_from(QUALIFIERS), max_size=2),
    noise=st.text(alphabet=' -":abc', max_size=6),
)
def test_results_respect_filters(
    words: list[str], excluded: list[str], qualifiers: list[str], noise: str
) -> None:
    index = SearchIndex(CORPUS)
    text = " ".join(words + [f"-{w}" for w in excluded] + qualifiers) + " " + noise
    query = parse_query(text)
    for hit in index.search(text, limit=None, statuses=STATUSES):
        p = BY_ID[hit.paper_id]
        words_of = set(tokenize(p.title, camel_case=True)) | set(tokenize(p.abstract))
        words_of |= set(tokenize(p.name)) | set(tokenize(" ".join(p.authors)))
        for word in query.excluded:
            assert word.replace("-", "") not in words_of, (text, p.title)
        status = STATUSES.get(p.id, Status.INBOX)
        for q in query.qualifiers:
            ok = allowed(p, status, q.key, q.value)
            assert ok != q.negated, (text, p.title, q)


# --------------------------------------------------------------------------- real relevance


@pytest.mark.skipif(
    not (DATA / "iclr2025.jsonl").is_file(), reason="real data ../shared/data/iclr2025.jsonl absent"
)
def test_relevance_on_the_real_list() -> None:
    papers = load_real_papers(DATA)
    assert papers is not None
    index = SearchIndex(papers)
    queries = relevance_queries(papers, seed=0)
    assert len(queries) >= 300
    ranks = []
    for query in queries:
        found = ids(index.search(query.text, limit=100))
        ranks.append(found.index(query.target) + 1 if query.target in found else 0)
    mrr = sum(1 / r for r in ranks if r) / len(ranks)
    top5 = sum(1 for r in ranks if 0 < r <= 5) / len(ranks)
    assert mrr >= 0.90, f"MRR {mrr:.3f}"
    assert top5 >= 0.97, f"top-5 {top5:.3f}"


@pytest.mark.parametrize("query", ["ricci curvature", "graph", "is:inbox", "zzzz"])
def test_a_ranking_holds_the_same_papers_as_the_hits(index: SearchIndex, query: str) -> None:
    """``rank`` is ``search`` without making every hit: the same papers, the same hits."""
    hits = index.search(query, limit=None)
    ranking = index.rank(query, limit=None)
    assert ranking.ids == ids(hits) and len(ranking) == len(hits)
    assert ranking.hits() == hits
    for row in range(len(hits)):
        assert ranking.hit(row) == hits[row]
        assert ranking.hit(row).matched == hits[row].matched


def test_a_word_the_library_has_comes_before_its_typos() -> None:
    """ "bert": titles and abstracts with "best" (Best-of-N, a typo away) came before the
    papers about BERT, by a title's weight over an abstract's, and a typo's title got the
    in-order title bonus as the word would."""
    papers = [
        paper(f"Best-of-N {topic}", f"We keep the best of {topic} answers, the best one.")
        for topic in ("sampling", "alignment", "distillation", "decoding", "search", "arms")
    ]
    papers += [paper(f"Filler {n}", f"Unrelated words about graphs number {n}.") for n in range(30)]
    about = paper("Distilling encoders", "We distill BERT into a smaller encoder for retrieval.")
    index = SearchIndex([*papers, about])
    for typed in ("bert ", "bert"):  # done, and while typing
        assert ids(index.search(typed, limit=None))[0] == about.id, typed


def test_a_word_finds_its_plural_wherever_it_stands() -> None:
    """ "llm reasoning" missed the "LLMs" papers that "reasoning llm" found: only the last
    word, still being typed, was a prefix, and a word of three letters has no typo."""
    papers = [
        paper("Teaching smaller LLMs to deliberate", "Reasoning with small models, step by step."),
        paper("An LLM that plans", "Reasoning about plans with a single model."),
        paper("Graph kernels", "Reasoning about graphs without any language model."),
    ]
    index = SearchIndex(papers)
    first = set(ids(index.search("llm reasoning", limit=None)))
    assert first == set(ids(index.search("reasoning llm", limit=None)))
    assert first == {papers[0].id, papers[1].id}
