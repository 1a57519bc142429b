"""Exports as more tools write them (Mendeley's links, Semantic Scholar's API, Scopus's CSV
of before its ``Author full names``, DBLP's RIS, OpenReview's BibTeX of a submission, EndNote's
RIS): every paper comes in with its people, links and venue as the file says them.

``tests/fixtures/real_exports/README.md`` names the public file each fixture keeps the shape of.
"""

from __future__ import annotations

from pathlib import Path

from storage.sources.records import SourceRecord
from storage.sources.registry import read_source

FOLDER = Path(__file__).resolve().parents[1] / "fixtures" / "real_exports"


def _extra(record: SourceRecord) -> dict[str, object]:
    return dict(record.extra)


def test_a_github_repository_among_a_papers_links_is_its_code() -> None:
    several, tool, preprint = read_source(FOLDER / "mendeley_links.bib").records
    assert several.url == "http://127.0.0.1:9/en/content/articlehtml/2020/cc/d0cc03512b"
    assert several.github == ()
    # the url the tool's own repository: the paper's page and its code
    assert tool.url == "https://github.com/spinicist/QUIT"
    assert tool.github == ("https://github.com/spinicist/QUIT",)
    # Mendeley's second link, its underscore escaped
    assert preprint.url == "http://arxiv.org/abs/1901.00001"
    assert preprint.github == ("https://github.com/annlee/sparse_routing",)
