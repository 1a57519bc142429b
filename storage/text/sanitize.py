"""Text safe to write to a terminal: control characters shown as visible symbols, never obeyed.

Everything that came from a file is data at the screen's border: an ESC in a title shows as
``␛[31m`` instead of turning the terminal red, and an OSC 52 sequence cannot write the
clipboard. What is made visible:

- C0 controls (U+0000–U+001F) as their Control Pictures (``␛`` for ESC, ``␇`` for BEL…), DEL
  as ``␡``; a tab or a newline is a space on one line (``printable_block`` keeps newlines);
- C1 controls (U+0080–U+009F, among them the 8-bit CSI U+009B that some terminals obey like
  ``ESC [``) as ``�``;
- bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069) as ``�``:
  they reorder the text after them, so that what shows is not what is there ("Trojan Source");
- the line and paragraph separators U+2028 and U+2029 as spaces (some terminals break the
  line there, others show nothing).

The directional marks U+200E, U+200F and U+061C are kept: they are part of ordinary Arabic and
Hebrew text, set the direction of the neutral characters beside them only, and cannot reverse a
run of text the way an override does.

A file is not a terminal: exports keep the text there (``file_line``, ``file_block``), all
but what would end a line of the file where its format wants one line, and NUL.
"""

from __future__ import annotations

import re

#: What a character that would steer the terminal or reorder the text shows as.
REPLACEMENT = "\N{REPLACEMENT CHARACTER}"

_BIDI = "\u202a-\u202e\u2066-\u2069"
_SEPARATORS = "\u2028\u2029"

#: What each control character shows as: C0 its Control Picture (``␛``), DEL ``␡``, C1 ``�``.
SHOWN: dict[int, str] = {c: chr(0x2400 + c) for c in range(0x20)} | {0x7F: "␡"}
SHOWN |= dict.fromkeys(range(0x80, 0xA0), REPLACEMENT)

_CONTROL: dict[int, str] = SHOWN | dict.fromkeys(range(0x202A, 0x202F), REPLACEMENT)
_CONTROL |= {c: REPLACEMENT for c in range(0x2066, 0x206A)}
_CONTROL |= {0x09: " ", 0x0A: " ", 0x2028: " ", 0x2029: " "}

# Searched before translating: most text holds none of these, and is returned as it is.
_UNSAFE = re.compile(f"[\x00-\x1f\x7f-\x9f{_BIDI}{_SEPARATORS}]")
_UNSAFE_IN_BLOCK = re.compile(f"[\x00-\x09\x0b-\x1f\x7f-\x9f{_BIDI}{_SEPARATORS}]")
# In JSON text these characters can only stand inside strings (JSON's own syntax is ASCII), so
# writing them as \uXXXX escapes is lossless: every parser reads back the same string. Tab and
# newline are the whitespace between tokens (inside strings every encoder escapes them).
_UNSAFE_IN_JSON = re.compile(f"[\x00-\x08\x0b-\x1f\x7f-\x9f{_BIDI}{_SEPARATORS}]")


def printable(text: str) -> str:
    """``text`` on one line with control characters made visible, safe to hand to a terminal."""
    return text.translate(_CONTROL) if _UNSAFE.search(text) else text


def printable_block(text: str) -> str:
    """Like ``printable`` but keeps newlines (for abstracts, notes, whole documents); a line
    ending in ``\\r\\n`` (a note from a file written on Windows) ends there too."""
    if not _UNSAFE_IN_BLOCK.search(text):
        return text
    return "\n".join(line.translate(_CONTROL) for line in text.replace("\r\n", "\n").split("\n"))


def editable_block(text: str) -> str:
    """Like ``printable_block`` for a text the user edits and saves back (a note): a line
    ends at ``\\r\\n`` as at ``\\n``, and a tab stays a tab, as a text field shows them, so
    that saving it edited changes only what would steer the terminal (a CRLF note saved with
    a word added had ``␍`` at each line's end, its tabs spaces)."""
    lines = text.replace("\r\n", "\n").split("\n")
    return "\n".join("\t".join(map(printable, line.split("\t"))) for line in lines)


#: What ends a line for a reader (``str.splitlines``) besides "\\n", shown as ``printable`` shows
#: it; and NUL, which makes a file binary to every reader, as U+FFFD (as the CSV export does).
_LINE_ENDS: dict[int, str] = {c: _CONTROL[c] for c in map(ord, "\r\x0b\x0c\x1c\x1d\x1e\x85")}
_LINE_ENDS |= {0x0A: " ", 0x2028: " ", 0x2029: " ", 0x00: REPLACEMENT}
_ENDS_A_LINE = re.compile("[\x00\n\r\x0b\x0c\x1c-\x1e\x85\u2028\u2029]")


def file_line(text: str) -> str:
    """``text`` on one line of a text file (a RIS tag's value): every character kept (a file
    keeps the text: a terminal shows it at its border) but those that would end the line,
    shown as ``printable`` shows them, and NUL (``_LINE_ENDS``)."""
    return text.translate(_LINE_ENDS) if _ENDS_A_LINE.search(text) else text


def file_block(text: str) -> str:
    """Like ``file_line`` but keeps newlines (a note's lines, each a line of the file); a
    CRLF ends a line as LF does (a note written on Windows: its CR is not shown as ␍)."""
    return "\n".join(map(file_line, text.replace("\r\n", "\n").split("\n")))


def json_safe(document: str) -> str:
    """A JSON document with every control and bidirectional character written as ``\\uXXXX``.

    The same data for any JSON parser, and nothing in it that a terminal would obey.
    """
    return _UNSAFE_IN_JSON.sub(_u_escape, document)


def ascii_json(document: str) -> str:
    """A JSON document with every character beyond ASCII written as ``\\uXXXX`` (a pair of
    surrogates beyond U+FFFF): the same data, for an output that holds ASCII alone."""
    return _NOT_ASCII.sub(_u_escape, document)


_NOT_ASCII = re.compile(r"[^\x00-\x7f]")


def _u_escape(match: re.Match[str]) -> str:
    """The character ``match`` holds as JSON's ``\\uXXXX`` (two of them beyond U+FFFF)."""
    code = ord(match[0])
    if code < 0x10000:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
