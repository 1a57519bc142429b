"""The plain-text list (the seeds' format): a header line naming the list, then one abstract per
paragraph, each optionally under a title line."""

from __future__ import annotations

import re
from pathlib import Path

from storage.errors import NotAList, SourceError
from storage.models import RecordError
from storage.sources.paragraphs import paragraphs
from storage.sources.records import (
    MAX_HEADER_CHARS,
    Fit,
    Reader,
    ReadResult,
    SourceRecord,
    abstract_problem,
)

#: A title line longer than this is prose, not a title.
MAX_TITLE_CHARS = 250

#: Files of these kinds are never lists of abstracts, whatever their text: a README's
#: paragraphs are no papers, nor are a BibTeX or RIS file's lines.
NOT_PLAIN_LISTS = frozenset({".md", ".markdown", ".rst", ".bib", ".bibtex", ".ris", ".html"})


def sniff_plain_text(text: str, path: Path) -> Fit:
    """Any text can be a list of paragraphs, the reader of last resort, except a file whose
    name says it is something else (Markdown, BibTeX, RIS…)."""
    return Fit.NO if path.suffix.lower() in NOT_PLAIN_LISTS else Fit.ANY


def read_plain_text(text: str, path: Path) -> ReadResult:
    """The plain list: a header line naming the list, then one abstract per paragraph.

    A paragraph whose first line is short and unpunctuated, followed by more lines, is read
    as a title and its abstract.
    """
    source = str(path)
    found = paragraphs(text)
    list_name = path.stem
    if len(found) > 1 and is_header(found[0]):
        list_name = found.pop(0).strip().lstrip("#").strip() or path.stem
    result = ReadResult(source=source, list_name=list_name)
    for number, paragraph in enumerate(found, start=1):
        title, paragraph = split_title(paragraph)
        problem = abstract_problem(paragraph)
        if problem:
            result.errors.append(RecordError(source, number, f"paragraph {problem}"))
            continue
        result.records.append(SourceRecord(abstract=paragraph, title=title))
    if not result.records and not result.errors:
        raise SourceError(f"{path}: holds a header line but no abstracts")
    # a list of abstracts, not a text of which some paragraph reads as one (a program's help
    # saved as a .txt: its usage and options lines each became a paper, in a list named by
    # its usage line): most of its first paragraphs read as abstracts (the first
    # ``_PROSE_SAMPLE``: 0.2 ms each, 20 s for 100,000)
    sample = result.records[:_PROSE_SAMPLE]
    prose = sum(reads_as_prose(r.abstract) for r in sample)
    if sample and not prose and len(sample) == len(result.records):
        raise NotAList(f"{path}: not a paper list: no paragraph reads as an abstract")
    if prose * 2 < len(sample):
        first = "" if len(sample) == len(result.records) else "first "
        raise NotAList(
            f"{path}: not a paper list: only {prose:,} of its {first}{len(sample):,} "
            "paragraphs read as abstracts"
        )
    return result


#: How many of a text's first paragraphs tell whether it is a list of abstracts.
_PROSE_SAMPLE = 200


_WORD = re.compile(r"[^\W\d_]{2,}(?:['’-][^\W\d_]+)*[.,;:!?)\]]*$")
_SENTENCE_END = re.compile(r"[.!?。](?:\s|$)")


def reads_as_prose(paragraph: str) -> bool:
    """Whether a paragraph reads as an abstract: a dozen words or more, most of them words
    of letters (not ``root:x:0:0:root:/root:/bin/bash``, not a table of numbers), and a
    sentence's end. Text in a script without spaces (Chinese) counts by its length."""
    tokens = paragraph.split()
    if len(tokens) < 12:
        letters = sum(ch.isalpha() for ch in paragraph)
        return (
            letters >= 60 and len(tokens) * 20 < letters and bool(_SENTENCE_END.search(paragraph))
        )
    words = sum(1 for t in tokens if _WORD.match(t.lstrip("(\"'“[")))
    return words * 2 >= len(tokens) and bool(_SENTENCE_END.search(paragraph))


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


PLAIN_TEXT = Reader(
    name="plain text",
    label="text",
    suffixes=(".txt", ".text"),
    sniff=sniff_plain_text,
    read=read_plain_text,
)
