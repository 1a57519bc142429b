"""Writers: a list of papers as Markdown, CSV, JSON or BibTeX."""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import orjson

from storage.models import Paper, Status
from storage.triage import TriageSnapshot

FORMATS = ("markdown", "csv", "json", "bibtex")
GROUPINGS = ("none", "tag", "venue", "list")
SUFFIXES = {"markdown": ".md", "csv": ".csv", "json": ".json", "bibtex": ".bib"}


def paper_record(paper: Paper, triage: TriageSnapshot) -> dict[str, Any]:
    """A paper as a JSON object: the ``--json`` contract of the CLI, plus note and tags."""
    return {
        "id": paper.id,
        "title": paper.title,
        "status": triage.status(paper.id).value,
        "github": list(paper.github),
        "url": paper.url,
        "list": paper.list,
        "abstract": paper.abstract,
        "authors": list(paper.authors),
        "venue_status": paper.venue_status,
        "keywords": list(paper.keywords),
        "position": paper.position,
        "note": triage.notes.get(paper.id, ""),
        "tags": list(triage.tags.get(paper.id, ())),
        "title_derived": paper.title_derived,
    }


def export(
    papers: Sequence[Paper],
    triage: TriageSnapshot,
    fmt: str = "markdown",
    *,
    heading: str = "",
    group_by: str = "none",
) -> str:
    """The papers in format ``fmt`` (one of ``FORMATS``), as text."""
    writers: dict[str, Callable[[], str]] = {
        "markdown": lambda: to_markdown(papers, triage, heading=heading, group_by=group_by),
        "csv": lambda: to_csv(papers, triage),
        "json": lambda: to_json(papers, triage),
        "bibtex": lambda: to_bibtex(papers, triage),
    }
    if fmt not in writers:
        raise ValueError(f"unknown format {fmt!r} (choose from {', '.join(FORMATS)})")
    return writers[fmt]()


# -- Markdown -------------------------------------------------------------------------------

_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]<>()#!|~&$])")


def md_escape(text: str) -> str:
    """Text that CommonMark shows literally, on one line."""
    return _MD_SPECIAL.sub(r"\\\1", " ".join(text.split()))


_MD_BLOCK_START = re.compile(r"^(?:([-+=])|(\d+)([.)]))")


def md_escape_line(text: str) -> str:
    """``md_escape`` for text that starts a line: list, rule and heading markers made literal."""
    return _MD_BLOCK_START.sub(
        lambda m: f"\\{m[1]}" if m[1] else f"{m[2]}\\{m[3]}", md_escape(text)
    )


def md_url(url: str) -> str:
    """A link destination CommonMark reads whole: spaces, parentheses and brackets encoded."""
    return (
        url.strip()
        .replace(" ", "%20")
        .replace("(", "%28")
        .replace(")", "%29")
        .replace("<", "%3C")
        .replace(">", "%3E")
    )


def _repo_label(url: str) -> str:
    return url.removeprefix("https://github.com/")


def heading_for(papers: Sequence[Paper], what: str = "Papers") -> str:
    """``Starred papers: ICLR 2025 Papers``: what is exported, and from which list(s)."""
    lists = list(dict.fromkeys(p.list for p in papers))
    if not lists:
        return what
    return f"{what}: {lists[0] if len(lists) == 1 else f'{len(lists)} lists'}"


def _heading_for(papers: Sequence[Paper], triage: TriageSnapshot, heading: str) -> str:
    if heading:
        return heading
    statuses = {triage.status(p.id) for p in papers}
    what = f"{next(iter(statuses)).value.capitalize()} papers" if len(statuses) == 1 else "Papers"
    return heading_for(papers, what)


def _groups(
    papers: Sequence[Paper], triage: TriageSnapshot, group_by: str
) -> list[tuple[str, list[Paper]]]:
    if group_by == "none":
        return [("", list(papers))]
    groups: dict[str, list[Paper]] = {}
    for paper in papers:
        if group_by == "tag":
            keys: Iterable[str] = triage.tags.get(paper.id) or ("untagged",)
        elif group_by == "venue":
            keys = (paper.venue_status or "No venue status",)
        elif group_by == "list":
            keys = (paper.list,)
        else:
            raise ValueError(f"unknown grouping {group_by!r} (choose from {', '.join(GROUPINGS)})")
        for key in keys:
            groups.setdefault(key, []).append(paper)
    order = {"Oral": 0, "Spotlight": 1, "Poster": 2}
    if group_by == "venue":
        return sorted(groups.items(), key=lambda kv: (order.get(kv[0], 3), kv[0]))
    if group_by == "tag":
        return sorted(groups.items(), key=lambda kv: (kv[0] == "untagged", kv[0]))
    return list(groups.items())


def to_markdown(
    papers: Sequence[Paper],
    triage: TriageSnapshot,
    *,
    heading: str = "",
    group_by: str = "none",
) -> str:
    """A heading with the list and count, then one entry per paper: links, authors, note."""
    count = f"{len(papers)} paper{'s' if len(papers) != 1 else ''}"
    lines = [f"# {md_escape(_heading_for(papers, triage, heading))} ({count})", ""]
    for group, members in _groups(papers, triage, group_by):
        if group:
            lines += [f"## {md_escape(group)} ({len(members)})", ""]
        for paper in members:
            lines += _markdown_entry(paper, triage)
        if group:
            lines.append("")
    if lines[-1] != "":
        lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"


def _markdown_entry(paper: Paper, triage: TriageSnapshot) -> list[str]:
    title = md_escape(paper.display_title)
    head = f"- **[{title}]({md_url(paper.url)})**" if paper.url else f"- **{title}**"
    if paper.venue_status:
        head += f" · {md_escape(paper.venue_status)}"
    lines = [head]
    if paper.authors:
        lines.append(f"  - Authors: {md_escape(', '.join(paper.authors))}")
    if paper.github:
        links = ", ".join(f"[{md_escape(_repo_label(u))}]({md_url(u)})" for u in paper.github)
        lines.append(f"  - Code: {links}")
    tags = triage.tags.get(paper.id)
    if tags:
        lines.append(f"  - Tags: {md_escape(', '.join(tags))}")
    note = triage.notes.get(paper.id, "").strip()
    if note:
        body = [md_escape_line(line) for line in note.splitlines() if line.strip()]
        lines.append(f"  - Note: {body[0]}")
        lines += [f"    {line}" for line in body[1:]]
    return lines


# -- CSV and JSON ---------------------------------------------------------------------------

CSV_COLUMNS = (
    "id", "title", "status", "authors", "url", "github", "list",
    "venue_status", "tags", "note", "abstract",
)  # fmt: skip


def to_csv(papers: Sequence[Paper], triage: TriageSnapshot) -> str:
    """One row per paper; several authors joined by "; ", several links by spaces."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for paper in papers:
        record = paper_record(paper, triage)
        record["authors"] = "; ".join(paper.authors)
        record["github"] = " ".join(paper.github)
        record["tags"] = "; ".join(record["tags"])
        writer.writerow([_csv_safe(str(record[c])) for c in CSV_COLUMNS])
    return out.getvalue()


def _csv_safe(value: str) -> str:
    """Keep spreadsheets from running a cell as a formula (a title starting with "=")."""
    return "'" + value if value[:1] in ("=", "+", "@") or value.startswith("-=") else value


def to_json(papers: Sequence[Paper], triage: TriageSnapshot) -> str:
    """A JSON array of paper objects (``paper_record``), in list order."""
    records = [paper_record(p, triage) for p in papers]
    return orjson.dumps(records, option=orjson.OPT_INDENT_2).decode("utf-8") + "\n"


# -- BibTeX ---------------------------------------------------------------------------------

_BIB_SPECIAL = {
    "\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "&": r"\&", "%": r"\%", "$": r"\$",
    "#": r"\#", "_": r"\_", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
}  # fmt: skip


def bib_escape(text: str) -> str:
    """Text safe inside a BibTeX field."""
    return "".join(_BIB_SPECIAL.get(ch, ch) for ch in " ".join(text.split()))


def _ascii_word(text: str) -> str:
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^A-Za-z0-9]", "", plain)


_YEAR = re.compile(r"\b(19|20)\d\d\b")


def bibtex_key(paper: Paper, taken: set[str]) -> str:
    """``lastname2025firstword``, made unique with a letter suffix."""
    last = _ascii_word(paper.authors[0].split()[-1]).lower() if paper.authors else "anon"
    year = _YEAR.search(paper.list)
    words = [w for w in (_ascii_word(w).lower() for w in paper.display_title.split()) if w]
    first = next((w for w in words if len(w) > 3), words[0] if words else "paper")
    key = f"{last or 'anon'}{year.group(0) if year else ''}{first}"
    candidate, n = key, 0
    while candidate in taken:
        n += 1
        candidate = f"{key}{chr(ord('a') + (n - 1) % 26)}{(n - 1) // 26 or ''}"
    taken.add(candidate)
    return candidate


def to_bibtex(papers: Sequence[Paper], triage: TriageSnapshot) -> str:
    """One ``@inproceedings`` (or ``@misc``) entry per paper that has authors."""
    taken: set[str] = set()
    entries = []
    skipped = 0
    for paper in papers:
        if not paper.authors:
            skipped += 1
            continue
        fields = [
            ("title", "{" + bib_escape(paper.display_title) + "}"),
            ("author", " and ".join(bib_escape(a) for a in paper.authors)),
        ]
        year = _YEAR.search(paper.list)
        if year:
            fields.append(("year", year.group(0)))
        kind = "misc"
        if year and paper.list:
            kind = "inproceedings"
            fields.append(("booktitle", bib_escape(paper.list)))
        if paper.url:
            fields.append(("url", paper.url))
        if paper.github:
            fields.append(("note", "Code: " + bib_escape(", ".join(paper.github))))
        body = ",\n".join(f"  {name} = {{{value}}}" for name, value in fields)
        entries.append(f"@{kind}{{{bibtex_key(paper, taken)},\n{body}\n}}\n")
    if skipped:
        entries.append(f"% {skipped} paper{'s' if skipped != 1 else ''} without authors left out\n")
    return "\n".join(entries)


def statuses_for(name: str) -> frozenset[Status]:
    """The statuses a ``--status`` value selects (``all`` selects every status)."""
    if name.strip().casefold() == "all":
        return frozenset(Status)
    return frozenset({Status.parse(name)})


def select(
    papers: Iterable[Paper], statuses: Mapping[str, Status], wanted: frozenset[Status]
) -> list[Paper]:
    """The papers whose status is one of ``wanted``, in the given order."""
    return [p for p in papers if statuses.get(p.id, Status.INBOX) in wanted]
