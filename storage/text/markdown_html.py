"""A note's Markdown with its raw HTML made literal: ``<`` that could open HTML written ``\\<``.

A note is the user's Markdown, kept as written in the Markdown export, except for raw HTML:
CommonMark passes it through to the page, so an unclosed ``<!--`` (an HTML block runs to its
``-->``), ``<script>``, ``<style>``, ``<textarea>`` or ``<pre>`` in one paper's note hid every
paper after it once the file was rendered. Every ``<`` that could start an HTML block or
inline HTML (``<`` before a letter, ``/``, ``!`` or ``?``: tags, comments, declarations,
processing instructions, CDATA) gets a backslash, which CommonMark shows as ``<`` and a reader
of the raw file reads through. Left as written, where a backslash would show:

- fenced code (a fence at the start of a line: a fence nested in a list or a quote is
  escaped like text, which can only show a backslash, never let HTML through);
- code spans that open and close on one line, in a paragraph whose every backtick string
  pairs on its own line (otherwise CommonMark may pair them across lines: all escaped);
- autolinks (``<https://…>``, ``<name@example.org>``), which are links, not HTML.

What is left as code is checked with a real CommonMark parser (markdown-it-py): where it
reads the note otherwise (a fence in a list item closed by one at the start of a line, a
backtick in a link's destination), and finds raw HTML, every ``<`` is escaped, code or not.

``html_literal`` escapes; ``html_restored`` undoes it for the Markdown reader (a ``\\<`` the
user wrote before a tag's letter is read back as ``<`` too: the same rendered text). Both see
the same code and links, so export → import → export is a fixed point.
"""

from __future__ import annotations

import re
from typing import Final

_PUNCTUATION: Final = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
#: After ``<``: what opens a tag, a closing tag, a comment, a declaration, CDATA or a PI.
_HTML_NEXT: Final = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz/!?")
#: CommonMark's autolinks, those that start with a letter or a digit only: an email autolink
#: may start ``<!--x@y.z>``, which at the start of a line opens an HTML block.
_AUTOLINK: Final = re.compile(
    r"<(?:[A-Za-z][A-Za-z0-9+.\-]{1,31}:[^\x00-\x20<>]*"
    r"|[A-Za-z0-9][A-Za-z0-9.!#$%&'*+/=?^_`{|}~\-]*@[A-Za-z0-9](?:[A-Za-z0-9\-]{0,61}[A-Za-z0-9])?"
    r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9\-]{0,61}[A-Za-z0-9])?)*)>"
)
#: A fence that opens at the start of a line (info string of a backtick fence: no backtick).
_FENCE: Final = re.compile(r"(`{3,})(?!.*`)|(~{3,})")
#: What may close a fence: CommonMark's closer (up to three spaces, the fence's character at
#: least as many times, spaces) and a little more (any space), never less.
_CLOSER: Final = re.compile(r"\s{0,3}(`{3,}|~{3,})\s*")


def html_literal(note: str) -> str:
    """``note`` with every ``<`` that could start raw HTML escaped (see the module)."""
    spared = _rewrite(note, escape=True)
    everywhere = _every_line(note, escape=True)
    if spared == everywhere or _holds_no_html(spared):
        return spared
    return everywhere


def html_restored(note: str) -> str:
    """What ``html_literal`` wrote, as it was."""
    everywhere = _every_line(note, escape=False)
    if html_literal(everywhere) == note:
        return everywhere
    return _rewrite(note, escape=False)


def _every_line(text: str, *, escape: bool) -> str:
    """``text`` with every ``<`` that could open HTML escaped (or their escapes taken away),
    code or not: it can only show a backslash in code, never let HTML through."""
    return "\n".join(_line(line, [], escape=escape) for line in text.split("\n"))


def _holds_no_html(markdown: str) -> bool:
    """Whether a CommonMark parser (markdown-it-py) finds no raw HTML in ``markdown``: the
    check of what ``_rewrite`` left as code, whose reading of code spans and fences is
    CommonMark's in most cases only (a fence in a list item, a backtick in a link's
    destination are read otherwise)."""
    from markdown_it import MarkdownIt

    stack = list(MarkdownIt("commonmark").parse(markdown))
    while stack:
        token = stack.pop()
        if token.type in ("html_block", "html_inline"):
            return False
        stack.extend(token.children or ())
    return True


def _rewrite(text: str, *, escape: bool) -> str:
    out: list[str] = []
    chunk: list[str] = []  # the lines of a paragraph (no blank line, no fence between them)
    fence = ""  # the open fence

    def flush() -> None:
        spans = [_code_spans(line) for line in chunk]
        paired = all(s is not None for s in spans)
        for line, found in zip(chunk, spans, strict=True):
            out.append(_line(line, found if paired and found else [], escape=escape))
        chunk.clear()

    for line in text.split("\n"):
        if fence:
            out.append(line)
            closer = _CLOSER.fullmatch(line)
            if closer and closer[1][0] == fence[0] and len(closer[1]) >= len(fence):
                fence = ""
        elif opened := _FENCE.match(line):
            flush()
            out.append(line)
            fence = opened[0]
        elif not line.strip():
            flush()
            out.append(line)
        else:
            chunk.append(line)
    flush()
    return "\n".join(out)


def _code_spans(line: str) -> list[tuple[int, int]] | None:
    """Where ``line``'s code spans start and end, read as CommonMark reads them; None when a
    backtick string on it has no partner on the line."""
    spans: list[tuple[int, int]] = []
    i, n = 0, len(line)
    while i < n:
        c = line[i]
        if c == "\\" and i + 1 < n and line[i + 1] in _PUNCTUATION:
            i += 2
        elif c == "<" and (link := _AUTOLINK.match(line, i)):
            i = link.end()
        elif c == "`":
            run = _run_end(line, i)
            k = run
            while k < n and not (line[k] == "`" and _run_end(line, k) - k == run - i):
                k = _run_end(line, k) if line[k] == "`" else k + 1
            if k >= n:
                return None
            spans.append((i, _run_end(line, k)))
            i = spans[-1][1]
        else:
            i += 1
    return spans


def _run_end(line: str, i: int) -> int:
    while i < len(line) and line[i] == "`":
        i += 1
    return i


def _line(line: str, spans: list[tuple[int, int]], *, escape: bool) -> str:
    """``line`` with its HTML starts escaped (or their escapes taken away), outside ``spans``."""
    if "<" not in line:
        return line
    out: list[str] = []
    starts = dict(spans)
    i, n = 0, len(line)
    while i < n:
        c = line[i]
        if i in starts:
            out.append(line[i : starts[i]])
            i = starts[i]
        elif c == "\\" and i + 1 < n and line[i + 1] in _PUNCTUATION:
            if not escape and _opens_html(line, i + 1):
                out.append("<")  # ours (or the user's, with the same meaning): as it was
            else:
                out.append(line[i : i + 2])
            i += 2
        elif c == "<" and (link := _AUTOLINK.match(line, i)):
            out.append(link[0])
            i = link.end()
        else:
            out.append("\\<" if escape and _opens_html(line, i) else c)
            i += 1
    return "".join(out)


def _opens_html(line: str, i: int) -> bool:
    """Whether the ``<`` at ``i`` could start raw HTML (an autolink does not)."""
    return (
        line[i] == "<"
        and i + 1 < len(line)
        and line[i + 1] in _HTML_NEXT
        and not _AUTOLINK.match(line, i)
    )
