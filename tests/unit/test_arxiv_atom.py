"""The arXiv API Atom reader: a saved feed is papers, not a paper titled ``<?xml``."""

from __future__ import annotations

from pathlib import Path

import pytest

from storage.errors import SourceError
from storage.sources.arxiv_atom import ARXIV_ATOM, parse_feed
from storage.sources.registry import READERS, read_source, reader_for
from tests.fetch import shapes


def _feed(n: int = 2) -> str:
    entries = [
        shapes.atom_entry(
            f"2502.0000{i}", f"Title {i}", f"An abstract about transformers number {i}, at length.",
            ["Ann Lee", "Bob Smith"], ("stat.ML", "cs.LG"), comment="Code: https://github.com/a/b",
            doi="10.1/x" if i else "", journal="NeurIPS 2024" if i else "", version=2,
        )
        for i in range(n)
    ]  # fmt: skip
    return shapes.atom_feed(entries, total=40, start=10, per_page=n)


def test_the_reader_is_registered_and_picked_by_content(tmp_path: Path) -> None:
    assert ARXIV_ATOM in READERS
    path = tmp_path / "query.txt"  # the name says nothing: the text does
    path.write_text(_feed())
    assert reader_for(path.read_text(), path) is ARXIV_ATOM
    result = read_source(path)
    assert [r.title for r in result.records] == ["Title 0", "Title 1"]


def test_entries_become_records_with_ids_categories_links_and_dates() -> None:
    feed = parse_feed(_feed(), "feed", "feed")
    assert (feed.total, feed.start, feed.per_page, feed.entries) == (40, 10, 2, 2)
    first, second = feed.result.records
    assert first.authors == ("Ann Lee", "Bob Smith") and first.keywords == ("stat.ML", "cs.LG")
    assert first.url == "https://arxiv.org/abs/2502.00000"
    extra = dict(first.extra)
    assert extra["eprint"] == "2502.00000" and extra["date"] == "2025-01-02"
    assert extra["pdf"] == "https://arxiv.org/pdf/2502.00000v2" and extra["affiliations"] == "MIT"
    assert first.github == ("https://github.com/a/b",)
    assert dict(second.extra)["doi"] == "10.1/x" and second.venue.startswith("NeurIPS 2024")


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (shapes.atom_error("malformed id"), "arXiv answered with an error: malformed id"),
        ('<?xml version="1.0"?><!DOCTYPE feed [<!ENTITY a "aaaa">]><feed/>', "declares a DTD"),
        # past a prolog longer than what is sniffed (it was looked for in the first 64 KB)
        pytest.param(
            '<?xml version="1.0"?>\n<!--' + "x" * 100_000 + '-->\n<!DOCTYPE feed [<!ENTITY a "a">]>'
            "<feed xmlns='http://www.w3.org/2005/Atom'>&a;</feed>",
            "declares a DTD",
            id="dtd-after-a-long-prolog",
        ),
        ("<feed xmlns='http://www.w3.org/2005/Atom'><entry>", "not a well-formed Atom feed"),
        ("<rss><channel/></rss>", "not an Atom feed"),
    ],
)
def test_what_is_no_feed_is_refused_in_one_line(text: str, said: str) -> None:
    with pytest.raises(SourceError) as caught:
        parse_feed(text, "feed.xml", "feed")
    assert said in str(caught.value) and "\n" not in str(caught.value)


def test_an_empty_entry_is_a_record_error_not_a_failure() -> None:
    entries = [
        shapes.atom_entry("2502.00001", "", "", []),  # no title, no abstract
        shapes.atom_entry("2502.00002", "Fine", "An abstract long enough to be one.", ["A"]),
    ]
    text = shapes.atom_feed(entries, total=2)
    feed = parse_feed(text, "feed", "feed")
    assert len(feed.result.records) == 1 and len(feed.result.errors) == 1


def test_author_names_typed_in_tex_are_kept_in_unicode() -> None:
    """arXiv gives names as their authors typed them (``J{\\"o}rg M{\\"u}ller``): the
    library keeps what they read as, which every export then writes as its format wants."""
    entry = shapes.atom_entry(
        "2502.00003", "Fine", "An abstract long enough to be one.",
        ['J{\\"o}rg M{\\"u}ller', "Fran\\c{c}ois Fleuret", "Ann Lee"],
    )  # fmt: skip
    [record] = parse_feed(shapes.atom_feed([entry], total=1), "feed", "feed").result.records
    assert record.authors == ("Jörg Müller", "François Fleuret", "Ann Lee")


def test_a_withdrawn_paper_is_withdrawn() -> None:
    """arXiv keeps a withdrawn paper with a last version of one line, its comment "This paper
    has been withdrawn by the author": it came as an ordinary paper, with no status."""
    entries = [
        shapes.atom_entry(
            "2502.00001", "Withdrawn Work", "This paper has been withdrawn by the author due to "
            "a crucial error in Lemma 2.", ["Ann Lee"], ("cs.LG",),
            comment="This paper has been withdrawn",
        ),
        shapes.atom_entry(
            "2502.00002", "Kept Work", "An abstract about a method that was never withdrawn, "
            "long enough to be one.", ["Bo Park"], ("cs.LG",), comment="10 pages",
        ),
    ]  # fmt: skip
    withdrawn, kept = parse_feed(shapes.atom_feed(entries, total=2), "f", "f").result.records
    assert (withdrawn.venue_status, kept.venue_status) == ("Withdrawn", "")
