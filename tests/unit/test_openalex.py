"""OpenAlex's works (``storage.sources.openalex``): a page of ``/works?filter=…``, one work of
``/works/W…``, the snapshot's JSON Lines. The generic JSON reader kept only their titles (with
their HTML), links and dates: no authors, no abstract, no venue, no PDF, no keywords, no year
when only ``publication_year`` gave it.

``tests/fixtures/real_exports/README.md`` says where the fixture's shape comes from.
"""

from __future__ import annotations

import json
from pathlib import Path

from storage.sources.records import SourceRecord
from storage.sources.registry import read_source
from tests.cli.test_cli import make_env, run

PAGE = Path(__file__).resolve().parents[1] / "fixtures" / "real_exports" / "openalex_works.json"


def _extra(record: SourceRecord) -> dict[str, object]:
    return dict(record.extra)


def _works() -> list[dict[str, object]]:
    works: list[dict[str, object]] = json.loads(PAGE.read_text(encoding="utf-8"))["results"]
    return works


def test_a_page_of_works_gives_their_authors_abstracts_venues_and_links() -> None:
    result = read_source(PAGE)
    assert not result.errors and result.list_name == "openalex_works"
    oa, routing, gyrase = result.records
    assert oa.authors == ("Heather Piwowar", "Jason Priem", "Stefanie Haustein")
    assert oa.abstract == (
        "Despite growing interest in Open Access (OA), we measure it in three samples."
    )
    assert oa.keywords == ("Open access", "Citation advantage")
    assert oa.url == "https://doi.org/10.7717/peerj.4375" and oa.venue == "PeerJ 2018"
    assert _extra(oa) | {"date": None} == {
        "doi": "10.7717/peerj.4375",  # bare, as the other readers keep it
        "year": 2018,
        "month": 2,
        "date": None,
        "journal": "PeerJ",
        "entry_type": "article",
        "citations": 947,
        "pdf": "http://127.0.0.1:9/articles/4375.pdf",
    }
    # a preprint: its arXiv page gives its id; arXiv keeps a copy, it is no venue
    assert routing.authors == ("Ann Lee", "Bo Chen")  # an author of null: its raw name
    assert (_extra(routing)["eprint"], _extra(routing)["archiveprefix"]) == ("2307.09288", "arXiv")
    assert routing.venue == "" and "journal" not in _extra(routing)
    assert routing.url == "https://arxiv.org/abs/2307.09288" and "pdf" not in _extra(routing)
    assert routing.github == ("https://github.com/annlee/sparse_routing",)
    # HTML in the title, null abstract, source, DOI, keywords: the year publication_year says
    assert gyrase.title == "Structure of E. coli DNA gyrase bound to H₂O"
    assert (gyrase.abstract, gyrase.venue, gyrase.authors) == ("", "", ("Ann Lee",))
    assert _extra(gyrase)["year"] == 2015 and gyrase.url == "http://127.0.0.1:9/gyrase"


def test_one_work_and_the_snapshots_lines_are_works(tmp_path: Path) -> None:
    oa, routing, gyrase = _works()
    one = tmp_path / "W2741809807.json"  # /works/W2741809807
    one.write_text(json.dumps(oa), encoding="utf-8")
    (record,) = read_source(one).records
    assert record.authors[0] == "Heather Piwowar" and record.abstract.startswith("Despite")
    lines = tmp_path / "part_000.jsonl"  # the snapshot: a work a line
    lines.write_text("".join(json.dumps(w) + "\n" for w in (gyrase, routing)), encoding="utf-8")
    result = read_source(lines)
    assert [r.title for r in result.records] == [
        "Structure of E. coli DNA gyrase bound to H₂O",
        "Sparse Routing for Mixtures of Experts",
    ]
    assert result.records[1].authors == ("Ann Lee", "Bo Chen")
    assert _extra(result.records[0])["year"] == 2015


def test_a_pdf_is_open_access_url_only_when_it_names_a_pdf(tmp_path: Path) -> None:
    oa, _, _ = _works()
    bare = {k: v for k, v in oa.items() if k not in ("primary_location", "best_oa_location")}
    as_pdf = {**bare, "open_access": {"oa_url": "http://127.0.0.1:9/a/x.PDF?download=1"}}
    page_only = {"oa_url": "http://127.0.0.1:9/a"}
    as_page = {**bare, "id": "https://openalex.org/W2", "open_access": page_only}
    path = tmp_path / "works.json"
    path.write_text(json.dumps([as_pdf, as_page]), encoding="utf-8")
    pdf, page = read_source(path).records
    assert _extra(pdf)["pdf"] == "http://127.0.0.1:9/a/x.PDF?download=1"
    assert "pdf" not in _extra(page)


def test_hostile_works_are_one_line_each_and_the_rest_come_in(tmp_path: Path) -> None:
    oa, routing, gyrase = _works()
    huge = list(range(20_000))
    bad = [
        {**oa, "abstract_inverted_index": {"word": ["zero"]}},  # a position that is no int
        {**oa, "id": "https://openalex.org/W3", "abstract_inverted_index": {"w": huge}},
        {**oa, "id": "https://openalex.org/W4", "abstract_inverted_index": ["not", "a", "map"]},
        {**oa, "id": "https://openalex.org/W5", "abstract_inverted_index": {"w": [True]}},
        routing,
        routing,  # the same work again
        None,
        {
            "id": "https://openalex.org/W6",
            "title": "Nulls everywhere",
            "authorships": [None, {"author": None, "raw_author_name": None}, 3],
            "primary_location": {"source": None, "landing_page_url": None},
            "best_oa_location": None,
            "open_access": None,
            "keywords": [None, {"display_name": None}],
            "publication_year": None,
            "cited_by_count": None,
            "type": None,
            "locations": None,
            "doi": None,
        },
        gyrase,
    ]
    path = tmp_path / "works.json"
    path.write_text(json.dumps({"meta": {"count": 9}, "results": bad}), encoding="utf-8")
    result = read_source(path)
    reasons = {e.record: e.reason for e in result.errors}
    assert reasons == {
        1: "the abstract_inverted_index places 'word' at 'zero'",
        2: "the abstract_inverted_index holds more than 10000 words",
        3: "the abstract_inverted_index is not an object of words",
        4: "the abstract_inverted_index places 'w' at True",
        7: "not an object",
    }
    titles = [r.title for r in result.records]
    assert titles == [
        "Sparse Routing for Mixtures of Experts",
        "Sparse Routing for Mixtures of Experts",
        "Nulls everywhere",
        "Structure of E. coli DNA gyrase bound to H₂O",
    ]
    nulls = result.records[2]
    assert (nulls.authors, nulls.url, nulls.keywords) == ((), "", ())
    # through the command: a line per work, no traceback, the others imported
    home = tmp_path / "home"
    done = run("--home", home, "import", path, env=make_env(tmp_path))
    assert "Traceback" not in done.stderr
    assert "3 added" in done.stdout and "1 merged" in done.stdout  # the work listed twice
    assert "'word' at 'zero'" in done.stderr


def test_a_list_is_no_openalex_answer_by_its_shape_alone(tmp_path: Path) -> None:
    """Only OpenAlex's own marks say a work: a list of ``results`` holding papers of other
    kinds, or with ``id``s of their own, is read as a list of papers; and a work whose
    abstract is an index is read as OpenAlex's in a list of anything."""
    path = tmp_path / "results.json"
    said = "We measure how often open access papers are cited."
    plain = {"id": "W12", "title": "Kept", "abstract": said, "authors": "Ann Lee"}
    index = {word: [at] for at, word in enumerate(said.split())}
    marked = {"title": "Marked", "abstract_inverted_index": index}
    path.write_text(json.dumps({"meta": {}, "results": [plain, marked]}), encoding="utf-8")
    kept, rebuilt = read_source(path).records
    assert (kept.abstract, kept.authors) == (said, ("Ann Lee",))
    assert rebuilt.abstract == said
