"""Markdown (CommonMark): a heading with the list and count, then the papers as a reading list.

Each paper is a task (``- [ ] Title — code — PDF``, ``- [x]`` for a paper read), which GitHub,
Obsidian and most Markdown editors show as a checkbox, with its links: its page, its code, its
PDF (``storage.pdfs.links.pdf_url``). Titles, authors and other data are escaped
(shown literally) in a way MathJax-aware viewers read literally too: ``(KBG)`` stays as it is
(``\\(`` opens inline math there), brackets and angle brackets are HTML entities. The user's
notes are the user's Markdown, kept as written inside their paper's entry (control characters
made visible). When the papers have several triage states, each entry says its own; each
names its lists in an HTML comment (no viewer shows it), so that ``storage.sources.markdown``
reads the export back as the same papers. A note's raw HTML is written as text (``\\<div>``,
``storage.text.markdown_html``): an unclosed ``<!--`` or ``<script>`` in it hid what followed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence

from storage.export.exporter import DEFAULT_OPTIONS, Exporter, ExportOptions
from storage.export.selection import groups, heading_of, lists_text
from storage.files.triage_file import TriageState
from storage.models import Paper, Status
from storage.pdfs.links import pdf_url
from storage.sources.authors import FAMILY_TIE
from storage.sources.citation import editors_only
from storage.sources.markdown import TITLE_DERIVED_MARK
from storage.text.markdown_html import html_literal
from storage.text.sanitize import printable, printable_block
from storage.text.words import count

_MD_SPECIAL = re.compile(r"([\\`*_{}#!|~&$,])")
# Brackets as entities, not ``\\[``: MathJax-aware viewers read ``\\[`` as display math.
_MD_ENTITIES = str.maketrans({"[": "&#91;", "]": "&#93;", "<": "&lt;", ">": "&gt;"})
# What the comment of an entry's lists escapes (with a backslash): see ``_entry``.
_COMMENT_SAFE = re.compile(r"[-\\&]")


def md_escape(text: str) -> str:
    """Text that CommonMark shows literally, on one line (control characters made visible:
    ``cat export.md`` must not obey an ESC, ``ESC c`` or the 8-bit CSI U+009B); parentheses
    as they are, brackets and angle brackets as entities (read literally by MathJax too)."""
    escaped = _MD_SPECIAL.sub(r"\\\1", " ".join(printable(text).split()))
    return escaped.translate(_MD_ENTITIES)


def _md_name(name: str) -> str:
    """A person's name as ``md_escape`` writes text, its family name's tie kept
    (``storage.sources.authors.FAMILY_TIE``: shown as a space, read back as the tie)."""
    return FAMILY_TIE.join(md_escape(part) for part in name.split(FAMILY_TIE))


_MD_BLOCK_START = re.compile(r"^(?:([-+=])|(\d+)([.)]))")


def md_escape_line(text: str) -> str:
    """``md_escape`` for text that starts a line: list, rule and heading markers made literal."""
    return _MD_BLOCK_START.sub(
        lambda m: f"\\{m[1]}" if m[1] else f"{m[2]}\\{m[3]}", md_escape(text)
    )


# Whitespace and controls inside a link (a URL imported before links were checked) as %XX: a
# newline there would end the entry and start Markdown of the file's choosing.
_URL_BREAKS = re.compile(r"[\s\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def md_url(url: str) -> str:
    """A link destination CommonMark reads whole: spaces, parentheses, angle brackets and
    backslashes encoded."""
    return (
        _URL_BREAKS.sub(lambda m: "".join(f"%{b:02X}" for b in m[0].encode()), url.strip())
        .replace("(", "%28")
        .replace(")", "%29")
        .replace("<", "%3C")
        .replace(">", "%3E")
        .replace("\\", "%5C")  # "(…\\)" would escape the link's closing parenthesis
    )


def _repo_label(url: str) -> str:
    return url.removeprefix("https://github.com/")


def to_markdown(
    papers: Sequence[Paper], triage: TriageState, options: ExportOptions = DEFAULT_OPTIONS
) -> str:
    """A heading with the list and count, then one entry per paper: links, authors, note."""
    return "".join(markdown_pieces(papers, triage, options))


def markdown_pieces(
    papers: Sequence[Paper], triage: TriageState, options: ExportOptions = DEFAULT_OPTIONS
) -> Iterator[str]:
    """``to_markdown`` in pieces: its lines, one line end at the end and no blank line."""
    return _ended(_lines(papers, triage, options))


def _lines(papers: Sequence[Paper], triage: TriageState, options: ExportOptions) -> Iterator[str]:
    heading = md_escape(heading_of(papers, triage, options.heading))
    yield from (f"# {heading} ({count(len(papers), 'paper')})", "")
    several = len({triage.status(p.id) for p in papers}) > 1
    for group, members in groups(papers, triage, options.group_by):
        if group:
            yield from (f"## {md_escape(group)} ({len(members):,})", "")
        for paper in members:
            yield from _entry(paper, triage, status=several, abstract=options.abstracts)
        if group:
            yield ""


def _ended(lines: Iterable[str]) -> Iterator[str]:
    """``"\\n".join(lines).rstrip("\\n") + "\\n"``, a line at a time: the line ends after the
    last text are held back until more text follows them."""
    held = 0  # line ends not given yet
    first = True
    for line in lines:
        held += 0 if first else 1
        first = False
        text = line.rstrip("\n")
        if text:
            yield "\n" * held + text
            held = len(line) - len(text)
        else:
            held += len(line)
    yield "\n"


def _entry(paper: Paper, triage: TriageState, *, status: bool, abstract: bool) -> list[str]:
    title = md_escape(paper.display_title)
    state = triage.status(paper.id)
    box = "[x]" if state is Status.READ else "[ ]"
    head = f"- {box} **[{title}]({md_url(paper.url)})**" if paper.url else f"- {box} **{title}**"
    if paper.venue_status:
        head += f" · {md_escape(paper.venue_status)}"
    if status:
        head += f" · {state.value}"
    if paper.github:
        head += f" — [code]({md_url(paper.github[0])})"
    if pdf := pdf_url(paper):
        head += f" — [PDF]({md_url(pdf)})"
    # the lists it is in, for our reader: an HTML comment, which no viewer shows. Every "-" is
    # escaped, so that no name can close it ("--->" once did: what followed was live HTML),
    # and "\\" and "&" too, so that our reader's unescaping gives each name back as it was
    names = " ".join(printable(lists_text(paper)).split())
    safe = _COMMENT_SAFE.sub(r"\\\g<0>", names)
    if abstract and paper.abstract and paper.title_derived:  # read back as derived, not real
        head += f" {TITLE_DERIVED_MARK}"
    head += f" <!-- lists: {safe} -->"
    lines = [head]
    if paper.authors:  # a volume that names only its editors: theirs (``editors_only``)
        people = "Editors" if editors_only(paper) else "Authors"
        lines.append(f"  - {people}: {', '.join(map(_md_name, paper.authors))}")
    lines += _book_lines(paper)
    if paper.github:
        links = ", ".join(f"[{md_escape(_repo_label(u))}]({md_url(u)})" for u in paper.github)
        lines.append(f"  - Code: {links}")
    tags = triage.tags.get(paper.id)
    if tags:
        lines.append(f"  - Tags: {', '.join(md_escape(t) for t in tags)}")
    facts = [f"{name}: {value}" for name, value in paper.extra if name in _SHOWN_FACTS]
    if facts:
        lines.append(f"  - {' · '.join(md_escape(f) for f in facts)}")
    if abstract and paper.abstract:
        # each paragraph starts a line of the quote: "- …", "1. …", "---" would be a list or a rule
        lines += ["", *(f"  > {md_escape_line(p)}" if p else "  >" for p in _paragraphs(paper)), ""]
    note = html_literal(printable_block(triage.notes.get(paper.id, "")).strip())
    if note:  # the user's Markdown, indented into the entry: it cannot end the list, and its
        # raw HTML is shown as text (an unclosed "<!--" hid every paper after it)
        body = note.splitlines()
        lines += ["", "  Note:", ""]
        lines += [f"  {line}" if line.strip() else "" for line in body]
        lines.append("")
    return lines


#: The kinds of reference a book's editors and series are shown for: books and their parts.
_BOOKS = frozenset(
    {"book", "mvbook", "collection", "mvcollection", "proceedings", "mvproceedings",
     "reference", "incollection", "inbook", "bookinbook", "inreference", "suppbook",
     "suppcollection"}
)  # fmt: skip


def _book_lines(paper: Paper) -> list[str]:
    """A book's or a chapter's editors (its book's: ``Edited by``) and series, when it names
    them, in the entry's line style (a volume of its editors alone names them ``Editors``)."""
    kind = paper.fact("entry_type")
    if kind not in _BOOKS:
        return []
    lines = []
    editors = paper.fact("editors")
    if isinstance(editors, str) and editors and not editors_only(paper):
        lines.append(f"  - Edited by: {', '.join(map(_md_name, editors.split('; ')))}")
    series = paper.fact("series")
    if isinstance(series, str) and series:
        lines.append(f"  - Series: {md_escape(series)}")
    return lines


#: The extra fields an entry shows (a DOI and a TL;DR are for other formats).
_SHOWN_FACTS = ("rating", "citations", "area")


def _paragraphs(paper: Paper) -> list[str]:
    """The display abstract, paragraph by paragraph, with an empty line between them.

    A word a line's end broke at its hyphen is written as the display form writes it
    (``at- tention``), not whole as the pane shows it (``storage.text.line_breaks``): read
    back, ``at-tention`` or ``attention`` is another abstract identity, so another paper."""
    out: list[str] = []
    for paragraph in paper.display_abstract.split("\n\n"):
        out += ["", paragraph] if out else [paragraph]
    return out


MARKDOWN = Exporter(
    name="markdown",
    label="Markdown",
    suffix=".md",
    description="a heading, then one entry per paper: links, authors, tags, note",
    pieces=markdown_pieces,
    heeds=frozenset({"group_by", "abstracts"}),
)
