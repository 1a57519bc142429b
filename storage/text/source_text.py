"""Display text written back as the converter's source, and TeX escapes read in plain text.

The library keeps a title or an abstract as its source gives it, and shows it through
``storage.text.latex.to_unicode``. A format papers-tui wrote holds display text: ``literal``
gives the source whose display is that text; ``tex_text`` reads the TeX escapes of text written
plain but for them (a BibTeX note), and nothing else.
"""

from __future__ import annotations

import functools
import re
import unicodedata

from storage.text.latex import to_unicode

__all__ = ["literal", "tex_text"]

# How ``literal`` writes a character the converter would read as markup.
_LITERAL = str.maketrans({
    "\\": "\\textbackslash{}", "{": "\\{", "}": "\\}", "$": "\\$", "~": "\\textasciitilde{}",
    "^": "\\textasciicircum{}", "_": "\\textunderscore{}", "*": "\\textasteriskcentered{}",
    "&": "\\&", "%": "\\%", "#": "\\#", "`": "\\textasciigrave{}", "[": "{[}", "<": "{<}",
})  # fmt: skip


def literal(text: str, *, markdown: bool = True) -> str:
    """Text whose display (``to_unicode``) is ``text`` itself, for text that is already
    display text (a plain-text format papers-tui wrote: its CSL-JSON, RIS, Markdown): as it is
    when it reads as itself, else with what reads as markup escaped (``{Y}`` → ``\\{Y\\}``,
    ``350M~66B`` → ``350M\\textasciitilde{}66B``); as it is when even that does not read back.
    Its control characters are text too (an export to a file keeps them: not ``shown``).
    Not ``markdown``: for a title, whose display reads no Markdown (``__init__`` as it is)."""

    def shown(source: str) -> str:
        return to_unicode(source, shown=False, markdown=markdown)

    if not text or shown(text) == text:
        return text
    escaped = text.translate(_LITERAL).replace("--", "-{}-").replace("''", "'{}'")
    return escaped if shown(escaped) == text else text


#: Where a TeX escape starts in text written plain but for its escapes: a command (``\&``,
#: ``\textbackslash{}``), a group (``{\"u}``, ``{$\lbrace$}``), a tie.
_ESCAPE_START = re.compile(r"\\(?:[A-Za-z]+(?:\{\})?|.?)|[{~]", re.DOTALL)


def tex_text(text: str) -> str:
    """Text written as it reads but for its TeX escapes (a BibTeX note: ours, Zotero's,
    JabRef's), as it was: each escape through ``to_unicode`` (``{\\"u}`` → ü, ``\\%`` → %),
    every other character as written, with no Markdown read into it (``[a](b)``, a code
    span, ``''``: a note's own Markdown) and its spaces and lines as they are; composed (NFC:
    ``{e}`` and an ogonek's ``U+0328`` are ``ę``)."""
    out: list[str] = []
    at = 0
    while (found := _ESCAPE_START.search(text, at)) is not None:
        out.append(text[at : found.start()])
        end = found.end() if found.group() != "{" else _group_end(text, found.start())
        escape = text[found.start() : end]
        out.append("\u00a0" if escape == "~" else _escaped(escape))
        at = end
    return unicodedata.normalize("NFC", "".join(out) + text[at:])


#: The longest escape whose reading is remembered (``_escaped``).
_REMEMBERED_CHARS = 80


def _escaped(escape: str) -> str:
    """An escape as ``to_unicode`` reads it. A short one is read once: a note writes the same
    escapes again and again (``\\_``, ``{\\"u}``, our export's ``{\\ensuremath{\\langle}
    \\texttt{U+65E5}…}`` for a Chinese character), and reading each costs some 15 µs: a
    note of 100,000 Chinese characters as our BibTeX export writes it (5.7 MB) read in 3.0 s,
    1.1 s now, and 6.4 MB of ``word \\_`` (the most of a note ``bibtex_notes`` reads) in
    10 s, 1.6 s now (one run each)."""
    return _remembered(escape) if len(escape) <= _REMEMBERED_CHARS else to_unicode(escape)


@functools.lru_cache(maxsize=8192)
def _remembered(escape: str) -> str:
    return to_unicode(escape)


def _group_end(text: str, start: int) -> int:
    """Where the group opening at ``start`` ends: past its matching ``}`` (an escaped brace
    is no brace), or the end of the text."""
    depth = 0
    at = start
    while at < len(text):
        ch = text[at]
        at += 2 if ch == "\\" else 1
        depth += 1 if ch == "{" else -1 if ch == "}" else 0
        if depth == 0:
            return at
    return len(text)
