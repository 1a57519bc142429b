"""Markdown (CommonMark): a heading with the list and count, then one entry per paper."""

from __future__ import annotations

import re
from collections.abc import Sequence

from storage.export.exporter import DEFAULT_OPTIONS, Exporter, ExportOptions
from storage.export.selection import groups, heading_of
from storage.models import Paper
from storage.triage import TriageSnapshot

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


def to_markdown(
    papers: Sequence[Paper], triage: TriageSnapshot, options: ExportOptions = DEFAULT_OPTIONS
) -> str:
    """A heading with the list and count, then one entry per paper: links, authors, note."""
    count = f"{len(papers)} paper{'s' if len(papers) != 1 else ''}"
    lines = [f"# {md_escape(heading_of(papers, triage, options.heading))} ({count})", ""]
    for group, members in groups(papers, triage, options.group_by):
        if group:
            lines += [f"## {md_escape(group)} ({len(members)})", ""]
        for paper in members:
            lines += _entry(paper, triage)
        if group:
            lines.append("")
    if lines[-1] != "":
        lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"


def _entry(paper: Paper, triage: TriageSnapshot) -> list[str]:
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


MARKDOWN = Exporter(
    name="markdown",
    label="Markdown",
    suffix=".md",
    description="a heading, then one entry per paper: links, authors, tags, note",
    write=to_markdown,
)
