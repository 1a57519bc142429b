"""Readers for paper lists: plain text, JSON, JSONL and CSV, detected from content and name.

Each reader turns a file into ``SourceRecord``s (the fields a source gave, under our names)
plus a ``RecordError`` for every record it could not use; a file that cannot be read at all
raises ``SourceError`` with a one-line message.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from storage.errors import SourceError
from storage.models import RecordError
from storage.sources.cleaning import github_from_code_field

#: Abstracts are a few thousand characters; anything far longer is not one.
MAX_ABSTRACT_CHARS = 20_000
#: Shorter than this, a paragraph is a stray line (a page number, a rule), not an abstract.
MIN_ABSTRACT_CHARS = 40
#: A first line this short, alone in its paragraph, names the list.
MAX_HEADER_CHARS = 150
#: A title line longer than this is prose, not a title.
MAX_TITLE_CHARS = 250
LIST_SUFFIXES = frozenset({".txt", ".text", ".md", ".json", ".jsonl", ".ndjson", ".csv", ".tsv"})

# Field names real exports use, by the name we give the field.
ALIASES: dict[str, tuple[str, ...]] = {
    "title": ("title", "paper_title", "name_of_paper"),
    "abstract": ("abstract", "summary", "paper_abstract", "abstract_text", "tldr_abstract"),
    "authors": ("authors", "author", "author_names", "authors_list", "creators"),
    "url": (
        "url",
        "site",
        "forum",
        "openreview",
        "paper_url",
        "link",
        "html_url",
        "pdf_url",
        "pdf",
    ),
    "github": ("github", "code", "code_url", "github_url", "repo", "repository", "code_link"),
    "venue_status": ("status", "decision", "venue_status", "presentation"),
    "keywords": ("keywords", "keyword", "topics", "subjects"),
}


@dataclass(frozen=True, slots=True)
class SourceRecord:
    """One paper as a source gave it, under our field names; not yet cleaned."""

    abstract: str
    title: str = ""
    authors: tuple[str, ...] = ()
    url: str = ""
    github: tuple[str, ...] = ()
    venue_status: str = ""
    keywords: tuple[str, ...] = ()


@dataclass(slots=True)
class ReadResult:
    """What a reader made of one file: the list's name, its records and the records it skipped."""

    source: str
    list_name: str
    records: list[SourceRecord] = field(default_factory=list)
    errors: list[RecordError] = field(default_factory=list)


def list_files(path: Path) -> list[Path]:
    """The list files a path names: the file itself, or a folder's list files (recursively)."""
    if not path.exists():
        raise SourceError(f"{path}: no such file or folder")
    if path.is_dir():
        files = sorted(
            p
            for p in path.rglob("*")
            if p.is_file()
            and p.suffix.lower() in LIST_SUFFIXES
            and not any(part.startswith(".") for part in p.relative_to(path).parts)
        )
        if not files:
            suffixes = ", ".join(sorted(LIST_SUFFIXES))
            raise SourceError(f"{path}: the folder holds no list files ({suffixes})")
        return files
    return [path]


def read_source(path: Path) -> ReadResult:
    """Read one list file, whatever its format."""
    try:
        raw = path.read_bytes()
    except IsADirectoryError:
        raise SourceError(f"{path}: is a folder") from None
    except FileNotFoundError:
        raise SourceError(f"{path}: no such file") from None
    except OSError as exc:
        raise SourceError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    text = decode(raw, path)
    return read_text_content(text, path)


def decode(raw: bytes, path: Path) -> str:
    """Bytes to text: UTF-8 (with or without BOM) or BOM-marked UTF-16; anything else is refused."""
    if not raw.strip():
        raise SourceError(f"{path}: the file is empty, nothing to import")
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return raw.decode("utf-16")
        except UnicodeDecodeError:
            raise SourceError(f"{path}: not a text file (bad UTF-16)") from None
    if b"\x00" in raw[:65536]:
        raise SourceError(f"{path}: not a text file (it holds binary data)")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise SourceError(
            f"{path}: not UTF-8 text (byte {exc.start} cannot be decoded); save it as UTF-8"
        ) from None


def read_text_content(text: str, path: Path) -> ReadResult:
    """Pick the reader from the content first, the file name second."""
    suffix = path.suffix.lower()
    head = text.lstrip()[:1]
    if head == "[" or (head == "{" and suffix not in (".jsonl", ".ndjson")):
        try:
            data = orjson.loads(text)
        except orjson.JSONDecodeError as exc:
            if head == "{" and _looks_like_jsonl(text):
                return read_jsonl(text, path)
            raise SourceError(f"{path}: not valid JSON ({_json_reason(exc)})") from None
        return read_json_data(data, path)
    if head == "{":
        return read_jsonl(text, path)
    if suffix in (".json", ".jsonl", ".ndjson"):
        raise SourceError(f"{path}: not valid JSON (it does not start with '[' or '{{')")
    if suffix in (".csv", ".tsv") or _looks_like_csv(text):
        return read_csv(text, path)
    return read_plain_text(text, path)


# -- plain text -----------------------------------------------------------------------------

_BLANK_LINE = re.compile(r"\n[ \t\r\f\v]*\n")


def read_plain_text(text: str, path: Path) -> ReadResult:
    """The plain list: a header line naming the list, then one abstract per paragraph.

    A paragraph whose first line is short and unpunctuated, followed by more lines, is read
    as a title and its abstract.
    """
    source = str(path)
    paragraphs = [p.strip() for p in _BLANK_LINE.split(text.replace("\r\n", "\n"))]
    paragraphs = [p for p in paragraphs if p]
    list_name = path.stem
    if len(paragraphs) > 1 and is_header(paragraphs[0]):
        list_name = paragraphs.pop(0).strip().lstrip("#").strip() or path.stem
    result = ReadResult(source=source, list_name=list_name)
    for number, paragraph in enumerate(paragraphs, start=1):
        title, paragraph = split_title(paragraph)
        problem = abstract_problem(paragraph)
        if problem:
            result.errors.append(RecordError(source, number, f"paragraph {problem}"))
            continue
        result.records.append(SourceRecord(abstract=paragraph, title=title))
    if not result.records and not result.errors:
        raise SourceError(f"{path}: holds a header line but no abstracts")
    return result


def is_header(paragraph: str) -> bool:
    """A first paragraph that names the list: one short line, not a sentence of prose."""
    line = paragraph.strip()
    if "\n" in line or len(line) > MAX_HEADER_CHARS:
        return False
    return len(line.split()) <= 8 or not line.endswith((".", "!", "?"))


def split_title(paragraph: str) -> tuple[str, str]:
    """``("Title", "abstract")`` when a paragraph opens with a title line, else ``("", paragraph)``.

    A title line is short, ends without sentence punctuation and is clearly shorter than the
    lines after it; a hard-wrapped abstract (lines of about one length) is left whole.
    """
    lines = [line.strip() for line in paragraph.split("\n") if line.strip()]
    if len(lines) < 2:
        return "", paragraph
    first, rest = lines[0], lines[1:]
    longest = max(len(line) for line in rest)
    if (
        len(first) <= MAX_TITLE_CHARS
        and not first.endswith((".", ",", ";", ":", "-"))
        and len(first) < 0.85 * longest
        and len(" ".join(rest)) > 2 * len(first)
    ):
        return first, "\n".join(rest)
    return "", paragraph


def abstract_problem(text: str) -> str:
    """Why ``text`` cannot be an abstract, or "" when it can."""
    if len(text) > MAX_ABSTRACT_CHARS:
        return f"is {len(text):,} characters long, too long for an abstract"
    if sum(ch.isalnum() for ch in text[: MIN_ABSTRACT_CHARS * 4]) < MIN_ABSTRACT_CHARS // 2:
        return "is too short to be an abstract"
    return ""


# -- JSON and JSONL -------------------------------------------------------------------------


def _json_reason(exc: orjson.JSONDecodeError) -> str:
    return f"line {exc.lineno}, column {exc.colno}: {exc.msg}"


def _looks_like_jsonl(text: str) -> bool:
    lines = [line for line in text.splitlines()[:5] if line.strip()]
    return len(lines) > 1 and all(line.lstrip().startswith("{") for line in lines)


def read_json_data(data: Any, path: Path) -> ReadResult:
    """A JSON array of papers, or an object holding one (``{"papers": [...]}``)."""
    items, list_name = _find_paper_array(data)
    if items is None:
        raise SourceError(
            f"{path}: the JSON holds no list of papers "
            "(expected an array of objects with an abstract, or an object holding one)"
        )
    result = ReadResult(source=str(path), list_name=list_name or path.stem)
    for number, item in enumerate(items, start=1):
        _add_record(result, number, item)
    return result


def read_jsonl(text: str, path: Path) -> ReadResult:
    """One JSON object per line; a line that does not parse is a record error, not a failure."""
    result = ReadResult(source=str(path), list_name=path.stem)
    number = 0
    for line in text.splitlines():
        if not line.strip():
            continue
        number += 1
        try:
            item = orjson.loads(line)
        except orjson.JSONDecodeError as exc:
            result.errors.append(RecordError(result.source, number, f"not JSON ({exc.msg})"))
            continue
        _add_record(result, number, item)
    if not result.records and all("not JSON" in e.reason for e in result.errors):
        raise SourceError(f"{path}: not valid JSON Lines (no line holds a JSON object)")
    return result


def _find_paper_array(data: Any, depth: int = 0) -> tuple[list[Any] | None, str]:
    """The array of paper objects in ``data``, and a list name found beside it."""
    if isinstance(data, list):
        if data and sum(isinstance(x, dict) for x in data) >= max(1, len(data) // 2):
            return data, ""
        return None, ""
    if isinstance(data, dict) and depth < 3:
        if _field(data, "abstract") is not None:  # a single paper
            return [data], ""
        name = ""
        for key in ("name", "list", "title", "venue"):
            if isinstance(data.get(key), str) and len(data[key]) <= MAX_HEADER_CHARS:
                name = data[key].strip()
                break
        for value in data.values():
            found, inner = _find_paper_array(value, depth + 1)
            if found is not None:
                return found, inner or name
        values = list(data.values())
        if (
            values
            and all(isinstance(v, dict) for v in values)  # {"id": {paper}, ...}
            and any(_field(_unwrap(v), "abstract") is not None for v in values[:20])
        ):
            return values, name
    return None, ""


def _unwrap(item: Mapping[str, Any]) -> dict[str, Any]:
    """Flatten OpenReview-style records: ``content`` dicts and ``{"value": x}`` wrappers."""
    flat: dict[str, Any] = {}
    content = item.get("content")
    sources = [item, content] if isinstance(content, Mapping) else [item]
    for source in sources:
        for key, value in source.items():
            if isinstance(value, Mapping) and "value" in value:
                value = value["value"]
            flat[str(key).strip().lower()] = value
    return flat


def _field(item: Mapping[str, Any], name: str) -> Any:
    for alias in ALIASES[name]:
        value = item.get(alias)
        if value not in (None, "", [], {}):
            return value
    return None


def _add_record(result: ReadResult, number: int, item: Any) -> None:
    if not isinstance(item, Mapping):
        result.errors.append(RecordError(result.source, number, "not an object"))
        return
    record, problem = record_from_fields(_unwrap(item))
    if record is None:
        result.errors.append(RecordError(result.source, number, problem))
    else:
        result.records.append(record)


def record_from_fields(item: Mapping[str, Any]) -> tuple[SourceRecord | None, str]:
    """Map a source's fields (lower-cased names) onto a ``SourceRecord``, or say what is missing."""
    abstract = _field(item, "abstract")
    if abstract is None:
        return None, "no abstract"
    if not isinstance(abstract, str):
        return None, "the abstract is not text"
    abstract = abstract.strip()
    problem = abstract_problem(abstract)
    if problem:
        return None, f"the abstract {problem}"
    github: list[str] = []
    for value in _strings(_field(item, "github")):
        github.extend(github_from_code_field(value))
    return (
        SourceRecord(
            abstract=abstract,
            title=_one_line(_field(item, "title")),
            authors=_authors(_field(item, "authors")),
            url=_url(item),
            github=tuple(dict.fromkeys(github)),
            venue_status=venue_status(_one_line(_field(item, "venue_status"))),
            keywords=_keywords(_field(item, "keywords")),
        ),
        "",
    )


def _strings(value: Any) -> Iterator[str]:
    if value is None:
        return
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for key in ("url", "href", "name", "value"):
            if isinstance(value.get(key), str):
                yield value[key]
                return
    elif isinstance(value, Iterable):
        for item in value:
            yield from _strings(item)
    else:
        yield str(value)


def _one_line(value: Any) -> str:
    if value is None:
        return ""
    text = value if isinstance(value, str) else " ".join(_strings(value))
    return " ".join(text.split())


_AUTHOR_SPLIT = re.compile(r"\s*;\s*|\s*,\s*(?:and\s+)?|\s+and\s+|\s*\n\s*")


def _authors(value: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        parts: Iterable[str] = value.split(";") if ";" in value else _AUTHOR_SPLIT.split(value)
    else:
        parts = _strings(value)
    return tuple(dict.fromkeys(" ".join(p.split()) for p in parts if p and p.strip()))


def _keywords(value: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    parts = re.split(r"\s*[;,]\s*", value) if isinstance(value, str) else _strings(value)
    return tuple(dict.fromkeys(" ".join(p.split()) for p in parts if p and p.strip()))


_OPENREVIEW_ID = re.compile(r"^[A-Za-z0-9_-]{6,20}$")


def _url(item: Mapping[str, Any]) -> str:
    for alias in ALIASES["url"]:
        for value in _strings(item.get(alias)):
            value = value.strip()
            if value.startswith(("http://", "https://")):
                return value
            if alias in ("forum", "openreview") and _OPENREVIEW_ID.match(value):
                return f"https://openreview.net/forum?id={value}"
    return ""


_VENUE_WORDS = ("oral", "spotlight", "poster", "reject", "withdrawn", "workshop")


def venue_status(text: str) -> str:
    """``Accept (Oral)``, ``ICLR 2025 oral`` → ``Oral``; other statuses are kept as written."""
    low = text.casefold()
    for word in _VENUE_WORDS:
        if word in low:
            return word.capitalize()
    return text[:40]


# -- CSV ------------------------------------------------------------------------------------


def _looks_like_csv(text: str) -> bool:
    first = text.lstrip().split("\n", 1)[0].casefold()
    if len(first) > 500:
        return False
    cells = {c.strip().strip('"') for c in re.split(r"[,\t;]", first)}
    return len(cells) > 1 and bool(cells & set(ALIASES["abstract"]))


def read_csv(text: str, path: Path) -> ReadResult:
    """A CSV (or TSV) file with a header row that names an abstract column."""
    sample = text[:8192]
    try:
        dialect: type[csv.Dialect] | csv.Dialect = csv.Sniffer().sniff(sample, delimiters=",\t;")
    except csv.Error:
        dialect = csv.excel_tab if path.suffix.lower() == ".tsv" else csv.excel
    csv.field_size_limit(max(MAX_ABSTRACT_CHARS * 50, 1 << 24))
    reader = csv.reader(io.StringIO(text), dialect)
    try:
        header = next(reader)
    except (StopIteration, csv.Error):
        raise SourceError(f"{path}: not a CSV file with a header row") from None
    names = [h.strip().lstrip("\ufeff").lower() for h in header]
    if not set(names) & set(ALIASES["abstract"]):
        shown = ", ".join(h for h in names[:8] if h) or "none"
        raise SourceError(f"{path}: the CSV has no abstract column (its columns: {shown})")
    result = ReadResult(source=str(path), list_name=path.stem)
    number = 0
    try:
        for row in reader:
            if not any(cell.strip() for cell in row):
                continue
            number += 1
            item = {names[i]: cell for i, cell in enumerate(row) if i < len(names) and names[i]}
            record, problem = record_from_fields(item)
            if record is None:
                result.errors.append(RecordError(result.source, number, problem))
            else:
                result.records.append(record)
    except csv.Error as exc:
        result.errors.append(RecordError(result.source, number + 1, f"bad CSV row ({exc})"))
    return result
