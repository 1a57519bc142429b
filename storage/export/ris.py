"""RIS: the reference format every reference manager imports (Zotero, Mendeley, EndNote).

Each record holds what the library knows of the paper (``storage.sources.citation``): its
``TY`` (``JOUR``, ``CONF``, ``BOOK``, ``THES``…), title and authors (and the editors of its
book or proceedings where Zotero writes them: ``A2``, a book's ``A3``), the journal (``JO``)
or the proceedings or venue (``T2``), its series (``T3``; a book's ``T2``), a master's
thesis's ``M3``, ``PY`` (and ``DA`` with the month and day as known),
publisher, volume, issue, start and end pages, ISBN/ISSN, abstract, link, DOI, keywords,
and a note (``N1``) ending in its code links; ``storage.sources.ris`` reads it back whole.

The user's own tags are ``KW`` lines after the keywords, and the user's note an ``N1`` of its
own before the reference's (its lines as lines: Zotero makes each ``N1`` a note, each ``KW`` a
tag). ``U3`` names the tags and ``U4`` says the first ``N1`` is the note, so that our reader
takes them back as the note and tags, not as the source's keywords and note.

The text is the library's, control characters too (a file is no terminal: the CLI shows them
when the export goes to one); only what would end a line, and NUL, is not (``file_line``).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator, Sequence

from storage.export.exporter import DEFAULT_OPTIONS, Exporter, ExportOptions
from storage.export.selection import keywords_and_tags, lists_text, users_own, written_text
from storage.files.triage_file import TriageState
from storage.models import Paper
from storage.sources.authors import is_et_al, name_parts
from storage.sources.citation import RIS_TYPES, citation_of, editors_only
from storage.sources.fields import written_whole
from storage.sources.links import web_url
from storage.sources.ris import (
    TITLE_DERIVED,
    USERS_NOTE,
    USERS_TAGS,
    editors_tag,
    series_editors_tag,
)
from storage.text.sanitize import file_block, file_line

#: A line that would read as a tag (``ER  - …``): a paragraph starting so is indented.
_TAG_LIKE = re.compile(r"[A-Z][A-Z0-9] {0,2}-")


def _line(tag: str, value: str) -> str:
    """One ``TAG  - value`` line: a value is one line (a newline would start a tag), its
    other characters as they are (``file_line``)."""
    return f"{tag}  - {' '.join(file_line(value).split())}"


def _fact(paper: Paper, name: str) -> str:
    value = paper.fact(name)
    return value if isinstance(value, str) else ""


def _pages(pages: str) -> list[tuple[str, str]]:
    """``1–10`` → ``SP 1``, ``EP 10``; another form of pages is ``SP`` alone."""
    match = re.fullmatch(r"(\w+)\s*(?:-{1,3}|[‐‑‒–—−])\s*(\w+)", pages)
    if match:
        return [("SP", match.group(1)), ("EP", match.group(2))]
    return [("SP", pages)] if pages else []


def ris_name(name: str, whole: Collection[str] = ()) -> str:
    """An ``AU`` value: ``Last, First, Suffix`` as RIS defines it (``van der Berg, Jan``,
    ``Smith, John, Jr.``), an organization's name whole (``is_organization``: no first name);
    "" for the authors a list leaves out, which RIS has no way to say (its readers would
    take "others" for a person). One of ``whole`` (``literal_names``) whole too."""
    if is_et_al(name):
        return ""
    parts = name_parts(name, whole)
    if parts.literal:
        return parts.literal
    return ", ".join(p for p in (parts.last, parts.given, parts.suffix) if p)


def ris_entry(paper: Paper, note: str = "", tags: Sequence[str] = ()) -> list[str]:
    """The lines of one paper's record, ``TY`` to ``ER``, with the user's ``note`` and
    ``tags`` (see the module)."""
    cited = citation_of(paper)
    kind = RIS_TYPES.get(cited.kind, "GEN")
    edited = editors_only(paper)  # a volume that names only its editors
    if kind == "EDBOOK" and paper.authors and not edited:
        kind = "BOOK"  # an ``EDBOOK``'s ``AU`` are its editors: a collection by its authors
    lines = [_line("TY", kind), _line("TI", written_text(paper.title, title=True))]
    whole = written_whole(paper.fact("literal_names"))
    people = (ris_name(a, whole) for a in paper.authors)
    lines += [_line("ED" if edited else "AU", n) for n in people if n]
    if (editors := _fact(paper, "editors")) and not edited:  # its book's, where Zotero puts them
        tag = editors_tag(kind)
        lines += [_line(tag, n) for n in (ris_name(a, whole) for a in editors.split("; ")) if n]
    if (series_editors := _fact(paper, "series_editors")) and (tag := series_editors_tag(kind)):
        named = (ris_name(a, whole) for a in series_editors.split("; "))
        lines += [_line(tag, n) for n in named if n]
    series = _fact(paper, "series")
    if cited.journal:
        lines.append(_line("JO", cited.journal))
    elif series and kind in ("BOOK", "EDBOOK"):  # a book's T2 is its series
        lines.append(_line("T2", series))
    elif cited.booktitle or cited.published:
        lines.append(_line("T2", cited.booktitle or cited.published))
    if series and kind not in ("BOOK", "EDBOOK"):
        lines.append(_line("T3", series))
    if cited.kind == "mastersthesis":  # its type of work, as Zotero writes a thesis's
        lines.append(_line("M3", "Master's thesis"))
    if cited.year:
        lines.append(_line("PY", str(cited.year)))
        if cited.month and cited.day:
            lines.append(_line("DA", f"{cited.year}/{cited.month:02d}/{cited.day:02d}/"))
        elif cited.month:
            lines.append(_line("DA", f"{cited.year}/{cited.month:02d}//"))
    publisher = _fact(paper, "publisher") or _fact(paper, "school") or _fact(paper, "institution")
    if publisher:
        lines.append(_line("PB", publisher))
    for tag, name in (("VL", "volume"), ("IS", "issue")):
        if value := _fact(paper, name):
            lines.append(_line(tag, value))
    lines += [_line(tag, value) for tag, value in _pages(_fact(paper, "pages"))]
    for name in ("isbn", "issn"):
        if value := _fact(paper, name):
            lines.append(_line("SN", value))
    if paper.abstract:  # a paragraph a line, a blank line between them
        first, *more = written_text(paper.abstract).split("\n\n")
        lines.append(_line("AB", first))
        for paragraph in more:
            line = " ".join(file_line(paragraph).split())
            lines += ["", f"  {line}" if _TAG_LIKE.match(line) else line]
    if url := web_url(paper.url):
        lines.append(_line("UR", url))
    if pdf := web_url(_fact(paper, "pdf")):
        lines.append(_line("L1", pdf))
    if cited.doi:
        lines.append(_line("DO", cited.doi))
    lines += [_line("KW", k) for k in keywords_and_tags(paper.keywords, tags)]
    if note:  # its lines as they are, all but the first indented: none starts a tag (``ER``),
        # our reader takes the indent off, Zotero trims it
        first, *more = file_block(note).split("\n")
        lines += [f"N1  - {first}", *(f"  {line}" if line else "" for line in more)]
    cited_note = _fact(paper, "bib_note")
    if paper.github:
        code = "Code: " + ", ".join(paper.github)
        cited_note = f"{cited_note}; {code}" if cited_note else code
    if cited_note:
        lines.append(_line("N1", cited_note))
    if groups := lists_text(paper):  # a user-defined tag: what lists the paper is in
        lines.append(_line("U1", f"Lists: {groups}"))
    if paper.title_derived and paper.abstract:  # another: read back as derived, not as real
        lines.append(_line("U2", TITLE_DERIVED))
    if tags:  # which of the keywords are the user's tags, and whose the first note is
        lines.append(_line("U3", USERS_TAGS + "; ".join(tags)))
    if note:
        lines.append(_line("U4", USERS_NOTE))
    lines.append("ER  - ")
    return lines


def to_ris(
    papers: Sequence[Paper], triage: TriageState, options: ExportOptions = DEFAULT_OPTIONS
) -> str:
    """One RIS record per paper, separated by blank lines."""
    return "".join(ris_pieces(papers, triage, options))


def ris_pieces(
    papers: Sequence[Paper], triage: TriageState, options: ExportOptions = DEFAULT_OPTIONS
) -> Iterator[str]:
    """``to_ris`` in pieces: a record at a time."""
    return ("\n".join(ris_entry(p, *users_own(p, triage))) + "\n\n" for p in papers)


RIS = Exporter(
    name="ris",
    label="RIS",
    suffix=".ris",
    description="one record per paper: for Zotero, Mendeley, EndNote",
    pieces=ris_pieces,
)
