"""BibTeX (``.bib``): what Zotero, Mendeley, Google Scholar and our own export write.

bibtexparser (v2) splits the file into entries, ``@string`` macros, ``@comment`` and
``@preamble`` blocks and blocks it could not parse (each a record error). Values are then
read here: braces and quotes taken off, ``#`` concatenations and ``@string`` macros (and the
month names BibTeX predefines) resolved, ``crossref`` parents' fields inherited. LaTeX in
titles and names (``{\\"U}ber``, ``{$\\tau$}-bench``) becomes Unicode through the one converter
(``storage.text.latex``), which renders math that bibtexparser's own decoder leaves as
``\\ell_2``; abstracts are kept as written (LaTeX is their display's business).

An entry is a paper known by its title unless it has an ``abstract``; ``@proceedings`` and
other parents of a ``crossref`` are not papers.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Final

from storage.errors import SourceError
from storage.models import RecordError
from storage.sources.records import Fit, Reader, ReadResult, first_line

BIBTEX_SUFFIXES: Final = (".bib", ".bibtex")
_MONTHS: Final = {
    m: str(i)
    for i, m in enumerate(
        ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"), 1
    )
}
#: Entry types that are containers, not papers (the parents of ``crossref``).
_CONTAINERS: Final = frozenset({"proceedings", "book", "collection", "mvproceedings"})
_ENTRY_START: Final = re.compile(r"@\s*[A-Za-z]+\s*[{(]")
#: How deep ``crossref`` chains are followed (BibTeX itself follows one).
_CROSSREF_DEPTH: Final = 4


def sniff_bibtex(text: str, path: Path) -> Fit:
    """The name says BibTeX (then nothing else reads it), or the text opens with an entry."""
    if path.suffix.lower() in BIBTEX_SUFFIXES:
        return Fit.NAMED
    head = text.lstrip()[:4096]
    while head.startswith("%"):  # comment lines before the first entry
        head = head.split("\n", 1)[1].lstrip() if "\n" in head else ""
    return Fit.OPENS if _ENTRY_START.match(head) else Fit.NO


@contextmanager
def _quiet() -> Iterator[None]:
    """bibtexparser logs a warning per block it cannot parse: the import reports them."""
    logger = logging.getLogger("bibtexparser")
    level = logger.level
    logger.setLevel(logging.CRITICAL + 1)
    try:
        yield
    finally:
        logger.setLevel(level)


def _parts(raw: str) -> Iterator[str]:
    """The parts of a value joined by ``#`` outside braces and quotes (linear)."""
    depth, quoted, start = 0, False, 0
    for i, ch in enumerate(raw):
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth = max(0, depth - 1)
        elif ch == '"' and depth == 0:
            quoted = not quoted
        elif ch == "#" and depth == 0 and not quoted:
            yield raw[start:i].strip()
            start = i + 1
    yield raw[start:].strip()


def value_of(raw: str, macros: Mapping[str, str]) -> str:
    """A field's value: delimiters off, concatenations joined, macros and months resolved."""
    out: list[str] = []
    for part in _parts(raw.strip()):
        if len(part) >= 2 and (part[0], part[-1]) in (("{", "}"), ('"', '"')):
            out.append(part[1:-1])
        elif part.isdigit():
            out.append(part)
        else:
            name = part.casefold()
            out.append(macros.get(name, _MONTHS.get(name, part)))
    return "".join(out)


def _split_top(text: str, sep: str) -> list[str]:
    """``text`` split at ``sep`` (compared in lower case) outside braces: a name in braces
    (``{Smith and Sons}``) stays whole. Linear in ``text``."""
    parts: list[str] = []
    depth, start, i, width = 0, 0, 0, len(sep)
    while i < len(text):
        ch = text[i]
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth = max(0, depth - 1)
        elif depth == 0 and ch == sep[0] and text[i : i + width].lower() == sep:
            parts.append(text[start:i])
            start = i = i + width
            continue
        i += 1
    parts.append(text[start:])
    return [p.strip() for p in parts if p.strip()]


def _readable(text: str) -> str:
    from storage.text.latex import to_unicode

    return to_unicode(text)


def _name(raw: str) -> str:
    """``Lee, Ann`` → ``Ann Lee``; ``von Last, Jr, First`` → ``First von Last Jr``;
    ``{Google Research}`` stays one name."""
    pieces = _split_top(raw, ",")
    if len(pieces) == 2:
        raw = f"{pieces[1]} {pieces[0]}"
    elif len(pieces) >= 3:
        raw = f"{pieces[2]} {pieces[0]} {pieces[1]}"
    return " ".join(_readable(raw).split())


def authors_of(raw: str) -> tuple[str, ...]:
    """The names of an ``author`` field, in Unicode."""
    names = (_name(n) for n in _split_top(" ".join(raw.split()), " and "))
    return tuple(dict.fromkeys(n for n in names if n and n.casefold() != "others"))


def _inherit(entries: Mapping[str, dict[str, str]], key: str) -> dict[str, str]:
    """An entry's fields with what its ``crossref`` parents give (a parent's ``title`` is
    the ``booktitle`` of its children)."""
    fields = dict(entries[key])
    seen = {key}
    parent_key = fields.get("crossref", "").strip().casefold()
    for _ in range(_CROSSREF_DEPTH):
        parent = entries.get(parent_key)
        if parent is None or parent_key in seen:
            break
        seen.add(parent_key)
        for name, value in parent.items():
            if name == "title":
                fields.setdefault("booktitle", value)
            elif name not in ("crossref", "ID", "ENTRYTYPE"):
                fields.setdefault(name, value)
        parent_key = parent.get("crossref", "").strip().casefold()
    return fields


def _fields(fields: Mapping[str, str]) -> dict[str, Any]:
    """An entry's fields under the names ``record_from_fields`` reads."""
    out: dict[str, Any] = {
        "title": _readable(fields.get("title", "")),
        "abstract": fields.get("abstract", ""),
        "authors": list(authors_of(fields.get("author", ""))),
        "venue": _readable(fields.get("booktitle") or fields.get("journal", "")),
        "year": fields.get("year", "")[:10],
        "keywords": _readable(fields.get("keywords", "")),
        "doi": fields.get("doi", ""),
    }
    links = [fields.get("url", ""), fields.get("howpublished", "")]
    if fields.get("doi"):
        links.append("https://doi.org/" + fields["doi"].strip().removeprefix("https://doi.org/"))
    eprint = fields.get("eprint", "").strip()
    if eprint and fields.get("archiveprefix", "arxiv").casefold() == "arxiv":
        links.append(f"https://arxiv.org/abs/{eprint}")
    out["url"] = [_readable(u).strip() for u in links if u.strip()]
    note = _readable(" ".join(fields.get(n, "") for n in ("note", "code", "github")))
    out["code"] = note
    return {k: v for k, v in out.items() if v}


def read_bibtex(text: str, path: Path) -> ReadResult:
    """Every entry of a BibTeX file as a record (see the module)."""
    import bibtexparser
    from bibtexparser.model import Entry, ParsingFailedBlock, String

    with _quiet():
        library = bibtexparser.parse_string(text, parse_stack=[])
    result = ReadResult(source=str(path), list_name=path.stem)
    macros: dict[str, str] = {}
    entries: dict[str, dict[str, str]] = {}
    order: list[tuple[str, str]] = []
    number = 0
    for block in library.blocks:
        if isinstance(block, String):
            macros[str(block.key).casefold()] = value_of(str(block.value), macros)
        elif isinstance(block, Entry):
            key = str(block.key).strip().casefold() or f"#{len(order)}"
            fields = {f.key.casefold(): value_of(str(f.value), macros) for f in block.fields}
            entries.setdefault(key, fields)
            order.append((key, block.entry_type.casefold()))
        elif isinstance(block, ParsingFailedBlock):
            number += 1
            raw = block.raw or ""
            line = (first_line(raw, 60) or raw[:60]).strip()
            result.errors.append(RecordError(result.source, number, f"not a BibTeX entry: {line}"))
    parents = {f.get("crossref", "").strip().casefold() for f in entries.values()}
    for key, kind in order:
        if kind in _CONTAINERS or key in parents:
            continue
        number += 1
        result.add(number, _fields(_inherit(entries, key)))
    if not result.records and not result.errors and not entries:
        raise SourceError(f"{path}: holds no BibTeX entries")
    return result


BIBTEX = Reader(
    name="BibTeX",
    label="BibTeX",
    suffixes=BIBTEX_SUFFIXES,
    sniff=sniff_bibtex,
    read=read_bibtex,
)
