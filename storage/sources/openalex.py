"""OpenAlex's works: what ``api.openalex.org/works?filter=…`` answers (``{"meta": {…},
"results": [work, …]}``), ``/works/W123`` (one work, an object), and the snapshot's works, one
a line (JSON Lines).

A work is told by OpenAlex's own marks, never guessed from a generic list: an ``id`` that is
``https://openalex.org/W…``, ``authorships`` or ``abstract_inverted_index``. Its fields:
``title`` (or ``display_name``) in HTML's rich text (``<i>E. coli</i>``), its authors'
``authorships[].author.display_name`` (else ``raw_author_name``), the abstract rebuilt from
``abstract_inverted_index`` (word → positions), the venue ``primary_location.source``'s name
(a journal's, a conference's proceedings; not a repository's, which keeps a copy), GitHub
links in the abstract, the PDF (``best_oa_location``'s, the primary
location's, ``open_access.oa_url`` when it is a PDF), ``keywords[].display_name``, the DOI
bare, ``publication_year`` and ``publication_date``, ``type`` as the citation's kind,
``cited_by_count``, an arXiv id a location's landing page names, the landing page as the
paper's link. A value of the wrong kind (OpenAlex's ``null``s) is no value; an abstract index
that cannot be an abstract refuses its work in one line.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, Final

from storage.caps import MAX_ABSTRACT_CHARS
from storage.sources.citation import arxiv_id_of_url, doi_of, entry_type
from storage.sources.links import extract_github_links, web_url
from storage.sources.records import ReadResult
from storage.text.rich_text import plain_title

__all__ = ["add_openalex_work", "is_openalex_work", "openalex_works", "read_openalex_works"]

_WORK_ID: Final = re.compile(r"https?://openalex\.org/W\d+", re.IGNORECASE)
#: Keys only OpenAlex gives a work.
_MARKS: Final = frozenset({"authorships", "abstract_inverted_index"})
#: More words than an abstract within ``MAX_ABSTRACT_CHARS`` holds (each a character and a space).
_MAX_WORDS: Final = MAX_ABSTRACT_CHARS // 2
#: OpenAlex's work types (and Crossref's, ``type_crossref``) as entry types; others as
#: ``entry_type`` reads them.
_TYPES: Final = {
    "article": "article", "book-chapter": "incollection", "book": "book",
    "dissertation": "phdthesis", "preprint": "misc", "posted-content": "misc",
    "report": "techreport", "dataset": "dataset", "proceedings-article": "inproceedings",
    "proceedings": "proceedings", "journal-article": "article", "monograph": "book",
    "reference-entry": "inreference", "peer-review": "misc", "paratext": "misc",
}  # fmt: skip


def is_openalex_work(item: Any) -> bool:
    """Whether ``item`` is an OpenAlex work, by OpenAlex's own marks."""
    if not isinstance(item, Mapping):
        return False
    ident = item.get("id")
    if isinstance(ident, str) and _WORK_ID.fullmatch(ident.strip()):
        return True
    return not _MARKS.isdisjoint(item.keys())


def openalex_works(data: Any) -> list[Any] | None:
    """The works of an OpenAlex answer: a page's ``results``, one work alone, or an array
    of works; None for other data."""
    if isinstance(data, Mapping) and isinstance(data.get("results"), list):
        if not isinstance(data.get("meta"), Mapping):
            return None
        data = data["results"]
    if isinstance(data, Mapping):
        return [data] if is_openalex_work(data) else None
    if not isinstance(data, list) or not data:
        return None
    sample = [item for item in data[:20] if item is not None]
    marked = sum(map(is_openalex_work, sample))
    return data if sample and marked * 2 > len(sample) else None


def read_openalex_works(works: Iterable[Any], path: Path) -> ReadResult:
    """The papers of OpenAlex's works (``openalex_works``); a work listed twice is the same
    paper twice, which the import merges and says, as it does for the snapshot's lines."""
    result = ReadResult(source=str(path), list_name=path.stem)
    for number, work in enumerate(works, start=1):
        add_openalex_work(result, number, work)
    return result


def add_openalex_work(result: ReadResult, number: int, work: Any) -> None:
    """Work ``number`` into ``result``: its record, or why it is none."""
    if not isinstance(work, Mapping):
        result.refuse(number, "not an object")
        return
    try:
        fields = openalex_fields(work)
    except _BadWork as exc:
        result.refuse(number, str(exc))
        return
    result.add(number, fields)


class _BadWork(ValueError):
    """A work whose fields cannot be read, and why."""


def _map(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _text(value: Any) -> str:
    return value.strip() if isinstance(value, str) else ""


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def openalex_fields(work: Mapping[str, Any]) -> dict[str, Any]:
    """A work's fields as our records name them (see the module)."""
    fields: dict[str, Any] = {}
    title = _text(work.get("title")) or _text(work.get("display_name"))
    fields["title"] = plain_title(title)
    fields["abstract"] = abstract = abstract_text(work.get("abstract_inverted_index"))
    fields["code"] = list(extract_github_links(abstract))
    fields["authors"] = _authors(work.get("authorships"))
    primary = _map(work.get("primary_location"))
    locations = [primary, _map(work.get("best_oa_location"))]
    locations += [_map(place) for place in _list(work.get("locations"))]
    source = _map(primary.get("source")) or _map(work.get("host_venue"))
    kind = _kind(work, _text(source.get("type")))
    # a repository (arXiv, Zenodo) keeps a copy: it is not where the work was published
    venue = "" if source.get("type") == "repository" else _text(source.get("display_name"))
    if venue:
        slot = {"article": "journal", "inproceedings": "booktitle"}.get(kind)
        fields[slot or "venue"] = venue
    fields["entry_type"] = kind
    fields["keywords"] = _keywords(work.get("keywords"))
    doi = doi_of(_text(work.get("doi")))
    if doi:
        fields["doi"] = doi
    year = work.get("publication_year")
    if isinstance(year, int) and not isinstance(year, bool):
        fields["year"] = year
    if _text(work.get("publication_date")):
        fields["date"] = _text(work.get("publication_date"))
    cited = work.get("cited_by_count")
    if isinstance(cited, int) and not isinstance(cited, bool):
        fields["citations"] = cited
    pdf = _pdf(locations[1::-1], _map(work.get("open_access")))
    if pdf:
        fields["pdf"] = pdf
    arxiv = next((a for p in locations if (a := _arxiv(p))), "")
    if arxiv:
        fields.update(eprint=arxiv, archiveprefix="arXiv")
    landing = _text(primary.get("landing_page_url"))
    if web_url(landing):
        fields["url"] = landing
    return fields


def abstract_text(index: Any) -> str:
    """The abstract an ``abstract_inverted_index`` (word → its positions) holds: its words in
    the order of their positions, a position given twice its first word's; "" for none."""
    if index is None:
        return ""
    if not isinstance(index, Mapping):
        raise _BadWork("the abstract_inverted_index is not an object of words")
    words: dict[int, str] = {}
    given = 0
    for word, positions in index.items():
        if not isinstance(positions, list):
            positions = [positions]
        given += len(positions)
        if given > _MAX_WORDS:
            raise _BadWork(f"the abstract_inverted_index holds more than {_MAX_WORDS} words")
        for at in positions:
            if isinstance(at, bool) or not isinstance(at, int) or at < 0:
                shown = repr(at)[:20]
                raise _BadWork(f"the abstract_inverted_index places {str(word)[:20]!r} at {shown}")
            words.setdefault(at, str(word))
    return " ".join(words[at] for at in sorted(words))


def _authors(authorships: Any) -> list[str]:
    """The names of a work's authors: OpenAlex's (``author.display_name``), else as the
    source wrote it (``raw_author_name``)."""
    names: list[str] = []
    for authorship in _list(authorships):
        authorship = _map(authorship)
        name = _text(_map(authorship.get("author")).get("display_name"))
        name = name or _text(authorship.get("raw_author_name"))
        if name:
            names.append(name)
    return names


def _keywords(keywords: Any) -> list[str]:
    """A work's keywords' names (``display_name``; ``keyword`` in OpenAlex's older answers)."""
    names = (_map(k).get("display_name") or _map(k).get("keyword") for k in _list(keywords))
    return [name.strip() for name in names if isinstance(name, str) and name.strip()]


def _kind(work: Mapping[str, Any], source_type: str) -> str:
    """The entry type a work is cited as: its ``type``, an article in a conference's
    proceedings ``inproceedings``."""
    crossref = _text(work.get("type_crossref")).casefold()
    stated = _text(work.get("type")).casefold()
    kind = _TYPES.get(crossref) or _TYPES.get(stated) or entry_type(stated or "misc")
    if kind == "article" and source_type.casefold() == "conference":
        return "inproceedings"
    return kind


def _pdf(locations: Iterable[Mapping[str, Any]], access: Mapping[str, Any]) -> str:
    """The work's PDF: the best open-access location's, the primary location's, or
    ``open_access.oa_url`` when it names a PDF."""
    for place in locations:
        pdf = _text(place.get("pdf_url"))
        if web_url(pdf):
            return pdf
    url = _text(access.get("oa_url"))
    path = url.split("?", 1)[0].split("#", 1)[0]
    return url if web_url(url) and path.casefold().endswith(".pdf") else ""


def _arxiv(place: Mapping[str, Any]) -> str:
    landing = _text(place.get("landing_page_url"))
    return arxiv_id_of_url(landing) if "/abs/" in landing else ""
