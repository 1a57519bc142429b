"""BibTeX: one entry per paper that has authors, keyed ``lastname2025firstword``."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from storage.export.exporter import DEFAULT_OPTIONS, Exporter, ExportOptions
from storage.models import Paper
from storage.triage import TriageSnapshot

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


def to_bibtex(
    papers: Sequence[Paper], triage: TriageSnapshot, options: ExportOptions = DEFAULT_OPTIONS
) -> str:
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


BIBTEX = Exporter(
    name="bibtex",
    label="BibTeX",
    suffix=".bib",
    description="one entry per paper with authors, for LaTeX and reference managers",
    write=to_bibtex,
)
