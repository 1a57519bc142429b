"""Paper lists as JSON (an array of papers, or an object holding one) and JSON Lines (one paper
per line), including OpenReview's record shapes (``content`` dicts, ``{"value": x}`` wrappers;
a note's year from its dates, as ``papers fetch`` gives it: ``note_year``)."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final

import orjson

from storage.errors import SourceError
from storage.models import RecordError
from storage.sources.attachments import looks_like_pdf
from storage.sources.links import web_url
from storage.sources.openalex import (
    add_openalex_work,
    is_openalex_work,
    openalex_works,
    read_openalex_works,
)
from storage.sources.records import (
    ALIASES,
    MAX_HEADER_CHARS,
    Fit,
    Reader,
    ReadResult,
    field_value,
    opening,
)
from storage.sources.venues import find_year
from storage.text.rich_text import plain_title
from storage.text.words import count

JSON_SUFFIXES = (".json",)
#: A key that is a record's id (OpenReview's forum ids are 6–20 such characters).
_RECORD_ID = re.compile(r"[A-Za-z0-9_-]{6,20}")
JSON_LINES_SUFFIXES = (".jsonl", ".ndjson")


def _not_json(path: Path) -> SourceError:
    return SourceError(f"{path}: not valid JSON (it does not start with '[' or '{{')")


def sniff_json(text: str, path: Path) -> Fit:
    """An array opens JSON; so does an object, unless the name says JSON Lines."""
    head = opening(text)
    suffix = path.suffix.lower()
    if head == "[" or (head == "{" and suffix not in JSON_LINES_SUFFIXES):
        return Fit.OPENS
    return Fit.NAMED if suffix in JSON_SUFFIXES else Fit.NO


def read_json(text: str, path: Path) -> ReadResult:
    """A JSON document of papers; JSON Lines under another name are read as JSON Lines."""
    head = opening(text)
    if head not in ("[", "{"):
        raise _not_json(path)
    try:
        data = loads(text)
    except orjson.JSONDecodeError as exc:
        if head == "{" and _looks_like_jsonl(text):
            return read_jsonl(text, path)
        reason = f"line {exc.lineno}, column {exc.colno}: {exc.msg}"
        raise SourceError(f"{path}: not valid JSON ({reason})") from None
    # CSL-JSON whose start did not say so (its reader imports this module's ``loads``)
    from storage.sources.csl_json import is_csl_json, read_csl_data

    if is_csl_json(data):
        return read_csl_data(data, path)
    return read_json_data(data, path)


def loads(text: str) -> Any:
    """JSON text as Python values: orjson, or the standard library's parser for a number
    orjson refuses (``1e400``, which is a bad field of one record, not a bad file)."""
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError as exc:
        if "number" not in exc.msg:
            raise
        import json

        try:
            # a number of thousands of digits is read as infinite: past any field's bound
            return json.loads(text, parse_int=lambda d: int(d) if len(d) < 300 else math.inf)
        except (ValueError, RecursionError):
            raise exc from None


def _looks_like_jsonl(text: str) -> bool:
    lines = [line for line in text.splitlines()[:5] if line.strip()]
    return len(lines) > 1 and all(line.lstrip().startswith("{") for line in lines)


def read_json_data(data: Any, path: Path) -> ReadResult:
    """A JSON array of papers, or an object holding one (``{"papers": [...]}``); Zotero's
    API answers (``storage.sources.zotero_api``); OpenAlex's works
    (``storage.sources.openalex``)."""
    from storage.sources.zotero_api import read_zotero_items, zotero_items

    works = openalex_works(data)
    if works is not None:
        return read_openalex_works(works, path)
    zotero = zotero_items(data)
    if zotero is not None:
        return read_zotero_items(zotero, path)
    authors = _s2_authors(data)
    if authors is not None:
        return _read_s2_authors(authors, path)
    items, list_name = _find_paper_array(data)
    if items is None:
        raise SourceError(
            f"{path}: the JSON holds no list of papers "
            "(expected an array of objects with an abstract, or an object holding one)"
        )
    result = ReadResult(source=str(path), list_name=list_name or path.stem)
    for number, item in enumerate(items, start=1):
        _add_item(result, number, item)
    return result


def _s2_authors(data: Any) -> list[Mapping[str, Any]] | None:
    """The authors of a Semantic Scholar answer about authors, each with the papers asked of
    it (``fields=name,papers.title,papers.abstract,…``): ``/author/search`` and
    ``/paper/{id}/authors`` (``{"data": [author, …]}``), ``/author/batch`` (``[author, …]``,
    ``null`` for an id it does not know), ``/author/{id}`` (one author); None for other data.
    An author is an object with an ``authorId`` that is no paper (no ``paperId``, no
    ``title``)."""
    if isinstance(data, Mapping) and isinstance(data.get("data"), list):
        data = data["data"]
    items = data if isinstance(data, list) else [data]
    authors = [item for item in items if isinstance(item, Mapping)]
    if not authors or any(item is not None and not isinstance(item, Mapping) for item in items):
        return None
    if all("authorId" in a and "paperId" not in a and "title" not in a for a in authors):
        return authors
    return None


def _read_s2_authors(authors: Sequence[Mapping[str, Any]], path: Path) -> ReadResult:
    """The papers of Semantic Scholar's authors (``_s2_authors``), each once however many of
    them wrote it (known by its ``paperId``), read as its other answers' papers are; the list
    named after the author when there is one."""
    papers: list[Any] = []
    seen: set[str] = set()
    for author in authors:
        listed = author.get("papers")
        for paper in listed if isinstance(listed, list) else ():
            known = paper.get("paperId") if isinstance(paper, Mapping) else None
            if isinstance(known, str) and known:
                if known in seen:
                    continue
                seen.add(known)
            papers.append(paper)
    if not papers:
        raise SourceError(
            f"{path}: a Semantic Scholar answer of {count(len(authors), 'author')} and no "
            "papers (ask for them: fields=name,papers.title,papers.abstract,…); nothing to import"
        )
    name = authors[0].get("name") if len(authors) == 1 else None
    name = " ".join(name.split()) if isinstance(name, str) else ""
    named = 0 < len(name) <= MAX_HEADER_CHARS
    result = ReadResult(source=str(path), list_name=name if named else path.stem)
    for number, paper in enumerate(papers, start=1):
        _add_item(result, number, paper)
    return result


def sniff_jsonl(text: str, path: Path) -> Fit:
    """An object opens JSON Lines (JSON takes it first unless the name says JSON Lines)."""
    if opening(text) == "{":
        return Fit.OPENS
    return Fit.NAMED if path.suffix.lower() in JSON_LINES_SUFFIXES else Fit.NO


def read_jsonl(text: str, path: Path) -> ReadResult:
    """One JSON object per line; a line that does not parse is a record error, not a failure."""
    if opening(text) != "{":
        raise _not_json(path)
    result = ReadResult(source=str(path), list_name=path.stem)
    number = 0
    for line in text.splitlines():
        if line.strip():
            number += 1
            add_json_line(result, number, line)
    refuse_no_json_lines(path, len(result.records), result.errors)
    return result


def add_json_line(result: ReadResult, number: int, line: str) -> None:
    """Line ``number`` of a JSON Lines list into ``result``: its record, or why it is none
    (shared with the line-by-line import of a long list, storage/sources/registry.py)."""
    try:
        item = loads(line)
    except orjson.JSONDecodeError as exc:
        result.errors.append(RecordError(result.source, number, f"not JSON ({exc.msg})"))
        return
    _add_item(result, number, item)


def refuse_no_json_lines(path: Path, records: int, errors: Sequence[RecordError]) -> None:
    """A list in which no line held a JSON object is no JSON Lines list."""
    if not records and all("not JSON" in e.reason for e in errors):
        raise SourceError(f"{path}: not valid JSON Lines (no line holds a JSON object)")


def _find_paper_array(data: Any, depth: int = 0) -> tuple[list[Any] | None, str]:
    """The array of paper objects in ``data``, and a list name found beside it."""
    hits = _dblp_hits(data) if depth == 0 else None
    if hits is not None:  # not its ``completions``, an array of objects before its hits
        return hits, ""
    if isinstance(data, list):
        if data and sum(isinstance(x, dict) for x in data) >= max(1, len(data) // 2):
            return data, ""
        return None, ""
    if isinstance(data, dict) and depth <= 3 and _single_paper(data):
        return [data], ""  # DBLP's one hit is an object where its hits are an array, 3 deep
    if isinstance(data, dict) and depth < 3:
        name = ""
        for key in ("name", "list", "title", "venue"):
            if isinstance(data.get(key), str) and len(data[key]) <= MAX_HEADER_CHARS:
                name = data[key].strip()
                break
        keyed = _keyed_records(data)
        if keyed is not None:  # {"https://openreview.net/forum?id=…": {paper}, …}
            return keyed, name
        for value in data.values():
            found, inner = _find_paper_array(value, depth + 1)
            if found is not None:
                return found, inner or name
    return None, ""


def _dblp_hits(data: Any) -> list[Any] | None:
    """The hits of DBLP's search API's answer (``{"result": {"query", "status", "time",
    "completions": {"c": […]}, "hits": {"hit": […]}}}``: one hit an object of its own, no
    hits none), or None for no such answer."""
    result = data.get("result") if isinstance(data, Mapping) else None
    hits = result.get("hits") if isinstance(result, Mapping) else None
    if not isinstance(hits, Mapping) or not isinstance(result, Mapping) or "status" not in result:
        return None
    hit = hits.get("hit", [])
    return [hit] if isinstance(hit, Mapping) else hit if isinstance(hit, list) else None


def _single_paper(data: Mapping[str, Any]) -> bool:
    """Whether an object is one paper: it has an abstract, or a title beside an abstract of
    none (Semantic Scholar's ``"abstract": null``, which its API gives many papers) or
    Semantic Scholar's ``paperId``, or a hit of DBLP's search API. (A title alone may be a
    list's name.)"""
    if field_value(data, "abstract") is not None or _dblp_info(data) is not None:
        return True
    return isinstance(data.get("title"), str) and ("abstract" in data or "paperId" in data)


def _keyed_records(data: Mapping[str, Any]) -> list[Any] | None:
    """The records of an object whose values are papers, keyed by their URL or id (the key
    given to a record that has no link of its own); None when its values are not papers."""
    values = list(data.values())
    if len(values) < 2 or not all(isinstance(v, Mapping) for v in values):
        return None
    sample = [_unwrap(v) for v in values[:20]]
    papers = sum(
        field_value(v, "abstract") is not None or field_value(v, "title") is not None
        for v in sample
    )
    if papers * 2 <= len(sample):
        return None
    records: list[Any] = []
    for key, value in data.items():
        key = str(key).strip()
        extra: dict[str, Any] = {}
        if web_url(key):
            extra["url"] = key
        elif _RECORD_ID.fullmatch(key):
            extra["forum"] = key
        records.append({**extra, **value} if extra else value)
    return records


def _dblp_info(item: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The record of a hit of DBLP's search API (``{"@score": …, "@id": …, "info": {…}}``),
    or None for no such hit."""
    info = item.get("info")
    return info if isinstance(info, Mapping) and "@id" in item else None


#: DBLP's publication types (its search API's ``type``) as entry types.
_DBLP_TYPES = {
    "Conference and Workshop Papers": "inproceedings", "Journal Articles": "article",
    "Informal and Other Publications": "misc", "Informal Publications": "misc",
    "Books and Theses": "book", "Parts in Books or Collections": "incollection",
    "Editorship": "proceedings", "Data and Artifacts": "dataset",
}  # fmt: skip
_DBLP_THESES = {"phd": "phdthesis", "ms": "mastersthesis"}
#: The number DBLP gives people of one name (``Ann Lee 0001``), to tell them apart.
DBLP_HOMONYM = re.compile(r"\s+\d{4}$")
_CORR_VOLUME = re.compile(r"abs/(\d{4}\.\d{4,5})")


def without_full_stop(title: str) -> str:
    """A DBLP title without the full stop DBLP ends every title with (not an ellipsis's)."""
    return title[:-1] if title.endswith(".") and not title.endswith("..") else title


def dblp_record(info: Mapping[str, Any]) -> dict[str, Any]:
    """A hit's record as our fields: its authors' names (``{"author": [{"text": …}]}``, one
    person an object of its own) without DBLP's number, its title without the full stop DBLP
    ends every title with, its venue a journal's or a proceedings', its electronic edition
    (``ee``) its link before its DBLP page, a CoRR paper's volume (``abs/2106.09686``) its
    arXiv id, as DBLP's BibTeX gives it; of "Books and Theses", a thesis told by its key
    (``phd/…``, ``ms/…``) and its venue its school, a book's venue beside its publisher its
    series."""
    fields = {k: v for k, v in info.items() if k not in ("authors", "type", "ee", "url")}
    people = info.get("authors")
    people = people.get("author") if isinstance(people, Mapping) else None
    people = [people] if isinstance(people, Mapping) else people if isinstance(people, list) else []
    names = (p.get("text") if isinstance(p, Mapping) else p for p in people)
    fields["authors"] = [DBLP_HOMONYM.sub("", n) for n in names if isinstance(n, str)]
    title = info.get("title")
    if isinstance(title, str):
        fields["title"] = without_full_stop(title)
    kind = _DBLP_TYPES.get(str(info.get("type")), "misc")
    venue, volume = info.get("venue"), info.get("volume")
    corr = _CORR_VOLUME.fullmatch(volume) if venue == "CoRR" and isinstance(volume, str) else None
    if corr is not None:  # DBLP's name for arXiv
        fields.update(eprint=corr.group(1), archiveprefix="arXiv", venue=None, volume=None)
    elif kind in ("article", "inproceedings"):
        fields["journal" if kind == "article" else "booktitle"] = venue
    elif kind == "book":  # "Books and Theses": which, its key says (``phd/…``, ``ms/…``)
        kind = _DBLP_THESES.get(str(info.get("key")).split("/")[0], kind)
        # a thesis's venue is its school; a book's, its series beside its publisher (else
        # either: kept as its venue)
        place = "school" if kind != "book" else "series" if info.get("publisher") else ""
        if place and isinstance(venue, str):
            fields[place], fields["venue"] = venue, None
    fields["entry_type"] = kind
    fields["edited_by"] = info.get("type") == "Editorship"  # its "authors" are its editors
    links = [info.get(k) for k in ("ee", "url")]
    fields["url"] = [u for link in links for u in (link if isinstance(link, list) else [link])]
    return fields


def _cited(item: Mapping[str, Any]) -> Mapping[str, Any]:
    """The paper of a citation Semantic Scholar's API lists (``/paper/{id}/citations`` gives
    ``{"citingPaper": {…}, "contexts": […], "intents": […]}``, ``/references`` the same with
    ``citedPaper``); any other item as it is."""
    for name in ("citingPaper", "citedPaper"):
        paper = item.get(name)
        if isinstance(paper, Mapping) and "title" not in item:
            return paper
    return item


def _unwrap(item: Mapping[str, Any]) -> dict[str, Any]:
    """Flatten OpenReview-style records (``content`` dicts, ``{"value": x}`` wrappers),
    Semantic Scholar's (``externalIds``, ``openAccessPdf``, ``tldr``, ``publicationDate``, the
    paper of a citation: ``_cited``) and
    the hits of DBLP's search API, read as its XML answer's are
    (``storage.sources.dblp_xml.json_hit_fields``)."""
    if _dblp_info(item) is not None:
        from storage.sources.dblp_xml import json_hit_fields

        item = json_hit_fields(item)
    item = _cited(item)
    flat: dict[str, Any] = {}
    content = item.get("content")
    sources = [item, content] if isinstance(content, Mapping) else [item]
    for source in sources:
        for key, value in source.items():
            if isinstance(value, Mapping) and "value" in value:
                value = value["value"]
            flat[str(key).strip().lower()] = value
    ids = flat.get("externalids")
    if isinstance(ids, Mapping):  # Semantic Scholar: {"DOI": …, "ArXiv": …, "CorpusId": …}
        for name, ours in (("doi", "doi"), ("arxiv", "eprint")):
            found = next((v for k, v in ids.items() if str(k).lower() == name), None)
            if isinstance(found, str) and found.strip() and not flat.get(ours):
                flat[ours] = found.strip()
                if ours == "eprint":
                    flat.setdefault("archiveprefix", "arXiv")
    _s2_corpus(flat)
    _s2_venue(flat)
    pdf = flat.get("openaccesspdf")
    if isinstance(pdf, Mapping) and isinstance(pdf.get("url"), str) and not flat.get("pdf"):
        flat["pdf"] = pdf["url"]  # Semantic Scholar's open-access PDF
    tldr = flat.get("tldr")
    if isinstance(tldr, Mapping):  # Semantic Scholar: {"model": "tldr@v2.0.0", "text": …}
        flat["tldr"] = tldr.get("text")
    published = flat.get("publicationdate")
    if isinstance(published, str) and not flat.get("date"):
        flat["date"] = published  # Semantic Scholar's "2017-06-12"
    if flat.get("year") in (None, "") and any(key in item for key in _NOTE_DATES):
        # an OpenReview note saved from its API: the year ``papers fetch`` gives it
        flat["year"] = note_year(item)
    return flat


#: Semantic Scholar's Open Research Corpus (``s2-corpus-*.gz``, its dump before the Graph
#: API's datasets, and the JSON Lines made of it): its names → ours.
_S2_CORPUS: Final = (
    ("paperabstract", "abstract"), ("s2url", "url"), ("journalname", "journal"),
    ("journalvolume", "volume"), ("journalpages", "pages"), ("s2pdfurl", "pdf"),
)  # fmt: skip


def _s2_corpus(flat: dict[str, Any]) -> None:
    """A paper of Semantic Scholar's Open Research Corpus: its abstract in ``paperAbstract``,
    its page in ``s2Url``, its journal's name, volume and pages in ``journalName``,
    ``journalVolume`` and ``journalPages``, its PDF in ``s2PdfUrl`` or among ``pdfUrls``
    (with the publisher's pages)."""
    if "paperabstract" not in flat and "s2url" not in flat:
        return
    for theirs, ours in _S2_CORPUS:
        value = flat.get(theirs)
        if isinstance(value, str) and value.strip() and not flat.get(ours):
            flat[ours] = value.strip()
    urls = flat.get("pdfurls")
    if isinstance(urls, list) and not flat.get("pdf"):
        pdfs = (u for u in urls if isinstance(u, str) and looks_like_pdf(u) and web_url(u))
        flat["pdf"] = next(pdfs, "")


def _s2_venue(flat: dict[str, Any]) -> None:
    """Semantic Scholar's venue: its ``publicationVenue`` (the journal or conference it linked
    the paper to, ``{"name", "type", "alternate_names", …}``), else its ``journal`` (the
    publisher's record, ``{"name", "volume", "pages"}``: Turing's 1950 paper in ``Mind``),
    over the ``venue`` text, which without a link to a venue may name another work (that
    paper's is ``The Philosophy of Artificial Intelligence``, an anthology that reprinted
    it). A journal that is arXiv is the preprint's (``{"name": "ArXiv", "volume":
    "abs/1706.03762"}``, its id: ``records._arxiv_journal``), no venue over the conference's,
    and no journal at all where ``externalIds`` gave the paper its arXiv id (it cited the
    conference paper as ``@article{journal = {ArXiv}, volume = {abs/1706.03762}}``); the
    journal's volume and pages are the citation's."""
    linked, journal = flat.get("publicationvenue"), flat.get("journal")
    if isinstance(journal, Mapping):
        named = journal.get("name")
        named = named if isinstance(named, str) else None
        if _is_arxiv(named) and flat.get("eprint"):  # (its arXiv id from ``externalIds``)
            named, journal = None, {}  # the preprint's id: no journal, volume nor pages
        flat["journal"] = named
        for part in ("volume", "pages"):
            value = journal.get(part)
            if isinstance(value, str) and value.strip() and not flat.get(part):
                flat[part] = value.strip()
    name = linked.get("name") if isinstance(linked, Mapping) else None
    if not (isinstance(name, str) and name.strip()) and isinstance(journal, Mapping):
        name = None if _is_arxiv(flat["journal"]) else flat["journal"]
    if isinstance(name, str) and name.strip():
        flat["venue"] = name
    if isinstance(journal, Mapping) and not flat.get("entry_type"):
        _s2_book(flat, journal, linked)


#: Semantic Scholar's ``publicationTypes`` that say a paper is no part of a book.
_S2_NOT_IN_BOOKS: Final = frozenset({"JournalArticle", "Conference", "Review"})
#: A DOI made of a book's ISBN (Springer's chapters: ``10.1007/978-1-4842-6258-0_10``).
_BOOK_DOI: Final = re.compile(r"^10\.\d{4,9}/97[89]-?\d")


def _s2_book(flat: dict[str, Any], journal: Mapping[str, Any], linked: Any) -> None:
    """A chapter, to which Semantic Scholar gives its book's title as its ``journal``
    (``{"name": "Raku Recipes"}``), cited in that book: ``incollection``, the title its
    ``booktitle``, no journal. A chapter is one typed ``BookSection``; or typed ``Book`` (as
    ACM Books' chapters are), unless that journal is its own title (a ``book``, then); or
    untyped, with no linked venue and a journal of a name alone, its DOI a book's ISBN."""
    named = flat.get("journal")
    if not isinstance(named, str) or not named.strip():
        return
    given = flat.get("publicationtypes")
    types = {t for t in given if isinstance(t, str)} if isinstance(given, list) else set()
    if "BookSection" in types:
        chapter = True
    elif "Book" in types and not types & _S2_NOT_IN_BOOKS:
        chapter = _words(named) != _words(flat.get("title"))
        if not chapter:  # the book itself: its title is no venue
            flat.update(entry_type="book", journal=None, venue=None)
            return
    else:
        doi = flat.get("doi")
        chapter = (
            not types
            and not isinstance(linked, Mapping)
            and not any(journal.get(part) for part in ("volume", "pages"))
            and isinstance(doi, str)
            and _BOOK_DOI.match(doi.strip()) is not None
        )
    if chapter:
        flat.update(entry_type="incollection", booktitle=named, journal=None)


def _words(text: Any) -> str:
    """A title's letters and digits, case folded: how two titles are told the same."""
    return "".join(ch for ch in str(text).casefold() if ch.isalnum()) if text else ""


def _is_arxiv(name: str | None) -> bool:
    """Whether a journal's name is arXiv's (Semantic Scholar's ``ArXiv``)."""
    return name is not None and name.strip().casefold() in ("arxiv", "arxiv.org")


#: The dates of an OpenReview note that may give its year (ms since the epoch): published,
#: public, made.
_NOTE_DATES = ("pdate", "odate", "cdate")
_BIBTEX_YEAR = re.compile(r"\byear\s*=\s*[{\"]?\s*(\d{4})\b")
_YEARS = range(1950, 2100)


def _value(content: Mapping[str, Any], key: str) -> Any:
    """A field of an OpenReview note: API v2 wraps each value as ``{"value": x}``, v1 does not."""
    value = content.get(key)
    return value["value"] if isinstance(value, Mapping) and "value" in value else value


def note_year(note: Mapping[str, Any], named: Iterable[Any] = ()) -> int | None:
    """The year of an OpenReview note whose venue names none (a journal's: "Accepted by
    TMLR"); None when its venue, or a text of ``named`` (the venue id fetched), does (ICLR
    2018's notes, made in 2017, say no venue), or when it is no note.

    Its publication date's (``pdate``) first; then its BibTeX's, the year OpenReview has it
    cited with (the decision's, where ``odate`` would give the submission's to a paper
    published a year later); then when it went public (``odate``) or was made (``cdate``)."""
    content = note.get("content")
    if not isinstance(content, Mapping):
        return None
    texts = [_value(content, "venue"), _value(content, "venueid"), *named]
    if any(isinstance(text, str) and find_year(text) is not None for text in texts):
        return None
    published, public, made = (_year_of_stamp(note.get(key)) for key in _NOTE_DATES)
    bibtex = _value(content, "_bibtex")
    cited = _BIBTEX_YEAR.search(bibtex[:5000]) if isinstance(bibtex, str) else None
    years = (published, int(cited[1]) if cited else None, public, made)
    return next((year for year in years if year is not None and year in _YEARS), None)


def _year_of_stamp(stamp: Any) -> int | None:
    if isinstance(stamp, bool) or not isinstance(stamp, int | float) or not 0 < stamp < 4e12:
        return None
    return datetime.fromtimestamp(stamp / 1000, UTC).year


def _add_item(result: ReadResult, number: int, item: Any) -> None:
    if is_openalex_work(item):  # a line of OpenAlex's snapshot
        add_openalex_work(result, number, item)
    elif not isinstance(item, Mapping):
        result.errors.append(RecordError(result.source, number, "not an object"))
    else:
        result.add(number, _titles_read(_unwrap(item)))


def _titles_read(flat: dict[str, Any]) -> dict[str, Any]:
    """A list's title in HTML's rich text read as its text (``plain_title``: ``Growth of
    <i>E. coli</i> at CO<sub>2</sub>`` is ``Growth of E. coli at CO₂``), as many APIs and
    scrapers write it and OpenAlex's reader reads it. Only those elements, opened and closed
    around text: ``a < b and c > d`` and ``Vector<int>`` stay, and so does an escaped tag
    (``&lt;i&gt;``, decoded after this). Our own export's title is display text, kept (its
    ``lists`` and ``title_derived``), as CSL-JSON's and RIS's readers keep ours."""
    if isinstance(flat.get("lists"), list) and "title_derived" in flat:
        return flat
    for name in ALIASES["title"]:
        value = flat.get(name)
        if isinstance(value, str) and "<" in value:
            flat[name] = plain_title(value)
    return flat


JSON = Reader(
    name="JSON",
    label="JSON",
    suffixes=JSON_SUFFIXES,
    sniff=sniff_json,
    read=read_json,
)
JSON_LINES = Reader(
    name="JSON Lines",
    label="JSONL",
    suffixes=JSON_LINES_SUFFIXES,
    sniff=sniff_jsonl,
    read=read_jsonl,
)
