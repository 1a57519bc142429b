"""RIS: the reference format every reference manager imports (Zotero, Mendeley, EndNote)."""

from __future__ import annotations

from collections.abc import Sequence

from storage.export.exporter import DEFAULT_OPTIONS, Exporter, ExportOptions
from storage.export.selection import venue_of
from storage.files.triage_file import TriageState
from storage.models import Paper
from storage.sources.links import web_url
from storage.text.sanitize import printable


def _line(tag: str, value: str) -> str:
    """One ``TAG  - value`` line: a value is one line (a newline would start a tag)."""
    return f"{tag}  - {' '.join(printable(value).split())}"


def ris_entry(paper: Paper) -> list[str]:
    """The lines of one paper's record, ``TY`` to ``ER``."""
    found = venue_of(paper)
    kind = "GEN"
    if found.venue is not None:
        kind = "JOUR" if found.venue.journal else "CONF"
    lines = [_line("TY", kind), _line("TI", paper.display_title)]
    for author in paper.authors:
        parts = author.split()
        lines.append(
            _line("AU", f"{parts[-1]}, {' '.join(parts[:-1])}" if len(parts) > 1 else author)
        )
    if found.venue is not None:
        lines.append(_line("T2", found.venue.citation))
    if found.year:
        lines.append(_line("PY", str(found.year)))
    if paper.abstract:
        lines.append(_line("AB", paper.display_abstract))
    if url := web_url(paper.url):
        lines.append(_line("UR", url))
    if isinstance(doi := paper.fact("doi"), str):
        lines.append(_line("DO", doi))
    lines += [_line("KW", k) for k in paper.keywords]
    if paper.github:
        lines.append(_line("N1", "Code: " + ", ".join(paper.github)))
    lines.append("ER  - ")
    return lines


def to_ris(
    papers: Sequence[Paper], triage: TriageState, options: ExportOptions = DEFAULT_OPTIONS
) -> str:
    """One RIS record per paper, separated by blank lines."""
    return "".join("\n".join(ris_entry(p)) + "\n\n" for p in papers)


RIS = Exporter(
    name="ris",
    label="RIS",
    suffix=".ris",
    description="one record per paper: for Zotero, Mendeley, EndNote",
    write=to_ris,
)
