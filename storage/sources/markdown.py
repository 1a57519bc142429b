"""Our own Markdown export (``.md``), read back as the papers it shows.

Both the reading-list form (``- [ ] **[Title](url)** · Oral — [code](…) — [PDF](…)``) and the
form before it (``- **[Title](url)** · Oral · starred``), with each entry's ``Authors``,
``Edited by`` and ``Series`` (a book's, a chapter's), ``Code``, ``Tags`` and facts lines, its
abstract (``  > …``), its note and the lists an HTML comment names
(``storage.export.markdown`` writes them). The text is display text: it is kept so that it
shows as written (``storage.text.source_text.literal``). Its decisions are read as our other
exports' are: a status an entry names, else the heading's (``Starred papers: …``), else
``[x]`` for a paper read.

Any other Markdown (a README, an awesome-list) is not ours: the sniff leaves it to the
plain-text reader, as before.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Final

from storage.errors import SourceError
from storage.models import Status
from storage.sources.records import SNIFF_CHARS, Fit, Reader, ReadResult, first_line
from storage.text.markdown_html import html_restored
from storage.text.source_text import literal

MARKDOWN_SUFFIXES: Final = (".md", ".markdown")
_HEADING: Final = re.compile(r"^# (?P<what>.*) \((?P<count>[\d,]+) papers?\)\s*$")
_ENTRY: Final = re.compile(
    r"^- (?:\[(?P<box>[ xX])\] )?\*\*(?:\[(?P<linked>[^\]\n]*)\]\((?P<url>[^)\s]*)\)"
    r"|(?P<plain>(?:\\[^\n]|[^*\n\\])+?))\*\*(?P<rest>.*)$"
)
_LINK: Final = re.compile(r"\[(?P<label>[^\]\n]*)\]\((?P<url>[^)\s]*)\)")
_LISTS: Final = re.compile(r"\s*<!-- lists: (?P<names>.*?) -->\s*$")
#: What our export writes before the lists of a paper whose title it derived from its abstract
#: (with the abstract: read back, the title is derived again, not taken for a real one).
TITLE_DERIVED_MARK: Final = "<!-- title derived -->"
_UNESCAPE: Final = re.compile(r"\\([!-/:-@\[-`{-~])|&#91;|&#93;|&lt;|&gt;|&amp;")
_ENTITIES: Final = {"&#91;": "[", "&#93;": "]", "&lt;": "<", "&gt;": ">", "&amp;": "&"}
_STATUSES: Final = {s.value: s for s in Status}


def sniff_markdown(text: str, path: Path) -> Fit:
    """A heading ``# … (N papers)`` and an entry of ours near the start: our export."""
    first = first_line(text, 1000)
    if first is None or not _HEADING.match(first):
        return Fit.NO
    head = text[:SNIFF_CHARS]
    if any(_ENTRY.match(line) for line in head.splitlines()[1:200]):
        return Fit.OPENS
    return Fit.HINTED if path.suffix.lower() in MARKDOWN_SUFFIXES else Fit.NO


def unescape(text: str) -> str:
    """What ``md_escape`` wrote, as it was: ``\\*`` → ``*``, ``&#91;`` → ``[``."""
    return _UNESCAPE.sub(lambda m: m.group(1) or _ENTITIES[m.group()], text)


def _split(text: str) -> list[str]:
    """``a, b\\, c`` → ``["a", "b, c"]``: items joined by ", ", their own commas escaped."""
    return [unescape(p).strip() for p in re.split(r"(?<!\\), ", text) if p.strip()]


def _url(text: str) -> str:
    """A link as ``md_url`` wrote it (its parentheses and spaces encoded) as it was."""
    for code, char in _URL_CODES:
        text = text.replace(code, char)
    return text


_URL_CODES: Final = (("%28", "("), ("%29", ")"), ("%3C", "<"), ("%3E", ">"), ("%5C", "\\"))


def _heading_status(what: str) -> Status | None:
    word = what.split(":", 1)[0].strip().casefold().removesuffix(" papers")
    return _STATUSES.get(word)


class _Entry:
    """One paper's lines, gathered."""

    def __init__(self, number: int, match: re.Match[str], status: Status | None) -> None:
        self.number = number
        rest = match["rest"]
        found = _LISTS.search(rest)
        self.lists = unescape(found["names"]) if found else ""
        rest = rest[: found.start()] if found else rest
        derived = rest.endswith(f" {TITLE_DERIVED_MARK}")
        rest = rest.removesuffix(f" {TITLE_DERIVED_MARK}")
        self.fields: dict[str, Any] = {
            "title": literal(
                unescape(match["linked"] or match["plain"] or "").strip(), markdown=False
            ),
            "title_derived": derived,
            "url": _url(match["url"] or ""),
        }
        parts = rest.split(" — ")
        words = [w.strip() for w in parts[0].split(" · ") if w.strip()]
        named = [_STATUSES[w] for w in words if w in _STATUSES]
        venue = [unescape(w) for w in words if w not in _STATUSES]
        if venue:
            self.fields["venue_status"] = venue[0]
        self.fields["pdf"] = next(
            (_url(m["url"]) for p in parts[1:] if (m := _LINK.search(p)) and m["label"] == "PDF"),
            "",
        )
        checked = (match["box"] or " ").strip() != ""
        self.status = named[0] if named else status or (Status.READ if checked else None)
        self.abstract: list[str] = []
        self.note: list[str] | None = None

    def line(self, line: str) -> None:
        """A line of the entry after its first."""
        if self.note is not None:
            self.note.append(line[2:] if line.startswith("  ") else line)
        elif line.startswith("  > ") or line.rstrip() == "  >":
            self.abstract.append(line[4:])
        elif line.rstrip() == "  Note:":
            self.note = []
        elif line.startswith(("  - Authors: ", "  - Editors: ")):  # (both 13 characters)
            self.fields["authors"] = _split(line[13:])
            self.fields["edited_by"] = line.startswith("  - Editors: ")
        elif line.startswith("  - Edited by: "):  # a book's, a chapter's book's editors
            self.fields["editors"] = _split(line[15:])
        elif line.startswith("  - Series: "):
            self.fields["series"] = unescape(line[12:])
        elif line.startswith("  - Code: "):
            self.fields["code"] = [_url(m["url"]) for m in _LINK.finditer(line)]
        elif line.startswith("  - Tags: "):
            self.fields["tags"] = _split(line[10:])
        elif line.startswith("  - "):
            for fact in unescape(line[4:]).split(" · "):
                name, colon, value = fact.partition(": ")
                if colon and name in ("rating", "citations", "area"):
                    self.fields[name] = value

    def record(self) -> dict[str, Any]:
        fields = dict(self.fields)
        fields["links_given"] = True
        paragraphs = _paragraphs([unescape(part) for part in self.abstract])
        fields["abstract"] = literal("\n\n".join(paragraphs))
        if not fields["abstract"]:  # (the title derived again needs the abstract)
            fields.pop("title_derived", None)
        if self.lists:
            fields["lists"] = self.lists
        if self.status is not None:
            fields["status"] = self.status.value
        note = html_restored("\n".join(self.note or ()).strip())
        if note:
            fields["note"] = note
        return {k: v for k, v in fields.items() if v}


def _paragraphs(lines: list[str]) -> list[str]:
    out: list[str] = []
    current: list[str] = []
    for line in lines:
        if line.strip():
            current.append(line.strip())
        elif current:
            out.append(" ".join(current))
            current = []
    if current:
        out.append(" ".join(current))
    return out


def read_markdown(text: str, path: Path) -> ReadResult:
    """Every entry of our Markdown export (see the module)."""
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if line.strip()), 0)
    heading = _HEADING.match(lines[start]) if lines else None
    if heading is None:
        raise SourceError(f"{path}: not a papers-tui Markdown export (no '# … (N papers)' heading)")
    status = _heading_status(heading["what"])
    result = ReadResult(source=str(path), list_name=path.stem)
    entry: _Entry | None = None
    number = 0
    for line in lines[start + 1 :]:
        match = _ENTRY.match(line)
        if match is not None:
            if entry is not None:
                result.add(entry.number, entry.record())
            number += 1
            entry = _Entry(number, match, status)
        elif line.startswith("## ") or (line and not line[0].isspace()):
            if entry is not None:  # a section or any other line ends the entry
                result.add(entry.number, entry.record())
                entry = None
        elif entry is not None:
            entry.line(line)
    if entry is not None:
        result.add(entry.number, entry.record())
    if not number:
        raise SourceError(f"{path}: not a papers-tui Markdown export (no entries '- **Title**')")
    return result


MARKDOWN = Reader(
    name="Markdown (papers-tui)",
    label="Markdown",
    suffixes=MARKDOWN_SUFFIXES,
    sniff=sniff_markdown,
    read=read_markdown,
)
