"""Why a search found nothing (``storage/search/none_found.py``): a qualifier over a field no
paper of the library has, a part no paper matches, parts with no paper in common."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace

import pytest

from storage.models import Paper, Status
from storage.search import QUALIFIERS, SearchIndex
from storage.search.hits import Ranking


@dataclass
class PdfTexts:
    """The ``PdfTextSearch`` of a library whose PDFs hold no word looked for."""

    texts: bool

    def papers_with(self, value: str) -> Collection[str]:
        return set()

    def has_texts(self) -> bool:
        return self.texts


@dataclass
class Case:
    """A query no paper matches, the note when no paper has the field it reads, and a paper
    that has the field (though not the value asked), with the triage that gives it."""

    query: str
    note: str
    holder: Paper | None = None
    tags: Mapping[str, Sequence[str]] = field(default_factory=dict)


def paper(pid: str, title: str, **fields: object) -> Paper:
    return replace(Paper(pid, title, f"About {title.lower()}.", ("Ada Lovelace",)), **fields)


HOLDER = "h0"
CASES = {
    "is": Case("is:starred", "no paper in this library is starred"),
    "has": Case("has:code", "no paper in this library links code (a GitHub repository)"),
    "status": Case(
        "status:oral",
        "no paper in this library has a venue status, such as oral "
        "(`papers fetch VENUE` gives them)",
        paper(HOLDER, "Held", venue_status="Poster"),
    ),
    "author": Case("author:zzyzx", ""),
    "title": Case("title:zzyzx", ""),
    "abstract": Case("abstract:zzyzx", ""),
    "list": Case(
        "list:zzyzx",
        "no paper in this library is in a list",
        paper(HOLDER, "Held", lists=("ICLR",)),
    ),
    "tag": Case("tag:zzyzx", "no paper in this library has a tag", tags={"p1": ["other"]}),
    "rating": Case(
        "rating:>9",
        "no paper in this library has a rating (ratings come with `papers fetch VENUE --reviews`)",
        paper(HOLDER, "Held", extra=(("rating", 5.0),)),
    ),
    "citations": Case(
        "citations:>1000",
        "no paper in this library has a citation count (a list that gives them, as Scopus "
        "exports do)",
        paper(HOLDER, "Held", extra=(("citations", 3),)),
    ),
    "year": Case(
        "year:1990",
        "no paper in this library has a year (its reference's, or one in its venue's or "
        "list's name)",
        paper(HOLDER, "Held", extra=(("year", 2020),)),
    ),
    "venue": Case(
        "venue:zzyzx",
        "no paper in this library names a venue, journal, proceedings or publisher",
        paper(HOLDER, "Held", venue="Some Workshop"),
    ),
    "pdf": Case(
        "pdf:zzyzx",
        "no paper in this library has a downloaded PDF's text (`papers pdf` downloads them)",
    ),
    "area": Case(
        "area:zzyzx",
        "no paper in this library has a primary area (`papers fetch paperlists:VENUE` gives them)",
        paper(HOLDER, "Held", extra=(("area", "vision"),)),
    ),
}
PLAIN = [paper("p1", "Graph Networks"), paper("p2", "Flow Matching")]


def rank(index: SearchIndex, query: str, *, pdfs: bool = False, **triage: object) -> Ranking:
    return index.rank(query, pdf_text=PdfTexts(pdfs), **triage)  # type: ignore[arg-type]


def test_every_qualifier_is_asked() -> None:
    """A qualifier added to the registry gets its case here (and a note, if a library may
    have none of its field)."""
    assert set(CASES) == {kind.key for kind in QUALIFIERS}


@pytest.mark.parametrize("key", CASES)
def test_a_qualifier_over_a_field_no_paper_has_says_so(key: str) -> None:
    """``rating:>6`` in ICLR 2025's list (no ratings) found nothing and said nothing: a
    qualifier over a field no paper of the library has says so; once a paper has the field
    (not the value asked), it is the value no paper has, and nothing more is said."""
    case = CASES[key]
    index = SearchIndex(PLAIN)
    found = rank(index, case.query)
    assert found.ids == [] and found.searched == 2
    assert found.why_none == case.note
    # beside another part: what no paper has, else that no paper matches it
    alone = case.note or f"{case.query} matches no paper"
    assert rank(index, f"graph {case.query}").why_none == alone
    if case.holder is not None:
        index.add([case.holder])  # the library changed: asked again
        assert rank(index, case.query).why_none == ""
    elif case.tags:
        assert rank(index, case.query, tags=case.tags).why_none == ""
    elif key == "pdf":
        assert rank(index, case.query, pdfs=True).why_none == ""


def test_negated_it_keeps_every_paper_and_says_nothing() -> None:
    index = SearchIndex(PLAIN)
    found = rank(index, "-rating:>6")
    assert len(found) == 2 and found.why_none == "" and found.none_note("-rating:>6") == ""


def test_which_parts_rule_every_paper_out() -> None:
    """``status:oral has:code author:bengio`` found nothing and did not say that no oral
    paper is Bengio's: the first part no paper matches, else the first two with no paper in
    common, else that all of them together have none."""
    papers = [
        paper("a", "Oral With Code", venue_status="Oral", github=("https://github.com/a/b",)),
        paper("b", "Poster By Bengio", venue_status="Poster", authors=("Yoshua Bengio",)),
        paper("c", "Spotlight", venue_status="Spotlight", github=("https://github.com/c/d",)),
    ]
    index = SearchIndex(papers)
    said = {
        "status:oral has:code author:bengio": "none matches both status:oral (1 paper) and "
        "author:bengio (1 paper)",
        "graph status:oral": "'graph' matches no paper",
        "oral -oral": "none matches both 'oral' (1 paper) and -oral (2 papers)",
        # several words alone list the papers with them all: the papers with any not counted
        "oral code status:spotlight": "none matches both 'oral code' and status:spotlight "
        "(1 paper)",
        # a phrase's words may not be in a row: not counted
        'status:oral "bengio poster"': 'none matches both status:oral (1 paper) and "bengio '
        'poster"',
        "zzyzx": "",  # one part: nothing more to say than that none matches
    }
    for query, why in said.items():
        found = rank(index, query)
        assert found.ids == [] and found.why_none == why, query
    found = rank(index, "has:code -status:oral author:bengio")
    line = found.none_note("has:code -status:oral author:bengio")
    assert line == (
        "no paper matches 'has:code -status:oral author:bengio' (3 papers searched): "
        "none matches both has:code (2 papers) and author:bengio (1 paper)"
    )
    # each two have a paper in common, all three none
    papers = [
        paper("a", "One", venue_status="Oral", github=("https://github.com/a/b",)),
        paper("b", "Two", github=("https://github.com/c/d",), authors=("Yoshua Bengio",)),
        paper("c", "Three", venue_status="Oral", authors=("Yoshua Bengio",)),
    ]
    found = rank(SearchIndex(papers), "status:oral has:code author:bengio")
    assert found.why_none == (
        "none matches all of status:oral, has:code and author:bengio, though each two of them "
        "have papers in common"
    )


def test_a_state_or_note_no_paper_has() -> None:
    index = SearchIndex(PLAIN)
    statuses = {"p1": Status.READ}
    assert rank(index, "is:read", statuses=statuses).ids == ["p1"]
    assert rank(index, "is:skipped", statuses=statuses).why_none == (
        "no paper in this library is skipped"
    )
    assert rank(index, "has:note graph").why_none == "no paper in this library has a note"
    assert rank(index, "has:note graph", notes={"p2": "read it"}).why_none == (
        "none matches both 'graph' (1 paper) and has:note (1 paper)"
    )
