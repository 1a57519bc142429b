"""Zotero's Web API JSON: what ``GET /users/N/items?format=json`` answers (an array of items) and
``GET /users/N/items/KEY?format=json`` (one item, an object), Zotero's local API too.

Each item is ``{"key", "version", "library", "links", "meta", "data": {…}}``; its fields are in
``data``: ``itemType``, ``title``, ``creators`` (``{"creatorType", "firstName", "lastName"}``
or ``{"creatorType", "name"}``), ``abstractNote``, the container's title under the item type's
name for it (``publicationTitle``, ``proceedingsTitle``, ``bookTitle``, …), ``date`` as typed
(``meta.parsedDate`` is Zotero's reading of it), ``DOI``, ``url``, ``tags``, and ``extra``,
whose lines keep what the item type has no field for (``arXiv: 2401.01234``, ``DOI: 10.1/x``).

Asked with ``include=csljson`` (or ``include=data,csljson``), an item holds its fields as
CSL-JSON under ``csljson`` (``storage.sources.csl_json``), beside ``data`` or instead of it:
``data`` is read when it is there (Zotero's own fields say more), else ``csljson``; a child
item then says its parent only in its ``links`` (``up``).

Notes and attachments are items too (``itemType`` ``note``, ``attachment``, ``annotation``), no
papers: a note under an item of the file (``parentItem``) becomes that paper's note (as text);
a PDF attached to one becomes its local PDF (``file``) when the file is on this machine
(``_attached_pdf``), and its web address (an ``imported_url``'s ``url``) its PDF link; the rest
is left out, said in one warning when it is a note or a standalone attachment.
Items in Zotero's trash (``deleted``) are left out and counted in that warning.
"""

from __future__ import annotations

import contextlib
import html
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Final

from storage.caps import notes_cut
from storage.errors import SourceError
from storage.sources.attachments import MAX_PATH_CHARS, file_field, file_url_path, resolved
from storage.sources.authors import tied_family
from storage.sources.citation import doi_of, entry_type
from storage.sources.csl_json import csl_fields
from storage.sources.dates import typed_date as zotero_date
from storage.sources.links import extract_github_links, web_url
from storage.sources.records import ARXIV_ID, ReadResult, folder_of
from storage.text.rich_text import plain_title

__all__ = ["extra_ids", "read_zotero_items", "zotero_items"]

#: Item types that are no papers: what hangs under an item.
_CHILD_TYPES: Final = frozenset({"note", "attachment", "annotation"})
#: The creator types that are a work's authors (the item type's primary creator).
_PRIMARY: Final = (
    "author", "programmer", "inventor", "presenter", "director", "artist", "podcaster",
    "cartographer", "performer", "composer", "interviewee", "sponsor", "contributor",
)  # fmt: skip
#: The container's title, by the field it is under and the reference field it becomes.
_CONTAINERS: Final = (
    ("publicationTitle", "journal"),  # journalArticle, magazineArticle, newspaperArticle
    ("proceedingsTitle", "booktitle"),
    ("conferenceName", "booktitle"),
    ("bookTitle", "booktitle"),
    ("encyclopediaTitle", "booktitle"),
    ("dictionaryTitle", "booktitle"),
    ("websiteTitle", "container-title"),
    ("blogTitle", "container-title"),
    ("forumTitle", "container-title"),
    ("programTitle", "container-title"),
)
#: Where an item's title is: ``title``, else a case's, a statute's, an email's name for it.
_TITLES: Final = ("title", "caseName", "nameOfAct", "subject")
#: Reference fields Zotero names its own way (by item type), as ours.
_PLAIN: Final = (
    ("volume", "volume"), ("issue", "issue"), ("pages", "pages"), ("ISBN", "isbn"),
    ("ISSN", "issn"), ("publisher", "publisher"), ("university", "school"),
    ("institution", "institution"),
)  # fmt: skip
#: ``extra`` lines that name a field Zotero has no field for (``arXiv:2401.01234 [cs]``,
#: ``DOI: 10.1/x``); a preprint's ``archiveID`` (or CSV ``Number``) is ``arXiv:2401.01234``.
_EXTRA_ARXIV: Final = re.compile(
    rf"^arxiv:\s*({ARXIV_ID.pattern})(?:\s+\[[^\]\n]*\])?\s*$", re.IGNORECASE | re.MULTILINE
)
_EXTRA_DOI: Final = re.compile(r"^doi:[ \t]*(\S+)[ \t]*$", re.IGNORECASE | re.MULTILINE)


def extra_ids(extra: str, archive_id: str = "") -> tuple[str, str]:
    """The arXiv id and the DOI that Zotero's ``extra`` lines give (the arXiv id also a
    preprint's archive id, its CSV's ``Number``); "" for none. Prose that mentions an id is
    no such line."""
    arxiv = next(
        (f.group(1) for t in (extra, archive_id) if (f := _EXTRA_ARXIV.search(t[:20_000]))), ""
    )
    line = _EXTRA_DOI.search(extra[:20_000])
    return arxiv, doi_of(line.group(1)) if line else ""


def _data(item: Any) -> Mapping[str, Any] | None:
    """A Zotero item's ``data``, or None for anything else; an item's fields alone (Better
    BibTeX's JSON export, Zotero's translators, Citoid) are their own ``data``."""
    if not isinstance(item, Mapping):
        return None
    data = item.get("data")
    if isinstance(data, Mapping) and isinstance(data.get("itemType"), str) and "key" in item:
        return data
    if data is None and isinstance(item.get("itemType"), str) and _BARE.intersection(item):
        return item
    return None


#: What an item's fields alone hold besides their ``itemType`` (Zotero's own names).
_BARE: Final = frozenset({"creators", "abstractNote", "itemKey", "itemID", "parentItem"})


def _csljson(item: Any) -> Mapping[str, Any] | None:
    """A Zotero item's CSL-JSON (asked with ``include=csljson``), or None for none."""
    if not isinstance(item, Mapping) or "key" not in item:
        return None
    csl = item.get("csljson")
    return csl if isinstance(csl, Mapping) else None


def _is_item(item: Any) -> bool:
    return _data(item) is not None or _csljson(item) is not None


def zotero_items(data: Any) -> list[Any] | None:
    """The items of a Zotero API answer: an array of them, or one item; Better BibTeX's JSON
    export (``{"config", "items": […]}``); None for no such answer (most of an array's first
    objects must be items)."""
    if _is_item(data):
        return [data]
    if isinstance(data, Mapping) and isinstance(data.get("items"), list):
        data = data["items"]
    if isinstance(data, list) and data:
        sample = data[:20]
        if sum(map(_is_item, sample)) * 2 > len(sample):
            return data
    return None


def _link(item: Any, name: str) -> Mapping[str, Any]:
    """An item's link ``name`` (``up``: its parent; ``enclosure``: its file), {} for none."""
    links = item.get("links") if isinstance(item, Mapping) else None
    link = links.get(name) if isinstance(links, Mapping) else None
    return link if isinstance(link, Mapping) else {}


def _href(item: Any, name: str) -> str:
    return _text(_link(item, name).get("href"))


def _kind_and_parent(item: Any, data: Mapping[str, Any] | None) -> tuple[str, str]:
    """An item's type and its parent's key ("" for a top-level item). An item of CSL-JSON
    alone says neither: a child links ``up`` to its parent, an attachment to its file."""
    if data is not None:
        return _text(data.get("itemType")), _text(data.get("parentItem"))
    parent = _href(item, "up").rstrip("/").rpartition("/")[2]
    if _href(item, "enclosure"):
        return "attachment", parent
    return ("note" if parent else ""), parent


def _text(value: Any) -> str:
    return value.strip() if isinstance(value, str) else ""


def _people(creators: Any) -> tuple[list[str], bool, list[str], list[str]]:
    """The authors among an item's creators: the primary creator type, else the editors, else
    the series' editors (as the Zotero RDF reader takes them), else every creator; whether
    they are its editors; the editors beside its authors (a chapter's book's); and its
    series' editors when they are not its people."""
    if not isinstance(creators, list):
        return [], False, [], []
    named: list[tuple[str, str]] = []
    for person in creators[:5000]:
        if not isinstance(person, Mapping):
            continue
        first, last = _text(person.get("firstName")), _text(person.get("lastName"))
        name = _text(person.get("name")) or " ".join(
            p for p in (first, tied_family(last) if first else last) if p
        )
        if name:
            named.append((_text(person.get("creatorType")), name))
    primary = [name for kind, name in named if kind in _PRIMARY]
    # a book that names only its editors is theirs, not its translator's too
    editors = [name for kind, name in named if kind == "editor"]
    series = [name for kind, name in named if kind == "seriesEditor"]
    if primary or not (editors or series):
        people = primary or [name for _, name in named]
        return people, False, editors if primary else [], series
    return editors or series, True, [], series if editors else []


def _dated(fields: dict[str, Any], data: Mapping[str, Any], meta: Any) -> None:
    """``year``, ``month`` and a full ``date`` from Zotero's reading of the date, else ours."""
    parsed = _text(meta.get("parsedDate")) if isinstance(meta, Mapping) else ""
    year, month, day = zotero_date(parsed) if parsed else (None, None, None)
    if year is None:
        year, month, day = zotero_date(_text(data.get("date")))
    if year is None:
        return
    fields["year"] = str(year)
    if month is not None:
        fields["month"] = month
        if day is not None:
            fields["date"] = f"{year:04d}-{month:02d}-{day:02d}"


def _fields(data: Mapping[str, Any], meta: Any) -> dict[str, Any]:
    """An item's fields under the names ``record_from_fields`` reads."""
    kind = _text(data.get("itemType"))
    people, edited, editors, series_editors = _people(data.get("creators"))
    fields: dict[str, Any] = {
        # a legal case's, a statute's, an email's title is under its own name
        "title": plain_title(next((_text(data[n]) for n in _TITLES if _text(data.get(n))), "")),
        "abstract": _text(data.get("abstractNote")),
        "authors": people,
        "edited_by": edited,  # (when there are any: ``records.record_from_fields``)
        "editors": editors,  # a chapter's book's, a paper's proceedings'
        "series_editors": series_editors,
        "url": _text(data.get("url")),
        "entry_type": entry_type(kind),
    }
    for name, ours in _CONTAINERS:
        value = _text(data.get(name))
        if value and not fields.get(ours):
            if ours == "journal" and fields["entry_type"] not in ("article", "misc"):
                ours = "container-title"  # a magazine's, a newspaper's; not a proceedings'
            fields[ours] = value
    for name, ours in _PLAIN:
        if value := _text(data.get(name)):
            fields[ours] = value
    repository = _text(data.get("repository"))  # a preprint's server: arXiv is no venue
    if repository and repository.casefold() != "arxiv" and "publisher" not in fields:
        fields["publisher"] = repository
    arxiv, doi = extra_ids(_text(data.get("extra")), _text(data.get("archiveID")))
    fields["doi"] = doi_of(_text(data.get("DOI"))) or _text(data.get("DOI")) or doi
    if arxiv:
        fields["eprint"], fields["archiveprefix"] = arxiv, "arXiv"
    tags = data.get("tags")
    if isinstance(tags, list):
        words = (_text(t.get("tag")) if isinstance(t, Mapping) else _text(t) for t in tags[:1000])
        fields["keywords"] = list(dict.fromkeys(w for w in words if w))
    _dated(fields, data, meta)
    return {k: v for k, v in fields.items() if v not in ("", [], None)}


_BREAKS: Final = re.compile(r"<\s*(?:br\s*/?|/\s*(?:p|div|h[1-6]|li|blockquote|pre|tr)\s*)>", re.I)
_TAG: Final = re.compile(r"<[^<>]{0,2000}>")


def note_text(note: str) -> str:
    """A Zotero note (HTML) as text: its paragraphs on lines of their own, no markup.

    Read whole (linear: about a second for 100 MB): a note of annotations is mostly markup
    (each highlight a ``<span data-annotation="…">`` of some 400 characters), so the HTML
    cut at a length kept a part of its text, in silence; the text is cut at the note's cap
    where the notes are joined, said (``attach``)."""
    text = _TAG.sub("", _BREAKS.sub("\n", note))
    lines = (" ".join(html.unescape(line).split()) for line in text.splitlines())
    return "\n".join(line for line in lines if line)


#: A Zotero key (an item's, the name of its folder in Zotero's storage folder).
_KEY: Final = re.compile(r"[A-Za-z0-9]{1,32}")


def _storage_folders(base: Path | None) -> list[Path]:
    """Where a Zotero storage folder may be on this machine: beside the export (``storage/``,
    or the key folders themselves), and Zotero's own data folder (``~/Zotero/storage``)."""
    folders = [base / "storage", base] if base is not None else []
    with contextlib.suppress(RuntimeError, KeyError):  # no home folder to be found
        folders.append(Path.home() / "Zotero" / "storage")
    return folders


def _attached_pdf(item: Any, data: Mapping[str, Any] | None, folders: Sequence[Path]) -> str:
    """The path of the PDF an attachment item holds, when that file is on this machine; ""
    otherwise (a path is never made up: only a file that is there is linked).

    A ``linked_file`` names its absolute ``path``; an ``imported_file`` or ``imported_url`` is
    ``KEY/filename`` in a Zotero storage folder (``_storage_folders``); Zotero's local API
    gives the file as its ``enclosure`` link, a ``file:`` address."""
    found = [file_url_path(e)] if (e := _href(item, "enclosure"))[:5].lower() == "file:" else []
    if data is not None:
        mode, name = _text(data.get("linkMode")), _text(data.get("filename"))
        pdf = _text(data.get("contentType")).lower() == "application/pdf"
        if mode == "linked_file" and Path(_text(data.get("path"))).is_absolute():
            found.append(_text(data.get("path")))
        key = _text(data.get("key")) or _text(item.get("key"))
        plain = name not in ("", ".", "..") and not any(c in name for c in "/\\\x00")
        if mode in ("imported_file", "imported_url") and plain and _KEY.fullmatch(key):
            found += [str(folder / key / name) for folder in folders]
    else:
        pdf = _text(_link(item, "enclosure").get("type")).lower() == "application/pdf"
    return _first_file(found, pdf)


def _first_file(paths: Sequence[str], pdf: bool) -> str:
    """The first of ``paths`` that is a file here, and a PDF (``pdf``: by its content type;
    else by its name); "" for none."""
    for path in paths:
        if not (pdf or path.lower().endswith(".pdf")) or len(path) > MAX_PATH_CHARS:
            continue
        try:
            if Path(path).is_file():
                return path
        except (OSError, ValueError):
            continue
    return ""


def _nested(data: Mapping[str, Any], base: Path | None) -> tuple[list[str], str]:
    """The notes (as text) and the local PDF of an item that holds its own (Better BibTeX's
    JSON: ``notes``, HTML or ``{"note": …}``; ``attachments``, ``{"path": …}`` absolute, or
    relative to the export when it was made with its files)."""
    notes = data.get("notes")
    texts: list[str] = []
    for note in notes if isinstance(notes, list) else []:  # each: they are cut where joined
        text = note.get("note") if isinstance(note, Mapping) else note
        if isinstance(text, str):
            texts.append(note_text(text))
    attachments = data.get("attachments")
    for attached in attachments[:1000] if isinstance(attachments, list) else []:
        if not isinstance(attached, Mapping):
            continue
        given = _text(attached.get("localPath")) or _text(attached.get("path"))
        path = resolved(given, base) if given else ""
        pdf = _text(attached.get("contentType")).lower() == "application/pdf"
        if path and (found := _first_file([path], pdf)):
            return texts, found
    return texts, ""


def _pdf_of(item: Any, data: Mapping[str, Any] | None, folders: Sequence[Path]) -> tuple[str, str]:
    """(the local file, the web address) of the PDF an attachment item holds ("" for none)."""
    local = _attached_pdf(item, data, folders)
    if data is None or _text(data.get("contentType")).lower() != "application/pdf":
        return local, ""
    web = web_url(_text(data.get("url"))) if data.get("linkMode") == "imported_url" else ""
    return local, web


def _csl_item_fields(csl: Mapping[str, Any], meta: Any) -> dict[str, Any]:
    """An item of CSL-JSON alone (``include=csljson``) as ``csl_fields`` reads it, with what
    Zotero writes there its own way: ``extra``'s lines in ``note`` (``arXiv: …``, ``DOI: …``),
    and Zotero's reading of the date (``meta.parsedDate``) where CSL's gives no year."""
    fields = csl_fields(csl)
    note = csl.get("note")
    arxiv, doi = extra_ids(note if isinstance(note, str) else "")
    if arxiv and not fields.get("eprint"):
        fields["eprint"], fields["archiveprefix"] = arxiv, "arXiv"
    if doi and not fields.get("doi"):
        fields["doi"] = doi
    if not fields.get("year"):
        dated: dict[str, Any] = {}
        _dated(dated, {}, meta)
        fields.update(dated)
    return fields


def read_zotero_items(items: Sequence[Any], path: Path) -> ReadResult:
    """Every paper of a Zotero API answer, its notes as its note, its PDF as its file (see
    the module)."""
    result = ReadResult(source=str(path), list_name=path.stem)
    base = folder_of(result.source)
    folders = _storage_folders(base)
    notes: dict[str, list[str]] = {}
    pdfs: dict[str, tuple[str, str]] = {}
    papers: list[tuple[int, Any, Mapping[str, Any] | None]] = []
    keys: set[str] = set()
    left_notes = left_files = trashed = 0
    number = 0
    for item in items:
        data = _data(item)
        kind, parent = _kind_and_parent(item, data)
        if kind in _CHILD_TYPES:
            text = data.get("note") if data is not None else None
            if kind == "note" and parent and data is None:
                pass  # its text is not in its CSL-JSON
            elif kind == "note" and parent and isinstance(text, str):
                notes.setdefault(parent, []).append(note_text(text))
            elif kind == "note":
                left_notes += 1
            elif not parent:
                left_files += 1
            elif kind == "attachment":
                local, web = _pdf_of(item, data, folders)
                had = pdfs.get(parent, ("", ""))
                pdfs[parent] = (had[0] or local, had[1] or web)
            continue
        number += 1
        if data is None and _csljson(item) is None:
            result.refuse(number, "not a Zotero item (no data with an itemType)")
        elif data is not None and data.get("deleted") in (1, True, "1", "true"):
            trashed += 1
            number -= 1
        else:
            papers.append((number, item, data))
            keys.add((_text(data.get("key")) if data else "") or _text(item.get("key")))
    left_notes += sum(len(texts) for key, texts in notes.items() if key not in keys)
    for number, item, data in papers:
        if data is not None:
            fields = _fields(data, item.get("meta"))
        else:
            fields = _csl_item_fields(_csljson(item) or {}, item.get("meta"))
        key = (_text(data.get("key")) if data else "") or _text(item.get("key"))
        own_notes, own_pdf = _nested(data, base) if data is not None else ([], "")
        local, web = pdfs.get(key, ("", ""))
        note = "\n\n".join(t for t in (*notes.get(key, ()), *own_notes) if t)
        attach(result, number, fields, (local or own_pdf, web), note)
        result.add(number, fields)
    trash = (trashed, "item in the trash", "items in the trash")
    left_out(result, path, left_notes, left_files, trash)
    if not result.records and not result.errors:
        raise SourceError(
            f"{path}: a Zotero export of no papers: {len(items):,} notes, attachments or "
            "trashed items"
        )
    return result


def attach(
    result: ReadResult, number: int, fields: dict[str, Any], pdf: tuple[str, str], note: str
) -> None:
    """Give record ``number``'s fields the PDF its attachments hold (``pdf``: the local file,
    the web address; "" for none), a web address only where it has no PDF link of its own,
    and its notes as its note, cut at ``MAX_NOTE_CHARS`` with a warning."""
    local, web = pdf
    if local:
        fields["file"] = file_field(local)
    if web and not fields.get("pdf"):
        fields["pdf"] = web
    if "github" in note.lower():  # arXiv's comment, a note of Zotero's ("Comment: … Code at
        # https://github.com/…"), or the user's: its repositories, as a RIS's ``N1`` gives
        # them; those of the notes past the cap too
        fields["code"] = f"{fields.get('code') or ''} {' '.join(extract_github_links(note))}"
    note, said = notes_cut(note)
    if said:
        result.warnings.append(f"{result.source}: record {number}: {said}")
    if note:
        fields["note"] = note


def left_out(
    result: ReadResult,
    path: Path,
    notes: int,
    files: int,
    other: tuple[int, str, str],
    said: str = "no papers, left out",
) -> None:
    """One warning for what a Zotero export holds that is no paper and belongs to none: notes
    and attachments with no item, and ``other`` (how many, what one is, what many are)."""
    parts = [
        f"{n:,} {one if n == 1 else many}"
        for n, one, many in (
            (notes, "note with no item in the file", "notes with no item in the file"),
            (files, "standalone attachment", "standalone attachments"),
            other,
        )
        if n
    ]
    if parts:
        result.warnings.append(f"{path}: {', '.join(parts)}: {said}")
