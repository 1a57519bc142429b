"""BibTeX: one entry per paper, valid where it lands (pdflatex + bibtex, biber, Zotero).

Every value is pure ASCII with LaTeX escapes and balanced braces (``storage.export.tex``);
keys are ``lastname2025firstword``, ASCII, unique within the file (a letter added to a
repeat) and the same for the same papers in the same order. A paper of a known venue is
``@inproceedings`` with ``booktitle = {International Conference on Learning Representations
(ICLR)}`` and its ``year`` (a journal: ``@article`` and ``journal``), whether its source or
its list says the venue (``ICLR 2025``, ``iclr2025``); any other paper is ``@misc``, with the
year its venue or list names. The abstract, DOI and code links go along, so that the file
imports back as the same papers.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from storage.export.exporter import DEFAULT_OPTIONS, Exporter, ExportOptions
from storage.export.selection import venue_of
from storage.export.tex import tex_ascii
from storage.files.triage_file import TriageState
from storage.models import Paper
from storage.sources.links import web_url


def bib_escape(text: str) -> str:
    """Text safe inside a BibTeX field: one line, ASCII, LaTeX escapes, balanced braces."""
    return tex_ascii(text)


def _ascii_word(text: str) -> str:
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^A-Za-z0-9]", "", plain)


def bibtex_key(paper: Paper, taken: set[str]) -> str:
    """``lastname2025firstword``, made unique with a letter suffix."""
    last = _ascii_word(paper.authors[0].split()[-1]).lower() if paper.authors else "anon"
    year = venue_of(paper).year
    words = [w for w in (_ascii_word(w).lower() for w in paper.display_title.split()) if w]
    first = next((w for w in words if len(w) > 3), words[0] if words else "paper")
    key = f"{last or 'anon'}{year or ''}{first}"
    candidate, n = key, 0
    while candidate in taken:
        n += 1
        candidate = f"{key}{chr(ord('a') + (n - 1) % 26)}{(n - 1) // 26 or ''}"
    taken.add(candidate)
    return candidate


def _author(name: str) -> str:
    """One author as BibTeX reads it: a name holding " and " or a comma is kept whole."""
    escaped = bib_escape(name)
    if re.search(r"\band\b", name, re.IGNORECASE) or "," in name:
        return "{" + escaped + "}"
    return escaped


def bibtex_entry(paper: Paper, key: str) -> str:
    """The entry of one paper (see the module)."""
    found = venue_of(paper)
    kind = "misc"
    fields = [("title", "{" + bib_escape(paper.display_title) + "}")]
    if paper.authors:
        fields.append(("author", " and ".join(_author(a) for a in paper.authors)))
    else:  # what styles sort by when there is no author
        fields.append(("key", bib_escape(paper.display_title[:40])))
    if found.venue is not None and found.venue.journal:
        kind = "article"
        fields.append(("journal", bib_escape(found.venue.citation)))
    elif found.venue is not None:
        kind = "inproceedings"
        fields.append(("booktitle", bib_escape(found.venue.citation)))
    if found.year:
        fields.append(("year", str(found.year)))
    if url := web_url(paper.url):  # one line, no brace: a URL cannot end the entry early
        fields.append(("url", url))
    doi = paper.fact("doi")
    if isinstance(doi, str) and re.fullmatch(r"10\.\S+", doi) and "{" not in doi + "}":
        fields.append(("doi", bib_escape(doi)))
    if paper.github:
        fields.append(("note", "Code: " + bib_escape(", ".join(paper.github))))
    if paper.keywords:
        fields.append(("keywords", bib_escape(", ".join(paper.keywords))))
    if paper.abstract:
        fields.append(("abstract", bib_escape(paper.display_abstract)))
    body = ",\n".join(f"  {name} = {{{value}}}" for name, value in fields)
    return f"@{kind}{{{key},\n{body}\n}}\n"


def to_bibtex(
    papers: Sequence[Paper], triage: TriageState, options: ExportOptions = DEFAULT_OPTIONS
) -> str:
    """One entry per paper (``@inproceedings``, ``@article`` or ``@misc``)."""
    taken: set[str] = set()
    return "\n".join(bibtex_entry(paper, bibtex_key(paper, taken)) for paper in papers)


BIBTEX = Exporter(
    name="bibtex",
    label="BibTeX",
    suffix=".bib",
    description="one entry per paper, ASCII with LaTeX escapes: for LaTeX and reference managers",
    write=to_bibtex,
)
