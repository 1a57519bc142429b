"""CSL-JSON: the citation format Zotero, pandoc and citeproc read ("Import from clipboard")."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import orjson

from storage.export.bibtex import bibtex_key
from storage.export.exporter import DEFAULT_OPTIONS, Exporter, ExportOptions
from storage.export.selection import venue_of
from storage.files.triage_file import TriageState
from storage.models import Paper
from storage.sources.links import web_url


def csl_name(name: str) -> dict[str, str]:
    """``Ann Lee`` → ``{"family": "Lee", "given": "Ann"}``; one word is a ``literal``."""
    parts = name.split()
    if len(parts) < 2:
        return {"literal": name}
    return {"family": parts[-1], "given": " ".join(parts[:-1])}


def csl_item(paper: Paper, key: str) -> dict[str, Any]:
    """One paper as a CSL item."""
    found = venue_of(paper)
    kind = "manuscript"
    if found.venue is not None:
        kind = "article-journal" if found.venue.journal else "paper-conference"
    item: dict[str, Any] = {"id": key, "type": kind, "title": paper.display_title}
    if paper.authors:
        item["author"] = [csl_name(a) for a in paper.authors]
    if found.venue is not None:
        item["container-title"] = found.venue.citation
    if found.year:
        item["issued"] = {"date-parts": [[found.year]]}
    if paper.abstract:
        item["abstract"] = paper.display_abstract
    if url := web_url(paper.url):
        item["URL"] = url
    if isinstance(doi := paper.fact("doi"), str):
        item["DOI"] = doi
    if paper.keywords:
        item["keyword"] = ", ".join(paper.keywords)
    if paper.github:
        item["note"] = "Code: " + ", ".join(paper.github)
    return item


def to_csl_json(
    papers: Sequence[Paper], triage: TriageState, options: ExportOptions = DEFAULT_OPTIONS
) -> str:
    """A CSL-JSON array, one item per paper, keyed as in the BibTeX export."""
    taken: set[str] = set()
    items = [csl_item(p, bibtex_key(p, taken)) for p in papers]
    return orjson.dumps(items, option=orjson.OPT_INDENT_2).decode("utf-8") + "\n"


CSL_JSON = Exporter(
    name="csl-json",
    label="CSL-JSON",
    suffix=".csl.json",
    description="CSL items: for Zotero, pandoc and other citation tools",
    write=to_csl_json,
)
