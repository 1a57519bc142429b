"""A venue as users paste it: its id with a trailing slash or spaces (copied from a browser's
address bar), the address of its page on openreview.net. Each names one venue and is fetched
as its id; another page of the site (a paper's forum) is one line saying what to give."""

from __future__ import annotations

import json

import pytest

from storage.fetch.errors import FetchError
from storage.fetch.names import wanted_sources
from tests.fetch import shapes
from tests.fetch.conftest import papers

ICLR25 = "ICLR.cc/2025/Conference"


@pytest.mark.parametrize(
    "word",
    [
        "openreview:ICLR.cc/2025/Conference/",
        "openreview:ICLR.cc/2025/Conference//  ",
        "openreview: ICLR.cc/2025/Conference/ ",
        "ICLR.cc/2025/Conference/",
        "https://openreview.net/group?id=ICLR.cc/2025/Conference",
        "https://openreview.net/group?id=ICLR.cc/2025/Conference/#tab-accept-oral",
        "https://openreview.net/group?id=ICLR.cc%2F2025%2FConference&referrer=%5BHomepage%5D(%2F)",
        "http://www.openreview.net/group/?id=ICLR.cc/2025/Conference",
        "openreview.net/group?id=ICLR.cc/2025/Conference",
        "HTTPS://OpenReview.net/group?id=ICLR.cc/2025/Conference",
        "openreview:https://openreview.net/group?id=ICLR.cc/2025/Conference",
        "https://openreview.net/submissions?venue=ICLR.cc%2F2025%2FConference",
    ],
)
def test_a_pasted_venue_is_its_venue_id(word: str) -> None:
    [wanted] = wanted_sources([word], {})
    assert (wanted.source, wanted.argument, wanted.said) == ("openreview", ICLR25, word.strip())


def test_a_short_name_of_the_config_with_a_trailing_slash() -> None:
    [wanted] = wanted_sources(["mine"], {"mine": "ICML.cc/2025/Workshop/FMSD/"})
    assert (wanted.source, wanted.argument) == ("openreview", "ICML.cc/2025/Workshop/FMSD")


@pytest.mark.parametrize(
    ("word", "said"),
    [
        ("https://openreview.net/forum?id=aBc123XyZ", "is no venue's page on OpenReview"),
        ("https://openreview.net/group?id=", "is no venue's page on OpenReview"),
        ("https://openreview.net/group?id=/", "is no venue's page on OpenReview"),  # no colon
        ("https://openreview.net/group?id=A.cc/2025&id=B.cc/2025", "is no venue's page"),
        ("openreview.net", "is no venue's page on OpenReview"),
        ("https://openreview.net/group?id=ICLR.cc/2025%1B[2J/Conference", "control characters"),
        ("openreview:/", "say what to fetch after the colon"),
        ("https://openreview.net/group?id=bad%20id", "is not a venue id"),
    ],
)
def test_what_names_no_venue_is_refused(word: str, said: str) -> None:
    with pytest.raises(FetchError, match=said):
        wanted_sources([word], {})


def test_a_venue_pasted_from_the_address_bar_is_fetched(services, env) -> None:
    """The address of the venue's page, and its id with a trailing slash (both refused as no
    venue id before), fetch the venue; with its short name beside them it is fetched once."""
    found, _ = services
    found.v2[ICLR25] = shapes.v2_venue(shapes.made_up(3, fate=""), ICLR25)
    pasted = ("https://openreview.net/group?id=ICLR.cc/2025/Conference#tab-accept-oral",)
    done = papers(env, "fetch", *pasted, "openreview:ICLR.cc/2025/Conference/", "iclr2025")
    assert done.returncode == 0, done.stderr
    assert "3 added" in done.stdout and "ICLR 2025 (OpenReview)" in done.stdout
    assert {r.query.get("content.venueid") for r in found.requests_to("/or2/notes")} == {ICLR25}
    assert len(found.requests_to("/or2/notes")) == 1
    listed = json.loads(papers(env, "list", "--json").stdout)
    assert {p["list"] for p in listed} == {"ICLR 2025 (OpenReview)"}


def test_a_papers_forum_is_one_line_saying_what_to_give(env) -> None:
    done = papers(env, "fetch", "https://openreview.net/forum?id=aBc123XyZ")
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr == (
        "papers: error: 'https://openreview.net/forum?id=aBc123XyZ' is no venue's page on "
        "OpenReview: give the venue's (https://openreview.net/group?id=ICLR.cc/2025/Conference) "
        "or its id\n"
    )


@pytest.mark.parametrize(
    ("word", "arxiv_id"),
    [
        ("https://arxiv.org/abs/2501.01234", "2501.01234"),
        ("https://arxiv.org/abs/2501.01234v2", "2501.01234v2"),
        ("arxiv.org/abs/2501.01234/", "2501.01234"),
        ("http://www.arxiv.org/pdf/2501.01234v1", "2501.01234v1"),
        ("https://arxiv.org/pdf/2501.01234.pdf", "2501.01234"),
        ("https://arxiv.org/pdf/2501.01234v3.pdf#page=2", "2501.01234v3"),
        ("https://export.arxiv.org/abs/hep-th/9901001", "hep-th/9901001"),
        ("https://arxiv.org/html/2501.01234v1", "2501.01234v1"),
        ("arxiv:https://arxiv.org/abs/2501.01234", "2501.01234"),
        ("https://arxiv.org/abs/2501.01234?context=cs.LG", "2501.01234"),
    ],
)
def test_a_pasted_arxiv_page_is_its_id(word: str, arxiv_id: str) -> None:
    """A paper's page on arXiv as the address bar shows it (its abstract, its PDF) names the
    paper, as a venue's page on openreview.net names the venue; it was refused as "not
    something to fetch"."""
    [wanted] = wanted_sources([word], {})
    assert (wanted.source, wanted.argument) == ("arxiv", arxiv_id)


def test_arxiv_pages_and_ids_are_one_fetch() -> None:
    words = ["https://arxiv.org/abs/2501.01234", "2406.00001", "arxiv.org/pdf/2406.00002v2"]
    [wanted] = wanted_sources(words, {})
    assert (wanted.source, wanted.argument) == ("arxiv", "2501.01234 2406.00001 2406.00002v2")


@pytest.mark.parametrize(
    "word", ["https://arxiv.org/abs/", "https://arxiv.org/list/cs.LG/recent", "arxiv.org"]
)
def test_an_arxiv_page_of_no_paper_is_refused(word: str) -> None:
    with pytest.raises(FetchError, match="is no paper's page on arXiv"):
        wanted_sources([word], {})


def test_a_pasted_arxiv_page_is_fetched(services, env) -> None:
    found, _ = services
    found.arxiv_ids["2501.01234"] = shapes.atom_entry(
        "2501.01234", "A pasted paper", "We show that pasting works. " * 5, ["Ann Author"]
    )
    done = papers(env, "fetch", "https://arxiv.org/abs/2501.01234")
    assert done.returncode == 0, done.stderr
    assert "1 added" in done.stdout
    [asked] = found.requests_to("/arxiv/query")
    assert asked.query["id_list"] == "2501.01234"


@pytest.mark.parametrize("word", ["ICLR'25", "ICLR '25", "ICLR’25", "iclr ’25", "ICLR'2025"])
def test_a_year_written_with_an_apostrophe(word: str) -> None:
    """``ICLR'25`` (and with a typographer's ’, as a PDF or a web page prints it) is how
    papers and talks name the venue; it was "not something to fetch"."""
    [wanted] = wanted_sources([word], {})
    assert (wanted.source, wanted.argument) == ("openreview", ICLR25)


def test_a_venue_id_in_the_wrong_case_is_named_as_spelt(services, env) -> None:
    """OpenReview's ids are case-sensitive: ``iclr.cc/2025/conference`` is no venue. The
    error named only the short names, not the id the user meant."""
    found, _ = services
    found.v2[ICLR25] = shapes.v2_venue(shapes.made_up(2, fate=""), ICLR25)
    done = papers(env, "fetch", "iclr.cc/2025/conference")
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr.count("\n") == 1
    assert "no venue iclr.cc/2025/conference on OpenReview" in done.stderr
    assert "ids are case-sensitive: did you mean ICLR.cc/2025/Conference?" in done.stderr


@pytest.mark.parametrize(
    "word",
    [
        "ICLR.cc/2025/Conference/-/Submission",
        "openreview:ICLR.cc/2025/Conference/-/Official_Review",
        "https://openreview.net/group?id=ICLR.cc/2025/Conference/-/Submission",
    ],
)
def test_an_invitation_id_names_its_venue(word: str) -> None:
    """An invitation's id (``…/Conference/-/Submission``, as OpenReview's API documentation
    and scripts write it) is its venue's id and ``/-/`` and the invitation's name; it was
    asked of OpenReview as a venue, "no venue ICLR.cc/2025/Conference/-/Submission"."""
    [wanted] = wanted_sources([word], {})
    assert (wanted.source, wanted.argument) == ("openreview", ICLR25)


@pytest.mark.parametrize(
    ("words", "venue"),
    [
        (["ICLR 2025 Conference"], ICLR25),  # as OpenReview's venue id words it
        (["ICLR 2025 conference"], ICLR25),
        (["iclr2025 Conference"], ICLR25),
        (["2025 ICLR"], ICLR25),  # the year first, as a folder or a slide names it
        (["2025-ICLR"], ICLR25),
        (["2025 ICLR Conference"], ICLR25),
        (["ICLR", "2025", "Conference"], ICLR25),  # as a shell splits them, unquoted
        (["2025", "ICLR"], ICLR25),
        (["2025", "ICLR", "Conference"], ICLR25),
        (["NeurIPS 2024 Conference"], "NeurIPS.cc/2024/Conference"),
        (["paperlists:2025 ICLR"], "iclr2025"),
        (["paperlists:ICLR 2025 Conference"], "iclr2025"),
    ],
)
def test_a_venue_named_as_users_type_it(words: list[str], venue: str) -> None:
    """Found on main: ``ICLR 2025 Conference`` and ``2025 ICLR`` were "not something to
    fetch"."""
    [wanted] = wanted_sources(words, {})
    assert wanted.argument == venue


@pytest.mark.parametrize(
    "words",
    [["Conference"], ["2025"], ["ICLR Conference"], ["2025 Conference"], ["2025 FOO"],
     ["ICLR 2025 Workshop"], ["Conference", "2025"]],
)  # fmt: skip
def test_words_that_name_no_venue_and_year_are_still_refused(words: list[str]) -> None:
    with pytest.raises(FetchError, match="is not something to fetch"):
        wanted_sources(words, {})


def test_a_venue_typed_with_its_year_first_and_conference_is_fetched(services, env) -> None:
    """``papers fetch ICLR 2025 Conference`` (unquoted: three words) and ``2025 ICLR``: one
    venue, fetched once."""
    found, _ = services
    found.v2[ICLR25] = shapes.v2_venue(shapes.made_up(2, fate=""), ICLR25)
    done = papers(env, "fetch", "ICLR", "2025", "Conference", "2025", "ICLR")
    assert done.returncode == 0, done.stderr
    assert "2 added" in done.stdout and len(found.requests_to("/or2/notes")) == 1
